#include "mainwindow.h"

#include "connection/clusterpanel.h"
#include "connection/connectioncontroller.h"
#include "connection/connectionpage.h"
#include "connection/connectionstatus.h"
#include "connection/connectionswitcher.h"
#include "connection/profilestore.h"
#include "keys/keyspage.h"
#include "keys/scanstate.h"
#include "load/loadpage.h"
#include "monitor/monitorpage.h"
#include "monitor/monitorsession.h"
#include "rules/rulespage.h"
#include "sim/simulationpage.h"
#include "ui/common/pageheader.h"

#include "common/elidedlabel.h"
#include "common/messagebanner.h"
#include "common/statswatch.h"
#include "common/theme.h"
#include "common/tone.h"
#include "common/wheelguard.h"
#include "common/windowplace.h"
#include "common/writegate.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

const QString geometryKey = QStringLiteral("window/geometry"); // read once, then replaced
const QString rectKey = QStringLiteral("window/rect");
const QString maximizedKey = QStringLiteral("window/maximized");
const QString stateKey = QStringLiteral("window/state");
const QString pageKey = QStringLiteral("window/page");
const QString versionKey = QStringLiteral("settings/version");
const QString themeKey = QStringLiteral("view/theme");

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Sluice: rate limits on Redis"));
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(appIcon());
    // The wheel scrolls forms, it never changes a value the user did not pick.
    WheelGuard::install(qApp);
    // The window's size is the user's: no text, banner or counter makes it grow. The pages
    // wrap or elide what does not fit (the minimum set here keeps a layout's from applying).
    setMinimumSize(720, 480);

    m_settingsReadable = checkSettings();

    m_store = new ProfileStore(this);
    m_store->setObjectName(QStringLiteral("profileStore"));
    m_connection = new ConnectionController(m_store, this);
    m_connection->setObjectName(QStringLiteral("connectionController"));

    buildFrame();
    buildPages();
    connectPages();
    guardWrites();

    connect(m_nav, &QListWidget::currentRowChanged, this, &MainWindow::onNavigation);
    m_nav->setCurrentRow(0);

    m_switcher = new ConnectionSwitcher(m_connection, this);
    buildMenus();

    buildStatusBar();
    connectConnection();

    resize(1100, 700);
    if (m_settingsReadable) {
        restoreSettings();
    }
    if (!m_settingsProblem.isEmpty()) {
        m_settingsBanner->showMessage(PageMessage::headlined(
            Tone::Warning, tr("The settings were not used."), m_settingsProblem));
    }
    applyFrameColours();
    connect(&Theme::instance(), &Theme::changed, this, &MainWindow::applyFrameColours);
    // quit() (SIGTERM, a session logout) closes no window: keep the settings then too.
    connect(qApp, &QCoreApplication::aboutToQuit, this, &MainWindow::saveSettings);
}

// The navigation on the left, the pages on the right, the settings' banner above them.
void MainWindow::buildFrame()
{
    auto *central = new QWidget(this);
    auto *layout = PageHeader::layoutOn<QHBoxLayout>(central, 0);

    m_nav = new QListWidget(central);
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setFixedWidth(160);
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setFocusPolicy(Qt::NoFocus);
    m_nav->setIconSize(QSize(20, 20));
    m_pages = new QStackedWidget(central);
    m_pages->setObjectName(QStringLiteral("pages"));
    layout->addWidget(m_nav);
    // Above the pages: what went wrong with the settings, once.
    auto *right = PageHeader::layoutOn<QVBoxLayout>(nullptr, 0);
    m_settingsBanner = new MessageBanner(QStringLiteral("settingsBanner"),
                                         QStringLiteral("settingsMessage"), central);
    m_settingsBanner->setDismissible(QStringLiteral("settingsDismiss"));
    right->addWidget(m_settingsBanner);
    right->addWidget(m_pages, 1);
    layout->addLayout(right, 1);
    setCentralWidget(central);
}

