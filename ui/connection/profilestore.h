#pragma once

#include "connectionprofile.h"

#include <QHash>
#include <QObject>

#include <functional>
#include <optional>

namespace sluice::ui {

// The connection profiles, kept in the application's QSettings (group "connections"), and their
// passwords, kept in the system keyring through QtKeychain. Where no keyring answers (no
// Secret Service or KWallet, a headless machine, the tests) a password lives in memory for the
// session and is asked again next time: it is never written in plain text. GUI thread only.
//
// Keyring calls are asynchronous: results come back through callbacks and signals, never by
// waiting.
class ProfileStore : public QObject
{
    Q_OBJECT
public:
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

    explicit ProfileStore(QObject *parent = nullptr);

    // Off: the keyring is not even asked (a policy, or tests that want the fallback for sure).
    void setKeyringEnabled(bool enabled);
    bool keyringEnabled() const { return m_keyringEnabled; }

    // The saved profiles, by name.
    QList<ConnectionProfile> profiles() const;
    std::optional<ConnectionProfile> profile(const QString &id) const;
    bool isEmpty() const;
    PasswordPlace passwordPlace(const QString &id) const;

    // Writes the profile (a new one gets an id, returned). A non-empty `password` replaces the
    // stored one: kept for the session at once, then written to the keyring; passwordStored()
    // tells where it ended up. clearPassword forgets it everywhere.
    QString save(ConnectionProfile profile, const QString &password, bool clearPassword = false);
    void remove(const QString &id);

    // The password of a profile: from memory, else from the keyring. Calls `done` later (never
    // from inside this call), on the GUI thread, unless `context` is gone by then.
    void lookupPassword(const QString &id, QObject *context, std::function<void(Lookup)> done);
    // Whether this session holds the password in memory (typed, or read from the keyring).
    bool knowsPassword(const QString &id) const { return m_session.contains(id); }
    // A password the user typed to connect: remembered for the session only.
    void rememberForSession(const QString &id, const QString &password);

    // The profile to connect to at start: an id, sandboxId, or empty (none yet).
    QString lastUsed() const;
    void setLastUsed(const QString &id);

    static QString sandboxId() { return QStringLiteral("sandbox"); }

Q_SIGNALS:
    void profilesChanged();
    // After save() with a password: inKeyring, or kept for the session only and why.
    void passwordStored(const QString &id, bool inKeyring, const QString &why);

private:
    QString keyringService() const;
    static QString keyringKey(const QString &id);
    void setPlace(const QString &id, PasswordPlace place);

    bool m_keyringEnabled = true;
    QHash<QString, QString> m_session; // id -> password, this process only
};

} // namespace sluice::ui
