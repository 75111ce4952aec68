#include "auditsession.h"

#include "core/common/bytes.h"
#include "core/keys/keyinfo.h"
#include "core/redis/connection.h"
#include "core/redis/lazyconnection.h"

#include <QElapsedTimer>
#include <QLocale>

#include <algorithm>

namespace sluice::ui {

using keys::AuditEntry;
using keys::AuditHealth;
using keys::KeyFixer;

namespace {

QString number(qint64 n)
{
    return QLocale().toString(n);
}

} // namespace

void AuditWorker::run(const Endpoint &endpoint, const keys::KeyAuditor::Options &options,
                      std::shared_ptr<std::atomic<bool>> cancel)
{
    AuditResult result;
    LazyConnection redis(endpoint);
    auto c = redis.get();
    if (!c) {
        result.report.scan.status = keys::ScanSummary::Status::Failed;
        result.report.scan.error = c.error();
        Q_EMIT finished(result);
        return;
    }
    keys::KeyAuditor::Options o = options;
    o.scan.cancel = cancel.get();
    o.pageUsesConnection = false; // the pages are only kept and counted
    qsizetype kept = 0;
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    result.report = keys::KeyAuditor::run(
        **c, o, [&](const QList<AuditEntry> &page, const keys::ScanProgress &p) {
            for (const AuditEntry &e : page) {
                if (!keys::isFlagged(e.health)) {
                    continue;
                }
                const QString group = e.health == AuditHealth::Suspect ? QString() : e.layout;
                if (e.pttlMs == -1) {
                    if (kept < maxFixKeys) {
                        result.withoutTtl[group] << e.key;
                        ++kept;
                    } else {
                        result.truncated = true;
                    }
                }
                auto &samples = result.samples[group];
                if (samples.size() < samplesPerGroup) {
                    samples << e;
                }
            }
            if (sinceProgress.elapsed() >= 100) {
                sinceProgress.restart();
                Q_EMIT progress(p.fraction, p.keys);
            }
        });
    Q_EMIT finished(result);
}

void AuditWorker::fix(const Endpoint &endpoint, const QList<QByteArray> &keys, qint64 ttlMs,
                      bool deleteKeys, std::shared_ptr<std::atomic<bool>> cancel)
{
    KeyFixer::Report report;
    report.action = deleteKeys ? KeyFixer::Action::Delete : KeyFixer::Action::SetTtl;
    LazyConnection redis(endpoint);
    auto c = redis.get();
    if (!c) {
        report.error = c.error();
        Q_EMIT fixed(report);
        return;
    }
    QList<keys::KeyInfo> infos;
    infos.reserve(keys.size());
    for (const QByteArray &k : keys) {
        keys::KeyInfo info;
        info.key = k;
        info.pttlMs = -1;
        info.health = keys::Health::NoTtl;
        info.maxTtlMs = deleteKeys ? 0 : ttlMs;
        infos << info;
    }
    KeyFixer::Options o;
    o.onlyWithoutTtl = true; // only keys that still have none: a TTL is never touched
    o.onlyFlagged = true;
    o.cancel = cancel.get();
    report = KeyFixer::run(**c, infos, report.action, o);
    Q_EMIT fixed(report);
}

AuditSession::AuditSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<AuditResult>();
    qRegisterMetaType<KeyFixer::Report>();
    connect(m_worker.get(), &AuditWorker::progress, this, [this](double f, qint64 n) {
        if (!m_running) {
            return;
        }
        m_fraction = f;
        m_keysSeen = n;
        Q_EMIT progressChanged();
    });
    connect(m_worker.get(), &AuditWorker::finished, this, [this](const AuditResult &r) {
        m_running = false;
        m_result = r;
        m_fraction = 1;
        m_keysSeen = r.report.scan.progress.keys;
        m_elapsedMs = r.report.scan.progress.elapsedMs;
        Q_EMIT busyChanged();
        Q_EMIT finished();
    });
    connect(m_worker.get(), &AuditWorker::fixed, this, &AuditSession::onFixed);
}

AuditSession::~AuditSession()
{
    if (m_cancel) {
        m_cancel->store(true);
    }
}

