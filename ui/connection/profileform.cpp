#include "profileform.h"

#include "ui/common/fieldform.h"
#include "ui/common/pageheader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

QSpinBox *spin(const QString &name, int from, int to, int value, int width, QWidget *parent)
{
    auto *s = new QSpinBox(parent);
    s->setObjectName(name);
    s->setRange(from, to);
    s->setValue(value);
    s->setMinimumWidth(width);
    return s;
}

// A widget that holds a spin box (or a combo box) at its size, left-aligned in a form row.
QWidget *leftAligned(QWidget *field, QWidget *parent)
{
    auto *w = new QWidget(parent);
    auto *row = new QHBoxLayout(w);
    row->setContentsMargins(0, 0, 0, 0);
    field->setParent(w);
    row->addWidget(field);
    row->addStretch(1);
    return w;
}

} // namespace

ProfileForm::ProfileForm(ProfileStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
{
    m_box = new QVBoxLayout(this);
    m_box->setContentsMargins(0, 0, 8, 0);
    m_box->setSpacing(10);
    m_title = PageHeader::heading(QString(), 1.2, this);
    m_title->setObjectName(u"formTitle"_s);
    m_box->addWidget(m_title);

    buildProfileFields();
    buildTlsBox();
    buildSshBox();

    m_problem = PageHeader::note(this, tone::text(Tone::Bad));
    m_problem->setObjectName(u"formProblem"_s);
    m_problem->hide();
    m_box->addWidget(m_problem);
    m_box->addStretch(1);

    connectEdits();
    connectControls();
}

void ProfileForm::buildProfileFields()
{
    // The profile: its name, how to reach Redis, who to log in as.
    m_fields = new FieldForm(QString(), this, u"Edit"_s);
    m_fields->setSpacing(12, 8);
    m_fields->addField(u"name"_s, tr("&Name:"), tr("e.g. production, staging cache"));
    m_transport = new QComboBox(this);
    m_transport->setObjectName(u"transportCombo"_s);
    m_transport->addItem(tr("TCP"), int(ConnectionProfile::Transport::Tcp));
    m_transport->addItem(tr("TLS (rediss://)"), int(ConnectionProfile::Transport::Tls));
    m_transport->addItem(tr("Unix socket"), int(ConnectionProfile::Transport::Unix));
    m_transport->addItem(tr("Sentinel"), int(ConnectionProfile::Transport::Sentinel));
    m_transport->setToolTip(tr("How Sluice reaches Redis: plain TCP, TLS, a Unix socket on "
                               "this machine, or the master that Sentinel names"));
    m_transportRow = leftAligned(m_transport, this);
    m_fields->addRow(tr("T&ransport:"), m_transportRow, m_transport);
    auto *port = new QWidget(this);
    auto *portRow = new QHBoxLayout(port);
    portRow->setContentsMargins(0, 0, 0, 0);
    portRow->setSpacing(8);
    m_port = spin(u"portSpin"_s, 1, 65535, 6379, 90, port);
    auto *portLabel = new QLabel(tr("&Port:"), port);
    portLabel->setBuddy(m_port);
    portRow->addWidget(portLabel);
    portRow->addWidget(m_port);
    m_fields->addField(u"host"_s, tr("&Host:"), tr("host name or IP address"), {}, port);
    m_fields->addField(u"socket"_s, tr("Soc&ket path:"), tr("/run/redis/redis-server.sock"),
                       tr("The path of redis-server's unixsocket, on this machine"));
    m_fields->addField(u"sentinels"_s, tr("Sen&tinels:"), tr("host:port, host:port, …"),
                       tr("The sentinels to ask, separated by commas; the port is 26379 when "
                          "left out"));
    m_fields->addField(u"master"_s, tr("&Master name:"), tr("e.g. mymaster"),
                       tr("The name the sentinels monitor the master by (sentinel monitor "
                          "NAME ...)"));
    m_db = spin(u"dbSpin"_s, 0, 9999, 0, 90, this);
    m_db->setToolTip(tr("The database number SELECT picks; 0 unless you know otherwise"));
    m_fields->addRow(tr("&Database:"), leftAligned(m_db, this), m_db);
    m_fields->addField(u"user"_s, tr("&User:"), tr("default user"),
                       tr("An ACL user name (Redis 6 and later); empty for the default user"));
    m_forget = new QToolButton(this);
    m_forget->setObjectName(u"forgetPasswordButton"_s);
    m_forget->setText(tr("Forget"));
    m_forget->setToolTip(tr("Forget the stored password when you save"));
    m_fields->addField(u"password"_s, tr("Pass&word:"), QString(), {}, m_forget)
        ->setEchoMode(QLineEdit::Password);
    m_passwordNote = PageHeader::note(this);
    m_passwordNote->setObjectName(u"passwordNote"_s);
    m_fields->addRow(QString(), m_passwordNote);
    m_readOnly = new QCheckBox(tr("Read-only: send nothing that writes to this server"), this);
    m_readOnly->setObjectName(u"readOnlyCheck"_s);
    m_readOnly->setToolTip(tr("Sluice then only reads: fixing and deleting keys, unblocking, "
                              "pushing rules, load and simulations on Redis are off. On by "
                              "default for a server that is not on this machine."));
    m_fields->addRow(tr("Safety:"), m_readOnly);
    // The scan budget: what the Keys page, its badge and the Monitor may ask of the server.
    m_scanBudget = spin(u"scanBudgetSpin"_s, 0, 1'000'000, int(keys::defaultScanBudget), 150, this);
    m_scanBudget->setSingleStep(1000);
    m_scanBudget->setGroupSeparatorShown(true);
    m_scanBudget->setSuffix(tr(" keys/s"));
    m_scanBudget->setSpecialValueText(tr("no limit"));
    m_scanBudget->setToolTip(
        tr("The most keys a second Sluice's scans walk on this server (the Keys page and its "
           "badge, the Monitor's limited subjects), counted as SCAN walks them, matching or "
           "not; a scan also slows down by itself when the server's latency rises. 0: no "
           "limit."));
    m_fields->addRow(tr("Scan &budget:"), leftAligned(m_scanBudget, this), m_scanBudget);
    // How often the Keys page rescans by itself (within the budget); off spares the server.
    m_keysRescan =
        spin(u"keysRescanSpin"_s, 0, 3600, ConnectionProfile::defaultKeysRescanSeconds, 150, this);
    m_keysRescan->setSuffix(tr(" s"));
    m_keysRescan->setSpecialValueText(tr("off (F5 only)"));
    m_keysRescan->setToolTip(
        tr("The Keys page lists the keys again this often, within the scan budget, so that its "
           "health, the navigation badge and the status bar stay current. Off: only when you "
           "press F5 (for instance to spare a read-only replica)."));
    m_fields->addRow(tr("Keys r&escan:"), leftAligned(m_keysRescan, this), m_keysRescan);
    m_box->addWidget(m_fields);
}

void ProfileForm::buildTlsBox()
{
    // TLS: its files, each with a file dialog.
    m_tlsBox = groupBox(tr("TLS"), u"tlsBox"_s, &m_tlsFields);
    m_tlsFields->addField(u"tlsCa"_s, tr("C&A file:"), tr("the system's trust store"),
                          tr("The CA certificate (PEM) that signed the server's certificate"),
                          browseButton(u"tlsCa"_s, tr("CA certificate")));
    m_tlsFields->addField(u"tlsCert"_s, tr("Client &certificate:"), tr("none"),
                          tr("A client certificate (PEM), for servers that ask for one "
                             "(tls-auth-clients yes); with its key"),
                          browseButton(u"tlsCert"_s, tr("Client certificate")));
    m_tlsFields->addField(u"tlsKey"_s, tr("Client &key:"), tr("none"),
                          tr("The client certificate's private key (PEM, without a passphrase)"),
                          browseButton(u"tlsKey"_s, tr("Client key")));
    m_tlsFields->addField(
        u"tlsServerName"_s, tr("Server na&me:"), tr("the host"),
        tr("The name the server's certificate must carry, when it is not the host (SNI)"));
    m_tlsInsecure = new QCheckBox(tr("Do not check the server's certificate"), m_tlsBox);
    m_tlsInsecure->setObjectName(u"tlsInsecureCheck"_s);
    m_tlsFields->addRow(QString(), m_tlsInsecure);
    m_tlsWarning = PageHeader::note(m_tlsBox, tone::text(Tone::Warning));
    m_tlsWarning->setObjectName(u"tlsInsecureWarning"_s);
    m_tlsWarning->setText(tr("\u26a0 Insecure: anyone between Sluice and the server can read and "
                             "change the traffic, the password included. For a test server "
                             "only."));
    m_tlsFields->addRow(QString(), m_tlsWarning);
    m_box->addWidget(m_tlsBox);
}

void ProfileForm::buildSshBox()
{
    // SSH: off by default; its fields show when it is on.
    m_sshCheck = new QCheckBox(tr("Through an SSH tunnel"), this);
    m_sshCheck->setObjectName(u"sshCheck"_s);
    m_sshCheck->setToolTip(tr("Reach Redis through a bastion host: Sluice logs in with SSH and "
                              "connects from there"));
    m_box->addWidget(m_sshCheck);
    m_sshBox = groupBox(tr("SSH tunnel"), u"sshBox"_s, &m_sshForm);
    auto *login = new QWidget(m_sshForm);
    auto *loginRow = new QHBoxLayout(login);
    loginRow->setContentsMargins(0, 0, 0, 0);
    loginRow->setSpacing(8);
    m_sshUser = new QLineEdit(login);
    m_sshUser->setObjectName(u"sshUserEdit"_s);
    m_sshUser->setPlaceholderText(tr("user"));
    m_sshHost = new QLineEdit(login);
    m_sshHost->setObjectName(u"sshHostEdit"_s);
    m_sshHost->setPlaceholderText(tr("bastion host"));
    m_sshPort = spin(u"sshPortSpin"_s, 1, 65535, 22, 80, login);
    loginRow->addWidget(m_sshUser, 1);
    loginRow->addWidget(new QLabel(u"@"_s, login));
    loginRow->addWidget(m_sshHost, 2);
    auto *sshPortLabel = new QLabel(tr("P&ort:"), login);
    sshPortLabel->setBuddy(m_sshPort);
    loginRow->addWidget(sshPortLabel);
    loginRow->addWidget(m_sshPort);
    m_sshForm->addRow(tr("SSH &login:"), login, m_sshUser);
    m_sshForm->addField(u"sshKey"_s, tr("Key &file:"), tr("the SSH agent, then ~/.ssh's keys"), {},
                        browseButton(u"sshKey"_s, tr("SSH private key")));
    m_sshForm->addField(u"sshPassphrase"_s, tr("Key pass&phrase:"), QString())
        ->setEchoMode(QLineEdit::Password);
    m_sshForm
        ->addField(u"sshPassword"_s, tr("SSH pa&ssword:"), QString(),
                   tr("For password logins; the key file and the agent are tried first"))
        ->setEchoMode(QLineEdit::Password);
    m_sshForm->addField(u"sshKnownHosts"_s, tr("known_&hosts:"), u"~/.ssh/known_hosts"_s, {},
                        browseButton(u"sshKnownHosts"_s, tr("known_hosts file")));
    m_sshAcceptNew =
        new QCheckBox(tr("Accept an unknown host key and add it to known_hosts"), m_sshForm);
    m_sshAcceptNew->setObjectName(u"sshAcceptNewCheck"_s);
    m_sshAcceptNew->setToolTip(tr("A changed host key is always refused"));
    m_sshForm->addRow(QString(), m_sshAcceptNew);
    m_sshBox->setVisible(false);
    m_box->addWidget(m_sshBox);
}

void ProfileForm::connectEdits()
{
    // Every text into the draft; the user's edits make the form dirty.
    for (FieldForm *f : {m_fields, m_tlsFields, m_sshForm}) {
        for (const QString &key : f->keys()) {
            m_edits.insert(key, f->edit(key));
        }
    }
    m_edits.insert(u"sshUser"_s, m_sshUser);
    m_edits.insert(u"sshHost"_s, m_sshHost);
    for (auto it = m_edits.cbegin(); it != m_edits.cend(); ++it) {
        const QString key = it.key();
        QLineEdit *e = it.value();
        // Validation as you type (a file picked in the dialog sets the text too).
        connect(e, &QLineEdit::textChanged, this, [this, key](const QString &text) {
            m_draft.setText(key, text);
            updateProblem();
        });
        connect(e, &QLineEdit::textEdited, this, [this, key] {
            if (key == u"password"_s) {
                updatePasswordNote();
            } else if (key == u"sshPassword"_s || key == u"sshPassphrase"_s) {
                updateSshNotes();
            }
            Q_EMIT edited();
        });
        // Enter in the form connects, as the default button of a dialog would.
        if (!key.startsWith(u"tlsC"_s) && key != u"tlsKey"_s && key != u"sshKey"_s &&
            key != u"sshKnownHosts"_s) {
            connect(e, &QLineEdit::returnPressed, this, &ProfileForm::submitted);
        }
    }
}

void ProfileForm::connectControls()
{
    connect(m_forget, &QToolButton::clicked, this, [this] {
        m_draft.forgetPassword();
        m_edits.value(u"password"_s)->clear();
        updatePasswordNote();
        Q_EMIT edited();
    });
    connect(m_transport, &QComboBox::currentIndexChanged, this, [this] {
        m_draft.setTransport(ConnectionProfile::Transport(m_transport->currentData().toInt()));
        userEdit();
    });
    bindToDraft(m_sshCheck, &QCheckBox::toggled, &ProfileDraft::setSshEnabled, true);
    bindToDraft(m_tlsInsecure, &QCheckBox::toggled, &ProfileDraft::setTlsInsecure, true);
    bindToDraft(m_sshAcceptNew, &QCheckBox::toggled, &ProfileDraft::setSshAcceptNew, true);
    bindToDraft(m_readOnly, &QCheckBox::toggled, &ProfileDraft::setReadOnly, false);
    bindToDraft(m_scanBudget, &QSpinBox::valueChanged, &ProfileDraft::setScanBudget, false);
    bindToDraft(m_keysRescan, &QSpinBox::valueChanged, &ProfileDraft::setKeysRescanSeconds, false);
    bindToDraft(m_port, &QSpinBox::valueChanged, &ProfileDraft::setPort, true);
    bindToDraft(m_db, &QSpinBox::valueChanged, &ProfileDraft::setDb, true);
    bindToDraft(m_sshPort, &QSpinBox::valueChanged, &ProfileDraft::setSshPort, true);
    connect(m_edits.value(u"name"_s), &QLineEdit::textEdited, this, [this](const QString &text) {
        setTitle(text.trimmed().isEmpty() ? tr("New profile") : text.trimmed());
    });
}

template <class Widget, class Signal, class Value>
void ProfileForm::bindToDraft(Widget *widget, Signal signal, void (ProfileDraft::*setter)(Value),
                              bool showsRows)
{
    connect(widget, signal, this, [this, setter, showsRows](Value value) {
        if (showsRows) {
            (m_draft.*setter)(value);
            userEdit();
        } else if (!m_loading) {
            (m_draft.*setter)(value);
            Q_EMIT edited();
        }
    });
}

QGroupBox *ProfileForm::groupBox(const QString &title, const QString &objectName,
                                 FieldForm **fields)
{
    auto *box = new QGroupBox(title, this);
    box->setObjectName(objectName);
    *fields = new FieldForm(QString(), box, u"Edit"_s);
    (*fields)->setSpacing(12, 8);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(*fields);
    return box;
}

void ProfileForm::userEdit()
{
    if (!m_loading) {
        Q_EMIT edited();
    }
    updateTransport();
}

void ProfileForm::addFooter(QLayout *layout)
{
    // Above the stretch that keeps the form at the top.
    m_box->insertSpacing(m_box->count() - 1, 4);
    m_box->insertLayout(m_box->count() - 1, layout);
}

void ProfileForm::setTitle(const QString &title)
{
    m_title->setText(title);
}

QString ProfileForm::savedId() const
{
    return m_draft.saved() ? m_draft.saved()->id : QString();
}

void ProfileForm::showProfile(const std::optional<ConnectionProfile> &saved)
{
    m_loading = true;
    m_draft.reset(saved);
    const ProfileDraft draft = m_draft; // the widgets' signals write into m_draft as they fill
    setTitle(saved ? saved->name : tr("New profile"));
    for (auto it = m_edits.cbegin(); it != m_edits.cend(); ++it) {
        it.value()->setText(draft.text(it.key()));
    }
    const ConnectionProfile p = draft.profile();
    m_transport->setCurrentIndex(m_transport->findData(int(p.transport)));
    m_port->setValue(p.port);
    m_db->setValue(p.db);
    m_scanBudget->setValue(p.scanBudget);
    m_keysRescan->setValue(p.keysRescanSeconds);
    m_tlsInsecure->setChecked(p.tlsInsecure);
    m_sshCheck->setChecked(p.sshEnabled);
    m_sshPort->setValue(p.sshPort);
    m_sshAcceptNew->setChecked(p.sshAcceptNew);
    m_draft = draft;
    m_loading = false;
    refreshNotes();
    updateTransport();
}

void ProfileForm::focusField(const QString &key)
{
    if (QLineEdit *e = m_edits.value(key)) {
        e->setFocus();
    }
}

void ProfileForm::focusSecret(ProfileStore::Secret secret)
{
    switch (secret) {
    case ProfileStore::Secret::SshPassword:
        m_sshCheck->setChecked(true);
        focusField(u"sshPassword"_s);
        break;
    case ProfileStore::Secret::SshPassphrase:
        m_sshCheck->setChecked(true);
        focusField(u"sshPassphrase"_s);
        break;
    case ProfileStore::Secret::Password:
        focusField(u"password"_s);
        break;
    }
}

void ProfileForm::refreshNotes()
{
    if (m_draft.saved()) {
        m_draft.setSaved(m_store->profile(savedId()));
    }
    updatePasswordNote();
    updateSshNotes();
}

void ProfileForm::updateTransport()
{
    using T = ConnectionProfile::Transport;
    const T t = m_draft.transport();
    const bool hostPort = t == T::Tcp || t == T::Tls;
    QStringList shown = {u"name"_s, u"user"_s, u"password"_s};
    if (hostPort) {
        shown << u"host"_s;
    } else if (t == T::Unix) {
        shown << u"socket"_s;
    } else {
        shown << u"sentinels"_s << u"master"_s;
    }
    m_fields->showOnly(shown);
    QLineEdit *host = m_edits.value(u"host"_s);
    if (host->text().isEmpty() && hostPort && !m_loading) {
        host->setText(u"127.0.0.1"_s);
    }
    m_tlsBox->setVisible(t == T::Tls);
    m_tlsWarning->setVisible(m_tlsInsecure->isChecked());
    m_sshBox->setVisible(m_sshCheck->isChecked());
    updateProblem();
}

void ProfileForm::updateProblem()
{
    const QString problem = m_draft.firstProblem().message;
    m_problem->setText(problem.isEmpty() ? QString() : u"\u2717 "_s + problem);
    m_problem->setVisible(!problem.isEmpty());
    // A new profile's read-only follows its host until the user sets it.
    const bool loading = std::exchange(m_loading, true);
    m_readOnly->setChecked(m_draft.readOnly());
    m_loading = loading;
}

void ProfileForm::updateSshNotes()
{
    const QString id = savedId();
    const auto &saved = m_draft.saved();
    const auto placeholder = [&](bool stored, ProfileStore::Secret secret) {
        if (!stored) {
            return tr("none");
        }
        const bool known = m_store->knowsSecret(id, secret) ||
                           m_store->secretPlace(id, secret) == ProfileStore::PasswordPlace::Keyring;
        return known ? tr("unchanged") : tr("type it to connect");
    };
    m_edits.value(u"sshPassphrase"_s)
        ->setPlaceholderText(
            placeholder(saved && saved->hasSshPassphrase, ProfileStore::Secret::SshPassphrase));
    m_edits.value(u"sshPassword"_s)
        ->setPlaceholderText(
            placeholder(saved && saved->hasSshPassword, ProfileStore::Secret::SshPassword));
}

void ProfileForm::updatePasswordNote()
{
    const QString id = savedId();
    const bool stored = m_draft.saved() && m_draft.saved()->hasPassword;
    const bool forgetting = m_draft.forgettingPassword();
    const bool known =
        stored && (m_store->knowsPassword(id) ||
                   m_store->passwordPlace(id) == ProfileStore::PasswordPlace::Keyring);
    QLineEdit *password = m_edits.value(u"password"_s);
    m_forget->setVisible(stored && !forgetting);
    password->setPlaceholderText(!stored || forgetting ? tr("none")
                                 : known               ? tr("unchanged")
                                                       : tr("type it to connect"));
    if (forgetting) {
        m_passwordNote->setText(tr("The stored password will be forgotten when you save."));
    } else if (!password->text().isEmpty()) {
        m_passwordNote->setText(tr("Saving puts it in the system keyring; where none answers, "
                                   "Sluice keeps it for this session only."));
    } else if (stored) {
        switch (m_store->passwordPlace(id)) {
        case ProfileStore::PasswordPlace::Keyring:
            m_passwordNote->setText(tr("A password is stored in the system keyring. Type a new "
                                       "one to replace it."));
            break;
        default:
            m_passwordNote->setText(
                known ? tr("No system keyring answered: the password is kept for this session "
                           "only, and asked again next time.")
                      : tr("No system keyring answered when it was saved, so Sluice did not "
                           "keep it: type the password to connect (kept for this session)."));
            break;
        }
    } else {
        m_passwordNote->setText(tr("Leave empty if the server needs no password."));
    }
}

QWidget *ProfileForm::browseButton(const QString &key, const QString &title)
{
    auto *browse = new QPushButton(tr("Browse…"), this);
    browse->setObjectName(key + u"EditBrowse"_s);
    browse->setToolTip(tr("Pick the file"));
    connect(browse, &QPushButton::clicked, this, [this, key, title] {
        QLineEdit *edit = m_edits.value(key);
        const QFileInfo current(edit->text().trimmed());
        auto *dialog = new QFileDialog(this, title,
                                       edit->text().trimmed().isEmpty() ? QDir::homePath()
                                                                        : current.absolutePath());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setFileMode(QFileDialog::ExistingFile);
        dialog->setOption(QFileDialog::DontResolveSymlinks);
        if (current.isFile()) {
            dialog->selectFile(current.absoluteFilePath());
        }
        connect(dialog, &QFileDialog::fileSelected, edit, [this, edit](const QString &path) {
            edit->setText(path);
            Q_EMIT edited();
        });
        dialog->open(); // non-modal to the event loop: never exec()
    });
    return browse;
}

} // namespace sluice::ui
