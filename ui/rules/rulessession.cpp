#include "rulessession.h"

#include "rulesmodel.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"

#include "core/rules/codec.h"
#include "core/rules/exporter.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

namespace sluice::ui {

QStringList RulesSession::lines(const QList<Diagnostic> &diagnostics)
{
    QStringList out;
    for (const Diagnostic &d : diagnostics) {
        out << d.toString();
    }
    return out;
}

RulesSession::RulesSession(ConnectionController *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_model(new RulesModel(this))
    , m_file(new RulesFile(this))
{
    connect(m_file, &RulesFile::changedOnDisk, this, &RulesSession::onFileChanged);
    m_model->setObjectName(QStringLiteral("rulesModel"));
    connect(m_worker.get(), &RulesWorker::answered, this, &RulesSession::onAnswered);
    connect(m_worker.get(), &RulesWorker::storeChanged, this, &RulesSession::onStoreChanged);
    connect(m_worker.get(), &RulesWorker::overridesAnswered, this, &RulesSession::onOverrides);
    connect(m_worker.get(), &RulesWorker::watchError, this, [this](const QString &message) {
        m_connection->reportLost();
        m_watchError = message;
        Q_EMIT stateChanged();
    });
    connect(m_worker.get(), &RulesWorker::watchRecovered, this, [this] {
        m_connection->reportReachable();
        m_watchError.clear();
        Q_EMIT stateChanged();
    });
    connect(m_connection, &ConnectionController::sessionChanged, this, &RulesSession::syncEndpoint);
    connect(m_connection, &ConnectionController::stateChanged, this,
            &RulesSession::onConnectionState);
    onConnectionState(m_connection->state());
}

// The worker stops its watcher in its own thread; WorkerThread waits for at most a command
// timeout if a pull or push is under way.
RulesSession::~RulesSession() = default;

const RuleSet &RulesSession::rules() const
{
    return m_model->set();
}

bool RulesSession::canTalkToRedis() const
{
    return m_redisUp && m_redisDown.isEmpty() && !isBusy();
}

void RulesSession::setStoreNamespace(const QByteArray &ns)
{
    m_ns = ns;
    m_endpointKey = QStringLiteral("-"); // forces the worker to restart with the namespace
    syncEndpoint();
}

// ---------------------------------------------------------------------------------------------
// The working set

QString RulesSession::uniqueId(const QString &base) const
{
    if (m_model->rowOf(base) < 0) {
        return base;
    }
    for (int i = 2;; ++i) {
        const QString id = QStringLiteral("%1-%2").arg(base.left(60)).arg(i);
        if (m_model->rowOf(id) < 0) {
            return id;
        }
    }
}

Rule RulesSession::newRule() const
{
    Rule rule;
    rule.id = uniqueId(QStringLiteral("new-rule"));
    rule.scope.kind = Scope::Kind::Ip;
    rule.algorithm = Algorithm::FixedWindow;
    rule.limit = 10;
    rule.windowUs = 1'000'000;
    return rule;
}

int RulesSession::duplicate(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        return -1;
    }
    Rule copy = m_model->rule(row);
    copy.id = uniqueId(copy.id.left(58) + QStringLiteral("-copy"));
    m_model->insertRule(row + 1, copy, tr("unsaved"));
    setUnsaved(true);
    changed();
    say(Tone::Info, tr("Duplicated %1 as %2.").arg(m_model->rule(row).id, copy.id),
        tr("Change what differs in the editor, then Apply."));
    return row + 1;
}

void RulesSession::remove(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        return;
    }
    const QString id = m_model->rule(row).id;
    m_model->removeRule(row);
    setUnsaved(true);
    changed();
    say(Tone::Info, tr("Deleted %1 here.").arg(id),
        m_storeVersion ? tr("Redis keeps it until you push.") : QString());
}

int RulesSession::apply(const Rule &rule, int row)
{
    if (row >= 0 && row < m_model->rowCount()) {
        m_model->replaceRule(row, rule, tr("unsaved"));
    } else {
        row = m_model->rowCount();
        m_model->insertRule(row, rule, tr("unsaved"));
    }
    setUnsaved(true);
    changed();
    return row;
}

// ---------------------------------------------------------------------------------------------
// Files

bool RulesSession::reopenFile(const QString &path, QString *error)
{
    if (!importFile(path, error)) {
        return false;
    }
    m_keepReopened = true;
    return true;
}

