#pragma once

#include "core/limiter/headers.h"

#include <QByteArray>
#include <QString>

namespace sluice::serve {

using headers::HeaderList;

// Responses of the check service, formatted whole: HttpServer writes them as they are, in the
// order of the requests.

QByteArray reasonPhrase(int status);

// One HTTP/1.1 response with a JSON body: status line, Content-Type, Content-Length,
// Cache-Control: no-store, `headers`, and "Connection: close" when `close`.
QByteArray formatResponse(int status, const HeaderList &headers, const QByteArray &body,
                          bool close);

// {"status":400,"error":"missing_parameter","message":"..."}: every error names the problem.
QByteArray errorBody(int status, const QString &code, const QString &message);

} // namespace sluice::serve
