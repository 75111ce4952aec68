#pragma once

#include "profiledraft.h"
#include "profilestore.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLayout;
class QLineEdit;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace sluice::ui {

class FieldForm;

// The profile editor: the transport and its fields (TCP and TLS: host and port, Unix: the
// socket, Sentinel: the sentinels and the master), the database, the user and password, the
// TLS files with Browse…, the SSH tunnel, and the first problem in words as you type. A view
// over a ProfileDraft: every edit goes into the draft, which validates and builds the profile.
// The object names are the tests' ("hostEdit", "tlsBox", "formProblem").
class ProfileForm : public QWidget
{
    Q_OBJECT
public:
    explicit ProfileForm(ProfileStore *store, QWidget *parent = nullptr);

    // Shows a saved profile's values, or a new profile's.
    void showProfile(const std::optional<ConnectionProfile> &saved);
    const ProfileDraft &draft() const { return m_draft; }
    void setTitle(const QString &title);
    // Puts the cursor in a field (a ProfileDraft key, or a secret's: "password", ...).
    void focusField(const QString &key);
    // Turns SSH on when the secret is SSH's, and puts the cursor in its field.
    void focusSecret(ProfileStore::Secret secret);
    // The saved profile changed in the store (a password stored): the notes follow it.
    void refreshNotes();
    // Places the page's buttons under the form.
    void addFooter(QLayout *layout);

Q_SIGNALS:
    // The user changed a value (not showProfile()).
    void edited();
    // Return pressed in a field.
    void submitted();

private:
    // The constructor's steps, in the order of the form (the tab order follows it).
    void buildProfileFields();
    void buildTlsBox();
    void buildSshBox();
    void connectEdits();
    void connectControls();
    void updateTransport();
    void updateProblem();
    void updatePasswordNote();
    void updateSshNotes();
    // A Browse… button that picks a file into `edit` (a non-modal dialog).
    QWidget *browseButton(const QString &key, const QString &title);
    QString savedId() const;
    void userEdit();
    // A titled group of fields under the main ones (TLS, the SSH tunnel), its form in `fields`.
    QGroupBox *groupBox(const QString &title, const QString &objectName, FieldForm **fields);
    // A checkbox's or spin box's value into the draft on every change. showsRows: the value
    // may show or hide rows (userEdit(), also while the form is filled); otherwise only the
    // user's changes are taken, and they emit edited().
    template <class Widget, class Signal, class Value>
    void bindToDraft(Widget *widget, Signal signal, void (ProfileDraft::*setter)(Value),
                     bool showsRows);

    ProfileStore *m_store;
    ProfileDraft m_draft;
    bool m_loading = false; // filling the form: edits are not the user's

    QHash<QString, QLineEdit *> m_edits; // every text field and secret, by the draft's key
    QVBoxLayout *m_box;
    QLabel *m_title;
    FieldForm *m_fields;
    FieldForm *m_tlsFields;
    FieldForm *m_sshForm;
    QComboBox *m_transport;
    QWidget *m_transportRow;
    QSpinBox *m_port;
    QSpinBox *m_db;
    QToolButton *m_forget;
    QLabel *m_passwordNote;
    QCheckBox *m_readOnly;
    QSpinBox *m_scanBudget;
    QSpinBox *m_keysRescan;
    QGroupBox *m_tlsBox;
    QCheckBox *m_tlsInsecure;
    QLabel *m_tlsWarning;
    QCheckBox *m_sshCheck;
    QGroupBox *m_sshBox;
    QLineEdit *m_sshUser;
    QLineEdit *m_sshHost;
    QSpinBox *m_sshPort;
    QCheckBox *m_sshAcceptNew;
    QLabel *m_problem;
};

} // namespace sluice::ui
