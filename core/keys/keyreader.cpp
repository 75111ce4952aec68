#include "keyreader.h"
#include "keyreader_p.h"

#include "keyhealth.h"
#include "layouts.h"

#include "core/common/clock.h"
#include "core/common/glob.h"
#include "core/redis/errors.h"
#include "core/redis/keyspace.h"
#include "core/redis/replyview.h"
#include "core/redis/scriptregistry.h"
#include "core/rules/overridematcher.h"

#include <QSet>

#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

// One command's arguments (at most 16), appended to the pipeline without a copy.
class Args
{
public:
    explicit Args(Connection &c)
        : m_c(c)
    {}
    Args &add(const QByteArray &b)
    {
        m_argv[m_n] = b.constData();
        m_len[m_n] = size_t(b.size());
        ++m_n;
        return *this;
    }
    void send(const ReplyBound &bound = {})
    {
        m_c.append(m_n, m_argv, m_len, bound);
        m_n = 0;
    }

private:
    Connection &m_c;
    const char *m_argv[16];
    size_t m_len[16];
    int m_n = 0;
};

} // namespace

namespace {

// The read script (Mode::Script). Read-only; one key; TIME is read so that the state is decoded
// at the instant it was read.
constexpr char readScript[] =
    R"lua(--[[ sluice key read: TYPE, PTTL and the limiter state of keys, each atomically.
Used by core/keys/keyreader.cpp (Keys page, sluice-cli keys). Read-only. Never copies a value
longer than cap bytes: strings through GETRANGE, hash fields only after HSTRLEN, sorted sets as
counts and two scores.
KEYS     the keys (one call reads a batch: the per-call cost of EVALSHA is shared)
ARGV     cap: bytes, the longest string prefix or hash field returned; then for each key:
         layout  ''  TYPE and PTTL only
                 'h' hash: the fields that follow
                 'z' sorted set (sliding_log): counts of the window
                 's' string (gcra)
         lo      layout 'z': the window is the scores > lo (now_us - window_us, computed by
                 the caller from TIME); '' otherwise
         n       the number of hash fields that follow (0 unless layout 'h'), then the fields
Reply    one array per key: {type, pttl} and, when the key's type is the layout's:
         'h' one length per field (HSTRLEN), then, only if none is above cap, the values
             (HMGET: nil for an absent field)
         'z' entries (ZCOUNT (-inf +inf: not the rule version member), count in the window, oldest score in the window or nil, newest score or nil
         's' strlen, the first cap bytes
Cost     per key 2 calls, + 2 (string), + fields + 1 (hash), + 4 (sorted set).
--]]
local call, cap, out, a = redis.call, tonumber(ARGV[1]), {}, 2
for i = 1, #KEYS do
    local k, layout, lo, nf = KEYS[i], ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 2])
    local f = a + 3
    a = f + nf
    local t = call('TYPE', k)['ok']
    local r = {t, call('PTTL', k)}
    if layout == 'h' and t == 'hash' then
        local small = true
        for j = f, a - 1 do
            local n = call('HSTRLEN', k, ARGV[j])
            r[#r + 1] = n
            if n > cap then small = false end
        end
        if small then
            local v = call('HMGET', k, unpack(ARGV, f, a - 1))
            for j = 1, nf do r[#r + 1] = v[j] end
        end
    elseif layout == 'z' and t == 'zset' then
        lo = '(' .. lo
        -- The rule version member at -inf (lua/sliding_log.lua) is no entry.
        r[3] = call('ZCOUNT', k, '(-inf', '+inf')
        r[4] = call('ZCOUNT', k, lo, '+inf')
        r[5] = call('ZRANGEBYSCORE', k, lo, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2] or false
        r[6] = call('ZRANGE', k, -1, -1, 'WITHSCORES')[2] or false
    elseif layout == 's' and t == 'string' then
        r[3] = call('STRLEN', k)
        r[4] = call('GETRANGE', k, 0, cap - 1)
    end
    out[i] = r
end
return out
)lua";

const ScriptRegistry::Script &script()
{
    static const ScriptRegistry registry = [] {
        ScriptRegistry r;
        r.add(u"key_read"_s, QByteArray(readScript));
        return r;
    }();
    return *registry.find(u"key_read"_s);
}

using readstep::bytesOf;
using readstep::integerOf;
using redis::ReplyView;

bool isError(ReplyView r)
{
    return r.isNull() || r.isError();
}

std::optional<QByteArray> optionalBytes(ReplyView r)
{
    if (!r.isString()) {
        return std::nullopt;
    }
    return r.toByteArray();
}

// A TYPE reply: the usual names shared, not allocated per key.
QByteArray typeName(ReplyView r)
{
    static const std::array<QByteArray, 8> known{
        QByteArrayLiteral("hash"),   QByteArrayLiteral("string"),   QByteArrayLiteral("zset"),
        QByteArrayLiteral("none"),   QByteArrayLiteral("list"),     QByteArrayLiteral("set"),
        QByteArrayLiteral("stream"), QByteArrayLiteral("ReJSON-RL")};
    const QByteArrayView b = r.bytes();
    for (const QByteArray &k : known) {
        if (b == k) {
            return k;
        }
    }
    return b.toByteArray();
}

// TIME reply -> us.
qint64 timeUs(ReplyView s, ReplyView us)
{
    return integerOf(s) * 1'000'000 + integerOf(us);
}

// A key-read script's entry for one key ({type, pttl, the layout's reads}) into `raw`.
void readScriptEntry(const ReplyView &e, char layout, const Rule *rule, qint64 cap, RawRead &raw)
{
    raw.type = typeName(e[0]);
    raw.pttlMs = integerOf(e[1], -2);
    const size_t n = e.size();
    const size_t fields = rule ? size_t(hashFields(rule->algorithm).size()) : 0;
    if (layout == 'h' && raw.type == "hash" && n >= 2 + fields) {
        // Lengths, then the values unless one was too long.
        raw.stateRead = true;
        const bool values = n >= 2 + 2 * fields;
        for (size_t i = 0; i < fields; ++i) {
            const qint64 length = integerOf(e[2 + i]);
            raw.hlen += length > 0 ? 1 : 0;
            if (values) {
                raw.fields << optionalBytes(e[2 + fields + i]);
                raw.fieldLength << 0;
            } else {
                raw.fields << std::nullopt;
                raw.fieldLength << (length > cap ? length : 0);
            }
        }
    } else if (layout == 'z' && raw.type == "zset" && n >= 6) {
        raw.stateRead = true;
        raw.zcard = integerOf(e[2]);
        raw.zInWindow = integerOf(e[3]);
        raw.oldestScore = optionalBytes(e[4]);
        raw.newestScore = optionalBytes(e[5]);
    } else if (layout == 's' && raw.type == "string" && n >= 4) {
        raw.stateRead = true;
        raw.strlen = integerOf(e[2]);
        raw.head = bytesOf(e[3]);
    }
}

// The plain reads of a layout (HMGET; ZCARD, ZCOUNT and the two ends; STRLEN and GETRANGE),
// every one answered, into `raw`.
void readPlainState(const std::array<Connection::RawReply, 5> &replies, char layout, qint64 cap,
                    RawRead &raw)
{
    if (layout == 'h' && raw.type == "hash") {
        raw.stateRead = true;
        const ReplyView values(replies[0]);
        for (size_t i = 0, n = values.size(); i < n; ++i) {
            const ReplyView v = values[i];
            raw.hlen += v.isString() ? 1 : 0;
            if (v.isString() && v.bytes().size() > cap) {
                raw.fields << std::nullopt;
                raw.fieldLength << v.bytes().size();
            } else {
                raw.fields << optionalBytes(v);
                raw.fieldLength << 0;
            }
        }
    } else if (layout == 'z' && raw.type == "zset") {
        raw.stateRead = true;
        raw.zcard = integerOf(replies[0]);
        raw.zInWindow = integerOf(replies[1]);
        if (const ReplyView first(replies[2]); first.size() == 2) {
            raw.oldestScore = optionalBytes(first[1]);
        }
        if (const ReplyView last(replies[3]); last.size() == 2) {
            raw.newestScore = optionalBytes(last[1]);
        }
    } else if (layout == 's' && raw.type == "string") {
        raw.stateRead = true;
        raw.strlen = integerOf(replies[0]);
        raw.head = bytesOf(replies[1]);
    }
}

} // namespace

