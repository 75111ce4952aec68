#pragma once

#include <QMainWindow>

#include <functional>

class QAction;
class QKeySequence;
class QActionGroup;
class QLabel;
class QMenu;
class QListWidget;
class QStackedWidget;

namespace sluice::ui {

class ConnectionController;
class ConnectionPage;
class ConnectionStatus;
class ElidedLabel;
class ConnectionSwitcher;
class MessageBanner;
class KeysPage;
class LoadPage;
class MonitorPage;
class ProfileStore;
class RulesPage;
class SimulationPage;
class WriteGate;
struct ConnectionState;

// The console's frame (CONSOLE.md "Frame"): a navigation column on the left, one page per
// screen on the right, a status bar at the bottom that always says where the console is
// connected. Geometry and the last page are kept in QSettings ("window/..."). The Rules page
// owns the console's rule set and hands it to the other pages.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Page {
        ConnectionPageIndex,
        RulesPageIndex,
        KeysPageIndex,
        SimulationPageIndex,
        MonitorPageIndex,
        LoadPageIndex
    };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void showPage(int index);
    // Connects the way a start should: the profile used last, or the sandbox on a first start.
    // Separate from the constructor so that tests decide when a window touches Redis.
    void connectAtStart();

    ConnectionController *connection() const { return m_connection; }
    RulesPage *rulesPage() const { return m_rulesPage; }
    KeysPage *keysPage() const { return m_keysPage; }
    SimulationPage *simulationPage() const { return m_simulationPage; }
    MonitorPage *monitorPage() const { return m_monitorPage; }
    LoadPage *loadPage() const { return m_loadPage; }
    // Every page's write actions, off under a read-only profile.
    WriteGate *writeGate() const { return m_writeGate; }
    // The settings were not usable (corrupt, or written by a newer Sluice): the defaults are in
    // use and the banner on top says so. Empty when they were read.
    QString settingsProblem() const { return m_settingsProblem; }
    // The version of the settings this console writes ("settings/version").
    static constexpr int settingsVersion = 1;
    // The first window's size on a screen with `available` room: 80 % of it, at least the
    // first-start size of 1100x700 (less only on a smaller screen).
    static QSize firstSize(const QSize &available);
    // The rule set that was being edited when the console last ran (RulesPage::reopenAtStart).
    bool reopenWork();

    // The app icon in every size it is drawn in.
    static QIcon appIcon();
    // "Version 0.1.0 (git 654a054e1f2b)" from the application's version, for the About box.
    static QString aboutVersion();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    // The constructor's steps, in order.
    void buildFrame();
    void buildPages();
    void connectPages();
    void guardWrites();
    void buildStatusBar();
    void connectConnection();
    // icon: the name of a PNG in resources/icons/nav/.
    void addNavItem(const QString &name, const QString &icon);
    // A page over the connection, its navigation item and its place in the stack, in the
    // order of the calls.
    template <class PageWidget> PageWidget *addPage(const QString &name, const QString &icon);
    void buildMenus();
    // An item of `menu`, named for the tests, with its shortcut and status tip, running `run`.
    QAction *addMenuAction(QMenu *menu, const QString &text, const QString &objectName,
                           const QKeySequence &shortcut, const QString &statusTip,
                           const std::function<void()> &run);
    // A shortcut's action: `own` while `page` shows, and on any other page the Rules page's
    // `onRules`, with the Rules page brought to the front (Ctrl+E, Ctrl+F).
    std::function<void()> ownElseRules(QWidget *page, std::function<void()> own,
                                       std::function<void()> onRules);
    void onConnectionState(const ConnectionState &state);
    void onKeysHealth();
    void onStatsHealth();
    void saveSettings() const;
    void restoreSettings();
    // Reads "settings/version" and checks the file: false (and m_settingsProblem) when it is
    // corrupt or newer, after putting a corrupt file aside.
    bool checkSettings();
    void buildRecentMenu();
    void buildThemeMenu(QMenu *view);
    void applyFrameColours();
    // Quitting: an unsaved profile, then unsaved rules, are asked about; `then` once answered.
    void askBeforeQuitting(std::function<void()> then);
    // The navigation asked for `row`: leaving the Connection page with an unsaved profile asks.
    void onNavigation(int row);

    QListWidget *m_nav = nullptr;
    QStackedWidget *m_pages = nullptr;
    ProfileStore *m_store = nullptr;
    ConnectionController *m_connection = nullptr;
    ConnectionPage *m_connectionPage = nullptr;
    ConnectionStatus *m_status = nullptr;
    QLabel *m_health = nullptr;
    ElidedLabel *m_stats = nullptr; // a statistics failure (StatsWatch)
    RulesPage *m_rulesPage = nullptr;
    KeysPage *m_keysPage = nullptr;
    SimulationPage *m_simulationPage = nullptr;
    MonitorPage *m_monitorPage = nullptr;
    LoadPage *m_loadPage = nullptr;
    WriteGate *m_writeGate = nullptr;
    qint64 m_neverExpiring = 0;

    MessageBanner *m_settingsBanner = nullptr;
    QString m_settingsProblem;
    bool m_settingsUsable = true;   // false: a newer console's file, left as it is
    bool m_settingsReadable = true; // false: corrupt or unknown, the defaults apply
    ConnectionSwitcher *m_switcher = nullptr;
    QMenu *m_recentMenu = nullptr;
    QActionGroup *m_themeGroup = nullptr;
    bool m_closeApproved = false; // the unsaved profile was answered for: close now
    bool m_inCloseEvent = false;  // leave() answered at once, inside closeEvent
};

} // namespace sluice::ui
