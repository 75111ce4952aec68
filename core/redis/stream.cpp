#include "stream.h"

#include "endpoint.h"

#include <QFileInfo>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace std::chrono;

namespace sluice::redis {

namespace {

// Milliseconds left until the deadline, for poll(): never negative.
int msLeft(Deadline deadline)
{
    const auto left = duration_cast<milliseconds>(deadline - steady_clock::now()).count();
    if (left <= 0) {
        return 0;
    }
    return int(std::min<qint64>(left, 1'000'000)); // poll again after ~17 min: harmless
}

QString errnoText(int e)
{
    return QString::fromLocal8Bit(std::strerror(e));
}

Error connectFailure(const QString &where, Error::Kind kind, const QString &detail)
{
    const QString hint = kind == Error::Kind::Timeout
                             ? QStringLiteral("is the address right and the port reachable?")
                             : QStringLiteral("is redis-server running there?");
    return Error::make(
        kind, QStringLiteral("cannot connect to Redis at %1: %2; %3").arg(where, detail, hint));
}

// Waits for a non-blocking connect() to finish.
Result<int> finishConnect(int fd, const QString &where, Deadline deadline)
{
    for (;;) {
        pollfd p{fd, POLLOUT, 0};
        const int n = ::poll(&p, 1, msLeft(deadline));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n == 0) {
            return connectFailure(where, Error::Kind::Timeout,
                                  QStringLiteral("no answer before the deadline"));
        }
        int err = 0;
        socklen_t len = sizeof err;
        if (n < 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) {
            err = errno;
        }
        if (err != 0) {
            return connectFailure(where, err == ETIMEDOUT ? Error::Kind::Timeout : Error::Kind::Io,
                                  errnoText(err));
        }
        return fd;
    }
}

struct AddrInfoFree
{
    void operator()(addrinfo *a) const { freeaddrinfo(a); }
};
using AddrList = std::unique_ptr<addrinfo, AddrInfoFree>;

// getaddrinfo bounded by the deadline. Numeric hosts resolve at once; names go through
// getaddrinfo_a so that a hanging DNS server cannot hold a connect past its deadline.
Result<AddrList> resolve(const QString &host, quint16 port, const QString &where, Deadline deadline)
{
    const QByteArray name = host.toUtf8();
    const QByteArray service = QByteArray::number(port);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    addrinfo *found = nullptr;
    if (::getaddrinfo(name.constData(), service.constData(), &hints, &found) == 0) {
        return AddrList(found);
    }
    // "localhost" is the loopback address whatever /etc/hosts says (RFC 6761 6.3): a minimal
    // system or container may have no entry for it, and asking DNS would be wrong.
    const QString lower = host.toLower();
    if (lower == QLatin1String("localhost") || lower.endsWith(QLatin1String(".localhost"))) {
        hints.ai_family = AF_INET;
        if (::getaddrinfo("127.0.0.1", service.constData(), &hints, &found) == 0) {
            return AddrList(found);
        }
    }
    // A name. The request lives on the heap: when it cannot be cancelled in time, the
    // resolver thread still owns it, and it is left to that thread (a few bytes, rarely).
    struct Request
    {
        QByteArray name, service;
        addrinfo hints{};
        gaicb cb{};
    };
    auto *req = new Request{name, service, {}, {}};
    req->hints.ai_family = AF_UNSPEC;
    req->hints.ai_socktype = SOCK_STREAM;
    req->hints.ai_flags = AI_NUMERICSERV;
    req->cb.ar_name = req->name.constData();
    req->cb.ar_service = req->service.constData();
    req->cb.ar_request = &req->hints;
    gaicb *list[1] = {&req->cb};
    if (::getaddrinfo_a(GAI_NOWAIT, list, 1, nullptr) != 0) {
        delete req;
        return connectFailure(where, Error::Kind::Io,
                              QStringLiteral("cannot look up '%1'").arg(host));
    }
    for (;;) {
        const int left = msLeft(deadline);
        timespec ts{left / 1000, long(left % 1000) * 1'000'000};
        const int s = ::gai_suspend(list, 1, &ts);
        if (s == EAI_INTR) {
            continue;
        }
        break;
    }
    const int rc = ::gai_error(&req->cb);
    if (rc == EAI_INPROGRESS) {
        if (::gai_cancel(&req->cb) == EAI_CANCELED) {
            delete req;
        }
        return connectFailure(
            where, Error::Kind::Timeout,
            QStringLiteral("looking up '%1' took longer than the deadline").arg(host));
    }
    AddrList out(req->cb.ar_result);
    delete req;
    if (rc != 0) {
        return connectFailure(where, Error::Kind::Io,
                              QStringLiteral("cannot look up '%1': %2")
                                  .arg(host, QString::fromLocal8Bit(::gai_strerror(rc))));
    }
    return out;
}

void setNoDelayAndKeepAlive(int fd)
{
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
}

// The OpenSSL error queue as one line, emptied.
QString sslQueue()
{
    QStringList parts;
    while (const unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        const char *reason = ERR_reason_error_string(e);
        parts << QString::fromLatin1(reason ? reason : buf);
    }
    parts.removeDuplicates();
    return parts.join(QStringLiteral("; "));
}

Result<void> checkReadable(const QString &path, const char *flag)
{
    const QFileInfo fi(path);
    if (!fi.exists()) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 %2: no such file").arg(QLatin1String(flag), path));
    }
    if (!fi.isFile() || !fi.isReadable()) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("%1 %2: not a readable file").arg(QLatin1String(flag), path));
    }
    return {};
}

} // namespace

