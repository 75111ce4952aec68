#include "subscriber.h"

#include "errors.h"

#include <hiredis/hiredis.h>

using namespace std::chrono;

namespace sluice::redis {

namespace {

QByteArray bytes(const redisReply *r)
{
    return r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS
               ? QByteArray(r->str, qsizetype(r->len))
               : QByteArray();
}

} // namespace

Result<Subscriber> Subscriber::open(const Endpoint &endpoint, const QList<QByteArray> &channels,
                                    Connection::Options options, const QByteArray &clientName)
{
    auto c = Connection::open(endpoint, options);
    if (!c) {
        return c.error();
    }
    if (!clientName.isEmpty()) {
        (void)c->command({"CLIENT", "SETNAME", clientName}); // best effort (ACL may refuse)
    }
    QList<QByteArray> argv{"SUBSCRIBE"};
    argv << channels;
    c->append(argv);
    for (qsizetype i = 0; i < channels.size(); ++i) {
        auto r = c->readRaw();
        if (!r) {
            return r.error();
        }
        const redisReply *reply = r->get();
        if (reply->type == REDIS_REPLY_ERROR) {
            Error e = replyError(reply);
            e.message =
                QStringLiteral("Redis at %1 refused SUBSCRIBE %2: %3")
                    .arg(c->endpoint().display(), QString::fromUtf8(channels.value(i)), e.message);
            return e;
        }
        if (reply->type != REDIS_REPLY_ARRAY || reply->elements < 1 ||
            bytes(reply->element[0]) != "subscribe") {
            return Error::make(
                Error::Kind::Protocol,
                QStringLiteral("Redis at %1 did not confirm the subscription to %2")
                    .arg(c->endpoint().display(), QString::fromUtf8(channels.value(i))));
        }
    }
    return Subscriber(std::move(*c));
}

Result<std::optional<Subscriber::Message>> Subscriber::next(int wakeFd,
                                                            const std::atomic<bool> &stopping,
                                                            milliseconds pingInterval,
                                                            milliseconds pongTimeout)
{
    auto lastActivity = steady_clock::now();
    bool pingSent = false;
    for (;;) {
        if (stopping) {
            return std::optional<Message>();
        }
        const auto deadline = lastActivity + (pingSent ? pingInterval + pongTimeout : pingInterval);
        auto left = duration_cast<milliseconds>(deadline - steady_clock::now());
        // Without a wake pipe, wait in short slices so that a stop is still prompt.
        left = std::clamp(left, milliseconds(0),
                          wakeFd >= 0 ? milliseconds(60000) : milliseconds(100));
        bool woken = false;
        auto r = m_connection.waitReply(left, wakeFd, &woken);
        if (!r) {
            return r.error();
        }
        if (r->has_value()) {
            const redisReply *reply = (*r)->get();
            lastActivity = steady_clock::now();
            pingSent = false;
            if (reply->type == REDIS_REPLY_ARRAY && reply->elements == 3 &&
                bytes(reply->element[0]) == "message") {
                return std::optional<Message>(
                    Message{bytes(reply->element[1]), bytes(reply->element[2])});
            }
            continue; // a PING's "pong", or a confirmation: keep waiting
        }
        if (woken || stopping) {
            return std::optional<Message>();
        }
        if (steady_clock::now() < deadline) {
            continue; // a slice of a longer wait ended
        }
        if (pingSent) {
            return Error::make(Error::Kind::Timeout,
                               QStringLiteral("Redis at %1 did not answer a PING on the "
                                              "subscription within %2 ms")
                                   .arg(m_connection.endpoint().display())
                                   .arg(pongTimeout.count()));
        }
        m_connection.append({"PING"});
        if (auto f = m_connection.flush(); !f) {
            return f.error();
        }
        pingSent = true;
    }
}

} // namespace sluice::redis
