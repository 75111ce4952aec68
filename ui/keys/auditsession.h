#pragma once

#include "core/keys/audit.h"
#include "core/keys/keyfixer.h"
#include "core/redis/endpoint.h"
#include "core/rules/rule.h"

#include "ui/common/pagemessage.h"
#include "ui/common/workerthread.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

namespace sluice::ui {

// What the audit worker hands the GUI: the report and, per group, the keys without TTL that
// a fix acts on (at most maxFixKeys in all) and a few flagged keys with their why.
struct AuditResult
{
    keys::AuditReport report;
    QHash<QString, QList<QByteArray>> withoutTtl; // layout ("" for the suspects) -> keys
    QHash<QString, QList<keys::AuditEntry>> samples;
    bool truncated = false; // more keys without TTL than kept: a fix acts on the first ones
};

// The Keys page's "Audit the whole keyspace" worker: keys::KeyAuditor and
// keys::KeyFixer on a connection of its own, in its thread.
class AuditWorker : public QObject
{
    Q_OBJECT
public:
    static constexpr qsizetype maxFixKeys = 200'000;
    static constexpr int samplesPerGroup = 5;

    void run(const Endpoint &endpoint, const keys::KeyAuditor::Options &options,
             std::shared_ptr<std::atomic<bool>> cancel);
    void fix(const Endpoint &endpoint, const QList<QByteArray> &keys, qint64 ttlMs, bool deleteKeys,
             std::shared_ptr<std::atomic<bool>> cancel);

Q_SIGNALS:
    void progress(double fraction, qint64 keys);
    void finished(const sluice::ui::AuditResult &result);
    void fixed(const sluice::keys::KeyFixer::Report &report);
};

// The controller of the audit mode, widget-free: starts and cancels the audit, holds its
// result as rows (flagged groups first), the question a fix asks (with the count) and the fix.
class AuditSession : public QObject
{
    Q_OBJECT
public:
    explicit AuditSession(QObject *parent = nullptr);
    ~AuditSession() override;

    // The whole keyspace, or `globs`; `rules`: Sluice's keys judged by them, adoptions.
    void start(const Endpoint &endpoint, const std::optional<RuleSet> &rules,
               const QList<QByteArray> &globs = {}, double scanBudget = keys::defaultScanBudget);
    void cancel();
    bool isRunning() const { return m_running; }
    bool isFixing() const { return m_fixing; }
    double fraction() const { return m_fraction; }
    qint64 keysSeen() const { return m_keysSeen; }
    const std::optional<AuditResult> &result() const { return m_result; }

    struct Row
    {
        QString layout; // "" for the suspects
        QString title;  // the layout id, or "suspects"
        QString library;
        qint64 keys = 0;
        qint64 flagged = 0;
        qint64 neverExpires = 0;
        qint64 ttlExceedsWindow = 0;
        qint64 unknown = 0;
        qint64 withoutTtl = 0; // what Fix and Delete act on
        QString why;           // what the layout is, then the first flagged keys and their cause
    };
    // Flagged groups first (the most flagged first), then the others; then the suspects.
    QList<Row> rows() const;
    // "1,000,000 other keys without TTL (application keys: not flagged) · 40 with a TTL".
    QString summaryText() const;
    QString statusText() const; // "Auditing… 41% · 412,000 keys", "Audited 1,000,450 keys in 12 s"
    // An auditor's cause in the console's words: the repairs it names as commands
    // (`keys fix --rules`, `keys fix --match GLOB --ttl D`) become the buttons that do them.
    static QString forTheConsole(QString cause);

    // Fix (a TTL) or Delete the keys without TTL of a row: nullopt with why in `nothing`
    // when there is nothing to do.
    std::optional<QString> fixQuestion(const Row &row, qint64 ttlMs, bool deleteKeys,
                                       QString *nothing) const;
    void fix(const Row &row, qint64 ttlMs, bool deleteKeys);
    const PageMessage &lastFix() const { return m_fix; }

Q_SIGNALS:
    void busyChanged();
    void progressChanged();
    void finished();
    void fixFinished();

private:
    void onFixed(const keys::KeyFixer::Report &report);

    WorkerThread<AuditWorker> m_worker{QStringLiteral("sluice-audit")};
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::optional<Endpoint> m_endpoint;
    std::optional<AuditResult> m_result;
    bool m_running = false;
    bool m_fixing = false;
    double m_fraction = 0;
    qint64 m_keysSeen = 0;
    qint64 m_elapsedMs = 0;
    PageMessage m_fix;
};

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::AuditResult)
