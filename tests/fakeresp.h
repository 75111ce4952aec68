#pragma once

// Servers that say what a real one cannot be made to say (hostile replies, faults on cue, a
// stream cut mid-reply), on a loopback port of their own, for the tests of the reply reader,
// the transport and the check service. Blocking sockets, one thread per connection; every
// connection is shut down and every thread joined by the destructor.

#include "testredis.h"

#include "core/redis/endpoint.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sluice::test {

// Writes all of `bytes` to `fd` (stops early when the peer hung up).
void sendAll(int fd, const QByteArray &bytes);
// Sends `piece` again and again until the client hangs up, `stop` is set or `limit` bytes went.
void flood(int fd, const QByteArray &piece, qint64 limit, const std::atomic<bool> &stop);
// A RESP bulk string.
QByteArray bulk(const QByteArray &bytes);
// What the process holds, in kB: RSS, or under ASan the live heap (RSS there also counts the
// freed memory ASan keeps in quarantine, 256 MB by default).
qint64 heldKb();
// A "Vm...:" line of /proc/<pid>/status in kB ("self": this process), such as VmRSS (held now)
// or VmHWM (the peak); -1 when it cannot be read.
qint64 procStatusKb(const QString &pid, const QByteArray &field);

// A RESP server: every command (an array of bulk strings, as Sluice sends them) is handed to
// `handler` with the socket, which writes what it likes and returns false to close the
// connection. redisLike() answers as a Redis 7 would, for the commands a handler passes on.
class FakeResp
{
public:
    using Handler =
        std::function<bool(int fd, const QList<QByteArray> &argv, const std::atomic<bool> &stop)>;
    explicit FakeResp(Handler handler);
    ~FakeResp();

    quint16 port() const { return m_listen.port(); }
    QString url() const;
    // 127.0.0.1:port, one node (no cluster detection).
    Endpoint endpoint() const;

    // What a Redis 7 would answer: PING, ROLE (master), SCRIPT LOAD (the body's SHA1), TIME,
    // EVALSHA (a decision that admits), INFO, ...; +OK for the rest.
    static QByteArray redisLike(const QList<QByteArray> &argv);

private:
    void serve(int fd);

    Handler m_handler;
    LoopbackSocket m_listen{true, 64};
    std::thread m_acceptor;
    std::mutex m_mutex;
    std::vector<int> m_fds;
    std::vector<std::thread> m_threads;
    std::atomic<bool> m_stop{false};
};

// A server that answers its first connection with `script` (which reads the client's bytes and
// sends what it likes), in a thread of its own, then closes it.
class FakeServer
{
public:
    using Script = std::function<void(int fd, const std::atomic<bool> &stop)>;
    explicit FakeServer(Script script);
    ~FakeServer();

    quint16 port() const { return m_listen.port(); }

private:
    LoopbackSocket m_listen{true, 4};
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace sluice::test
