#include "connectionpage.h"

#include "connectioncontroller.h"
#include "profilestore.h"
#include "sandbox.h"

#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

constexpr int idRole = Qt::UserRole;

QIcon dot(const QColor &color)
{
    QPixmap pm(12, 12);
    pm.fill(Qt::transparent);
    if (color.isValid()) {
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawEllipse(QRectF(1, 1, 10, 10));
    }
    return QIcon(pm);
}

QColor toneColor(const ConnectionState &s)
{
    switch (s.state) {
    case ConnectionState::State::Connected:
        return tone::color(s.error.isEmpty() ? Tone::Good : Tone::Warning);
    case ConnectionState::State::Lost:
        return tone::color(Tone::Warning);
    case ConnectionState::State::Failed:
        return tone::color(Tone::Bad);
    default:
        return tone::color(Tone::Info);
    }
}

// A form label for a row that is a layout: QFormLayout sets no buddy then, and the & shows.
QLabel *buddy(const QString &text, QWidget *field)
{
    auto *l = new QLabel(text, field->parentWidget());
    l->setBuddy(field);
    return l;
}

// A scroll area that asks for all of its contents' height: the form takes the height it needs
// when the window has it, and scrolls only when it does not.
class FittingScrollArea : public QScrollArea
{
public:
    using QScrollArea::QScrollArea;
    QSize sizeHint() const override
    {
        QSize s = QScrollArea::sizeHint();
        if (widget()) {
            s.setHeight(widget()->sizeHint().height() + 2 * frameWidth());
        }
        return s;
    }
};

} // namespace

