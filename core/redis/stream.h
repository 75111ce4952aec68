#pragma once

#include "core/common/result.h"

#include <QString>

#include <chrono>
#include <memory>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;

namespace sluice {

struct TlsOptions;

namespace redis {

using Deadline = std::chrono::steady_clock::time_point;

// A byte stream to a server: a non-blocking socket (TCP or Unix), optionally wrapped in TLS
// (OpenSSL). Every call takes an absolute deadline, so a server that trickles one byte at a
// time still fails at the deadline (a per-recv timeout would wait forever). Not thread-safe;
// owned by one Connection. Errors are values whose messages name `where` (the endpoint as the
// user knows it) and never carry a secret.
class Stream
{
public:
    // Resolves `host` (bounded by the deadline too: getaddrinfo_a), then tries each address.
    static Result<std::unique_ptr<Stream>> connectTcp(const QString &host, quint16 port,
                                                      const QString &where, Deadline deadline);
    static Result<std::unique_ptr<Stream>> connectUnix(const QString &path, const QString &where,
                                                       Deadline deadline);
    ~Stream();
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;

    // Runs the TLS handshake over the connected socket. `host` is what the certificate must
    // name unless options.serverName says otherwise. Errors say which check failed: the CA, the
    // name, the dates, the client certificate.
    Result<void> startTls(const TlsOptions &options, const QString &host, Deadline deadline);
    bool isTls() const { return m_ssl != nullptr; }

    Result<void> writeAll(const char *data, size_t size, Deadline deadline);
    // Reads what is there (at least one byte), waiting until the deadline. 0 bytes never comes
    // back: the peer closing is an error of kind Closed.
    Result<size_t> readSome(char *buffer, size_t capacity, Deadline deadline);
    // Waits until bytes can be read, `wakeFd` becomes readable, or the deadline passes.
    // Returns 1 readable, 2 woken, 0 deadline passed.
    Result<int> waitReadable(Deadline deadline, int wakeFd);

    int fd() const { return m_fd; }

private:
    Stream(int fd, QString where);
    Result<void> waitFor(short events, Deadline deadline, const char *doing);
    Error tlsError(const QString &doing, int sslResult);

    int m_fd = -1;
    QString m_where;
    SSL_CTX *m_ctx = nullptr;
    SSL *m_ssl = nullptr;
    bool m_clientCert = false; // a client certificate was offered
    bool m_exchanged = false;  // application data came back since the handshake
};

// Deadline helpers
inline Deadline deadlineIn(std::chrono::milliseconds ms)
{
    return std::chrono::steady_clock::now() + ms;
}

} // namespace redis
} // namespace sluice
