#include "sshtunnel.h"

#include <QDir>
#include <QFileInfo>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sluice::redis {

namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Bytes from the bastion waiting for a slow client: above this the channel's data stays in
// libssh's buffer and its window is not grown, so the bastion stops sending (backpressure).
constexpr qsizetype kToClientHighWater = 1024 * 1024;
// One read from a client socket, at most (further bounded by the channel's remote window).
constexpr qsizetype kReadChunk = 64 * 1024;
// While a channel open is pending, the loop also wakes this often: the bastion's answer may
// have been read by libssh while it served another channel, leaving nothing on the socket.
constexpr int kOpeningPollMs = 50;

struct SessionFree
{
    void operator()(ssh_session s) const
    {
        ssh_disconnect(s);
        ssh_free(s);
    }
};
using SessionPtr = std::unique_ptr<ssh_session_struct, SessionFree>;

struct KeyFree
{
    void operator()(ssh_key k) const { ssh_key_free(k); }
};
using KeyPtr = std::unique_ptr<ssh_key_struct, KeyFree>;

QString sshError(ssh_session s)
{
    return QString::fromUtf8(ssh_get_error(s));
}

QString hostPort(const QString &host, quint16 port)
{
    const QString h = host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host;
    return h + u':' + QString::number(port);
}

// "SHA256:..." as ssh-keygen -l prints it, and the key's type ("ssh-ed25519").
struct HostKeyInfo
{
    QString fingerprint;
    QString type;
};

HostKeyInfo hostKeyInfo(ssh_session s)
{
    HostKeyInfo info;
    ssh_key raw = nullptr;
    if (ssh_get_server_publickey(s, &raw) != SSH_OK) {
        return info;
    }
    const KeyPtr key(raw);
    info.type = QString::fromUtf8(ssh_key_type_to_char(ssh_key_type(key.get())));
    unsigned char *hash = nullptr;
    size_t len = 0;
    if (ssh_get_publickey_hash(key.get(), SSH_PUBLICKEY_HASH_SHA256, &hash, &len) == 0) {
        char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
        info.fingerprint = QString::fromUtf8(fp);
        ssh_string_free_char(fp);
        ssh_clean_pubkey_hash(&hash);
    }
    return info;
}

// Overwrites a secret's bytes before the buffer is released.
void wipe(QByteArray &secret)
{
    secret.fill('\0');
    secret.clear();
}

// One client of the socket and its channel. Owned by the tunnel thread.
struct Client
{
    enum class State {
        Opening, // ssh_channel_open_forward sent, the bastion has not answered yet
        Open,
        Done, // to be closed and removed
    };
    int fd = -1;
    ssh_channel channel = nullptr;
    ssh_channel_callbacks_struct callbacks{};
    State state = State::Opening;
    QByteArray toClient; // from the channel, not yet written to fd (from toClientOff on)
    qsizetype toClientOff = 0;
    QByteArray toChannel; // from fd, not yet accepted by the channel (window)
    qsizetype toChannelOff = 0;
    bool clientEof = false; // the client shut its side: EOF goes to the channel once drained
    bool eofSent = false;
    bool refused = false; // the data callback left bytes in libssh's buffer (toClient full)
    bool progress = false;

    qsizetype toClientPending() const { return toClient.size() - toClientOff; }
    qsizetype toChannelPending() const { return toChannel.size() - toChannelOff; }
};

} // namespace

struct SshTunnel::Private
{
    QString display; // "ssh user@bastion:port to host:port"
    QString where;   // "ssh user@bastion:port"
    QByteArray targetHost;
    quint16 targetPort = 0;
    SessionPtr session;
    ssh_event event = nullptr;
    int listenFd = -1;
    int wake[2] = {-1, -1};
    QString dir;
    QString socketPath;
    std::thread thread;
    std::atomic<bool> alive{true};
    std::atomic<bool> stop{false};
    std::atomic<int> clientCount{0};
    mutable std::mutex errorMutex;
    QString lastError;
    std::vector<std::unique_ptr<Client>> clients; // tunnel thread only

