#include "mainwindow.h"

#include "connection/clusterpanel.h"
#include "connection/connectioncontroller.h"
#include "connection/connectionpage.h"
#include "connection/connectionstatus.h"
#include "connection/profilestore.h"
#include "keys/keyspage.h"
#include "keys/scanstate.h"
#include "load/loadpage.h"
#include "monitor/monitorpage.h"
#include "monitor/monitorsession.h"
#include "rules/rulespage.h"
#include "sim/simulationpage.h"
#include "ui/common/pageheader.h"

#include "common/statswatch.h"
#include "common/tone.h"
#include "common/writegate.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

const QString geometryKey = QStringLiteral("window/geometry");
const QString stateKey = QStringLiteral("window/state");
const QString pageKey = QStringLiteral("window/page");

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Sluice: rate limits on Redis"));
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(appIcon());

    m_store = new ProfileStore(this);
    m_store->setObjectName(QStringLiteral("profileStore"));
    m_connection = new ConnectionController(m_store, this);
    m_connection->setObjectName(QStringLiteral("connectionController"));

    auto *central = new QWidget(this);
    auto *layout = PageHeader::layoutOn<QHBoxLayout>(central, 0);

    m_nav = new QListWidget(central);
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setFixedWidth(160);
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setFocusPolicy(Qt::NoFocus);
    m_nav->setIconSize(QSize(20, 20));
    m_nav->setStyleSheet(QStringLiteral(
        "QListWidget { background: #262a31; color: #d8dde6; border: none; padding-top: 10px;"
        " font-size: 11pt; outline: 0; }"
        "QListWidget::item { padding: 9px 12px; border: none; }"
        "QListWidget::item:hover { background: #323843; }"
        "QListWidget::item:selected { background: #3b6fb6; color: white; }"));
    m_pages = new QStackedWidget(central);
    m_pages->setObjectName(QStringLiteral("pages"));
    layout->addWidget(m_nav);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    m_connectionPage = new ConnectionPage(m_connection, m_pages);
    addNavItem(tr("Connection"), QStringLiteral("connection"));
    m_pages->addWidget(m_connectionPage);
    m_rulesPage = new RulesPage(m_connection, m_pages);
    addNavItem(tr("Rules"), QStringLiteral("rules"));
    m_pages->addWidget(m_rulesPage);
    m_keysPage = new KeysPage(m_connection, m_pages);
    addNavItem(tr("Keys"), QStringLiteral("keys"));
    m_pages->addWidget(m_keysPage);
    m_simulationPage = new SimulationPage(m_connection, m_pages);
    addNavItem(tr("Simulation"), QStringLiteral("simulation"));
    m_pages->addWidget(m_simulationPage);
    m_monitorPage = new MonitorPage(m_connection, m_pages);
    addNavItem(tr("Monitor"), QStringLiteral("monitor"));
    m_pages->addWidget(m_monitorPage);
    m_loadPage = new LoadPage(m_connection, m_pages);
    addNavItem(tr("Load"), QStringLiteral("load"));
    m_pages->addWidget(m_loadPage);

    // One rule set for the whole console: the Rules page's (pulled from Redis at connect, or
    // imported). The other pages decode keys, simulate and generate load with it.
    connect(m_rulesPage, &RulesPage::rulesChanged, m_keysPage, &KeysPage::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_connectionPage->clusterPanel(),
            &ClusterPanel::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_simulationPage, &SimulationPage::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_monitorPage, &MonitorPage::setRules);
    connect(m_rulesPage, &RulesPage::rulesChanged, m_loadPage, &LoadPage::setRules);
    // The badge and the status bar's link read the Keys session's one model of its last scan,
    // as the page's banner and its audit panel do (ui/keys/scanstate.h).
    connect(m_keysPage->scanState(), &KeysScanState::changed, this, &MainWindow::onKeysHealth);
    // The Monitor says when a load decided on keys of its own, which it does not scan.
    connect(m_loadPage, &LoadPage::finished, m_monitorPage->session(), &MonitorSession::noteLoad);

    // Every action that writes to Redis, in one list: off (with the reason) under a read-only
    // profile. The simulation on Redis writes its own keys; the local twins stay.
    m_writeGate = new WriteGate(this);
    const auto button = [](QWidget *page, const char *name) {
        return page->findChild<QWidget *>(QLatin1String(name));
    };
    m_writeGate->guard({button(m_keysPage, "setTtlButton"), button(m_keysPage, "deleteButton"),
                        button(m_keysPage, "fixAllButton"), button(m_keysPage, "deleteAllButton"),
                        button(m_rulesPage, "pushButton"), button(m_monitorPage, "unblockButton"),
                        button(m_loadPage, "startButton")});
    if (auto *engine = m_simulationPage->findChild<QComboBox *>(QStringLiteral("engineCombo"))) {
        m_writeGate->guardItem(engine, engine->findData(QStringLiteral("redis")));
    }

    connect(m_nav, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);
    m_nav->setCurrentRow(0);

    buildMenus();

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
    m_stats = new QLabel(statusBar());
    m_stats->setObjectName(QStringLiteral("statsStatus"));
    m_stats->setContentsMargins(8, 0, 8, 0);
    m_stats->setVisible(false);
    statusBar()->addPermanentWidget(m_stats);
    connect(m_loadPage->statsWatch(), &StatsWatch::changed, this, &MainWindow::onStatsHealth);
    connect(m_connection, &ConnectionController::stateChanged, this,
            &MainWindow::onConnectionState);
    connect(m_connection, &ConnectionController::passwordNeeded, this,
            [this] { showPage(ConnectionPageIndex); });

    resize(1100, 700);
    restoreSettings();
    // quit() (SIGTERM, a session logout) closes no window: keep the settings then too.
    connect(qApp, &QCoreApplication::aboutToQuit, this, &MainWindow::saveSettings);
}