void AuditSession::start(const Endpoint &endpoint, const std::optional<RuleSet> &rules,
                         const QList<QByteArray> &globs, double scanBudget)
{
    if (m_running || m_fixing) {
        return;
    }
    m_endpoint = endpoint;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_running = true;
    m_fraction = 0;
    m_keysSeen = 0;
    m_result.reset();
    m_fix = {};
    keys::KeyAuditor::Options options;
    options.scan.patterns = globs;
    options.scan.maxKeysPerSecond = scanBudget;
    options.rules = rules;
    auto cancel = m_cancel;
    m_worker.post(
        [endpoint, options, cancel](AuditWorker *w) { w->run(endpoint, options, cancel); });
    Q_EMIT busyChanged();
}

void AuditSession::cancel()
{
    if (m_cancel) {
        m_cancel->store(true);
    }
}

QString AuditSession::forTheConsole(QString cause)
{
    // The auditor's words are the command line's; a console user has buttons for the same
    // repairs. Replaced whole, so that a reworded cause stays as it is rather than half done.
    cause.replace(QStringLiteral("`keys fix --rules` sets its TTL from the rule"),
                  tr("\"Fix all from rules\" on the Keys page's table sets its TTL from the rule"));
    cause.replace(QStringLiteral("(keys fix --match GLOB --ttl DURATION)"),
                  tr("(Fix with TTL, below)"));
    return cause;
}

QList<AuditSession::Row> AuditSession::rows() const
{
    QList<Row> out;
    if (!m_result) {
        return out;
    }
    auto whyOf = [&](const QString &group, const QString &what) {
        QStringList lines;
        if (!what.isEmpty()) {
            lines << what;
        }
        for (const AuditEntry &e : m_result->samples.value(group)) {
            lines << QString();
            lines << tr("%1 (%2, TTL %3)")
                         .arg(bytes::printable(e.key), keys::auditHealthName(e.health),
                              e.pttlMs == -1 ? tr("never") : keys::formatDurationMs(e.pttlMs));
            if (!e.state.isEmpty()) {
                lines << e.state;
            }
            // The cause once (the keys of a group share it), then only the keys and states.
            if (lines.size() <= 4 || e.cause != m_result->samples.value(group).first().cause) {
                lines << forTheConsole(e.cause);
            }
        }
        return lines.join(u'\n');
    };
    for (const keys::AuditGroup &g : m_result->report.groups) {
        Row r;
        r.layout = g.layout;
        r.title = g.layout;
        const keys::Layout *l = keys::findLayout(g.layout);
        r.library = l ? QString::fromLatin1(l->library) : QString();
        r.keys = g.keys;
        r.flagged = g.flagged();
        r.neverExpires = g.neverExpires;
        r.ttlExceedsWindow = g.ttlExceedsWindow;
        r.unknown = g.unknown;
        r.withoutTtl = m_result->withoutTtl.value(g.layout).size();
        // What the layout is, and what losing its TTL does (layouts.h LostTtl).
        r.why =
            whyOf(g.layout, l ? QString::fromLatin1(l->explanation) + u'\n' +
                                    tr("Without its TTL: %1 (%2).")
                                        .arg(keys::lostTtlWords(*l), keys::lostTtlName(l->lostTtl))
                              : QString());
        out << r;
    }
    if (m_result->report.suspects > 0) {
        Row r;
        r.title = tr("suspects");
        r.library = tr("integer strings without TTL named like a limit, matching no layout");
        r.keys = r.flagged = m_result->report.suspects;
        r.withoutTtl = m_result->withoutTtl.value(QString()).size();
        r.why = whyOf(QString(), QString());
        // A suspect is flagged: among the flagged groups, by its count.
        auto at = std::find_if(out.begin(), out.end(),
                               [&](const Row &o) { return o.flagged < r.flagged; });
        out.insert(at, r);
    }
    return out;
}

QString AuditSession::summaryText() const
{
    if (!m_result) {
        return {};
    }
    const keys::AuditReport &r = m_result->report;
    return tr("%1 other keys without TTL (application keys: counted, not flagged) · %2 other "
              "keys with a TTL")
        .arg(number(r.otherNoTtl), number(r.other));
}