void MainWindow::buildPages()
{
    m_connectionPage = addPage<ConnectionPage>(tr("Connection"), QStringLiteral("connection"));
    m_rulesPage = addPage<RulesPage>(tr("Rules"), QStringLiteral("rules"));
    m_keysPage = addPage<KeysPage>(tr("Keys"), QStringLiteral("keys"));
    m_simulationPage = addPage<SimulationPage>(tr("Simulation"), QStringLiteral("simulation"));
    m_monitorPage = addPage<MonitorPage>(tr("Monitor"), QStringLiteral("monitor"));
    m_loadPage = addPage<LoadPage>(tr("Load"), QStringLiteral("load"));
}

void MainWindow::connectPages()
{
    // One rule set for the whole console: the Rules page's (pulled from Redis at connect, or
    // imported). The other pages decode keys, simulate and generate load with it.
    connect(m_rulesPage, &RulesPage::rulesChanged, m_keysPage, &KeysPage::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_connectionPage->clusterPanel(),
            &ClusterPanel::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_simulationPage, &SimulationPage::setRules);
    // The replay's *Use this limit*: into the Rules page's editor, unsaved, shown there.
    connect(m_simulationPage, &SimulationPage::useLimitRequested, this,
            [this](const QString &ruleId, qint64 limit) {
                QString detail;
                const bool written = m_rulesPage->useLimit(ruleId, limit, &detail);
                if (written) {
                    showPage(RulesPageIndex);
                }
                m_simulationPage->limitUsed(written, detail);
            });
    connect(m_rulesPage, &RulesPage::rulesChanged, m_monitorPage, &MonitorPage::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_loadPage, &LoadPage::setRules);
    // The badge and the status bar's link read the Keys session's one model of its last scan,
    // as the page's banner and its audit panel do (ui/keys/scanstate.h).
    connect(m_keysPage->scanState(), &KeysScanState::changed, this, &MainWindow::onKeysHealth);
    // The Monitor says when a load decided on keys of its own, which it does not scan.
    connect(m_loadPage, &LoadPage::finished, m_monitorPage->session(), &MonitorSession::noteLoad);
}

void MainWindow::guardWrites()
{
    // Every action that writes to Redis, in one list: off (with the reason) under a read-only
    // profile. The simulation on Redis writes its own keys; the local twins stay.
    m_writeGate = new WriteGate(this);
    const auto button = [](QWidget *page, const char *name) {
        return page->findChild<QWidget *>(QLatin1String(name));
    };
    m_writeGate->guard(
        {button(m_keysPage, "setTtlButton"), button(m_keysPage, "deleteButton"),
         button(m_keysPage, "fixAllButton"), button(m_keysPage, "deleteAllButton"),
         button(m_rulesPage, "pushButton"), button(m_rulesPage, "removeOverrideButton"),
         button(m_monitorPage, "unblockButton"), button(m_monitorPage, "allowButton"),
         button(m_monitorPage, "blockButton"), button(m_loadPage, "startButton")});
    if (auto *engine = m_simulationPage->findChild<QComboBox *>(QStringLiteral("engineCombo"))) {
        m_writeGate->guardItem(engine, engine->findData(QStringLiteral("redis")));
    }
}

void MainWindow::buildStatusBar()
{
    // One click to another server: the sandbox, staging, production.
    statusBar()->addWidget(m_switcher->makeButton(statusBar()));
    m_status = new ConnectionStatus(statusBar());
    statusBar()->addWidget(m_status, 1);
    // The health headline (CONSOLE.md "Frame"): "3 keys never expire", a link to the Keys page.
    m_health = new QLabel(statusBar());
    m_health->setObjectName(QStringLiteral("healthHeadline"));
    m_health->setTextFormat(Qt::RichText);
    m_health->setContentsMargins(8, 0, 8, 0);
    m_health->setVisible(false);
    connect(m_health, &QLabel::linkActivated, this, [this] { showPage(KeysPageIndex); });
    statusBar()->addPermanentWidget(m_health);
    // A statistics writer that fails (the Load page's): said once, here, until it writes again.
    m_stats = new ElidedLabel(statusBar()); // Redis's words may be long: never a wider window
    m_stats->setObjectName(QStringLiteral("statsStatus"));
    m_stats->setContentsMargins(8, 0, 8, 0);
    m_stats->setVisible(false);
    statusBar()->addPermanentWidget(m_stats);
    connect(m_loadPage->statsWatch(), &StatsWatch::changed, this, &MainWindow::onStatsHealth);
}

