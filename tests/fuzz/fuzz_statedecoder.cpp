// The state decoder (keys::decode) on arbitrary reads: every algorithm, any field values,
// lengths, TTLs and times. The decoder runs the twin on what it accepts, so this fuzzes the
// twins' foreign-state bounds too (no overflow: UBSan).
#include "core/keys/statedecoder.h"
#include "core/rules/codec.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace sluice;

namespace {

struct Input
{
    const uint8_t *p;
    size_t n;
    qint64 integer()
    {
        qint64 v = 0;
        const size_t k = std::min<size_t>(n, 8);
        std::memcpy(&v, p, k);
        p += k;
        n -= k;
        return v;
    }
    QByteArray bytes()
    {
        const size_t len = n ? std::min<size_t>(p[0], n - 1) : 0;
        QByteArray b(reinterpret_cast<const char *>(p + (n ? 1 : 0)), qsizetype(len));
        const size_t used = n ? len + 1 : 0;
        p += used;
        n -= used;
        return b;
    }
};

const std::vector<Rule> &ruleList()
{
    static const rules::Loaded l = rules::parseJson(
        "{\"version\": 1, \"rules\": ["
        "{\"id\": \"fw\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\", \"limit\": 3, "
        "\"window\": \"5s\"},"
        "{\"id\": \"sl\", \"scope\": \"ip\", \"algorithm\": \"sliding_log\", \"limit\": 3, "
        "\"window\": \"1d\"},"
        "{\"id\": \"sc\", \"scope\": \"ip\", \"algorithm\": \"sliding_counter\", \"limit\": 7, "
        "\"window\": \"333ms\"},"
        "{\"id\": \"tb\", \"scope\": \"ip\", \"algorithm\": \"token_bucket\", \"rate\": "
        "\"7/1m\", \"burst\": 3},"
        "{\"id\": \"lb\", \"scope\": \"ip\", \"algorithm\": \"leaky_bucket\", \"rate\": "
        "\"1000/s\", \"burst\": 50},"
        "{\"id\": \"g\", \"scope\": \"ip\", \"algorithm\": \"gcra\", \"rate\": \"13/7s\", "
        "\"burst\": 4}]}",
        QStringLiteral("d.json"));
    if (!l.ok()) {
        std::abort();
    }
    return l.set.rules;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    const Rule &rule = ruleList()[data[0] % 6];
    Input in{data + 1, size - 1};
    keys::RawRead raw;
    static const QList<QByteArray> types{"hash", "zset", "string", "none", "list"};
    raw.type = in.n ? types[in.p[0] % types.size()] : QByteArray("hash");
    raw.stateRead = in.n && (in.p[0] & 0x80);
    raw.pttlMs = in.integer();
    raw.nowUs = in.integer() & ((qint64(1) << 53) - 1); // the server's TIME: 0..2^53-1
    raw.strlen = in.integer();
    raw.head = in.bytes();
    raw.hlen = in.integer();
    for (int i = 0; i < 3; ++i) {
        const QByteArray f = in.bytes();
        raw.fields << (f == "-" ? std::nullopt : std::optional<QByteArray>(f));
        raw.fieldLength << (in.n && in.p[0] == 0xff ? in.integer() & 0xffffff : 0);
    }
    raw.zcard = in.integer();
    raw.zInWindow = in.integer();
    raw.oldestScore = in.bytes();
    raw.newestScore = in.bytes();
    const keys::KeyState s = keys::decode(rule, raw);
    (void)s;
    return 0;
}
