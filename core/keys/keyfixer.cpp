#include "keyfixer.h"

#include "core/redis/replyview.h"
#include "core/redis/scriptregistry.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

constexpr char fixScript[] =
    R"lua(--[[ sluice key fix: set a limiter key's TTL from its rule, or delete it, only while it
still needs it. Used by core/keys/keyfixer.cpp (Keys page, sluice-cli keys fix).
KEYS[1]  the key
ARGV     ttl_ms  the most the rule's state can need (the TTL to set)
         action  'set': PEXPIRE ttl_ms; 'del': UNLINK
         above   optional: act on a TTL above this (default ttl_ms); a huge one: only on
                 keys without TTL (`keys fix --ttl`, which never touches a TTL at all)
Acts only when PTTL is -1 (no TTL) or above the threshold, so a TTL is lowered or set, never
extended, and a key that got a fitting TTL meanwhile is left alone.
Reply    {acted 0|1, pttl before, pttl after}
--]]
local k = KEYS[1]
local t = redis.call('PTTL', k)
if t == -1 or t > tonumber(ARGV[3] or ARGV[1]) then
    if ARGV[2] == 'del' then
        redis.call('UNLINK', k)
        return {1, t, -2}
    end
    redis.call('PEXPIRE', k, ARGV[1])
    return {1, t, redis.call('PTTL', k)}
end
return {0, t, t}
)lua";

const ScriptRegistry::Script &script()
{
    static const ScriptRegistry registry = [] {
        ScriptRegistry r;
        r.add(u"key_fix"_s, QByteArray(fixScript));
        return r;
    }();
    return *registry.find(u"key_fix"_s);
}

// What to send for one key.
enum class Plan {
    Skip,
    Conditional,  // the fix script (or PTTL in a dry run)
    Unconditional // UNLINK (or PTTL in a dry run)
};

// Only PTTL -1 passes a threshold this high: "still never expires".
constexpr qint64 noThreshold = qint64(1) << 62;

// What a fix does to a key, from the scan's verdict; `o` says the key and, when nothing is
// done, why.
Plan planOf(const KeyInfo &k, bool del, const KeyFixer::Options &options, KeyFixer::Outcome &o)
{
    o.key = k.key;
    o.ruleId = k.ruleId;
    o.health = k.health;
    o.permissionRefused = k.state.permissionRefused;
    Plan plan = Plan::Skip;
    if (isFixable(k.health) && (k.maxTtlMs > 0 || del)) {
        plan = Plan::Conditional;
        o.ttlMs = del ? -1 : k.maxTtlMs;
    } else if (del && !options.onlyFlagged) {
        plan = Plan::Unconditional;
    } else if (del) {
        o.message = u"not flagged (%1): deleting all flagged keys leaves it; select it to "
                    "delete it"_s.arg(healthName(k.health));
    } else if (k.health == Health::Orphan) {
        o.message = u"no rule produces this key, so there is no TTL to take from one; left "
                    "as it is"_s;
    } else if (k.health == Health::WrongType) {
        o.message = u"not the state of rule '%1'; left as it is (delete it if it is debris)"_s.arg(
            k.ruleId);
    } else if (k.health == Health::NoTtl) {
        o.message = u"no rules were given, so there is no TTL to take from one"_s;
    } else {
        o.message = u"healthy; nothing to do"_s;
    }
    return plan;
}

// The command of one key's fix (PTTL for a dry run), appended to the pipeline.
void appendFix(Connection &c, const KeyInfo &k, Plan plan, const QByteArray &verb,
               const KeyFixer::Options &options)
{
    static const QByteArray evalsha = QByteArrayLiteral("EVALSHA");
    static const QByteArray one = QByteArrayLiteral("1");
    static const QByteArray pttl = QByteArrayLiteral("PTTL");
    static const QByteArray unlink = QByteArrayLiteral("UNLINK");
    const QByteArray &key = k.key;
    if (options.dryRun) {
        const char *argv[] = {pttl.constData(), key.constData()};
        const size_t len[] = {size_t(pttl.size()), size_t(key.size())};
        c.append(2, argv, len);
    } else if (plan == Plan::Conditional) {
        // The TTL to set, which is also the threshold; a delete without a rule acts
        // only on "still never expires".
        const QByteArray arg = QByteArray::number(k.maxTtlMs > 0 ? k.maxTtlMs : noThreshold);
        static const QByteArray above = QByteArray::number(noThreshold);
        const char *argv[] = {evalsha.constData(), script().sha.constData(), one.constData(),
                              key.constData(),     arg.constData(),          verb.constData(),
                              above.constData()};
        const size_t len[] = {
            size_t(evalsha.size()), size_t(script().sha.size()), 1,
            size_t(key.size()),     size_t(arg.size()),          size_t(verb.size()),
            size_t(above.size())};
        c.append(options.onlyWithoutTtl ? 7 : 6, argv, len);
    } else {
        const char *argv[] = {unlink.constData(), key.constData()};
        const size_t len[] = {size_t(unlink.size()), size_t(key.size())};
        c.append(2, argv, len);
    }
}