void MainWindow::connectConnection()
{
    connect(m_connection, &ConnectionController::stateChanged, this,
            &MainWindow::onConnectionState);
    connect(m_connection, &ConnectionController::passwordNeeded, this,
            [this] { showPage(ConnectionPageIndex); });
    // Another server: unsaved rules are asked about first (Save, Discard, Cancel).
    m_connection->setSwitchGuard([this](const QString &, std::function<void()> go) {
        if (!m_rulesPage->hasUnsavedChanges()) {
            go();
            return;
        }
        showPage(RulesPageIndex);
        m_rulesPage->leaveUnsaved(tr("You are switching to another server."), std::move(go));
    });
}

MainWindow::~MainWindow()
{
    // The pages go after this object's members (the navigation list among them): a Keys scan
    // still running then says "not scanning" on its way out, which must not reach
    // onKeysHealth().
    m_keysPage->scanState()->disconnect(this);
}

QIcon MainWindow::appIcon()
{
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256}) {
        icon.addFile(QStringLiteral(":/icons/sluice-%1.png").arg(size), QSize(size, size));
    }
    return icon;
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setToolTipsVisible(true);
    addMenuAction(file, tr("&Import rules…"), QStringLiteral("importRulesAction"),
                  QKeySequence::Open, tr("Read rules from a JSON or YAML file into the Rules page"),
                  [this] {
                      showPage(RulesPageIndex);
                      m_rulesPage->importRules();
                  });
    addMenuAction(file, tr("&Save rules"), QStringLiteral("saveRulesAction"),
                  QKeySequence(Qt::CTRL | Qt::Key_S),
                  tr("Write the rules back to their file, in its format (JSON or YAML)"), [this] {
                      showPage(RulesPageIndex);
                      m_rulesPage->save();
                  });
    addMenuAction(file, tr("Save rules &as…"), QStringLiteral("saveRulesAsAction"),
                  QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                  tr("Write the rules to another JSON or YAML file"), [this] {
                      showPage(RulesPageIndex);
                      m_rulesPage->saveAs();
                  });
    // Ctrl+E exports what the page shows (CONSOLE.md): the figure on the Simulation page, the
    // rules everywhere else.
    addMenuAction(file, tr("&Export rules…"), QStringLiteral("exportRulesAction"),
                  QKeySequence(Qt::CTRL | Qt::Key_E),
                  tr("Export the rules (JSON, YAML, nginx, Envoy, Kong); on the "
                     "Simulation page, export the figure"),
                  ownElseRules(
                      m_simulationPage, [this] { m_simulationPage->exportFigure(); },
                      [this] { m_rulesPage->exportRules(); }));
    m_recentMenu = file->addMenu(tr("Recent &files"));
    m_recentMenu->setObjectName(QStringLiteral("recentFilesMenu"));
    buildRecentMenu();
    connect(m_rulesPage, &RulesPage::recentFilesChanged, this, &MainWindow::buildRecentMenu);
    file->addSeparator();
    QMenu *connectTo = file->addMenu(tr("Co&nnect to"));
    connectTo->setObjectName(QStringLiteral("connectToMenu"));
    connect(connectTo, &QMenu::aboutToShow, this,
            [this, connectTo] { m_switcher->fill(connectTo); });
    m_switcher->fill(connectTo); // filled once now, so that it is never empty (tests, a11y)
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // every platform theme, not some
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_nav->count(); ++i) {
        QAction *a = view->addAction(m_nav->item(i)->text());
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { showPage(i); });
    }
    view->addSeparator();
    addMenuAction(view, tr("&Filter"), QStringLiteral("filterAction"), QKeySequence::Find, {},
                  ownElseRules(
                      m_keysPage, [this] { m_keysPage->focusFilter(); },
                      [this] { m_rulesPage->focusFilter(); }));
    addMenuAction(
        view, tr("&Refresh"), QStringLiteral("refreshAction"), QKeySequence(Qt::Key_F5),
        tr("Scan the keys again, read the monitor now; a lost connection is retried at once"),
        [this] {
            if (!m_connection->state().isUp()) {
                m_connection->retryNow();
            }
            if (m_pages->currentWidget() == m_keysPage) {
                m_keysPage->refresh();
            } else if (m_pages->currentWidget() == m_monitorPage) {
                m_monitorPage->refresh();
            }
        });
    addMenuAction(view, tr("&Run simulation"), QStringLiteral("runSimulationAction"),
                  QKeySequence(Qt::CTRL | Qt::Key_R), {}, [this] {
                      showPage(SimulationPageIndex);
                      m_simulationPage->run();
                  });
    view->addSeparator();
    buildThemeMenu(view);
    QAction *fullScreen = view->addAction(tr("&Full screen"));
    fullScreen->setShortcut(QKeySequence::FullScreen);
    fullScreen->setCheckable(true);
    connect(fullScreen, &QAction::toggled, this,
            [this](bool on) { setWindowState(windowState().setFlag(Qt::WindowFullScreen, on)); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About Sluice"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Sluice"),
                           tr("<b>Sluice</b><p>A console for rate limits kept in Redis: rules, "
                              "live keys, simulations, live traffic and load.</p>") +
                               QStringLiteral("<p>%1</p>").arg(aboutVersion()));
    });
}

