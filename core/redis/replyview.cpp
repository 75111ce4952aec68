#include "replyview.h"

#include "errors.h"

#include <hiredis/hiredis.h>

namespace sluice::redis {

bool ReplyView::isArray() const
{
    return m_r != nullptr && m_r->type == REDIS_REPLY_ARRAY;
}

bool ReplyView::isNil() const
{
    return m_r != nullptr && m_r->type == REDIS_REPLY_NIL;
}

bool ReplyView::isInteger() const
{
    return m_r != nullptr && m_r->type == REDIS_REPLY_INTEGER;
}

bool ReplyView::isString() const
{
    return m_r != nullptr && m_r->type == REDIS_REPLY_STRING;
}

bool ReplyView::isStatus() const
{
    return m_r != nullptr && m_r->type == REDIS_REPLY_STATUS;
}

bool ReplyView::isError() const
{
    return m_r != nullptr && m_r->type == REDIS_REPLY_ERROR;
}

std::size_t ReplyView::size() const
{
    return isArray() ? m_r->elements : 0;
}

ReplyView ReplyView::operator[](std::size_t i) const
{
    return i < size() ? ReplyView(m_r->element[i]) : ReplyView();
}

QByteArrayView ReplyView::bytes() const
{
    if (m_r == nullptr || m_r->str == nullptr ||
        (m_r->type != REDIS_REPLY_STRING && m_r->type != REDIS_REPLY_STATUS &&
         m_r->type != REDIS_REPLY_ERROR)) {
        return {};
    }
    return QByteArrayView(m_r->str, qsizetype(m_r->len));
}

qint64 ReplyView::integer(qint64 fallback) const
{
    return isInteger() ? qint64(m_r->integer) : fallback;
}

Error ReplyView::error() const
{
    if (!isError()) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("ReplyView::error() on a %1 reply").arg(typeName()));
    }
    return replyError(m_r);
}

QString ReplyView::typeName() const
{
    if (m_r == nullptr) {
        return QStringLiteral("no reply");
    }
    switch (m_r->type) {
    case REDIS_REPLY_STRING:
        return QStringLiteral("string");
    case REDIS_REPLY_ARRAY:
        return QStringLiteral("array");
    case REDIS_REPLY_INTEGER:
        return QStringLiteral("integer");
    case REDIS_REPLY_NIL:
        return QStringLiteral("nil");
    case REDIS_REPLY_STATUS:
        return QStringLiteral("status");
    case REDIS_REPLY_ERROR:
        return QStringLiteral("error");
    default:
        return QStringLiteral("type %1").arg(m_r->type);
    }
}

} // namespace sluice::redis
