#pragma once

#include "connection.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>

namespace sluice {

// The connection of a long-lived worker, and the one rule for when it reconnects: it is opened
// on first use, and reopened before a use when it is broken (a transport error), stale (a
// READONLY or MASTERDOWN reply: the master moved) or the topology changed (a MOVED or ASK made
// the server a cluster node). Connection::isBroken() says all three; reconnect() then asks the
// sentinels again, or comes back as a cluster client. Connections that share an outage count
// (followOutages(): the decision pool's workers and prober) follow one more: a connection made
// before another of them found the server down is reopened too, so that it goes where a new
// connection goes (after a failover, the new master), not to a demoted master that still
// answers. A failed attempt is returned, and the next get() tries again: the caller paces its
// attempts (its interval, a gap after a failure). One thread at a time.
//
// It is also how work outside a long-lived worker connects (a clean-up, a probe, a shard's
// scan): get() once, no retry; the connection it keeps follows the rule if it is used again.
// The functions below the class apply the same rule to a connection held elsewhere (a scan's,
// a limiter's), with retries for a caller that resumes where it was (a scan at its cursor).
class LazyConnection
{
public:
    explicit LazyConnection(Endpoint endpoint, Connection::Options options = {});

    // The connection, (re)connected by the rule above if need be; the error of the attempt
    // otherwise.
    Result<Connection *> get();
    // Whether get() will connect first (never opened, or broken by the rule above).
    bool needsConnect() const;
    // The connection as it is (maybe broken), or nullptr before the first open.
    Connection *current() { return m_connection ? &*m_connection : nullptr; }
    // Run after every open and reconnect that succeeds (CLIENT SETNAME, ...).
    void onConnect(std::function<void(Connection &)> hook) { m_onConnect = std::move(hook); }
    // Drops the connection: the next get() opens a new one.
    void reset() { m_connection.reset(); }
    // Reconnect before the next use although the connection is not broken: an error reply
    // that another server or a moment later answers (LOADING, BUSY, CLUSTERDOWN...) says
    // that this server may not be the one to ask.
    void suspect() { m_suspect = true; }
    // The count of outages seen by the connections sharing it (incremented by whoever finds
    // the server down; read here with one relaxed load per get()). It must outlive this.
    void followOutages(const std::atomic<quint64> *outages) { m_outages = outages; }
    // The outage count when the connection was last (re)made.
    quint64 outagesSeen() const { return m_outagesSeen; }

private:
    Endpoint m_endpoint;
    Connection::Options m_options;
    std::optional<Connection> m_connection;
    std::function<void(Connection &)> m_onConnect;
    const std::atomic<quint64> *m_outages = nullptr;
    quint64 m_outagesSeen = 0; // *m_outages when the connection was (re)made
    bool m_suspect = false;    // suspect() since the connection was (re)made
};

// The rule above for a connection held outside a LazyConnection: reconnected when it is
// broken, stale or the topology changed (Connection::isBroken()); left as it is otherwise.
Result<void> reconnectIfBroken(Connection &connection);

// Reconnecting after a loss the caller saw, for a caller that resumes on the same connection
// (a scan at its cursor): up to `attempts` reconnects, `delay` before each after the first,
// none once `cancelled` says so.
struct ReconnectRetry
{
    int attempts = 1;
    std::chrono::milliseconds delay{0};
    std::function<bool()> cancelled; // none: never
};
// True: reconnected; false: cancelled before; the last attempt's error otherwise.
Result<bool> reconnectWithRetry(Connection &connection, const ReconnectRetry &retry);

} // namespace sluice
