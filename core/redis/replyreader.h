#pragma once

#include "core/common/result.h"

#include <QString>
#include <QtGlobal>

#include <cstddef>
#include <memory>

struct redisReader;
struct redisReply;

namespace sluice {

// What one reply may be, stated by the command that asks for it (Connection::append, command,
// pipeline; docs/ARCHITECTURE.md "Transport"): a SCRIPT LOAD expects a 40-byte SHA, a decision
// six integers, TIME two strings, a SCAN page about COUNT keys. The reader holds every reply to
// its command's bound, and refuses at the header: an announced `$N` or `*N` above it fails
// before any of its body is read. A plain value, copied freely (a hot path states one per
// batch, not per reply).
struct ReplyBound
{
    // The bytes of the whole reply as sent. At least lineFloor: an error or status line (which
    // says why a command failed, and is not announced) always fits.
    qint64 bytes = qint64(4) << 20;
    // Array elements in the reply, nested ones included.
    qint64 elements = qint64(64) << 10;
    // The longest bulk string ($N) in it; -1: `bytes`.
    qint64 bulk = -1;
    // What the reply answers, for the message that refuses it ("SCRIPT LOAD"); nullptr: "a
    // command". A string literal: only the pointer is kept.
    const char *what = nullptr;

    static constexpr qint64 lineFloor = qint64(64) << 10;

    qint64 bulkBound() const { return bulk < 0 ? bytes : bulk; }
    qint64 byteBound() const { return bytes < lineFloor ? lineFloor : bytes; }
    bool operator==(const ReplyBound &) const = default;

    // A SHA1 in hex (SCRIPT LOAD).
    static constexpr ReplyBound sha(const char *what = "SCRIPT LOAD") { return {64, 0, 40, what}; }
    // An array of n integers (a decision script's six); a short string in place of one is let
    // through, so that the caller can say which slot was not an integer.
    static constexpr ReplyBound integers(qint64 n, const char *what)
    {
        return {n * 24 + 16, n, 64, what};
    }
    // TIME: two decimal strings.
    static constexpr ReplyBound time() { return {128, 2, 24, "TIME"}; }
    // One SCAN (HSCAN, SSCAN, ZSCAN) page asked with COUNT `count`: a cursor and the keys, which
    // Redis keeps near COUNT (a hash table's buckets, a listpack whole); a key (or member) of up
    // to 1 MiB.
    static constexpr ReplyBound scanPage(qint64 count, const char *what = "SCAN")
    {
        const qint64 keys = 16 * (count < 10 ? 10 : count) + 1024;
        return {(keys << 10) + (qint64(1) << 20), keys + 2, qint64(1) << 20, what};
    }
    // Keys' values, as the key reader and the key details read them: Redis's own limits
    // (proto-max-bulk-len 512 MiB; 16 M elements).
    static constexpr ReplyBound values(const char *what = "a read of keys' values")
    {
        return {qint64(512) << 20, qint64(16) << 20, -1, what};
    }
    // The cluster's map (CLUSTER SLOTS, SHARDS, NODES): up to 16,384 slot ranges of a few nodes.
    static constexpr ReplyBound topology(const char *what)
    {
        return {qint64(64) << 20, qint64(4) << 20, qint64(16) << 20, what};
    }
};

namespace redis {

// hiredis's reply reader (the only part of hiredis Sluice uses) under a ReplyBound: bytes go in
// as they came from the server, complete replies come out, each held to the bound its command
// stated. Kept apart from the socket so that it can be fed directly (tests/fuzz/fuzz_reply).
// After an error the reader is unusable: the caller closes the connection.
class ReplyReader
{
public:
    // `where`: the server, for messages ("Redis at 127.0.0.1:6379 ...").
    explicit ReplyReader(QString where);
    ReplyReader(ReplyReader &&) noexcept;
    ReplyReader &operator=(ReplyReader &&) noexcept;
    ~ReplyReader();

    // Bytes from the server, appended to the buffer.
    Result<void> feed(const char *data, std::size_t size);
    // The next complete reply (the caller frees it with freeReplyObject), or nullptr when more
    // bytes are needed. A Protocol error when the bytes are not RESP, or when the reply is over
    // `bound`: an announced array or string at its header, the reply's bytes as they come.
    Result<redisReply *> take(const ReplyBound &bound);
    // Bytes buffered and not yet given out as replies.
    qint64 buffered() const;

private:
    struct Deleter
    {
        void operator()(redisReader *r) const;
    };
    Error refuse(const ReplyBound &bound, const QString &why) const;

    QString m_where;
    std::unique_ptr<redisReader, Deleter> m_reader;
    qint64 m_replyBytes = 0;    // bytes fed since the last complete reply
    qint64 m_replyElements = 0; // array elements of the reply being read, so far
};

} // namespace redis
} // namespace sluice
