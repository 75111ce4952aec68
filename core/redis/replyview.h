#pragma once

#include "connection.h"

#include "core/common/result.h"

#include <QByteArrayView>
#include <QString>

#include <cstddef>

struct redisReply;

namespace sluice::redis {

// A non-owning, typed look at one raw reply (Connection::readRaw, waitReply), so that code
// outside core/redis walks replies without hiredis: nothing is copied and nothing allocated
// (bytes() points into the reply). The reply must outlive the view and every view taken from
// it. A default view, or one over nullptr, is "no reply": every test is false, size() is 0.
class ReplyView
{
public:
    ReplyView() = default;
    explicit ReplyView(const redisReply *r)
        : m_r(r)
    {}
    // NOLINTNEXTLINE(google-explicit-constructor): a raw reply reads as its view
    ReplyView(const Connection::RawReply &r)
        : m_r(r.get())
    {}

    bool isNull() const { return m_r == nullptr; }
    bool isArray() const;
    bool isNil() const;
    bool isInteger() const;
    bool isString() const; // a bulk string
    bool isStatus() const; // +OK and the like
    bool isError() const;

    // An array's elements: size() of them (0 for anything else); operator[] past the end, or on
    // a non-array, gives a null view.
    std::size_t size() const;
    ReplyView operator[](std::size_t i) const;

    // The text of a string, status or error reply (empty for any other type), valid as
    // long as the reply is.
    QByteArrayView bytes() const;
    QByteArray toByteArray() const { return bytes().toByteArray(); }
    // An integer reply's value; `fallback` for any other type.
    qint64 integer(qint64 fallback = 0) const;

    // An error reply as an Error of the one taxonomy (redis::replyError: reply, noscript or
    // auth). Only for isError().
    Error error() const;
    // "array", "integer", ... for messages about an unexpected reply.
    QString typeName() const;

private:
    const redisReply *m_r = nullptr;
};

} // namespace sluice::redis
