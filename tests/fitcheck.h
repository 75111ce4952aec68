#pragma once

// What a person's eye checks on a screen, in code: walks the widget tree of a shown window and
// lists every text that is cut without saying so. A label or a button whose text is wider
// than the widget (or a wrapped label shorter than its text), a header section narrower than
// its title, a combo box narrower than its current text, each without a tooltip that holds the
// whole text; and any of them reaching past the window's edge outside a scroll area.

#include <QString>
#include <QStringList>

class QImage;
class QWidget;

namespace sluice::test {

// One line per problem: "<class> <objectName or parent path> '<text>': needs N px, has M".
QStringList cutTexts(QWidget *window);

// Saves a screenshot small: PNG at the highest compression. False when it was not written.
bool saveSmallPng(const QImage &image, const QString &path);

} // namespace sluice::test
