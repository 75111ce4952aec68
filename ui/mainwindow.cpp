#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace sluice::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Sluice: rate limits on Redis"));
    setObjectName(QStringLiteral("mainWindow"));

    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    m_nav = new QListWidget(central);
    m_nav->setObjectName(QStringLiteral("navigation"));
    m_nav->setFixedWidth(160);
    m_nav->setFrameShape(QFrame::NoFrame);
    m_nav->setFocusPolicy(Qt::NoFocus);
    m_nav->setStyleSheet(QStringLiteral(
        "QListWidget { background: #262a31; color: #d8dde6; border: none; padding-top: 10px;"
        " font-size: 11pt; outline: 0; }"
        "QListWidget::item { padding: 9px 16px; border: none; }"
        "QListWidget::item:hover { background: #323843; }"
        "QListWidget::item:selected { background: #3b6fb6; color: white; }"));
    m_pages = new QStackedWidget(central);
    m_pages->setObjectName(QStringLiteral("pages"));
    layout->addWidget(m_nav);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    addPage(tr("Connection"), tr("Connection"),
            tr("Named Redis profiles, a sandbox Redis for a first start, and the connection "
               "test. Until this page lands, use sluice-cli --url redis://host:port."));
    addPage(tr("Rules"), tr("Rules"),
            tr("Edit limit rules, validate them as you type, push them to Redis and export "
               "them to nginx, Envoy and Kong."));
    addPage(tr("Keys"), tr("Live keys"),
            tr("Watch limiter keys, their counters and TTLs, and find the keys that never "
               "expire."));
    addPage(tr("Simulation"), tr("Simulation"),
            tr("Run every algorithm on the same traffic and compare them on one chart."));
    addPage(tr("Monitor"), tr("Monitor"), tr("Allowed and denied decisions per rule, live."));

    connect(m_nav, &QListWidget::currentRowChanged, m_pages, &QStackedWidget::setCurrentIndex);
    m_nav->setCurrentRow(0);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (int i = 0; i < m_nav->count(); ++i) {
        QAction *a = view->addAction(m_nav->item(i)->text());
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { showPage(i); });
    }

    statusBar()->showMessage(tr("Not connected"));
    resize(1100, 700);
}

void MainWindow::showPage(int index)
{
    m_nav->setCurrentRow(index);
}

void MainWindow::addPage(const QString &name, const QString &title, const QString &blurb)
{
    m_nav->addItem(name);
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
    v->addWidget(heading);
    v->addWidget(text);
    v->addStretch(1);
    m_pages->addWidget(page);
}

} // namespace sluice::ui
