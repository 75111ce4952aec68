#include "pageharness.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/language.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFrame>
#include <QHBoxLayout>
#include <QListWidget>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTest>

namespace sluice::test {

void useTestSettings(const QString &organization)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(organization);
}

namespace {

void clearSettingsAtExit()
{
    QSettings().clear();
}

} // namespace

void freshTestSettings(const QString &organization)
{
    useTestSettings(organization);
    QSettings().clear();
    static bool registered = false;
    if (!registered) {
        registered = true;
        qAddPostRoutine(&clearSettingsAtExit);
    }
}

QString screenshotPath(const QString &name)
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name;
}

bool useLanguage(const QString &lang)
{
    QString error;
    if (!ui::Language::install(qApp, lang, &error)) {
        qWarning("language %s: %s", qPrintable(lang), qPrintable(error));
        return false;
    }
    return true;
}

void languageRows()
{
    QTest::addColumn<QString>("lang");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

RowLanguage useRowLanguage()
{
    QFETCH(QString, lang);
    return {lang, lang == QStringLiteral("zh_CN"), useLanguage(lang)};
}

QString shotsDir()
{
    const QString dir = qEnvironmentVariable("SLUICE_SHOTS_DIR");
    if (!dir.isEmpty()) {
        QDir().mkpath(dir);
    }
    return dir;
}

void inEachLanguage(const QString &name, const QList<QSize> &sizes,
                    const std::function<void(QSize, const QString &, const QString &)> &shoot)
{
    const QString dir = shotsDir();
    for (const QString &lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(useLanguage(lang));
        for (const QSize size : sizes) {
            shoot(size, lang,
                  QStringLiteral("%1/%2-%3-%4x%5.png")
                      .arg(dir, name, lang)
                      .arg(size.width())
                      .arg(size.height()));
            if (QTest::currentTestFailed()) {
                break;
            }
        }
        if (QTest::currentTestFailed()) {
            break;
        }
    }
    useLanguage(QStringLiteral("en"));
}

QString uniqueId(const QString &base)
{
    return base + QLatin1Char('-') + QString::number(QCoreApplication::applicationPid());
}

QString saveProfile(ui::ProfileStore &store, const Endpoint &e, const QString &name, bool readOnly)
{
    ui::ConnectionProfile p;
    p.name = name;
    p.host = e.host.isEmpty() ? QStringLiteral("127.0.0.1") : e.host;
    p.port = e.port;
    p.db = e.db;
    p.readOnly = readOnly;
    return store.save(p, QString());
}

QWidget *showPage(ui::MainWindow &window, int index)
{
    window.showPage(index);
    return window.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentWidget();
}

bool showWindow(QWidget &window, QSize size)
{
    window.resize(size);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

PageHarness::PageHarness()
{
    useTestSettings();
    m_store = std::make_unique<ui::ProfileStore>();
    m_store->setKeyringEnabled(false);
    m_controller = std::make_unique<ui::ConnectionController>(m_store.get());
}

PageHarness::~PageHarness() = default;

QString PageHarness::addProfile(const Endpoint &e, const QString &name)
{
    return saveProfile(*m_store, e, name);
}

QString PageHarness::fixtureProfile()
{
    if (m_fixtureProfile.isEmpty()) {
        m_fixtureProfile = addProfile(redisEndpoint(), QStringLiteral("fixture"));
    }
    return m_fixtureProfile;
}

void PageHarness::connectTo(const Endpoint &e)
{
    m_controller->connectTo(addProfile(e));
}

bool PageHarness::connect(const Endpoint &e, int timeoutMs)
{
    connectTo(e);
    return QTest::qWaitFor([this] { return m_controller->state().isUp(); }, timeoutMs);
}

bool PageHarness::show(QWidget *page, QSize size, int navRow)
{
    m_page = page;
    if (navRow < 0) {
        m_window.reset(page);
    } else {
        // The console's frame as MainWindow draws it: a dark navigation column, then the page.
        m_window = std::make_unique<QWidget>();
        auto *box = new QHBoxLayout(m_window.get());
        box->setContentsMargins(0, 0, 0, 0);
        box->setSpacing(0);
        auto *nav = new QListWidget(m_window.get());
        nav->setFixedWidth(160);
        nav->setFrameShape(QFrame::NoFrame);
        nav->setFocusPolicy(Qt::NoFocus);
        nav->setStyleSheet(QStringLiteral(
            "QListWidget { background: #262a31; color: #d8dde6; border: none; padding-top: "
            "10px; font-size: 11pt; }"
            "QListWidget::item { padding: 9px 12px; }"
            "QListWidget::item:selected { background: #3b6fb6; color: white; }"));
        for (const char *name : {"Connection", "Rules", "Keys", "Simulation", "Monitor", "Load"}) {
            nav->addItem(QString::fromLatin1(name));
        }
        nav->setCurrentRow(navRow);
        page->setParent(m_window.get());
        box->addWidget(nav);
        box->addWidget(page, 1);
    }
    return showWindow(*m_window, size);
}

bool PageHarness::shoot(const QString &name) const
{
    return m_window && m_window->grab().save(screenshotPath(name));
}

} // namespace sluice::test
