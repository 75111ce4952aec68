#include "messagebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace sluice::ui {

MessageBanner::MessageBanner(const QString &frameName, const QString &textName, QWidget *parent)
    : QFrame(parent)
{
    setObjectName(frameName);
    auto *box = new QHBoxLayout(this);
    box->setContentsMargins(12, 8, 12, 8);
    box->setSpacing(10);
    m_text = new QLabel(this);
    m_text->setObjectName(textName);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->addWidget(m_text, 1);
    m_actions = new QHBoxLayout;
    m_actions->setSpacing(6);
    box->addLayout(m_actions);
    setTone(Tone::Info);
    hide();
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
    static_cast<QHBoxLayout *>(layout())->addWidget(m_dismiss, 0, Qt::AlignTop);
}

void MessageBanner::showMessage(Tone t, const QString &headline, const QString &detail,
                                const QList<Action> &actions)
{
    QString html = QStringLiteral("<b>%1</b>").arg((tone::mark(t) + headline).toHtmlEscaped());
    if (!detail.isEmpty()) {
        html += QStringLiteral("<br><span style=\"color:%1;\">%2</span>")
                    .arg(tone::hex(tone::muted()),
                         detail.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    }
    showRich(t, html, actions);
}

void MessageBanner::showRich(Tone t, const QString &html, const QList<Action> &actions)
{
    setTone(t);
    m_text->setTextFormat(Qt::RichText);
    m_text->setText(html);
    m_text->setToolTip({});
    setActions(actions);
    show();
}

void MessageBanner::showPlain(Tone t, const QString &text, const QString &tooltip)
{
    setTone(t);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setText(text);
    m_text->setToolTip(tooltip);
    setActions({});
    show();
}

QString MessageBanner::text() const
{
    return m_text->text();
}

void MessageBanner::setTone(Tone t)
{
    m_tone = t;
    setStyleSheet(QStringLiteral("QFrame#%1 { border: none; border-left: 4px solid %2; "
                                 "background: %3; } QLabel { color: %4; }")
                      .arg(objectName(), tone::hex(tone::color(t)), tone::hex(tone::background(t)),
                           tone::hex(tone::ink())));
}

void MessageBanner::setActions(const QList<Action> &actions)
{
    // Later, not now: this may run inside the clicked() of one of these buttons.
    while (QLayoutItem *item = m_actions->takeAt(0)) {
        if (QWidget *w = item->widget()) {
            w->hide();
            w->setObjectName({});
            w->deleteLater();
        }
        delete item;
    }
    for (const Action &a : actions) {
        auto *b = new QPushButton(a.text, this);
        b->setObjectName(a.objectName);
        connect(b, &QPushButton::clicked, this, [this, run = a.run] {
            hide();
            if (run) {
                run();
            }
        });
        m_actions->addWidget(b, 0, Qt::AlignTop);
    }
}

} // namespace sluice::ui
