#include "endpoint.h"

#include <QUrl>

namespace sluice {

namespace {

// A URL as the user typed it, with any password masked, for messages.
QString masked(const QString &url)
{
    const qsizetype at = url.lastIndexOf(QLatin1Char('@'));
    const qsizetype scheme = url.indexOf(QStringLiteral("://"));
    if (at < 0 || scheme < 0 || at < scheme) {
        return url;
    }
    const QString auth = url.mid(scheme + 3, at - scheme - 3);
    const qsizetype colon = auth.indexOf(QLatin1Char(':'));
    if (colon < 0) {
        return url;
    }
    return url.left(scheme + 3) + auth.left(colon) + QStringLiteral(":***") + url.mid(at);
}

Error bad(const QString &url, const QString &what)
{
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("invalid Redis URL '%1': %2; expected "
                                      "redis://[user:password@]host:port[/db]")
                           .arg(masked(url), what));
}

} // namespace

Result<Endpoint> Endpoint::parse(const QString &url)
{
    if (url.trimmed().isEmpty()) {
        return bad(url, QStringLiteral("it is empty"));
    }
    if (!url.contains(QStringLiteral("://"))) {
        return bad(url, QStringLiteral("the scheme redis:// is missing"));
    }
    const QUrl u(url, QUrl::StrictMode);
    if (!u.isValid()) {
        return bad(url, u.errorString());
    }
    if (u.scheme() != QLatin1String("redis")) {
        return bad(url, u.scheme().isEmpty()
                            ? QStringLiteral("the scheme redis:// is missing")
                            : QStringLiteral("the scheme '%1' is not supported (only redis://)")
                                  .arg(u.scheme()));
    }
    Endpoint e;
    if (u.host().isEmpty()) {
        return bad(url, QStringLiteral("the host is missing"));
    }
    e.host = u.host();
    if (u.port() == 0) {
        return bad(url, QStringLiteral("port 0 is not a port"));
    }
    if (u.port() > 0) {
        e.port = quint16(u.port());
    }
    const QString path = u.path();
    if (!path.isEmpty() && path != QLatin1String("/")) {
        bool ok = false;
        const int db = path.mid(1).toInt(&ok);
        if (!ok || db < 0 || path.mid(1).contains(QLatin1Char('/'))) {
            return bad(url,
                       QStringLiteral("the database '%1' is not a number >= 0").arg(path.mid(1)));
        }
        e.db = db;
    }
    if (u.hasQuery() || u.hasFragment()) {
        return bad(url, QStringLiteral("query strings and fragments are not supported"));
    }
    e.user = u.userName(QUrl::FullyDecoded);
    e.password = u.password(QUrl::FullyDecoded);
    if (!e.user.isEmpty() && e.password.isEmpty() && !u.userInfo().contains(QLatin1Char(':'))) {
        // redis://secret@host: a lone user-info part is the password (as redis-cli -u reads it).
        e.password = e.user;
        e.user.clear();
    }
    return e;
}

QString Endpoint::display() const
{
    const QString h =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    QString s = h + QLatin1Char(':') + QString::number(port);
    if (db != 0) {
        s += QLatin1Char('/') + QString::number(db);
    }
    return s;
}

QString Endpoint::safeUrl() const
{
    QString s = QStringLiteral("redis://");
    if (!user.isEmpty()) {
        s += user + QLatin1Char('@');
    }
    return s + display();
}

} // namespace sluice
