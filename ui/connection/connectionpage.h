#pragma once

#include "connectionprofile.h"
#include "connectionstate.h"

#include "ui/common/tone.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QFrame;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace sluice::ui {

class ConnectionController;
class MessageBanner;

// The Connection page: the saved profiles (and the sandbox) on the left, the selected one's
// form on the right with Test connection, Save and Connect, and one message area that answers
// every action in words. Nothing here waits on the network: tests, connects and keyring calls
// answer through signals.
class ConnectionPage : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionPage(ConnectionController *controller, QWidget *parent = nullptr);

    // Selects a profile (or ProfileStore::sandboxId()) in the list and shows it.
    void selectProfile(const QString &id);
    // A profile needs its password typed: select it, say why, focus the field.
    void askPassword(const QString &id, const QString &why);

private:
    void reloadList();
    void onSelection();
    void showProfile(const ConnectionProfile &p);
    void newProfile();
    void deleteProfile();
    ConnectionProfile formProfile() const;
    ProfileSecrets typedSecrets() const;
    // What is wrong with the form, naming the field, or empty; `field` gets the field to fix.
    QString formProblem(QWidget **field = nullptr) const;
    // Shows only the fields of the chosen transport (and of SSH, when it is on); validates.
    void updateTransport();
    void updateProblem();
    void updateSshNotes();
    // A line edit with a "Browse…" button that picks a file (a non-modal dialog).
    QLayout *fileRow(QLineEdit *edit, const QString &title);
    void trustHostKey();
    // Validates and saves the form; the saved id, or empty (the message says why).
    QString saveForm();
    void testConnection();
    void connectSelected();
    void onTested(const ConnectionState &result);
    void onSessionState(const ConnectionState &state);
    void onPasswordStored(const QString &id, bool inKeyring, const QString &why);
    void updatePasswordNote();
    void updateSandbox();
    void updateMarkers();
    void setDirty(bool dirty);
    // The message area: a headline, a sentence on what to do, the raw detail in grey.
    void say(Tone tone, const QString &headline, const QString &more = {},
             const QString &detail = {});
    QString selectedId() const;

    ConnectionController *m_controller;

    QListWidget *m_list;
    QPushButton *m_new;
    QPushButton *m_delete;
    QStackedWidget *m_detail;

    // The profile form.
    QLabel *m_formTitle;
    QLineEdit *m_name;
    QLineEdit *m_host;
    QSpinBox *m_port;
    QSpinBox *m_db;
    QLineEdit *m_user;
    QLineEdit *m_password;
    QToolButton *m_forget;
    QLabel *m_passwordNote;
    QFormLayout *m_fields;
    int m_hostRow = 0;
    QComboBox *m_transport;
    QLineEdit *m_socket;
    QLineEdit *m_sentinels;
    QLineEdit *m_master;
    QGroupBox *m_tlsBox;
    QLineEdit *m_tlsCa;
    QLineEdit *m_tlsCert;
    QLineEdit *m_tlsKey;
    QLineEdit *m_tlsServerName;
    QCheckBox *m_tlsInsecure;
    QLabel *m_tlsWarning;
    QCheckBox *m_sshCheck;
    QGroupBox *m_sshBox;
    QWidget *m_sshFields;
    QLineEdit *m_sshUser;
    QLineEdit *m_sshHost;
    QSpinBox *m_sshPort;
    QLineEdit *m_sshKey;
    QLineEdit *m_sshPassphrase;
    QLineEdit *m_sshPassword;
    QLineEdit *m_sshKnownHosts;
    QCheckBox *m_sshAcceptNew;
    QLabel *m_problem;
    QPushButton *m_trust;
    QPushButton *m_test;
    QPushButton *m_save;
    QPushButton *m_connect;

    // The sandbox panel.
    QLabel *m_sandboxStatus;
    QPushButton *m_sandboxConnect;

    MessageBanner *m_banner;

    QString m_editingId; // the profile in the form; empty: a new one
    bool m_dirty = false;
    bool m_loading = false;        // filling the form: edits are not the user's
    bool m_forgetPassword = false; // Save forgets the stored password
    quint64 m_pendingTest = 0;
    bool m_trustForTest = false;    // Trust this host key repeats the test, else the connect
    bool m_awaitingSession = false; // the user pressed Connect: report the outcome here
    bool m_sessionMessage = false;  // the message reports a session that may have moved on
};

} // namespace sluice::ui
