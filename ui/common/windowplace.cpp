#include "windowplace.h"

#include <QGuiApplication>
#include <QScreen>

namespace sluice::ui::windowplace {

QRect fit(const QRect &wanted, const QList<QRect> &screens, const QSize &minimum)
{
    if (screens.isEmpty()) {
        return wanted;
    }
    QRect room = screens.first();
    qint64 best = 0;
    for (const QRect &s : screens) {
        const QRect both = s.intersected(wanted);
        const qint64 area = both.isEmpty() ? 0 : qint64(both.width()) * both.height();
        if (area > best) {
            best = area;
            room = s;
        }
    }
    QSize size = wanted.size().expandedTo(minimum).boundedTo(room.size());
    if (!size.isValid() || size.isEmpty()) {
        size = minimum.isValid() ? minimum.boundedTo(room.size()) : room.size();
    }
    const int x = qBound(room.left(), wanted.x(), room.left() + room.width() - size.width());
    const int y = qBound(room.top(), wanted.y(), room.top() + room.height() - size.height());
    return {QPoint(x, y), size};
}

QRect fitOnScreens(const QRect &wanted, const QSize &minimum)
{
    QList<QRect> rooms;
    if (const QScreen *primary = QGuiApplication::primaryScreen()) {
        rooms << primary->availableGeometry();
    }
    const QList<QScreen *> screens = QGuiApplication::screens();
    for (const QScreen *s : screens) {
        if (s != QGuiApplication::primaryScreen()) {
            rooms << s->availableGeometry();
        }
    }
    return fit(wanted, rooms, minimum);
}

} // namespace sluice::ui::windowplace
