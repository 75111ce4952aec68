#include "valuereads.h"

#include "core/redis/replyview.h"

#include <QHashFunctions>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

using redis::ReplyView;

// The bytes of a string kept as its head (ForeignRead::head).
constexpr qsizetype headBytes = 64;
// The bytes of a string read at most: one more than a value of `wholeBytes` holds, so that a
// reply of wholeBytes or fewer is the whole value, and its length what came (a serialized
// bucket of up to this many bytes needs no STRLEN).
constexpr qsizetype wholeBytes = 128;
// What ForeignRead::strlen says of a string longer than headBytes whose exact length nothing
// needs (layouts.h: only a serialized bucket's is described).
constexpr qint64 longerThanHead = headBytes + 1;
constexpr int hashPage = 32;
// The members of a sorted set read at most with its first read: a set of fewer comes whole
// (its ends and its size are what came); a larger one is measured in the round trip after.
constexpr int zsetPage = 8;

enum class How { None, String, Hash, Zset, List };

bool namedLikeAList(const QByteArray &key);

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
    if (k.type == "list" && namedLikeAList(k.key)) {
        return How::List;
    }
    return How::None;
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

// A string's GETRANGE 0 wholeBytes: its head and length, or false when its exact length is
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
    if (!mayBeBinaryState(r.head)) {
        return true;
    }
    if (b.size() <= wholeBytes) {
        r.strlen = b.size(); // it came whole
        return true;
    }
    return false;
}