QString AuditSession::statusText() const
{
    if (m_running) {
        return tr("Auditing… %1% · %2 keys").arg(int(m_fraction * 100)).arg(number(m_keysSeen));
    }
    if (!m_result) {
        return tr("Not audited yet: every key of the database is read once, within the scan "
                  "budget");
    }
    const keys::ScanSummary &s = m_result->report.scan;
    switch (s.status) {
    case keys::ScanSummary::Status::Cancelled:
        return tr("Cancelled after %1 keys: the groups below count those").arg(number(m_keysSeen));
    case keys::ScanSummary::Status::Failed:
        return tr("The audit stopped: %1").arg(s.error ? s.error->message : QString());
    case keys::ScanSummary::Status::Completed:
        break;
    }
    return tr("Audited %1 keys in %2: %3 flagged")
        .arg(number(m_keysSeen), keys::formatDurationMs(m_elapsedMs),
             number(m_result->report.flagged()));
}

std::optional<QString> AuditSession::fixQuestion(const Row &row, qint64 ttlMs, bool deleteKeys,
                                                 QString *nothing) const
{
    if (row.withoutTtl == 0) {
        *nothing = tr("No key of %1 is without TTL: nothing to fix (a TTL that is too long is "
                      "left to the library that set it)")
                       .arg(row.title);
        return std::nullopt;
    }
    if (!deleteKeys && (ttlMs <= 0 || ttlMs > qint64(30) * 86'400'000)) {
        *nothing = tr("The TTL must be from 1 s to 30 d");
        return std::nullopt;
    }
    const QString n = row.withoutTtl == 1 ? tr("1 key") : tr("%1 keys").arg(number(row.withoutTtl));
    return deleteKeys ? tr("Delete %1 of %2 that have no TTL? Only keys that still have none "
                           "when they are reached are deleted.")
                            .arg(n, row.title)
                      : tr("Set a TTL of %1 on %2 of %3 that have no TTL? A key that got a TTL "
                           "meanwhile is left as it is.")
                            .arg(keys::formatDurationMs(ttlMs), n, row.title);
}

void AuditSession::fix(const Row &row, qint64 ttlMs, bool deleteKeys)
{
    if (!m_result || !m_endpoint || m_fixing || m_running) {
        return;
    }
    const QList<QByteArray> keys = m_result->withoutTtl.value(row.layout);
    if (keys.isEmpty()) {
        return;
    }
    m_fixing = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_cancel;
    const Endpoint endpoint = *m_endpoint;
    m_worker.post([=](AuditWorker *w) { w->fix(endpoint, keys, ttlMs, deleteKeys, cancel); });
    Q_EMIT busyChanged();
}

void AuditSession::onFixed(const KeyFixer::Report &report)
{
    m_fixing = false;
    const bool del = report.action == KeyFixer::Action::Delete;
    const qint64 done = report.count(KeyFixer::Status::Done);
    const qint64 meanwhile = report.count(KeyFixer::Status::AlreadyFine);
    const qint64 gone = report.count(KeyFixer::Status::Gone);
    const qint64 failed = report.count(KeyFixer::Status::Failed);
    QString text = del ? tr("Deleted %1 keys without TTL").arg(number(done))
                       : tr("Set a TTL on %1 keys that had none").arg(number(done));
    if (meanwhile > 0) {
        text += tr("; %1 got a TTL meanwhile (left as it is)").arg(number(meanwhile));
    }
    if (gone > 0) {
        text += tr("; %1 were gone").arg(number(gone));
    }
    if (failed > 0) {
        text += tr("; %1 failed").arg(number(failed));
    }
    if (report.error) {
        text += tr("; stopped: %1").arg(report.error->message);
    }
    if (report.cancelled) {
        text += tr("; cancelled");
    }
    m_fix = PageMessage::plain(report.error || failed > 0 ? Tone::Bad : Tone::Good,
                               text + tr(". Audit again to see the keyspace now."));
    Q_EMIT busyChanged();
    Q_EMIT fixFinished();
}

} // namespace sluice::ui
