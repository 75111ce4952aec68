#pragma once

#include "pagemessage.h"

#include <QFrame>
#include <QList>

#include <functional>

class QHBoxLayout;
class QLabel;
class QAbstractButton;
class QPixmap;
class QPushButton;

namespace sluice::ui {

class FlowLayout;

// The one message a page shows in answer to the last action or event: a tone (a coloured
// border and a mark, so it never rests on colour alone), a bold headline, a muted detail,
// buttons for what to do next, and an optional Dismiss. Pages keep their own object names
// (the frame's and the text label's), which the widget tests look for.
//
// A standing banner (the Keys page's health) also has an icon in place of the mark, buttons
// that stay (addButton: the owner shows and enables them; while busy the ones that wait are
// off), and a "Why?" toggle that opens an explanation under the text.
class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    struct Action
    {
        QString text;
        QString objectName;
        std::function<void()> run; // the banner hides before it runs
    };

    explicit MessageBanner(const QString &frameName, const QString &textName,
                           QWidget *parent = nullptr);

    // Adds a Dismiss button (flat text, or a small ✕ when `compact`).
    void setDismissible(const QString &objectName, bool compact = false);

    // The one entry point: shows `message` in its form with `actions` as buttons (hidden when
    // the message is empty). The standing buttons stay.
    void showMessage(const PageMessage &message, const QList<Action> &actions = {});

    // An icon left of the text (a null pixmap: none).
    void setIcon(const QPixmap &icon);
    // A button that stays across messages, right of the text; `waitsWhenBusy`: off while busy.
    QPushButton *addButton(const QString &text, const QString &objectName,
                           bool waitsWhenBusy = false);
    // Whether a standing button is enabled when the banner is not busy.
    void setButtonEnabled(QPushButton *button, bool enabled);
    // An action runs: the buttons that wait are off until it ends.
    void setBusy(bool busy);
    bool isBusy() const { return m_busy; }
    // A checkable "Why?" button before the standing ones that shows `text` under the message.
    void setExplanation(const QString &buttonText, const QString &buttonName,
                        const QString &labelName, const QString &text);
    // The explanation goes with the problem: without one the toggle hides (and closes).
    void setExplanationAvailable(bool available);

    Tone tone() const { return m_tone; }
    QString text() const;
    // The buttons sit under the text: the banner is too narrow for them beside it.
    bool buttonsBelow() const { return m_below; }

    // Never wider than its buttons alone: a banner must not widen the window. When the
    // buttons do not fit beside the text they move under it.
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void placeButtons();
    void restyle();
    void setTone(Tone tone);
    void setActions(const QList<Action> &actions);
    void setText(Qt::TextFormat format, const QString &text, bool bold, const QString &tooltip);
    void updateButtons();

    QHBoxLayout *m_row;
    QWidget *m_buttonBox; // the action and standing buttons, beside the text or under it
    QLabel *m_icon;
    QLabel *m_text;
    FlowLayout *m_flow;                   // in m_buttonBox: the actions, Why?, the standing buttons
    QList<QPushButton *> m_actionButtons; // the message's own, first in m_flow
    QAbstractButton *m_dismiss = nullptr;
    QPushButton *m_whyButton = nullptr;
    QLabel *m_why = nullptr;
    struct Standing
    {
        QPushButton *button;
        bool waits;
        bool enabled;
    };
    QList<Standing> m_buttons;
    bool m_busy = false;
    bool m_below = false;
    Tone m_tone = Tone::Info;
};

} // namespace sluice::ui
