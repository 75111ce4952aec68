#include "connectionpage.h"

#include "connectioncontroller.h"
#include "profilestore.h"
#include "sandbox.h"

#include "common/messagebanner.h"
#include "common/pageheader.h"

#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
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

    auto *form = new QWidget(m_detail);
    auto *formBox = new QVBoxLayout(form);
    formBox->setContentsMargins(0, 0, 0, 0);
    formBox->setSpacing(10);
    m_formTitle = PageHeader::heading(QString(), 1.2, form);
    m_formTitle->setObjectName(QStringLiteral("formTitle"));
    formBox->addWidget(m_formTitle);
    auto *fields = new QFormLayout;
    fields->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    fields->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    fields->setHorizontalSpacing(12);
    fields->setVerticalSpacing(8);
    m_name = new QLineEdit(form);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("e.g. production, staging cache"));
    fields->addRow(tr("&Name:"), m_name);
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
    auto *actions = new QHBoxLayout;
    actions->setSpacing(8);
    m_test = new QPushButton(tr("&Test connection"), form);
    m_test->setObjectName(QStringLiteral("testButton"));
    m_test->setToolTip(tr("Connect once with these values, without saving them"));
    m_save = new QPushButton(tr("&Save"), form);
    m_save->setObjectName(QStringLiteral("saveButton"));
    m_connect = new QPushButton(tr("&Connect"), form);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    m_connect->setToolTip(tr("Save the profile and use it for the whole console"));
    m_connect->setDefault(true);
    actions->addWidget(m_test);
    actions->addStretch(1);
    actions->addWidget(m_save);
    actions->addWidget(m_connect);
    formBox->addSpacing(4);
    formBox->addLayout(actions);
    formBox->addStretch(1);
    m_detail->addWidget(form);

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
    for (QLineEdit *e : {m_name, m_host, m_user}) {
        connect(e, &QLineEdit::textEdited, this, [this] { setDirty(true); });
    }
    // Enter in the form connects, as the default button of a dialog would.
    for (QLineEdit *e : {m_name, m_host, m_user, m_password}) {
        connect(e, &QLineEdit::returnPressed, this, &ConnectionPage::connectSelected);
    }
    connect(m_password, &QLineEdit::textEdited, this, [this] {
        m_forgetPassword = false;
        setDirty(true);
        updatePasswordNote();
    });
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString &text) {
        m_formTitle->setText(text.trimmed().isEmpty() ? tr("New profile") : text.trimmed());
    });
    for (QSpinBox *s : {m_port, m_db}) {
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
    m_forgetPassword = false;
    m_delete->setEnabled(true);
    m_loading = false;
    setDirty(false);
    updatePasswordNote();
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
    const auto saved = m_controller->store()->profile(p.id);
    p.hasPassword =
        !m_password->text().isEmpty() || (saved && saved->hasPassword && !m_forgetPassword);
    return p;
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
    if (p.host.isEmpty()) {
        say(Tone::Bad, tr("The profile needs a host."),
            tr("A host name or an IP address, such as 127.0.0.1."));
        m_host->setFocus();
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
    const QString id = m_controller->store()->save(p, m_password->text(), m_forgetPassword);
    m_editingId = id;
    reloadList();
    selectProfile(id);
    say(Tone::Good, tr("Saved the profile '%1'.").arg(p.name));
    return id;
}

void ConnectionPage::testConnection()
{
    const ConnectionProfile p = formProfile();
    if (p.host.isEmpty()) {
        say(Tone::Bad, tr("Enter a host to test."), tr("A host name or an IP address."));
        m_host->setFocus();
        return;
    }
    m_pendingTest = m_controller->test(p, m_password->text());
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
    }
}

void ConnectionPage::connectSelected()
{
    QString id = m_editingId;
    const QString typed = m_password->text();
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
    if (typed.isEmpty()) {
        m_controller->connectTo(id);
    } else {
        m_controller->connectTo(id, typed);
    }
    updatePasswordNote();
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
    say(Tone::Warning, tr("Enter the password of '%1', then press Connect.").arg(p->name),
        tr("Sluice does not have it: %1.").arg(why));
    m_password->setFocus();
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