QString MainWindow::aboutVersion()
{
    // main() sets "0.1.0 (git 654a054e1f2b)" (app/version); a test's window has none.
    const QString v = QCoreApplication::applicationVersion();
    return v.isEmpty() ? tr("Version unknown") : tr("Version %1").arg(v.toHtmlEscaped());
}

void MainWindow::connectAtStart()
{
    reopenWork();
    m_connection->connectAtStart();
}

void MainWindow::showPage(int index)
{
    m_nav->setCurrentRow(index);
}

void MainWindow::onConnectionState(const ConnectionState &state)
{
    m_status->setState(state);
    m_writeGate->setReadOnly(state.readOnly,
                             tr("Off: the profile '%1' is read-only, so Sluice sends this server "
                                "nothing that writes. Turn it off on the Connection page to "
                                "change data.")
                                 .arg(state.label));
    // The whole bar takes the colour: a lost connection must be seen from across the room.
    switch (m_status->tone()) {
    case ConnectionStatus::Tone::Warning:
        statusBar()->setStyleSheet(
            QStringLiteral("QStatusBar { background: %1; } QStatusBar QLabel { color: %2; }")
                .arg(tone::hex(tone::barFill(Tone::Warning)),
                     tone::hex(tone::barText(Tone::Warning))));
        break;
    case ConnectionStatus::Tone::Bad:
        statusBar()->setStyleSheet(
            QStringLiteral("QStatusBar { background: %1; } QStatusBar QLabel { color: %2; }")
                .arg(tone::hex(tone::barFill(Tone::Bad)), tone::hex(tone::barText(Tone::Bad))));
        break;
    default:
        statusBar()->setStyleSheet(QString());
        break;
    }
    if (state.state == ConnectionState::State::Idle) {
        setWindowTitle(tr("Sluice: rate limits on Redis"));
    } else {
        setWindowTitle(tr("%1 (%2) - Sluice").arg(state.label, state.endpoint));
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // A profile typed and not saved (Save, Discard, Keep editing), then unsaved rules (Save,
    // Discard, Cancel) are asked about first.
    if (!m_closeApproved &&
        (m_connectionPage->hasUnsavedProfile() || m_rulesPage->hasUnsavedChanges())) {
        m_inCloseEvent = true;
        askBeforeQuitting([this] {
            m_closeApproved = true;
            if (!m_inCloseEvent) {
                close(); // answered later, in a message box
            }
        });
        m_inCloseEvent = false;
        if (!m_closeApproved) {
            event->ignore();
            return;
        }
    }
    m_closeApproved = false;
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::askBeforeQuitting(std::function<void()> then)
{
    auto rules = [this, then = std::move(then)] {
        if (m_rulesPage->hasUnsavedChanges()) {
            showPage(RulesPageIndex);
        }
        m_rulesPage->leaveUnsaved(tr("Sluice is about to quit."), then);
    };
    if (m_connectionPage->hasUnsavedProfile()) {
        showPage(ConnectionPageIndex);
        m_connectionPage->leave(rules);
        return;
    }
    rules();
}

void MainWindow::saveSettings() const
{
    if (!m_settingsUsable) {
        return; // a newer console's settings: left as they are
    }
    QSettings settings;
    settings.setValue(versionKey, settingsVersion);
    // The client rectangle, as set again by setGeometry() (saveGeometry()'s frame moved the
    // window down by its title bar on every start where no window manager reports the frame),
    // and never larger than the screen it is on.
    settings.setValue(rectKey, windowplace::fitOnScreens(normalGeometry(), minimumSize()));
    settings.setValue(maximizedKey, isMaximized());
    settings.remove(geometryKey);
    settings.setValue(stateKey, saveState());
    settings.setValue(pageKey, m_pages->currentIndex());
}

QSize MainWindow::firstSize(const QSize &available)
{
    const QSize first(1100, 700);
    const QSize most = available * 0.8;
    return first.expandedTo(most).boundedTo(available);
}

void MainWindow::restoreSettings()
{
    const QSettings settings;
    // A value of another type (a newer console's, a hand edit) is skipped, not trusted.
    const QVariant saved = settings.value(rectKey);
    QRect wanted = saved.typeId() == QMetaType::QRect ? saved.toRect() : QRect();
    if (!wanted.isValid() && restoreGeometry(settings.value(geometryKey).toByteArray())) {
        wanted = normalGeometry(); // an older console's saveGeometry()
    }
    if (wanted.isValid() && !wanted.isEmpty()) {
        // On a screen that is there, never larger than it.
        setGeometry(windowplace::fitOnScreens(wanted, minimumSize()));
        if (settings.value(maximizedKey).toString() == QLatin1String("true")) {
            setWindowState(windowState() | Qt::WindowMaximized);
        }
    } else if (const QScreen *screen = QGuiApplication::primaryScreen()) {
        // A first start: a size that uses the screen, in its middle.
        const QRect room = screen->availableGeometry();
        resize(firstSize(room.size()));
        move(room.center() - rect().center());
    }
    restoreState(settings.value(stateKey).toByteArray());
    bool ok = false;
    const int page = settings.value(pageKey, 0).toInt(&ok);
    if (ok && page >= 0 && page < m_pages->count()) {
        showPage(page);
    }
}

bool MainWindow::checkSettings()
{
    QSettings settings;
    const QString file = settings.fileName();
    bool corrupt = settings.status() == QSettings::FormatError;
    if (!corrupt && QFileInfo(file).isFile()) {
        // Qt's INI reader takes nearly anything: a file with NUL bytes or that is not UTF-8 is
        // not one this console wrote.
        QFile f(file);
        if (f.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = f.readAll();
            corrupt = bytes.contains('\0') || QString::fromUtf8(bytes).toUtf8() != bytes;
        }
    }
    if (corrupt) {
        const QString aside = file + QStringLiteral(".corrupt");
        QFile::remove(aside);
        QFile::rename(file, aside);
        settings.sync();
        settings.clear();
        m_settingsProblem =
            tr("%1 could not be read, so Sluice starts with its defaults. The "
               "file was kept as %2.")
                .arg(QDir::toNativeSeparators(file), QDir::toNativeSeparators(aside));
        return false;
    }
    bool ok = true;
    const int version = settings.value(versionKey, settingsVersion).toInt(&ok);
    if (!ok || version < 1) {
        settings.clear();
        m_settingsProblem = tr("%1 has no settings version Sluice knows, so Sluice starts with "
                               "its defaults.")
                                .arg(QDir::toNativeSeparators(file));
        return false;
    }
    if (version > settingsVersion) {
        // Read what this console understands; write nothing into a newer console's file.
        m_settingsUsable = false;
        m_settingsProblem =
            tr("%1 was written by a newer Sluice (settings version %2; this one reads %3). "
               "Sluice uses what it understands of it and leaves the file as it is: what you "
               "change now is not kept.")
                .arg(QDir::toNativeSeparators(file))
                .arg(version)
                .arg(settingsVersion);
        return true;
    }
    return true;
}

bool MainWindow::reopenWork()
{
    const QString last = m_store->lastUsed();
    return m_rulesPage->reopenAtStart(last.isEmpty() || last == ProfileStore::sandboxId());
}

void MainWindow::buildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = RulesPage::recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        // "&1 rules.json" ... "1&0": the first nine and the tenth get a mnemonic digit.
        const QString number = i < 9 ? QStringLiteral("&%1").arg(i + 1) : QStringLiteral("1&0");
        QAction *a = m_recentMenu->addAction(
            QStringLiteral("%1  %2").arg(number, QFileInfo(path).fileName()));
        a->setObjectName(QStringLiteral("recentFile%1").arg(i));
        a->setData(path);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] {
            showPage(RulesPageIndex);
            m_rulesPage->openFile(path);
        });
    }
    if (files.isEmpty()) {
        QAction *none = m_recentMenu->addAction(tr("No rule files imported yet"));
        none->setEnabled(false);
        return;
    }
    m_recentMenu->setToolTipsVisible(true);
    m_recentMenu->addSeparator();
    QAction *clear = m_recentMenu->addAction(tr("&Clear the list"));
    clear->setObjectName(QStringLiteral("clearRecentFiles"));
    connect(clear, &QAction::triggered, m_rulesPage, &RulesPage::clearRecentFiles);
}