    ~Private();
    Result<void> listen(const QString &target);
    void run();
    void accept();
    bool advance(Client &c);
    void closeClient(Client &c);
    void closeListener();
    bool sessionDead() const;
    void setLastError(const QString &e)
    {
        const std::lock_guard lock(errorMutex);
        lastError = e;
    }
};

namespace {

int onChannelData(ssh_session, ssh_channel, void *data, uint32_t len, int isStderr, void *userdata)
{
    auto *c = static_cast<Client *>(userdata);
    if (isStderr) {
        return int(len); // direct-tcpip channels have no stderr: nothing to deliver
    }
    if (c->toClientPending() >= kToClientHighWater) {
        c->refused = true;
        return 0;
    }
    c->toClient.append(static_cast<const char *>(data), qsizetype(len));
    c->progress = true;
    return int(len);
}

void onChannelEof(ssh_session, ssh_channel, void *userdata)
{
    static_cast<Client *>(userdata)->progress = true;
}

void onChannelClose(ssh_session, ssh_channel, void *userdata)
{
    static_cast<Client *>(userdata)->progress = true;
}

} // namespace

SshTunnel::Private::~Private()
{
    for (auto &c : clients) {
        closeClient(*c);
    }
    clients.clear();
    if (event != nullptr) {
        if (session) {
            ssh_event_remove_session(event, session.get());
        }
        ssh_event_free(event);
    }
    session.reset();
    closeListener();
    if (!dir.isEmpty()) {
        ::rmdir(QFile::encodeName(dir).constData());
    }
    for (int &fd : wake) {
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
}

void SshTunnel::Private::closeListener()
{
    if (listenFd >= 0) {
        ::close(listenFd);
        listenFd = -1;
        ::unlink(QFile::encodeName(socketPath).constData());
    }
}

void SshTunnel::Private::closeClient(Client &c)
{
    if (c.channel != nullptr) {
        // libssh may keep the channel until the bastion confirms the close: it must not call
        // back into this Client after it is gone.
        ssh_remove_channel_callbacks(c.channel, &c.callbacks);
        if (c.state == Client::State::Open && sessionDead() == false) {
            ssh_channel_close(c.channel);
        }
        ssh_channel_free(c.channel);
        c.channel = nullptr;
    }
    if (c.fd >= 0) {
        ::close(c.fd);
        c.fd = -1;
    }
    c.state = Client::State::Done;
}

bool SshTunnel::Private::sessionDead() const
{
    return ssh_is_connected(session.get()) == 0 ||
           (ssh_get_status(session.get()) & (SSH_CLOSED | SSH_CLOSED_ERROR)) != 0;
}

void SshTunnel::Private::accept()
{
    for (;;) {
        const int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            return; // EAGAIN, or a client that gave up already
        }
        auto c = std::make_unique<Client>();
        c->fd = fd;
        c->channel = ssh_channel_new(session.get());
        if (c->channel == nullptr) {
            setLastError(where + u": cannot create a channel: "_s + sshError(session.get()));
            ::close(fd);
            continue;
        }
        c->callbacks.userdata = c.get();
        c->callbacks.channel_data_function = onChannelData;
        c->callbacks.channel_eof_function = onChannelEof;
        c->callbacks.channel_close_function = onChannelClose;
        ssh_callbacks_init(&c->callbacks);
        ssh_set_channel_callbacks(c->channel, &c->callbacks);
        clients.push_back(std::move(c));
        clientCount = int(clients.size());
    }
}

