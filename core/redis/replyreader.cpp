#include "replyreader.h"

#include <hiredis/hiredis.h>

#include <algorithm>

namespace sluice::redis {

namespace {

// The bound of the reply being read, for the reader's object functions below: they run inside
// redisReaderGetReply on the calling thread, so a thread-local is enough (and needs no hiredis
// field whose meaning changed between versions).
struct Limits
{
    const ReplyBound *bound = nullptr;
    qint64 *elements = nullptr; // the reply's elements so far (ReplyReader::m_replyElements)
    qint64 announced = -1;      // what broke the bound: an array's count or a string's length
    bool array = false;
};
thread_local Limits *tlLimits = nullptr;

// hiredis's own object functions, taken from a reader it made, so that replies stay plain
// redisReply values (callers walk them and free them with freeReplyObject).
const redisReplyObjectFunctions &defaultFunctions()
{
    static const redisReplyObjectFunctions fns = [] {
        redisReader *r = redisReaderCreate();
        redisReplyObjectFunctions f = *r->fn;
        redisReaderFree(r);
        return f;
    }();
    return fns;
}

// An array's count is checked when its header is read, before hiredis allocates its element
// pointers; returning nullptr makes the reader fail ("out of memory"), and take() says why.
void *createArrayBounded(const redisReadTask *task, int elements)
{
    if (Limits *l = tlLimits) {
        *l->elements += std::max(elements, 0);
        if (*l->elements > l->bound->elements) {
            l->announced = elements;
            l->array = true;
            return nullptr;
        }
    }
    return defaultFunctions().createArray(task, elements);
}

// A string that came whole within one read: its length against the bound (one that has not
// come whole is judged at its header, in take()).
void *createStringBounded(const redisReadTask *task, char *str, size_t len)
{
    if (Limits *l = tlLimits;
        l && task->type == REDIS_REPLY_STRING && qint64(len) > l->bound->bulkBound()) {
        l->announced = qint64(len);
        return nullptr;
    }
    return defaultFunctions().createString(task, str, len);
}

redisReplyObjectFunctions *boundedFunctions()
{
    static redisReplyObjectFunctions fns = [] {
        redisReplyObjectFunctions f = defaultFunctions();
        f.createArray = createArrayBounded;
        f.createString = createStringBounded;
        return f;
    }();
    return &fns;
}

// The length a bulk string announced whose bytes have not all come, or -1 when the reader is not
// inside one. hiredis keeps the task being read on its stack; for a bulk string it has read the
// '$' (the task's type is set) and stays at the length until the whole string is buffered. The
// digits seen so far count even without their line end: a header alone is judged too.
qint64 pendingBulk(const redisReader *r)
{
#if HIREDIS_MAJOR >= 1
    const redisReadTask *task = r->ridx >= 0 ? r->task[r->ridx] : nullptr;
#else
    const redisReadTask *task = r->ridx >= 0 ? &r->rstack[r->ridx] : nullptr;
#endif
    if (task == nullptr || task->type != REDIS_REPLY_STRING) {
        return -1;
    }
    qint64 v = -1;
    for (size_t i = r->pos; i < r->len && r->buf[i] >= '0' && r->buf[i] <= '9'; ++i) {
        v = (v < 0 ? 0 : v) * 10 + (r->buf[i] - '0');
        if (v > (qint64(1) << 50)) {
            break; // past every bound
        }
    }
    return v;
}

QString sizeText(qint64 bytes)
{
    if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) {
        return QStringLiteral("%1 MiB").arg(bytes >> 20);
    }
    if (bytes >= (1 << 10) && bytes < (1 << 20) && bytes % (1 << 10) == 0) {
        return QStringLiteral("%1 KiB").arg(bytes >> 10);
    }
    return QStringLiteral("%1 bytes").arg(bytes);
}

} // namespace

void ReplyReader::Deleter::operator()(redisReader *r) const
{
    redisReaderFree(r);
}

ReplyReader::ReplyReader(QString where)
    : m_where(std::move(where))
    , m_reader(redisReaderCreateWithFunctions(boundedFunctions()))
{}

ReplyReader::ReplyReader(ReplyReader &&) noexcept = default;
ReplyReader &ReplyReader::operator=(ReplyReader &&) noexcept = default;
ReplyReader::~ReplyReader() = default;

Result<void> ReplyReader::feed(const char *data, std::size_t size)
{
    m_replyBytes += qint64(size);
    if (!m_reader || redisReaderFeed(m_reader.get(), data, size) != REDIS_OK) {
        return Error::make(
            Error::Kind::Internal,
            QStringLiteral("out of memory reading a reply from Redis at %1").arg(m_where));
    }
    return {};
}

qint64 ReplyReader::buffered() const
{
    return m_reader ? qint64(m_reader->len - m_reader->pos) : 0;
}

Error ReplyReader::refuse(const ReplyBound &bound, const QString &why) const
{
    return Error::make(
        Error::Kind::Protocol,
        QStringLiteral("Redis at %1 %2 in its reply to %3; the rest was not "
                       "read, and the connection was closed")
            .arg(m_where, why,
                 bound.what ? QString::fromLatin1(bound.what) : QStringLiteral("a command")));
}

Result<redisReply *> ReplyReader::take(const ReplyBound &bound)
{
    if (!m_reader) {
        return Error::make(Error::Kind::Internal, QStringLiteral("the reply reader was closed"));
    }
    Limits limits{&bound, &m_replyElements};
    tlLimits = &limits;
    void *raw = nullptr;
    const int rc = redisReaderGetReply(m_reader.get(), &raw);
    tlLimits = nullptr;
    if (rc != REDIS_OK) {
        if (limits.announced >= 0 && limits.array) {
            QString why = QStringLiteral("announced an array of %1 elements").arg(limits.announced);
            if (m_replyElements != limits.announced) {
                why += QStringLiteral(", %1 in all").arg(m_replyElements);
            }
            return refuse(bound,
                          why + QStringLiteral(" (at most %1 expected)").arg(bound.elements));
        }
        if (limits.announced >= 0) {
            return refuse(bound, QStringLiteral("sent a string of %1 (at most %2 expected)")
                                     .arg(sizeText(limits.announced), sizeText(bound.bulkBound())));
        }
        return Error::make(
            Error::Kind::Protocol,
            QStringLiteral("Redis at %1 sent something that is not the Redis protocol (%2)")
                .arg(m_where, QString::fromLatin1(redisReaderGetError(m_reader.get()))));
    }
    if (raw) {
        // Bytes still in the reader belong to the replies after this one.
        m_replyBytes = buffered();
        m_replyElements = 0;
        return static_cast<redisReply *>(raw);
    }
    // Not complete: every byte buffered is this reply's.
    if (const qint64 announced = pendingBulk(m_reader.get()); announced > bound.bulkBound()) {
        return refuse(bound, QStringLiteral("announced a string of %1 (at most %2 expected)")
                                 .arg(sizeText(announced), sizeText(bound.bulkBound())));
    }
    if (m_replyBytes > bound.byteBound()) {
        return refuse(bound, QStringLiteral("sent more than %1 (the most expected)")
                                 .arg(sizeText(bound.byteBound())));
    }
    return nullptr;
}

} // namespace sluice::redis
