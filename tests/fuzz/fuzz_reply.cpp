// The reply reader (redis::ReplyReader) on arbitrary bytes under each command's bound: the
// first byte picks the bound (SCRIPT LOAD's SHA, a decision's six integers, TIME, a SCAN page,
// the default, a small ceiling of its own), the second the size of the pieces the bytes come
// in. Whatever comes, every reply given out is within its bound, the bytes held stay near the
// bound (never a body read past an announcement), and an error ends the reading (no crash,
// no leak: ASan, UBSan).
#include "core/redis/replyreader.h"

#include <hiredis/hiredis.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace sluice;

namespace {

ReplyBound boundOf(uint8_t pick)
{
    switch (pick % 6) {
    case 0:
        return ReplyBound::sha();
    case 1:
        return ReplyBound::integers(6, "EVALSHA");
    case 2:
        return ReplyBound::time();
    case 3:
        return ReplyBound::scanPage(pick >> 3);
    case 4:
        return ReplyBound{};
    default:
        return ReplyBound{qint64(pick) * 16, pick >> 4, pick, "a small one"};
    }
}

struct Counted
{
    qint64 elements = 0;
    qint64 longest = 0;
};

void walk(const redisReply *r, Counted *c)
{
    if (r->type == REDIS_REPLY_ARRAY) {
        c->elements += qint64(r->elements);
        for (size_t i = 0; i < r->elements; ++i) {
            walk(r->element[i], c);
        }
    } else if (r->type == REDIS_REPLY_STRING) {
        c->longest = std::max(c->longest, qint64(r->len));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) {
        return 0;
    }
    const ReplyBound bound = boundOf(data[0]);
    const size_t piece = size_t(data[1] % 64) + 1;
    data += 2;
    size -= 2;
    redis::ReplyReader reader(QStringLiteral("fuzz"));
    for (size_t at = 0; at < size;) {
        const size_t n = std::min(piece, size - at);
        if (!reader.feed(reinterpret_cast<const char *>(data + at), n)) {
            std::abort(); // out of memory on a few bytes
        }
        at += n;
        for (;;) {
            auto r = reader.take(bound);
            if (!r) {
                return 0; // refused: the connection would be closed here
            }
            if (*r == nullptr) {
                // Incomplete: what is held is this reply's, within its bound and one piece.
                if (reader.buffered() > bound.byteBound() + qint64(piece)) {
                    std::abort();
                }
                break;
            }
            Counted c;
            walk(*r, &c);
            freeReplyObject(*r);
            if (c.elements > bound.elements || c.longest > bound.bulkBound()) {
                std::abort();
            }
        }
    }
    return 0;
}