ConnectionPage::ConnectionPage(ConnectionController *controller, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
{
    setObjectName(QStringLiteral("connectionPage"));
    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(24, 20, 24, 20);
    root->setSpacing(6);
    root->addWidget(new PageHeader(tr("Connection"),
                                   tr("Where Sluice finds Redis. Passwords go to the system "
                                      "keyring, never into a file."),
                                   this));
    root->addSpacing(12);

    auto *body = new QHBoxLayout;
    body->setSpacing(24);
    root->addLayout(body, 1);

    // Left: the profiles.
    auto *left = new QVBoxLayout;
    left->setSpacing(6);
    left->addWidget(PageHeader::heading(tr("Profiles"), 1.0, this));
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("profileList"));
    m_list->setFixedWidth(260);
    m_list->setIconSize(QSize(12, 12));
    m_list->setSpacing(2);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideRight);
    m_list->setStyleSheet(QStringLiteral("QListWidget::item { padding: 4px 2px; }"));
    left->addWidget(m_list, 1);
    auto *listButtons = new QHBoxLayout;
    m_new = new QPushButton(tr("New profile"), this);
    m_new->setObjectName(QStringLiteral("newButton"));
    m_delete = new QPushButton(tr("Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteButton"));
    m_delete->setToolTip(tr("Delete the selected profile and its stored password"));
    listButtons->addWidget(m_new);
    listButtons->addWidget(m_delete);
    listButtons->addStretch(1);
    left->addLayout(listButtons);
    body->addLayout(left);

    // Right: the selected profile (or the sandbox), then the message area.
    auto *right = new QVBoxLayout;
    right->setSpacing(12);
    body->addLayout(right, 1);
    m_detail = new QStackedWidget(this);
    m_detail->setMaximumWidth(620);
    right->addWidget(m_detail);

    // The form scrolls when a transport's fields and SSH's do not fit the window.
    auto *formScroll = new FittingScrollArea(m_detail);
    formScroll->setObjectName(QStringLiteral("formScroll"));
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setWidgetResizable(true);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *form = new QWidget(formScroll);
    auto *formBox = new QVBoxLayout(form);
    formBox->setContentsMargins(0, 0, 8, 0);
    formBox->setSpacing(10);
    m_formTitle = PageHeader::heading(QString(), 1.2, form);
    m_formTitle->setObjectName(QStringLiteral("formTitle"));
    formBox->addWidget(m_formTitle);
    auto *fields = new QFormLayout;
    m_fields = fields;
    fields->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    fields->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    fields->setHorizontalSpacing(12);
    fields->setVerticalSpacing(8);
    m_name = new QLineEdit(form);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("e.g. production, staging cache"));
    fields->addRow(tr("&Name:"), m_name);
    m_transport = new QComboBox(form);
    m_transport->setObjectName(QStringLiteral("transportCombo"));
    m_transport->addItem(tr("TCP"), int(ConnectionProfile::Transport::Tcp));
    m_transport->addItem(tr("TLS (rediss://)"), int(ConnectionProfile::Transport::Tls));
    m_transport->addItem(tr("Unix socket"), int(ConnectionProfile::Transport::Unix));
    m_transport->addItem(tr("Sentinel"), int(ConnectionProfile::Transport::Sentinel));
    m_transport->setToolTip(tr("How Sluice reaches Redis: plain TCP, TLS, a Unix socket on "
                               "this machine, or the master that Sentinel names"));
    auto *transportRow = new QHBoxLayout;
    transportRow->addWidget(m_transport);
    transportRow->addStretch(1);
    fields->addRow(buddy(tr("T&ransport:"), m_transport), transportRow);
    auto *hostRow = new QHBoxLayout;
    hostRow->setSpacing(8);
    m_host = new QLineEdit(form);
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_host->setPlaceholderText(tr("host name or IP address"));
    m_port = new QSpinBox(form);
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(1, 65535);
    m_port->setValue(6379);
    m_port->setMinimumWidth(90);
    auto *portLabel = new QLabel(tr("&Port:"), form);
    portLabel->setBuddy(m_port);
    hostRow->addWidget(m_host, 1);
    hostRow->addWidget(portLabel);
    hostRow->addWidget(m_port);
    fields->addRow(buddy(tr("&Host:"), m_host), hostRow);
    m_hostRow = fields->rowCount() - 1;
    m_socket = new QLineEdit(form);
    m_socket->setObjectName(QStringLiteral("socketEdit"));
    m_socket->setPlaceholderText(tr("/run/redis/redis-server.sock"));
    m_socket->setToolTip(tr("The path of redis-server's unixsocket, on this machine"));
    fields->addRow(tr("Soc&ket path:"), m_socket);
    m_sentinels = new QLineEdit(form);
    m_sentinels->setObjectName(QStringLiteral("sentinelsEdit"));
    m_sentinels->setPlaceholderText(tr("host:port, host:port, …"));
    m_sentinels->setToolTip(tr("The sentinels to ask, separated by commas; the port is 26379 "
                               "when left out"));
    fields->addRow(tr("Sen&tinels:"), m_sentinels);
    m_master = new QLineEdit(form);
    m_master->setObjectName(QStringLiteral("masterEdit"));
    m_master->setPlaceholderText(tr("e.g. mymaster"));
    m_master->setToolTip(tr("The name the sentinels monitor the master by (sentinel monitor "
                            "NAME ...)"));
    fields->addRow(tr("&Master name:"), m_master);
    m_db = new QSpinBox(form);
    m_db->setObjectName(QStringLiteral("dbSpin"));
    m_db->setRange(0, 9999);
    m_db->setMinimumWidth(90);
    m_db->setToolTip(tr("The database number SELECT picks; 0 unless you know otherwise"));
    auto *dbRow = new QHBoxLayout;
    dbRow->addWidget(m_db);
    dbRow->addStretch(1);
    fields->addRow(buddy(tr("&Database:"), m_db), dbRow);
    m_user = new QLineEdit(form);
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(tr("default user"));
    m_user->setToolTip(tr("An ACL user name (Redis 6 and later); empty for the default user"));
    fields->addRow(tr("&User:"), m_user);
    auto *passwordRow = new QHBoxLayout;
    passwordRow->setSpacing(8);
    m_password = new QLineEdit(form);
    m_password->setObjectName(QStringLiteral("passwordEdit"));
    m_password->setEchoMode(QLineEdit::Password);
    m_forget = new QToolButton(form);
    m_forget->setObjectName(QStringLiteral("forgetPasswordButton"));
    m_forget->setText(tr("Forget"));
    m_forget->setToolTip(tr("Forget the stored password when you save"));
    passwordRow->addWidget(m_password, 1);
    passwordRow->addWidget(m_forget);
    fields->addRow(buddy(tr("Pass&word:"), m_password), passwordRow);
    m_passwordNote = PageHeader::note(form);
    m_passwordNote->setObjectName(QStringLiteral("passwordNote"));
    fields->addRow(QString(), m_passwordNote);
    formBox->addLayout(fields);

    // TLS: its files, each with a file dialog.
    m_tlsBox = new QGroupBox(tr("TLS"), form);
    m_tlsBox->setObjectName(QStringLiteral("tlsBox"));
    auto *tlsFields = new QFormLayout(m_tlsBox);
    tlsFields->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    tlsFields->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    tlsFields->setHorizontalSpacing(12);
    tlsFields->setVerticalSpacing(8);
    m_tlsCa = new QLineEdit(m_tlsBox);
    m_tlsCa->setObjectName(QStringLiteral("tlsCaEdit"));
    m_tlsCa->setPlaceholderText(tr("the system's trust store"));
    m_tlsCa->setToolTip(tr("The CA certificate (PEM) that signed the server's certificate"));
    tlsFields->addRow(buddy(tr("C&A file:"), m_tlsCa), fileRow(m_tlsCa, tr("CA certificate")));
    m_tlsCert = new QLineEdit(m_tlsBox);
    m_tlsCert->setObjectName(QStringLiteral("tlsCertEdit"));
    m_tlsCert->setPlaceholderText(tr("none"));
    m_tlsCert->setToolTip(tr("A client certificate (PEM), for servers that ask for one "
                             "(tls-auth-clients yes); with its key"));
    tlsFields->addRow(buddy(tr("Client &certificate:"), m_tlsCert),
                      fileRow(m_tlsCert, tr("Client certificate")));
    m_tlsKey = new QLineEdit(m_tlsBox);
    m_tlsKey->setObjectName(QStringLiteral("tlsKeyEdit"));
    m_tlsKey->setPlaceholderText(tr("none"));
    m_tlsKey->setToolTip(tr("The client certificate's private key (PEM, without a passphrase)"));
    tlsFields->addRow(buddy(tr("Client &key:"), m_tlsKey), fileRow(m_tlsKey, tr("Client key")));
    m_tlsServerName = new QLineEdit(m_tlsBox);
    m_tlsServerName->setObjectName(QStringLiteral("tlsServerNameEdit"));
    m_tlsServerName->setPlaceholderText(tr("the host"));
    m_tlsServerName->setToolTip(
        tr("The name the server's certificate must carry, when it is not the host (SNI)"));
    tlsFields->addRow(tr("Server na&me:"), m_tlsServerName);
    m_tlsInsecure = new QCheckBox(tr("Do not check the server's certificate"), m_tlsBox);
    m_tlsInsecure->setObjectName(QStringLiteral("tlsInsecureCheck"));
    tlsFields->addRow(QString(), m_tlsInsecure);
    m_tlsWarning = new QLabel(m_tlsBox);
    m_tlsWarning->setObjectName(QStringLiteral("tlsInsecureWarning"));
    m_tlsWarning->setWordWrap(true);
    m_tlsWarning->setStyleSheet(
        QStringLiteral("color: %1;").arg(tone::hex(tone::text(Tone::Warning))));
    m_tlsWarning->setText(tr("\u26a0 Insecure: anyone between Sluice and the server can read and "
                             "change the traffic, the password included. For a test server "
                             "only."));
    tlsFields->addRow(QString(), m_tlsWarning);
    formBox->addWidget(m_tlsBox);

    // SSH: off by default; its fields show when it is on.
    m_sshCheck = new QCheckBox(tr("Through an SSH tunnel"), form);
    m_sshCheck->setObjectName(QStringLiteral("sshCheck"));
    m_sshCheck->setToolTip(tr("Reach Redis through a bastion host: Sluice logs in with SSH and "
                              "connects from there"));
    formBox->addWidget(m_sshCheck);
    m_sshBox = new QGroupBox(tr("SSH tunnel"), form);
    m_sshBox->setObjectName(QStringLiteral("sshBox"));
    auto *sshBoxLayout = new QVBoxLayout(m_sshBox);
    m_sshFields = new QWidget(m_sshBox);
    sshBoxLayout->addWidget(m_sshFields);
    auto *sshFields = new QFormLayout(m_sshFields);
    sshFields->setContentsMargins(0, 0, 0, 0);
    sshFields->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    sshFields->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    sshFields->setHorizontalSpacing(12);
    sshFields->setVerticalSpacing(8);
    auto *sshHostRow = new QHBoxLayout;
    sshHostRow->setSpacing(8);
    m_sshUser = new QLineEdit(m_sshFields);
    m_sshUser->setObjectName(QStringLiteral("sshUserEdit"));
    m_sshUser->setPlaceholderText(tr("user"));
    m_sshHost = new QLineEdit(m_sshFields);
    m_sshHost->setObjectName(QStringLiteral("sshHostEdit"));
    m_sshHost->setPlaceholderText(tr("bastion host"));
    m_sshPort = new QSpinBox(m_sshFields);
    m_sshPort->setObjectName(QStringLiteral("sshPortSpin"));
    m_sshPort->setRange(1, 65535);
    m_sshPort->setValue(22);
    m_sshPort->setMinimumWidth(80);
    sshHostRow->addWidget(m_sshUser, 1);
    sshHostRow->addWidget(new QLabel(QStringLiteral("@"), m_sshFields));
    sshHostRow->addWidget(m_sshHost, 2);
    auto *sshPortLabel = new QLabel(tr("P&ort:"), m_sshFields);
    sshPortLabel->setBuddy(m_sshPort);
    sshHostRow->addWidget(sshPortLabel);
    sshHostRow->addWidget(m_sshPort);
    sshFields->addRow(buddy(tr("SSH &login:"), m_sshUser), sshHostRow);
    m_sshKey = new QLineEdit(m_sshFields);
    m_sshKey->setObjectName(QStringLiteral("sshKeyEdit"));
    m_sshKey->setPlaceholderText(tr("the SSH agent, then ~/.ssh's keys"));
    sshFields->addRow(buddy(tr("Key &file:"), m_sshKey), fileRow(m_sshKey, tr("SSH private key")));
    m_sshPassphrase = new QLineEdit(m_sshFields);
    m_sshPassphrase->setObjectName(QStringLiteral("sshPassphraseEdit"));
    m_sshPassphrase->setEchoMode(QLineEdit::Password);
    sshFields->addRow(tr("Key pass&phrase:"), m_sshPassphrase);
    m_sshPassword = new QLineEdit(m_sshFields);
    m_sshPassword->setObjectName(QStringLiteral("sshPasswordEdit"));
    m_sshPassword->setEchoMode(QLineEdit::Password);
    m_sshPassword->setToolTip(tr("For password logins; the key file and the agent are tried "
                                 "first"));
    sshFields->addRow(tr("SSH pa&ssword:"), m_sshPassword);
    m_sshKnownHosts = new QLineEdit(m_sshFields);
    m_sshKnownHosts->setObjectName(QStringLiteral("sshKnownHostsEdit"));
    m_sshKnownHosts->setPlaceholderText(QStringLiteral("~/.ssh/known_hosts"));
    sshFields->addRow(buddy(tr("known_&hosts:"), m_sshKnownHosts),
                      fileRow(m_sshKnownHosts, tr("known_hosts file")));
    m_sshAcceptNew =
        new QCheckBox(tr("Accept an unknown host key and add it to known_hosts"), m_sshFields);
    m_sshAcceptNew->setObjectName(QStringLiteral("sshAcceptNewCheck"));
    m_sshAcceptNew->setToolTip(tr("A changed host key is always refused"));
    sshFields->addRow(QString(), m_sshAcceptNew);
    m_sshBox->setVisible(false);
    formBox->addWidget(m_sshBox);

    m_problem = new QLabel(form);
    m_problem->setObjectName(QStringLiteral("formProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(tone::text(Tone::Bad))));
    m_problem->hide();
    formBox->addWidget(m_problem);

    auto *actions = new QHBoxLayout;
    actions->setSpacing(8);
    m_test = new QPushButton(tr("&Test connection"), form);
    m_test->setObjectName(QStringLiteral("testButton"));
    m_test->setToolTip(tr("Connect once with these values, without saving them"));
    m_trust = new QPushButton(tr("Trust this host key"), form);
    m_trust->setObjectName(QStringLiteral("trustHostKeyButton"));
    m_trust->setToolTip(tr("Connect again, accepting the bastion's key shown below and adding it "
                           "to known_hosts"));
    m_trust->hide();
    m_save = new QPushButton(tr("&Save"), form);
    m_save->setObjectName(QStringLiteral("saveButton"));
    m_connect = new QPushButton(tr("&Connect"), form);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    m_connect->setToolTip(tr("Save the profile and use it for the whole console"));
    m_connect->setDefault(true);
    actions->addWidget(m_test);
    actions->addWidget(m_trust);
    actions->addStretch(1);
    actions->addWidget(m_save);
    actions->addWidget(m_connect);
    formBox->addSpacing(4);
    formBox->addLayout(actions);
    formBox->addStretch(1);
    formScroll->setWidget(form);
    m_detail->addWidget(formScroll);

    auto *sandbox = new QWidget(m_detail);
    auto *sandboxBox = new QVBoxLayout(sandbox);
    sandboxBox->setContentsMargins(0, 0, 0, 0);
    sandboxBox->setSpacing(10);
    sandboxBox->addWidget(PageHeader::heading(tr("Sandbox"), 1.2, sandbox));
    auto *sandboxText = new QLabel(sandbox);
    sandboxText->setWordWrap(true);
    sandboxText->setText(
        tr("A private redis-server that Sluice starts for you on a free port of this machine "
           "(127.0.0.1 only). It starts empty, saves nothing, and stops when Sluice exits: try "
           "rules, keys and simulations on it without touching a real server."));
    sandboxBox->addWidget(sandboxText);
    m_sandboxStatus = new QLabel(sandbox);
    m_sandboxStatus->setObjectName(QStringLiteral("sandboxStatus"));
    m_sandboxStatus->setWordWrap(true);
    m_sandboxStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sandboxBox->addWidget(m_sandboxStatus);
    auto *sandboxActions = new QHBoxLayout;
    m_sandboxConnect = new QPushButton(tr("&Connect to the sandbox"), sandbox);
    m_sandboxConnect->setObjectName(QStringLiteral("sandboxConnectButton"));
    sandboxActions->addWidget(m_sandboxConnect);
    sandboxActions->addStretch(1);
    sandboxBox->addLayout(sandboxActions);
    sandboxBox->addStretch(1);
    m_detail->addWidget(sandbox);

    m_banner = new MessageBanner(QStringLiteral("messageFrame"), QStringLiteral("message"), this);
    m_banner->setMaximumWidth(620);
    right->addWidget(m_banner);
    right->addStretch(1);

    // Wiring.
    ProfileStore *store = m_controller->store();
    connect(m_list, &QListWidget::currentItemChanged, this, &ConnectionPage::onSelection);
    connect(m_new, &QPushButton::clicked, this, &ConnectionPage::newProfile);
    connect(m_delete, &QPushButton::clicked, this, &ConnectionPage::deleteProfile);
    connect(m_test, &QPushButton::clicked, this, &ConnectionPage::testConnection);
    connect(m_save, &QPushButton::clicked, this, [this] { saveForm(); });
    connect(m_connect, &QPushButton::clicked, this, &ConnectionPage::connectSelected);
    connect(m_forget, &QToolButton::clicked, this, [this] {
        m_forgetPassword = true;
        m_password->clear();
        setDirty(true);
        updatePasswordNote();
    });
    connect(m_sandboxConnect, &QPushButton::clicked, this, [this] {
        m_awaitingSession = true;
        say(Tone::Info, tr("Starting the sandbox…"));
        m_controller->connectToSandbox();
    });
    for (QLineEdit *e :
         {m_name, m_host, m_user, m_socket, m_sentinels, m_master, m_tlsCa, m_tlsCert, m_tlsKey,
          m_tlsServerName, m_sshUser, m_sshHost, m_sshKey, m_sshKnownHosts}) {
        connect(e, &QLineEdit::textEdited, this, [this] { setDirty(true); });
        // Validation as you type (a file picked in the dialog sets the text too).
        connect(e, &QLineEdit::textChanged, this, &ConnectionPage::updateProblem);
    }
    for (QLineEdit *e : {m_sshPassphrase, m_sshPassword}) {
        connect(e, &QLineEdit::textEdited, this, [this] {
            setDirty(true);
            updateSshNotes();
        });
    }
    // Enter in the form connects, as the default button of a dialog would.
    for (QLineEdit *e : {m_name, m_host, m_user, m_password, m_socket, m_sentinels, m_master,
                         m_tlsServerName, m_sshUser, m_sshHost, m_sshPassphrase, m_sshPassword}) {
        connect(e, &QLineEdit::returnPressed, this, &ConnectionPage::connectSelected);
    }
    connect(m_transport, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading) {
            setDirty(true);
        }
        updateTransport();
    });
    connect(m_sshCheck, &QCheckBox::toggled, this, [this] {
        if (!m_loading) {
            setDirty(true);
        }
        updateTransport();
    });
    for (QCheckBox *c : {m_tlsInsecure, m_sshAcceptNew}) {
        connect(c, &QCheckBox::toggled, this, [this] {
            if (!m_loading) {
                setDirty(true);
            }
            updateTransport();
        });
    }
    connect(m_trust, &QPushButton::clicked, this, &ConnectionPage::trustHostKey);
    connect(m_password, &QLineEdit::textEdited, this, [this] {
        m_forgetPassword = false;
        setDirty(true);
        updatePasswordNote();
    });
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &text) {
        m_formTitle->setText(text.trimmed().isEmpty() ? tr("New profile") : text.trimmed());
    });
    for (QSpinBox *s : {m_port, m_db, m_sshPort}) {
        connect(s, &QSpinBox::valueChanged, this, [this] {
            if (!m_loading) {
                setDirty(true);
            }
        });
    }
    connect(m_controller, &ConnectionController::tested, this, &ConnectionPage::onTested);
    connect(m_controller, &ConnectionController::stateChanged, this,
            &ConnectionPage::onSessionState);
    connect(m_controller, &ConnectionController::passwordNeeded, this,
            &ConnectionPage::askPassword);
    connect(store, &ProfileStore::passwordStored, this, &ConnectionPage::onPasswordStored);
    connect(store, &ProfileStore::secretStored, this, [this](const QString &id) {
        if (id == m_editingId) {
            updateSshNotes();
        }
    });
    // Profiles saved elsewhere (another page, a test, an import) show up here too.
    connect(store, &ProfileStore::profilesChanged, this, &ConnectionPage::reloadList);
    connect(m_controller->sandbox(), &Sandbox::statusChanged, this, &ConnectionPage::updateSandbox);

    reloadList();
    QString first = store->lastUsed();
    if (first.isEmpty() || (first != ProfileStore::sandboxId() && !store->profile(first))) {
        const auto all = store->profiles();
        first = all.isEmpty() ? ProfileStore::sandboxId() : all.first().id;
    }
    selectProfile(first);
    updateSandbox();
}

