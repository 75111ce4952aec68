#pragma once

#include "core/redis/connection.h"
#include "core/redis/endpoint.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

class QProcess;

namespace sluice::test {

// A redis-server of the test's own, for what the CTest fixture's shared server must not suffer:
// being stopped, killed, restarted or started with other options (requirepass, ACLs, ...).
// 127.0.0.1 only, no persistence (--save '' --appendonly no), its files in a temporary
// directory of its own; killed by the destructor. Not thread-safe: start and stop it from one
// thread at a time.
class OwnRedis
{
public:
    // port 0: a loopback port that was free a moment ago (freeLoopbackPort()).
    explicit OwnRedis(quint16 port = 0);
    ~OwnRedis();
    OwnRedis(const OwnRedis &) = delete;
    OwnRedis &operator=(const OwnRedis &) = delete;

    // Starts redis-server with `extraArgs` after the defaults (they win over them) and waits
    // until it answers PING (an AUTH error counts as an answer: with --requirepass it needs
    // one). False when it exited or did not answer within 10 s; output() then says why.
    bool start(const QStringList &extraArgs = {});
    // SIGTERM: Redis closes every connection and exits (nothing to save); SIGKILL after 5 s.
    void stop();
    // SIGKILL: as abrupt as a crash or a network cut.
    void kill();
    // stop(), then start() again on the same port with the same extra arguments: a new run id,
    // an empty keyspace.
    bool restart();

    bool isRunning() const;
    quint16 port() const { return m_port; }
    Endpoint endpoint() const;
    QString url() const; // redis://127.0.0.1:PORT
    // A connection of the test's to it; a server that cannot be reached ends the test run
    // (qFatal: every step after it would fail for the same reason).
    Connection connect() const;
    QString dir() const { return m_dir.path(); }
    // What redis-server wrote on stdout and stderr so far (its log).
    QByteArray output() const;

private:
    void end(bool graceful); // stop() or kill()

    QTemporaryDir m_dir;
    quint16 m_port;
    QStringList m_extraArgs;
    std::unique_ptr<QProcess> m_process;
    mutable QByteArray m_output; // read so far, of every run
};

} // namespace sluice::test
