#pragma once

#include "tone.h"

#include <QMargins>
#include <QWidget>

class QHBoxLayout;
class QVBoxLayout;
class QLabel;
class QPushButton;
class QSplitter;

namespace sluice::ui {

// The top of every page (CONSOLE.md "Frame"): the title, badges beside it ("unsaved
// changes"), the page's actions on the right, and a one-line blurb below that says what the
// page is for. The static helpers make the page's other headings and notes look the same.
class PageHeader : public QWidget
{
    Q_OBJECT
public:
    explicit PageHeader(const QString &title, const QString &blurb = {}, QWidget *parent = nullptr);

    // Beside the title, left of the stretch.
    void addBadge(QWidget *badge);
    // On the right, in the order added.
    void addAction(QWidget *action);
    // A push button added on the right (enabled or not), named `objectName`.
    QPushButton *addButton(const QString &text, const QString &objectName,
                           const QString &toolTip = {}, bool enabled = true);
    QLabel *blurb() const { return m_blurb; }
    void setBlurb(const QString &text);

    // A bold heading: scale 1.6 for a page title, 1.2 for a pane, 1.0 for a section.
    // A push button named `objectName` (the tests find it by it), with its tooltip.
    static QPushButton *button(const QString &text, const QString &objectName, QWidget *parent,
                               const QString &toolTip = {});
    // A layout of type Box (QHBoxLayout, QVBoxLayout, QGridLayout) on `widget`, with its
    // spacing and margins: the kit's one way of nesting a row or a column.
    template <typename Box>
    static Box *layoutOn(QWidget *widget, int spacing, QMargins margins = {})
    {
        auto *box = new Box(widget);
        box->setContentsMargins(margins);
        box->setSpacing(spacing);
        return box;
    }
    // The page's own layout, with the console's margins and spacing (every page the same).
    static QVBoxLayout *pageLayout(QWidget *page);
    static QLabel *heading(const QString &text, qreal scale, QWidget *parent);
    // The two panes of `split` share its room first:second as it grows or shrinks, starting
    // at `sizes` when given.
    static void shareSplit(QSplitter *split, int first, int second, const QList<int> &sizes = {});
    // A word-wrapped label named `objectName` whose text the user can select and copy (an
    // address, an error, a key), in `format`.
    static QLabel *selectable(const QString &objectName, QWidget *parent,
                              Qt::TextFormat format = Qt::AutoText);
    // A word-wrapped note in the muted tone (or `color`).
    static QLabel *note(QWidget *parent, const QColor &color = tone::muted());
    // The looks of heading() and note() on a label made elsewhere (an ElidedLabel).
    static void styleHeading(QLabel *label, qreal scale);
    static void styleNote(QLabel *label, const QColor &color = tone::muted());
    // A small rounded badge in a tone ("unsaved changes").
    static QLabel *badge(const QString &text, Tone tone, QWidget *parent);

private:
    QHBoxLayout *m_row;
    QLabel *m_blurb;
    int m_badges = 0;
};

} // namespace sluice::ui