// A sorted set's ZRANGE 0 zsetPage-1 WITHSCORES: its size and ends, or false when it has
// zsetPage members or more (its size and newest end are then still to be read).
bool readZset(ForeignRead &r, ReplyView v)
{
    if (!v.isArray()) {
        return true; // gone, or no longer a sorted set
    }
    const size_t members = v.size() / 2;
    r.zcard = qint64(members);
    if (members == 0) {
        return true;
    }
    r.oldest = std::pair{v[0].toByteArray(), v[1].toByteArray()};
    // The newest read so far; the larger set's own newest replaces it (a set trimmed or gone
    // meanwhile keeps what was read).
    r.newest = std::pair{v[2 * members - 2].toByteArray(), v[2 * members - 1].toByteArray()};
    return members < size_t(zsetPage);
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

// The first read of a key's value, by its type (no list built per key: a million keys).
void appendRead(Connection &c, How how, const QByteArray &key)
{
    static constexpr ReplyBound values = ReplyBound::values("a read of keys' values");
    static const std::string stringEnd = std::to_string(wholeBytes);
    static const std::string pageCount = std::to_string(hashPage);
    static const std::string zsetEnd = std::to_string(zsetPage - 1);
    const char *argv[5];
    size_t len[5];
    int n = 0;
    auto push = [&](const char *text, size_t size) {
        argv[n] = text;
        len[n++] = size;
    };
    auto pushText = [&](const std::string &text) { push(text.data(), text.size()); };
    switch (how) {
    case How::String:
        push("GETRANGE", 8);
        push(key.constData(), size_t(key.size()));
        push("0", 1);
        pushText(stringEnd);
        break;
    case How::Hash:
        // No HLEN: a small hash comes whole (cursor 0), whatever COUNT says.
        push("HSCAN", 5);
        push(key.constData(), size_t(key.size()));
        push("0", 1);
        push("COUNT", 5);
        pushText(pageCount);
        break;
    case How::Zset:
        // No ZCARD: a small set comes whole (fewer members than asked for).
        push("ZRANGE", 6);
        push(key.constData(), size_t(key.size()));
        push("0", 1);
        pushText(zsetEnd);
        push("WITHSCORES", 10);
        break;
    case How::List:
        // Its length and both ends (LPUSH puts the newest item first).
        c.append({QByteArrayLiteral("LLEN"), key});
        c.append({QByteArrayLiteral("LINDEX"), key, QByteArrayLiteral("0")}, values);
        c.append({QByteArrayLiteral("LINDEX"), key, QByteArrayLiteral("-1")}, values);
        return;
    case How::None:
        return;
    }
    c.append(n, argv, len, values);
}

bool provesType(How how, ReplyView v);

// The replies of a key's first read (appendRead) into `r`: true when a string's exact length or
// a large set's size and newest end are still to be read. `proved`: set to whether the first
// reply is one of the type's, and when it is not, nothing is read into `r`.
Result<bool> readReplies(Connection &c, How how, ForeignRead &r, bool *proved = nullptr)
{
    if (how == How::None) {
        return false;
    }
    auto reply = c.readRaw();
    if (!reply) {
        return reply.error();
    }
    const ReplyView v(*reply);
    if (proved != nullptr && !(*proved = provesType(how, v))) {
        for (int i = how == How::List ? 2 : 0; i > 0; --i) {
            if (auto more = c.readRaw(); !more) {
                return more.error();
            }
        }
        return false;
    }
    switch (how) {
    case How::String:
        return !readString(r, v);
    case How::Hash:
        readHash(r, v);
        return false;
    case How::Zset:
        return !readZset(r, v);
    case How::List: {
        auto newest = c.readRaw();
        auto oldest = newest ? c.readRaw() : Result<Connection::RawReply>(newest.error());
        if (!oldest) {
            return oldest.error();
        }
        r.zcard = v.integer();
        r.newest = listEnd(ReplyView(*newest));
        r.oldest = listEnd(ReplyView(*oldest));
        return false;
    }
    case How::None:
        break;
    }
    return false;
}

// Whether a first read's reply is one of its type's (any other type's key: WRONGTYPE).
bool provesType(How how, ReplyView v)
{
    switch (how) {
    case How::String:
        return v.isString();
    case How::Hash:
    case How::Zset:
        return v.isArray();
    case How::List:
        return v.isInteger();
    case How::None:
        break;
    }
    return false;
}

const QByteArray &typeOf(How how)
{
    static const QByteArray string = QByteArrayLiteral("string");
    static const QByteArray hash = QByteArrayLiteral("hash");
    static const QByteArray zset = QByteArrayLiteral("zset");
    static const QByteArray list = QByteArrayLiteral("list");
    static const QByteArray none;
    switch (how) {
    case How::String:
        return string;
    case How::Hash:
        return hash;
    case How::Zset:
        return zset;
    case How::List:
        return list;
    case How::None:
        break;
    }
    return none;
}

How howOfType(QByteArrayView type)
{
    for (const How how : {How::String, How::Hash, How::Zset, How::List}) {
        if (type == typeOf(how)) {
            return how;
        }
    }
    return How::None;
}

// A TYPE reply; the usual names shared, not allocated per key.
QByteArray typeNameOf(ReplyView r)
{
    if (!r.isStatus() && !r.isString()) {
        return QByteArray(); // refused: nothing known of it
    }
    const How how = howOfType(r.bytes());
    return how != How::None ? typeOf(how) : r.toByteArray();
}

// A list is read only when named like a list row's keys: queues are not limiters.
bool namedLikeAList(const QByteArray &key)
{
    for (const Layout &l : layouts()) {
        if (QByteArrayView(l.type) == "list" && keyFits(l, key)) {
            return true;
        }
    }
    return false;
}

// A key's shape (ValueReads::guess): the hash of its name up to its first '{' (what braces
// hold is a subject), or else up to its last ':'; of the whole name when it has neither.
size_t shapeOf(const QByteArray &key)
{
    const std::string_view name(key.constData(), size_t(key.size()));
    size_t cut = name.find('{');
    if (cut == std::string_view::npos) {
        cut = name.rfind(':');
    }
    return qHash(cut == std::string_view::npos ? QByteArrayView(key)
                                               : QByteArrayView(key).first(qsizetype(cut + 1)),
                 0);
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

bool ValueReads::unsent() const
{
    return std::any_of(m_pages.begin(), m_pages.end(),
                       [](const Page &p) { return p.stage != Done && p.batch == 0; });
}

void ValueReads::discard()
{
    m_pages.clear();
    m_early.clear();
    m_collected = m_appended;
}

void ValueReads::resend()
{
    for (Page &p : m_pages) {
        p.batch = 0;
    }
    m_collected = m_appended;
}

// The next stage with something to read.
void ValueReads::advance(Page &p)
{
    p.stage = !p.types.empty()                         ? Types
              : !p.values.empty()                      ? Values
              : !p.lengths.empty() || !p.zsets.empty() ? Lengths
                                                       : Done;
}

void ValueReads::queue(const QList<KeyInfo> &page)
{
    Page p;
    p.infos = page;
    p.reads.reserve(size_t(page.size()));
    for (qsizetype i = 0; i < page.size(); ++i) {
        const KeyInfo &k = page[i];
        // Its value, read with its PTTL (the early reads come in the keys' order, one for
        // each key delivered whose type they proved).
        if (!m_early.empty() && m_early.front().read.key == k.key) {
            Early &e = m_early.front();
            ForeignRead r = std::move(e.read);
            r.type = k.type;
            r.pttlMs = k.pttlMs;
            if (e.more) {
                (k.type == "string" ? p.lengths : p.zsets).push_back(i);
            }
            m_early.pop_front();
            learn(k.key, k.type);
            p.reads.push_back(std::move(r));
            continue;
        }
        if (k.pttlMs == -3) {
            // Unreadable (its PTTL or TYPE refused, NOPERM): nothing more is asked of it.
        } else if (k.type.isEmpty()) {
            p.types.push_back(i); // its guess was refused: TYPE first
        } else {
            learn(k.key, k.type);
            if (howToRead(k) != How::None) {
                p.values.push_back(i);
            }
        }
        p.reads.push_back(readOf(k, k.state.atUs));
    }
    m_early.clear();
    advance(p);
    m_pages.push_back(std::move(p));
}

bool ValueReads::append(Connection &c)
{
    static constexpr ReplyBound values = ReplyBound::values("a read of keys' values");
    static const QByteArray last = QByteArrayLiteral("-1");
    static const QByteArray withScores = QByteArrayLiteral("WITHSCORES");
    const quint64 batch = m_appended + 1;
    bool any = false;
    for (Page &p : m_pages) {
        if (p.stage == Done || p.batch != 0) {
            continue; // done, or its reads are in flight
        }
        any = true;
        p.batch = batch;
        if (p.stage == Types) {
            for (const qsizetype i : p.types) {
                c.append({QByteArrayLiteral("TYPE"), p.infos[i].key});
            }
            continue;
        }
        if (p.stage == Lengths) {
            for (const qsizetype i : p.lengths) {
                c.append({QByteArrayLiteral("STRLEN"), p.infos[i].key});
            }
            for (const qsizetype i : p.zsets) {
                c.append({QByteArrayLiteral("ZCARD"), p.infos[i].key});
                c.append({QByteArrayLiteral("ZRANGE"), p.infos[i].key, last, last, withScores},
                         values);
            }
            continue;
        }
        c.append({QByteArrayLiteral("TIME")}, ReplyBound::time());
        for (const qsizetype i : p.values) {
            appendRead(c, howToRead(p.infos[i]), p.infos[i].key);
        }
    }
    m_appended += any ? 1 : 0;
    return any;
}

Result<void> ValueReads::collect(Connection &c)
{
    if (m_collected == m_appended) {
        return Error::make(Error::Kind::Internal, u"no value reads are due on the connection"_s);
    }
    const quint64 batch = ++m_collected;
    for (Page &p : m_pages) {
        if (p.batch != batch) {
            continue;
        }
        auto r = p.stage == Types     ? collectTypes(c, p)
                 : p.stage == Lengths ? collectLengths(c, p)
                                      : collectValues(c, p);
        if (!r) {
            resend(); // every batch in flight to be sent again, whole
            return r;
        }
        p.batch = 0;
    }
    return {};
}

Result<void> ValueReads::collectTypes(Connection &c, Page &p)
{
    std::vector<QByteArray> types;
    types.reserve(p.types.size());
    for (size_t j = 0; j < p.types.size(); ++j) {
        auto reply = c.readRaw();
        if (!reply) {
            return reply.error();
        }
        types.push_back(typeNameOf(ReplyView(*reply)));
    }
    for (size_t j = 0; j < p.types.size(); ++j) {
        const qsizetype i = p.types[j];
        KeyInfo &k = p.infos[i];
        k.type = types[j];
        p.reads[size_t(i)].type = k.type;
        learn(k.key, k.type);
        if (howToRead(k) != How::None) {
            p.values.push_back(i);
        }
    }
    // In the keys' order, as the values of a page are read.
    std::sort(p.values.begin(), p.values.end());
    p.types.clear();
    advance(p);
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
    reads.reserve(p.values.size());
    std::vector<qsizetype> lengths;
    std::vector<qsizetype> zsets;
    for (const qsizetype i : p.values) {
        const KeyInfo &k = p.infos[i];
        ForeignRead r = readOf(k, nowUs);
        const How how = howToRead(k);
        auto more = readReplies(c, how, r);
        if (!more) {
            return more.error();
        }
        if (*more) {
            (how == How::String ? lengths : zsets).push_back(i);
        }
        reads.push_back(std::move(r));
    }
    for (size_t j = 0; j < p.values.size(); ++j) {
        p.reads[size_t(p.values[j])] = std::move(reads[j]);
    }
    p.lengths.insert(p.lengths.end(), lengths.begin(), lengths.end());
    p.zsets.insert(p.zsets.end(), zsets.begin(), zsets.end());
    std::sort(p.lengths.begin(), p.lengths.end());
    std::sort(p.zsets.begin(), p.zsets.end());
    p.values.clear();
    advance(p);
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
    for (const qsizetype i : p.zsets) {
        auto card = c.readRaw();
        auto newest = card ? c.readRaw() : Result<Connection::RawReply>(card.error());
        if (!newest) {
            return newest.error();
        }
        ForeignRead &r = p.reads[size_t(i)];
        // Trimmed or gone meanwhile: what the first read saw.
        r.zcard = std::max(r.zcard, ReplyView(*card).integer());
        if (auto end = zEnd(ReplyView(*newest))) {
            r.newest = std::move(end);
        }
    }
    p.lengths.clear();
    p.zsets.clear();
    p.stage = Done;
    return {};
}

void ValueReads::learn(const QByteArray &key, const QByteArray &type)
{
    const size_t h = shapeOf(key);
    Shape &s = m_shapes[h % shapeSlots];
    const char how = char(howOfType(type));
    if (s.hash != h || s.agreed == 0) {
        s = Shape{h, how, 1};
    } else if (s.how == how) {
        s.agreed = quint8(std::min(s.agreed + 1, 3));
    } else {
        --s.agreed; // a shape of mixed types is not guessed
    }
}

char ValueReads::guess(const QByteArray &key)
{
    How how = How::None;
    const size_t h = shapeOf(key);
    if (const Shape &s = m_shapes[h % shapeSlots]; s.hash == h) {
        how = s.agreed >= 2 ? How(s.how) : How::None;
    } else if (const char *type = typeByName(key)) {
        how = howOfType(type);
    }
    if (how == How::List && !namedLikeAList(key)) {
        how = How::None;
    }
    return char(how);
}

void ValueReads::append(Connection &c, const QByteArray &key, char guess)
{
    appendRead(c, How(guess), key);
}

Result<QByteArray> ValueReads::collect(Connection &c, const QByteArray &key, char guess,
                                       qint64 nowUs, bool exists)
{
    const How how = How(guess);
    Early e;
    e.read.key = key;
    e.read.nowUs = nowUs;
    bool proved = false;
    auto more = readReplies(c, how, e.read, &proved);
    if (!more) {
        return more.error();
    }
    if (!proved) {
        return QByteArray(); // another type (WRONGTYPE), or refused: TYPE tells
    }
    e.more = *more;
    if (exists) {
        m_early.push_back(std::move(e));
    }
    return typeOf(how);
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
        if (!append(c)) {
            return Error::make(Error::Kind::Internal, u"value reads are still in flight"_s);
        }
        if (auto r = collect(c); !r) {
            return r;
        }
    }
    return {};
}

} // namespace sluice::keys
