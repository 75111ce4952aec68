#include "mainwindow.h"

#include "connection/connectioncontroller.h"
#include "connection/connectionpage.h"
#include "connection/connectionstatus.h"
#include "connection/profilestore.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
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
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

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
    addPage(QStringLiteral("rules"), tr("Rules"), tr("Rules"),
            tr("Edit limit rules, validate them as you type, push them to Redis and export "
               "them to nginx, Envoy and Kong."),
            tr("This page is not in this version yet. Today: sluice-cli rules validate | "
               "export | push | pull."));
    addPage(QStringLiteral("keys"), tr("Keys"), tr("Live keys"),
            tr("Watch limiter keys, their counters and TTLs, and find the keys that never "
               "expire."),
            tr("This page is not in this version yet. Today: sluice-cli keys --url URL "
               "--rules FILE, and sluice-cli keys fix to set the missing TTLs."));
    addPage(QStringLiteral("simulation"), tr("Simulation"), tr("Simulation"),
            tr("Run every algorithm on the same traffic and compare them on one chart."),
            tr("This page is not in this version yet. Today: sluice-cli simulate "
               "preset:boundary-burst (or a scenario file), with --json or --csv."));
    addPage(QStringLiteral("monitor"), tr("Monitor"), tr("Monitor"),
            tr("Allowed and denied decisions per rule, live."),
            tr("This page is not in this version yet."));

    connect(m_nav, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);
    m_nav->setCurrentRow(0);

    buildMenus();

    m_status = new ConnectionStatus(statusBar());
    statusBar()->addWidget(m_status, 1);
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
    import->setEnabled(false);
    import->setToolTip(tr("Arrives with the Rules page; until then: sluice-cli rules push"));
    QAction *exportRules = file->addAction(tr("&Export rules…"));
    exportRules->setObjectName(QStringLiteral("exportRulesAction"));
    exportRules->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportRules->setEnabled(false);
    exportRules->setToolTip(tr("Arrives with the Rules page; until then: sluice-cli rules export"));
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
    QAction *refresh = view->addAction(tr("&Reconnect now"));
    refresh->setObjectName(QStringLiteral("refreshAction"));
    refresh->setShortcut(QKeySequence(Qt::Key_F5));
    refresh->setStatusTip(tr("Retry a lost connection at once instead of waiting"));
    connect(refresh, &QAction::triggered, m_connection, &ConnectionController::retryNow);
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
                              "live keys, simulations.</p>"));
    });
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

void MainWindow::addPage(const QString &icon, const QString &name, const QString &title,
                         const QString &blurb, const QString &status)
{
    addNavItem(name, icon);
    auto *page = new QWidget(m_pages);
    page->setObjectName(QStringLiteral("page") + QString::number(m_pages->count()));
    auto *v = new QVBoxLayout(page);
    v->setContentsMargins(24, 20, 24, 20);
    auto *heading = new QLabel(title, page);
    QFont f = heading->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    heading->setFont(f);
    auto *text = new QLabel(blurb, page);
    text->setWordWrap(true);
    // Says plainly that the page is still to come, and what works today instead.
    auto *note = new QLabel(status, page);
    note->setObjectName(QStringLiteral("pageStatus"));
    note->setWordWrap(true);
    note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note->setStyleSheet(QStringLiteral("QLabel { background: #fff6da; border-left: 4px solid "
                                       "#d9a300; padding: 8px 10px; margin-top: 10px; }"));
    v->addWidget(heading);
    v->addWidget(text);
    v->addWidget(note);
    v->addStretch(1);
    m_pages->addWidget(page);
}

} // namespace sluice::ui
