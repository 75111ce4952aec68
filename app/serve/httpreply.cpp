#include "httpreply.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sluice::serve {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return QByteArrayLiteral("OK");
    case 400:
        return QByteArrayLiteral("Bad Request");
    case 403:
        return QByteArrayLiteral("Forbidden");
    case 404:
        return QByteArrayLiteral("Not Found");
    case 405:
        return QByteArrayLiteral("Method Not Allowed");
    case 408:
        return QByteArrayLiteral("Request Timeout");
    case 413:
        return QByteArrayLiteral("Content Too Large");
    case 414:
        return QByteArrayLiteral("URI Too Long");
    case 429:
        return QByteArrayLiteral("Too Many Requests");
    case 431:
        return QByteArrayLiteral("Request Header Fields Too Large");
    case 500:
        return QByteArrayLiteral("Internal Server Error");
    case 503:
        return QByteArrayLiteral("Service Unavailable");
    default:
        break;
    }
    return QByteArrayLiteral("Status");
}

QByteArray formatResponse(int status, const HeaderList &headers, const QByteArray &body, bool close)
{
    // Appends only (no temporaries): this runs for every answer.
    qsizetype size = 128 + body.size();
    for (const auto &[name, value] : headers) {
        size += name.size() + value.size() + 4;
    }
    QByteArray out;
    out.reserve(size);
    out.append("HTTP/1.1 ").append(QByteArray::number(status)).append(' ');
    out.append(reasonPhrase(status));
    out.append("\r\nContent-Type: application/json\r\nContent-Length: ");
    out.append(QByteArray::number(body.size())).append("\r\nCache-Control: no-store\r\n");
    for (const auto &[name, value] : headers) {
        out.append(name).append(": ").append(value).append("\r\n");
    }
    if (close) {
        out.append("Connection: close\r\n");
    }
    out.append("\r\n").append(body);
    return out;
}

QByteArray errorBody(int status, const QString &code, const QString &message)
{
    const QJsonObject o{{QStringLiteral("status"), status},
                        {QStringLiteral("error"), code},
                        {QStringLiteral("message"), message}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace sluice::serve
