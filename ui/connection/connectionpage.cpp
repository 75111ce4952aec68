#include "connectionpage.h"

#include "clusterpanel.h"

#include "connectioncontroller.h"
#include "connectionsession.h"
#include "profileform.h"
#include "profilestore.h"
#include "sandbox.h"
#include "serverpanel.h"

#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

constexpr int detailMinWidth = 600;

// The stacked detail pages get their size hint's height (the detail is aligned, not
// stretched), and a wrapped label's hint is for a width of its own choosing: at the detail's
// width (600 to 620 px) its text took more lines than it was given and was cut at the top and
// the bottom. The height its text needs at the narrowest.
void fitToDetail(QLabel *label)
{
    label->setMinimumHeight(label->heightForWidth(detailMinWidth));
}

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
    , m_session(new ConnectionSession(controller, this))
{
    setObjectName(QStringLiteral("connectionPage"));
    auto *root = PageHeader::pageLayout(this);
    root->addWidget(new PageHeader(tr("Connection"),
                                   tr("Where Sluice finds Redis. Passwords go to the system "
                                      "keyring, never into a file."),
                                   this));
    root->addSpacing(12);

    auto *body = new QHBoxLayout;
    body->setSpacing(24);
    root->addLayout(body, 3);

    // Left: the profiles.
    body->addLayout(buildProfileList());

    // Right: the selected profile (or the sandbox), then the message area.
    auto *right = new QVBoxLayout;
    right->setSpacing(12);
    body->addLayout(right, 1);
    m_detail = new QStackedWidget(this);
    m_detail->setMinimumWidth(
        detailMinWidth); // aligned, a widget gets only its size hint otherwise
    m_detail->setMaximumWidth(620);
    // Beside the list, not floated to the window's right edge on a wide screen.
    right->addWidget(m_detail, 0, Qt::AlignLeft);

    // The form scrolls when a transport's fields and SSH's do not fit the window.
    m_detail->addWidget(buildFormPanel());
    m_detail->addWidget(buildSandboxPanel());

    m_banner = new MessageBanner(QStringLiteral("messageFrame"), QStringLiteral("message"), this);
    m_banner->setMinimumWidth(detailMinWidth);
    m_banner->setMaximumWidth(620);
    right->addWidget(m_banner, 0, Qt::AlignLeft);
    right->addStretch(1);

    // Below: the session's Redis Cluster, when it is one.
    m_cluster = new ClusterPanel(m_controller, this);
    root->addSpacing(12);
    root->addWidget(m_cluster, 2);

    connectControls();
    connectSession();
    selectFirstProfile();
    updateSandbox();
}

QVBoxLayout *ConnectionPage::buildProfileList()
{
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
    // Room between the profiles without a style sheet (a style sheet keeps the palette it was
    // polished with: the selection stayed the old theme's).
    m_list->setSpacing(3);
    left->addWidget(m_list, 1);
    auto *listButtons = new QHBoxLayout;
    m_new = PageHeader::button(tr("New profile"), QStringLiteral("newButton"), this);
    m_delete = PageHeader::button(tr("Delete"), QStringLiteral("deleteButton"), this,
                                  tr("Delete the selected profile and its stored password"));
    listButtons->addWidget(m_new);
    listButtons->addWidget(m_delete);
    listButtons->addStretch(1);
    left->addLayout(listButtons);
    // What the session's server offers, once it answered: under the profiles, where the
    // connected one has its dot (the form keeps its height).
    m_server = new ServerPanel(m_controller, this);
    m_server->setFixedWidth(260);
    left->addSpacing(6);
    left->addWidget(m_server);
    return left;
}

QWidget *ConnectionPage::buildFormPanel()
{
    auto *formScroll = new FittingScrollArea(m_detail);
    formScroll->setObjectName(QStringLiteral("formScroll"));
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setWidgetResizable(true);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_form = new ProfileForm(m_controller->store(), formScroll);
    auto *form = m_form;

    auto *actions = new QHBoxLayout;
    actions->setSpacing(8);
    m_test = PageHeader::button(tr("&Test connection"), QStringLiteral("testButton"), form,
                                tr("Connect once with these values, without saving them"));
    m_trust = PageHeader::button(
        tr("Trust this host key"), QStringLiteral("trustHostKeyButton"), form,
        tr("Connect again, accepting the bastion's key shown below and adding it "
           "to known_hosts"));
    m_trust->hide();
    m_save = PageHeader::button(tr("&Save"), QStringLiteral("saveButton"), form);
    m_connect = PageHeader::button(tr("&Connect"), QStringLiteral("connectButton"), form,
                                   tr("Save the profile and use it for the whole console"));
    m_connect->setDefault(true);
    actions->addWidget(m_test);
    actions->addWidget(m_trust);
    actions->addStretch(1);
    actions->addWidget(m_save);
    actions->addWidget(m_connect);
    m_form->addFooter(actions);
    formScroll->setWidget(form);
    return formScroll;
}