QString ConnectionPage::selectedId() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(idRole).toString() : QString();
}

void ConnectionPage::selectProfile(const QString &id)
{
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(idRole).toString() == id) {
            m_list->setCurrentRow(i);
            onSelection(); // also when it was selected already: show its saved values
            return;
        }
    }
}

void ConnectionPage::reloadList()
{
    const QString keep = selectedId();
    const QSignalBlocker block(m_list);
    m_list->clear();
    auto *sandbox =
        new QListWidgetItem(tr("Sandbox") + QLatin1Char('\n') + tr("private, on this machine"));
    sandbox->setData(idRole, ProfileStore::sandboxId());
    sandbox->setToolTip(tr("A private, empty Redis that Sluice starts and stops for you"));
    m_list->addItem(sandbox);
    const auto profiles = m_controller->store()->profiles();
    for (const ConnectionProfile &p : profiles) {
        auto *item = new QListWidgetItem(p.name + QLatin1Char('\n') + p.endpoint({}).display());
        item->setData(idRole, p.id);
        item->setToolTip(p.endpoint({}).safeUrl());
        m_list->addItem(item);
    }
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->data(idRole).toString() == keep) {
            m_list->setCurrentRow(i);
        }
    }
    updateMarkers();
}

void ConnectionPage::onSelection()
{
    const QString id = selectedId();
    if (id.isEmpty()) {
        return; // a new profile is being typed (newProfile() cleared the selection)
    }
    if (id != m_editingId) {
        m_banner->hide();
    }
    if (id == ProfileStore::sandboxId()) {
        m_editingId = id;
        m_detail->setCurrentIndex(1);
        m_delete->setEnabled(false);
        updateSandbox();
        return;
    }
    if (const auto p = m_controller->store()->profile(id)) {
        showProfile(*p);
    }
}

