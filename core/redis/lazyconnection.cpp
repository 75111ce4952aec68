#include "lazyconnection.h"

#include <algorithm>
#include <thread>

namespace sluice {

LazyConnection::LazyConnection(Endpoint endpoint, Connection::Options options)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
{}

bool LazyConnection::needsConnect() const
{
    return !m_connection || m_connection->isBroken() || m_suspect ||
           (m_outages != nullptr && m_outages->load(std::memory_order_relaxed) != m_outagesSeen);
}

Result<Connection *> LazyConnection::get()
{
    if (!needsConnect()) {
        return &*m_connection;
    }
    // Read before the attempt: an outage found during it makes this connection suspect too.
    const quint64 outages = m_outages != nullptr ? m_outages->load(std::memory_order_relaxed) : 0;
    if (m_connection) {
        if (auto r = m_connection->reconnect(); !r) {
            return r.error();
        }
    } else {
        auto c = Connection::open(m_endpoint, m_options);
        if (!c) {
            return c.error();
        }
        m_connection.emplace(std::move(*c));
    }
    m_outagesSeen = outages;
    m_suspect = false;
    if (m_onConnect) {
        m_onConnect(*m_connection);
    }
    return &*m_connection;
}

Result<void> reconnectIfBroken(Connection &connection)
{
    if (!connection.isBroken()) {
        return {};
    }
    return connection.reconnect();
}

Result<bool> reconnectWithRetry(Connection &connection, const ReconnectRetry &retry)
{
    std::optional<Error> last;
    for (int attempt = 0; attempt < std::max(retry.attempts, 1); ++attempt) {
        if (attempt > 0) {
            std::this_thread::sleep_for(retry.delay);
        }
        if (retry.cancelled && retry.cancelled()) {
            return false;
        }
        auto r = connection.reconnect();
        if (r) {
            return true;
        }
        last = r.error();
    }
    return *last;
}

} // namespace sluice
