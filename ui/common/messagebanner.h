#pragma once

#include "tone.h"

#include <QFrame>
#include <QList>

#include <functional>

class QHBoxLayout;
class QLabel;
class QAbstractButton;

namespace sluice::ui {

// The one message a page shows in answer to the last action or event: a tone (a coloured
// border and a mark, so it never rests on colour alone), a bold headline, a muted detail,
// buttons for what to do next, and an optional Dismiss. Pages keep their own object names
// (the frame's and the text label's), which the widget tests look for.
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

    // Headline in bold with the tone's mark, the detail below it (line breaks kept).
    void showMessage(Tone tone, const QString &headline, const QString &detail = {},
                     const QList<Action> &actions = {});
    // Rich text as given (the caller escapes and marks it).
    void showRich(Tone tone, const QString &html, const QList<Action> &actions = {});
    // Plain text, no mark; `tooltip` holds the long version.
    void showPlain(Tone tone, const QString &text, const QString &tooltip = {});

    Tone tone() const { return m_tone; }
    QString text() const;

private:
    void setTone(Tone tone);
    void setActions(const QList<Action> &actions);

    QLabel *m_text;
    QHBoxLayout *m_actions;
    QAbstractButton *m_dismiss = nullptr;
    Tone m_tone = Tone::Info;
};

} // namespace sluice::ui
