#pragma once

#include "core/limiter/headers.h"

#include <QByteArray>
#include <QString>

class QTcpSocket;

namespace sluice::serve {

using headers::HeaderList;

// Responses of the check service, written straight to the socket: the service answers after
// the route handler returned (decisions are made on worker threads), so it formats whole
// responses itself rather than holding a QHttpServerResponder.

QByteArray reasonPhrase(int status);

// One HTTP/1.1 response with a JSON body: status line, Content-Type, Content-Length,
// Cache-Control: no-store, `headers`, and "Connection: close" when `close`.
QByteArray formatResponse(int status, const HeaderList &headers, const QByteArray &body,
                          bool close);

// {"status":400,"error":"missing_parameter","message":"..."}: every error names the problem.
QByteArray errorBody(int status, const QString &code, const QString &message);

// Writes a response; with `close` the connection is closed once it is sent.
void writeResponse(QTcpSocket *socket, int status, const HeaderList &headers,
                   const QByteArray &body, bool close);

} // namespace sluice::serve
