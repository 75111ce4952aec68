#pragma once

#include <QObject>

class QApplication;

namespace sluice::ui {

// The mouse wheel never changes a value the user did not pick (CONSOLE.md "Frame"): a wheel
// turn over a combo box, a spin box or a slider that does not have the keyboard focus goes to
// the scroll area around it, which scrolls the form as the user meant, and the value stays.
// A focused one (clicked, or reached with Tab) takes the wheel as usual. One event filter on
// the application covers every form of the console, dialogs included.
class WheelGuard : public QObject
{
    Q_OBJECT
public:
    // Installs the one guard on `app` (again: nothing more).
    static void install(QApplication *app);
    // Whether `watched` is a value widget the wheel must leave alone now.
    static bool guards(const QObject *watched);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using QObject::QObject;
};

} // namespace sluice::ui