QWidget *ConnectionPage::buildSandboxPanel()
{
    auto *sandbox = new QWidget(m_detail);
    auto *sandboxBox = new QVBoxLayout(sandbox);
    sandboxBox->setContentsMargins(0, 0, 0, 0);
    sandboxBox->setSpacing(10);
    sandboxBox->addWidget(PageHeader::heading(tr("Sandbox"), 1.2, sandbox));
    auto *sandboxText = new QLabel(sandbox);
    sandboxText->setObjectName(QStringLiteral("sandboxText"));
    sandboxText->setWordWrap(true);
    sandboxText->setText(
        tr("A private redis-server that Sluice starts for you on a free port of this machine "
           "(127.0.0.1 only). It starts empty, saves nothing, and stops when Sluice exits: try "
           "rules, keys and simulations on it without touching a real server."));
    fitToDetail(sandboxText);
    sandboxBox->addWidget(sandboxText);
    m_sandboxStatus = PageHeader::selectable(QStringLiteral("sandboxStatus"), sandbox);
    sandboxBox->addWidget(m_sandboxStatus);
    auto *sandboxActions = new QHBoxLayout;
    m_sandboxConnect = PageHeader::button(tr("&Connect to the sandbox"),
                                          QStringLiteral("sandboxConnectButton"), sandbox);
    sandboxActions->addWidget(m_sandboxConnect);
    sandboxActions->addStretch(1);
    sandboxBox->addLayout(sandboxActions);
    sandboxBox->addStretch(1);
    return sandbox;
}

void ConnectionPage::connectControls()
{
    ProfileStore *store = m_controller->store();
    connect(m_list, &QListWidget::currentItemChanged, this, &ConnectionPage::onSelection);
    connect(m_new, &QPushButton::clicked, this, &ConnectionPage::newProfile);
    connect(m_delete, &QPushButton::clicked, this, &ConnectionPage::deleteProfile);
    connect(m_test, &QPushButton::clicked, this, &ConnectionPage::testConnection);
    connect(m_save, &QPushButton::clicked, this, [this] { saveForm(); });
    connect(m_connect, &QPushButton::clicked, this, &ConnectionPage::connectSelected);
    connect(m_sandboxConnect, &QPushButton::clicked, m_session,
            &ConnectionSession::connectToSandbox);
    connect(m_form, &ProfileForm::edited, this, [this] {
        m_edited = true;
        setDirty(true);
    });
    connect(m_form, &ProfileForm::submitted, this, &ConnectionPage::connectSelected);
    connect(m_trust, &QPushButton::clicked, this, &ConnectionPage::trustHostKey);
    connect(m_controller, &ConnectionController::stateChanged, this, [this] {
        updateMarkers();
        updateSandbox();
    });
    connect(m_controller, &ConnectionController::passwordNeeded, this,
            &ConnectionPage::askPassword);
    connect(store, &ProfileStore::passwordStored, this,
            [this](const QString &id, bool inKeyring, const QString &why) {
                if (id != m_editingId) {
                    return;
                }
                m_form->refreshNotes();
                m_session->reportPasswordStored(id, inKeyring, why);
            });
}

// The session's answers, shown; the store's changes, followed.
void ConnectionPage::connectSession()
{
    ProfileStore *store = m_controller->store();
    connect(m_session, &ConnectionSession::messageChanged, this, &ConnectionPage::showMessage);
    connect(m_session, &ConnectionSession::testingChanged, this, [this] {
        m_test->setEnabled(!m_session->isTesting());
        m_test->setText(m_session->isTesting() ? tr("Testing…") : tr("&Test connection"));
    });
    connect(m_session, &ConnectionSession::trustChanged, this, [this] {
        m_trust->setVisible(
            m_session->trustOffered() &&
            (m_session->trustForTest() || m_session->trustProfile() == m_editingId));
    });
    connect(m_session, &ConnectionSession::focusRequested, this,
            [this](const QString &field) { m_form->focusField(field); });
    connect(m_session, &ConnectionSession::selectRequested, this, &ConnectionPage::selectProfile);
    connect(m_session, &ConnectionSession::secretRequested, this,
            [this](ProfileStore::Secret secret) { m_form->focusSecret(secret); });
    connect(store, &ProfileStore::secretStored, this, [this](const QString &id) {
        if (id == m_editingId) {
            m_form->refreshNotes();
        }
    });
    // Profiles saved elsewhere (another page, a test, an import) show up here too.
    connect(store, &ProfileStore::profilesChanged, this, &ConnectionPage::reloadList);
    connect(m_controller->sandbox(), &Sandbox::statusChanged, this, &ConnectionPage::updateSandbox);
    connect(&Theme::instance(), &Theme::changed, this, &ConnectionPage::updateSandbox);
}

