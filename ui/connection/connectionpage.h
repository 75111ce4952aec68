#pragma once

#include "connectionprofile.h"
#include "connectionstate.h"

#include "ui/common/tone.h"

#include <QWidget>

#include <functional>

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QVBoxLayout;

namespace sluice::ui {

class ClusterPanel;
class ConnectionController;
class ConnectionSession;
class MessageBanner;
class ProfileForm;
class ServerPanel;

// The Connection page: the saved profiles (and the sandbox) on the left, the selected one's
// form on the right with Test connection, Save and Connect, and one message area that answers
// every action in words. What the buttons ask goes to a ConnectionSession, which says the
// answers; the page shows them and keeps the form and its unsaved changes. Nothing here waits
// on the network: tests, connects and keyring calls answer through signals.
class ConnectionPage : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionPage(ConnectionController *controller, QWidget *parent = nullptr);

    // Selects a profile (or ProfileStore::sandboxId()) in the list and shows it.
    void selectProfile(const QString &id);
    // A profile needs its password typed: select it, say why, focus the field.
    void askPassword(const QString &id, const QString &why);
    // The Redis Cluster section (nodes, slot view), shown while the session is a cluster.
    ClusterPanel *clusterPanel() const { return m_cluster; }
    ConnectionSession *session() const { return m_session; }

    // The form holds values the user typed and has not saved (a new profile or a changed one).
    bool hasUnsavedProfile() const;
    // What to do with them when the user leaves (another profile, another page, quit).
    enum class LeaveChoice { Save, Discard, KeepEditing };
    using LeaveHook = std::function<LeaveChoice(const QString &question)>;
    // Answers the question at once instead of a message box (tests).
    void setLeaveHook(LeaveHook hook) { m_leaveHook = std::move(hook); }
    // Leaving the form: with unsaved values asks (Save, Discard, Keep editing) and runs `then`
    // unless the user keeps editing or the save was refused (the message says why). Without
    // unsaved values runs `then` at once.
    void leave(std::function<void()> then);

private:
    // The constructor's steps, in the page's order (the tab order follows it).
    QVBoxLayout *buildProfileList();
    QWidget *buildFormPanel();
    QWidget *buildSandboxPanel();
    void connectControls();
    void connectSession();
    void selectFirstProfile();
    void reloadList();
    void onSelection();
    void showProfile(const ConnectionProfile &p);
    void newProfile();
    void deleteProfile();
    void trustHostKey();
    // Validates and saves the form; the saved id, or empty (the message says why).
    QString saveForm();
    void testConnection();
    void connectSelected();
    void updateSandbox();
    void updateMarkers();
    void setDirty(bool dirty);
    void resolveLeave(LeaveChoice choice, const std::function<void()> &then);
    // The session's message in the message area (or none).
    void showMessage();
    QString selectedId() const;

    ConnectionController *m_controller;
    ConnectionSession *m_session;

    QListWidget *m_list;
    QPushButton *m_new;
    QPushButton *m_delete;
    QStackedWidget *m_detail;

    // The profile form and its buttons.
    ProfileForm *m_form;
    QPushButton *m_trust;
    QPushButton *m_test;
    QPushButton *m_save;
    QPushButton *m_connect;

    // The sandbox panel.
    QLabel *m_sandboxStatus;
    QPushButton *m_sandboxConnect;

    MessageBanner *m_banner;
    ClusterPanel *m_cluster;
    ServerPanel *m_server;

    QString m_editingId; // the profile in the form; empty: a new one
    bool m_dirty = false;
    bool m_edited = false;  // the user typed in the form since it was shown or saved
    bool m_leaving = false; // a leave question is open
    LeaveHook m_leaveHook;
};

} // namespace sluice::ui
