#pragma once

#include <QList>
#include <QRect>

namespace sluice::ui {

// Where a window may stand (CONSOLE.md "Frame"): always on a screen that is there, never
// larger than its available room. A window saved on a monitor that is gone, or saved larger
// than the screen, lands whole on the screen it overlaps most (else the primary one).
namespace windowplace {

// `wanted` (a window's client rectangle) moved and shrunk into one of `screens` (available
// geometries, the primary first): the screen it overlaps most, else the first. `minimum` is
// kept where the screen has room for it.
QRect fit(const QRect &wanted, const QList<QRect> &screens, const QSize &minimum = {});
// The same on the screens there are now.
QRect fitOnScreens(const QRect &wanted, const QSize &minimum = {});

} // namespace windowplace

} // namespace sluice::ui
