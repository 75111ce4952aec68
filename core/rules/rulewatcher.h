#pragma once

#include "overridestore.h"
#include "rulestore.h"

#include "core/redis/endpoint.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <memory>

class QThread;

namespace sluice::rules {

// Keeps an engine's rules in step with a RuleStore, without a restart.
//
// start() runs a worker thread with two connections of its own to `endpoint`: one SUBSCRIBEd
// to the store's channel, one to pull with. It pulls once subscribed (so no push can fall
// between the pull and the subscription), on every message, and after every reconnect, and
// emits rulesChanged() whenever the pulled version differs from the last one emitted (always
// once after start(), even for an empty store: version 0).
//
// Threading: signals are emitted in the thread this object lives in (posted there from the
// worker), so that thread needs an event loop; receivers in other threads get them queued as
// usual. stop() (and the destructor) wakes the worker and joins it: it returns promptly unless
// the worker is inside a connect or a pull, bounded by the connect and command timeouts.
//
// Failures never stop the watcher: a lost connection (server restart, CLIENT KILL, network)
// is reported once through errorOccurred() and retried with exponential back-off; an idle
// subscription is PINGed so that a silently dead link is noticed.
class RuleWatcher : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        std::chrono::milliseconds connectTimeout{2000};
        std::chrono::milliseconds commandTimeout{5000}; // pulls, and the PING answer
        std::chrono::milliseconds minBackoff{100};      // first retry after a failure
        std::chrono::milliseconds maxBackoff{5000};     // doubling up to this
        std::chrono::milliseconds pingInterval{15000};  // idle time before a liveness PING
        // Also follow the stored overrides (OverrideStore, same namespace and channel): each
        // pull lists them and merges them into the rules (OverrideStore::merge), and
        // rulesChanged() is emitted when either the version or the overrides moved.
        bool withOverrides = false;
        // Pulls with RuleStore::Reading::SkipUnreadable: a corrupt store serves what it can,
        // the rest said through skipped() (serve).
        bool skipUnreadable = false;
    };

    RuleWatcher(Endpoint endpoint, RuleStore store, Options options, QObject *parent = nullptr);
    explicit RuleWatcher(Endpoint endpoint, RuleStore store = RuleStore(),
                         QObject *parent = nullptr);
    ~RuleWatcher() override;

    void start(); // no-op while running
    void stop();  // joins the worker; no signal is emitted after it returns
    bool isRunning() const;

    // CLIENT SETNAME of both connections: lets an operator (or a test) find them in CLIENT LIST.
    static QByteArray clientName() { return QByteArrayLiteral("sluice-rulewatcher"); }

Q_SIGNALS:
    void rulesChanged(const sluice::RuleSet &set, qint64 version);
    // What the store holds but was not read or is not applied, once per change of that list
    // (empty: all is read again): with Options::skipUnreadable what the pull skipped, with
    // Options::withOverrides the overrides that match nothing (their rule is gone, they no
    // longer fit it, or they are past OverrideStore::maxStored).
    void skipped(const QStringList &why);
    // A connection or a pull failed; the watcher keeps retrying. Once per failure streak.
    void errorOccurred(const QString &message);
    // The streak errorOccurred() began is over: subscribed and pulled again. Emitted even when
    // the version did not move meanwhile (no rulesChanged() then), so that a watcher's owner
    // can stop saying it is not watching.
    void recovered();

private:
    struct Shared;
    void run(std::shared_ptr<Shared> shared);

    Endpoint m_endpoint;
    RuleStore m_store;
    Options m_options;
    std::shared_ptr<Shared> m_shared;
    QThread *m_thread = nullptr; // owned; joined and deleted by stop()
};

} // namespace sluice::rules
