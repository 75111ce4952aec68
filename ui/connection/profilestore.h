#pragma once

#include "connectionprofile.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <optional>

namespace sluice::ui {

// The connection profiles, kept in the application's QSettings (group "connections"), and their
// secrets (the Redis password, the SSH password, the SSH key's passphrase), kept in the system
// keyring through QtKeychain, one entry each. Where no keyring answers (no
// Secret Service or KWallet, a headless machine, the tests) a password lives in memory for the
// session and is asked again next time: it is never written in plain text. GUI thread only.
//
// Keyring calls are asynchronous: results come back through callbacks and signals, never by
// waiting.
class ProfileStore : public QObject
{
    Q_OBJECT
public:
    // The secrets a profile can have. The settings say only whether there is one and where.
    enum class Secret {
        Password,      // Redis AUTH
        SshPassword,   // SSH password authentication
        SshPassphrase, // the SSH key file's passphrase
    };

    // What Save does with one secret: a non-empty `typed` replaces it; `forget` forgets it.
    struct SecretEdit
    {
        QString typed;
        bool forget = false;
    };
    struct SecretEdits
    {
        SecretEdit password;
        SecretEdit sshPassword;
        SecretEdit sshPassphrase;
    };

    // Where the password of a profile is.
    enum class PasswordPlace {
        None,    // the profile has no password
        Keyring, // the system keyring holds it
        Session, // memory only: asked once per session
    };

    // The outcome of a password lookup.
    struct Lookup
    {
        std::optional<QString> password; // empty optional: not known, ask the user
        QString why;                     // when not known: why, in the user's words
    };
    // The outcome of looking up every secret a profile needs.
    struct SecretsLookup
    {
        std::optional<ProfileSecrets> secrets; // empty: one is not known, ask the user
        Secret missing = Secret::Password;     // which one, when not known
        QString why;
    };

    explicit ProfileStore(QObject *parent = nullptr);

    // Off: the keyring is not even asked (a policy, or tests that want the fallback for sure).
    void setKeyringEnabled(bool enabled);
    bool keyringEnabled() const { return m_keyringEnabled; }

    // The saved profiles, by name.
    QList<ConnectionProfile> profiles() const;
    std::optional<ConnectionProfile> profile(const QString &id) const;
    bool isEmpty() const;
    PasswordPlace passwordPlace(const QString &id) const
    {
        return secretPlace(id, Secret::Password);
    }
    PasswordPlace secretPlace(const QString &id, Secret secret) const;

    // Writes the profile (a new one gets an id, returned). A non-empty `password` replaces the
    // stored one: kept for the session at once, then written to the keyring; passwordStored()
    // tells where it ended up. clearPassword forgets it everywhere.
    QString save(ConnectionProfile profile, const QString &password, bool clearPassword = false);
    // The same for every secret; the SSH ones report through secretStored().
    QString saveWithSecrets(ConnectionProfile profile, const SecretEdits &edits);
    void remove(const QString &id);

    // The password of a profile: from memory, else from the keyring. Calls `done` later (never
    // from inside this call), on the GUI thread, unless `context` is gone by then.
    void lookupPassword(const QString &id, QObject *context, std::function<void(Lookup)> done)
    {
        lookupSecret(id, Secret::Password, context, std::move(done));
    }
    void lookupSecret(const QString &id, Secret secret, QObject *context,
                      std::function<void(Lookup)> done);
    // Every secret the profile has (hasPassword, hasSshPassword, hasSshPassphrase), one after
    // the other; the first one not known ends it. `typed` ones win over the stored ones.
    void lookupSecrets(const ConnectionProfile &profile, const ProfileSecrets &typed,
                       QObject *context, std::function<void(SecretsLookup)> done);
    // Whether this session holds the password in memory (typed, or read from the keyring).
    bool knowsPassword(const QString &id) const { return knowsSecret(id, Secret::Password); }
    bool knowsSecret(const QString &id, Secret secret) const
    {
        return m_session.contains(sessionKey(id, secret));
    }
    // A password the user typed to connect: remembered for the session only.
    void rememberForSession(const QString &id, const QString &password)
    {
        rememberForSession(id, Secret::Password, password);
    }
    void rememberForSession(const QString &id, Secret secret, const QString &value);

    // The profile to connect to at start: an id, sandboxId, or empty (none yet).
    QString lastUsed() const;
    void setLastUsed(const QString &id);

    static QString sandboxId() { return QStringLiteral("sandbox"); }

Q_SIGNALS:
    void profilesChanged();
    // After save() with a password: inKeyring, or kept for the session only and why.
    void passwordStored(const QString &id, bool inKeyring, const QString &why);
    // The same for the SSH password and passphrase (`secret` is a Secret).
    void secretStored(const QString &id, int secret, bool inKeyring, const QString &why);

private:
    QString keyringService() const;
    static QString keyringKey(const QString &id, Secret secret);
    static QString sessionKey(const QString &id, Secret secret);
    void setPlace(const QString &id, Secret secret, PasswordPlace place);
    void storeSecret(const QString &id, Secret secret, const SecretEdit &edit);
    void forgetSecret(const QString &id, Secret secret);
    void stored(const QString &id, Secret secret, bool inKeyring, const QString &why);
    void lookupRest(const QString &id, ProfileSecrets have, QList<Secret> rest, QObject *context,
                    std::function<void(SecretsLookup)> done);

public:
    static QString &secretOf(ProfileSecrets &secrets, Secret secret);

private:
    bool m_keyringEnabled = true;
    QHash<QString, QString> m_session; // sessionKey -> secret, this process only
};

} // namespace sluice::ui