void ConnectionPage::showProfile(const ConnectionProfile &p)
{
    m_loading = true;
    m_editingId = p.id;
    m_detail->setCurrentIndex(0);
    m_formTitle->setText(p.name);
    m_name->setText(p.name);
    m_host->setText(p.host);
    m_port->setValue(p.port);
    m_db->setValue(p.db);
    m_user->setText(p.user);
    m_password->clear();
    m_transport->setCurrentIndex(m_transport->findData(int(p.transport)));
    m_socket->setText(p.socketPath);
    m_sentinels->setText(p.sentinels.join(QStringLiteral(", ")));
    m_master->setText(p.masterName);
    m_tlsCa->setText(p.tlsCaFile);
    m_tlsCert->setText(p.tlsCertFile);
    m_tlsKey->setText(p.tlsKeyFile);
    m_tlsServerName->setText(p.tlsServerName);
    m_tlsInsecure->setChecked(p.tlsInsecure);
    m_sshCheck->setChecked(p.sshEnabled);
    m_sshUser->setText(p.sshUser);
    m_sshHost->setText(p.sshHost);
    m_sshPort->setValue(p.sshPort);
    m_sshKey->setText(p.sshKeyFile);
    m_sshKnownHosts->setText(p.sshKnownHostsFile);
    m_sshAcceptNew->setChecked(p.sshAcceptNew);
    m_sshPassphrase->clear();
    m_sshPassword->clear();
    m_trust->hide();
    m_forgetPassword = false;
    m_delete->setEnabled(true);
    m_loading = false;
    setDirty(false);
    updatePasswordNote();
    updateSshNotes();
    updateTransport();
}

