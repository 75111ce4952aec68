#pragma once

#include "connection.h"

#include <QByteArray>
#include <QList>

#include <atomic>
#include <chrono>
#include <optional>

namespace sluice::redis {

// A pub/sub subscription on a Connection of its own (any transport the endpoint names).
// Idle most of the time: it waits with the connection's waitReply(), PINGs when nothing came
// for a while, and fails when the PING is not answered: a silent link (a dead NAT entry, a
// paused server) is noticed instead of waited on forever. Not thread-safe; one thread.
class Subscriber
{
public:
    struct Message
    {
        QByteArray channel;
        QByteArray payload;
    };

    // Connects, names the client (best effort: an ACL user without CLIENT still subscribes)
    // and subscribes to `channels`.
    static Result<Subscriber> open(const Endpoint &endpoint, const QList<QByteArray> &channels,
                                   Connection::Options options, const QByteArray &clientName);

    // The next message, or nullopt when `wakeFd` became readable or `stopping` was set.
    Result<std::optional<Message>> next(int wakeFd, const std::atomic<bool> &stopping,
                                        std::chrono::milliseconds pingInterval,
                                        std::chrono::milliseconds pongTimeout);

private:
    explicit Subscriber(Connection c)
        : m_connection(std::move(c))
    {}
    Connection m_connection;
};

} // namespace sluice::redis