// One key's reply into its outcome; true when the script was not loaded (NOSCRIPT: the key
// goes again once it is).
bool readOutcome(const redis::ReplyView &r, const KeyInfo &k, Plan plan,
                 const KeyFixer::Options &options, KeyFixer::Outcome &o)
{
    using Status = KeyFixer::Status;
    if (r.isError()) {
        const Error e = ScriptRegistry::explainScriptAcl(r.error(), script());
        o.status = Status::Failed;
        o.message = e.message;
        return e.kind == Error::Kind::NoScript;
    }
    if (options.dryRun) {
        const qint64 t = r.integer(-3);
        o.pttlBefore = o.pttlAfter = t;
        if (t == -2) {
            o.status = Status::Gone;
        } else if (plan == Plan::Unconditional) {
            o.status = Status::WouldDo;
        } else {
            const qint64 threshold =
                k.maxTtlMs > 0 && !options.onlyWithoutTtl ? k.maxTtlMs : noThreshold;
            o.status = (t == -1 || t > threshold) ? Status::WouldDo : Status::AlreadyFine;
        }
        return false;
    }
    if (plan == Plan::Unconditional) {
        const bool deleted = r.integer() > 0;
        o.status = deleted ? Status::Done : Status::Gone;
        o.pttlAfter = -2;
        return false;
    }
    if (r.size() != 3) {
        o.status = Status::Failed;
        o.message = u"the key fix script replied something unexpected"_s;
        return false;
    }
    const bool acted = r[0].integer() == 1;
    o.pttlBefore = r[1].integer();
    o.pttlAfter = r[2].integer();
    if (acted) {
        o.status = Status::Done;
    } else if (o.pttlBefore == -2) {
        o.status = Status::Gone;
    } else {
        o.status = Status::AlreadyFine;
        o.message = u"it has a TTL within the rule's now (%1 ms); not extended"_s.arg(o.pttlBefore);
    }
    return false;
}

} // namespace

bool KeyFixer::isInsideRulePrefix(const QByteArray &key, const RuleSet &rules)
{
    return std::any_of(rules.rules.begin(), rules.rules.end(), [&](const Rule &r) {
        return !r.keyPrefix.isEmpty() && key.startsWith(r.keyPrefix);
    });
}

QList<QByteArray> KeyFixer::keysOutsideRulePrefixes(const QList<KeyInfo> &keys,
                                                    const RuleSet &rules)
{
    QList<QByteArray> out;
    for (const KeyInfo &k : keys) {
        if (!isInsideRulePrefix(k.key, rules)) {
            out << k.key;
        }
    }
    return out;
}

QString statusName(KeyFixer::Status s)
{
    switch (s) {
    case KeyFixer::Status::Done:
        return u"done"_s;
    case KeyFixer::Status::WouldDo:
        return u"would_do"_s;
    case KeyFixer::Status::AlreadyFine:
        return u"already_fine"_s;
    case KeyFixer::Status::Gone:
        return u"gone"_s;
    case KeyFixer::Status::Skipped:
        return u"skipped"_s;
    case KeyFixer::Status::Failed:
        return u"failed"_s;
    }
    return u"failed"_s;
}

QString actionName(KeyFixer::Action a)
{
    return a == KeyFixer::Action::SetTtl ? u"set_ttl"_s : u"delete"_s;
}

qint64 KeyFixer::Report::count(Status s) const
{
    qint64 n = 0;
    for (const Outcome &o : outcomes) {
        n += o.status == s ? 1 : 0;
    }
    return n;
}

