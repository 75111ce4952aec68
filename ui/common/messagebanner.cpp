#include "messagebanner.h"

#include "flowlayout.h"
#include "pageheader.h"
#include "theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace sluice::ui {

MessageBanner::MessageBanner(const QString &frameName, const QString &textName, QWidget *parent)
    : QFrame(parent)
{
    setObjectName(frameName);
    auto *outer = PageHeader::layoutOn<QVBoxLayout>(this, 6, {12, 8, 12, 8});
    m_row = new QHBoxLayout;
    m_row->setSpacing(10);
    outer->addLayout(m_row);
    m_icon = new QLabel(this);
    m_icon->setFixedSize(20, 20);
    m_icon->hide();
    m_row->addWidget(m_icon, 0, Qt::AlignTop);
    m_text = PageHeader::selectable(textName, this);
    m_row->addWidget(m_text, 1);
    m_buttonBox = new QWidget(this);
    m_flow = new FlowLayout(m_buttonBox, 6);
    m_row->addWidget(m_buttonBox, 0, Qt::AlignTop);
    setTone(Tone::Info);
    connect(&Theme::instance(), &Theme::changed, this, &MessageBanner::restyle);
    hide();
}

QSize MessageBanner::minimumSizeHint() const
{
    // The narrowest arrangement: the buttons under the text, the text wrapped.
    const QMargins m = contentsMargins() + layout()->contentsMargins();
    int beside = m_text->minimumSizeHint().width();
    if (m_icon->isVisible()) {
        beside += m_icon->width() + m_row->spacing();
    }
    if (m_dismiss && m_dismiss->isVisible()) {
        beside += m_dismiss->sizeHint().width() + m_row->spacing();
    }
    const int width = qMax(beside, m_buttonBox->minimumSizeHint().width()) + m.left() + m.right();
    return {width, QFrame::minimumSizeHint().height()};
}

void MessageBanner::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    placeButtons();
}

void MessageBanner::placeButtons()
{
    // Beside the text when the text keeps a readable width (about 40 letters), else under it.
    const QMargins m = contentsMargins() + layout()->contentsMargins();
    int need =
        m.left() + m.right() + m_buttonBox->sizeHint().width() + m_row->spacing() +
        qMax(m_text->minimumSizeHint().width(), m_text->fontMetrics().averageCharWidth() * 40);
    if (m_icon->isVisible()) {
        need += m_icon->width() + m_row->spacing();
    }
    if (m_dismiss && m_dismiss->isVisible()) {
        need += m_dismiss->sizeHint().width() + m_row->spacing();
    }
    const bool below = width() < need;
    if (below == m_below) {
        return;
    }
    m_below = below;
    auto *outer = static_cast<QVBoxLayout *>(layout());
    if (below) {
        m_row->removeWidget(m_buttonBox);
        outer->insertWidget(1, m_buttonBox); // the whole width: the buttons wrap in it
        // Under the text, not under the icon.
        m_buttonBox->setContentsMargins(
            m_icon->isVisible() ? m_icon->width() + m_row->spacing() : 0, 0, 0, 0);
    } else {
        outer->removeWidget(m_buttonBox);
        m_buttonBox->setContentsMargins(0, 0, 0, 0);
        m_row->insertWidget(m_row->indexOf(m_text) + 1, m_buttonBox, 0, Qt::AlignTop);
    }
    updateGeometry();
}

void MessageBanner::setDismissible(const QString &objectName, bool compact)
{
    if (m_dismiss) {
        return;
    }
    if (compact) {
        auto *b = new QToolButton(this);
        b->setText(QStringLiteral(u"\u2715"));
        b->setAutoRaise(true);
        b->setToolTip(tr("Dismiss"));
        m_dismiss = b;
    } else {
        auto *b = new QPushButton(tr("Dismiss"), this);
        b->setFlat(true);
        m_dismiss = b;
    }
    m_dismiss->setObjectName(objectName);
    connect(m_dismiss, &QAbstractButton::clicked, this, &QWidget::hide);
    m_row->addWidget(m_dismiss, 0, Qt::AlignTop);
}

void MessageBanner::setIcon(const QPixmap &icon)
{
    m_icon->setPixmap(icon);
    m_icon->setVisible(!icon.isNull());
}

QPushButton *MessageBanner::addButton(const QString &text, const QString &objectName,
                                      bool waitsWhenBusy)
{
    auto *b = new QPushButton(text, m_buttonBox);
    b->setObjectName(objectName);
    m_flow->addWidget(b);
    placeButtons();
    m_buttons.append({b, waitsWhenBusy, true});
    return b;
}

