#pragma once

#include "guardedsocket.h"

#include <QTcpServer>

#include <memory>

namespace sluice::serve {

// The listening socket of the check service: hands out GuardedSocket connections (see there)
// to the HTTP server bound to it, at most HttpLimits::maxConnections at a time: past it a new
// connection is answered 503 and closed (a fast refusal, not a queue).
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT
public:
    explicit GuardedTcpServer(const HttpLimits &limits, QObject *parent = nullptr);

    int connections() const { return *m_connections; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    HttpLimits m_limits;
    // Shared with the connections, which may outlive the count's owner by a moment.
    std::shared_ptr<int> m_connections = std::make_shared<int>(0);
};

} // namespace sluice::serve
