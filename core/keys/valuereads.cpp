#include "valuereads.h"

#include "core/redis/replyview.h"

#include <algorithm>
#include <optional>

namespace sluice::keys {

namespace {

using redis::ReplyView;

// The bytes of a string read at most: one more than a value of `headBytes` holds, so that a
// reply of headBytes or fewer is the whole value.
constexpr qsizetype headBytes = 64;
// What ForeignRead::strlen says of a string longer than headBytes whose exact length nothing
// needs (layouts.h: only a serialized bucket's is described).
constexpr qint64 longerThanHead = headBytes + 1;
constexpr int hashPage = 32;

enum class How { None, String, Hash, Zset, List };

How howToRead(const KeyInfo &k)
{
    if (judgedByItsRule(k)) {
        return How::None;
    }
    if (k.type == "string") {
        return How::String;
    }
    if (k.type == "hash") {
        return How::Hash;
    }
    if (k.type == "zset") {
        return How::Zset;
    }
    if (k.type == "list") {
        // Only a list named like a list row's key is read: queues are not limiters.
        for (const Layout &l : layouts()) {
            if (QByteArrayView(l.type) == "list" && keyFits(l, k.key)) {
                return How::List;
            }
        }
    }
    return How::None;
}

int repliesOf(How how)
{
    switch (how) {
    case How::String:
    case How::Hash:
        return 1;
    case How::Zset:
    case How::List:
        return 3;
    case How::None:
        break;
    }
    return 0;
}

std::optional<std::pair<QByteArray, QByteArray>> zEnd(ReplyView r)
{
    if (!r.isArray() || r.size() < 2) {
        return std::nullopt;
    }
    return std::pair{r[0].toByteArray(), r[1].toByteArray()};
}

// One end of a list (LINDEX): the item as member and score, as a sorted set's end is read.
std::optional<std::pair<QByteArray, QByteArray>> listEnd(ReplyView r)
{
    if (!r.isString()) {
        return std::nullopt;
    }
    const QByteArray item = r.toByteArray();
    return std::pair{item, item};
}

// The first bytes of a serialized bucket (layouts.h ValueShape::Binary): its length is shown.
bool mayBeBinaryState(const QByteArray &head)
{
    return head.size() >= 3 && head[0] == '\0' && head[1] == '\0' && head[2] == '\0';
}

ForeignRead readOf(const KeyInfo &k, qint64 nowUs)
{
    ForeignRead r;
    r.key = k.key;
    r.type = k.type;
    r.pttlMs = k.pttlMs;
    r.nowUs = nowUs;
    return r;
}

// A string's GETRANGE 0 headBytes: its head and length, or false when its exact length is
// still to be read.
bool readString(ForeignRead &r, ReplyView v)
{
    if (!v.isString()) {
        return true; // gone, or no longer a string: nothing of it
    }
    const QByteArrayView b = v.bytes();
    if (b.size() <= headBytes) {
        r.head = b.toByteArray();
        r.strlen = r.head.size();
        return true;
    }
    r.head = b.first(headBytes).toByteArray();
    r.strlen = longerThanHead;
    return !mayBeBinaryState(r.head);
}

void readHash(ForeignRead &r, ReplyView scan)
{
    if (!scan.isArray() || scan.size() != 2 || !scan[1].isArray()) {
        return;
    }
    const ReplyView list = scan[1];
    r.fields.reserve(qsizetype(list.size() / 2));
    for (size_t j = 0; j + 1 < list.size(); j += 2) {
        r.fields.append({list[j].toByteArray(), list[j + 1].toByteArray()});
    }
    // A cursor other than 0: more fields than came (at least one).
    r.hlen = r.fields.size() + (scan[0].bytes() == "0" ? 0 : 1);
}

} // namespace

bool judgedByItsRule(const KeyInfo &info)
{
    // A string counter under a rule's prefix, judged no_ttl by the reader, is not the rule's
    // state: its value is read and matched like any other key's.
    const bool foreignUnderRule =
        info.health != Health::Unreadable && info.state.kind == KeyState::Kind::Unreadable;
    return info.hasRule() && info.health != Health::WrongType && !foreignUnderRule &&
           info.adoptedAs.isEmpty();
}

bool ValueReads::pending() const
{
    return std::any_of(m_pages.begin(), m_pages.end(),
                       [](const Page &p) { return p.stage != Done; });
}

void ValueReads::queue(const QList<KeyInfo> &page)
{
    Page p;
    p.infos = page;
    const bool none = std::none_of(page.begin(), page.end(),
                                   [](const KeyInfo &k) { return howToRead(k) != How::None; });
    if (none) {
        // Nothing to read: judged as the scanner read them.
        p.reads.reserve(size_t(page.size()));
        for (const KeyInfo &k : page) {
            p.reads.push_back(readOf(k, 0));
        }
        p.stage = Done;
    }
    m_pages.push_back(std::move(p));
}

void ValueReads::append(Connection &c)
{
    static constexpr ReplyBound values = ReplyBound::values("a read of keys' values");
    static const QByteArray headEnd = QByteArray::number(headBytes);
    static const QByteArray pageCount = QByteArray::number(hashPage);
    for (Page &p : m_pages) {
        if (p.stage == Done) {
            continue;
        }
        p.sent = true;
        if (p.stage == Lengths) {
            for (const qsizetype i : p.lengths) {
                c.append({QByteArrayLiteral("STRLEN"), p.infos[i].key});
            }
            continue;
        }
        c.append({QByteArrayLiteral("TIME")}, ReplyBound::time());
        for (const KeyInfo &k : std::as_const(p.infos)) {
            switch (howToRead(k)) {
            case How::String:
                c.append({QByteArrayLiteral("GETRANGE"), k.key, QByteArrayLiteral("0"), headEnd},
                         values);
                break;
            case How::Hash:
                // No HLEN: a small hash comes whole (cursor 0), whatever COUNT says.
                c.append({QByteArrayLiteral("HSCAN"), k.key, QByteArrayLiteral("0"),
                          QByteArrayLiteral("COUNT"), pageCount},
                         values);
                break;
            case How::Zset:
                c.append({QByteArrayLiteral("ZCARD"), k.key});
                c.append({QByteArrayLiteral("ZRANGE"), k.key, QByteArrayLiteral("0"),
                          QByteArrayLiteral("0"), QByteArrayLiteral("WITHSCORES")},
                         values);
                c.append({QByteArrayLiteral("ZRANGE"), k.key, QByteArrayLiteral("-1"),
                          QByteArrayLiteral("-1"), QByteArrayLiteral("WITHSCORES")},
                         values);
                break;
            case How::List:
                c.append({QByteArrayLiteral("LLEN"), k.key});
                c.append({QByteArrayLiteral("LINDEX"), k.key, QByteArrayLiteral("0")}, values);
                c.append({QByteArrayLiteral("LINDEX"), k.key, QByteArrayLiteral("-1")}, values);
                break;
            case How::None:
                break;
            }
        }
    }
}

Result<void> ValueReads::collect(Connection &c)
{
    for (Page &p : m_pages) {
        if (!p.sent) {
            continue;
        }
        auto r = p.stage == Lengths ? collectLengths(c, p) : collectValues(c, p);
        if (!r) {
            for (Page &q : m_pages) {
                q.sent = false; // to be sent again, whole
            }
            return r;
        }
        p.sent = false;
    }
    return {};
}

Result<void> ValueReads::collectValues(Connection &c, Page &p)
{
    auto time = c.readRaw();
    if (!time) {
        return time.error();
    }
    qint64 nowUs = 0;
    if (const ReplyView t(*time); t.isArray() && t.size() == 2) {
        nowUs = t[0].bytes().toLongLong() * 1'000'000 + t[1].bytes().toLongLong();
    }
    std::vector<ForeignRead> reads;
    reads.reserve(size_t(p.infos.size()));
    std::vector<qsizetype> lengths;
    Connection::RawReply got[3];
    for (qsizetype i = 0; i < p.infos.size(); ++i) {
        const KeyInfo &k = p.infos[i];
        ForeignRead r = readOf(k, nowUs);
        const How how = howToRead(k);
        for (int j = 0; j < repliesOf(how); ++j) {
            auto reply = c.readRaw();
            if (!reply) {
                return reply.error();
            }
            got[j] = std::move(*reply);
        }
        if (how == How::String && !readString(r, ReplyView(got[0]))) {
            lengths.push_back(i);
        } else if (how == How::Hash) {
            readHash(r, ReplyView(got[0]));
        } else if (how == How::Zset) {
            r.zcard = ReplyView(got[0]).integer();
            r.oldest = zEnd(ReplyView(got[1]));
            r.newest = zEnd(ReplyView(got[2]));
        } else if (how == How::List) {
            // LPUSH puts the newest item first.
            r.zcard = ReplyView(got[0]).integer();
            r.newest = listEnd(ReplyView(got[1]));
            r.oldest = listEnd(ReplyView(got[2]));
        }
        reads.push_back(std::move(r));
    }
    p.reads = std::move(reads);
    p.lengths = std::move(lengths);
    p.stage = p.lengths.empty() ? Done : Lengths;
    return {};
}

Result<void> ValueReads::collectLengths(Connection &c, Page &p)
{
    std::vector<qint64> lengths;
    lengths.reserve(p.lengths.size());
    for (size_t j = 0; j < p.lengths.size(); ++j) {
        auto reply = c.readRaw();
        if (!reply) {
            return reply.error();
        }
        lengths.push_back(ReplyView(*reply).integer());
    }
    for (size_t j = 0; j < p.lengths.size(); ++j) {
        ForeignRead &r = p.reads[size_t(p.lengths[j])];
        // Rewritten or gone meanwhile: still "longer than its head", as it was read.
        r.strlen = lengths[j] > r.head.size() ? lengths[j] : longerThanHead;
    }
    p.lengths.clear();
    p.stage = Done;
    return {};
}

void ValueReads::take(const std::function<void(const KeyInfo &, const ForeignRead &)> &each)
{
    while (!m_pages.empty() && m_pages.front().stage == Done) {
        const Page &p = m_pages.front();
        for (qsizetype i = 0; i < p.infos.size(); ++i) {
            each(p.infos[i], p.reads[size_t(i)]);
        }
        m_pages.pop_front();
    }
}

Result<void> ValueReads::readAll(Connection &c, const QList<KeyInfo> &keys)
{
    queue(keys);
    while (pending()) {
        append(c);
        if (auto r = collect(c); !r) {
            return r;
        }
    }
    return {};
}

} // namespace sluice::keys