Stream::Stream(int fd, QString where)
    : m_fd(fd)
    , m_where(std::move(where))
{}

Stream::~Stream()
{
    if (m_ssl) {
        // A best-effort close_notify; the socket is non-blocking, so this never waits.
        SSL_shutdown(m_ssl);
        SSL_free(m_ssl);
    }
    if (m_ctx) {
        SSL_CTX_free(m_ctx);
    }
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

Result<std::unique_ptr<Stream>> Stream::connectTcp(const QString &host, quint16 port,
                                                   const QString &where, Deadline deadline)
{
    auto addrs = resolve(host, port, where, deadline);
    if (!addrs) {
        return addrs.error();
    }
    std::optional<Error> last;
    for (addrinfo *a = addrs->get(); a != nullptr; a = a->ai_next) {
        const int fd =
            ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            last = connectFailure(where, Error::Kind::Io, errnoText(errno));
            continue;
        }
        if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            last = connectFailure(where, Error::Kind::Io, errnoText(errno));
            ::close(fd);
            continue;
        }
        auto done = finishConnect(fd, where, deadline);
        if (!done) {
            last = done.error();
            ::close(fd);
            if (last->kind == Error::Kind::Timeout) {
                break; // the deadline is spent
            }
            continue;
        }
        setNoDelayAndKeepAlive(fd);
        return std::unique_ptr<Stream>(new Stream(fd, where));
    }
    return last ? *last
                : connectFailure(where, Error::Kind::Io,
                                 QStringLiteral("'%1' has no address").arg(host));
}

Result<std::unique_ptr<Stream>> Stream::connectUnix(const QString &path, const QString &where,
                                                    Deadline deadline)
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = QFile::encodeName(path);
    if (size_t(p.size()) >= sizeof addr.sun_path) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("the socket path %1 is too long").arg(path));
    }
    std::memcpy(addr.sun_path, p.constData(), size_t(p.size()));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return connectFailure(where, Error::Kind::Io, errnoText(errno));
    }
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 &&
        errno != EINPROGRESS && errno != EAGAIN) {
        const int e = errno;
        ::close(fd);
        QString detail = errnoText(e);
        if (e == ENOENT) {
            detail = QStringLiteral("no socket at %1").arg(path);
        } else if (e == EACCES) {
            detail = QStringLiteral("no permission to open %1").arg(path);
        }
        return connectFailure(where, Error::Kind::Io, detail);
    }
    auto done = finishConnect(fd, where, deadline);
    if (!done) {
        ::close(fd);
        return done.error();
    }
    return std::unique_ptr<Stream>(new Stream(fd, where));
}