void ConnectionPage::newProfile()
{
    {
        const QSignalBlocker block(m_list);
        m_list->setCurrentRow(-1);
        m_list->clearSelection();
    }
    m_banner->hide();
    ConnectionProfile p;
    showProfile(p);
    m_formTitle->setText(tr("New profile"));
    m_delete->setEnabled(false);
    setDirty(true);
    m_name->setFocus();
}

void ConnectionPage::deleteProfile()
{
    const QString id = selectedId();
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    const bool inUse = m_controller->currentId() == id;
    if (inUse) {
        m_controller->disconnectNow();
    }
    m_controller->store()->remove(id);
    m_editingId.clear();
    reloadList();
    selectProfile(ProfileStore::sandboxId());
    say(Tone::Info, tr("Deleted the profile '%1' and its stored password.").arg(p->name),
        inUse ? tr("The console was connected through it and is not connected any more.")
              : QString());
}

ConnectionProfile ConnectionPage::formProfile() const
{
    ConnectionProfile p;
    p.id = m_editingId == ProfileStore::sandboxId() ? QString() : m_editingId;
    p.name = m_name->text().trimmed();
    p.host = m_host->text().trimmed();
    p.port = quint16(m_port->value());
    p.db = m_db->value();
    p.user = m_user->text().trimmed();
    p.transport = ConnectionProfile::Transport(m_transport->currentData().toInt());
    p.socketPath = m_socket->text().trimmed();
    p.sentinels.clear();
    const QStringList sentinels = m_sentinels->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &one : sentinels) {
        if (!one.trimmed().isEmpty()) {
            p.sentinels << one.trimmed();
        }
    }
    p.masterName = m_master->text().trimmed();
    p.tlsCaFile = m_tlsCa->text().trimmed();
    p.tlsCertFile = m_tlsCert->text().trimmed();
    p.tlsKeyFile = m_tlsKey->text().trimmed();
    p.tlsServerName = m_tlsServerName->text().trimmed();
    p.tlsInsecure = m_tlsInsecure->isChecked();
    p.sshEnabled = m_sshCheck->isChecked();
    p.sshUser = m_sshUser->text().trimmed();
    p.sshHost = m_sshHost->text().trimmed();
    p.sshPort = quint16(m_sshPort->value());
    p.sshKeyFile = m_sshKey->text().trimmed();
    p.sshKnownHostsFile = m_sshKnownHosts->text().trimmed();
    p.sshAcceptNew = m_sshAcceptNew->isChecked();
    const auto saved = m_controller->store()->profile(p.id);
    p.hasPassword =
        !m_password->text().isEmpty() || (saved && saved->hasPassword && !m_forgetPassword);
    p.hasSshPassword = !m_sshPassword->text().isEmpty() || (saved && saved->hasSshPassword);
    p.hasSshPassphrase = !m_sshPassphrase->text().isEmpty() || (saved && saved->hasSshPassphrase);
    return p;
}

