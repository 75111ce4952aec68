#pragma once

#include "endpoint.h"

#include "core/common/result.h"

#include <QString>

#include <chrono>
#include <memory>

namespace sluice::redis {

// A tunnel through an SSH server (a bastion) to targetHost:targetPort, served on a private
// Unix socket (socket "tunnel.sock" in a fresh 0700 directory under $XDG_RUNTIME_DIR or /tmp).
// Each client that connects to the socket gets a direct-tcpip channel of its own, opened by the
// bastion to the target; bytes are pumped both ways until either side closes.
//
// Threading: one libssh session, used by one thread of the tunnel's own after open() returns
// (libssh is not thread-safe per session). The public functions may be called from any thread.
// Connection (or anything else) talks to socketPath() with ordinary socket calls.
//
// Use from Connection: t = SshTunnel::shared(endpoint.ssh, endpoint.host, endpoint.port,
// connectTimeout); connect to t->socketPath() (TLS then runs over it, still checking the
// certificate against endpoint.host / tls.serverName); keep the shared_ptr for as long as the
// connection lives; on reconnect call shared() again (the live tunnel, or a new one if it died).
//
// Errors name the bastion and the step: "ssh user@bastion:2222: ...". No password or passphrase
// ever appears in a message.
class SshTunnel
{
public:
    // Connects to the bastion, checks its host key against ssh.knownHostsFile (default
    // ~/.ssh/known_hosts; an unknown key is written there only with ssh.acceptNew, a changed
    // key is always refused), authenticates (ssh.keyFile, else the agent and ~/.ssh's default
    // keys; then ssh.password if set), checks that the bastion can reach the target (one test
    // channel, opened and closed), then starts serving. All of it within `timeout`, name
    // resolution of the bastion's host name excepted (getaddrinfo has no deadline).
    // Errors: Io (cannot connect, target unreachable), Timeout, Auth (host key, credentials),
    // Invalid (unreadable key file), Internal (no socket directory).
    static Result<std::shared_ptr<SshTunnel>> open(const SshOptions &ssh, const QString &targetHost,
                                                   quint16 targetPort,
                                                   std::chrono::milliseconds timeout);
    // One tunnel per (ssh user@host:port, key file, target) per process, shared while anyone
    // holds it and alive; a dead one is replaced by a fresh open(). Thread-safe; concurrent
    // callers for the same key wait for one open() and share its result.
    static Result<std::shared_ptr<SshTunnel>> shared(const SshOptions &ssh,
                                                     const QString &targetHost, quint16 targetPort,
                                                     std::chrono::milliseconds timeout);

    SshTunnel(const SshTunnel &) = delete;
    SshTunnel &operator=(const SshTunnel &) = delete;
    // Stops the thread, closes every client and channel, disconnects, removes the socket and
    // its directory. Clients still connected see EOF.
    ~SshTunnel();

    // The Unix socket to connect to (absolute path, under 108 bytes).
    QString socketPath() const;
    // False once the SSH session died (bastion gone, connection reset): the socket is then
    // removed, clients were closed, and shared() opens a new tunnel.
    bool isAlive() const;
    // "ssh user@bastion:port to host:port", for messages and the status bar.
    QString display() const;
    // Clients currently connected to the socket (for tests and diagnostics).
    int clientCount() const;
    // Why the last client's channel could not be opened, or why the session died; empty when
    // nothing failed. Such a client only sees its socket closed: this says why.
    QString lastError() const;

private:
    struct Private;
    explicit SshTunnel(std::unique_ptr<Private> d);
    std::unique_ptr<Private> d;
};

} // namespace sluice::redis
