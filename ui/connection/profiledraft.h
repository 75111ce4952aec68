#pragma once

#include "connectionprofile.h"
#include "profilestore.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace sluice::ui {

// The profile editor's state without widgets: the texts as typed (keyed by field: "name",
// "host", "socket", "sentinels", "master", "user", "tlsCa", "tlsCert", "tlsKey",
// "tlsServerName", "sshUser", "sshHost", "sshKey", "sshKnownHosts"; the secrets "password",
// "sshPassword", "sshPassphrase"), the numbers and switches, and the saved profile it edits (for
// whether a password is stored). It says what is wrong, by field, in the words the form shows,
// and builds the ConnectionProfile, its secrets and its Endpoint. ProfileForm is its view.
class ProfileDraft
{
    Q_DECLARE_TR_FUNCTIONS(ProfileDraft)
public:
    using Transport = ConnectionProfile::Transport;

    struct Problem
    {
        QString field; // a key of fieldKeys(); empty: none
        QString message;
        bool isEmpty() const { return message.isEmpty(); }
    };

    // The text fields, in the order the form shows them (and validation reports them).
    static QStringList fieldKeys();
    static QStringList secretKeys();

    // Edits `saved` (its values, no secrets typed), or a new profile when there is none.
    void reset(const std::optional<ConnectionProfile> &saved = std::nullopt);
    // The stored profile changed (a password saved): the typed values stay.
    void setSaved(const std::optional<ConnectionProfile> &saved) { m_saved = saved; }
    const std::optional<ConnectionProfile> &saved() const { return m_saved; }
    bool isNew() const { return !m_saved.has_value(); }

    void setText(const QString &key, const QString &text);
    QString text(const QString &key) const { return m_text.value(key); }
    void setTransport(Transport t) { m_profile.transport = t; }
    Transport transport() const { return m_profile.transport; }
    void setPort(int port) { m_profile.port = quint16(port); }
    void setDb(int db) { m_profile.db = db; }
    void setSshPort(int port) { m_profile.sshPort = quint16(port); }
    void setTlsInsecure(bool on) { m_profile.tlsInsecure = on; }
    void setSshEnabled(bool on) { m_profile.sshEnabled = on; }
    bool sshEnabled() const { return m_profile.sshEnabled; }
    void setSshAcceptNew(bool on) { m_profile.sshAcceptNew = on; }
    // Keys a second the console's scans walk at most (ConnectionProfile::scanBudget); 0: none.
    void setScanBudget(int keysPerSecond) { m_profile.scanBudget = std::max(keysPerSecond, 0); }
    int scanBudget() const { return m_profile.scanBudget; }
    // How often the Keys page rescans, seconds (ConnectionProfile::keysRescanSeconds); 0: off.
    void setKeysRescanSeconds(int s) { m_profile.keysRescanSeconds = std::clamp(s, 0, 3600); }
    int keysRescanSeconds() const { return m_profile.keysRescanSeconds; }
    // Read-only, as the user set it; until then, for a new profile, on unless the profile
    // reaches this machine only (Endpoint::isLocal(): loopback, a Unix socket, no SSH).
    void setReadOnly(bool on);
    bool readOnly() const;
    // Save forgets the stored password (typing one again takes it back).
    void forgetPassword();
    bool forgettingPassword() const { return m_forgetPassword; }
    // Whether a password is stored for the saved profile (and not being forgotten).
    bool passwordStored() const { return m_saved && m_saved->hasPassword && !m_forgetPassword; }

    // The profile as typed: trimmed texts, the sentinels split at commas, whether it has each
    // secret (typed now, or stored and kept).
    ConnectionProfile profile() const;
    ProfileSecrets secrets() const;
    ProfileStore::SecretEdits secretEdits() const;
    Endpoint endpoint() const { return profile().endpoint(secrets()); }

    // Every field that is wrong, with its message ("Socket path: ..."), keyed by field.
    QHash<QString, QString> problems() const;
    // The first of them in the form's order, or none.
    Problem firstProblem() const;
    // Why a test or a save is refused: the banner's headline, and the field to fix with what
    // to do (problem.message). Empty: go ahead.
    struct Refusal
    {
        Problem problem;
        QString headline;
        bool isEmpty() const { return headline.isEmpty(); }
    };
    // What stops a test: a missing host, then firstProblem().
    Refusal testRefusal() const;
    // What stops a save: a missing name or host, firstProblem(), a name another profile has.
    Refusal saveRefusal(const QList<ConnectionProfile> &others) const;

private:
    bool needsHost() const;

    ConnectionProfile m_profile; // the numbers and switches; the texts are in m_text
    QHash<QString, QString> m_text;
    std::optional<ConnectionProfile> m_saved;
    bool m_forgetPassword = false;
    bool m_readOnlyChosen = false; // the user set it (a saved profile: it was saved)
};

} // namespace sluice::ui