struct KeyReader::Index
{
    explicit Index(std::optional<RuleSet> rules)
        : set(rules ? std::move(*rules) : RuleSet{})
        , have(rules.has_value())
        , map(set)
    {
        // What every key of a rule needs, computed once per rule rather than per key; a staged
        // candidate's keys (the map knows them) are read as any rule's, after the rules.
        std::vector<const Rule *> all;
        for (const auto *list : {&set.rules, &set.staged}) {
            for (const Rule &r : *list) {
                all.push_back(&r);
            }
        }
        for (const Rule *rule : all) {
            const Rule &r = *rule;
            PerRule p;
            p.policy = r.policy();
            if (auto valid = p.policy.validate(); !valid) {
                p.invalid = valid.error().message;
            }
            const QByteArray type = expectedType(r.algorithm);
            p.layout = type == "hash" ? 'h' : type == "zset" ? 'z' : 's';
            p.layoutArg = QByteArray(1, p.layout);
            p.fieldCount = QByteArray::number(hashFields(r.algorithm).size());
            p.maxTtlMs = keys::maxTtlMs(r);
            if (!r.overrides.empty()) {
                p.overrides = rules::OverrideMatcher(r.overrides, SystemClock().nowUs());
                for (const Override &o : r.overrides) {
                    Rule limited = r;
                    limited.limit = o.limit;
                    limited.windowUs = o.windowUs;
                    limited.rate = o.rate;
                    limited.burst = o.burst;
                    p.overridePolicies.push_back(rules::overridePolicy(r, o));
                    p.overrideMaxTtlMs.push_back(
                        o.action == Override::Action::Limit ? keys::maxTtlMs(limited) : p.maxTtlMs);
                }
            }
            perRule.push_back(std::move(p));
            if (r.adopt && !r.adopt->match.isEmpty()) {
                adopting.push_back(&r);
            }
        }
    }
    // The rule adopting `key` (rules[i].adopt.match), or nullptr.
    const Rule *adopter(const QByteArray &key) const
    {
        for (const Rule *r : adopting) {
            if (glob::matches(r->adopt->match, key, glob::Syntax::Redis)) {
                return r;
            }
        }
        return nullptr;
    }
    struct PerRule
    {
        Policy policy;
        QString invalid; // why the rule's policy is invalid; empty when valid
        // Its overrides: an override limit's key is decoded by that override's policy.
        rules::OverrideMatcher overrides;
        std::vector<Policy> overridePolicies; // by index in rule.overrides
        std::vector<qint64> overrideMaxTtlMs;
        char layout = 0;
        QByteArray layoutArg;
        QByteArray fieldCount;
        qint64 maxTtlMs = -1;
    };
    const PerRule &of(const Rule *r) const
    {
        const bool staged = !set.staged.empty() && r >= set.staged.data() &&
                            r < set.staged.data() + set.staged.size();
        return staged ? perRule[set.rules.size() + size_t(r - set.staged.data())]
                      : perRule[size_t(r - set.rules.data())];
    }