void MessageBanner::setButtonEnabled(QPushButton *button, bool enabled)
{
    for (Standing &s : m_buttons) {
        if (s.button == button) {
            s.enabled = enabled;
        }
    }
    updateButtons();
}

void MessageBanner::setBusy(bool busy)
{
    m_busy = busy;
    updateButtons();
}

void MessageBanner::updateButtons()
{
    for (const Standing &s : std::as_const(m_buttons)) {
        s.button->setEnabled(s.enabled && !(s.waits && m_busy));
    }
}

void MessageBanner::setExplanation(const QString &buttonText, const QString &buttonName,
                                   const QString &labelName, const QString &text)
{
    if (!m_whyButton) {
        m_whyButton = new QPushButton(m_buttonBox);
        m_whyButton->setCheckable(true);
        m_whyButton->setFlat(true);
        m_whyButton->setCursor(Qt::PointingHandCursor);
        m_flow->insertWidget(int(m_actionButtons.size()), m_whyButton);
        m_why = new QLabel(this);
        m_why->setWordWrap(true);
        m_why->setVisible(false);
        // Under the text, not under the icon.
        m_why->setContentsMargins(m_icon->width() + m_row->spacing(), 0, 0, 2);
        static_cast<QVBoxLayout *>(layout())->addWidget(m_why);
        connect(m_whyButton, &QPushButton::toggled, m_why, &QWidget::setVisible);
    }
    m_whyButton->setText(buttonText);
    m_whyButton->setObjectName(buttonName);
    m_why->setObjectName(labelName);
    m_why->setText(text);
}

void MessageBanner::setExplanationAvailable(bool available)
{
    if (!m_whyButton) {
        return;
    }
    m_whyButton->setVisible(available);
    if (!available) {
        m_whyButton->setChecked(false);
    }
}

void MessageBanner::showMessage(const PageMessage &m, const QList<Action> &actions)
{
    if (m.isEmpty()) {
        hide();
        return;
    }
    setTone(m.tone);
    switch (m.form) {
    case PageMessage::Form::Headline: {
        QString html =
            QStringLiteral("<b>%1</b>").arg((tone::mark(m.tone) + m.headline).toHtmlEscaped());
        if (!m.detail.isEmpty()) {
            html +=
                QStringLiteral("<br><span style=\"color:%1;\">%2</span>")
                    .arg(tone::hex(tone::muted()), m.detail.toHtmlEscaped().replace(
                                                       QLatin1Char('\n'), QStringLiteral("<br>")));
        }
        setText(Qt::RichText, html, false, m.tooltip);
        break;
    }
    case PageMessage::Form::Rich:
        setText(Qt::RichText, m.headline, false, m.tooltip);
        break;
    case PageMessage::Form::Plain:
    case PageMessage::Form::Bold:
        setText(Qt::PlainText, m.headline, m.form == PageMessage::Form::Bold, m.tooltip);
        break;
    }
    setActions(actions);
    show();
}

void MessageBanner::setText(Qt::TextFormat format, const QString &text, bool bold,
                            const QString &tooltip)
{
    QFont f = font();
    f.setBold(bold);
    m_text->setFont(f);
    m_text->setTextFormat(format);
    m_text->setText(text);
    m_text->setToolTip(tooltip);
}

QString MessageBanner::text() const
{
    return m_text->text();
}

void MessageBanner::setTone(Tone t)
{
    m_tone = t;
    restyle();
}

void MessageBanner::restyle()
{
    const Tone t = m_tone;
    setStyleSheet(QStringLiteral("QFrame#%1 { border: none; border-left: 4px solid %2; "
                                 "background: %3; } QLabel { color: %4; }")
                      .arg(objectName(), tone::hex(tone::color(t)), tone::hex(tone::background(t)),
                           tone::hex(tone::ink())));
}

void MessageBanner::setActions(const QList<Action> &actions)
{
    // Later, not now: this may run inside the clicked() of one of these buttons.
    for (QPushButton *w : std::as_const(m_actionButtons)) {
        m_flow->removeWidget(w);
        w->hide();
        w->setObjectName({});
        w->deleteLater();
    }
    m_actionButtons.clear();
    for (const Action &a : actions) {
        auto *b = new QPushButton(a.text, m_buttonBox);
        b->setObjectName(a.objectName);
        connect(b, &QPushButton::clicked, this, [this, run = a.run] {
            hide();
            if (run) {
                run();
            }
        });
        m_flow->insertWidget(int(m_actionButtons.size()), b);
        m_actionButtons.append(b);
    }
    placeButtons();
}

} // namespace sluice::ui
