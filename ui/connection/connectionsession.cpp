#include "connectionsession.h"

#include "connectioncontroller.h"
#include "profiledraft.h"

#include <QCoreApplication>

namespace sluice::ui {

// The messages keep the page's translation context ("sluice::ui::ConnectionPage"): they are the
// page's words, said here now.

ConnectionSession::ConnectionSession(ConnectionController *controller, QObject *parent)
    : QObject(parent)
    , m_controller(controller)
{
    connect(m_controller, &ConnectionController::tested, this, &ConnectionSession::onTested);
    connect(m_controller, &ConnectionController::stateChanged, this,
            &ConnectionSession::onSessionState);
}

void ConnectionSession::clearMessage()
{
    if (m_message.isEmpty()) {
        return;
    }
    m_message = {};
    Q_EMIT messageChanged();
}

void ConnectionSession::withdrawTrust()
{
    offerTrust(false, m_trustForTest, m_trustProfile);
}

void ConnectionSession::offerTrust(bool offered, bool forTest, const QString &profile)
{
    m_trustOffered = offered;
    m_trustForTest = forTest;
    m_trustProfile = profile;
    Q_EMIT trustChanged();
}

void ConnectionSession::setTesting(quint64 request)
{
    m_pendingTest = request;
    Q_EMIT testingChanged();
}

bool ConnectionSession::test(const ProfileDraft &draft)
{
    if (const auto refusal = draft.testRefusal(); !refusal.isEmpty()) {
        say(Tone::Bad, refusal.headline, refusal.problem.message);
        Q_EMIT focusRequested(refusal.problem.field);
        return false;
    }
    const ConnectionProfile p = draft.profile();
    withdrawTrust();
    setTesting(m_controller->test(p, draft.secrets()));
    say(Tone::Info, QCoreApplication::translate("sluice::ui::ConnectionPage", "Testing %1…")
                        .arg(p.endpoint({}).display()));
    return true;
}

QString ConnectionSession::save(const ProfileDraft &draft)
{
    ProfileStore *store = m_controller->store();
    if (const auto refusal = draft.saveRefusal(store->profiles()); !refusal.isEmpty()) {
        say(Tone::Bad, refusal.headline, refusal.problem.message);
        Q_EMIT focusRequested(refusal.problem.field);
        return {};
    }
    const ConnectionProfile p = draft.profile();
    const QString id = store->saveWithSecrets(p, draft.secretEdits());
    say(Tone::Good,
        QCoreApplication::translate("sluice::ui::ConnectionPage", "Saved the profile '%1'.")
            .arg(p.name));
    return id;
}

void ConnectionSession::connectTo(const QString &id, const ProfileSecrets &typed)
{
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    m_awaitingSession = true;
    say(Tone::Info,
        QCoreApplication::translate("sluice::ui::ConnectionPage", "Connecting to %1 (%2)…")
            .arg(p->name, p->endpoint({}).display()));
    withdrawTrust();
    m_controller->connectTo(id, typed);
}

void ConnectionSession::connectToSandbox()
{
    m_awaitingSession = true;
    say(Tone::Info,
        QCoreApplication::translate("sluice::ui::ConnectionPage", "Starting the sandbox…"));
    m_controller->connectToSandbox();
}

void ConnectionSession::trustHostKey(const ProfileDraft &draft, const QString &id)
{
    const bool forTest = m_trustForTest;
    withdrawTrust();
    if (forTest) {
        const ConnectionProfile p = draft.profile();
        setTesting(m_controller->test(p, draft.secrets(), true));
        say(Tone::Info, QCoreApplication::translate("sluice::ui::ConnectionPage",
                                                    "Testing %1, trusting its SSH host key…")
                            .arg(p.endpoint().display()));
        return;
    }
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    m_awaitingSession = true;
    say(Tone::Info, QCoreApplication::translate("sluice::ui::ConnectionPage",
                                                "Connecting to %1 (%2), trusting its SSH host "
                                                "key…")
                        .arg(p->name, p->endpoint().display()));
    m_controller->connectTo(id, draft.secrets(), true);
}

bool ConnectionSession::remove(const QString &id)
{
    const bool inUse = m_controller->currentId() == id;
    if (inUse) {
        m_controller->disconnectNow();
    }
    m_controller->store()->remove(id);
    return inUse;
}

void ConnectionSession::reportDeleted(const QString &name, bool wasInUse)
{
    say(Tone::Info,
        QCoreApplication::translate("sluice::ui::ConnectionPage",
                                    "Deleted the profile '%1' and its stored password.")
            .arg(name),
        wasInUse ? QCoreApplication::translate("sluice::ui::ConnectionPage",
                                               "The console was connected through it and is not "
                                               "connected any more.")
                 : QString());
}

void ConnectionSession::onTested(const ConnectionState &r)
{
    if (r.request != m_pendingTest) {
        return;
    }
    setTesting(0);
    if (r.state == ConnectionState::State::Connected) {
        say(Tone::Good,
            r.redisVersion.isEmpty() ? QCoreApplication::translate("sluice::ui::ConnectionPage",
                                                                   "Redis at %1 answered in %2.")
                                           .arg(r.endpoint, formatRtt(r.rttMs))
                                     : QCoreApplication::translate("sluice::ui::ConnectionPage",
                                                                   "Redis %1 at %2 answered in %3.")
                                           .arg(r.redisVersion, r.endpoint, formatRtt(r.rttMs)),
            m_formUnsaved ? QCoreApplication::translate("sluice::ui::ConnectionPage",
                                                        "Save the profile to keep these values.")
                          : QString());
    } else {
        say(Tone::Bad,
            QCoreApplication::translate("sluice::ui::ConnectionPage", "Cannot connect to %1: %2.")
                .arg(r.endpoint, r.error),
            r.hint, r.detail);
        offerTrust(r.unknownHostKey, true);
    }
}

void ConnectionSession::onSessionState(const ConnectionState &s)
{
    if (!m_awaitingSession) {
        // "Connected to ..." next to an amber status bar would contradict it: the bar speaks.
        if (m_sessionMessage && s.state != ConnectionState::State::Connected) {
            m_sessionMessage = false;
            clearMessage();
        }
        return;
    }
    switch (s.state) {
    case ConnectionState::State::Connected:
        m_awaitingSession = false;
        say(Tone::Good,
            QCoreApplication::translate("sluice::ui::ConnectionPage",
                                        "Connected to %1: Redis %2 at %3, %4.")
                .arg(s.label, s.redisVersion, s.endpoint, formatRtt(s.rttMs)),
            QCoreApplication::translate("sluice::ui::ConnectionPage",
                                        "The whole console now works on this server."));
        m_sessionMessage = true;
        break;
    case ConnectionState::State::Lost:
        m_awaitingSession = false;
        say(Tone::Warning,
            QCoreApplication::translate("sluice::ui::ConnectionPage",
                                        "Cannot connect to %1 yet: %2.")
                .arg(s.endpoint, s.error),
            s.hint + QLatin1Char(' ') +
                QCoreApplication::translate("sluice::ui::ConnectionPage",
                                            "Sluice keeps trying by itself; the status bar shows "
                                            "when."),
            s.detail);
        break;
    case ConnectionState::State::Failed:
        m_awaitingSession = false;
        say(Tone::Bad,
            QCoreApplication::translate("sluice::ui::ConnectionPage", "Cannot connect to %1: %2.")
                .arg(s.endpoint, s.error),
            s.hint, s.detail);
        offerTrust(s.unknownHostKey, false, m_controller->currentId());
        break;
    default:
        break;
    }
}

void ConnectionSession::askPassword(const QString &id, const QString &why)
{
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    Q_EMIT selectRequested(id);
    m_awaitingSession = false;
    const ProfileStore::Secret secret = m_controller->neededSecret();
    const QString more =
        QCoreApplication::translate("sluice::ui::ConnectionPage", "Sluice does not have it: %1.")
            .arg(why);
    QString ask;
    switch (secret) {
    case ProfileStore::Secret::SshPassword:
        ask = QCoreApplication::translate("sluice::ui::ConnectionPage",
                                          "Enter the SSH password of '%1', then press Connect.");
        break;
    case ProfileStore::Secret::SshPassphrase:
        ask = QCoreApplication::translate("sluice::ui::ConnectionPage",
                                          "Enter the passphrase of the SSH key of '%1', then press "
                                          "Connect.");
        break;
    default:
        ask = QCoreApplication::translate("sluice::ui::ConnectionPage",
                                          "Enter the password of '%1', then press Connect.");
        break;
    }
    say(Tone::Warning, ask.arg(p->name), more);
    Q_EMIT secretRequested(secret);
}

void ConnectionSession::reportPasswordStored(const QString &id, bool inKeyring, const QString &why)
{
    if (m_awaitingSession) {
        return; // the outcome of the connection matters more; the note says where it went
    }
    const auto p = m_controller->store()->profile(id);
    const QString headline =
        QCoreApplication::translate("sluice::ui::ConnectionPage", "Saved the profile '%1'.")
            .arg(p ? p->name : QString());
    if (inKeyring) {
        say(Tone::Good, headline,
            QCoreApplication::translate("sluice::ui::ConnectionPage",
                                        "The password is in the system keyring."));
    } else {
        say(Tone::Warning, headline,
            QCoreApplication::translate("sluice::ui::ConnectionPage",
                                        "The password is kept in memory for this session only: "
                                        "%1. Sluice will ask for it next time; it never writes "
                                        "passwords to disk.")
                .arg(why));
    }
}

void ConnectionSession::say(Tone tone, const QString &headline, const QString &more,
                            const QString &detail)
{
    QString text = more;
    if (!detail.isEmpty()) {
        text +=
            (text.isEmpty() ? QString() : QStringLiteral("\n")) +
            QCoreApplication::translate("sluice::ui::ConnectionPage", "Details: %1").arg(detail);
    }
    m_message = PageMessage::headlined(tone, headline, text);
    m_sessionMessage = false;
    Q_EMIT messageChanged();
}

} // namespace sluice::ui
