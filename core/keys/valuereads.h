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
// scan's next round trip (KeyScanner::Options::follower), with no round trip of their own.
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
namespace sluice::keys {

// A Sluice key in its rule's state, as the scanner read and judged it with the rules: the
// audit takes that verdict and reads nothing more of it.
bool judgedByItsRule(const KeyInfo &info);

class ValueReads final : public PageFollower
{
public:
    void queue(const QList<KeyInfo> &page) override;
    bool pending() const override;
    void append(Connection &c) override;
    Result<void> collect(Connection &c) override;

    // The keys whose reads are complete, in the order they were queued, each with its read
    // (key, type and PTTL from the scanner's KeyInfo); they are then forgotten.
    void take(const std::function<void(const KeyInfo &, const ForeignRead &)> &each);
    void discard() override { m_pages.clear(); }
    // queue(), then round trips of these reads alone until nothing is pending.
    Result<void> readAll(Connection &c, const QList<KeyInfo> &keys);

private:
    enum Stage { Values, Lengths, Done };
    struct Page
    {
        QList<KeyInfo> infos;
        std::vector<ForeignRead> reads; // by index in infos
        std::vector<qsizetype> lengths; // strings whose exact length is still to be read
        std::vector<qsizetype> zsets; // sorted sets whose size and newest end are still to be read
        Stage stage = Values;
        bool sent = false;
    };
    Result<void> collectValues(Connection &c, Page &p);
    Result<void> collectLengths(Connection &c, Page &p);
    std::deque<Page> m_pages;
};

} // namespace sluice::keys
