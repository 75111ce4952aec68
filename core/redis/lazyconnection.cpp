#include "lazyconnection.h"

namespace sluice {

LazyConnection::LazyConnection(Endpoint endpoint, Connection::Options options)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
{}

bool LazyConnection::needsConnect() const
{
    return !m_connection || m_connection->isBroken();
}

Result<Connection *> LazyConnection::get()
{
    if (!needsConnect()) {
        return &*m_connection;
    }
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
    if (m_onConnect) {
        m_onConnect(*m_connection);
    }
    return &*m_connection;
}

} // namespace sluice
