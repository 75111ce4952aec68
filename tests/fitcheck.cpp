#include "fitcheck.h"

#include "ui/common/elidedlabel.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QHash>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionHeader>
#include <QTextDocument>

#include <algorithm>

namespace sluice::test {

namespace {

QString describe(const QWidget *w, const QString &text)
{
    QString name = w->objectName();
    for (const QWidget *p = w->parentWidget(); name.isEmpty() && p; p = p->parentWidget()) {
        if (!p->objectName().isEmpty()) {
            name = QStringLiteral("(in %1)").arg(p->objectName());
        }
    }
    QString shown = text.simplified();
    if (shown.size() > 60) {
        shown = shown.left(57) + QStringLiteral("...");
    }
    return QStringLiteral("%1 %2 '%3'")
        .arg(QString::fromLatin1(w->metaObject()->className()), name, shown);
}

bool inScrollArea(const QWidget *w)
{
    for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (qobject_cast<const QAbstractScrollArea *>(p)) {
            return true;
        }
    }
    return false;
}

QString plain(const QLabel *l)
{
    QString t = l->text();
    if (l->textFormat() == Qt::RichText ||
        (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(t))) {
        QTextDocument doc;
        doc.setHtml(t);
        return doc.toPlainText();
    }
    if (l->buddy()) {
        t.remove(QLatin1Char('&'));
    }
    return t;
}

// The width a label's text needs on one line.
int oneLineWidth(const QLabel *l)
{
    const QString t = l->text();
    if (l->textFormat() == Qt::RichText ||
        (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(t))) {
        QTextDocument doc;
        doc.setDefaultFont(l->font());
        doc.setDocumentMargin(0);
        doc.setHtml(t);
        return int(doc.idealWidth() + 0.5);
    }
    int widest = 0;
    const QStringList lines = plain(l).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        widest = qMax(widest, l->fontMetrics().horizontalAdvance(line));
    }
    return widest + 2 * l->margin() + qMax(0, l->indent());
}

void checkLabel(QLabel *l, QWidget *window, QStringList &out)
{
    if (l->text().isEmpty() || !l->pixmap().isNull()) {
        return;
    }
    const bool tip = !l->toolTip().isEmpty();
    if (auto *e = qobject_cast<ui::ElidedLabel *>(l)) {
        if (e->isElided() && !tip) {
            out << describe(l, l->text()) + QStringLiteral(": elided without a tooltip");
        }
        return;
    }
    const int has = l->contentsRect().width();
    if (l->wordWrap()) {
        if (l->heightForWidth(l->width()) > l->height() + 2 && !tip) {
            out << describe(l, plain(l)) + QStringLiteral(": needs %1 px of height, has %2")
                                               .arg(l->heightForWidth(l->width()))
                                               .arg(l->height());
        }
    } else {
        const int needs = oneLineWidth(l);
        if (needs > has + 1 && !tip) {
            out << describe(l, plain(l)) +
                       QStringLiteral(": needs %1 px, has %2").arg(needs).arg(has);
        }
    }
    if (!inScrollArea(l)) {
        const QRect r(l->mapTo(window, QPoint(0, 0)), l->size());
        if (r.right() > window->width() + 1 && !tip) {
            out << describe(l, plain(l)) + QStringLiteral(": reaches %1 px, past the window's %2")
                                               .arg(r.right())
                                               .arg(window->width());
        }
    }
}

void checkButton(QAbstractButton *b, QStringList &out)
{
    if (b->text().isEmpty() || !b->toolTip().isEmpty()) {
        return;
    }
    // The style's own measure of what the text and the icon take.
    const int needs = b->sizeHint().width();
    if (needs > b->width() + 1) {
        QString t = b->text();
        out << describe(b, t.remove(QLatin1Char('&'))) +
                   QStringLiteral(": needs %1 px, has %2").arg(needs).arg(b->width());
    }
}

