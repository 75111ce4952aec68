#include "ownredis.h"

#include "testredis.h"

#include "core/redis/connection.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QTest>

namespace sluice::test {

OwnRedis::OwnRedis(quint16 port)
    : m_port(port ? port : freeLoopbackPort())
{}

OwnRedis::~OwnRedis()
{
    kill();
}

bool OwnRedis::start(const QStringList &extraArgs)
{
    kill();
    m_extraArgs = extraArgs;
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setWorkingDirectory(m_dir.path());
    m_process->start(QStringLiteral("redis-server"),
                     QStringList{QStringLiteral("--port"), QString::number(m_port),
                                 QStringLiteral("--bind"), QStringLiteral("127.0.0.1"),
                                 QStringLiteral("--save"), QString(),
                                 QStringLiteral("--appendonly"), QStringLiteral("no"),
                                 QStringLiteral("--dir"), m_dir.path()} +
                         extraArgs);
    if (!m_process->waitForStarted(5000)) {
        return false;
    }
    const Endpoint e = endpoint();
    const QDeadlineTimer deadline(10'000);
    while (!deadline.hasExpired()) {
        if (m_process->state() == QProcess::NotRunning) {
            return false; // the port was taken meanwhile, a bad option, ...
        }
        if (auto c = Connection::open(e)) {
            auto pong = c->command({"PING"});
            if (pong || pong.error().kind == Error::Kind::Auth) {
                return true;
            }
        }
        QTest::qWait(20);
    }
    return false;
}

void OwnRedis::stop()
{
    end(true);
}

void OwnRedis::kill()
{
    end(false);
}

void OwnRedis::end(bool graceful)
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        if (graceful) {
            m_process->terminate();
        }
        if (!graceful || !m_process->waitForFinished(5000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    if (m_process) {
        m_output += m_process->readAll();
    }
    m_process.reset();
}

bool OwnRedis::restart()
{
    stop();
    return start(m_extraArgs);
}

bool OwnRedis::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

Endpoint OwnRedis::endpoint() const
{
    Endpoint e;
    e.host = QStringLiteral("127.0.0.1");
    e.port = m_port;
    return e;
}

Connection OwnRedis::connect() const
{
    auto c = Connection::open(endpoint());
    if (!c) {
        qFatal("cannot connect to the test's redis-server on port %u: %s", unsigned(m_port),
               qPrintable(c.error().message));
    }
    return std::move(*c);
}

QString OwnRedis::url() const
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(m_port);
}

QByteArray OwnRedis::output() const
{
    if (m_process) {
        m_output += m_process->readAll();
    }
    return m_output;
}

} // namespace sluice::test