// Moves what can be moved for one client without blocking; true when anything changed.
bool SshTunnel::Private::advance(Client &c)
{
    bool progress = std::exchange(c.progress, false);
    if (c.state == Client::State::Opening) {
        const int rc =
            ssh_channel_open_forward(c.channel, targetHost.constData(), targetPort, "127.0.0.1", 0);
        if (rc == SSH_AGAIN) {
            return progress;
        }
        if (rc != SSH_OK) {
            setLastError(where + u": the bastion could not reach "_s +
                         hostPort(QString::fromUtf8(targetHost), targetPort) + u": "_s +
                         sshError(session.get()));
            c.state = Client::State::Done;
            return true;
        }
        c.state = Client::State::Open;
        progress = true;
    }
    if (c.state != Client::State::Open) {
        return progress;
    }

    // client -> channel, as far as the bastion's window allows
    if (c.toChannelPending() > 0) {
        const int n = ssh_channel_write(c.channel, c.toChannel.constData() + c.toChannelOff,
                                        uint32_t(c.toChannelPending()));
        if (n < 0) {
            c.state = Client::State::Done;
            return true;
        }
        if (n > 0) {
            c.toChannelOff += n;
            progress = true;
            if (c.toChannelPending() == 0) {
                c.toChannel.clear();
                c.toChannelOff = 0;
            }
        }
    }
    if (c.clientEof && c.toChannelPending() == 0 && !c.eofSent) {
        ssh_channel_send_eof(c.channel);
        c.eofSent = true;
        progress = true;
    }

    // channel -> client: first what the data callback had to leave in libssh's buffer
    if (c.refused && c.toClientPending() < kToClientHighWater) {
        c.refused = false;
        char buf[kReadChunk];
        while (c.toClientPending() < kToClientHighWater) {
            const int n = ssh_channel_read_nonblocking(c.channel, buf, sizeof buf, 0);
            if (n <= 0) {
                break;
            }
            c.toClient.append(buf, n);
            progress = true;
        }
        if (c.toClientPending() >= kToClientHighWater) {
            c.refused = ssh_channel_poll(c.channel, 0) > 0;
        }
    }
    while (c.toClientPending() > 0) {
        const ssize_t n = ::send(c.fd, c.toClient.constData() + c.toClientOff,
                                 size_t(c.toClientPending()), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) {
                break;
            }
            c.state = Client::State::Done; // the client went away
            return true;
        }
        c.toClientOff += n;
        progress = true;
    }
    if (c.toClientPending() == 0 && c.toClientOff > 0) {
        c.toClient.clear();
        c.toClientOff = 0;
    }

    // The far side closed (Redis closed the connection, or the bastion the channel): once its
    // last bytes reached the client, the client sees EOF.
    const bool farDone = ssh_channel_is_eof(c.channel) != 0 || ssh_channel_is_closed(c.channel);
    if (farDone && c.toClientPending() == 0 && !c.refused) {
        c.state = Client::State::Done;
        return true;
    }
    return progress;
}

