#include "changepreview.h"

#include "statedecoder.h"

#include "core/limiter/model.h"
#include "core/redis/keyspace.h"
#include "core/redis/servertime.h"
#include "core/rules/rulediff.h"
#include "core/stats/statsreader.h"

#include <QElapsedTimer>
#include <QHash>
#include <QThread>

#include <algorithm>
#include <optional>

namespace sluice::keys {

namespace {

constexpr int pageCount = 1000;           // SCAN COUNT
constexpr int topSubjects = 20;           // per list
constexpr qint64 maxLogEntries = 100'000; // a sliding log's newest entries read at most

struct Decided
{
    bool allowed = true;
    qint64 remaining = 0;
    qint64 retryAfterMs = -1;
};

// The next request of one subject under `rule`, on the state `values` hold (a copy: nothing
// is kept). No rule: allowed. `writtenUnder`: the rule the state was written under; when
// `rule` has other parameters, the state is first migrated as the scripts will migrate it on
// that subject's next decision, per the new rule's on_change (ALGORITHMS.md "When a rule
// changes").
Decided decideNext(const Rule *rule, bool freshState, Algorithm storedAs,
                   const QList<std::optional<QByteArray>> &values, qint64 nowUs,
                   const Rule *writtenUnder = nullptr)
{
    Decided d;
    if (!rule) {
        d.remaining = -1;
        return d;
    }
    model::State state = freshState || rule->algorithm != storedAs
                             ? model::State{}
                             : model::storedState(rule->algorithm, values);
    if (writtenUnder && writtenUnder->algorithm == rule->algorithm) {
        const Policy policy = rule->policy();
        if (auto migrated =
                model::migrate(policy, writtenUnder->policy().version(), state, nowUs)) {
            state = std::move(*migrated);
        }
    }
    const model::Outcome o = model::apply(rule->policy(), state, 1, nowUs);
    d.allowed = o.decision.allowed;
    d.remaining = o.decision.remaining;
    d.retryAfterMs = o.decision.retryAfterMs;
    return d;
}

// The read that gives a key's stored values, by the layout its rule writes.
QList<QByteArray> readCommand(const Rule &rule, const QByteArray &key)
{
    switch (expectedType(rule.algorithm).front()) {
    case 'h': {
        QList<QByteArray> cmd{"HMGET", key};
        cmd.append(hashFields(rule.algorithm));
        return cmd;
    }
    case 'z': {
        const qint64 n = std::min<qint64>(rule.limit, maxLogEntries) + 1;
        return {"ZRANGE", key, QByteArray::number(-n), "-1", "WITHSCORES"};
    }
    default:
        return {"GET", key};
    }
}

QList<std::optional<QByteArray>> valuesOf(const Rule &rule, const Reply &reply)
{
    QList<std::optional<QByteArray>> values;
    const char kind = expectedType(rule.algorithm).front();
    if (kind == 'h') {
        for (const Reply &e : reply.elements) {
            values << (e.isNil() ? std::nullopt : std::optional<QByteArray>(e.str));
        }
    } else if (kind == 'z') {
        for (size_t i = 1; i < reply.elements.size(); i += 2) {
            values << reply.elements[i].str; // the scores, ascending
        }
    } else if (!reply.isNil()) {
        values << reply.str;
    }
    return values;
}

bool hasState(const Rule &rule, const QList<std::optional<QByteArray>> &values)
{
    for (const auto &v : values) {
        if (v) {
            return true;
        }
    }
    return expectedType(rule.algorithm).front() == 'z' && !values.isEmpty();
}

QByteArray subjectOf(const QByteArray &key, const QByteArray &head)
{
    QByteArray s = key.mid(head.size());
    if (s.endsWith('}')) {
        s.chop(1);
    }
    return s;
}

class Pacer
{
public:
    explicit Pacer(qint64 keysPerSecond)
        : m_budget(keysPerSecond)
    {
        m_clock.start();
    }
    void walked(qint64 keys)
    {
        m_keys += keys;
        if (m_budget <= 0) {
            return;
        }
        const qint64 dueMs = m_keys * 1000 / m_budget;
        if (const qint64 early = dueMs - m_clock.elapsed(); early > 0) {
            QThread::msleep(quint64(std::min<qint64>(early, 1000)));
        }
    }

private:
    qint64 m_budget;
    qint64 m_keys = 0;
    QElapsedTimer m_clock;
};

Result<void> scanRule(Connection &c, RulePreview &p, const Rule *before, const Rule *after,
                      const PreviewOptions &options, Pacer &pacer)
{
    const Rule &keyed = before ? *before : *after;
    const QByteArray head = keyed.keyPrefix + keyed.id.toUtf8() + ":{";
    const QByteArray match = redis::globEscaped(head) + '*';
    auto now = redis::serverTimeUs(c);
    if (!now) {
        return now.error();
    }
    QList<PreviewSubject> released, denied;
    QByteArray cursor = "0";
    do {
        auto page =
            c.command({"SCAN", cursor, "MATCH", match, "COUNT", QByteArray::number(pageCount)});
        if (!page) {
            return page.error();
        }
        if (!page->isArray() || page->elements.size() != 2) {
            return Error::make(Error::Kind::Protocol,
                               QStringLiteral("Redis at %1 answered SCAN with an unexpected reply")
                                   .arg(c.endpoint().display()));
        }
        cursor = page->elements[0].str;
        QList<QByteArray> keys;
        for (const Reply &k : page->elements[1].elements) {
            keys << k.str;
        }
        pacer.walked(qMax<qint64>(pageCount, keys.size()));
        if (keys.isEmpty()) {
            continue;
        }
        QList<QList<QByteArray>> reads;
        for (const QByteArray &k : keys) {
            reads << readCommand(keyed, k);
        }
        auto replies = c.pipeline(reads);
        if (!replies) {
            return replies.error();
        }
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const auto &r = (*replies)[size_t(i)];
            if (!r) {
                ++p.undecodable; // WRONGTYPE: not the rule's layout; its script rebuilds it
                continue;
            }
            const QList<std::optional<QByteArray>> values = valuesOf(keyed, *r);
            if (!hasState(keyed, values)) {
                continue; // gone since the scan listed it
            }
            ++p.liveKeys;
            if (std::holds_alternative<std::monostate>(
                    model::storedState(keyed.algorithm, values))) {
                ++p.undecodable;
            }
            const Decided b = decideNext(before, false, keyed.algorithm, values, *now);
            const Decided a = decideNext(after, p.newState, keyed.algorithm, values, *now, before);
            const PreviewSubject s{subjectOf(keys[i], head), b.remaining, a.remaining,
                                   !b.allowed ? b.retryAfterMs : a.retryAfterMs};
            p.deniedNow += b.allowed ? 0 : 1;
            p.deniedAfter += a.allowed ? 0 : 1;
            if (!b.allowed && a.allowed) {
                ++p.released;
                released << s;
            } else if (b.allowed && !a.allowed) {
                ++p.newlyDenied;
                denied << s;
            }
            if (p.liveKeys >= options.maxKeysPerRule) {
                p.complete = false;
                break;
            }
        }
    } while (cursor != "0" && p.complete);
    // The most constrained first: the longest wait they leave (released) or get (denied).
    const auto byWait = [](const PreviewSubject &x, const PreviewSubject &y) {
        return x.retryAfterMs != y.retryAfterMs ? x.retryAfterMs > y.retryAfterMs
                                                : x.subject < y.subject;
    };
    std::sort(released.begin(), released.end(), byWait);
    std::sort(denied.begin(), denied.end(), byWait);
    p.topReleased = released.mid(0, topSubjects);
    p.topNewlyDenied = denied.mid(0, topSubjects);
    return {};
}

Result<void> readStats(Connection &c, RulePreview &p, const PreviewOptions &options,
                       qint64 nowSecond)
{
    auto series =
        stats::readSeries(c, {p.id}, options.statsSeconds, nowSecond, options.statsNamespace);
    if (!series) {
        return series.error();
    }
    for (const stats::RuleSeries &s : *series) {
        for (const stats::Counts &n : s.seconds) {
            p.statsAllowed += n.allowed;
            p.statsDenied += n.denied;
        }
    }
    auto top = stats::readTopSubjects(c, p.id, options.statsSeconds, nowSecond, topSubjects,
                                      options.statsNamespace);
    if (!top) {
        return top.error();
    }
    for (const stats::TopSubject &t : *top) {
        if (t.denied > 0) {
            p.topDeniedSubjects << t.subject;
        }
    }
    return {};
}

} // namespace

