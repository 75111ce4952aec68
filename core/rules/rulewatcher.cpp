#include "rulewatcher.h"

#include "redis/connection.h"
#include "redis/errors.h"
#include "redis/sentinel.h"

#include <hiredis/hiredis.h>

#include <QMetaObject>
#include <QThread>

#include <atomic>

#include <fcntl.h>
#include <poll.h>
#include <sys/time.h>
#include <unistd.h>

namespace sluice::rules {

using namespace std::chrono;

// One per start(): the stop flag and a self-pipe that wakes the worker out of poll().
struct RuleWatcher::Shared
{
    std::atomic<bool> stopping{false};
    int wake[2] = {-1, -1};

    Shared()
    {
        if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
            wake[0] = wake[1] = -1; // the worker then polls with short timeouts only
        }
    }
    ~Shared()
    {
        for (int fd : wake) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }
    void requestStop()
    {
        stopping = true;
        if (wake[1] >= 0) {
            const char byte = 1;
            [[maybe_unused]] const auto n = ::write(wake[1], &byte, 1);
        }
    }
    // Sleeps up to `d`; false when woken by stop().
    bool sleep(milliseconds d) const
    {
        const auto until = steady_clock::now() + d;
        while (!stopping) {
            const auto left = duration_cast<milliseconds>(until - steady_clock::now());
            if (left.count() <= 0) {
                return true;
            }
            pollfd p{wake[0], POLLIN, 0};
            ::poll(&p, wake[0] >= 0 ? 1 : 0, int(std::min<qint64>(left.count(), 100)));
        }
        return false;
    }
};

namespace {

timeval toTimeval(milliseconds ms)
{
    timeval tv{};
    tv.tv_sec = time_t(ms.count() / 1000);
    tv.tv_usec = suseconds_t((ms.count() % 1000) * 1000);
    return tv;
}

// The subscribed connection. Not a sluice::Connection: hiredis breaks a blocking context for
// good on a read timeout, and a subscriber is idle most of the time; so this one waits with
// poll() on the socket and the stop pipe, and reads only what is there.
class Subscriber
{
public:
    enum class Event { Message, Stop };

    Result<void> open(const Endpoint &where, const QByteArray &channel,
                      const RuleWatcher::Options &o)
    {
        // A raw context needs an address: behind Sentinel, the master's, asked again on every
        // (re)open, so that a failover is followed (Sentinel kills pub/sub clients of the
        // master it demotes).
        Endpoint endpoint = where;
        if (where.kind == Endpoint::Kind::Sentinel) {
            auto master = redis::resolveMaster(where, o.connectTimeout);
            if (!master) {
                return master.error();
            }
            endpoint = *master;
        }
        m_endpoint = endpoint;
        const QByteArray host = endpoint.host.toUtf8();
        m_ctx.reset(
            redisConnectWithTimeout(host.constData(), endpoint.port, toTimeval(o.connectTimeout)));
        if (!m_ctx || m_ctx->err) {
            return redis::connectError(m_ctx.get(), endpoint);
        }
        // Bounds the blocking writes and the handshake below; reads wait in poll() instead.
        redisSetTimeout(m_ctx.get(), toTimeval(o.commandTimeout));
        redisEnableKeepAlive(m_ctx.get());
        if (!endpoint.password.isEmpty()) {
            QList<QByteArray> auth{"AUTH"};
            if (!endpoint.user.isEmpty()) {
                auth << endpoint.user.toUtf8();
            }
            auth << endpoint.password.toUtf8();
            if (auto r = command(auth); !r) {
                return r.error();
            }
        }
        if (auto r = command({"CLIENT", "SETNAME", RuleWatcher::clientName()}); !r) {
            return r.error();
        }
        auto r = command({"SUBSCRIBE", channel});
        if (!r) {
            return r.error();
        }
        if ((*r)->type != REDIS_REPLY_ARRAY || (*r)->elements < 1 ||
            QByteArray((*r)->element[0]->str, qsizetype((*r)->element[0]->len)) != "subscribe") {
            return Error::make(Error::Kind::Protocol,
                               QStringLiteral("Redis at %1 did not confirm the subscription to %2")
                                   .arg(endpoint.display(), QString::fromUtf8(channel)));
        }
        return {};
    }