void SshTunnel::Private::run()
{
    pthread_setname_np(pthread_self(), "sluice-ssh");
    const int sshFd = ssh_get_fd(session.get());
    std::vector<pollfd> fds;
    std::vector<Client *> polled; // clients behind fds[3...]
    while (!stop.load()) {
        // Move everything that can move, until nothing does.
        bool again = true;
        int rounds = 0;
        while (again && rounds++ < 64) {
            again = false;
            for (auto &c : clients) {
                again = advance(*c) || again;
            }
            const auto done = std::remove_if(clients.begin(), clients.end(), [this](auto &c) {
                if (c->state == Client::State::Done) {
                    closeClient(*c);
                    return true;
                }
                return false;
            });
            if (done != clients.end()) {
                clients.erase(done, clients.end());
                clientCount = int(clients.size());
            }
        }
        if (sessionDead()) {
            break;
        }

        fds.clear();
        polled.clear();
        fds.push_back({wake[0], POLLIN, 0});
        fds.push_back({listenFd, POLLIN, 0});
        short sshEvents = POLLIN;
        if ((ssh_get_poll_flags(session.get()) & SSH_WRITE_PENDING) != 0) {
            sshEvents |= POLLOUT;
        }
        fds.push_back({sshFd, sshEvents, 0});
        int timeout = again ? 0 : -1;
        for (auto &c : clients) {
            if (c->progress) {
                timeout = 0; // a callback fired while libssh served another channel
            }
            if (c->state == Client::State::Opening) {
                timeout = timeout == 0 ? 0 : kOpeningPollMs;
                continue;
            }
            const uint32_t window = ssh_channel_window_size(c->channel);
            if (c->toChannelPending() > 0 && window > 0) {
                timeout = 0; // the window grew while libssh served another channel
            }
            short ev = 0;
            if (!c->clientEof && c->toChannelPending() == 0 && window > 0) {
                ev |= POLLIN;
            }
            if (c->toClientPending() > 0) {
                ev |= POLLOUT;
            }
            if (ev != 0) {
                fds.push_back({c->fd, ev, 0});
                polled.push_back(c.get());
            }
        }

        const int n = ::poll(fds.data(), nfds_t(fds.size()), timeout);
        if (n < 0 && errno != EINTR) {
            setLastError(where + u": poll failed: "_s + QString::fromLocal8Bit(strerror(errno)));
            break;
        }
        if (n <= 0) {
            continue;
        }
        if (fds[0].revents != 0) {
            char buf[64];
            while (::read(wake[0], buf, sizeof buf) > 0) {
            }
            if (stop.load()) {
                break;
            }
        }
        if (fds[2].revents != 0) {
            ssh_event_dopoll(event, 0); // reads and handles packets: data lands in callbacks
        }
        for (size_t i = 3; i < fds.size(); ++i) {
            Client &c = *polled[i - 3];
            const short rev = fds[i].revents;
            if ((rev & POLLERR) != 0) {
                c.state = Client::State::Done;
                continue;
            }
            if ((rev & (POLLIN | POLLHUP)) != 0 && (fds[i].events & POLLIN) != 0) {
                const qsizetype want =
                    std::min<qsizetype>(kReadChunk, ssh_channel_window_size(c.channel));
                c.toChannel.resize(want);
                const ssize_t r = ::read(c.fd, c.toChannel.data(), size_t(want));
                if (r > 0) {
                    c.toChannel.resize(r);
                } else {
                    c.toChannel.clear();
                    if (r == 0) {
                        c.clientEof = true;
                    } else if (errno != EAGAIN && errno != EINTR) {
                        c.state = Client::State::Done;
                    }
                }
                c.toChannelOff = 0;
            }
        }
        if ((fds[1].revents & POLLIN) != 0) {
            accept();
        }
    }

    if (!stop.load()) {
        // The session died: nobody can be served any more. Clients see EOF; new ones find no
        // socket; shared() opens a new tunnel.
        setLastError(where + u": the SSH connection was lost: "_s + sshError(session.get()));
        closeListener();
        for (auto &c : clients) {
            closeClient(*c);
        }
        clients.clear();
        clientCount = 0;
    }
    // Last: whoever sees isAlive() false finds the socket gone and the clients closed.
    alive = false;
}

SshTunnel::SshTunnel(std::unique_ptr<Private> d)
    : d(std::move(d))
{}

SshTunnel::~SshTunnel()
{
    d->stop = true;
    const char b = 1;
    (void)!::write(d->wake[1], &b, 1);
    if (d->thread.joinable()) {
        d->thread.join();
    }
}

QString SshTunnel::socketPath() const
{
    return d->socketPath;
}

bool SshTunnel::isAlive() const
{
    return d->alive.load();
}

QString SshTunnel::display() const
{
    return d->display;
}

int SshTunnel::clientCount() const
{
    return d->clientCount.load();
}

QString SshTunnel::lastError() const
{
    const std::lock_guard lock(d->errorMutex);
    return d->lastError;
}

namespace {

// The handshake of SshTunnel::open on one libssh session, as named steps: connect (TCP, banner,
// key exchange), the host key, log in, one forward probed. Every blocking libssh call is
// bounded by what is left of the deadline; every failure names the bastion.
class Handshake
{
public:
    Handshake(const SshOptions &ssh, ssh_session s, milliseconds timeout)
        : m_ssh(ssh)
        , m_s(s)
        , m_timeout(timeout)
        , m_deadline(SteadyClock::now() + timeout)
        , m_knownHosts(ssh.knownHostsFile.isEmpty() ? QDir::homePath() + u"/.ssh/known_hosts"_s
                                                    : ssh.knownHostsFile)
        , m_shown(ssh)
    {
        configure();
    }

    // "ssh user@bastion:port"
    const QString &where() const { return m_where; }