void checkCombo(QComboBox *c, QStringList &out)
{
    if (c->currentText().isEmpty() || !c->toolTip().isEmpty() || c->isEditable()) {
        return;
    }
    QStyleOptionComboBox opt;
    opt.initFrom(c);
    const QRect field =
        c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
    const int needs = c->fontMetrics().horizontalAdvance(c->currentText());
    if (needs > field.width() + 1) {
        out << describe(c, c->currentText()) +
                   QStringLiteral(": needs %1 px, has %2").arg(needs).arg(field.width());
    }
}

void checkHeader(QHeaderView *h, QStringList &out)
{
    QAbstractItemModel *m = h->model();
    if (!m || !h->isVisible()) {
        return;
    }
    // Columns that reach past their view with no scroll bar to reach them are cut.
    if (h->orientation() == Qt::Horizontal) {
        if (auto *view = qobject_cast<QAbstractItemView *>(h->parentWidget());
            view && h->length() > view->viewport()->width() + 1 &&
            !view->horizontalScrollBar()->isVisible()) {
            out << describe(view, QString()) +
                       QStringLiteral(": its columns take %1 px, the view has %2")
                           .arg(h->length())
                           .arg(view->viewport()->width());
        }
    }
    const int count = h->orientation() == Qt::Horizontal ? m->columnCount() : m->rowCount();
    for (int s = 0; s < count; ++s) {
        if (h->isSectionHidden(s) || h->sectionSize(s) <= 0) {
            continue;
        }
        const QString text = m->headerData(s, h->orientation(), Qt::DisplayRole).toString();
        if (text.isEmpty() || h->property("titleTips").toBool() ||
            !m->headerData(s, h->orientation(), Qt::ToolTipRole).isNull()) {
            continue;
        }
        const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
        QFont f = h->font();
        const QVariant font = m->headerData(s, h->orientation(), Qt::FontRole);
        if (font.isValid()) {
            f = font.value<QFont>();
        }
        int needs = QFontMetrics(f).horizontalAdvance(text) + 2 * margin;
        if (h->isSortIndicatorShown() && h->sortIndicatorSection() == s) {
            needs += h->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, h) + margin;
        }
        if (h->orientation() == Qt::Horizontal && needs > h->sectionSize(s) + 1) {
            out << describe(h, text) + QStringLiteral(": section %1 needs %2 px, has %3")
                                           .arg(s)
                                           .arg(needs)
                                           .arg(h->sectionSize(s));
        }
    }
}

} // namespace

QStringList cutTexts(QWidget *window)
{
    QStringList out;
    const QList<QWidget *> all = window->findChildren<QWidget *>();
    for (QWidget *w : all) {
        if (!w->isVisibleTo(window) || w->width() <= 0) {
            continue;
        }
        if (auto *l = qobject_cast<QLabel *>(w)) {
            checkLabel(l, window, out);
        } else if (auto *b = qobject_cast<QAbstractButton *>(w)) {
            checkButton(b, out);
        } else if (auto *c = qobject_cast<QComboBox *>(w)) {
            checkCombo(c, out);
        } else if (auto *h = qobject_cast<QHeaderView *>(w)) {
            checkHeader(h, out);
        }
    }
    return out;
}

bool saveSmallPng(const QImage &image, const QString &path)
{
    // 256 colours: the image's own most frequent ones (the screens are flat colours; an
    // anti-aliased edge takes the nearest). Qt's default table is a fixed colour cube that
    // turns the dark theme's near-blacks navy.
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, int> counts;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            ++counts[line[x]];
        }
    }
    QList<QPair<int, QRgb>> byCount;
    byCount.reserve(counts.size());
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        byCount.append({it.value(), it.key()});
    }
    std::sort(byCount.begin(), byCount.end(),
              [](const auto &a, const auto &b) { return a.first > b.first; });
    QList<QRgb> table;
    for (qsizetype i = 0; i < byCount.size() && i < 256; ++i) {
        table.append(byCount[i].second);
    }
    const QImage indexed =
        rgb.convertToFormat(QImage::Format_Indexed8, table, Qt::ThresholdDither | Qt::AvoidDither);
    return indexed.save(path, "PNG", 0);
}

} // namespace sluice::test