    const RuleSet set;
    const bool have;
    const rules::KeyMap map; // points into set
    std::vector<PerRule> perRule;
    std::vector<const Rule *> adopting; // rules with an adopt block, in file order
};

KeyReader::KeyReader(std::optional<RuleSet> rules, Options options)
    : m_index(std::make_shared<const Index>(std::move(rules)))
    , m_options(options)
    , m_mode(options.mode)
{
    m_options.valueCap = std::max(m_options.valueCap, qint64(64));
    m_steady.start();
}

KeyReader::KeyReader(std::optional<RuleSet> rules)
    : KeyReader(std::move(rules), Options{})
{}

bool KeyReader::haveRules() const
{
    return m_index->have;
}

const RuleSet &KeyReader::rules() const
{
    return m_index->set;
}

const Rule *KeyReader::ruleFor(const QByteArray &key, QByteArray *subject, bool *override,
                               const Policy **policy) const
{
    *override = false;
    *policy = nullptr;
    if (!m_index->have) {
        return nullptr;
    }
    auto m = m_index->map.match(key);
    if (!m) {
        return nullptr;
    }
    *subject = m->subject;
    *override = m->override;
    if (m->override) {
        const Index::PerRule &per = m_index->of(m->rule);
        const auto hit = per.overrides.match(m->subject, SystemClock().nowUs());
        if (hit && hit.override->action == Override::Action::Limit &&
            per.overridePolicies[size_t(hit.index)].validate()) {
            *policy = &per.overridePolicies[size_t(hit.index)];
        }
    }
    return m->rule;
}

