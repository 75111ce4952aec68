#pragma once

#include <QMainWindow>

class QAction;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace sluice::ui {

class ConnectionController;
class ConnectionPage;
class ConnectionStatus;
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
    // The app icon in every size it is drawn in.
    static QIcon appIcon();
    // "Version 0.1.0 (git 654a054e1f2b)" from the application's version, for the About box.
    static QString aboutVersion();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    // icon: the name of a PNG in resources/icons/nav/.
    void addNavItem(const QString &name, const QString &icon);
    void buildMenus();
    void onConnectionState(const ConnectionState &state);
    void onKeysHealth();
    void onStatsHealth();
    void saveSettings() const;
    void restoreSettings();

    QListWidget *m_nav = nullptr;
    QStackedWidget *m_pages = nullptr;
    ProfileStore *m_store = nullptr;
    ConnectionController *m_connection = nullptr;
    ConnectionPage *m_connectionPage = nullptr;
    ConnectionStatus *m_status = nullptr;
    QLabel *m_health = nullptr;
    QLabel *m_stats = nullptr; // a statistics failure (StatsWatch)
    RulesPage *m_rulesPage = nullptr;
    KeysPage *m_keysPage = nullptr;
    SimulationPage *m_simulationPage = nullptr;
    MonitorPage *m_monitorPage = nullptr;
    LoadPage *m_loadPage = nullptr;
    WriteGate *m_writeGate = nullptr;
    qint64 m_neverExpiring = 0;
};

} // namespace sluice::ui
