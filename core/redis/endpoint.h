#pragma once

#include "common/result.h"

#include <QString>

namespace sluice {

// Where a Redis server is: parsed from redis://[user:pass@]host:port[/db] (ARCHITECTURE.md).
struct Endpoint
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    int db = 0;
    QString user;     // empty: AUTH with the password only (legacy requirepass)
    QString password; // empty: no AUTH

    // Errors name the URL (without its password) and the part that is wrong.
    static Result<Endpoint> parse(const QString &url);
    // host:port[/db] for messages and the status bar: never the password.
    QString display() const;
    // redis://[user@]host:port[/db], without the password.
    QString safeUrl() const;
};

} // namespace sluice
