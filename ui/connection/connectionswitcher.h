#pragma once

#include "connectionstate.h"

#include <QObject>
#include <QString>

class QMenu;
class QToolButton;
class QWidget;

namespace sluice::ui {

class ConnectionController;

// Moving between servers in one click (the status bar's button and File > Connect to): the
// sandbox and every saved profile, the current one checked, each with how it went the last
// time the console used it ("connected 12:04", "failed: connection refused"), kept in the
// settings ("connection/last/<id>") so that it survives a restart.
class ConnectionSwitcher : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionSwitcher(ConnectionController *connection, QObject *parent = nullptr);

    // The status bar's button (objectName "connectionSwitcher"), its menu filled when opened.
    QToolButton *makeButton(QWidget *parent);
    // Fills `menu` with the entries (File > Connect to: filled each time it opens).
    void fill(QMenu *menu);
    // How the profile `id` went the last time ("" when never used).
    static QString lastState(const QString &id);

private:
    void onState(const ConnectionState &state);

    ConnectionController *m_connection;
};

} // namespace sluice::ui
