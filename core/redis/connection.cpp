#include "connection.h"

#include "errors.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

namespace sluice {

namespace {

timeval toTimeval(std::chrono::milliseconds ms)
{
    timeval tv{};
    tv.tv_sec = time_t(ms.count() / 1000);
    tv.tv_usec = suseconds_t((ms.count() % 1000) * 1000);
    return tv;
}

} // namespace

void Connection::ContextDeleter::operator()(redisContext *c) const
{
    redisFree(c);
}

void Connection::ReplyDeleter::operator()(redisReply *r) const
{
    freeReplyObject(r);
}

Connection::Connection(Endpoint endpoint, Options options)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
{}

Connection::Connection(Connection &&) noexcept = default;
Connection &Connection::operator=(Connection &&) noexcept = default;
Connection::~Connection() = default;

Result<Connection> Connection::open(const Endpoint &endpoint, Options options)
{
    Connection c(endpoint, options);
    if (auto r = c.connectNow(); !r) {
        return r.error();
    }
    return c;
}

Result<void> Connection::connectNow()
{
    m_ctx.reset();
    m_pending = 0;
    m_loaded.clear();
    const QByteArray host = m_endpoint.host.toUtf8();
    std::unique_ptr<redisContext, ContextDeleter> ctx(redisConnectWithTimeout(
        host.constData(), m_endpoint.port, toTimeval(m_options.connectTimeout)));
    if (!ctx || ctx->err) {
        return redis::connectError(ctx.get(), m_endpoint);
    }
    if (redisSetTimeout(ctx.get(), toTimeval(m_options.commandTimeout)) != REDIS_OK) {
        return redis::connectError(ctx.get(), m_endpoint);
    }
    m_ctx = std::move(ctx);
    if (!m_endpoint.password.isEmpty()) {
        QList<QByteArray> auth{QByteArrayLiteral("AUTH")};
        if (!m_endpoint.user.isEmpty()) {
            auth << m_endpoint.user.toUtf8();
        }
        auth << m_endpoint.password.toUtf8();
        auto r = command(auth);
        if (!r) {
            m_ctx.reset();
            const Error &e = r.error();
            if (e.kind == Error::Kind::Auth || e.kind == Error::Kind::Reply) {
                return Error::make(
                    Error::Kind::Auth,
                    QStringLiteral("Redis at %1 refused the credentials%2: %3; check the user "
                                   "name and password")
                        .arg(m_endpoint.display(),
                             m_endpoint.user.isEmpty()
                                 ? QString()
                                 : QStringLiteral(" of user '%1'").arg(m_endpoint.user),
                             e.message));
            }
            return e;
        }
    }
    if (m_endpoint.db != 0) {
        auto r = command({QByteArrayLiteral("SELECT"), QByteArray::number(m_endpoint.db)});
        if (!r) {
            m_ctx.reset();
            if (r.error().kind == Error::Kind::Reply) {
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("Redis at %1 cannot select database %2: %3")
                                       .arg(m_endpoint.display())
                                       .arg(m_endpoint.db)
                                       .arg(r.error().message));
            }
            return r.error();
        }
    }
    return {};
}

bool Connection::isBroken() const
{
    return !m_ctx || m_ctx->err != 0;
}

Result<void> Connection::reconnect()
{
    return connectNow();
}

Error Connection::brokenError() const
{
    if (m_ctx) {
        return redis::contextError(m_ctx.get(), m_endpoint);
    }
    return Error::make(Error::Kind::Closed,
                       QStringLiteral("not connected to Redis at %1").arg(m_endpoint.display()));
}

void Connection::append(int argc, const char **argv, const size_t *argvlen)
{
    if (isBroken()) {
        return; // readRaw() reports the error
    }
    if (redisAppendCommandArgv(m_ctx.get(), argc, argv, argvlen) == REDIS_OK) {
        ++m_pending;
    }
}

void Connection::appendEncoded(const char *resp, size_t size)
{
    if (isBroken() || size == 0) {
        return; // readRaw() reports the error
    }
    redisAppendFormattedCommand(m_ctx.get(), resp, size);
}

void Connection::append(const QList<QByteArray> &argv)
{
    constexpr int stackArgs = 16;
    const char *ptrStack[stackArgs];
    size_t lenStack[stackArgs];
    std::vector<const char *> ptrHeap;
    std::vector<size_t> lenHeap;
    const char **ptrs = ptrStack;
    size_t *lens = lenStack;
    if (argv.size() > stackArgs) {
        ptrHeap.resize(size_t(argv.size()));
        lenHeap.resize(size_t(argv.size()));
        ptrs = ptrHeap.data();
        lens = lenHeap.data();
    }
    for (qsizetype i = 0; i < argv.size(); ++i) {
        ptrs[i] = argv[i].constData();
        lens[i] = size_t(argv[i].size());
    }
    append(int(argv.size()), ptrs, lens);
}

Result<Connection::RawReply> Connection::readRaw()
{
    if (isBroken()) {
        return brokenError();
    }
    void *raw = nullptr;
    if (redisGetReply(m_ctx.get(), &raw) != REDIS_OK || raw == nullptr) {
        m_pending = 0;
        return brokenError();
    }
    if (m_pending > 0) {
        --m_pending;
    }
    return RawReply(static_cast<redisReply *>(raw));
}

Reply Connection::toReply(const redisReply *r)
{
    Reply out;
    switch (r->type) {
    case REDIS_REPLY_INTEGER:
        out.type = Reply::Type::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_STRING:
        out.type = Reply::Type::String;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_STATUS:
        out.type = Reply::Type::Status;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_ARRAY:
        out.type = Reply::Type::Array;
        out.elements.reserve(r->elements);
        for (size_t i = 0; i < r->elements; ++i) {
            out.elements.push_back(toReply(r->element[i]));
        }
        break;
    default:
        out.type = Reply::Type::Nil;
        break;
    }
    return out;
}

Result<Reply> Connection::command(const QList<QByteArray> &argv)
{
    append(argv);
    auto raw = readRaw();
    if (!raw) {
        return raw.error();
    }
    if ((*raw)->type == REDIS_REPLY_ERROR) {
        return redis::replyError(raw->get());
    }
    return toReply(raw->get());
}

Result<std::vector<Result<Reply>>> Connection::pipeline(const QList<QList<QByteArray>> &commands)
{
    for (const auto &argv : commands) {
        append(argv);
    }
    std::vector<Result<Reply>> out;
    out.reserve(size_t(commands.size()));
    for (qsizetype i = 0; i < commands.size(); ++i) {
        auto raw = readRaw();
        if (!raw) {
            return raw.error();
        }
        if ((*raw)->type == REDIS_REPLY_ERROR) {
            out.emplace_back(redis::replyError(raw->get()));
        } else {
            out.emplace_back(toReply(raw->get()));
        }
    }
    return out;
}

} // namespace sluice
