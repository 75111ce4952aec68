#pragma once

// What the console's page tests share (tests/parts: LIBS sluice_pagesupport): the test-mode
// settings, a profile store without the keyring and a ConnectionController over it, connecting
// to the fixture's Redis (or another server) and waiting until the session is up, the page
// shown offscreen at a size (alone or in the console's mock frame), its children by object
// name, and its screenshots, all in one place.

#include "testredis.h"

#include <QSize>
#include <QString>
#include <QWidget>

#include <functional>

#include <memory>

namespace sluice::ui {
class ConnectionController;
class MainWindow;
class ProfileStore;
} // namespace sluice::ui

namespace sluice::test {

// QStandardPaths' test mode and the test organisation: settings and profiles of a test never
// meet the user's. PageHarness calls it; tests without one call it first. A test may name an
// organisation of its own, so that what it leaves never meets another test's.
void useTestSettings(const QString &organization = QStringLiteral("SluiceTest"));
// The same, with the organisation's settings emptied: a test that starts from nothing; they
// are emptied again when the application ends, so that no test class clears them at its end.
void freshTestSettings(const QString &organization = QStringLiteral("SluiceTest"));
// <build>/tests/screenshots/<name>, the folder made: every page test saves its grabs there.
QString screenshotPath(const QString &name);
// "<base>-<pid>": rule ids of this process (the statistics keys live under {sluice}:stats:<id>:,
// outside keyPrefix(), so ids must not meet another process's).
QString uniqueId(const QString &base);
// Saves a profile for `e` (host, port, db) in `store` (a MainWindow's own, or a harness's);
// returns its id.
QString saveProfile(ui::ProfileStore &store, const Endpoint &e,
                    const QString &name = QStringLiteral("test"), bool readOnly = false);
// Installs the console's language `lang` ("en", "zh_CN") in place of the last one: false, with a
// warning saying why, when it could not.
bool useLanguage(const QString &lang);
// A data table of one column, "lang": a row for English ("en") and one for Chinese ("zh_CN").
void languageRows();
// The language of the current row of languageRows(), installed (`installed`: whether it could
// be, as useLanguage says); `zh`: whether it is Chinese.
struct RowLanguage
{
    QString lang;
    bool zh = false;
    bool installed = false;
};
RowLanguage useRowLanguage();
// $SLUICE_SHOTS_DIR, where the screenshots at each size and language go (made when set); empty:
// a test that saves them skips.
QString shotsDir();
// For English, then Chinese, and each size: installs the language and calls shoot(size, lang,
// path), path being "<shotsDir()>/<name>-<lang>-<W>x<H>.png". It stops at the first failed step
// and installs English again at the end.
void inEachLanguage(const QString &name, const QList<QSize> &sizes,
                    const std::function<void(QSize, const QString &, const QString &)> &shoot);
// Shows the console's page `index` and returns it (the current widget of its "pages" stack).
QWidget *showPage(ui::MainWindow &window, int index);
// Resizes, shows and waits until the window is exposed (false: it was not, within 5 s).
bool showWindow(QWidget &window, QSize size = {1280, 800});

class PageHarness
{
public:
    PageHarness();
    ~PageHarness();
    PageHarness(const PageHarness &) = delete;
    PageHarness &operator=(const PageHarness &) = delete;

    ui::ProfileStore &store() { return *m_store; }
    ui::ConnectionController *controller() { return m_controller.get(); }

    // Saves a profile for 127.0.0.1:port of `e` (db included); returns its id.
    QString addProfile(const Endpoint &e, const QString &name = QStringLiteral("test"));
    // A profile of the fixture's Redis, saved on the first call; its id.
    QString fixtureProfile();
    // Connects the controller to `e` (the fixture's Redis by default) without waiting.
    void connectTo(const Endpoint &e = redisEndpoint());
    // The same, and waits until the session is up: false after timeoutMs.
    bool connect(const Endpoint &e = redisEndpoint(), int timeoutMs = 10000);

    // Takes `page` and shows it at `size`: alone, or with navRow >= 0 in the console's mock
    // frame (the navigation column, row navRow selected, left of the page). False when the
    // window was not exposed.
    bool show(QWidget *page, QSize size = {1280, 800}, int navRow = -1);
    QWidget *page() const { return m_page; }
    template <typename P> P *pageAs() const { return static_cast<P *>(m_page); }
    // The frame when there is one, else the page.
    QWidget *window() const { return m_window.get(); }

    // The page's child named `name` (a warning when there is none).
    template <typename T> T *find(const char *name) const
    {
        T *w = m_page ? m_page->findChild<T *>(QString::fromLatin1(name)) : nullptr;
        if (!w) {
            qWarning("no child named %s", name);
        }
        return w;
    }
    // Grabs the window into screenshotPath(name).
    bool shoot(const QString &name) const;

private:
    std::unique_ptr<ui::ProfileStore> m_store;
    std::unique_ptr<ui::ConnectionController> m_controller;
    std::unique_ptr<QWidget> m_window; // last: the page goes before the controller
    QWidget *m_page = nullptr;
    QString m_fixtureProfile;
};

} // namespace sluice::test
