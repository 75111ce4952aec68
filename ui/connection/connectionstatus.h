#pragma once

#include "connectionstate.h"

#include "ui/common/tone.h"

#include <QWidget>

class QLabel;

namespace sluice::ui {

class ElidedLabel;

// The connection's part of the status bar (CONSOLE.md "Frame"): where the console is connected,
// the server's version, the round trip, and, when the connection is lost, why and when the
// next attempt is ("reconnecting in 4 s"). The colour of the whole bar is the window's
// business: tone() says which.
class ConnectionStatus : public QWidget
{
    Q_OBJECT
public:
    using Tone = ui::Tone; // the kit's; Info is the neutral grey

    explicit ConnectionStatus(QWidget *parent = nullptr);

    void setState(const ConnectionState &state);
    Tone tone() const { return m_tone; }
    QString text() const;

    // The words for a state, without the dot: also the window's accessible description.
    static QString describe(const ConnectionState &state);
    static Tone toneOf(const ConnectionState &state);

private:
    QLabel *m_dot;
    ElidedLabel *m_text;
    Tone m_tone = Tone::Info;
};

} // namespace sluice::ui