const Rule *KeyReader::ruleFor(const QByteArray &key, QByteArray *subject) const
{
    if (!m_index->have) {
        return nullptr;
    }
    auto m = m_index->map.match(key);
    if (!m) {
        return nullptr;
    }
    if (subject != nullptr) {
        *subject = m->subject;
    }
    return m->rule;
}

QList<QByteArray> KeyReader::defaultPatterns() const
{
    QList<QByteArray> prefixes;
    for (const Rule &r : m_index->set.rules) {
        prefixes << r.keyPrefix;
    }
    if (prefixes.isEmpty()) {
        prefixes << QByteArrayLiteral("rate_limit:");
    }
    std::sort(prefixes.begin(), prefixes.end());
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    // Sorted, a prefix comes right before the prefixes it covers.
    QList<QByteArray> out;
    QByteArray last;
    for (const QByteArray &p : std::as_const(prefixes)) {
        if (!out.isEmpty() && p.startsWith(last)) {
            continue;
        }
        last = p;
        out << redis::globEscaped(p) + '*';
    }
    return out;
}

Result<int> KeyReader::prepare(Connection &c)
{
    int trips = 1; // TIME
    if (m_options.mode == Mode::Script || (m_options.mode == Mode::Auto && !m_bulk)) {
        trips += c.loadedScripts().contains(script().sha) ? 0 : 1;
        auto loaded = ScriptRegistry::ensureLoaded(c, script());
        if (!loaded && (loaded.error().isConnectionLoss() || m_options.mode == Mode::Script)) {
            return loaded.error();
        }
        // Refused (NOPERM, scripting disabled, a renamed SCRIPT): read with plain commands.
        m_mode = loaded ? Mode::Script : Mode::Plain;
    } else {
        m_mode = Mode::Plain;
    }
    // The server clock, for the first batch's sliding-log windows.
    auto t = c.command({QByteArrayLiteral("TIME")}, ReplyBound::time());
    if (!t) {
        return t.error();
    }
    if (t->elements.size() == 2) {
        m_serverMinusSteadyUs = t->elements[0].str.toLongLong() * 1'000'000 +
                                t->elements[1].str.toLongLong() - m_steady.nsecsElapsed() / 1000;
    }
    m_prepared = true;
    return trips;
}

qint64 KeyReader::estimatedServerNowUs() const
{
    return m_steady.nsecsElapsed() / 1000 + m_serverMinusSteadyUs;
}

void KeyReader::append(Connection &c, const QList<QByteArray> &keys)
{
    Batch &batch = m_batches.emplace_back();
    batch.mode = m_mode;
    batch.keys.reserve(size_t(keys.size()));
    const QByteArray cap = QByteArray::number(m_options.valueCap);
    const QByteArray capEnd = QByteArray::number(m_options.valueCap - 1);
    // The batch's TIME: states are decoded at it. Sliding-log windows are counted from the
    // server clock as estimated before sending (off by a fraction of the round trip).
    c.append({QByteArrayLiteral("TIME")}, ReplyBound::time());
    const qint64 nowEstimate = estimatedServerNowUs();

    // Script mode: EVALSHA sha n key... cap (layout lo nfields field...)... per chunk.
    // On a Redis Cluster one key per call: a call's keys must share a slot (through the
    // cluster client, or on one of its nodes talked to as itself, as the key scanner does).
    const int perCall =
        c.cluster() || c.endpoint().singleNode ? 1 : std::max(m_options.scriptBatch, 1);
    QList<QByteArray> chunkKeys;
    QList<QByteArray> chunkArgs;
    auto flushChunk = [&] {
        if (chunkKeys.isEmpty()) {
            return;
        }
        QList<QByteArray> command;
        command.reserve(4 + chunkKeys.size() + chunkArgs.size());
        command << c.readOnlyEvalsha() << script().sha << QByteArray::number(chunkKeys.size())
                << chunkKeys << cap << chunkArgs;
        c.append(command, ReplyBound::values("the key read script"));
        batch.chunks.push_back(int(chunkKeys.size()));
        chunkKeys.clear();
        chunkArgs.clear();
    };
    for (const QByteArray &key : keys) {
        Pending p;
        p.key = key;
        p.rule = ruleFor(key, &p.subject, &p.override, &p.policy);
        const Index::PerRule *per = p.rule ? &m_index->of(p.rule) : nullptr;
        p.layout = per ? per->layout : 0;
        static const QList<QByteArray> noFields;
        const QList<QByteArray> &fields =
            p.layout == 'h' ? hashFields(p.rule->algorithm) : noFields;
        const QByteArray lo =
            p.layout == 'z'
                ? QByteArray::number(nowEstimate -
                                     (p.policy != nullptr ? p.policy->windowUs : p.rule->windowUs))
                : QByteArray();
        if (m_mode == Mode::Script) {
            chunkKeys << key;
            static const QByteArray none;
            static const QByteArray zeroFields = QByteArrayLiteral("0");
            chunkArgs << (per ? per->layoutArg : none) << lo << (per ? per->fieldCount : zeroFields)
                      << fields;
            if (chunkKeys.size() >= perCall) {
                flushChunk();
            }
        } else if (m_typed != nullptr && p.rule == nullptr && m_index->adopter(key) == nullptr &&
                   (p.typed = m_typed->guess(key)) != 0) {
            // PTTL, then the value's reads, which prove the type: no TYPE.
            static const QByteArray pttl = QByteArrayLiteral("PTTL");
            Args(c).add(pttl).add(key).send();
            m_typed->append(c, key, p.typed);
        } else {
            appendReads(c, p, fields, lo, capEnd);
        }
        batch.keys.push_back(std::move(p));
    }
    flushChunk();
}