MainWindow::~MainWindow() = default;

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
    QAction *import = file->addAction(tr("&Import rules…"));
    import->setObjectName(QStringLiteral("importRulesAction"));
    import->setShortcut(QKeySequence::Open);
    import->setStatusTip(tr("Read rules from a JSON or YAML file into the Rules page"));
    connect(import, &QAction::triggered, this, [this] {
        showPage(RulesPageIndex);
        m_rulesPage->importRules();
    });
    QAction *exportRules = file->addAction(tr("&Export rules…"));
    exportRules->setObjectName(QStringLiteral("exportRulesAction"));
    exportRules->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportRules->setStatusTip(tr("Export the rules (JSON, YAML, nginx, Envoy, Kong); on the "
                                 "Simulation page, export the figure"));
    // Ctrl+E exports what the page shows (CONSOLE.md): the figure on the Simulation page, the
    // rules everywhere else.
    connect(exportRules, &QAction::triggered, this, [this] {
        if (m_pages->currentWidget() == m_simulationPage) {
            m_simulationPage->exportFigure();
        } else {
            showPage(RulesPageIndex);
            m_rulesPage->exportRules();
        }
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_nav->count(); ++i) {
        QAction *a = view->addAction(m_nav->item(i)->text());
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { showPage(i); });
    }
    view->addSeparator();
    QAction *find = view->addAction(tr("&Filter"));
    find->setObjectName(QStringLiteral("filterAction"));
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, this, [this] {
        if (m_pages->currentWidget() == m_keysPage) {
            m_keysPage->focusFilter();
        } else {
            showPage(RulesPageIndex);
            m_rulesPage->focusFilter();
        }
    });
    QAction *refresh = view->addAction(tr("&Refresh"));
    refresh->setObjectName(QStringLiteral("refreshAction"));
    refresh->setShortcut(QKeySequence(Qt::Key_F5));
    refresh->setStatusTip(
        tr("Scan the keys again, read the monitor now; a lost connection is retried at once"));
    connect(refresh, &QAction::triggered, this, [this] {
        if (!m_connection->state().isUp()) {
            m_connection->retryNow();
        }
        if (m_pages->currentWidget() == m_keysPage) {
            m_keysPage->refresh();
        } else if (m_pages->currentWidget() == m_monitorPage) {
            m_monitorPage->refresh();
        }
    });
    QAction *runSimulation = view->addAction(tr("&Run simulation"));
    runSimulation->setObjectName(QStringLiteral("runSimulationAction"));
    runSimulation->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(runSimulation, &QAction::triggered, this, [this] {
        showPage(SimulationPageIndex);
        m_simulationPage->run();
    });
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
            QStringLiteral("QStatusBar { background: #f6c453; } QStatusBar QLabel { color: "
                           "#2b2100; }"));
        break;
    case ConnectionStatus::Tone::Bad:
        statusBar()->setStyleSheet(
            QStringLiteral("QStatusBar { background: #f3c4bd; } QStatusBar QLabel { color: "
                           "#4a0f08; }"));
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
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(geometryKey, saveGeometry());
    settings.setValue(stateKey, saveState());
    settings.setValue(pageKey, m_pages->currentIndex());
}

void MainWindow::restoreSettings()
{
    const QSettings settings;
    restoreGeometry(settings.value(geometryKey).toByteArray());
    restoreState(settings.value(stateKey).toByteArray());
    const int page = settings.value(pageKey, 0).toInt();
    if (page >= 0 && page < m_pages->count()) {
        showPage(page);
    }
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
    m_stats->setToolTip(
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
        m_health->setText(QStringLiteral("<a href=\"keys\">%1</a>").arg(headline.toHtmlEscaped()));
        m_health->setToolTip(state->badgeToolTip());
    }
    m_health->setVisible(!headline.isEmpty());
}

} // namespace sluice::ui