void MainWindow::buildThemeMenu(QMenu *view)
{
    QMenu *theme = view->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    m_themeGroup = new QActionGroup(theme);
    const QSettings settings;
    bool known = false;
    const Theme::Choice saved = m_settingsReadable
                                    ? Theme::fromName(settings.value(themeKey).toString(), &known)
                                    : Theme::Choice::System;
    const struct
    {
        Theme::Choice choice;
        QString text;
    } choices[] = {{Theme::Choice::System, tr("Follow the &system")},
                   {Theme::Choice::Light, tr("&Light")},
                   {Theme::Choice::Dark, tr("&Dark")}};
    for (const auto &c : choices) {
        QAction *a = theme->addAction(c.text);
        a->setObjectName(QStringLiteral("theme-") + Theme::name(c.choice));
        a->setCheckable(true);
        a->setChecked(c.choice == saved);
        m_themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, choice = c.choice] {
            Theme::instance().apply(choice);
            if (m_settingsUsable) {
                QSettings().setValue(themeKey, Theme::name(choice));
            }
        });
    }
    // Always applied: "system" too takes a readable selection (Theme::readableSelection).
    Theme::instance().apply(saved);
}

void MainWindow::applyFrameColours()
{
    // The navigation column is dark in both themes; its selection is the palette's accent.
    m_nav->setStyleSheet(
        QStringLiteral("QListWidget { background: %1; color: %2; border: none; padding-top: 10px;"
                       " font-size: 11pt; outline: 0; }"
                       "QListWidget::item { padding: 9px 12px; border: none; }"
                       "QListWidget::item:hover { background: %3; }"
                       "QListWidget::item:selected { background: %4; color: white; }")
            .arg(tone::hex(tone::navBackground()), tone::hex(tone::navText()),
                 tone::hex(tone::navHover()), tone::hex(tone::navSelected())));
    if (m_status) {
        onConnectionState(m_connection->state());
    }
    if (m_health) {
        onKeysHealth();
    }
}

