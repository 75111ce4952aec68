#include "rulewatcher.h"

#include "core/redis/connection.h"
#include "core/redis/lazyconnection.h"
#include "core/redis/subscriber.h"

#include <QMetaObject>
#include <QThread>

#include <atomic>
#include <utility>

#include <fcntl.h>
#include <poll.h>
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
    RuleSet emittedSet;            // withOverrides: the set last emitted, overrides merged
    QStringList emittedSkipped;
    LazyConnection puller(m_endpoint,
                          Connection::Options{m_options.connectTimeout, m_options.commandTimeout});
    puller.onConnect([](Connection &c) {
        (void)c.command({"CLIENT", "SETNAME", clientName()}); // best effort
    });
    // Pulls and emits if the version moved. A connection loss is returned (the caller
    // reconnects everything); a store that cannot be read is reported, and we keep listening.
    auto pullAndEmit = [&]() -> Result<void> {
        for (int attempt = 0;; ++attempt) {
            auto pulling = puller.get();
            if (!pulling) {
                return pulling.error();
            }
            Connection &pull = **pulling;
            auto snap =
                m_store.pull(pull, m_options.skipUnreadable ? RuleStore::Reading::SkipUnreadable
                                                            : RuleStore::Reading::Strict);
            QStringList skipped = snap ? snap->skipped : QStringList();
            if (snap && m_options.withOverrides) {
                // The overrides of the rules just pulled; a change of either emits.
                auto stored = OverrideStore(m_store.ns()).list(pull, snap->set, {}, &skipped);
                if (!stored && stored.error().kind == Error::Kind::Auth) {
                    // A user that may read the rules but not list the overrides (an older
                    // ACL): the rules alone, and the refusal said as a skipped entry, once.
                    skipped << QStringLiteral("the stored overrides cannot be listed: ") +
                                   stored.error().message;
                } else if (!stored) {
                    snap = stored.error();
                } else {
                    OverrideStore::merge(snap->set, *stored);
                }
            }
            if (snap && skipped != emittedSkipped) {
                emittedSkipped = skipped;
                post([this, skipped] { Q_EMIT this->skipped(skipped); });
            }
            if (snap) {
                if (std::exchange(failing, false)) {
                    post([this] { Q_EMIT recovered(); });
                }
                if (emitted != snap->version ||
                    (m_options.withOverrides && emittedSet != snap->set)) {
                    emitted = snap->version;
                    if (m_options.withOverrides) {
                        emittedSet = snap->set;
                    }
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
        auto sub = redis::Subscriber::open(
            m_endpoint, {m_store.channel()},
            Connection::Options{m_options.connectTimeout, m_options.commandTimeout}, clientName());
        Result<void> pulled = sub ? pullAndEmit() : Result<void>(sub.error());
        if (!pulled) {
            fail(pulled.error());
            shared->sleep(backoff);
            backoff = std::min(backoff * 2, m_options.maxBackoff);
            continue;
        }
        backoff = m_options.minBackoff;
        for (;;) {
            auto ev = sub->next(shared->wake[0], shared->stopping, m_options.pingInterval,
                                m_options.commandTimeout);
            if (!ev) {
                fail(ev.error());
                break;
            }
            if (!ev->has_value()) {
                return; // stop() woke us
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
