#include "lazyconnection.h"

namespace sluice {

LazyConnection::LazyConnection(Endpoint endpoint, Connection::Options options)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
{}

bool LazyConnection::needsConnect() const
{
    return !m_connection || m_connection->isBroken() ||
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
    if (m_onConnect) {
        m_onConnect(*m_connection);
    }
    return &*m_connection;
}

} // namespace sluice