    Error fail(Error::Kind kind, const QString &what) const
    {
        return Error::make(kind, m_where + u": "_s + what);
    }

    // 1. TCP connect, banner, key exchange
    Result<void> connect()
    {
        if (!arm()) {
            return timedOut(u"connecting"_s);
        }
        if (ssh_connect(m_s) != SSH_OK) {
            if (expired()) {
                return timedOut(u"connecting and the SSH handshake: is it an SSH server?"_s);
            }
            return fail(Error::Kind::Io, u"cannot connect: "_s + sshError(m_s));
        }
        return {};
    }

    // 2. the host key, against known_hosts (a new one written there only with acceptNew)
    Result<void> checkHostKey()
    {
        const HostKeyInfo key = hostKeyInfo(m_s);
        // How known_hosts names the bastion
        const QString knownHostsName =
            m_ssh.port == 22 ? m_ssh.host
                             : u'[' + m_ssh.host + u"]:"_s + QString::number(m_ssh.port);
        const QString keyText = key.type + u" key "_s + key.fingerprint;
        switch (ssh_session_is_known_server(m_s)) {
        case SSH_KNOWN_HOSTS_OK:
            break;
        case SSH_KNOWN_HOSTS_CHANGED:
            return fail(Error::Kind::Auth,
                        u"WARNING: THE HOST KEY HAS CHANGED. The server shows %1, which is not "
                        "the key %2 has for it: someone may be intercepting the connection, or "
                        "the host was reinstalled. Refused (--ssh-accept-new never accepts a "
                        "changed key); if the change is expected, remove the old entry "
                        "(ssh-keygen -R '%3' -f %2) and connect again."_s.arg(keyText, m_knownHosts,
                                                                              knownHostsName));
        case SSH_KNOWN_HOSTS_OTHER:
            return fail(Error::Kind::Auth,
                        u"WARNING: the server shows %1, but %2 has a key of another type for it: "
                        "someone may be intercepting the connection. Refused (--ssh-accept-new "
                        "never accepts this); if the change is expected, remove the old entry "
                        "from %2."_s.arg(keyText, m_knownHosts));
        case SSH_KNOWN_HOSTS_NOT_FOUND:
        case SSH_KNOWN_HOSTS_UNKNOWN:
            if (!m_ssh.acceptNew) {
                return fail(Error::Kind::Auth,
                            u"unknown host key: the server shows %1, which is not in %2. Check "
                            "the fingerprint with the bastion's administrator, then pass "
                            "--ssh-accept-new to trust it (it is then added there), or add it to "
                            "known_hosts yourself."_s.arg(keyText, m_knownHosts));
            }
            if (ssh_session_update_known_hosts(m_s) != SSH_OK) {
                return fail(Error::Kind::Io, u"cannot write the host key (%1) to %2: %3"_s.arg(
                                                 keyText, m_knownHosts, sshError(m_s)));
            }
            break;
        case SSH_KNOWN_HOSTS_ERROR:
            return fail(Error::Kind::Io, u"cannot check the host key against %1: %2"_s.arg(
                                             m_knownHosts, sshError(m_s)));
        }
        return {};
    }

    // 3. authentication: the key file, else the agent and default keys; then the password
    Result<void> logIn()
    {
        if (!arm()) {
            return timedOut(u"before authentication"_s);
        }
        if (auto keyed = logInWithKey(); !keyed) {
            return keyed.error();
        }
        if (m_rc == SSH_AUTH_ERROR) {
            return authError();
        }
        if (!m_authed && !m_ssh.password.isEmpty()) {
            if (!arm()) {
                return timedOut(u"authenticating"_s);
            }
            QByteArray password = m_ssh.password.toUtf8();
            m_rc = ssh_userauth_password(m_s, nullptr, password.constData());
            wipe(password);
            if (m_rc == SSH_AUTH_SUCCESS) {
                m_authed = true;
            } else if (m_rc == SSH_AUTH_ERROR) {
                return authError();
            } else {
                m_refused += u"; the password was refused (or the server takes no passwords)"_s;
            }
        }
        if (!m_authed) {
            return fail(Error::Kind::Auth,
                        u"%1@%2 could not log in: %3%4"_s.arg(
                            m_shown.user, m_ssh.host, m_refused,
                            m_rc == SSH_AUTH_PARTIAL
                                ? u" (the server wants a further authentication method)"_s
                                : QString()));
        }
        return {};
    }