    // Waits for the next message on the channel, PINGing when idle for `pingInterval` and
    // giving up when the PING is not answered within `pongTimeout`.
    Result<Event> next(const std::atomic<bool> &stopping, int wakeFd, milliseconds pingInterval,
                       milliseconds pongTimeout)
    {
        auto lastActivity = steady_clock::now();
        bool pingSent = false;
        for (;;) {
            if (stopping) {
                return Event::Stop;
            }
            void *raw = nullptr;
            if (redisGetReplyFromReader(m_ctx.get(), &raw) != REDIS_OK) {
                return redis::contextError(m_ctx.get(), m_endpoint);
            }
            if (raw) {
                Connection::RawReply reply(static_cast<redisReply *>(raw));
                lastActivity = steady_clock::now();
                pingSent = false;
                if (reply->type == REDIS_REPLY_ARRAY && reply->elements == 3 &&
                    QByteArray(reply->element[0]->str, qsizetype(reply->element[0]->len)) ==
                        "message") {
                    return Event::Message;
                }
                continue; // a PING's "pong", or a confirmation: keep waiting
            }
            const auto deadline =
                lastActivity + (pingSent ? pingInterval + pongTimeout : pingInterval);
            const qint64 left = std::max<qint64>(
                0, duration_cast<milliseconds>(deadline - steady_clock::now()).count());
            pollfd fds[2] = {{m_ctx->fd, POLLIN, 0}, {wakeFd, POLLIN, 0}};
            // Without a wake pipe, poll in short slices so that stop() is still prompt.
            const int n = ::poll(
                fds, wakeFd >= 0 ? 2 : 1,
                int(wakeFd >= 0 ? std::min<qint64>(left, 60000) : std::min<qint64>(left, 100)));
            if (n < 0) {
                if (errno == EINTR) {
                    continue;
                }
                return Error::make(Error::Kind::Io,
                                   QStringLiteral("waiting for rule store messages from Redis at "
                                                  "%1 failed (poll: errno %2)")
                                       .arg(m_endpoint.display())
                                       .arg(errno));
            }
            if (wakeFd >= 0 && fds[1].revents) {
                return Event::Stop;
            }
            if (fds[0].revents) {
                if (redisBufferRead(m_ctx.get()) != REDIS_OK) {
                    return redis::contextError(m_ctx.get(), m_endpoint);
                }
                continue;
            }
            if (steady_clock::now() < deadline) {
                continue; // a slice of a longer wait ended
            }
            if (pingSent) {
                return Error::make(Error::Kind::Timeout,
                                   QStringLiteral("Redis at %1 did not answer a PING on the rule "
                                                  "store subscription within %2 ms")
                                       .arg(m_endpoint.display())
                                       .arg(pongTimeout.count()));
            }
            const char *argv[] = {"PING"};
            const size_t len[] = {4};
            redisAppendCommandArgv(m_ctx.get(), 1, argv, len);
            int done = 0;
            while (!done) {
                if (redisBufferWrite(m_ctx.get(), &done) != REDIS_OK) {
                    return redis::contextError(m_ctx.get(), m_endpoint);
                }
            }
            pingSent = true;
        }
    }

private:
    struct Free
    {
        void operator()(redisContext *c) const { redisFree(c); }
    };

    // One blocking round trip, before subscribing.
    Result<Connection::RawReply> command(const QList<QByteArray> &args)
    {
        std::vector<const char *> argv;
        std::vector<size_t> len;
        for (const QByteArray &a : args) {
            argv.push_back(a.constData());
            len.push_back(size_t(a.size()));
        }
        void *raw = redisCommandArgv(m_ctx.get(), int(argv.size()), argv.data(), len.data());
        if (!raw) {
            return redis::contextError(m_ctx.get(), m_endpoint);
        }
        Connection::RawReply reply(static_cast<redisReply *>(raw));
        if (reply->type == REDIS_REPLY_ERROR) {
            Error e = redis::replyError(reply.get());
            e.message =
                QStringLiteral("Redis at %1 refused %2: %3")
                    .arg(m_endpoint.display(), QString::fromLatin1(args.front()), e.message);
            return e;
        }
        return reply;
    }