void MainWindow::onNavigation(int row)
{
    if (row == m_pages->currentIndex()) {
        return;
    }
    if (m_pages->currentWidget() == m_connectionPage && m_connectionPage->hasUnsavedProfile()) {
        // Stay until the user answers; then go where they asked.
        {
            const QSignalBlocker block(m_nav);
            m_nav->setCurrentRow(ConnectionPageIndex);
        }
        m_connectionPage->leave([this, row] {
            m_pages->setCurrentIndex(row);
            const QSignalBlocker block(m_nav);
            m_nav->setCurrentRow(row);
        });
        return;
    }
    m_pages->setCurrentIndex(row);
}

template <class PageWidget>
PageWidget *MainWindow::addPage(const QString &name, const QString &icon)
{
    auto *page = new PageWidget(m_connection, m_pages);
    addNavItem(name, icon);
    m_pages->addWidget(page);
    return page;
}

QAction *MainWindow::addMenuAction(QMenu *menu, const QString &text, const QString &objectName,
                                   const QKeySequence &shortcut, const QString &statusTip,
                                   const std::function<void()> &run)
{
    QAction *action = menu->addAction(text);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    action->setStatusTip(statusTip);
    connect(action, &QAction::triggered, this, run);
    return action;
}

std::function<void()> MainWindow::ownElseRules(QWidget *page, std::function<void()> own,
                                               std::function<void()> onRules)
{
    return [this, page, own = std::move(own), onRules = std::move(onRules)] {
        if (m_pages->currentWidget() == page) {
            own();
        } else {
            showPage(RulesPageIndex);
            onRules();
        }
    };
}

