#pragma once

#include "connectionstate.h"
#include "profilestore.h"

#include "ui/common/pagemessage.h"

#include <QObject>
#include <QString>

namespace sluice::ui {

class ConnectionController;
class ProfileDraft;

// The Connection page's controller, widget-free (CONSOLE.md "Connection"): what the user asks
// of a profile (test it, save it, connect with it, trust a bastion's host key, the sandbox),
// forwarded to the ConnectionController and its ProfileStore, and the answers in one message
// (headline, what to do, the raw detail) that the page shows. It tracks the test under way
// (its answer is matched by request; an older one is dropped), whether the user waits for a
// connect that they asked for here (its outcome is said here, a later loss only by the status
// bar), and whether "Trust this host key" is on offer, for a test or for the session.
// The page keeps the form, the list and the unsaved-changes question. GUI thread; nothing here
// waits on the network.
class ConnectionSession : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionSession(ConnectionController *controller, QObject *parent = nullptr);

    ConnectionController *controller() const { return m_controller; }

    // The message: empty (hidden), or a tone, a headline and a detail (what to do, then
    // "Details: ...").
    const PageMessage &message() const { return m_message; }
    void clearMessage();

    // A Test connection is under way (its answer is due).
    bool isTesting() const { return m_pendingTest != 0; }
    // "Trust this host key" is on offer: after a test (forTest) or after the session's connect
    // to the profile trustProfile() failed on an unknown bastion key.
    bool trustOffered() const { return m_trustOffered; }
    bool trustForTest() const { return m_trustForTest; }
    QString trustProfile() const { return m_trustProfile; }
    void withdrawTrust();
    // The form holds values that are not saved (a test's answer then says to save them).
    void setFormUnsaved(bool unsaved) { m_formUnsaved = unsaved; }

    // The form's values once, without saving them; false (the message says why, and
    // focusRequested() names the field) when they cannot be tested.
    bool test(const ProfileDraft &draft);
    // Saves the form's values (secrets to the keyring); the saved id, or empty (the message
    // says why, focusRequested() names the field).
    QString save(const ProfileDraft &draft);
    // The saved profile `id` for the whole console, with the secrets typed (the empty ones
    // from the session or the keyring).
    void connectTo(const QString &id, const ProfileSecrets &typed);
    void connectToSandbox();
    // Again, accepting the unknown SSH host key: the test again with `draft`, or the connect of
    // profile `id` with the secrets typed.
    void trustHostKey(const ProfileDraft &draft, const QString &id);
    // Removes the profile and its stored secrets (disconnecting first if the console is
    // connected through it); whether it was in use. reportDeleted() says it.
    bool remove(const QString &id);
    void reportDeleted(const QString &name, bool wasInUse);
    // The store put the password of the profile shown into the keyring, or could not.
    void reportPasswordStored(const QString &id, bool inKeyring, const QString &why);
    // The controller needs a secret of profile `id` it does not have.
    void askPassword(const QString &id, const QString &why);

Q_SIGNALS:
    void messageChanged();
    void testingChanged();
    void trustChanged();
    // The page should show a field of the form (the one a refusal is about).
    void focusRequested(const QString &field);
    // The page should show profile `id` (askPassword: before the message about it).
    void selectRequested(const QString &id);
    // The page should focus the field of the secret asked for.
    void secretRequested(sluice::ui::ProfileStore::Secret secret);

private:
    void onTested(const ConnectionState &result);
    void onSessionState(const ConnectionState &state);
    void offerTrust(bool offered, bool forTest, const QString &profile = {});
    void setTesting(quint64 request);
    void say(Tone tone, const QString &headline, const QString &more = {},
             const QString &detail = {});

    ConnectionController *m_controller;
    PageMessage m_message;
    quint64 m_pendingTest = 0;
    bool m_trustOffered = false;
    bool m_trustForTest = false;
    QString m_trustProfile;
    bool m_awaitingSession = false; // the user pressed Connect: report the outcome here
    bool m_sessionMessage = false;  // the message reports a session that may have moved on
    bool m_formUnsaved = false;     // the form holds values that are not saved
};

} // namespace sluice::ui