KeyFixer::Report KeyFixer::run(Connection &c, const QList<KeyInfo> &keys, Action action,
                               const Options &options)
{
    Report report;
    report.action = action;
    report.dryRun = options.dryRun;
    const bool del = action == Action::Delete;

    // Decide each key's plan from the scan's verdict.
    std::vector<Plan> plans;
    plans.reserve(size_t(keys.size()));
    for (const KeyInfo &k : keys) {
        Outcome o;
        plans.push_back(planOf(k, del, options, o));
        report.outcomes << o;
    }

    if (!options.dryRun &&
        std::any_of(plans.begin(), plans.end(), [](Plan p) { return p == Plan::Conditional; })) {
        if (auto l = ScriptRegistry::ensureLoaded(c, script()); !l) {
            report.error = l.error();
            report.outcomes.clear();
            return report;
        }
    }

    const int batch = std::max(options.batch, 1);
    const QByteArray verb = del ? QByteArrayLiteral("del") : QByteArrayLiteral("set");
    for (qsizetype from = 0; from < keys.size(); from += batch) {
        if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
            report.cancelled = true;
            report.outcomes.resize(from);
            return report;
        }
        const qsizetype to = std::min<qsizetype>(from + batch, keys.size());
        std::vector<qsizetype> todo;
        for (qsizetype i = from; i < to; ++i) {
            if (plans[size_t(i)] != Plan::Skip) {
                todo.push_back(i);
            }
        }
        for (int attempt = 0; attempt < 2 && !todo.empty(); ++attempt) {
            if (attempt == 1) {
                // NOSCRIPT: the script cache was flushed behind our back; load it and retry those.
                c.loadedScripts().remove(script().sha);
                if (auto l = ScriptRegistry::ensureLoaded(c, script()); !l) {
                    report.error = l.error();
                    report.outcomes.resize(from);
                    return report;
                }
            }
            std::vector<qsizetype> sent;
            std::vector<qsizetype> noScript;
            for (qsizetype i : todo) {
                const Plan plan = plans[size_t(i)];
                appendFix(c, keys[i], plan, verb, options);
                sent.push_back(i);
            }
            for (qsizetype i : sent) {
                auto raw = c.readRaw();
                if (!raw) {
                    // The connection is gone: keys of this batch may or may not have been fixed.
                    report.error = Error::make(
                        raw.error().kind,
                        u"%1; the outcomes of the last %2 keys are unknown (scan again to see)"_s
                            .arg(raw.error().message)
                            .arg(sent.size()));
                    report.outcomes.resize(from);
                    return report;
                }
                if (readOutcome(redis::ReplyView(*raw), keys[i], plans[size_t(i)], options,
                                report.outcomes[i])) {
                    noScript.push_back(i);
                }
            }
            todo = std::move(noScript);
        }
    }
    return report;
}

KeyFixer::Sweep KeyFixer::sweep(Connection &c, KeyScanner &scanner,
                                const KeyScanner::Options &scanOptions, Action action,
                                const Options &options)
{
    Sweep out;
    out.fixes.action = action;
    out.fixes.dryRun = options.dryRun;
    Options fixOptions = options;
    fixOptions.onlyFlagged = true;
    // The scan stops when the caller cancels or a fix fails.
    std::atomic<bool> stop{false};
    KeyScanner::Options so = scanOptions;
    so.cancel = &stop;
    auto cancelled = [&] {
        for (const std::atomic<bool> *flag : {scanOptions.cancel, options.cancel}) {
            if (flag != nullptr && flag->load(std::memory_order_relaxed)) {
                return true;
            }
        }
        return false;
    };
    out.scan = scanner.run(c, so, [&](const QList<KeyInfo> &page, const ScanProgress &) {
        if (cancelled()) {
            stop = true;
            return;
        }
        QList<KeyInfo> notOk;
        for (const KeyInfo &k : page) {
            if (k.health != Health::Ok) {
                notOk << k;
            }
        }
        if (notOk.isEmpty()) {
            return;
        }
        Report r = run(c, notOk, action, fixOptions);
        out.fixes.outcomes += r.outcomes;
        out.fixes.cancelled = out.fixes.cancelled || r.cancelled;
        if (r.error) {
            out.fixes.error = r.error;
            stop = true;
        }
    });
    if (out.scan.status == ScanSummary::Status::Cancelled && cancelled()) {
        out.fixes.cancelled = true;
    }
    return out;
}

} // namespace sluice::keys
