#include "endpoint.h"

#include <QUrl>

namespace sluice {

namespace {

const QString expected =
    QStringLiteral("expected redis://[user:password@]host:port[/db], rediss://... (TLS), "
                   "unix:///path/redis.sock[?db=N] or "
                   "redis+sentinel://[user:password@]host:port[,host:port...]/master-name[/db]; "
                   "several host:port after redis:// or rediss:// name a Redis Cluster");

Error bad(const QString &url, const QString &what)
{
    return Error::make(
        Error::Kind::Invalid,
        QStringLiteral("invalid Redis URL '%1': %2; %3").arg(maskedUrl(url), what, expected));
}

// The user-info part of scheme://userinfo@rest: up to the last '@' before the path. For
// unix://, the path starts with '/', so the part ends at the "@/" that starts it.
qsizetype userInfoEnd(const QString &rest, bool unixSocket)
{
    if (unixSocket) {
        return rest.startsWith(QLatin1Char('/')) ? -1 : rest.indexOf(QStringLiteral("@/"));
    }
    return rest.lastIndexOf(QLatin1Char('@'));
}

Result<quint16> portOf(const QString &url, const QString &text)
{
    bool ok = false;
    const uint p = text.toUInt(&ok);
    if (!ok || text.startsWith(QLatin1Char('+'))) {
        return bad(url, QStringLiteral("the port '%1' is not a number").arg(text));
    }
    if (p == 0 || p > 65535) {
        return bad(url, QStringLiteral("the port %1 is not between 1 and 65535").arg(text));
    }
    return quint16(p);
}

// host[:port] or [v6]:port
Result<HostPort> hostPortOf(const QString &url, const QString &text, quint16 defaultPort)
{
    HostPort hp;
    hp.port = defaultPort;
    QString portText;
    bool hasColon = false;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1Char(']'));
        if (close < 0) {
            return bad(url, QStringLiteral("the IPv6 address '%1' has no closing ']'").arg(text));
        }
        hp.host = text.mid(1, close - 1);
        const QString after = text.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':'))) {
                return bad(url,
                           QStringLiteral("'%1' after the IPv6 address is not :port").arg(after));
            }
            portText = after.mid(1);
            hasColon = true;
        }
    } else {
        const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
        if (colon >= 0 && text.indexOf(QLatin1Char(':')) != colon) {
            return bad(
                url, QStringLiteral("the IPv6 address '%1' needs brackets: [addr]:port").arg(text));
        }
        hp.host = colon >= 0 ? text.left(colon) : text;
        if (colon >= 0) {
            portText = text.mid(colon + 1);
            hasColon = true;
        }
    }
    if (hp.host.isEmpty()) {
        return bad(url, QStringLiteral("the host is missing"));
    }
    for (const QChar c : std::as_const(hp.host)) {
        if (c.isSpace() || c == QLatin1Char('/') || c == QLatin1Char('?') ||
            c == QLatin1Char('#')) {
            return bad(url,
                       QStringLiteral("the host '%1' is not a host name or address").arg(hp.host));
        }
    }
    if (hasColon && portText.isEmpty()) {
        // "host:" with nothing after it
        return bad(url, QStringLiteral("the port after '%1:' is missing").arg(hp.host));
    }
    if (!portText.isEmpty()) {
        auto p = portOf(url, portText);
        if (!p) {
            return p.error();
        }
        hp.port = *p;
    }
    return hp;
}

Result<int> dbOf(const QString &url, const QString &text)
{
    bool ok = false;
    const int db = text.toInt(&ok);
    if (!ok || db < 0 || text.startsWith(QLatin1Char('+'))) {
        return bad(url, QStringLiteral("the database '%1' is not a number >= 0").arg(text));
    }
    return db;
}

} // namespace

QString SshOptions::display() const
{
    QString s = user.isEmpty() ? QString() : user + QLatin1Char('@');
    s += host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    if (port != 22) {
        s += QLatin1Char(':') + QString::number(port);
    }
    return s;
}

QString HostPort::display() const
{
    const QString h =
        host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return h + QLatin1Char(':') + QString::number(port);
}