// TYPE and PTTL of a key, the reads its rule's layout needs, and PTTL again (commands mode).
void KeyReader::appendReads(Connection &c, const Pending &p, const QList<QByteArray> &fields,
                            const QByteArray &lo, const QByteArray &capEnd)
{
    static const QByteArray one = QByteArrayLiteral("1");
    static const QByteArray zero = QByteArrayLiteral("0");
    // Only the reads of values get the large bound; TYPE, PTTL and lengths the default.
    static constexpr ReplyBound values = ReplyBound::values("a read of keys' values");
    Args args(c);
    const auto push = [&args](const QByteArray &b) { args.add(b); };
    const auto send = [&args](const ReplyBound &bound = {}) { args.send(bound); };
    static const QByteArray type = QByteArrayLiteral("TYPE");
    static const QByteArray pttl = QByteArrayLiteral("PTTL");
    push(type);
    push(p.key);
    send();
    push(pttl);
    push(p.key);
    send();
    if (p.layout == 'h') {
        static const QByteArray hmget = QByteArrayLiteral("HMGET");
        push(hmget);
        push(p.key);
        for (const QByteArray &f : fields) {
            push(f);
        }
        send(values);
    } else if (p.layout == 'z') {
        const QByteArray open = '(' + lo;
        static const QByteArray notInf = QByteArrayLiteral("(-inf");
        static const QByteArray zcount = QByteArrayLiteral("ZCOUNT");
        static const QByteArray zrangebyscore = QByteArrayLiteral("ZRANGEBYSCORE");
        static const QByteArray zrange = QByteArrayLiteral("ZRANGE");
        static const QByteArray inf = QByteArrayLiteral("+inf");
        static const QByteArray withscores = QByteArrayLiteral("WITHSCORES");
        static const QByteArray limit = QByteArrayLiteral("LIMIT");
        static const QByteArray last = QByteArrayLiteral("-1");
        // Every entry but the rule version's member at -inf (lua/sliding_log.lua).
        push(zcount);
        push(p.key);
        push(notInf);
        push(inf);
        send();
        push(zcount);
        push(p.key);
        push(open);
        push(inf);
        send();
        push(zrangebyscore);
        push(p.key);
        push(open);
        push(inf);
        push(withscores);
        push(limit);
        push(zero);
        push(one);
        send(values);
        push(zrange);
        push(p.key);
        push(last);
        push(last);
        push(withscores);
        send(values);
    } else if (p.layout == 's') {
        static const QByteArray strlen = QByteArrayLiteral("STRLEN");
        static const QByteArray getrange = QByteArrayLiteral("GETRANGE");
        push(strlen);
        push(p.key);
        send();
        push(getrange);
        push(p.key);
        push(zero);
        push(capEnd);
        send(values);
    }
    if (p.layout != 0) {
        // Still there after the reads? Commands of a pipeline are not one atomic step:
        // a key that expired between TYPE and its reads is gone, not malformed.
        push(pttl);
        push(p.key);
        send();
    }
}

