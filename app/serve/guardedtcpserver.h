#pragma once

#include "guardedsocket.h"

#include <QTcpServer>

namespace sluice::serve {

// The listening socket of the check service: hands out GuardedSocket connections (see there)
// to the HTTP server bound to it, at most HttpLimits::maxConnections at a time: past it a new
// connection is answered 503 and closed (a fast refusal, not a queue).
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT
public:
    explicit GuardedTcpServer(const HttpLimits &limits, QObject *parent = nullptr);

    int connections() const { return m_connections; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    HttpLimits m_limits;
    int m_connections = 0;
};

} // namespace sluice::serve