UserInfoSpan userInfoSpan(const QString &url)
{
    UserInfoSpan span;
    const qsizetype scheme = url.indexOf(QStringLiteral("://"));
    if (scheme < 0) {
        // No scheme: still never echo something that looks like user:pass@.
        span.at = url.lastIndexOf(QLatin1Char('@'));
        span.start = span.passwordStart = span.at < 0 ? -1 : 0;
        return span;
    }
    const QString rest = url.mid(scheme + 3);
    const bool unixSocket =
        url.left(scheme).compare(QLatin1String("unix"), Qt::CaseInsensitive) == 0;
    qsizetype at = userInfoEnd(rest, unixSocket);
    if (at < 0 && unixSocket && !rest.startsWith(QLatin1Char('/'))) {
        // A malformed unix URL ("unix://u:pw@host", found by fuzz_endpoint): mask all the same.
        at = rest.lastIndexOf(QLatin1Char('@'));
    }
    if (at < 0) {
        return span;
    }
    span.start = scheme + 3;
    span.at = span.start + at;
    const qsizetype colon = rest.left(at).indexOf(QLatin1Char(':'));
    span.passwordStart = colon < 0 ? span.start : span.start + colon + 1;
    return span;
}

QString maskedUrl(const QString &url)
{
    const UserInfoSpan s = userInfoSpan(url);
    return s.found() ? url.left(s.passwordStart) + QStringLiteral("***") + url.mid(s.at) : url;
}

QString urlWithoutPassword(const QString &url)
{
    const UserInfoSpan s = userInfoSpan(url);
    if (!s.found() || url.indexOf(QStringLiteral("://")) < 0) {
        return url;
    }
    // A lone password (or ":pass") leaves no user: the whole user info goes, '@' included.
    if (s.passwordStart <= s.start + 1) {
        return url.left(s.start) + url.mid(s.at + 1);
    }
    return url.left(s.passwordStart) + url.mid(s.at);
}

