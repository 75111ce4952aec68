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
    QByteArray out;
    out.reserve(256 + body.size());
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    out += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) +
           "\r\nCache-Control: no-store\r\n";
    for (const auto &[name, value] : headers) {
        out += name + ": " + value + "\r\n";
    }
    if (close) {
        out += "Connection: close\r\n";
    }
    out += "\r\n";
    out += body;
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
