#include "fakeresp.h"

#include <QCryptographicHash>
#include <QFile>

#include <sys/socket.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
// libasan's (gcc ships no header for it; clang's sanitizer/allocator_interface.h declares it).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

using namespace Qt::StringLiterals;

namespace sluice::test {

namespace {

// One command off the front of `in`; false while it is incomplete.
bool takeCommand(QByteArray *in, QList<QByteArray> *argv)
{
    argv->clear();
    qsizetype at = 0;
    auto line = [&](char lead, qint64 *v) {
        if (at >= in->size() || in->at(at) != lead) {
            return false;
        }
        const qsizetype end = in->indexOf("\r\n", at);
        if (end < 0) {
            return false;
        }
        *v = in->mid(at + 1, end - at - 1).toLongLong();
        at = end + 2;
        return true;
    };
    qint64 n = 0;
    if (!line('*', &n)) {
        return false;
    }
    for (qint64 i = 0; i < n; ++i) {
        qint64 len = 0;
        if (!line('$', &len) || at + len + 2 > in->size()) {
            return false;
        }
        argv->append(in->mid(at, len));
        at += len + 2;
    }
    in->remove(0, at);
    return true;
}

} // namespace

void sendAll(int fd, const QByteArray &b)
{
    qsizetype done = 0;
    while (done < b.size()) {
        const ssize_t n = ::send(fd, b.constData() + done, size_t(b.size() - done), MSG_NOSIGNAL);
        if (n <= 0) {
            return;
        }
        done += n;
    }
}

void flood(int fd, const QByteArray &piece, qint64 limit, const std::atomic<bool> &stop)
{
    for (qint64 sent = 0; sent < limit && !stop; sent += piece.size()) {
        if (::send(fd, piece.constData(), size_t(piece.size()), MSG_NOSIGNAL) <= 0) {
            return;
        }
    }
}

QByteArray bulk(const QByteArray &b)
{
    return '$' + QByteArray::number(b.size()) + "\r\n" + b + "\r\n";
}

qint64 heldKb()
{
#if defined(__SANITIZE_ADDRESS__)
    return qint64(__sanitizer_get_current_allocated_bytes() / 1024);
#else
    return procStatusKb(u"self"_s, "VmRSS");
#endif
}

qint64 procStatusKb(const QString &pid, const QByteArray &field)
{
    QFile f(u"/proc/%1/status"_s.arg(pid));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field + ':')) {
            return line.mid(field.size() + 1).trimmed().split(' ').value(0).toLongLong();
        }
    }
    return -1;
}

FakeResp::FakeResp(Handler handler)
    : m_handler(std::move(handler))
{
    m_acceptor = std::thread([this] {
        for (;;) {
            const int fd = ::accept4(m_listen.fd(), nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0) {
                return;
            }
            std::lock_guard l(m_mutex);
            if (m_stop) {
                ::close(fd);
                return;
            }
            m_fds.push_back(fd);
            m_threads.emplace_back([this, fd] { serve(fd); });
        }
    });
}

FakeResp::~FakeResp()
{
    {
        std::lock_guard l(m_mutex);
        m_stop = true;
        for (int fd : m_fds) {
            ::shutdown(fd, SHUT_RDWR);
        }
    }
    ::shutdown(m_listen.fd(), SHUT_RDWR); // the socket closes after the threads end
    m_acceptor.join();
    for (std::thread &t : m_threads) {
        t.join();
    }
    for (int fd : m_fds) {
        ::close(fd);
    }
}

QString FakeResp::url() const
{
    return u"redis://127.0.0.1:%1"_s.arg(port());
}

Endpoint FakeResp::endpoint() const
{
    Endpoint e;
    e.host = u"127.0.0.1"_s;
    e.port = port();
    e.singleNode = true;
    return e;
}

QByteArray FakeResp::redisLike(const QList<QByteArray> &argv)
{
    const QByteArray name = argv.value(0).toUpper();
    const QByteArray sub = argv.value(1).toUpper();
    if (name == "PING") {
        return "+PONG\r\n";
    }
    if (name == "ROLE") {
        return "*3\r\n$6\r\nmaster\r\n:0\r\n*0\r\n";
    }
    if (name == "SCRIPT" && sub == "LOAD") {
        return bulk(QCryptographicHash::hash(argv.value(2), QCryptographicHash::Sha1).toHex());
    }
    if (name == "TIME") {
        return "*2\r\n" + bulk("1700000000") + bulk("123456");
    }
    if (name == "EVALSHA" || name == "EVALSHA_RO") {
        return "*6\r\n:1\r\n:10\r\n:9\r\n:-1\r\n:60000\r\n:0\r\n";
    }
    if (name == "INFO") {
        return bulk("# Server\r\nredis_version:7.0.15\r\nrun_id:"
                    "0123456789012345678901234567890123456789\r\n");
    }
    if (name == "HELLO" || name == "COMMAND") {
        return "-ERR unknown command\r\n";
    }
    if (name == "EXISTS" || name == "DEL" || name == "UNLINK" || name == "PUBLISH") {
        return ":0\r\n";
    }
    if (name == "SUBSCRIBE") {
        return "*3\r\n$9\r\nsubscribe\r\n" + bulk(argv.value(1)) + ":1\r\n";
    }
    return "+OK\r\n";
}

void FakeResp::serve(int fd)
{
    QByteArray in;
    char buf[65536];
    for (;;) {
        QList<QByteArray> argv;
        while (!takeCommand(&in, &argv)) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0) {
                return;
            }
            in.append(buf, n);
        }
        if (!m_handler(fd, argv, m_stop)) {
            ::shutdown(fd, SHUT_RDWR);
            return;
        }
    }
}

FakeServer::FakeServer(Script script)
{
    m_thread = std::thread([this, script] {
        const int fd = ::accept(m_listen.fd(), nullptr, nullptr);
        if (fd >= 0) {
            script(fd, m_stop);
            ::close(fd);
        }
    });
}

FakeServer::~FakeServer()
{
    m_stop = true;
    ::shutdown(m_listen.fd(), SHUT_RDWR); // the socket closes after the thread ends
    m_thread.join();
}

} // namespace sluice::test