bool RulesSession::importFile(const QString &path, QString *error)
{
    const rules::Loaded loaded = rules::loadFile(path);
    const QString name = QFileInfo(path).fileName();
    if (!loaded.ok()) {
        const int n = int(loaded.errors.size());
        if (error) {
            *error = tr("%1: %n error(s); nothing was imported, the rules here are unchanged.",
                        nullptr, n)
                         .arg(name);
        }
        showProblems(
            tr("Cannot import %1: %n error(s). Nothing was changed.", nullptr, n).arg(path),
            lines(loaded.errors), Tone::Bad);
        say(Tone::Bad, tr("%1 is not a valid rule file.").arg(name),
            tr("Every error is listed below with its line and column. Fix the file and import "
               "it again."));
        return false;
    }
    m_origin = tr("file %1").arg(name);
    m_model->reset(loaded.set, m_origin);
    m_file->opened(path);
    setUnsaved(false);
    hideProblems();
    changed();
    Q_EMIT replaced();
    say(Tone::Good,
        tr("Imported %n rule(s) from %1.", nullptr, int(loaded.set.rules.size())).arg(name),
        loaded.set.basedOn
            ? tr("The file was pulled from Redis version %1.").arg(*loaded.set.basedOn)
            : QString());
    return true;
}

std::optional<rules::Export> RulesSession::render(const RuleSet &set, const QString &format,
                                                  const rules::NginxAuthOptions &nginxAuth,
                                                  QString *error)
{
    const QString name = format.trimmed().toLower();
    if (name == QLatin1String("nginx-auth")) {
        const Result<void> ok = rules::validateNginxAuthOptions(nginxAuth);
        if (!ok) {
            if (error) {
                *error = ok.error().message;
            }
            return std::nullopt;
        }
        return rules::exportNginxAuth(set, nginxAuth);
    }
    const auto f = rules::exportFormatFromName(name);
    if (!f) {
        if (error) {
            *error = tr("Unknown export format '%1': choose json, yaml, nginx, nginx-auth, envoy "
                        "or kong.")
                         .arg(format);
        }
        return std::nullopt;
    }
    return rules::exportRules(set, *f);
}

bool RulesSession::exportFile(const QString &path, const QString &format, QStringList *warnings,
                              const rules::NginxAuthOptions &nginxAuth)
{
    QString why;
    const std::optional<rules::Export> rendered = render(m_model->set(), format, nginxAuth, &why);
    if (!rendered) {
        say(Tone::Bad, tr("Cannot export to %1.").arg(QFileInfo(path).fileName()), why);
        return false;
    }
    const rules::Export &out = *rendered;
    const auto f = rules::exportFormatFromName(format.toLower());
    QString formatName = QStringLiteral("nginx-auth");
    if (f) {
        formatName = rules::exportFormatName(*f);
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(out.text) != out.text.size() ||
        !file.commit()) {
        say(Tone::Bad, tr("Cannot write %1.").arg(path), file.errorString());
        return false;
    }
    QStringList skipped;
    for (const rules::Export::Skipped &s : out.skipped) {
        skipped << QStringLiteral("%1: %2").arg(s.ruleId, s.reason);
    }
    if (warnings) {
        *warnings = skipped;
    }
    const QString name = QFileInfo(path).fileName();
    const int written = int(m_model->set().rules.size() - size_t(out.skipped.size()));
    if (f && (*f == rules::ExportFormat::Json || *f == rules::ExportFormat::Yaml)) {
        m_origin = tr("file %1").arg(name);
        m_model->setAllWhere(m_origin);
        m_file->wrote(path, out.text);
        setUnsaved(false);
    }
    if (skipped.isEmpty()) {
        hideProblems();
        say(Tone::Good,
            tr("Exported %n rule(s) to %1 (%2).", nullptr, written).arg(path, formatName));
    } else {
        showProblems(
            tr("%1 cannot express %n rule(s); they are not in %2:", nullptr, int(skipped.size()))
                .arg(formatName, name),
            skipped, Tone::Warning);
        say(Tone::Warning,
            tr("Exported %1 of %2 rules to %3; %n left out.", nullptr, int(skipped.size()))
                .arg(written)
                .arg(m_model->set().rules.size())
                .arg(path),
            tr("The list below says why %1 cannot express them.").arg(formatName));
    }
    Q_EMIT stateChanged();
    return true;
}