ProfileSecrets ConnectionPage::typedSecrets() const
{
    ProfileSecrets s;
    s.password = m_password->text();
    s.sshPassword = m_sshPassword->text();
    s.sshPassphrase = m_sshPassphrase->text();
    return s;
}

QString ConnectionPage::formProblem(QWidget **field) const
{
    using T = ConnectionProfile::Transport;
    const ConnectionProfile p = formProfile();
    const auto problem = [field](QWidget *where, const QString &text) {
        if (field) {
            *field = where;
        }
        return text;
    };
    // A file that is named must be there: the words of core's checks (--tls-ca FILE: ...).
    const auto fileProblem = [](const QString &path) -> QString {
        const QFileInfo fi(path);
        if (!fi.exists()) {
            return tr("%1: no such file").arg(path);
        }
        if (!fi.isFile() || !fi.isReadable()) {
            return tr("%1: not a readable file").arg(path);
        }
        return {};
    };
    switch (p.transport) {
    case T::Unix:
        if (p.socketPath.isEmpty()) {
            return problem(m_socket, tr("Socket path: enter the path of redis-server's Unix "
                                        "socket, such as /run/redis/redis-server.sock."));
        }
        if (!p.socketPath.startsWith(QLatin1Char('/'))) {
            return problem(m_socket, tr("Socket path: the socket path must be absolute "
                                        "(/path/redis.sock)."));
        }
        break;
    case T::Sentinel: {
        if (p.sentinels.isEmpty()) {
            return problem(m_sentinels, tr("Sentinels: enter at least one sentinel as host:port."));
        }
        for (const QString &one : p.sentinels) {
            HostPort hp;
            QString why;
            if (!ConnectionProfile::parseSentinel(one, &hp, &why)) {
                return problem(m_sentinels,
                               tr("Sentinels: '%1' is not host:port: %2.").arg(one, why));
            }
        }
        if (p.masterName.isEmpty()) {
            return problem(m_master, tr("Master name: the master name is missing (the name in "
                                        "the sentinels' 'sentinel monitor NAME ...')."));
        }
        break;
    }
    case T::Tls:
        if (!p.tlsCaFile.isEmpty()) {
            if (const QString why = fileProblem(p.tlsCaFile); !why.isEmpty()) {
                return problem(m_tlsCa, tr("CA file %1.").arg(why));
            }
        }
        if (p.tlsCertFile.isEmpty() != p.tlsKeyFile.isEmpty()) {
            return problem(p.tlsCertFile.isEmpty() ? m_tlsCert : m_tlsKey,
                           p.tlsKeyFile.isEmpty()
                               ? tr("Client key: missing. The client certificate and the client "
                                    "key go together: give both.")
                               : tr("Client certificate: missing. The client certificate and the "
                                    "client key go together: give both."));
        }
        if (!p.tlsCertFile.isEmpty()) {
            if (const QString why = fileProblem(p.tlsCertFile); !why.isEmpty()) {
                return problem(m_tlsCert, tr("Client certificate %1.").arg(why));
            }
            if (const QString why = fileProblem(p.tlsKeyFile); !why.isEmpty()) {
                return problem(m_tlsKey, tr("Client key %1.").arg(why));
            }
        }
        break;
    case T::Tcp:
        break;
    }
    if (p.sshEnabled) {
        if (p.sshHost.isEmpty()) {
            return problem(m_sshHost, tr("SSH login: enter the bastion host to log in to, or "
                                         "turn the SSH tunnel off."));
        }
        if (!p.sshKeyFile.isEmpty()) {
            if (const QString why = fileProblem(p.sshKeyFile); !why.isEmpty()) {
                return problem(m_sshKey, tr("SSH key file %1.").arg(why));
            }
        }
    }
    return {};
}

void ConnectionPage::updateTransport()
{
    using T = ConnectionProfile::Transport;
    const auto t = T(m_transport->currentData().toInt());
    const bool hostPort = t == T::Tcp || t == T::Tls;
    m_fields->setRowVisible(m_hostRow, hostPort);
    m_fields->setRowVisible(m_socket, t == T::Unix);
    m_fields->setRowVisible(m_sentinels, t == T::Sentinel);
    m_fields->setRowVisible(m_master, t == T::Sentinel);
    if (m_host->text().isEmpty() && hostPort && !m_loading) {
        m_host->setText(QStringLiteral("127.0.0.1"));
    }
    m_tlsBox->setVisible(t == T::Tls);
    m_tlsWarning->setVisible(m_tlsInsecure->isChecked());
    m_sshBox->setVisible(m_sshCheck->isChecked());
    updateProblem();
}

void ConnectionPage::updateProblem()
{
    const QString problem = formProblem();
    m_problem->setText(problem.isEmpty() ? QString() : QStringLiteral("\u2717 ") + problem);
    m_problem->setVisible(!problem.isEmpty());
}

void ConnectionPage::updateSshNotes()
{
    const auto saved = m_controller->store()->profile(m_editingId);
    const auto placeholder = [&](bool stored, ProfileStore::Secret secret) {
        if (!stored) {
            return tr("none");
        }
        const bool known = m_controller->store()->knowsSecret(m_editingId, secret) ||
                           m_controller->store()->secretPlace(m_editingId, secret) ==
                               ProfileStore::PasswordPlace::Keyring;
        return known ? tr("unchanged") : tr("type it to connect");
    };
    m_sshPassphrase->setPlaceholderText(
        placeholder(saved && saved->hasSshPassphrase, ProfileStore::Secret::SshPassphrase));
    m_sshPassword->setPlaceholderText(
        placeholder(saved && saved->hasSshPassword, ProfileStore::Secret::SshPassword));
}

