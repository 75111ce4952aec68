#pragma once

#include "core/limiter/policy.h"
#include "core/rules/override.h"

#include "core/common/duration.h"
#include "core/common/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

namespace sluice {

// Where the subject of a rule comes from (FORMATS.md "scope").
struct Scope
{
    enum class Kind { Global, Ip, User, Header, Param };
    Kind kind = Kind::Global;
    QString name; // Header: the header name ("X-Api-Key"); Param: the query parameter

    // "global", "ip", "user", "header:<Name>", "param:<name>"; errors say what is expected.
    static Result<Scope> parse(const QString &text);
    QString toString() const;
    friend bool operator==(const Scope &, const Scope &) = default;
};

enum class OnRedisError { Allow, Deny, Local };
QString onRedisErrorName(OnRedisError e);
std::optional<OnRedisError> onRedisErrorFromName(const QString &name);

// A rule's adoption of an existing limiter's keys (FORMATS.md "adopt"): the keys
// matching `match` (a SCAN MATCH glob under the rule's key_prefix) were written by another
// library, in the layout `layout` (core/keys/layouts.h), with this window and limit (0: the
// rule's own limit and window). Sluice decodes them against that limit and fixes them from
// that window; it never writes them otherwise.
struct Adopt
{
    QByteArray match;
    QString layout;
    qint64 windowUs = 0; // 0: the rule's window
    qint64 limit = 0;    // 0: the rule's limit
    // The script that writes a counter's keys, for the simulator's twin (adoption.h
    // CounterScript names); empty: the layout's usual one.
    QString script;
    friend bool operator==(const Adopt &, const Adopt &) = default;
};

// One limit rule: the canonical model every face of Sluice reads (editor, check, simulator,
// HTTP service, exporters). Defaults are those of FORMATS.md.
struct Rule
{
    QString id;
    QString description;
    QString route; // informational: "GET /hello"
    Scope scope;
    Algorithm algorithm = Algorithm::FixedWindow;
    qint64 limit = 0;    // windows
    qint64 windowUs = 0; // windows
    Rate rate;           // buckets and GCRA
    qint64 burst = 0;    // buckets and GCRA
    QByteArray keyPrefix = "rate_limit:";
    OnRedisError onRedisError = OnRedisError::Allow;
    // What the stored states become when this rule's parameters change (FORMATS.md on_change).
    OnChange onChange = OnChange::KeepUsed;
    // A denied request counted as if admitted (FORMATS.md count_rejected): the window
    // algorithms only; validate() refuses it on the others.
    bool countRejected = false;
    bool shadow = false;
    bool enabled = true;
    std::optional<Adopt> adopt;
    // Per-subject exceptions (override.h), in the file's order; the matcher ranks them.
    std::vector<Override> overrides;

    // The adoption's window and limit, the rule's where it gives none (0 when neither does).
    qint64 adoptWindowUs() const
    {
        return adopt && adopt->windowUs > 0 ? adopt->windowUs : windowUs;
    }
    qint64 adoptLimit() const { return adopt && adopt->limit > 0 ? adopt->limit : limit; }

    // The two shapes of a rule, as Policy::window and Policy::bucket build a policy: the window
    // algorithms take limit + window, the others rate + burst; every other field keeps its
    // default (scope global, key prefix "rate_limit:", ...) unless given. Nothing is validated.
    static Rule window(QString id, Algorithm a, qint64 limit, qint64 windowUs, Scope scope = {},
                       QByteArray keyPrefix = "rate_limit:");
    static Rule bucket(QString id, Algorithm a, Rate rate, qint64 burst, Scope scope = {},
                       QByteArray keyPrefix = "rate_limit:");

    // The engine's view: algorithm, parameters, id, key prefix.
    Policy policy() const;
    // <key_prefix><id>:{<subject>}, as Policy::keyFor.
    QByteArray keyFor(const QByteArray &subject) const { return policy().keyFor(subject); }
    // "3 per 5s per IP", "100/s, burst 200, global": one line for tables and messages.
    QString describe() const;

    friend bool operator==(const Rule &, const Rule &) = default;
};

struct RuleSet
{
    int version = 1; // format version of the file
    // Optional: the RuleStore version this set was pulled from (written by `rules pull`,
    // checked by `rules push`: pushing over a newer store version is a conflict).
    std::optional<qint64> basedOn;
    std::vector<Rule> rules;
    // A staged change's candidates (RuleStore::stage), served in shadow beside `rules`: each
    // added or changed rule of the staged set as `<id>@staged` (RuleStore::stagedId), shadow
    // on, so its keys and statistics are its own. Filled by RuleStore::pull; never in a file.
    std::vector<Rule> staged;

    const Rule *find(const QString &id) const;
    friend bool operator==(const RuleSet &, const RuleSet &) = default;
};

// One validation or parse error: what and where. toString():
//   "rules.json:14:7: rules[2].rate: '0/s' ... expected N/<duration>, e.g. 100/s"
// (line and column 0 = unknown; path empty = the whole document).
struct Diagnostic
{
    QString file;
    int line = 0;
    int column = 0;
    QString path;
    QString message;

    QString toString() const;
};

} // namespace sluice