Result<Endpoint> Endpoint::parse(const QString &url)
{
    if (url.trimmed().isEmpty()) {
        return bad(url, QStringLiteral("it is empty"));
    }
    const qsizetype schemeEnd = url.indexOf(QStringLiteral("://"));
    if (schemeEnd < 0) {
        return bad(url, QStringLiteral("the scheme (redis://, rediss://, unix://, "
                                       "redis+sentinel://) is missing"));
    }
    const QString scheme = url.left(schemeEnd).toLower();
    Endpoint e;
    if (scheme == QLatin1String("redis")) {
        e.kind = Kind::Tcp;
    } else if (scheme == QLatin1String("rediss")) {
        e.kind = Kind::Tcp;
        e.tls.enabled = true;
    } else if (scheme == QLatin1String("unix")) {
        e.kind = Kind::Unix;
    } else if (scheme == QLatin1String("redis+sentinel") ||
               scheme == QLatin1String("rediss+sentinel")) {
        e.kind = Kind::Sentinel;
        e.tls.enabled = scheme.startsWith(QLatin1String("rediss"));
    } else {
        return bad(url, scheme.isEmpty()
                            ? QStringLiteral("the scheme is missing")
                            : QStringLiteral("the scheme '%1' is not supported").arg(scheme));
    }
    QString rest = url.mid(schemeEnd + 3);
    if (const qsizetype hash = rest.indexOf(QLatin1Char('#')); hash >= 0) {
        return bad(url, QStringLiteral("fragments (#...) are not supported"));
    }

    // User info: user:password, :password, or a lone part that is the password (as redis-cli
    // -u reads it).
    if (const qsizetype at = userInfoEnd(rest, e.kind == Kind::Unix); at >= 0) {
        const QString info = rest.left(at);
        rest = rest.mid(at + 1);
        const qsizetype colon = info.indexOf(QLatin1Char(':'));
        if (colon < 0) {
            e.password = QUrl::fromPercentEncoding(info.toUtf8());
        } else {
            e.user = QUrl::fromPercentEncoding(info.left(colon).toUtf8());
            e.password = QUrl::fromPercentEncoding(info.mid(colon + 1).toUtf8());
        }
    }

    QString query;
    if (const qsizetype q = rest.indexOf(QLatin1Char('?')); q >= 0) {
        query = rest.mid(q + 1);
        rest.truncate(q);
    }

    if (e.kind == Kind::Unix) {
        if (!rest.startsWith(QLatin1Char('/'))) {
            return bad(url, QStringLiteral("the socket path must be absolute (unix:///path)"));
        }
        e.socketPath = QUrl::fromPercentEncoding(rest.toUtf8());
        if (e.socketPath.size() > 107) {
            return bad(url, QStringLiteral("the socket path is longer than 107 bytes"));
        }
        e.host.clear();
        e.port = 0;
        if (!query.isEmpty()) {
            if (!query.startsWith(QLatin1String("db="))) {
                return bad(url,
                           QStringLiteral("'%1' is not a known option (only db=N)").arg(query));
            }
            auto db = dbOf(url, query.mid(3));
            if (!db) {
                return db.error();
            }
            e.db = *db;
        }
        return e;
    }
    if (!query.isEmpty()) {
        return bad(url, QStringLiteral("query strings are only for unix:// (?db=N)"));
    }

    const qsizetype slash = rest.indexOf(QLatin1Char('/'));
    const QString hosts = slash < 0 ? rest : rest.left(slash);
    const QString path = slash < 0 ? QString() : rest.mid(slash + 1);
    const QStringList hostList = hosts.split(QLatin1Char(','));
    if (hosts.isEmpty()) {
        return bad(url, QStringLiteral("the host is missing"));
    }
    const quint16 defaultPort = e.kind == Kind::Sentinel ? 26379 : 6379;
    if (e.kind == Kind::Sentinel) {
        for (const QString &h : hostList) {
            auto hp = hostPortOf(url, h, defaultPort);
            if (!hp) {
                return hp.error();
            }
            e.sentinels << *hp;
        }
        const QStringList parts = path.split(QLatin1Char('/'));
        if (path.isEmpty() || parts.value(0).isEmpty()) {
            return bad(url, QStringLiteral("the master name is missing (.../master-name)"));
        }
        if (parts.size() > 2) {
            return bad(url, QStringLiteral("'%1' has more than /master-name/db").arg(path));
        }
        e.masterName = QUrl::fromPercentEncoding(parts[0].toUtf8());
        if (parts.size() == 2 && !parts[1].isEmpty()) {
            auto db = dbOf(url, parts[1]);
            if (!db) {
                return db.error();
            }
            e.db = *db;
        }
        // host/port name the master once found.
        e.host.clear();
        e.port = 0;
        return e;
    }
    for (const QString &h : hostList) {
        auto hp = hostPortOf(url, h, defaultPort);
        if (!hp) {
            return hp.error();
        }
        e.seeds << *hp;
    }
    e.host = e.seeds.front().host;
    e.port = e.seeds.front().port;
    if (e.seeds.size() == 1) {
        e.seeds.clear();
    }
    if (!path.isEmpty()) {
        auto db = dbOf(url, path);
        if (!db) {
            return db.error();
        }
        e.db = *db;
    }
    if (e.isCluster() && e.db != 0) {
        return bad(url, QStringLiteral("several hosts name a Redis Cluster, which has database 0 "
                                       "only (drop /%1)")
                            .arg(e.db));
    }
    return e;
}