QLayout *ConnectionPage::fileRow(QLineEdit *edit, const QString &title)
{
    auto *row = new QHBoxLayout;
    row->setSpacing(8);
    auto *browse = new QPushButton(tr("Browse…"), edit->parentWidget());
    browse->setObjectName(edit->objectName() + QStringLiteral("Browse"));
    browse->setToolTip(tr("Pick the file"));
    row->addWidget(edit, 1);
    row->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this, edit, title] {
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
            setDirty(true);
        });
        dialog->open(); // non-modal to the event loop: never exec()
    });
    return row;
}

void ConnectionPage::trustHostKey()
{
    m_trust->hide();
    if (m_trustForTest) {
        const ConnectionProfile p = formProfile();
        m_pendingTest = m_controller->test(p, typedSecrets(), true);
        m_test->setEnabled(false);
        m_test->setText(tr("Testing…"));
        say(Tone::Info, tr("Testing %1, trusting its SSH host key…").arg(p.endpoint().display()));
        return;
    }
    const auto p = m_controller->store()->profile(m_editingId);
    if (!p) {
        return;
    }
    m_awaitingSession = true;
    say(Tone::Info, tr("Connecting to %1 (%2), trusting its SSH host key…")
                        .arg(p->name, p->endpoint().display()));
    m_controller->connectTo(m_editingId, typedSecrets(), true);
}

QString ConnectionPage::saveForm()
{
    const ConnectionProfile p = formProfile();
    if (p.name.isEmpty()) {
        say(Tone::Bad, tr("The profile needs a name."),
            tr("Any name you will recognise, such as 'production' or 'staging cache'."));
        m_name->setFocus();
        return {};
    }
    if (p.host.isEmpty() && (p.transport == ConnectionProfile::Transport::Tcp ||
                             p.transport == ConnectionProfile::Transport::Tls)) {
        say(Tone::Bad, tr("The profile needs a host."),
            tr("A host name or an IP address, such as 127.0.0.1."));
        m_host->setFocus();
        return {};
    }
    QWidget *field = nullptr;
    if (const QString problem = formProblem(&field); !problem.isEmpty()) {
        say(Tone::Bad, tr("The profile cannot be saved yet."), problem);
        if (field) {
            field->setFocus();
        }
        return {};
    }
    const auto others = m_controller->store()->profiles();
    for (const ConnectionProfile &o : others) {
        if (o.id != p.id && o.name.compare(p.name, Qt::CaseInsensitive) == 0) {
            say(Tone::Bad, tr("A profile named '%1' exists already.").arg(o.name),
                tr("Choose another name, or select that profile to change it."));
            m_name->setFocus();
            return {};
        }
    }
    ProfileStore::SecretEdits edits;
    edits.password = {m_password->text(), m_forgetPassword};
    edits.sshPassword.typed = m_sshPassword->text();
    edits.sshPassphrase.typed = m_sshPassphrase->text();
    const QString id = m_controller->store()->saveWithSecrets(p, edits);
    m_editingId = id;
    reloadList();
    selectProfile(id);
    say(Tone::Good, tr("Saved the profile '%1'.").arg(p.name));
    return id;
}

void ConnectionPage::testConnection()
{
    const ConnectionProfile p = formProfile();
    if (p.host.isEmpty() && (p.transport == ConnectionProfile::Transport::Tcp ||
                             p.transport == ConnectionProfile::Transport::Tls)) {
        say(Tone::Bad, tr("Enter a host to test."), tr("A host name or an IP address."));
        m_host->setFocus();
        return;
    }
    QWidget *field = nullptr;
    if (const QString problem = formProblem(&field); !problem.isEmpty()) {
        say(Tone::Bad, tr("The profile cannot be tested yet."), problem);
        if (field) {
            field->setFocus();
        }
        return;
    }
    m_trust->hide();
    m_pendingTest = m_controller->test(p, typedSecrets());
    m_test->setEnabled(false);
    m_test->setText(tr("Testing…"));
    say(Tone::Info, tr("Testing %1…").arg(p.endpoint({}).display()));
}

void ConnectionPage::onTested(const ConnectionState &r)
{
    if (r.request != m_pendingTest) {
        return;
    }
    m_pendingTest = 0;
    m_test->setEnabled(true);
    m_test->setText(tr("&Test connection"));
    if (r.state == ConnectionState::State::Connected) {
        say(Tone::Good,
            r.redisVersion.isEmpty()
                ? tr("Redis at %1 answered in %2.").arg(r.endpoint, formatRtt(r.rttMs))
                : tr("Redis %1 at %2 answered in %3.")
                      .arg(r.redisVersion, r.endpoint, formatRtt(r.rttMs)),
            m_dirty ? tr("Save the profile to keep these values.") : QString());
    } else {
        say(Tone::Bad, tr("Cannot connect to %1: %2.").arg(r.endpoint, r.error), r.hint, r.detail);
        m_trustForTest = true;
        m_trust->setVisible(r.unknownHostKey);
    }
}

void ConnectionPage::connectSelected()
{
    QString id = m_editingId;
    const ProfileSecrets typed = typedSecrets();
    if (m_dirty || id.isEmpty()) {
        id = saveForm();
        if (id.isEmpty()) {
            return;
        }
    }
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    m_awaitingSession = true;
    say(Tone::Info, tr("Connecting to %1 (%2)…").arg(p->name, p->endpoint({}).display()));
    m_trust->hide();
    m_controller->connectTo(id, typed);
    updatePasswordNote();
    updateSshNotes();
}

