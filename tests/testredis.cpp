#include "testredis.h"

#include <QCoreApplication>
#include <QFile>
#include <QTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sluice::test {

QString redisUrl()
{
    const QString url = qEnvironmentVariable("SLUICE_TEST_REDIS_URL");
    if (!url.isEmpty()) {
        return url;
    }
    QFile f(qEnvironmentVariable("SLUICE_TEST_REDIS_DIR") + QStringLiteral("/url"));
    if (f.open(QIODevice::ReadOnly)) {
        return QString::fromUtf8(f.readAll().trimmed());
    }
    return {};
}

Endpoint redisEndpoint()
{
    const QString url = redisUrl();
    if (url.isEmpty()) {
        qFatal("no test Redis: run the tests through ctest (its fixture starts redis-server), or "
               "set SLUICE_TEST_REDIS_URL=redis://127.0.0.1:PORT");
    }
    auto e = Endpoint::parse(url);
    if (!e) {
        qFatal("bad test Redis URL %s", qPrintable(url));
    }
    return *e;
}

Connection connect()
{
    auto c = Connection::open(redisEndpoint());
    if (!c) {
        qFatal("cannot connect to the test Redis: %s", qPrintable(c.error().message));
    }
    return std::move(*c);
}

QByteArray keyPrefix()
{
    return "t:" + QCoreApplication::applicationName().toUtf8() + ':' +
           QByteArray::number(QCoreApplication::applicationPid()) + ':';
}

void cleanup(Connection &c)
{
    QByteArray cursor = "0";
    do {
        auto r = c.command({"SCAN", cursor, "MATCH", keyPrefix() + '*', "COUNT", "1000"});
        if (!r || r->elements.size() != 2) {
            return;
        }
        cursor = r->elements[0].str;
        QList<QByteArray> del{"DEL"};
        for (const Reply &k : r->elements[1].elements) {
            del << k.str;
        }
        if (del.size() > 1) {
            (void)c.command(del);
        }
    } while (cursor != "0");
}

qint64 pttl(Connection &c, const QByteArray &key)
{
    auto r = c.command({"PTTL", key});
    return r ? r->integer : -3;
}

quint16 freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

} // namespace sluice::test
