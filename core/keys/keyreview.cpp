#include "keyhealth.h"
#include "keyreader.h"
#include "keyreader_p.h"
#include "layouts.h"

#include "core/redis/replyview.h"

#include <array>

// KeyReader::reviewStringCounters: the second look at strings where a rule keeps another
// type, and at adopted keys' values.

using namespace Qt::StringLiterals;

namespace sluice::keys {

using readstep::bytesOf;
using readstep::integerOf;
using redis::ReplyView;

Result<QList<std::pair<qsizetype, Health>>>
KeyReader::reviewStringCounters(Connection &c, QList<KeyInfo> &keys) const
{
    QList<qsizetype> candidates;
    for (qsizetype i = 0; i < keys.size(); ++i) {
        if ((mayBeStringCounter(keys[i]) && keys[i].hasRule()) || needsValue(keys[i])) {
            candidates << i;
        }
    }
    QList<std::pair<qsizetype, Health>> changed;
    if (candidates.isEmpty()) {
        return changed;
    }
    for (qsizetype i : std::as_const(candidates)) {
        if (keys[i].type == "zset") { // an adopted sliding log: its size
            c.append({QByteArrayLiteral("ZCARD"), keys[i].key});
            c.append({QByteArrayLiteral("ZCARD"), keys[i].key});
        } else {
            c.append({QByteArrayLiteral("STRLEN"), keys[i].key});
            c.append({QByteArrayLiteral("GETRANGE"), keys[i].key, QByteArrayLiteral("0"),
                      QByteArrayLiteral("20")},
                     ReplyBound::values("a read of keys' values"));
        }
        c.append({QByteArrayLiteral("PTTL"), keys[i].key});
    }
    for (qsizetype i : std::as_const(candidates)) {
        std::array<Connection::RawReply, 3> r;
        for (auto &one : r) {
            auto got = c.readRaw();
            if (!got) {
                return got.error();
            }
            one = std::move(*got);
        }
        const qint64 strlen = integerOf(ReplyView(r[0]), -1);
        const QByteArray head = bytesOf(ReplyView(r[1]));
        const qint64 pttl = integerOf(ReplyView(r[2]), -3);
        bool integer = strlen > 0 && strlen <= 20 && head.size() == strlen;
        for (qsizetype j = 0; integer && j < head.size(); ++j) {
            integer = (head[j] >= '0' && head[j] <= '9') || (j == 0 && head[j] == '-');
        }
        KeyInfo &k = keys[i];
        if (!k.adoptedAs.isEmpty()) {
            const Layout *l = findLayout(k.adoptedAs);
            if (pttl == -2) {
                continue; // gone meanwhile: the scan's verdict stands
            }
            if (l != nullptr && k.type == "zset" && QByteArray(l->type) == "zset") {
                k.state.kind = KeyState::Kind::SlidingLog;
                k.state.count = k.state.entries = integerOf(ReplyView(r[0]));
                k.state.remaining = std::max<qint64>(k.state.limit - k.state.count, 0);
                k.state.resetMs = pttl;
                continue;
            }
            if (!integer || l == nullptr || QByteArray(l->type) != k.type) {
                k.state.kind = KeyState::Kind::Unreadable;
                k.state.problem = u"rule '%1' adopts it as %2, but it is a %3 that does not hold "
                                  "%4"_s.arg(k.ruleId, k.adoptedAs, QString::fromLatin1(k.type),
                                             l ? QString::fromLatin1(l->valueShape) : QString());
                if (k.health != Health::WrongType) {
                    changed << std::pair{i, k.health};
                    k.health = Health::WrongType;
                }
                continue;
            }
            k.state.kind = KeyState::Kind::FixedWindow;
            k.state.count = head.toLongLong();
            k.state.remaining = std::max<qint64>(k.state.limit - k.state.count, 0);
            k.state.resetMs = pttl;
            // Without TTL, a counter that keeps counting never resets; one whose library sets the
            // TTL again on the next request (layouts.h LostTtl) does not block.
            k.state.neverResets = pttl == -1 && l->lostTtl == LostTtl::BlocksSubject;
            k.state.ttlComesBack = pttl == -1 && !k.state.neverResets;
            continue;
        }
        if (!integer || pttl < -1) {
            continue;
        }
        const Health h = pttl == -1                       ? Health::NoTtl
                         : pttl > k.maxTtlMs + ttlSlackMs ? Health::TtlExceedsRule
                                                          : Health::WrongType;
        k.pttlMs = pttl;
        k.state.problem =
            u"a plain string counter (%1), not the rule's %2: the GET/INCR/EXPIRE limiter "
            "the rule replaced (layout string_counter); the rule's script fails on it with "
            "WRONGTYPE until it expires, then rebuilds its own state"_s.arg(
                QString::fromLatin1(head), QString::fromLatin1(expectedType(k.algorithm)));
        if (h != k.health) {
            changed << std::pair{i, k.health};
            k.health = h;
        }
    }
    return changed;
}

} // namespace sluice::keys