// ---------------------------------------------------------------------------------------------
// State

void RulesSession::say(Tone tone, const QString &headline, const QString &detail,
                       const QList<Offer> &offers)
{
    // The core words its store messages for the command line ("push with --force"); the
    // console names its button instead.
    static const QRegularExpression flag(
        QStringLiteral("(push (the rule set )?with |use )?--force"));
    const QString button = tr("\u201cPush anyway (force)\u201d");
    Q_EMIT message(PageMessage::headlined(tone, QString(headline).replace(flag, button),
                                          QString(detail).replace(flag, button)),
                   offers);
}

void RulesSession::showProblems(const QString &title, const QStringList &lines, Tone tone)
{
    Q_EMIT problems({title, lines, tone});
}

void RulesSession::hideProblems()
{
    Q_EMIT problems({});
}

void RulesSession::setUnsaved(bool unsaved)
{
    m_unsaved = unsaved;
}

void RulesSession::changed()
{
    Q_EMIT stateChanged();
    Q_EMIT rulesChanged(servedSet());
}

void RulesSession::loadHistory()
{
    m_historyRequest = ++m_nextRequest;
    m_worker.post([id = m_historyRequest](RulesWorker *w) { w->history(id); });
    Q_EMIT stateChanged();
}

void RulesSession::loadVersion(qint64 version)
{
    m_historyRequest = ++m_nextRequest;
    m_worker.post(
        [id = m_historyRequest, version](RulesWorker *w) { w->pullVersion(id, version); });
    Q_EMIT stateChanged();
}

void RulesSession::rollback(qint64 version)
{
    m_rollingBack = true;
    m_historyRequest = ++m_nextRequest;
    const QString message = tr("rollback to version %1").arg(version);
    m_worker.post([id = m_historyRequest, version, message](RulesWorker *w) {
        w->rollback(id, version, message);
    });
    say(Tone::Info, tr("Rolling back to version %1…").arg(version));
    Q_EMIT stateChanged();
}

void RulesSession::onHistoryAnswer(const StoreReply &reply)
{
    if (reply.request != m_historyRequest) {
        return; // an answer to a request that a newer one replaced
    }
    m_historyRequest = 0;
    m_rollingBack = false;
    if (!reply.ok) {
        if (reply.op == StoreReply::Op::Rollback) {
            say(Tone::Bad, tr("The rollback to version %1 was not made.").arg(reply.rollbackOf),
                reply.error);
        }
        Q_EMIT historyFailed(reply.error);
        Q_EMIT stateChanged();
        return;
    }
    switch (reply.op) {
    case StoreReply::Op::History:
        Q_EMIT historyReady(reply.history);
        break;
    case StoreReply::Op::Version: {
        const RuleDiff diff = diffRules(reply.current, reply.set);
        const int unchanged =
            int(reply.set.rules.size()) - int(diff.added.size()) - int(diff.changed.size());
        Q_EMIT versionReady(reply.version, diff, unchanged);
        break;
    }
    case StoreReply::Op::Rollback:
        if (reply.added.isEmpty() && reply.changed.isEmpty() && reply.removed.isEmpty()) {
            say(Tone::Info, tr("Redis already has the rules of version %1 (version %2).")
                                .arg(reply.rollbackOf)
                                .arg(reply.version));
        } else if (!m_unsaved) {
            adopt(reply.set, reply.version);
            say(Tone::Good, tr("Rolled back to version %1: stored as version %2.")
                                .arg(reply.rollbackOf)
                                .arg(reply.version));
        } else {
            // The page's own write: the edits stay, based on it (no conflict with yourself).
            rebase(reply.set, reply.version);
            changed();
            say(Tone::Warning,
                tr("Rolled back to version %1: stored as version %2. Your unsaved changes are "
                   "kept.")
                    .arg(reply.rollbackOf)
                    .arg(reply.version),
                m_model->set().basedOn == reply.version
                    ? tr("They count as based on version %1: a push replaces the rolled-back "
                         "rules with them, after its preview.")
                          .arg(reply.version)
                    : tr("Pull to review the differences, or push to replace them."),
                {Offer::PullAndReview});
        }
        Q_EMIT rolledBack(reply.rollbackOf, reply.version);
        break;
    default:
        break;
    }
    Q_EMIT stateChanged();
}

} // namespace sluice::ui