Result<void> Stream::startTls(const TlsOptions &o, const QString &host, Deadline deadline)
{
    if (!o.caFile.isEmpty()) {
        if (auto r = checkReadable(o.caFile, "--tls-ca"); !r) {
            return r;
        }
    }
    if (o.certFile.isEmpty() != o.keyFile.isEmpty()) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--tls-cert and --tls-key go together: give both"));
    }
    if (!o.certFile.isEmpty()) {
        if (auto r = checkReadable(o.certFile, "--tls-cert"); !r) {
            return r;
        }
        if (auto r = checkReadable(o.keyFile, "--tls-key"); !r) {
            return r;
        }
    }
    ERR_clear_error();
    m_ctx = SSL_CTX_new(TLS_client_method());
    if (!m_ctx) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("cannot create a TLS context: %1").arg(sslQueue()));
    }
    SSL_CTX_set_min_proto_version(m_ctx, TLS1_2_VERSION);
    // Read whole socket buffers, not a record header and then its body: half the read calls.
    SSL_CTX_set_read_ahead(m_ctx, 1);
    SSL_CTX_set_mode(m_ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (!o.insecure) {
        SSL_CTX_set_verify(m_ctx, SSL_VERIFY_PEER, nullptr);
        const int ok = o.caFile.isEmpty()
                           ? SSL_CTX_set_default_verify_paths(m_ctx)
                           : SSL_CTX_load_verify_locations(
                                 m_ctx, QFile::encodeName(o.caFile).constData(), nullptr);
        if (ok != 1) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--tls-ca %1: not a PEM certificate file (%2)")
                                   .arg(o.caFile, sslQueue()));
        }
    }
    if (!o.certFile.isEmpty()) {
        if (SSL_CTX_use_certificate_chain_file(m_ctx, QFile::encodeName(o.certFile).constData()) !=
            1) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--tls-cert %1: not a PEM certificate (%2)")
                                   .arg(o.certFile, sslQueue()));
        }
        if (SSL_CTX_use_PrivateKey_file(m_ctx, QFile::encodeName(o.keyFile).constData(),
                                        SSL_FILETYPE_PEM) != 1) {
            const QString why = sslQueue();
            if (why.contains(QLatin1String("key values mismatch"))) {
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("--tls-key %1 does not belong to --tls-cert %2")
                                       .arg(o.keyFile, o.certFile));
            }
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--tls-key %1: not a PEM private key, or one with "
                                              "a passphrase (%2)")
                                   .arg(o.keyFile, why));
        }
        m_clientCert = true;
        if (SSL_CTX_check_private_key(m_ctx) != 1) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--tls-key %1 does not belong to --tls-cert %2")
                                   .arg(o.keyFile, o.certFile));
        }
    }
    m_ssl = SSL_new(m_ctx);
    if (!m_ssl || SSL_set_fd(m_ssl, m_fd) != 1) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("cannot start TLS: %1").arg(sslQueue()));
    }
    const QString name = o.serverName.isEmpty() ? host : o.serverName;
    const QByteArray nameBytes = name.toUtf8();
    in6_addr probe{};
    const bool isAddress = ::inet_pton(AF_INET, nameBytes.constData(), &probe) == 1 ||
                           ::inet_pton(AF_INET6, nameBytes.constData(), &probe) == 1;
    if (!isAddress && !name.isEmpty()) {
        SSL_set_tlsext_host_name(m_ssl, nameBytes.constData());
    }
    if (!o.insecure && !name.isEmpty()) {
        X509_VERIFY_PARAM *param = SSL_get0_param(m_ssl);
        if (isAddress) {
            X509_VERIFY_PARAM_set1_ip_asc(param, nameBytes.constData());
        } else {
            X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
            SSL_set1_host(m_ssl, nameBytes.constData());
        }
    }
    for (;;) {
        ERR_clear_error();
        const int r = SSL_connect(m_ssl);
        if (r == 1) {
            break;
        }
        const int e = SSL_get_error(m_ssl, r);
        if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
            auto w =
                waitFor(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline, "the TLS handshake");
            if (!w) {
                return w;
            }
            continue;
        }
        const long verify = SSL_get_verify_result(m_ssl);
        if (!o.insecure && verify != X509_V_OK) {
            const QString why = QString::fromLatin1(X509_verify_cert_error_string(verify));
            QString what;
            switch (verify) {
            case X509_V_ERR_HOSTNAME_MISMATCH:
            case X509_V_ERR_IP_ADDRESS_MISMATCH:
                what = QStringLiteral("its certificate is not for '%1' (%2); connect by the name "
                                      "the certificate carries, or set --tls-server-name")
                           .arg(name, why);
                break;
            case X509_V_ERR_CERT_HAS_EXPIRED:
                what = QStringLiteral("its certificate has expired (%1)").arg(why);
                break;
            case X509_V_ERR_CERT_NOT_YET_VALID:
                what = QStringLiteral("its certificate is not valid yet (%1)").arg(why);
                break;
            default:
                what = QStringLiteral("its certificate is not trusted by %1 (%2); check --tls-ca")
                           .arg(o.caFile.isEmpty() ? QStringLiteral("the system's trust store")
                                                   : o.caFile,
                                why);
                break;
            }
            sslQueue();
            return Error::make(Error::Kind::Auth,
                               QStringLiteral("TLS to Redis at %1 refused: %2").arg(m_where, what));
        }
        return tlsError(QStringLiteral("the TLS handshake"), r);
    }
    return {};
}

