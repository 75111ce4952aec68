#pragma once

#include "keyinfo.h"
#include "keyscanner.h"
#include "layouts.h"

#include "core/common/result.h"
#include "core/redis/connection.h"

#include <QList>

#include <deque>
#include <functional>
#include <vector>

// The audit's reads of keys' values (KeyAuditor): what a key's layout is judged by, beyond the
// TYPE and PTTL the scanner read. A PageFollower, so that the reads of a SCAN page ride in the
// scan's round trips (KeyScanner::Options::follower), with no round trip of their own.
// Within a per-key budget, whatever the key holds:
//   string  GETRANGE 0 128: a value of up to 64 bytes comes whole (its length is what came);
//           a longer one keeps its first 64 bytes, and only when they start as a serialized
//           bucket does (three zero bytes) its exact length matter: what came when up to 128
//           bytes came, else one STRLEN in the round trip after. Otherwise its length is "more
//           than 64" (ForeignRead::strlen 65).
//   hash    HSCAN 0 COUNT 32: a small hash comes whole (its length is what came)
//   zset    ZRANGE 0 7 WITHSCORES: a set of up to 7 members comes whole (its size and two
//           ends are what came); a larger one gets ZCARD and ZRANGE -1 -1 WITHSCORES in the
//           round trip after. Never more members than that.
//   others  nothing
// A key judged from its Sluice rule's state (judgedByItsRule) is not read again. One TIME
// leads each page's reads: the instant its values are judged at.
// A key whose reads the scan's KeyReader sent with its PTTL, instead of its TYPE (the
// TypedReads below), is not read again.
namespace sluice::keys {

// A Sluice key in its rule's state, as the scanner read and judged it with the rules: the
// audit takes that verdict and reads nothing more of it.
bool judgedByItsRule(const KeyInfo &info);

class ValueReads final : public PageFollower, public TypedReads
{
public:
    void queue(const QList<KeyInfo> &page) override;
    bool pending() const override;
    bool unsent() const override;
    bool append(Connection &c) override;
    Result<void> collect(Connection &c) override;
    void resend() override;

    // The keys whose reads are complete, in the order they were queued, each with its read
    // (key, type and PTTL from the scanner's KeyInfo); they are then forgotten.
    void take(const std::function<void(const KeyInfo &, const ForeignRead &)> &each);
    void discard() override;
    // queue(), then round trips of these reads alone until nothing is pending.
    Result<void> readAll(Connection &c, const QList<KeyInfo> &keys);

    // TypedReads (KeyReader::setTypedReads): a key's first read above, sent with its PTTL
    // instead of TYPE, for the type keys of its shape had (the name up to its first '{', or
    // else its last ':': "rl:", "rate_limit:g:{", "{") when the last keys of that
    // shape agreed, else for the type every named layout its name fits has (layouts.h
    // typeByName). What it read is taken by queue() (the key is then read no more, but for a
    // string's exact length or a large set's size); a refused guess (WRONGTYPE) leaves the
    // key's type to a TYPE of ValueReads's own, one round trip later. Only the types read
    // here (string, hash, sorted set; a list named like a list row) are guessed: a set or a
    // stream is read with TYPE as before.
    char guess(const QByteArray &key) override;
    void append(Connection &c, const QByteArray &key, char guess) override;
    Result<QByteArray> collect(Connection &c, const QByteArray &key, char guess, qint64 nowUs,
                               bool exists) override;

private:
    enum Stage { Types, Values, Lengths, Done };
    struct Page
    {
        QList<KeyInfo> infos;
        std::vector<ForeignRead> reads; // by index in infos
        std::vector<qsizetype> types;   // keys whose type is still to be read
        std::vector<qsizetype> values;  // keys whose value is still to be read
        std::vector<qsizetype> lengths; // strings whose exact length is still to be read
        std::vector<qsizetype> zsets; // sorted sets whose size and newest end are still to be read
        Stage stage = Values;
        quint64 batch = 0; // the append() its stage's reads went out in; 0: not sent
    };
    // A value read with the key's PTTL (TypedReads), until queue() takes it.
    struct Early
    {
        ForeignRead read;
        bool more = false; // a string's exact length or a large set's size is still to be read
    };
    // Of each key shape seen (a direct-mapped table of the shapes' hashes): the type its last
    // keys had, and how many agreed in a row (up to 3); guessed from 2.
    struct Shape
    {
        size_t hash = 0;
        char how = 0;
        quint8 agreed = 0;
    };
    static constexpr size_t shapeSlots = 4096;
    void learn(const QByteArray &key, const QByteArray &type);
    Result<void> collectTypes(Connection &c, Page &p);
    Result<void> collectValues(Connection &c, Page &p);
    Result<void> collectLengths(Connection &c, Page &p);
    static void advance(Page &p);
    std::deque<Page> m_pages;
    quint64 m_appended = 0;  // batches appended
    quint64 m_collected = 0; // batches collected (or forgotten)
    std::deque<Early> m_early;
    std::vector<Shape> m_shapes = std::vector<Shape>(shapeSlots);
};

} // namespace sluice::keys
