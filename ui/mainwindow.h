#pragma once

#include <QMainWindow>

class QAction;
class QListWidget;
class QStackedWidget;

namespace sluice::ui {

class ConnectionController;
class ConnectionPage;
class ConnectionStatus;
class ProfileStore;
struct ConnectionState;

// The console's frame (CONSOLE.md "Frame"): a navigation column on the left, one page per
// screen on the right, a status bar at the bottom that always says where the console is
// connected. Geometry and the last page are kept in QSettings ("window/..."). The Rules, Keys,
// Simulation and Monitor pages arrive with their issues; until then each says what it will do.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Page { ConnectionPageIndex, RulesPage, KeysPage, SimulationPage, MonitorPage };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void showPage(int index);
    // Connects the way a start should: the profile used last, or the sandbox on a first start.
    // Separate from the constructor so that tests decide when a window touches Redis.
    void connectAtStart();

    ConnectionController *connection() const { return m_connection; }
    // The app icon in every size it is drawn in.
    static QIcon appIcon();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    // icon: the name of a PNG in resources/icons/nav/.
    void addPage(const QString &icon, const QString &name, const QString &title,
                 const QString &blurb, const QString &status);
    void addNavItem(const QString &name, const QString &icon);
    void buildMenus();
    void onConnectionState(const ConnectionState &state);
    void saveSettings() const;
    void restoreSettings();

    QListWidget *m_nav = nullptr;
    QStackedWidget *m_pages = nullptr;
    ProfileStore *m_store = nullptr;
    ConnectionController *m_connection = nullptr;
    ConnectionPage *m_connectionPage = nullptr;
    ConnectionStatus *m_status = nullptr;
};

} // namespace sluice::ui
