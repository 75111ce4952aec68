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
    case 501:
        return QByteArrayLiteral("Not Implemented");
    case 503:
        return QByteArrayLiteral("Service Unavailable");
    default:
        break;
    }
    return QByteArrayLiteral("Status");
}

void writeResponseHead(bytes::ByteWriter &w, int status, qsizetype bodySize)
{
    w.put("HTTP/1.1 ").number(status).put(' ').put(reasonPhrase(status));
    w.put("\r\nContent-Type: application/json\r\nContent-Length: ").number(bodySize);
    w.put("\r\nCache-Control: no-store\r\n");
}

void writeResponseEnd(bytes::ByteWriter &w, QByteArrayView body, bool close)
{
    if (close) {
        w.put("Connection: close\r\n");
    }
    w.put("\r\n").put(body);
}

QByteArray formatResponse(int status, const HeaderList &headers, const QByteArray &body, bool close)
{
    qsizetype size = 160 + body.size();
    for (const auto &[name, value] : headers) {
        size += name.size() + value.size() + 4;
    }
    QByteArray out;
    bytes::ByteWriter w(out, size);
    writeResponseHead(w, status, body.size());
    for (const auto &[name, value] : headers) {
        w.put(name).put(": ").put(value).put("\r\n");
    }
    writeResponseEnd(w, body, close);
    w.finish();
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
