#pragma once

#include "core/common/bytewriter.h"
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

// The same response in two parts, for the answers that write their headers themselves (a
// decision's, on every request): the status line and the three fixed headers, then
// "Connection: close" when `close`, the blank line and the body.
void writeResponseHead(bytes::ByteWriter &w, int status, qsizetype bodySize);
void writeResponseEnd(bytes::ByteWriter &w, QByteArrayView body, bool close);

// {"status":400,"error":"missing_parameter","message":"..."}: every error names the problem.
QByteArray errorBody(int status, const QString &code, const QString &message);

} // namespace sluice::serve