void MainWindow::addNavItem(const QString &name, const QString &icon)
{
    m_nav->addItem(
        new QListWidgetItem(QIcon(QStringLiteral(":/icons/nav/%1.png").arg(icon)), name));
}

void MainWindow::onStatsHealth()
{
    const StatsWatch *watch = m_loadPage->statsWatch();
    m_stats->setVisible(watch->failing());
    m_stats->setText(tone::mark(Tone::Warning) + watch->text());
    m_stats->setStyleSheet(QStringLiteral("color: %1;").arg(tone::text(Tone::Warning).name()));
    m_stats->setOwnToolTip(
        m_stats->text() + QStringLiteral("\n\n") +
        tr("The Load page's decisions are made, but their statistics are not written to Redis, "
           "so the Monitor page does not see them. Redis said: %1")
            .arg(watch->detail()));
}

void MainWindow::onKeysHealth()
{
    // The badge on Keys (CONSOLE.md "Frame"): the number of keys that never expire, the count
    // that matters at 3 a.m.; the tooltip has the rest and the scan's time. The status bar's
    // link: what is flagged, or that the result is partial or stale; hidden when all is well.
    const KeysScanState *state = m_keysPage->scanState();
    m_neverExpiring = state->neverExpiring();
    QListWidgetItem *item = m_nav->item(KeysPageIndex);
    item->setText(state->badgeText());
    item->setToolTip(state->badgeToolTip());
    const QString headline = state->headline();
    if (!headline.isEmpty()) {
        // The link in the headline's own tone: the default link blue is unreadable on a dark
        // status bar, and the colour says how bad it is (with the mark, never colour alone).
        const Tone t = state->headlineTone();
        m_health->setText(QStringLiteral("<a href=\"keys\" style=\"color: %1;\">%2%3</a>")
                              .arg(tone::text(t).name(), tone::mark(t).toHtmlEscaped(),
                                   headline.toHtmlEscaped()));
        m_health->setToolTip(state->badgeToolTip());
    }
    m_health->setVisible(!headline.isEmpty());
}

} // namespace sluice::ui
