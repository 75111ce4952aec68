#pragma once

#include "connectionstate.h"

#include <QWidget>

class QGridLayout;
class QLabel;

namespace sluice::ui {

class ConnectionController;

// The Connection page's "This server" section: what the session's server offers beyond Redis
// 7.0 (CL.THROTTLE, a native GCRA, HEXPIRE, CLIENT NO-TOUCH), as the connection worker found
// it with COMMAND INFO at connect, on its own thread (ConnectionState::server), each with what
// it means for Sluice in plain words. Shown once a connection answered; never talks to Redis.
class ServerPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ServerPanel(ConnectionController *controller, QWidget *parent = nullptr);

    // The rows as shown, "yes|CLIENT NO-TOUCH|meaning" one a line (tests).
    QString rowsText() const;

private:
    void onState(const ConnectionState &state);
    void render();

    ConnectionState m_state;
    QLabel *m_title;
    QLabel *m_unknown;
    QGridLayout *m_rows;
    QList<QLabel *> m_marks;
    QList<QLabel *> m_names;
    QList<QLabel *> m_meanings;
};

} // namespace sluice::ui