Result<QList<KeyInfo>> KeyReader::collect(Connection &c)
{
    return collectBatch(c, true);
}

Result<void> KeyReader::skip(Connection &c)
{
    if (auto r = collectBatch(c, false); !r && r.error().kind != Error::Kind::NoScript &&
                                         !ScriptRegistry::isUnknownEvalshaRo(r.error())) {
        return r.error();
    }
    return {};
}

Result<QList<KeyInfo>> KeyReader::collectBatch(Connection &c, bool keep)
{
    if (m_batches.empty()) {
        return Error::make(Error::Kind::Internal, u"no key reads are due on the connection"_s);
    }
    const Batch batch = std::move(m_batches.front());
    m_batches.pop_front();
    if (keep) {
        m_collectedMode = batch.mode;
        m_permissionRefused = false;
    }
    QList<KeyInfo> out;
    out.reserve(qsizetype(batch.keys.size()));
    ChunkCursor chunk;
    const auto fail = [this](const Error &e) {
        m_batches.clear(); // the connection is broken: the replies of the others are lost too
        return e;
    };
    qint64 batchNowUs = 0;
    {
        auto t = c.readRaw();
        if (!t) {
            return fail(t.error());
        }
        if (const ReplyView r(*t); r.size() == 2) {
            batchNowUs = timeUs(r[0], r[1]);
            m_serverMinusSteadyUs = batchNowUs - m_steady.nsecsElapsed() / 1000;
        }
    }
    for (const Pending &p : batch.keys) {
        RawRead raw;
        raw.nowUs = batchNowUs;
        const Result<bool> judged = batch.mode == Mode::Script
                                        ? collectScriptKey(c, batch, p, chunk, raw, out, keep)
                                    : p.typed != 0 ? collectTypedKey(c, p, raw, out, keep)
                                                   : collectPlainKey(c, p, raw, out);
        if (!judged) {
            return fail(judged.error());
        }
        if (*judged) {
            out << judge(p, raw);
        }
    }
    if (chunk.firstError) {
        return *chunk.firstError;
    }
    return out;
}

Result<bool> KeyReader::collectScriptKey(Connection &c, const Batch &batch, const Pending &p,
                                         ChunkCursor &chunk, RawRead &raw, QList<KeyInfo> &out,
                                         bool keep)
{
    if (chunk.inChunk == chunk.size) {
        auto reply = c.readRaw();
        if (!reply) {
            return reply.error();
        }
        chunk.reply = std::move(*reply);
        chunk.size = chunk.index < batch.chunks.size() ? size_t(batch.chunks[chunk.index]) : 0;
        ++chunk.index;
        chunk.inChunk = 0;
    }
    const ReplyView whole(chunk.reply);
    const size_t at = chunk.inChunk++;
    if (whole.isError()) {
        Error e = ScriptRegistry::explainScriptAcl(whole.error(), script());
        if (e.kind == Error::Kind::NoScript) {
            chunk.firstError = e;
        } else if (ScriptRegistry::isUnknownEvalshaRo(e)) {
            c.setNoEvalshaRo(); // Redis < 7: read again with EVALSHA
            chunk.firstError = e;
        } else {
            if (keep && e.kind == Error::Kind::Auth && m_options.mode == Mode::Auto) {
                // A key of the chunk is outside the user's ACL (or the script calls a
                // command it may not run): plain reads, key by key, from now on.
                m_permissionRefused = true;
            }
            out << unreadKey(p.key, e.message, e.kind == Error::Kind::Auth);
        }
        return false;
    }
    if (!whole.isArray() || whole.size() != chunk.size) {
        return Error::make(Error::Kind::Protocol,
                           u"the key read script replied something unexpected"_s);
    }
    const ReplyView e = whole[at];
    if (e.size() < 2) {
        return Error::make(Error::Kind::Protocol,
                           u"the key read script replied something unexpected for a key"_s);
    }
    readScriptEntry(e, p.layout, p.rule, m_options.valueCap, raw);
    return true;
}

