#pragma once

#include <QMainWindow>

class QListWidget;
class QStackedWidget;

namespace sluice::ui {

// The console's frame (CONSOLE.md "Frame"): a navigation column on the left, one page per
// screen on the right, a status bar at the bottom. The pages arrive with their issues; until
// then each says what it will do.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    void showPage(int index);

private:
    void addPage(const QString &name, const QString &title, const QString &blurb);

    QListWidget *m_nav = nullptr;
    QStackedWidget *m_pages = nullptr;
};

} // namespace sluice::ui