// The profile used last, else the first, else the sandbox.
void ConnectionPage::selectFirstProfile()
{
    ProfileStore *store = m_controller->store();
    reloadList();
    QString first = store->lastUsed();
    if (first.isEmpty() || (first != ProfileStore::sandboxId() && !store->profile(first))) {
        const auto all = store->profiles();
        first = all.isEmpty() ? ProfileStore::sandboxId() : all.first().id;
    }
    selectProfile(first);
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
    if (id != m_editingId && hasUnsavedProfile()) {
        // Back to the profile being typed until the user says what to do with it.
        {
            const QSignalBlocker block(m_list);
            m_list->setCurrentRow(-1);
            for (int i = 0; i < m_list->count(); ++i) {
                if (m_list->item(i)->data(idRole).toString() == m_editingId &&
                    !m_editingId.isEmpty()) {
                    m_list->setCurrentRow(i);
                }
            }
        }
        leave([this, id] { selectProfile(id); });
        return;
    }
    if (id != m_editingId) {
        m_session->clearMessage();
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
    m_editingId = p.id;
    m_detail->setCurrentIndex(0);
    m_form->showProfile(p);
    m_session->withdrawTrust();
    m_delete->setEnabled(true);
    setDirty(false);
}

void ConnectionPage::newProfile()
{
    {
        const QSignalBlocker block(m_list);
        m_list->setCurrentRow(-1);
        m_list->clearSelection();
    }
    m_session->clearMessage();
    m_editingId.clear();
    m_detail->setCurrentIndex(0);
    m_form->showProfile(std::nullopt);
    m_session->withdrawTrust();
    m_delete->setEnabled(false);
    setDirty(true);
    m_form->focusField(QStringLiteral("name"));
}

void ConnectionPage::deleteProfile()
{
    const QString id = selectedId();
    const auto p = m_controller->store()->profile(id);
    if (!p) {
        return;
    }
    const bool inUse = m_session->remove(id);
    m_editingId.clear();
    reloadList();
    selectProfile(ProfileStore::sandboxId());
    m_session->reportDeleted(p->name, inUse);
}

void ConnectionPage::trustHostKey()
{
    m_session->trustHostKey(m_form->draft(), m_editingId);
}

QString ConnectionPage::saveForm()
{
    const QString id = m_session->save(m_form->draft());
    if (id.isEmpty()) {
        return {};
    }
    m_editingId = id;
    reloadList();
    selectProfile(id);
    return id;
}

void ConnectionPage::testConnection()
{
    m_session->test(m_form->draft());
}

void ConnectionPage::connectSelected()
{
    QString id = m_editingId;
    const ProfileSecrets typed = m_form->draft().secrets();
    if (m_dirty || id.isEmpty()) {
        id = saveForm();
        if (id.isEmpty()) {
            return;
        }
    }
    m_session->connectTo(id, typed);
    m_form->refreshNotes();
}

void ConnectionPage::askPassword(const QString &id, const QString &why)
{
    m_session->askPassword(id, why);
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
    fitToDetail(m_sandboxStatus);
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
    m_session->setFormUnsaved(dirty);
    if (!dirty) {
        m_edited = false;
    }
    m_save->setEnabled(dirty);
}

bool ConnectionPage::hasUnsavedProfile() const
{
    return m_dirty && m_edited && m_detail->currentIndex() == 0;
}

void ConnectionPage::leave(std::function<void()> then)
{
    if (!hasUnsavedProfile()) {
        then();
        return;
    }
    if (m_leaving) {
        return;
    }
    const QString name = m_form->draft().text(QStringLiteral("name")).trimmed();
    const QString question =
        name.isEmpty() ? tr("The new profile is not saved. Save it before you leave?")
                       : tr("The profile '%1' has changes that are not saved. Save them before "
                            "you leave?")
                             .arg(name);
    if (m_leaveHook) {
        resolveLeave(m_leaveHook(question), then);
        return;
    }
    m_leaving = true;
    auto *box =
        new QMessageBox(QMessageBox::Question, tr("Unsaved profile"), question,
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("unsavedProfileBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Cancel)->setText(tr("Keep editing"));
    box->setDefaultButton(QMessageBox::Save);
    connect(box, &QMessageBox::finished, this, [this, box, then = std::move(then)] {
        m_leaving = false;
        const QAbstractButton *b = box->clickedButton();
        const LeaveChoice choice = b == box->button(QMessageBox::Save) ? LeaveChoice::Save
                                   : b == box->button(QMessageBox::Discard)
                                       ? LeaveChoice::Discard
                                       : LeaveChoice::KeepEditing;
        resolveLeave(choice, then);
    });
    box->open();
}

void ConnectionPage::resolveLeave(LeaveChoice choice, const std::function<void()> &then)
{
    switch (choice) {
    case LeaveChoice::KeepEditing:
        return;
    case LeaveChoice::Save:
        if (saveForm().isEmpty()) {
            return; // refused: the message says why, the form stays
        }
        break;
    case LeaveChoice::Discard:
        setDirty(false);
        break;
    }
    then();
}

void ConnectionPage::showMessage()
{
    m_banner->showMessage(m_session->message());
}

} // namespace sluice::ui
