#pragma once

#include "core/common/duration.h"
#include "core/common/network.h"
#include "core/limiter/decision.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>

namespace sluice {

struct Rule;
struct Policy;
struct Diagnostic;

// One per-subject exception to a rule (FORMATS.md "overrides"): which subjects it matches
// (one exact subject, an IP network, or a glob), and what they get instead of the rule's
// limit: a limit of their own (the rule's algorithm, other parameters), never limited, or
// always denied. `expiresUs` / `ttlUs` bound its life; an expired override matches nothing.
struct Override
{
    enum class Kind { Subject, Cidr, Glob };
    enum class Action { Limit, Allow, Deny };

    Kind kind = Kind::Subject;
    QString pattern; // the subject, the network ("10.0.0.0/8", "2001:db8::/32") or the glob
    Action action = Action::Allow;
    // Action::Limit: the parameters of the rule's algorithm family (limit + window for the
    // windows, rate + burst for the buckets and GCRA); the others stay 0.
    qint64 limit = 0;
    qint64 windowUs = 0;
    Rate rate;
    qint64 burst = 0;
    qint64 expiresUs = 0; // unix microseconds; 0: no fixed end
    // A life counted from when the rule set is loaded (a rule file read by check, serve,
    // simulate); the store turns it into expiresUs when the override is added. 0: none.
    qint64 ttlUs = 0;
    QString note;

    // "subject", "cidr", "match" (the field names of the file).
    static QString kindField(Kind k);
    // "limit", "allow", "deny".
    static QString actionName(Action a);
    // "subject 10.1.2.3", "cidr 10.0.0.0/8", "match partner-*".
    QString describeMatch() const;
    // "allow", "deny", "100 per 1m", "10/s, burst 20".
    QString describeAction(const Rule &rule) const;

    friend bool operator==(const Override &, const Override &) = default;
};

namespace rules {

// The policy an Action::Limit override decides by: the rule's, with the override's parameters.
Policy overridePolicy(const Rule &rule, const Override &o);
// The key of a subject under an override limit: <key_prefix><id>:override:{<subject>}, so a
// counter written under the rule's own limit (<key_prefix><id>:{<subject>}) is never read under
// the override's, and the Keys page can tell the two apart.
QByteArray overrideKeyFor(const Rule &rule, const QByteArray &subject);
inline constexpr QByteArrayView overrideKeyMarker = ":override";

// The answer of an allow or deny override, made without Redis: allowed with the whole quota of
// `policy` left, or denied with nothing left and, when the override ends (endUs, unix µs; 0:
// never), a retry at its end (-1: never, as a request above capacity).
Decision overrideDecision(const Policy &policy, Override::Action action, qint64 nowUs,
                          qint64 endUs);

// A CIDR override's network, read as every reader of addresses does (core/common/network.h).
using net::addressBytes;
using net::formatAddress;
using net::masked;
using net::Network;
using net::parseNetwork;

// The checks of one rule's overrides that do not depend on the clock: something to match
// (a CIDR needs scope ip), a valid network, a glob that can match, parameters of the rule's
// algorithm within Policy::validate's bounds, one line of note, and no override that another
// makes dead (the same subject, network or glob twice: the first in the file wins). `path` is
// the rule's ("rules[2]"; "" for one rule alone): errors are "rules[2].overrides[0].cidr".
QList<Diagnostic> validateOverrides(const Rule &rule, const QString &path, const QString &file);
// Overrides that have already expired at `nowUs` (expiresUs in the past): an error in a file
// being read, as the override would never apply.
QList<Diagnostic> expiredOverrides(const Rule &rule, const QString &path, const QString &file,
                                   qint64 nowUs);

// "2027-01-01T00:00:00Z" (or with an offset) -> unix microseconds; nullopt if not ISO 8601
// with a time zone.
std::optional<qint64> parseTimestampUs(const QString &text);
// Unix microseconds -> "2027-01-01T00:00:00Z" (milliseconds when there are any).
QString formatTimestampUs(qint64 us);

// Most specific first: exact subject, then the longest CIDR prefix, then a glob; between equals,
// the first in the file. The rank of `o` in that order (smaller wins).
int specificity(const Override &o);

} // namespace rules
} // namespace sluice
