#include "wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QScrollBar>
#include <QWheelEvent>

namespace sluice::ui {

void WheelGuard::install(QApplication *app)
{
    if (!app ||
        app->findChild<WheelGuard *>(QStringLiteral("wheelGuard"), Qt::FindDirectChildrenOnly)) {
        return;
    }
    auto *guard = new WheelGuard(app);
    guard->setObjectName(QStringLiteral("wheelGuard"));
    app->installEventFilter(guard);
}

bool WheelGuard::guards(const QObject *watched)
{
    const auto *w = qobject_cast<const QWidget *>(watched);
    if (!w || w->hasFocus()) {
        return false;
    }
    if (qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractSpinBox *>(w)) {
        return true;
    }
    // A slider, but not a scroll bar: scrolling is what the wheel is for there.
    return qobject_cast<const QAbstractSlider *>(w) && !qobject_cast<const QScrollBar *>(w);
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::Wheel || !guards(watched)) {
        return QObject::eventFilter(watched, event);
    }
    // The scroll area the widget sits in scrolls instead, by the same turn.
    auto *wheel = static_cast<QWheelEvent *>(event);
    for (QWidget *p = static_cast<QWidget *>(watched)->parentWidget(); p; p = p->parentWidget()) {
        auto *area = qobject_cast<QAbstractScrollArea *>(p);
        if (!area) {
            continue;
        }
        const bool horizontal = wheel->angleDelta().x() != 0 && wheel->angleDelta().y() == 0;
        QScrollBar *bar = horizontal ? area->horizontalScrollBar() : area->verticalScrollBar();
        if (!bar || bar->minimum() == bar->maximum()) {
            continue; // nothing to scroll here: the area around it may
        }
        QWheelEvent copy(wheel->position(), wheel->globalPosition(), wheel->pixelDelta(),
                         wheel->angleDelta(), wheel->buttons(), wheel->modifiers(), wheel->phase(),
                         wheel->inverted(), wheel->source());
        QApplication::sendEvent(bar, &copy);
        break;
    }
    return true; // the value stays as the user left it
}

} // namespace sluice::ui