Error Stream::tlsError(const QString &doing, int sslResult)
{
    const int e = m_ssl ? SSL_get_error(m_ssl, sslResult) : SSL_ERROR_SSL;
    const int sysErrno = errno;
    QString queue = sslQueue();
    if (m_ssl && !m_exchanged && (e == SSL_ERROR_SYSCALL || e == SSL_ERROR_SSL)) {
        // With TLS 1.3 the server judges the client certificate after the handshake: its
        // alert may be waiting to be read while our first write failed. Read it for the reason.
        char scratch[256];
        ERR_clear_error();
        if (SSL_read(m_ssl, scratch, sizeof scratch) <= 0) {
            const QString alert = sslQueue();
            if (!alert.isEmpty()) {
                queue = alert;
            }
        }
        if (queue.isEmpty() || queue.contains(QLatin1String("reset")) || e == SSL_ERROR_SYSCALL) {
            if (queue.isEmpty()) {
                queue = errnoText(sysErrno);
            }
            return Error::make(
                Error::Kind::Auth,
                QStringLiteral("Redis at %1 closed the TLS connection right after the handshake "
                               "(%2): does it require a client certificate (--tls-cert, "
                               "--tls-key)%3?")
                    .arg(m_where, queue,
                         m_clientCert ? QStringLiteral(", and does it trust the one given")
                                      : QString()));
        }
    }
    if (e == SSL_ERROR_ZERO_RETURN ||
        (e == SSL_ERROR_SYSCALL && queue.isEmpty() && sysErrno == 0)) {
        return Error::make(
            Error::Kind::Closed,
            QStringLiteral("Redis at %1 closed the connection (during %2)").arg(m_where, doing));
    }
    if (e == SSL_ERROR_SYSCALL) {
        return Error::make(Error::Kind::Io,
                           QStringLiteral("lost the connection to Redis at %1 "
                                          "(during %2: %3)")
                               .arg(m_where, doing, queue.isEmpty() ? errnoText(sysErrno) : queue));
    }
    QString hint;
    if (queue.contains(QLatin1String("unknown ca")) ||
        queue.contains(QLatin1String("certificate required")) ||
        queue.contains(QLatin1String("handshake failure")) ||
        queue.contains(QLatin1String("bad certificate"))) {
        hint = QStringLiteral("; does the server require a client certificate (--tls-cert, "
                              "--tls-key), and does it trust this one?");
    } else if (queue.contains(QLatin1String("wrong version number")) ||
               queue.contains(QLatin1String("packet length too long"))) {
        hint = QStringLiteral("; is this a TLS port? (redis:// is for plain TCP)");
    }
    return Error::make(
        Error::Kind::Protocol,
        QStringLiteral("TLS with Redis at %1 failed during %2: %3%4")
            .arg(m_where, doing, queue.isEmpty() ? QStringLiteral("unknown error") : queue, hint));
}

Result<void> Stream::waitFor(short events, Deadline deadline, const char *doing)
{
    for (;;) {
        pollfd p{m_fd, events, 0};
        const int n = ::poll(&p, 1, msLeft(deadline));
        if (n > 0) {
            return {};
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return Error::make(Error::Kind::Io, QStringLiteral("lost the connection to Redis at "
                                                               "%1 (%2)")
                                                    .arg(m_where, errnoText(errno)));
        }
        return Error::make(Error::Kind::Timeout,
                           QStringLiteral("Redis at %1 did not answer in time (%2 passed its "
                                          "deadline)")
                               .arg(m_where, QLatin1String(doing)));
    }
}