    Endpoint m_endpoint;
    std::unique_ptr<redisContext, Free> m_ctx;
};

} // namespace

RuleWatcher::RuleWatcher(Endpoint endpoint, RuleStore store, Options options, QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_store(std::move(store))
    , m_options(options)
{
    qRegisterMetaType<sluice::RuleSet>();
}

RuleWatcher::RuleWatcher(Endpoint endpoint, RuleStore store, QObject *parent)
    : RuleWatcher(std::move(endpoint), std::move(store), Options{}, parent)
{}

RuleWatcher::~RuleWatcher()
{
    stop();
}

void RuleWatcher::start()
{
    if (m_thread) {
        return;
    }
    m_shared = std::make_shared<Shared>();
    m_thread = QThread::create([this, shared = m_shared] { run(shared); });
    m_thread->setObjectName(QStringLiteral("sluice-rulewatcher"));
    m_thread->start();
}

void RuleWatcher::stop()
{
    if (!m_thread) {
        return;
    }
    m_shared->requestStop();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_shared.reset(); // signals the worker posted but not yet delivered are dropped
}

bool RuleWatcher::isRunning() const
{
    return m_thread != nullptr;
}

// The worker thread. Reads only immutable members (endpoint, store, options).
void RuleWatcher::run(std::shared_ptr<Shared> shared)
{
    // Emission happens in this object's thread; a stop() in between drops it.
    auto post = [this, shared](auto emitter) {
        QMetaObject::invokeMethod(
            this,
            [this, shared, emitter = std::move(emitter)] {
                if (m_shared == shared) {
                    emitter();
                }
            },
            Qt::QueuedConnection);
    };
    bool failing = false;
    auto fail = [&](const Error &e) {
        if (!failing) {
            failing = true;
            post([this, message = e.message] { Q_EMIT errorOccurred(message); });
        }
    };

    std::optional<qint64> emitted; // the version last emitted
    std::optional<Connection> puller;
    // Pulls and emits if the version moved. A connection loss is returned (the caller
    // reconnects everything); a store that cannot be read is reported, and we keep listening.
    auto pullAndEmit = [&]() -> Result<void> {
        for (int attempt = 0;; ++attempt) {
            if (!puller || puller->isBroken()) {
                auto c =
                    Connection::open(m_endpoint, Connection::Options{m_options.connectTimeout,
                                                                     m_options.commandTimeout});
                if (!c) {
                    return c.error();
                }
                puller.emplace(std::move(*c));
                (void)puller->command({"CLIENT", "SETNAME", clientName()});
            }
            auto snap = m_store.pull(*puller);
            if (snap) {
                failing = false;
                if (emitted != snap->version) {
                    emitted = snap->version;
                    post([this, set = std::move(snap->set), version = snap->version] {
                        Q_EMIT rulesChanged(set, version);
                    });
                }
                return {};
            }
            if (!snap.error().isConnectionLoss()) {
                fail(snap.error());
                return {};
            }
            if (attempt == 1) {
                return snap.error();
            }
            puller.reset(); // the pull connection was cut (CLIENT KILL, restart): once more
        }
    };

    milliseconds backoff = m_options.minBackoff;
    while (!shared->stopping) {
        Subscriber sub;
        auto opened = sub.open(m_endpoint, m_store.channel(), m_options);
        Result<void> pulled = opened ? pullAndEmit() : Result<void>(opened.error());
        if (!pulled) {
            fail(pulled.error());
            shared->sleep(backoff);
            backoff = std::min(backoff * 2, m_options.maxBackoff);
            continue;
        }
        backoff = m_options.minBackoff;
        for (;;) {
            auto ev = sub.next(shared->stopping, shared->wake[0], m_options.pingInterval,
                               m_options.commandTimeout);
            if (!ev) {
                fail(ev.error());
                break;
            }
            if (*ev == Subscriber::Event::Stop) {
                return;
            }
            if (auto r = pullAndEmit(); !r) {
                fail(r.error());
                break;
            }
        }
        // Lost: reconnect soon (a killed connection on a healthy server comes right back).
        shared->sleep(backoff);
        backoff = std::min(backoff * 2, m_options.maxBackoff);
    }
}

} // namespace sluice::rules