Result<QList<RulePreview>> previewChange(Connection &c, const RuleSet &stored,
                                         const RuleSet &candidate, const PreviewOptions &options)
{
    const rules::RuleDiff diff = rules::diffRules(stored, candidate);
    QList<RulePreview> out;
    Pacer pacer(options.scanBudget);
    auto now = redis::serverTimeUs(c);
    if (!now) {
        return now.error();
    }
    const qint64 nowSecond = *now / 1'000'000;
    auto run = [&](RulePreview p, const Rule *before, const Rule *after) -> Result<void> {
        if (auto s = scanRule(c, p, before, after, options, pacer); !s) {
            return s.error();
        }
        if (auto s = readStats(c, p, options, nowSecond); !s) {
            return s.error();
        }
        out << p;
        return {};
    };
    for (const rules::RuleDiff::Change &ch : diff.changed) {
        const Rule *before = stored.find(ch.id);
        const Rule *after = candidate.find(ch.id);
        RulePreview p;
        p.id = ch.id;
        p.kind = RulePreview::Kind::Changed;
        p.fields = ch.fields;
        // Another layout or another key: the candidate starts every subject afresh.
        p.newState = before->algorithm != after->algorithm || before->keyPrefix != after->keyPrefix;
        if (auto r = run(p, before, after); !r) {
            return r.error();
        }
    }
    for (const Rule &r : diff.removed) {
        RulePreview p;
        p.id = r.id;
        p.kind = RulePreview::Kind::Removed;
        if (auto e = run(p, stored.find(r.id), nullptr); !e) {
            return e.error();
        }
    }
    for (const Rule &r : diff.added) {
        // Keys left under the new rule's name meet it at once: they count.
        RulePreview p;
        p.id = r.id;
        p.kind = RulePreview::Kind::Added;
        if (auto e = run(p, nullptr, candidate.find(r.id)); !e) {
            return e.error();
        }
    }
    return out;
}

} // namespace sluice::keys