Result<void> Stream::writeAll(const char *data, size_t size, Deadline deadline)
{
    size_t done = 0;
    while (done < size) {
        if (m_ssl) {
            ERR_clear_error();
            const int n =
                SSL_write(m_ssl, data + done, int(std::min<size_t>(size - done, 1 << 30)));
            if (n > 0) {
                done += size_t(n);
                continue;
            }
            const int e = SSL_get_error(m_ssl, n);
            if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
                if (auto w = waitFor(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline,
                                     "sending the command");
                    !w) {
                    return w;
                }
                continue;
            }
            return tlsError(QStringLiteral("sending"), n);
        }
        const ssize_t n = ::send(m_fd, data + done, size - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (auto w = waitFor(POLLOUT, deadline, "sending the command"); !w) {
                return w;
            }
            continue;
        }
        const int e = errno;
        return Error::make(e == EPIPE || e == ECONNRESET ? Error::Kind::Closed : Error::Kind::Io,
                           e == EPIPE || e == ECONNRESET
                               ? QStringLiteral("Redis at %1 closed the connection (%2)")
                                     .arg(m_where, errnoText(e))
                               : QStringLiteral("lost the connection to Redis at %1 (%2)")
                                     .arg(m_where, errnoText(e)));
    }
    return {};
}

Result<size_t> Stream::readSome(char *buffer, size_t capacity, Deadline deadline)
{
    for (;;) {
        if (m_ssl) {
            // As for plain sockets: wait first unless OpenSSL already holds bytes, rather than
            // a read that fails with EAGAIN before the wait.
            if (!SSL_has_pending(m_ssl)) {
                if (auto w = waitFor(POLLIN, deadline, "reading the reply"); !w) {
                    return w.error();
                }
            }
            ERR_clear_error();
            const int n = SSL_read(m_ssl, buffer, int(std::min<size_t>(capacity, 1 << 30)));
            if (n > 0) {
                m_exchanged = true;
                return size_t(n);
            }
            const int e = SSL_get_error(m_ssl, n);
            if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
                if (auto w = waitFor(e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline,
                                     "reading the reply");
                    !w) {
                    return w.error();
                }
                continue;
            }
            return tlsError(QStringLiteral("reading the reply"), n);
        }
        // Wait first: after a command was sent, the reply is rarely there yet, and a poll plus
        // one recv is cheaper than a recv that fails, a poll and a recv.
        if (auto w = waitFor(POLLIN, deadline, "reading the reply"); !w) {
            return w.error();
        }
        const ssize_t n = ::recv(m_fd, buffer, capacity, 0);
        if (n > 0) {
            return size_t(n);
        }
        if (n == 0) {
            return Error::make(
                Error::Kind::Closed,
                QStringLiteral("Redis at %1 closed the connection (end of stream)").arg(m_where));
        }
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
            continue;
        }
        const int e = errno;
        return Error::make(e == ECONNRESET ? Error::Kind::Closed : Error::Kind::Io,
                           e == ECONNRESET
                               ? QStringLiteral("Redis at %1 closed the connection (%2)")
                                     .arg(m_where, errnoText(e))
                               : QStringLiteral("lost the connection to Redis at %1 (%2)")
                                     .arg(m_where, errnoText(e)));
    }
}

Result<int> Stream::waitReadable(Deadline deadline, int wakeFd)
{
    if (m_ssl && SSL_has_pending(m_ssl)) {
        return 1;
    }
    for (;;) {
        pollfd fds[2] = {{m_fd, POLLIN, 0}, {wakeFd, POLLIN, 0}};
        const int n = ::poll(fds, wakeFd >= 0 ? 2 : 1, msLeft(deadline));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return Error::make(Error::Kind::Io, QStringLiteral("waiting for Redis at %1 failed "
                                                               "(%2)")
                                                    .arg(m_where, errnoText(errno)));
        }
        if (n == 0) {
            return 0;
        }
        if (wakeFd >= 0 && fds[1].revents) {
            return 2;
        }
        return 1;
    }
}

} // namespace sluice::redis
