#include "monitorworker.h"

#include "ui/common/workerthread.h"

#include "core/keys/keyreader.h"
#include "core/keys/keyscanner.h"
#include "core/rules/overridematcher.h"
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"
#include "core/stats/statsreader.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSet>
#include <QTimer>

#include <utility>

using namespace std::chrono_literals;

namespace sluice::ui {

MonitorWorker::MonitorWorker(Options options, QObject *parent)
    : QObject(parent)
    , m_options(options)
{
    qRegisterMetaType<MonitorSnapshot>();
    qRegisterMetaType<OverrideTarget>();
    qRegisterMetaType<OverrideResult>();
    qRegisterMetaType<QList<OverrideResult>>();
}

MonitorWorker::MonitorWorker(QObject *parent)
    : MonitorWorker(Options{}, parent)
{}

MonitorWorker::~MonitorWorker() = default;

void MonitorWorker::cancel()
{
    m_cancel = true;
}

void MonitorWorker::start()
{
    if (m_timer) {
        return;
    }
    m_timer = new QTimer(this);
    m_timer->setInterval(m_options.tickMs);
    connect(m_timer, &QTimer::timeout, this, &MonitorWorker::tick);
    m_timer->start();
}

void MonitorWorker::setEndpoint(std::optional<Endpoint> endpoint, quint64 session,
                                double scanBudget)
{
    m_connection = workerConnection(std::move(endpoint), 3s, 1s);
    m_scanBudget = scanBudget;
    m_session = session;
    m_ticks = 0;
    m_nextScanMs = 0;
    if (m_connection) {
        refresh(true);
    }
}

void MonitorWorker::setRules(RuleSet rules, QString topRule)
{
    m_rules = std::move(rules);
    m_topRule = std::move(topRule);
    refresh(true);
}

void MonitorWorker::setTopRule(QString ruleId)
{
    m_topRule = std::move(ruleId);
    refresh(false);
}

void MonitorWorker::setScanKeys(bool on)
{
    const bool was = std::exchange(m_scanKeys, on);
    if (on && !was) {
        refresh(true);
    }
}

void MonitorWorker::refresh(bool withKeys)
{
    if (!m_connection || m_cancel) {
        return;
    }
    withKeys = withKeys && m_scanKeys;
    if (m_timer) {
        m_timer->start(); // the next tick a full interval from now
    }
    Q_EMIT snapshotReady(read(withKeys));
}

void MonitorWorker::tick()
{
    if (!m_connection || m_cancel) {
        return;
    }
    ++m_ticks;
    const bool withKeys =
        m_scanKeys && (m_options.scanEveryTicks <= 1 || m_ticks % m_options.scanEveryTicks == 0) &&
        QDateTime::currentMSecsSinceEpoch() >= m_nextScanMs;
    Q_EMIT snapshotReady(read(withKeys));
}

bool MonitorWorker::ensureConnection(QString *error)
{
    auto c = m_connection->get();
    if (!c) {
        *error = c.error().message;
        return false;
    }
    return true;
}

MonitorSnapshot MonitorWorker::read(bool withKeys)
{
    MonitorSnapshot s;
    s.session = m_session;
    s.windowSeconds = m_options.windowSeconds;
    s.readAtMs = QDateTime::currentMSecsSinceEpoch();
    s.nowSecond = s.readAtMs / 1000;
    if (!ensureConnection(&s.error)) {
        return s;
    }
    QStringList ids;
    for (const Rule &r : m_rules.rules) {
        ids << r.id;
    }
    for (const Rule &r : m_rules.staged) {
        ids << r.id; // a staged candidate's statistics are its own
    }
    if (!ids.isEmpty()) {
        auto series =
            stats::readSeries(*m_connection->current(), ids, m_options.windowSeconds, s.nowSecond);
        if (!series) {
            s.error = series.error().message;
            return s;
        }
        s.series = std::move(series.value());
        s.reachedRedis = true;
    }
    QString topRule = m_topRule;
    if (topRule == MonitorSnapshot::busiestRule) {
        topRule = MonitorSnapshot::busiestOf(s.series);
        s.topBusiest = true;
    }
    if (!topRule.isEmpty() && m_rules.find(topRule)) {
        auto top = stats::readTopSubjects(*m_connection->current(), topRule,
                                          m_options.windowSeconds, s.nowSecond, m_options.topCount);
        if (!top) {
            s.error = top.error().message;
            return s;
        }
        s.topRuleId = topRule;
        s.top = std::move(top.value());
        s.reachedRedis = true;
    }
    if (withKeys) {
        scanLimited(s);
    }
    return s;
}

void MonitorWorker::scanLimited(MonitorSnapshot &s)
{
    s.limitedRead = true;
    if (m_rules.rules.empty()) {
        return;
    }
    keys::KeyScanner scanner{keys::KeyReader(m_rules)};
    keys::KeyScanner::Options o;
    o.maxKeysPerSecond = m_scanBudget;
    // One flag for both reasons to stop: the page closing (m_cancel) and the key cap.
    std::atomic<bool> stop{false};
    o.cancel = &stop;
    o.reconnectAttempts = 1;
    const qint64 readAtMs = s.readAtMs;
    const RuleSet &rules = m_rules;
    QList<LimitedSubject> &out = s.limited;
    qint64 scanned = 0;
    qint64 adopted = 0;
    qint64 adoptedNeverExpire = 0;
    QElapsedTimer took;
    took.start();
    const keys::ScanSummary summary = scanner.run(
        *m_connection->current(), o,
        [&](const QList<keys::KeyInfo> &page, const keys::ScanProgress &) {
            scanned += page.size();
            for (const keys::KeyInfo &k : page) {
                const Rule *rule = k.hasRule() ? rules.find(k.ruleId) : nullptr;
                if (!rule) {
                    continue;
                }
                if (k.exists()) {
                    ++s.keysPerRule[k.ruleId];
                }
                if (!k.adoptedAs.isEmpty() && k.exists()) {
                    ++adopted;
                    adoptedNeverExpire += k.pttlMs == -1 ? 1 : 0;
                }
                // A staged candidate limits nobody (its would-deny counts are its chart's).
                const bool candidate = !rules::RuleStore::stagedOf(rule->id).isEmpty();
                if (auto row = candidate ? std::nullopt : limitedSubject(k, *rule, readAtMs)) {
                    out << *row;
                }
            }
            if (scanned >= m_options.maxKeysScanned || m_cancel) {
                stop = true;
            }
        });
    m_nextScanMs = QDateTime::currentMSecsSinceEpoch() + 10 * took.elapsed();
    s.keysScanned = scanned;
    s.adoptedKeys = adopted;
    s.adoptedNeverExpire = adoptedNeverExpire;
    s.limitedCapped = summary.status == keys::ScanSummary::Status::Cancelled && !m_cancel;
    if (summary.status == keys::ScanSummary::Status::Failed) {
        s.limitedRead = false; // keep the last list; the error below says why
        s.limited.clear();
        s.keysPerRule.clear();
        s.error = summary.error ? summary.error->message : tr("the key scan failed");
        return;
    }
    s.reachedRedis = s.reachedRedis || summary.progress.roundTrips > 0;
    applyOverrides(s);
}

void MonitorWorker::applyOverrides(MonitorSnapshot &s)
{
    // The stored overrides, one read of their index: a user whose ACL does not reach them
    // still sees the keys (and the rule file's overrides), and the note says why.
    QList<rules::OverrideStore::Stored> stored;
    auto listed = rules::OverrideStore(m_ns).list(*m_connection->current(), m_rules);
    if (listed) {
        stored = std::move(*listed);
    } else {
        s.overridesError = listed.error().message;
    }
    QHash<QString, qsizetype> storedCount;
    for (const rules::OverrideStore::Stored &o : std::as_const(stored)) {
        ++storedCount[o.ruleId];
    }
    // As the engine decides: each rule's stored overrides before its file's.
    RuleSet merged = m_rules;
    rules::OverrideStore::merge(merged, stored);
    const qint64 nowUs = s.readAtMs * 1000;
    for (const Rule &rule : merged.rules) {
        if (rule.overrides.empty()) {
            continue;
        }
        // A file's ttl counts from when the rules are loaded, which the Monitor does not know:
        // from now, so that it reads as live.
        const rules::OverrideMatcher matcher(rule.overrides, nowUs);
        const qsizetype fromStore = storedCount.value(rule.id);
        const auto mark = [&](LimitedSubject &row, const rules::OverrideMatcher::Hit &hit) {
            const Override &o = *hit.override;
            row.overrideAction = o.action;
            row.overrideEndMs = hit.endUs > 0 ? (hit.endUs + 999) / 1000 : 0;
            row.overrideStored = hit.index < fromStore;
            row.overrideMatch = o.describeMatch();
            row.overrideNote = o.note;
            switch (o.action) {
            case Override::Action::Allow:
                row.limited = false;
                break;
            case Override::Action::Deny:
                row.limited = true;
                row.retryInMs = row.overrideEndMs > 0 ? row.overrideEndMs - s.readAtMs : -1;
                break;
            case Override::Action::Limit:
                // Decided on a key of its own: the rule's key says nothing of the next request.
                row.limited = false;
                row.overrideLimit = o.describeAction(rule);
                break;
            }
        };
        QSet<QByteArray> listedKeys;
        for (LimitedSubject &row : s.limited) {
            if (row.ruleId != rule.id || !row.adoptedAs.isEmpty()) {
                continue;
            }
            listedKeys.insert(row.key);
            if (const auto hit = matcher.match(row.subject, nowUs)) {
                mark(row, hit);
            }
        }
        // A subject an exact deny blocks is denied right now whatever its key holds, or with
        // no key at all.
        for (const Override &o : rule.overrides) {
            if (o.kind != Override::Kind::Subject || o.action != Override::Action::Deny) {
                continue;
            }
            const QByteArray subject = o.pattern.toUtf8();
            const QByteArray key = rule.keyFor(subject);
            const auto hit = matcher.match(subject, nowUs);
            if (listedKeys.contains(key) || !hit ||
                hit.override->action != Override::Action::Deny) {
                continue;
            }
            LimitedSubject row;
            row.key = key;
            row.ruleId = rule.id;
            row.subject = subject;
            row.state = tr("denied by an override, whatever its key holds");
            row.readAtMs = s.readAtMs;
            mark(row, hit);
            listedKeys.insert(key);
            s.limited << row;
        }
    }
}

void MonitorWorker::unblock(QByteArray key)
{
    QString error;
    if (!m_connection) {
        Q_EMIT unblocked(key, false, tr("not connected"));
        return;
    }
    if (!ensureConnection(&error)) {
        Q_EMIT unblocked(key, false, error);
        return;
    }
    auto r = m_connection->current()->command({QByteArrayLiteral("UNLINK"), key});
    if (!r) {
        Q_EMIT unblocked(key, false, r.error().message);
        return;
    }
    Q_EMIT unblocked(key, r->integer > 0, QString());
    refresh(true);
}

void MonitorWorker::setStoreNamespace(QByteArray ns)
{
    m_ns = std::move(ns);
}

void MonitorWorker::storeOverrides(QList<OverrideTarget> targets, Override::Action action,
                                   qint64 ttlUs, QString note)
{
    QString error;
    if (!m_connection) {
        error = tr("not connected");
    } else {
        ensureConnection(&error);
    }
    const rules::OverrideStore store(m_ns);
    QList<OverrideResult> out;
    for (const OverrideTarget &t : std::as_const(targets)) {
        OverrideResult r{t, action, error, 0};
        const Rule *rule = m_rules.find(t.ruleId);
        const QString pattern = QString::fromUtf8(t.subject);
        if (!r.error.isEmpty()) {
            // not connected: said for each
        } else if (!rule) {
            r.error = tr("the rule is no longer in the rule set");
        } else if (pattern.toUtf8() != t.subject) {
            // An override names its subject as text (the file's form).
            r.error = tr("the subject is not UTF-8 text, which an override cannot name");
        } else {
            Override o;
            o.kind = Override::Kind::Subject;
            o.pattern = pattern;
            o.action = action;
            o.ttlUs = ttlUs;
            o.note = note;
            rules::OverrideStore::AddOptions options;
            options.replace = true;
            auto added = store.add(*m_connection->current(), *rule, o, options);
            if (added) {
                r.expiresUs = added->override.expiresUs;
            } else {
                r.error = added.error().message;
            }
        }
        out << r;
    }
    Q_EMIT overridden(out);
    refresh(true);
}

} // namespace sluice::ui
