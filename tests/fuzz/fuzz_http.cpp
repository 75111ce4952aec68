// The check service's request line, head and query (app/serve/httpparse.h), as a hostile client
// sends them. Checked on every input:
//  - the head screen's verdict (refused or not, heads accepted, a request still open) is the
//    same whether the bytes arrive at once or split where the input says, and the screen never
//    holds more than the head limit + 4 bytes;
//  - the query parser's errors are bounded; an accepted query, encoded again, parses to the
//    same parameters; form decoding never grows its input.
//  - the request parser (parseRequestHead) on a head the screen accepted keeps its views inside
//    the head and agrees with the screen on the body and the Sluice-Subject limit.
// The first two bytes choose small limits, so the boundaries are reached at short lengths.
#include "app/serve/httpparse.h"

#include <QByteArray>
#include <QByteArrayList>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace sluice;
using namespace sluice::serve;

namespace {

struct Verdict
{
    bool refused = false;
    quint64 heads = 0;
    bool inRequest = false;
};

Verdict scan(QByteArrayView data, const HttpLimits &limits, QByteArrayView cuts)
{
    HeadScanner s(limits);
    Verdict v;
    qsizetype at = 0;
    qsizetype c = 0;
    while (at < data.size()) {
        // Piece sizes from the cut bytes (1 to 64), then the rest at once.
        const qsizetype n = c < cuts.size() ? 1 + (uchar(cuts[c++]) % 64) : data.size() - at;
        const qsizetype take = std::min(n, data.size() - at);
        const Rejection r = s.feed(data.sliced(at, take));
        at += take;
        if (s.heldBytes() > limits.maxHeaderBytes + 4) {
            std::abort();
        }
        if (r) {
            if (r.code.isEmpty() || r.message.isEmpty() || r.message.size() > 300) {
                std::abort();
            }
            v.refused = true;
            break;
        }
    }
    v.heads = s.heads();
    v.inRequest = !v.refused && s.inRequest();
    return v;
}

void checkHead(QByteArrayView data, const HttpLimits &limits)
{
    const Verdict whole = scan(data, limits, {});
    const Verdict split = scan(data, limits, data.first(std::min<qsizetype>(data.size(), 64)));
    const Verdict bytes = scan(data, limits, QByteArray(data.size(), '\0')); // byte by byte
    for (const Verdict &v : {split, bytes}) {
        if (v.refused != whole.refused || v.heads != whole.heads ||
            v.inRequest != whole.inRequest) {
            std::abort();
        }
    }
    const Rejection m = rejectMalformed(data, limits);
    if (m.status != 400 && m.status != 414) {
        std::abort();
    }
    // The parser HttpServer runs on every head the screen accepted: the views lie inside the
    // head, the path is the target's start, and what it says of the body is the screen's.
    if (!whole.refused && whole.heads > 0) {
        qsizetype at = 0;
        while (at < data.size() && (data[at] == '\r' || data[at] == '\n')) {
            ++at;
        }
        const QByteArrayView rest = data.sliced(at);
        const qsizetype end = headEnd(rest);
        if (end < 0) {
            std::abort(); // the screen saw a whole head
        }
        const QByteArrayView head = rest.first(end);
        RequestHead h;
        if (parseRequestHead(head, &h)) {
            auto inside = [&](QByteArrayView v) {
                return v.isEmpty() ||
                       (v.data() >= head.data() && v.data() + v.size() <= head.data() + end);
            };
            if (!inside(h.method) || !inside(h.target) || !inside(h.path) || !inside(h.query) ||
                !inside(h.subject) || h.method.isEmpty() || !h.target.startsWith('/') ||
                !h.target.startsWith(h.path) || h.contentLength < 0 ||
                h.contentLength > limits.maxBodyBytes ||
                h.subject.size() > limits.maxSubjectBytes) {
                std::abort();
            }
        }
    }
}

QByteArray encode(const QByteArray &value)
{
    return value.toPercentEncoding();
}

void checkQuery(QByteArrayView query)
{
    if (formDecode(query).size() > query.size()) {
        std::abort();
    }
    CheckParams p;
    const QString err = parseCheckQuery(query, &p);
    if (!err.isEmpty()) {
        // Names are echoed cut to 64 bytes, each at most 4 characters printed (\xNN).
        if (err.size() > 400) {
            std::abort();
        }
        return;
    }
    QByteArrayList pairs;
    if (p.hasRule) {
        pairs << "rule=" + encode(p.rule);
    }
    if (p.hasSubject) {
        pairs << "subject=" + encode(p.subject);
    }
    if (p.hasCost) {
        pairs << "cost=" + encode(p.cost);
    }
    CheckParams again;
    if (!parseCheckQuery(pairs.join('&'), &again).isEmpty() || again.rule != p.rule ||
        again.subject != p.subject || again.cost != p.cost || again.hasRule != p.hasRule ||
        again.hasSubject != p.hasSubject || again.hasCost != p.hasCost) {
        std::abort();
    }
    qint64 cost = -1;
    if (parseDigits(p.cost, &cost) && (cost < 0 || QByteArray::number(cost).size() > 18)) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *raw, size_t size)
{
    if (size < 2) {
        return 0;
    }
    HttpLimits limits;
    limits.maxRequestLineBytes = 8 + raw[0] % 120;
    limits.maxHeaderBytes = 16 + raw[1] % 240;
    limits.maxBodyBytes = raw[0] % 24;
    limits.maxSubjectBytes = 1 + raw[1] % 32;
    const QByteArrayView data(reinterpret_cast<const char *>(raw) + 2, qsizetype(size - 2));
    checkHead(data, limits);
    checkHead(data, HttpLimits{});
    // The query: after a '?' of the request line if there is one, else the whole input.
    const qsizetype q = data.indexOf('?');
    checkQuery(q < 0 ? data : data.sliced(q + 1));
    return 0;
}