    // 4. one forward to the target, opened and closed: an unreachable target (or a bastion
    // that does not forward) is reported now rather than as EOFs later.
    Result<void> probeForward(const QString &targetHost, quint16 targetPort, const QString &target)
    {
        if (!arm()) {
            return timedOut(u"before checking the forward to "_s + target);
        }
        ssh_channel probe = ssh_channel_new(m_s);
        if (probe == nullptr) {
            return fail(Error::Kind::Internal, u"cannot create a channel: "_s + sshError(m_s));
        }
        const int rc = ssh_channel_open_forward(probe, targetHost.toUtf8().constData(), targetPort,
                                                "127.0.0.1", 0);
        if (rc != SSH_OK) {
            const QString why = sshError(m_s);
            ssh_channel_free(probe);
            if (expired()) {
                return timedOut(u"opening a forward to "_s + target);
            }
            return fail(Error::Kind::Io,
                        u"the bastion could not reach %1 (%2). Check the Redis address as the "
                        "bastion sees it, that Redis listens there, and that the bastion allows "
                        "TCP forwarding (AllowTcpForwarding)."_s.arg(target, why));
        }
        ssh_channel_close(probe);
        ssh_channel_free(probe);
        return {};
    }

private:
    // The session's options: what the user passed, nothing more (~/.ssh/config is not read).
    void configure()
    {
        const QByteArray host = m_ssh.host.toUtf8();
        const unsigned int port = m_ssh.port;
        const QByteArray knownHostsBytes = QFile::encodeName(m_knownHosts);
        const bool processConfig = false;
        ssh_options_set(m_s, SSH_OPTIONS_HOST, host.constData());
        ssh_options_set(m_s, SSH_OPTIONS_PORT, &port);
        ssh_options_set(m_s, SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
        ssh_options_set(m_s, SSH_OPTIONS_KNOWNHOSTS, knownHostsBytes.constData());
        // Small request/reply traffic: without TCP_NODELAY, Nagle and delayed ACKs add 40 ms
        // stalls.
        const int noDelay = 1;
        ssh_options_set(m_s, SSH_OPTIONS_NODELAY, &noDelay);
        // Messages name the user who logs in, also when it is the local user (libssh's
        // default).
        if (m_shown.user.isEmpty()) {
            if (const passwd *pw = ::getpwuid(::geteuid()); pw != nullptr) {
                m_shown.user = QString::fromLocal8Bit(pw->pw_name);
            }
        }
        if (!m_shown.user.isEmpty()) {
            ssh_options_set(m_s, SSH_OPTIONS_USER, m_shown.user.toUtf8().constData());
        }
        m_where = u"ssh "_s + m_shown.display();
    }

    // The key file, else the agent and default keys: m_rc, m_authed and m_refused say how it
    // went; an error only for a key file that cannot be used.
    Result<void> logInWithKey()
    {
        QByteArray passphrase = m_ssh.keyPassphrase.toUtf8();
        const char *pass = m_ssh.keyPassphrase.isEmpty() ? nullptr : passphrase.constData();
        if (m_ssh.keyFile.isEmpty()) {
            m_rc = ssh_userauth_publickey_auto(m_s, nullptr, pass);
            wipe(passphrase);
            m_authed = m_rc == SSH_AUTH_SUCCESS;
            if (!m_authed && m_rc != SSH_AUTH_ERROR) {
                m_refused = u"no key of the SSH agent or of ~/.ssh was accepted"_s;
            }
            return {};
        }
        ssh_key raw = nullptr;
        m_rc = ssh_pki_import_privkey_file(QFile::encodeName(m_ssh.keyFile).constData(), pass,
                                           nullptr, nullptr, &raw);
        wipe(passphrase);
        if (m_rc != SSH_OK) {
            const QFileInfo fi(m_ssh.keyFile);
            const QString why = !fi.exists() ? u"no such file"_s
                                : !fi.isReadable()
                                    ? u"not readable"_s
                                    : u"not a private key libssh can read, or its passphrase is "
                                      "wrong or missing"_s;
            return fail(Error::Kind::Invalid,
                        u"cannot use the key file %1: %2"_s.arg(m_ssh.keyFile, why));
        }
        const KeyPtr privkey(raw);
        m_rc = ssh_userauth_publickey(m_s, nullptr, privkey.get());
        m_authed = m_rc == SSH_AUTH_SUCCESS;
        if (!m_authed && m_rc != SSH_AUTH_ERROR) {
            m_refused = u"the key %1 was refused"_s.arg(m_ssh.keyFile);
        }
        return {};
    }

    Error authError() const
    {
        if (expired()) {
            return timedOut(u"authenticating"_s);
        }
        return fail(Error::Kind::Io, u"authentication failed: "_s + sshError(m_s));
    }

    milliseconds remaining() const
    {
        return std::chrono::duration_cast<milliseconds>(m_deadline - SteadyClock::now());
    }
    bool expired() const { return remaining() <= milliseconds(10); }
    Error timedOut(const QString &step) const
    {
        return fail(Error::Kind::Timeout,
                    u"no answer within %1 ms (%2)"_s.arg(m_timeout.count()).arg(step));
    }
    // Bounds the next blocking libssh call by what is left of the deadline; false: none is.
    bool arm()
    {
        const qint64 ms = remaining().count();
        if (ms <= 0) {
            return false;
        }
        const long sec = long(ms / 1000);
        const long usec = long(ms % 1000) * 1000;
        ssh_options_set(m_s, SSH_OPTIONS_TIMEOUT, &sec);
        ssh_options_set(m_s, SSH_OPTIONS_TIMEOUT_USEC, &usec);
        return true;
    }

    const SshOptions &m_ssh;
    ssh_session m_s;
    milliseconds m_timeout;
    SteadyClock::time_point m_deadline;
    QString m_knownHosts;
    SshOptions m_shown; // m_ssh with the user who logs in
    QString m_where;
    int m_rc = SSH_AUTH_DENIED;
    bool m_authed = false;
    QString m_refused;
};

} // namespace

// 5. the private socket: a directory of mode 0700 under XDG_RUNTIME_DIR (else /tmp), a Unix
// socket listening in it, and the pipe that wakes the tunnel thread.
Result<void> SshTunnel::Private::listen(const QString &target)
{
    display = where + u" to "_s + target;
    const auto fail = [this](const QString &what) {
        return Error::make(Error::Kind::Internal, where + u": "_s + what);
    };
    QString base = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (base.isEmpty() || !QFileInfo(base).isDir() || !QFileInfo(base).isWritable()) {
        base = u"/tmp"_s;
    }
    QByteArray templ = QFile::encodeName(base + u"/sluice-ssh-XXXXXX"_s);
    if (::mkdtemp(templ.data()) == nullptr) { // mode 0700
        return fail(u"cannot create a private directory in %1: %2"_s.arg(
            base, QString::fromLocal8Bit(strerror(errno))));
    }
    dir = QFile::decodeName(templ);
    socketPath = dir + u"/tunnel.sock"_s;
    const QByteArray path = QFile::encodeName(socketPath);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (size_t(path.size()) >= sizeof addr.sun_path) {
        return fail(u"the socket path %1 is too long"_s.arg(socketPath));
    }
    std::memcpy(addr.sun_path, path.constData(), size_t(path.size()));
    listenFd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listenFd < 0 ||
        ::bind(listenFd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) != 0 ||
        ::listen(listenFd, 128) != 0) {
        return fail(
            u"cannot listen on %1: %2"_s.arg(socketPath, QString::fromLocal8Bit(strerror(errno))));
    }
    if (::pipe2(wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        return fail(u"cannot create a pipe: "_s + QString::fromLocal8Bit(strerror(errno)));
    }
    return {};
}

Result<std::shared_ptr<SshTunnel>> SshTunnel::open(const SshOptions &ssh, const QString &targetHost,
                                                   quint16 targetPort, milliseconds timeout)
{
    if (!ssh.isSet()) {
        return Error::make(Error::Kind::Invalid, u"ssh: no bastion host given"_s);
    }
    const QString target = hostPort(targetHost, targetPort);
    SessionPtr session(ssh_new());
    if (!session) {
        return Error::make(Error::Kind::Internal, u"ssh: cannot create a libssh session"_s);
    }
    ssh_session s = session.get();
    Handshake handshake(ssh, s, timeout);
    Result<void> done = handshake.connect();
    if (done) {
        done = handshake.checkHostKey();
    }
    if (done) {
        done = handshake.logIn();
    }
    if (done) {
        done = handshake.probeForward(targetHost, targetPort, target);
    }
    if (!done) {
        return done.error();
    }
    auto d = std::make_unique<Private>();
    d->where = handshake.where();
    d->targetHost = targetHost.toUtf8();
    d->targetPort = targetPort;
    if (auto listening = d->listen(target); !listening) {
        return listening.error();
    }
    // 6. hand the session to the tunnel thread: from here on only it calls libssh
    ssh_set_blocking(s, 0);
    d->event = ssh_event_new();
    if (d->event == nullptr || ssh_event_add_session(d->event, s) != SSH_OK) {
        d->session = std::move(session);
        return handshake.fail(Error::Kind::Internal, u"cannot create a libssh event"_s);
    }
    d->session = std::move(session);
    Private *p = d.get();
    std::shared_ptr<SshTunnel> tunnel(new SshTunnel(std::move(d)));
    p->thread = std::thread([p] { p->run(); });
    return tunnel;
}

namespace {

struct RegistryEntry
{
    std::weak_ptr<SshTunnel> tunnel;
    std::shared_ptr<std::timed_mutex> opening; // held while one caller opens this tunnel
};

struct Registry
{
    std::mutex mutex;
    std::map<QString, RegistryEntry> entries;
};

Registry &registry()
{
    static Registry r;
    return r;
}

} // namespace

Result<std::shared_ptr<SshTunnel>> SshTunnel::shared(const SshOptions &ssh,
                                                     const QString &targetHost, quint16 targetPort,
                                                     milliseconds timeout)
{
    const auto deadline = SteadyClock::now() + timeout;
    const QString key = ssh.user + u'@' + hostPort(ssh.host, ssh.port) + u'\n' + ssh.keyFile +
                        u'\n' + hostPort(targetHost, targetPort);
    Registry &reg = registry();
    std::shared_ptr<std::timed_mutex> gate;
    {
        const std::lock_guard lock(reg.mutex);
        for (auto it = reg.entries.begin(); it != reg.entries.end();) {
            const bool unused = it->second.tunnel.expired() && it->second.opening.use_count() == 1;
            it = unused && it->first != key ? reg.entries.erase(it) : std::next(it);
        }
        RegistryEntry &e = reg.entries[key];
        if (auto t = e.tunnel.lock(); t && t->isAlive()) {
            return t;
        }
        if (!e.opening) {
            e.opening = std::make_shared<std::timed_mutex>();
        }
        gate = e.opening;
    }
    // One open per key at a time: a second caller waits for it (within its own deadline) and
    // then takes the tunnel it made.
    std::unique_lock opening(*gate, std::defer_lock);
    if (!opening.try_lock_until(deadline)) {
        return Error::make(Error::Kind::Timeout,
                           u"ssh %1: another connection is still opening this tunnel after %2 ms"_s
                               .arg(ssh.display())
                               .arg(timeout.count()));
    }
    {
        const std::lock_guard lock(reg.mutex);
        if (auto t = reg.entries[key].tunnel.lock(); t && t->isAlive()) {
            return t;
        }
    }
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now());
    auto r = open(ssh, targetHost, targetPort, std::max(left, milliseconds(1)));
    if (r) {
        const std::lock_guard lock(reg.mutex);
        reg.entries[key].tunnel = *r;
    }
    return r;
}

} // namespace sluice::redis
