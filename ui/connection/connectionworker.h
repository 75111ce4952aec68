#pragma once

#include "connectionstate.h"

#include "core/redis/connection.h"
#include "core/redis/lazyconnection.h"

#include <QObject>

#include <chrono>
#include <optional>

class QTimer;

namespace sluice::ui {

// Talks to Redis for the console, on a thread of its own (ARCHITECTURE.md "Threads"): create
// it, move it to its QThread, and call its slots only through queued calls. Every hiredis call
// blocks this thread, never the GUI's.
//
// open() keeps a connection alive: a PING every second measures the round trip; a transport
// failure turns the state to Lost and retries after 1, 2, 4, 8, 16, then every 30 s; errors
// that a retry cannot fix (credentials, database) turn it to Failed. probe() is a one-shot
// check for "Test connection": connect, INFO server, PING, report, close.
class ConnectionWorker : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionWorker(Connection::Options options, QObject *parent = nullptr);
    ~ConnectionWorker() override;

    // Seconds before retry number `attempt` (0-based): 1, 2, 4, 8, 16, 30, 30, ...
    static int backoffSeconds(int attempt);

public Q_SLOTS:
    void open(const sluice::ui::ConnectionRequest &request);
    void close();
    // Retry now instead of waiting for the back-off (F5 while the connection is lost).
    void retryNow();
    // A page's worker saw the server answer or fail: connected, the liveness PING now (a loss
    // turns Lost at once); lost, the retry now.
    void checkNow();
    void probe(const sluice::ui::ConnectionRequest &request);

Q_SIGNALS:
    void stateChanged(const sluice::ui::ConnectionState &state);
    void probed(const sluice::ui::ConnectionState &result);

private:
    void attempt();
    void tick();
    void becomeLost(const Error &error);
    // Names the connection, reads the version, measures one PING. Fills `s`.
    Result<void> handshake(Connection &c, ConnectionState &s, const QByteArray &clientName) const;
    Result<double> ping(Connection &c) const;
    void describe(const Error &error, const Endpoint &endpoint, ConnectionState &s) const;
    void ensureTimer();
    // CLUSTER NODES into m_state (cluster only); false when nothing changed.
    bool readNodes();

    Connection::Options m_options;
    ConnectionRequest m_request;
    ConnectionState m_state;
    std::optional<LazyConnection> m_connection; // opened by attempt()
    QTimer *m_timer = nullptr;                  // created in the worker's thread, on first use
    int m_attempt = 0;                          // failed retries since the last success
    int m_retryLeft = 0;                        // seconds to the next retry while Lost
    int m_ticks = 0; // ticks while connected: the node list every nodesEveryTicks
};

} // namespace sluice::ui
