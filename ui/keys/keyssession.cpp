#include "keyssession.h"

#include "keypresentation.h"
#include "keysmodel.h"
#include "scanstate.h"

#include "core/keys/keyreader.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"

#include <QLocale>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace sluice::ui {

using keys::KeyFixer;
using keys::KeyInfo;
using keys::KeysWorker;
using keys::ScanSummary;

namespace {

QString number(qint64 n)
{
    return QLocale().toString(n);
}

QString keysWord(qint64 n)
{
    return n == 1 ? KeysSession::tr("1 key") : KeysSession::tr("%1 keys").arg(number(n));
}

} // namespace

KeysSession::KeysSession(ConnectionController *connection, KeysModel *model, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_model(model)
    , m_scanState(new KeysScanState(this))
    , m_liveTimer(new QTimer(this))
{
    m_liveTimer->setSingleShot(true);
    connect(m_liveTimer, &QTimer::timeout, this, &KeysSession::onLiveTimer);
    // The rows of a result that is not current are drawn grey (kept, never emptied).
    connect(m_scanState, &KeysScanState::changed, this, [this] {
        m_model->setStale(m_scanState->freshness() == KeysScanState::Freshness::Stale);
    });
    connect(m_model, &KeysModel::countsChanged, this, &KeysSession::onCountsChanged);
    connect(m_connection, &ConnectionController::sessionChanged, this, [this] {
        stopSession(false);
        startSession();
    });
    connect(m_connection, &ConnectionController::stateChanged, this,
            &KeysSession::onConnectionState);
}

KeysSession::~KeysSession()
{
    stopSession(true);
}

void KeysSession::startSession()
{
    setNodes({});
    m_model->clear();
    m_visibleRows.clear();
    m_scanQueue.clear();
    m_lastScanPatterns.reset();
    m_liveTimer->stop();
    m_scanState->reset();
    m_scanState->setInterval(rescanInterval());
    m_connectionTrouble = false;
    m_scanFailed = false;
    setScanNote({});
    setConnectionNote({});
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    if (!endpoint) {
        setConnectionNote(tr("Not connected: choose a Redis on the Connection page."), Tone::Info);
        Q_EMIT busyChanged();
        return;
    }
    KeysWorker::Options options;
    options.scanner.maxKeysPerSecond = m_connection->scanBudget(); // the profile's
    m_scanBudget = options.scanner.maxKeysPerSecond;
    // Retired, not waited for, when the session ends (stopSession): it may outlive the
    // session by one round trip.
    m_thread = std::make_unique<WorkerThread<KeysWorker>>(QStringLiteral("sluice-keys"), *endpoint,
                                                          m_rules, options);
    m_worker = m_thread->get();
    m_worker->setScanReplicas(m_replicas);

    // Signals of a worker that was replaced meanwhile are dropped.
    KeysWorker *w = m_worker;
    const auto current = [this, w](auto &&f) {
        return [this, w, f](const auto &...args) {
            if (w == m_worker) {
                (this->*f)(args...);
            }
        };
    };
    connect(w, &KeysWorker::scanStarted, this, current(&KeysSession::onScanStarted));
    connect(w, &KeysWorker::pageReady, this, current(&KeysSession::onPage));
    connect(w, &KeysWorker::scanFinished, this, current(&KeysSession::onScanFinished));
    connect(w, &KeysWorker::refreshed, this, current(&KeysSession::onRefreshed));
    connect(w, &KeysWorker::connectionError, this, current(&KeysSession::onWorkerError));
    connect(w, &KeysWorker::fixFinished, this, current(&KeysSession::onFixFinished));
    connect(w, &KeysWorker::valueRead, this, [this, w](const KeysWorker::RawValue &v) {
        if (w == m_worker) {
            Q_EMIT valueRead(v);
        }
    });
    m_thread->post([](KeysWorker *worker) { worker->startRefreshing(); });
    startScan(rescanInterval() > 0 ? ScanKind::Live : ScanKind::Manual);
}

void KeysSession::stopSession(bool wait)
{
    if (!m_worker) {
        return;
    }
    KeysWorker *w = m_worker;
    std::unique_ptr<WorkerThread<KeysWorker>> t = std::move(m_thread);
    m_worker = nullptr;
    m_pendingScans = 0;
    m_scanQueue.clear();
    m_liveTimer->stop();
    m_scanState->setScanning(false);
    m_fixing = false;
    w->cancel();
    w->setVisibleKeys({});
    t->post([](KeysWorker *worker) { worker->stopRefreshing(); });
    if (wait) {
        // Closing: the worker must be gone before the process is; it stops within one round
        // trip (a few seconds at worst if the server does not answer). The thread quits after
        // the slot running now, and is waited for here.
        t.reset();
    } else {
        WorkerThread<KeysWorker>::retire(std::move(t));
    }
    Q_EMIT busyChanged();
}

void KeysSession::refresh()
{
    if (!m_worker) {
        startSession();
        return;
    }
    startScan();
}

qint64 KeysSession::rescanInterval() const
{
    return qint64(std::max(m_connection->keysRescanSeconds(), 0)) * 1000;
}

void KeysSession::startScan(ScanKind kind)
{
    if (!m_worker) {
        return;
    }
    m_liveTimer->stop();
    m_worker->cancel(); // a scan running stops; this one is queued behind it
    ++m_pendingScans;
    m_fraction = -1;
    m_scanFailed = false;
    setScanNote({});
    const QList<QByteArray> globs = m_patterns;
    m_scanQueue << globs;
    // A live rescan walks at most what the budget allows in one interval: a keyspace larger
    // than that is scanned in part, and said so (never "all healthy" for the rest).
    const qint64 interval = rescanInterval();
    const qint64 cap = kind == ScanKind::Live && m_scanBudget > 0 && interval > 0
                           ? std::max<qint64>(qint64(m_scanBudget * double(interval) / 1000), 1)
                           : 0;
    KeysWorker *w = m_worker;
    QMetaObject::invokeMethod(
        w, [w, globs, cap] { w->scan(globs, cap); }, Qt::QueuedConnection);
    m_scanState->setScanning(true);
    onCountsChanged();
    Q_EMIT busyChanged();
}

void KeysSession::pageShown()
{
    if (!m_worker || m_pendingScans > 0 || m_fixing || rescanInterval() <= 0) {
        return;
    }
    // Just scanned (the session's first scan, a rescan a moment ago): that one is current.
    const QDateTime at = m_scanState->finishedAt();
    if (at.isValid() && m_scanState->failure().isEmpty() &&
        at.msecsTo(QDateTime::currentDateTime()) < 1000) {
        return;
    }
    startScan(ScanKind::Live);
}

void KeysSession::scheduleLive()
{
    const qint64 interval = rescanInterval();
    m_scanState->setInterval(interval);
    if (m_worker && interval > 0) {
        m_liveTimer->start(int(std::min<qint64>(interval, 3'600'000)));
    } else {
        m_liveTimer->stop();
    }
}

void KeysSession::onLiveTimer()
{
    if (!m_worker) {
        return;
    }
    if (m_pendingScans > 0 || m_fixing) {
        scheduleLive(); // busy: the next tick
        return;
    }
    startScan(ScanKind::Live);
}

void KeysSession::cancel()
{
    if (m_worker) {
        m_worker->cancel();
    }
}

PageMessage KeysSession::message() const
{
    QStringList parts;
    Tone tone = Tone::Info;
    if (!m_connectionNote.isEmpty()) {
        parts << m_connectionNote;
        tone = std::max(tone, m_connectionTone);
    }
    if (!m_scanNote.isEmpty()) {
        parts << m_scanNote;
        tone = std::max(tone, m_scanTone);
    }
    return PageMessage::plain(tone, parts.join(QLatin1Char('\n')));
}

void KeysSession::setRules(const RuleSet &rules)
{
    m_rules = rules;
    if (m_worker) {
        KeysWorker *w = m_worker;
        QMetaObject::invokeMethod(
            w, [w, rules] { w->setRules(rules); }, Qt::QueuedConnection);
        // Not asked for by the user: a rescan within the budget of one interval, as the timer's.
        startScan(rescanInterval() > 0 ? ScanKind::Live : ScanKind::Manual);
    }
    onCountsChanged();
}

const Rule *KeysSession::ruleOf(const KeyInfo &info) const
{
    if (!m_rules || !info.hasRule()) {
        return nullptr;
    }
    return m_rules->find(info.ruleId);
}

QString KeysSession::defaultPatterns() const
{
    const keys::KeyReader reader(m_rules);
    QStringList globs;
    for (const QByteArray &p : reader.defaultPatterns()) {
        globs << keypresentation::displayBytes(p);
    }
    return globs.join(QLatin1Char(' '));
}

void KeysSession::setVisibleKeys(const QHash<QByteArray, int> &rows)
{
    m_visibleRows = rows;
    if (m_worker) {
        m_worker->setVisibleKeys(rows.keys());
    }
}

void KeysSession::setSelectedKey(const std::optional<QByteArray> &key)
{
    m_selected = key;
    if (key && m_worker) {
        m_worker->requestValue(*key);
    }
}

// --- worker signals -------------------------------------------------------------------------

void KeysSession::onScanStarted()
{
    // A rescan of the same match merges into the rows (the selection, the scroll position and
    // the sort stay; rows it does not list again go when it saw the whole match); other
    // patterns start a new table. Decided when the scan really starts: pages of a scan
    // cancelled just before arrive first.
    const QList<QByteArray> globs = m_scanQueue.isEmpty() ? m_patterns : m_scanQueue.takeFirst();
    if (!m_lastScanPatterns || *m_lastScanPatterns != globs) {
        m_model->clear();
        m_visibleRows.clear();
    }
    m_lastScanPatterns = globs;
    m_model->beginMerge();
    m_fraction = 0;
    Q_EMIT busyChanged();
}

void KeysSession::onPage(const QList<KeyInfo> &keys, const keys::ScanProgress &p)
{
    m_model->reserve(p.dbSize);
    m_model->merge(keys);
    if (m_pendingScans > 0) {
        setNodes(p.nodes);
    }
    if (m_pendingScans > 0) {
        m_fraction = p.fraction;
        setCountText(tr("%1 so far").arg(keysWord(m_model->rowCount())));
        Q_EMIT busyChanged();
    }
    connectionBack();
}

void KeysSession::onScanFinished(const ScanSummary &summary)
{
    if (summary.status != ScanSummary::Status::Failed && summary.progress.roundTrips > 0) {
        // A scan that got its answers is news of the connection even when it listed nothing
        // (a keyspace that came back empty has no page and no row to refresh).
        workerReached();
    }
    if (m_pendingScans > 0) {
        --m_pendingScans;
    }
    if (m_pendingScans > 0) {
        m_model->endMerge(false);
        return; // a newer scan is queued: this one was cancelled for it
    }
    const bool complete = summary.status == ScanSummary::Status::Completed;
    m_model->endMerge(complete); // keys gone since the last scan leave with a whole one
    m_model->resort();           // rows that came while sorted were put at the end
    setNodes(summary.progress.nodes);
    const qint64 n = m_model->rowCount();
    const qint64 ms = summary.progress.elapsedMs;
    const QString took = ms < 1000 ? tr("%1 ms").arg(ms) : keypresentation::ttlText(ms);
    onCountsChanged();
    m_scanState->setScanning(false);
    switch (summary.status) {
    case ScanSummary::Status::Completed:
        setCountText(tr("%1 · scanned in %2").arg(keysWord(n), took));
        m_scanState->scanDone(ms, summary.progress.keys, true, 1.0, false);
        break;
    case ScanSummary::Status::Cancelled:
        setCountText(summary.stoppedAtCap ? tr("%1 · stopped at the scan budget").arg(keysWord(n))
                                          : tr("%1 · scan cancelled").arg(keysWord(n)));
        m_scanState->scanDone(ms, summary.progress.keys, false, summary.progress.fraction,
                              summary.stoppedAtCap);
        break;
    case ScanSummary::Status::Failed: {
        m_scanFailed = true;
        setCountText(tr("%1 · scan stopped").arg(keysWord(n)));
        const QString why = summary.error ? summary.error->message : tr("unknown error");
        if (summary.serverRestarted) {
            setScanNote(tr("Redis restarted during the scan, so the scan stopped after %1: the "
                           "keyspace it was walking is gone. The keys listed are kept; their "
                           "rows update as they are read again. Scan again (F5) for the keys "
                           "Redis holds now.")
                            .arg(keysWord(n)),
                        Tone::Warning);
        } else if (n > 0) {
            // The scanner's message says where it stopped and that the keys listed stay.
            setScanNote(tr("The scan stopped: %1").arg(why), Tone::Warning);
        } else {
            setScanNote(
                tr("Could not list the keys: %1. Trying again when Redis answers.").arg(why),
                Tone::Bad);
        }
        // The rows of the last good scan stay, marked stale: never an empty or healthy
        // result from a scan that failed.
        m_scanState->failed(why);
        break;
    }
    }
    scheduleLive();
    Q_EMIT busyChanged();
    Q_EMIT scanFinished(summary);
}

void KeysSession::onRefreshed(const QList<KeyInfo> &keys)
{
    QList<QPair<int, KeyInfo>> updates;
    updates.reserve(keys.size());
    for (const KeyInfo &k : keys) {
        const int row = m_visibleRows.value(k.key, -1);
        if (row >= 0) {
            updates.append({row, k});
        }
        if (m_selected && *m_selected == k.key) {
            Q_EMIT selectedRefreshed(k);
            if (m_worker) {
                m_worker->requestValue(k.key); // the counter may have moved
            }
        }
    }
    m_model->replace(std::move(updates));
    connectionBack();
}

bool KeysSession::workerReached()
{
    m_connection->reportReachable(); // the status bar follows at once, not after its countdown
    if (!m_connectionTrouble) {
        return false;
    }
    m_connectionTrouble = false;
    setConnectionNote({}); // the worker got through again
    return true;
}

void KeysSession::connectionBack()
{
    if (workerReached()) {
        // The rows stay stale until a scan has listed them again: one now, when live.
        if (m_pendingScans == 0 && !m_fixing && rescanInterval() > 0 && m_model->rowCount() > 0) {
            startScan(ScanKind::Live);
            return;
        }
    }
    // Nothing was listed before the connection went: list now.
    if (m_scanFailed && m_model->rowCount() == 0 && m_pendingScans == 0) {
        startScan();
    }
}

void KeysSession::onConnectionError(const QString &message)
{
    m_connectionTrouble = true;
    m_scanState->failed(message);
    setConnectionNote(tr("Connection to Redis lost (%1). The table shows the keys as last read; "
                         "it updates again by itself when Redis answers.")
                          .arg(message));
}

void KeysSession::onWorkerError(const QString &message)
{
    onConnectionError(message);
    m_connection->reportLost(); // the status bar checks at once
}

void KeysSession::onConnectionState(const ConnectionState &state)
{
    using S = ConnectionState::State;
    if (!m_worker) {
        // The controller names its endpoint after sessionChanged (when it opens): start then.
        if (m_connection->endpoint() && state.state != S::Idle) {
            startSession();
        }
        return;
    }
    const bool lost = state.state == S::Lost || state.state == S::Failed;
    const bool wasLost = std::exchange(m_controllerLost, lost);
    if (lost && !wasLost) {
        // Once as it goes: the countdown's ticks while Lost say nothing new, and would mark
        // stale a table this page's own worker has read again meanwhile.
        onConnectionError(state.error.isEmpty() ? tr("no answer") : state.error);
    } else if (state.state == S::Connected && m_connectionTrouble) {
        const bool rescan = m_scanFailed && m_model->rowCount() == 0 && m_pendingScans == 0;
        connectionBack();
        if (!rescan && m_worker) {
            QMetaObject::invokeMethod(m_worker, &KeysWorker::refreshVisible, Qt::QueuedConnection);
        }
    }
}

keys::HealthSummary KeysSession::healthNow() const
{
    keys::HealthSummary summary = m_model->summary();
    if (const std::optional<Endpoint> e = m_connection->endpoint()) {
        // What to grant, to whom: the profile's user.
        summary.grant.replace(QLatin1String("<user>"),
                              e->user.isEmpty() ? QStringLiteral("default") : e->user);
    }
    return summary;
}

void KeysSession::onCountsChanged()
{
    m_scanState->setHealth(healthNow());
    const qint64 never = m_model->summary().noTtl;
    const qint64 flagged = m_model->flagged();
    if (never != m_lastNeverExpiring || flagged != m_lastFlagged) {
        m_lastNeverExpiring = never;
        m_lastFlagged = flagged;
        Q_EMIT healthChanged(never, flagged);
    }
}

// --- fixes ----------------------------------------------------------------------------------

std::optional<KeysSession::Question> KeysSession::fixSelectionQuestion(const QList<KeyInfo> &keys,
                                                                       bool deleteKeys,
                                                                       QString *nothing) const
{
    if (!m_worker || m_fixing || keys.isEmpty()) {
        return std::nullopt;
    }
    const qint64 n = keys.size();
    qint64 fixable = 0;
    for (const KeyInfo &k : keys) {
        fixable += keys::isFixable(k.health) ? 1 : 0;
    }
    const QString which =
        n == 1 ? tr("the selected key") : tr("the %1 selected keys").arg(number(n));
    if (deleteKeys) {
        Question q{tr("Delete %1 from Redis? Their subjects start afresh on their next "
                      "request. This cannot be undone.")
                       .arg(which),
                   tr("Delete"),
                   {}};
        const qint64 strays = std::count_if(keys.cbegin(), keys.cend(),
                                            [](const KeyInfo &k) { return !k.hasRule(); });
        if (strays > 0) {
            q.text += QLatin1Char(' ') +
                      (strays == 1 ? tr("One of them matches no rule's prefix: it may not be a "
                                        "limiter key at all.")
                                   : tr("%1 of them match no rule's prefix: they may not be "
                                        "limiter keys at all.")
                                         .arg(number(strays))) +
                      QLatin1Char(' ') + tr("Type %1 to delete them.").arg(n);
            q.typeToConfirm = QString::number(n);
        }
        return q;
    }
    if (fixable == 0) {
        if (nothing) {
            *nothing = n == 1 ? tr("The selected key needs no TTL from its rule: it is not "
                                   "flagged as never expiring or living too long.")
                              : tr("None of the %1 selected keys needs a TTL from its rule: none "
                                   "is flagged as never expiring or living too long.")
                                    .arg(number(n));
        }
        return std::nullopt;
    }
    QString question =
        fixable == n ? tr("Set the TTL from their rule on %1?").arg(which)
                     : tr("Set the TTL from their rule on %1 of the %2 selected keys (those that "
                          "never expire or live too long)? The others are left as they are.")
                           .arg(number(fixable), number(n));
    question += QLatin1Char(' ') + tr("A key that got a TTL within its rule meanwhile is "
                                      "left alone.");
    return Question{question, tr("Set TTL"), {}};
}

std::optional<KeysSession::Question> KeysSession::fixAllQuestion(bool deleteKeys) const
{
    const qint64 n = m_model->summary().fixable();
    if (!m_worker || m_fixing || n == 0) {
        return std::nullopt;
    }
    const QString what = n == 1
                             ? tr("the 1 key that never expires or lives too long")
                             : tr("the %1 keys that never expire or live too long").arg(number(n));
    // In the user's words: what is gone through, and what is checked before each change (the
    // scan patterns stay out of it; they are in the Match field for whoever typed them).
    const QString where = m_patterns.isEmpty()
                              ? tr("Sluice goes through every key under your rules' prefixes "
                                   "again")
                              : tr("Sluice goes through every key the Match field selects "
                                   "again");
    if (deleteKeys) {
        return Question{tr("Delete %1? %2 and deletes each key that is still flagged at that "
                           "instant. This cannot be undone.")
                            .arg(what, where),
                        tr("Delete all"),
                        {}};
    }
    return Question{tr("Set the TTL from their rule on %1? %2 and fixes each key that is still "
                       "flagged at that instant; a key that got a TTL meanwhile is left alone.")
                        .arg(what, where),
                    tr("Fix all"),
                    {}};
}

void KeysSession::beginFix()
{
    m_fixing = true;
    Q_EMIT busyChanged();
}

void KeysSession::fixSelection(const QList<KeyInfo> &keys, bool deleteKeys)
{
    if (!m_worker || m_fixing || keys.isEmpty()) {
        return;
    }
    beginFix();
    KeysWorker *w = m_worker;
    QMetaObject::invokeMethod(
        w, [w, keys, deleteKeys] { w->fix(keys, deleteKeys, false); }, Qt::QueuedConnection);
}

void KeysSession::fixAll(bool deleteKeys)
{
    if (!m_worker || m_fixing) {
        return;
    }
    beginFix();
    const QList<QByteArray> globs = m_patterns;
    KeysWorker *w = m_worker;
    QMetaObject::invokeMethod(
        w, [w, globs, deleteKeys] { w->fixAllFlagged(globs, deleteKeys, false); },
        Qt::QueuedConnection);
}

void KeysSession::onFixFinished(const KeyFixer::Report &report)
{
    m_fixing = false;
    m_model->applyFix(report);
    Q_EMIT busyChanged();
    if (m_worker) {
        QMetaObject::invokeMethod(m_worker, &KeysWorker::refreshVisible, Qt::QueuedConnection);
    }
    Q_EMIT fixFinished(report);
}

PageMessage KeysSession::describe(const KeyFixer::Report &report)
{
    using S = KeyFixer::Status;
    const qint64 done = report.count(S::Done);
    const qint64 fine = report.count(S::AlreadyFine);
    const qint64 gone = report.count(S::Gone);
    const qint64 skipped = report.count(S::Skipped);
    const qint64 failed = report.count(S::Failed);
    const bool del = report.action == KeyFixer::Action::Delete;
    QStringList parts;
    if (report.cancelled) {
        parts << tr("Cancelled.");
    }
    parts << (del ? tr("Deleted %1.").arg(keysWord(done))
                  : tr("TTL set on %1.").arg(keysWord(done)));
    if (fine > 0) {
        parts << tr("%1 already had a TTL within their rule (left alone).").arg(keysWord(fine));
    }
    if (gone > 0) {
        parts << tr("%1 had gone meanwhile.").arg(keysWord(gone));
    }
    if (skipped > 0) {
        parts << tr("%1 skipped (no rule to take a TTL from, or not the rule's state).")
                     .arg(keysWord(skipped));
    }
    QString firstFailure;
    QStringList lines;
    for (const auto &o : report.outcomes) {
        if (o.status == S::Failed && firstFailure.isEmpty()) {
            firstFailure = o.message;
        }
        if (lines.size() < 25) {
            lines << QStringLiteral("%1  %2  %3")
                         .arg(keys::statusName(o.status), keypresentation::displayBytes(o.key),
                              o.ttlMs > 0 && o.status == S::Done && !del
                                  ? keypresentation::ttlText(o.ttlMs)
                                  : o.message);
        }
    }
    if (failed > 0) {
        parts << tr("%1 failed: %2.").arg(keysWord(failed), firstFailure);
    }
    if (report.error) {
        parts << tr("Stopped: %1. The changes made before it stand.").arg(report.error->message);
    }
    const Tone tone = (failed > 0 || report.error) ? Tone::Warning
                      : report.cancelled           ? Tone::Info
                                                   : Tone::Good;
    return PageMessage::plain(tone, parts.join(QLatin1Char(' ')), lines.join(QLatin1Char('\n')));
}

// --- messages -------------------------------------------------------------------------------

void KeysSession::setConnectionNote(const QString &text, Tone tone)
{
    m_connectionNote = text;
    m_connectionTone = tone;
    Q_EMIT messageChanged();
}

void KeysSession::setScanNote(const QString &text, Tone tone)
{
    m_scanNote = text;
    m_scanTone = tone;
    Q_EMIT messageChanged();
}

bool KeysSession::isCluster() const
{
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    return !m_nodes.isEmpty() || (endpoint && endpoint->isCluster());
}

void KeysSession::setScanReplicas(bool replicas)
{
    if (replicas == m_replicas) {
        return;
    }
    m_replicas = replicas;
    if (m_worker) {
        m_worker->setScanReplicas(replicas);
        if (isCluster()) {
            startScan();
        }
    }
}

QString KeysSession::describeNode(const keys::NodeScan &node)
{
    using State = keys::NodeScan::State;
    QString who = node.replica     ? tr("%1 (replica of %2)").arg(node.address, node.masterAddress)
                  : node.noReplica ? tr("%1 (master: no replica online)").arg(node.address)
                                   : node.address;
    switch (node.state) {
    case State::Waiting:
        return tr("%1: waiting").arg(who);
    case State::Scanning:
        return tr("%1: %2, %3%").arg(who, keysWord(node.keys)).arg(qRound(node.fraction * 100));
    case State::Done:
        return tr("%1: %2, done").arg(who, keysWord(node.keys));
    case State::Cancelled:
        return tr("%1: %2, cancelled").arg(who, keysWord(node.keys));
    case State::Failed:
        return tr("%1: failed: %2").arg(who, node.error);
    }
    return who;
}

QString KeysSession::nodesHeading() const
{
    if (m_nodes.isEmpty()) {
        return {};
    }
    const bool replicas = std::any_of(m_nodes.begin(), m_nodes.end(),
                                      [](const keys::NodeScan &n) { return n.replica; });
    return replicas ? tr("Redis Cluster, %n shard(s), read from replicas (the masters are "
                         "spared; a replica may lag its master by a moment):",
                         nullptr, int(m_nodes.size()))
                    : tr("Redis Cluster, %n shard(s), read from their masters:", nullptr,
                         int(m_nodes.size()));
}

void KeysSession::setNodes(const QList<keys::NodeScan> &nodes)
{
    const bool was = isCluster();
    m_nodes = nodes;
    Q_EMIT nodesChanged();
    if (was != isCluster()) {
        Q_EMIT busyChanged();
    }
}

void KeysSession::setCountText(const QString &text)
{
    m_countText = text;
    Q_EMIT countTextChanged();
}

} // namespace sluice::ui
