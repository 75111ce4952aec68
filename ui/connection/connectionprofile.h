#pragma once

#include "redis/endpoint.h"

#include <QString>

namespace sluice::ui {

// A named way to reach a Redis server, as kept in QSettings. The password is never part of it:
// it lives in the system keyring, or in memory for the session (ProfileStore).
struct ConnectionProfile
{
    QString id; // stable key of the settings group and the keyring entry; empty: not saved yet
    QString name;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    int db = 0;
    QString user;             // empty: the default user
    bool hasPassword = false; // the server wants one (AUTH)

    Endpoint endpoint(const QString &password) const
    {
        Endpoint e;
        e.host = host;
        e.port = port;
        e.db = db;
        e.user = user;
        e.password = hasPassword ? password : QString();
        return e;
    }
};

} // namespace sluice::ui
