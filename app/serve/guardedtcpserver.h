#pragma once

#include <QTcpServer>

namespace sluice::serve {

// The listening socket of the check service: hands out GuardedSocket connections (see there)
// to the HTTP server bound to it.
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT
public:
    explicit GuardedTcpServer(qsizetype maxRequestLineBytes, QObject *parent = nullptr);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    qsizetype m_maxRequestLine;
};

} // namespace sluice::serve