// PTTL, then the reads a TypedReads guess sent instead of TYPE.
Result<bool> KeyReader::collectTypedKey(Connection &c, const Pending &p, RawRead &raw,
                                        QList<KeyInfo> &out, bool keep)
{
    auto pttlReply = c.readRaw();
    if (!pttlReply) {
        return pttlReply.error();
    }
    const bool exists = !isError(*pttlReply) && integerOf(*pttlReply, -2) != -2;
    auto type = m_typed->collect(c, p.key, p.typed, raw.nowUs, exists && keep);
    if (!type) {
        return type.error();
    }
    if (isError(*pttlReply)) {
        // Refused (NOPERM: a key outside the ACL): unreadable, never "gone".
        const Error e = ReplyView(*pttlReply).error();
        out << unreadKey(p.key, e.message, e.kind == Error::Kind::Auth);
        return false;
    }
    raw.type = std::move(*type); // empty: not proven, TYPE is still to be read
    raw.pttlMs = integerOf(*pttlReply, -2);
    return true;
}

// TYPE, PTTL, the layout's reads and the closing PTTL (commands mode).
Result<bool> KeyReader::collectPlainKey(Connection &c, const Pending &p, RawRead &raw,
                                        QList<KeyInfo> &out) const
{
    auto typeReply = c.readRaw();
    if (!typeReply) {
        return typeReply.error();
    }
    auto pttlReply = c.readRaw();
    if (!pttlReply) {
        return pttlReply.error();
    }
    // The layout's reads, then the closing PTTL.
    const int more = p.layout == 'h' ? 2 : p.layout == 'z' ? 5 : p.layout == 's' ? 3 : 0;
    if (isError(*typeReply)) {
        // Refused (NOPERM: a key outside the ACL): unreadable, never "gone".
        const Error e = ReplyView(*typeReply).error();
        for (int i = 0; i < more; ++i) {
            if (auto r = c.readRaw(); !r) {
                return r.error();
            }
        }
        out << unreadKey(p.key, e.message, e.kind == Error::Kind::Auth);
        return false;
    }
    raw.type = typeName(*typeReply);
    raw.pttlMs = integerOf(*pttlReply, -2);
    std::array<Connection::RawReply, 5> replies;
    bool allOk = true;
    for (int i = 0; i < more; ++i) {
        auto r = c.readRaw();
        if (!r) {
            return r.error();
        }
        replies[size_t(i)] = std::move(*r);
        allOk = allOk && !isError(replies[size_t(i)]);
    }
    if (more > 0 && integerOf(replies[size_t(more - 1)], -2) == -2) {
        raw.pttlMs = -2; // expired or deleted while it was read
    }
    if (allOk) {
        readPlainState(replies, p.layout, m_options.valueCap, raw);
    }
    if (raw.type.isEmpty()) {
        raw.type = QByteArrayLiteral("none");
        raw.pttlMs = -2;
    }
    return true;
}

Result<QList<KeyInfo>> KeyReader::read(Connection &c, const QList<QByteArray> &keys)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!m_prepared || (m_mode == Mode::Script && !c.loadedScripts().contains(script().sha))) {
            if (auto p = prepare(c); !p) {
                return p.error();
            }
        }
        if (!m_batches.empty()) {
            return Error::make(Error::Kind::Internal,
                               u"the reads of a scan's page are still due on the connection"_s);
        }
        m_permissionRefused = false;
        append(c, keys);
        auto r = collect(c);
        if (r && std::any_of(r->begin(), r->end(), needsReview)) {
            // The refresher decodes adopted keys and string counters as the scan does.
            if (auto reviewed = reviewStringCounters(c, *r); !reviewed) {
                return reviewed.error();
            }
        }
        if (r && takePermissionRefusal() && attempt == 0) {
            continue; // a NOPERM chunk: these keys again, one by one
        }
        if (!r && ScriptRegistry::isUnknownEvalshaRo(r.error()) && attempt == 0) {
            continue; // EVALSHA from now on (collect noted it on the connection)
        }
        if (r || r.error().kind != Error::Kind::NoScript || attempt == 1) {
            return r;
        }
        c.loadedScripts().remove(script().sha); // flushed behind our back: load and retry
        m_prepared = false;
    }
    return Error::make(Error::Kind::Internal, u"unreachable"_s);
}