void ConnectionPage::onSessionState(const ConnectionState &s)
{
    updateMarkers();
    updateSandbox();
    if (!m_awaitingSession) {
        // "Connected to ..." next to an amber status bar would contradict it: the bar speaks.
        if (m_sessionMessage && s.state != ConnectionState::State::Connected) {
            m_banner->hide();
            m_sessionMessage = false;
        }
        return;
    }
    switch (s.state) {
    case ConnectionState::State::Connected:
        m_awaitingSession = false;
        say(Tone::Good,
            tr("Connected to %1: Redis %2 at %3, %4.")
                .arg(s.label, s.redisVersion, s.endpoint, formatRtt(s.rttMs)),
            tr("The whole console now works on this server."));
        m_sessionMessage = true;
        break;
    case ConnectionState::State::Lost:
        m_awaitingSession = false;
        say(Tone::Warning, tr("Cannot connect to %1 yet: %2.").arg(s.endpoint, s.error),
            s.hint + QLatin1Char(' ') +
                tr("Sluice keeps trying by itself; the status bar shows when."),
            s.detail);
        break;
    case ConnectionState::State::Failed:
        m_awaitingSession = false;
        say(Tone::Bad, tr("Cannot connect to %1: %2.").arg(s.endpoint, s.error), s.hint, s.detail);
        m_trustForTest = false;
        m_trust->setVisible(s.unknownHostKey && m_controller->currentId() == m_editingId);
        break;
    default:
        break;
    }
}

void ConnectionPage::askPassword(const QString &id, const QString &why)
{
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    selectProfile(id);
    m_awaitingSession = false;
    switch (m_controller->neededSecret()) {
    case ProfileStore::Secret::SshPassword:
        say(Tone::Warning, tr("Enter the SSH password of '%1', then press Connect.").arg(p->name),
            tr("Sluice does not have it: %1.").arg(why));
        m_sshCheck->setChecked(true);
        m_sshPassword->setFocus();
        break;
    case ProfileStore::Secret::SshPassphrase:
        say(Tone::Warning,
            tr("Enter the passphrase of the SSH key of '%1', then press Connect.").arg(p->name),
            tr("Sluice does not have it: %1.").arg(why));
        m_sshCheck->setChecked(true);
        m_sshPassphrase->setFocus();
        break;
    default:
        say(Tone::Warning, tr("Enter the password of '%1', then press Connect.").arg(p->name),
            tr("Sluice does not have it: %1.").arg(why));
        m_password->setFocus();
        break;
    }
}

void ConnectionPage::onPasswordStored(const QString &id, bool inKeyring, const QString &why)
{
    if (id != m_editingId) {
        return;
    }
    updatePasswordNote();
    if (m_awaitingSession) {
        return; // the outcome of the connection matters more; the note says where it went
    }
    const auto p = m_controller->store()->profile(id);
    if (inKeyring) {
        say(Tone::Good, tr("Saved the profile '%1'.").arg(p ? p->name : QString()),
            tr("The password is in the system keyring."));
    } else {
        say(Tone::Warning, tr("Saved the profile '%1'.").arg(p ? p->name : QString()),
            tr("The password is kept in memory for this session only: %1. Sluice will ask for "
               "it next time; it never writes passwords to disk.")
                .arg(why));
    }
}

void ConnectionPage::updatePasswordNote()
{
    const auto saved = m_controller->store()->profile(m_editingId);
    const bool stored = saved && saved->hasPassword;
    const bool known = stored && (m_controller->store()->knowsPassword(m_editingId) ||
                                  m_controller->store()->passwordPlace(m_editingId) ==
                                      ProfileStore::PasswordPlace::Keyring);
    m_forget->setVisible(stored && !m_forgetPassword);
    m_password->setPlaceholderText(!stored || m_forgetPassword ? tr("none")
                                   : known                     ? tr("unchanged")
                                                               : tr("type it to connect"));
    if (m_forgetPassword) {
        m_passwordNote->setText(tr("The stored password will be forgotten when you save."));
    } else if (!m_password->text().isEmpty()) {
        m_passwordNote->setText(tr("Saving puts it in the system keyring; where none answers, "
                                   "Sluice keeps it for this session only."));
    } else if (stored) {
        switch (m_controller->store()->passwordPlace(m_editingId)) {
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

void ConnectionPage::updateSandbox()
{
    const Sandbox *sandbox = m_controller->sandbox();
    const ConnectionState &s = m_controller->state();
    const bool current = m_controller->currentId() == ProfileStore::sandboxId();
    QString text;
    QColor color = tone::ink();
    switch (sandbox->status()) {
    case Sandbox::Status::Running:
        text = current && s.isUp()
                   ? tr("Running on 127.0.0.1:%1, Redis %2. The console is connected to it.")
                         .arg(sandbox->port())
                         .arg(s.redisVersion)
                   : tr("Running on 127.0.0.1:%1.").arg(sandbox->port());
        color = tone::text(Tone::Good);
        break;
    case Sandbox::Status::Starting:
        text = tr("Starting redis-server…");
        break;
    case Sandbox::Status::Failed:
        text = sandbox->error();
        color = tone::text(Tone::Bad);
        break;
    default:
        text = tr("Not running. It starts when you connect to it.");
        break;
    }
    m_sandboxStatus->setText(text);
    m_sandboxStatus->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(color)));
    const bool connected = current && s.isUp();
    m_sandboxConnect->setEnabled(!connected);
    m_sandboxConnect->setText(connected ? tr("Connected") : tr("&Connect to the sandbox"));
}

void ConnectionPage::updateMarkers()
{
    const QString current = m_controller->currentId();
    const QIcon none = dot(QColor());
    const QIcon mark = dot(toneColor(m_controller->state()));
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        const bool isCurrent = item->data(idRole).toString() == current;
        QFont f = item->font();
        f.setBold(isCurrent);
        item->setFont(f);
        item->setIcon(isCurrent ? mark : none);
    }
}

void ConnectionPage::setDirty(bool dirty)
{
    m_dirty = dirty;
    m_save->setEnabled(dirty);
}

void ConnectionPage::say(Tone tone, const QString &headline, const QString &more,
                         const QString &detail)
{
    QString text = more;
    if (!detail.isEmpty()) {
        text += (text.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Details: %1").arg(detail);
    }
    m_banner->showMessage(tone, headline, text);
    m_sessionMessage = false;
}

} // namespace sluice::ui
