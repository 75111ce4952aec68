#include "pageheader.h"

#include "theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace sluice::ui {

PageHeader::PageHeader(const QString &title, const QString &blurb, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("pageHeader"));
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 6);
    m_row = new QHBoxLayout;
    m_row->setSpacing(8);
    auto *titleLabel = heading(title, 1.6, this);
    titleLabel->setObjectName(QStringLiteral("pageTitle"));
    m_row->addWidget(titleLabel);
    m_row->addStretch(1);
    box->addLayout(m_row);
    m_blurb = note(this);
    m_blurb->setObjectName(QStringLiteral("pageBlurb"));
    box->addWidget(m_blurb);
    setBlurb(blurb);
}

void PageHeader::addBadge(QWidget *badge)
{
    // After the title and the badges so far, before the stretch.
    m_row->insertWidget(1 + m_badges++, badge);
}

void PageHeader::addAction(QWidget *action)
{
    m_row->addWidget(action);
}

QPushButton *PageHeader::addButton(const QString &text, const QString &objectName,
                                   const QString &toolTip, bool enabled)
{
    auto *button = PageHeader::button(text, objectName, this, toolTip);
    button->setEnabled(enabled);
    addAction(button);
    return button;
}

void PageHeader::setBlurb(const QString &text)
{
    m_blurb->setText(text);
    m_blurb->setVisible(!text.isEmpty());
}

QPushButton *PageHeader::button(const QString &text, const QString &objectName, QWidget *parent,
                                const QString &toolTip)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(objectName);
    b->setToolTip(toolTip);
    return b;
}

QVBoxLayout *PageHeader::pageLayout(QWidget *page)
{
    auto *root = PageHeader::layoutOn<QVBoxLayout>(page, 6, {24, 20, 24, 20});
    return root;
}

QLabel *PageHeader::heading(const QString &text, qreal scale, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    styleHeading(l, scale);
    return l;
}

void PageHeader::styleHeading(QLabel *l, qreal scale)
{
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * scale);
    f.setBold(true);
    l->setFont(f);
}

void PageHeader::shareSplit(QSplitter *split, int first, int second, const QList<int> &sizes)
{
    split->setStretchFactor(0, first);
    split->setStretchFactor(1, second);
    if (!sizes.isEmpty()) {
        split->setSizes(sizes);
    }
}

QLabel *PageHeader::selectable(const QString &objectName, QWidget *parent, Qt::TextFormat format)
{
    auto *l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setTextFormat(format);
    return l;
}

QLabel *PageHeader::note(QWidget *parent, const QColor &color)
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    styleNote(l, color);
    return l;
}

void PageHeader::styleNote(QLabel *l, const QColor &color)
{
    QPalette pal = l->palette();
    pal.setColor(QPalette::WindowText, color);
    l->setPalette(pal);
    if (color == tone::muted()) {
        // The muted tone of the theme in use, also after a switch.
        QObject::connect(&Theme::instance(), &Theme::changed, l, [l] {
            QPalette p = l->palette();
            p.setColor(QPalette::WindowText, tone::muted());
            l->setPalette(p);
        });
    }
}

QLabel *PageHeader::badge(const QString &text, Tone t, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    Theme::followStyleSheet(l, [t] {
        return QStringLiteral("color: %1; background: %2; border-radius: 3px; padding: 2px 8px;")
            .arg(tone::hex(tone::text(t)), tone::hex(tone::background(t)));
    });
    return l;
}

} // namespace sluice::ui
