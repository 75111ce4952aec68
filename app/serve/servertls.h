#pragma once

#include "core/common/result.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <memory>
#include <mutex>

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace sluice::serve {

// The certificate serve's listeners present (--listen-tls-cert, --listen-tls-key) and the CA
// their clients' certificates must be signed by (--listen-tls-client-ca: a client without one,
// or with one this CA did not sign, or expired, fails the handshake). TLS 1.2 or newer only,
// no renegotiation.
//
// Both listeners (HTTP, and the gRPC port's HTTP/2) take context() for every new connection (a
// connection keeps the one it started with). reload() reads the files again: one that does not
// load (garbage, a key that is not the certificate's, unreadable) keeps what was served and says
// why. Thread-safe.
class ServerTls
{
public:
    struct Files
    {
        QString cert;     // PEM: the certificate, then its chain
        QString key;      // PEM: its private key (not encrypted)
        QString clientCa; // PEM: the CA(s) of client certificates; empty: none asked for
    };

    // Reads and checks them: the error names the file and what is wrong with it.
    static Result<std::shared_ptr<ServerTls>> load(const Files &files);
    ~ServerTls();
    ServerTls(const ServerTls &) = delete;
    ServerTls &operator=(const ServerTls &) = delete;

    // Reads the files again. On success new handshakes use them (and publish()'s copy is
    // rewritten); on failure everything stays as it was and the error says why.
    Result<void> reload();
    // Whether a file changed (another inode, size or modification time) since the last load or
    // reload, successful or not: polled, so that a failed one is not tried again and again.
    bool changedOnDisk() const;

    std::shared_ptr<SSL_CTX> context() const; // for a new connection
    const Files &files() const { return m_files; }
    bool verifiesClients() const { return !m_files.clientCa.isEmpty(); }

private:
    struct Loaded;
    using Stamp = std::array<qint64, 9>; // inode, size, mtime (ns) of each file
    explicit ServerTls(Files files);
    static Result<Loaded> read(const Files &files);
    Stamp stamp() const;

    Files m_files;
    mutable std::mutex m_mutex;
    std::shared_ptr<SSL_CTX> m_ctx;
    Stamp m_stamp{};
};

// A connection of an HTTP/2 listener (the gRPC port): its ALPN answer is "h2" (gRPC clients
// require it) where every other connection's is "http/1.1".
void markHttp2(SSL *ssl);

} // namespace sluice::serve