bool KeyReader::takePermissionRefusal()
{
    if (!m_permissionRefused || m_collectedMode != Mode::Script || m_options.mode != Mode::Auto) {
        return false;
    }
    m_permissionRefused = false;
    m_mode = Mode::Plain;
    return true;
}

KeyInfo KeyReader::unreadKey(const QByteArray &key, const QString &why, bool permission) const
{
    KeyInfo info;
    info.key = key;
    info.pttlMs = -3;
    QByteArray subject;
    const Rule *rule = ruleFor(key, &subject);
    info.state.kind = KeyState::Kind::Unreadable;
    info.state.permissionRefused = permission;
    QString reason = why;
    static const QLatin1String keysGrant("; grant the keys: ");
    if (const qsizetype at = reason.indexOf(keysGrant); permission && rule != nullptr && at >= 0) {
        // The key's prefix is known here, and reading is all the reader needs.
        reason = reason.left(at + keysGrant.size()) + u"ACL SETUSER <user> %R~"_s +
                 QString::fromUtf8(redis::globEscaped(rule->keyPrefix)) + u'*';
    }
    info.state.problem = permission ? u"unreadable (permission): %1"_s.arg(reason)
                                    : u"the key could not be read: %1"_s.arg(reason);
    if (rule != nullptr) {
        info.ruleId = rule->id;
        info.subject = subject;
        info.algorithm = rule->algorithm;
        info.maxTtlMs = maxTtlMs(*rule);
    }
    // Not read is not "not the rule's state": unreadable, whatever the key holds. Without a
    // rule, an orphan is an orphan (that needs no read); without rules at all, the TTL it was
    // to be judged by was not read either.
    info.health = rule != nullptr || !haveRules() ? Health::Unreadable : Health::Orphan;
    return info;
}

KeyInfo KeyReader::judge(const QByteArray &key, const RawRead &raw) const
{
    Pending p;
    p.key = key;
    p.rule = ruleFor(key, &p.subject, &p.override, &p.policy);
    return judge(p, raw);
}

KeyInfo KeyReader::judge(const Pending &p, const RawRead &raw) const
{
    KeyInfo info;
    info.key = p.key;
    info.type = raw.type;
    info.pttlMs = raw.type == "none" ? -2 : raw.pttlMs;
    info.state.atUs = raw.nowUs;
    if (!info.exists()) {
        return info;
    }
    bool readable = true;
    if (p.rule == nullptr) {
        if (const Rule *adopter = m_index->adopter(p.key)) {
            // Another limiter's key, adopted: its TTL judged against the adopted window; its
            // value decoded by reviewStrings() (a count in the window).
            info.ruleId = adopter->id;
            info.algorithm = adopter->algorithm;
            info.adoptedAs = adopter->adopt->layout;
            info.maxTtlMs = std::max<qint64>(adopter->adoptWindowUs() / 1000, 1);
            info.state.limit = adopter->adoptLimit();
            info.health = info.pttlMs == -1                            ? Health::NoTtl
                          : info.pttlMs > info.maxTtlMs + adoptSlackMs ? Health::TtlExceedsRule
                                                                       : Health::Ok;
            return info;
        }
    }
    if (const Rule *rule = p.rule) {
        const Index::PerRule &per = m_index->of(rule);
        info.ruleId = rule->id;
        info.subject = p.subject;
        info.algorithm = rule->algorithm;
        info.maxTtlMs = per.maxTtlMs;
        info.override = p.override;
        if (p.policy != nullptr) {
            info.maxTtlMs = per.overrideMaxTtlMs[size_t(p.policy - per.overridePolicies.data())];
            info.state = decode(*rule, *p.policy, raw);
        } else {
            info.state =
                per.invalid.isEmpty() ? decode(*rule, per.policy, raw) : decode(*rule, raw);
        }
        readable = info.state.kind != KeyState::Kind::Unreadable;
    }
    info.health = classify(info.pttlMs, p.rule, haveRules(), readable);
    if (p.policy != nullptr &&
        (info.health == Health::Ok || info.health == Health::TtlExceedsRule)) {
        // An override limit's key: its TTL is judged against the override's window.
        info.health =
            info.pttlMs > info.maxTtlMs + ttlSlackMs ? Health::TtlExceedsRule : Health::Ok;
    }
    return info;
}

} // namespace sluice::keys