Result<Endpoint> Endpoint::parseAll(const QStringList &urls)
{
    if (urls.size() == 1) {
        return parse(urls.front());
    }
    Endpoint out;
    for (qsizetype i = 0; i < urls.size(); ++i) {
        auto e = parse(urls[i]);
        if (!e) {
            return e.error();
        }
        if (e->kind != Kind::Tcp || e->db != 0) {
            return bad(urls[i], QStringLiteral("several URLs name the seeds of one Redis Cluster: "
                                               "each must be redis:// or rediss:// host:port, "
                                               "without a database"));
        }
        const QList<HostPort> seeds =
            e->seeds.isEmpty() ? QList<HostPort>{HostPort{e->host, e->port}} : e->seeds;
        if (i == 0) {
            out = *e;
            out.seeds.clear();
        } else if (e->tls.enabled != out.tls.enabled) {
            return bad(urls[i], QStringLiteral("the seeds of one Redis Cluster mix redis:// and "
                                               "rediss://"));
        }
        if (out.password.isEmpty() && !e->password.isEmpty()) {
            out.user = e->user;
            out.password = e->password;
        }
        for (const HostPort &hp : seeds) {
            if (!out.seeds.contains(hp)) {
                out.seeds << hp;
            }
        }
    }
    out.host = out.seeds.front().host;
    out.port = out.seeds.front().port;
    return out;
}

QString Endpoint::display() const
{
    QString s;
    switch (kind) {
    case Kind::Unix:
        s = socketPath;
        break;
    case Kind::Sentinel: {
        QStringList list;
        for (const HostPort &hp : sentinels) {
            list << hp.display();
        }
        s = masterName + QLatin1Char('@') + list.join(QLatin1Char(','));
        if (!host.isEmpty()) {
            s += QStringLiteral(" (master %1)").arg(HostPort{host, port}.display());
        }
        break;
    }
    case Kind::Tcp:
        if (isCluster()) {
            QStringList list;
            for (const HostPort &hp : seeds) {
                list << hp.display();
            }
            s = list.join(QLatin1Char(',')) + QStringLiteral(" (cluster)");
        } else {
            s = HostPort{host, port}.display();
        }
        break;
    }
    if (db != 0) {
        s += QLatin1Char('/') + QString::number(db);
    }
    if (tls.enabled) {
        s += QStringLiteral(" (TLS)");
    }
    if (ssh.isSet()) {
        s += QStringLiteral(" via ssh ") + ssh.display();
    }
    return s;
}

QString Endpoint::safeUrl() const
{
    const QString userPart = user.isEmpty() ? QString() : user + QLatin1Char('@');
    switch (kind) {
    case Kind::Unix:
        return QStringLiteral("unix://") + userPart + socketPath +
               (db != 0 ? QStringLiteral("?db=%1").arg(db) : QString());
    case Kind::Sentinel: {
        QStringList list;
        for (const HostPort &hp : sentinels) {
            list << hp.display();
        }
        return (tls.enabled ? QStringLiteral("rediss+sentinel://")
                            : QStringLiteral("redis+sentinel://")) +
               userPart + list.join(QLatin1Char(',')) + QLatin1Char('/') + masterName +
               (db != 0 ? QStringLiteral("/%1").arg(db) : QString());
    }
    case Kind::Tcp:
        break;
    }
    QStringList list;
    for (const HostPort &hp : isCluster() ? seeds : QList<HostPort>{HostPort{host, port}}) {
        list << hp.display();
    }
    return (tls.enabled ? QStringLiteral("rediss://") : QStringLiteral("redis://")) + userPart +
           list.join(QLatin1Char(',')) + (db != 0 ? QStringLiteral("/%1").arg(db) : QString());
}

bool Endpoint::hasSecret() const
{
    return !password.isEmpty() || !sentinelPassword.isEmpty() || !ssh.password.isEmpty() ||
           !ssh.keyPassphrase.isEmpty();
}

bool Endpoint::isLocal() const
{
    if (ssh.isSet()) {
        return false;
    }
    if (kind == Kind::Unix) {
        return true;
    }
    auto loopback = [](const QString &h) {
        return h == QLatin1String("localhost") || h.startsWith(QLatin1String("127.")) ||
               h == QLatin1String("::1");
    };
    if (kind == Kind::Sentinel) {
        for (const HostPort &hp : sentinels) {
            if (!loopback(hp.host)) {
                return false;
            }
        }
        return !sentinels.isEmpty();
    }
    for (const HostPort &hp : seeds) {
        if (!loopback(hp.host)) {
            return false;
        }
    }
    return loopback(host);
}

} // namespace sluice
