// Rule files, JSON and YAML (FORMATS.md "Rule file").
//
// Both formats are read into the same tree (a QJsonValue; YAML through yaml-cpp's event
// parser), then one Builder turns the tree into a RuleSet, checking types, unknown and missing
// fields; validate() adds the checks of the model. Every error carries a field path; positions
// are added at the end, in one pass: JSON through JsonLocator (QJsonDocument has none), YAML
// from the parser's marks. Here: the diagnostics' placing, the builder, JSON, the YAML reader
// and the entry points; YAML scalar resolution and syntax diagnostics are in codecyaml.cpp, the
// writers in codecwriter.cpp (their shared pieces in codecinternal.h).
//
// Decisions (FORMATS.md leaves them open):
//  - "version" is required and must be 1: a file of a future format must not be misread.
//  - Required in a rule: id, scope, algorithm and the two parameters of the algorithm; a
//    missing scope is an error rather than a silent "global" (one bucket for every client).
//  - "based_on" (optional, integer >= 0): the RuleStore version a pulled file came from.
//  - Numbers: integers may be written 3 or 3.0 (JSON does not tell them apart); 2.5, "3" are
//    errors. Durations and rates are strings with units; a bare number is an error.
//  - A field that occurs twice in one object is an error (QJsonObject silently keeps the last).
//  - YAML: one document; the YAML 1.2 core schema (yes/no/on/off are strings, so
//    "shadow: yes" is an error that says to write true); quoted scalars are strings ("3" is
//    not a number); anchors, aliases and tags other than the core ones are refused (rule files
//    are diffable data: every value is written out, as JSON has it); a file that ends inside
//    a quoted string is refused (yaml-cpp 0.7 accepts it).
//  - Writers: every field, defaults included, in a fixed order; the parameters of the
//    algorithm only; durations and rates in their shortest exact spelling. JSON with two-space
//    indentation, YAML block style with strings quoted only where YAML would read them as
//    something else. Non-ASCII text is written as UTF-8, control characters escaped.
#include "codec.h"
#include "codecinternal.h"
#include "diagnostics.h"
#include "jsonlocator.h"

#include "core/common/bytes.h"
#include "core/common/clock.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QSet>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <istream>
#include <streambuf>

using namespace Qt::StringLiterals;

namespace sluice::rules {

namespace {

using namespace internal;

const QStringList topFields = {u"version"_s, u"based_on"_s, u"rules"_s};
const QStringList ruleFields = {u"id"_s,         u"description"_s,    u"route"_s,
                                u"scope"_s,      u"algorithm"_s,      u"limit"_s,
                                u"window"_s,     u"rate"_s,           u"burst"_s,
                                u"key_prefix"_s, u"on_redis_error"_s, u"shadow"_s,
                                u"enabled"_s,    u"adopt"_s,          u"on_change"_s,
                                u"overrides"_s,  u"count_rejected"_s};
const QStringList overrideFields = {u"subject"_s, u"cidr"_s,    u"match"_s, u"limit"_s, u"allow"_s,
                                    u"deny"_s,    u"expires"_s, u"ttl"_s,   u"note"_s};
const QStringList adoptFields = {u"match"_s, u"layout"_s, u"window"_s, u"limit"_s, u"script"_s};

// ---------------------------------------------------------------------------------------------
// Builder: tree -> RuleSet, with type, unknown-field and missing-field errors.

using bytes::shortened;

class Builder
{
public:
    Builder(const QString &file, Flavor flavor)
        : m_file(file)
        , m_flavor(flavor)
    {}

    RuleSet buildSet(const QJsonValue &root)
    {
        RuleSet set;
        if (!root.isObject()) {
            error({}, u"expected a rule set (%1 with version and rules), got %2"_s.arg(
                          objectWord(), describe(root)));
            return set;
        }
        const QJsonObject o = root.toObject();
        unknownFields(o, {}, topFields, u"a rule file has the fields"_s);
        if (!o.contains(u"version"_s)) {
            error(u"version"_s, u"the format version is missing; add version 1 (%1) at the top "
                                "of the file"_s.arg(m_flavor == Flavor::Json ? u"\"version\": 1"_s
                                                                             : u"version: 1"_s));
        } else if (auto v = integer(o, u"version"_s, {}, u"the integer 1"_s)) {
            set.version = int(std::clamp<qint64>(*v, INT_MIN, INT_MAX));
            if (*v != 1) {
                error(u"version"_s, u"unsupported format version %1; this Sluice reads version "
                                    "1"_s.arg(*v));
            }
        }
        if (o.contains(u"based_on"_s)) {
            if (auto v = integer(o, u"based_on"_s, {}, u"an integer >= 0"_s)) {
                set.basedOn = *v; // validate() checks the sign
            }
        }
        buildRules(o, set.rules);
        return set;
    }

    // The "rules" member of a document object: required, an array of rule objects.
    void buildRules(const QJsonObject &o, std::vector<Rule> &out)
    {
        if (!o.contains(u"rules"_s)) {
            error(u"rules"_s, u"the list of rules is missing; expected rules: %1 (it may be "
                              "empty)"_s.arg(arrayWord()));
            return;
        }
        const QJsonValue rules = o.value(u"rules"_s);
        if (!rules.isArray()) {
            error(u"rules"_s, u"expected %1 of rules, got %2"_s.arg(arrayWord(), describe(rules)));
            return;
        }
        const QJsonArray array = rules.toArray();
        if (array.size() > maxListElements) {
            error(u"rules"_s, u"%1 rules are more than the %2 a file may hold; split the file"_s
                                  .arg(array.size())
                                  .arg(maxListElements));
            m_poisoned.insert(u"rules"_s);
            return;
        }
        out.reserve(size_t(array.size()));
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString path = fieldpath::element(u"rules"_s, i);
            const QJsonValue v = array.at(i);
            if (!v.isObject()) {
                error(path, u"expected a rule (%1 with id, scope, algorithm, ...), got %2"_s.arg(
                                objectWord(), describe(v)));
                out.emplace_back(); // keeps rules[i] <-> set.rules[i]
                continue;
            }
            out.push_back(buildRule(v.toObject(), path));
        }
    }

    // A document root that must be an object, for documents that embed rules.
    bool expectObject(const QJsonValue &root, const QString &expected)
    {
        if (root.isObject()) {
            return true;
        }
        error({}, u"expected %1, got %2"_s.arg(expected, describe(root)));
        return false;
    }

    Rule buildRule(const QJsonObject &o, const QString &path)
    {
        Rule r;
        unknownFields(o, path, ruleFields, u"a rule has the fields"_s);
        const auto at = [&](const QString &field) { return fieldpath::member(path, field); };

        std::optional<Algorithm> algo;
        const QString algorithms =
            u"fixed_window, sliding_log, sliding_counter, token_bucket, leaky_bucket or gcra"_s;
        if (auto name = string(o, u"algorithm"_s, path, u"an algorithm: "_s + algorithms, true)) {
            algo = algorithm::fromName(*name);
            if (algo) {
                r.algorithm = *algo;
            } else {
                error(at(u"algorithm"_s),
                      u"unknown algorithm '%1'; expected %2"_s.arg(shortened(*name), algorithms));
            }
        }
        if (auto id = string(o, u"id"_s, path,
                             u"a string of 1 to 64 characters from A-Z a-z 0-9 . _ -, e.g. "
                             "hello-per-ip"_s,
                             true)) {
            r.id = *id;
        }
        if (auto text = string(o, u"description"_s, path, u"a string"_s, false)) {
            r.description = *text;
        }
        if (auto text = string(o, u"route"_s, path, u"a string, e.g. GET /hello"_s, false)) {
            r.route = *text;
        }
        if (auto text = string(o, u"scope"_s, path,
                               u"global, ip, user, header:<Name> or param:<name>"_s, true)) {
            const Result<Scope> scope = Scope::parse(*text);
            if (scope) {
                r.scope = *scope;
            } else {
                error(at(u"scope"_s), scope.error().message);
            }
        }
        parameters(o, path, algo, r);
        if (auto text = string(o, u"key_prefix"_s, path, u"a string, e.g. rate_limit:"_s, false)) {
            r.keyPrefix = text->toUtf8();
        }
        if (auto text = string(o, u"on_redis_error"_s, path, u"allow, deny or local"_s, false)) {
            if (auto e = onRedisErrorFromName(*text)) {
                r.onRedisError = *e;
            } else {
                error(at(u"on_redis_error"_s),
                      u"'%1' is not a choice; expected allow (let requests through), deny (reject "
                      "them) or local (limit in process)"_s.arg(shortened(*text)));
            }
        }
        if (auto text = string(o, u"on_change"_s, path,
                               u"keep_used, reset, proportional or additive"_s, false)) {
            if (auto c = onchange::fromName(*text)) {
                r.onChange = *c;
            } else {
                error(at(u"on_change"_s),
                      u"'%1' is not a choice; expected keep_used (what was used under the old "
                      "limit still counts), reset (a fresh state), proportional (the same "
                      "fraction stays used) or additive (a raise adds to what is left)"_s.arg(
                          shortened(*text)));
            }
        }
        if (auto flag = boolean(o, u"count_rejected"_s, path)) {
            r.countRejected = *flag;
        }
        if (auto flag = boolean(o, u"shadow"_s, path)) {
            r.shadow = *flag;
        }
        if (auto flag = boolean(o, u"enabled"_s, path)) {
            r.enabled = *flag;
        }
        if (o.contains(u"adopt"_s)) {
            const QString adoptPath = at(u"adopt"_s);
            const QJsonValue v = o.value(u"adopt"_s);
            if (!v.isObject()) {
                error(adoptPath, u"expected %1 with match and layout (and window, limit), got "
                                 "%2"_s.arg(objectWord(), describe(v)));
            } else {
                const QJsonObject a = v.toObject();
                unknownFields(a, adoptPath, adoptFields, u"adopt has the fields"_s);
                Adopt adopt;
                if (auto m = string(a, u"match"_s, adoptPath,
                                    u"a glob of the keys, e.g. rate_limit:*-hello"_s, true)) {
                    adopt.match = m->toUtf8();
                }
                if (auto l = string(a, u"layout"_s, adoptPath,
                                    u"a layout id, e.g. string_counter"_s, true)) {
                    adopt.layout = *l;
                }
                if (auto w = string(a, u"window"_s, adoptPath, u"a duration with a unit, e.g. 1m"_s,
                                    false)) {
                    const Result<qint64> us = duration::parseUs(*w);
                    if (us) {
                        adopt.windowUs = *us;
                    } else {
                        error(fieldpath::member(adoptPath, u"window"_s), us.error().message);
                    }
                }
                if (a.contains(u"limit"_s)) {
                    if (auto n = integer(a, u"limit"_s, adoptPath, u"a positive integer"_s)) {
                        adopt.limit = *n;
                        if (*n <= 0) {
                            error(fieldpath::member(adoptPath, u"limit"_s),
                                  u"must be a positive integer, got %1"_s.arg(*n));
                        }
                    }
                }
                if (auto sc = string(a, u"script"_s, adoptPath,
                                     u"a counter script, e.g. get_incr_expire"_s, false)) {
                    adopt.script = *sc;
                }
                r.adopt = adopt;
            }
        }
        if (o.contains(u"overrides"_s)) {
            buildOverrides(o.value(u"overrides"_s), at(u"overrides"_s), algo, r);
        }
        return r;
    }

    // "overrides": a list of objects, each with one of subject / cidr / match, one of
    // limit (an object of the rule's parameters) / allow / deny, and optionally expires or
    // ttl and a note.
    void buildOverrides(const QJsonValue &v, const QString &path, std::optional<Algorithm> algo,
                        Rule &r)
    {
        if (!v.isArray()) {
            error(path, u"expected %1 of overrides, got %2"_s.arg(arrayWord(), describe(v)));
            return;
        }
        const QJsonArray array = v.toArray();
        if (array.size() > maxOverrides) {
            error(path, u"%1 overrides are more than the %2 a rule may hold in its file; keep "
                        "the others in the store (sluice-cli overrides add)"_s.arg(array.size())
                            .arg(maxOverrides));
            m_poisoned.insert(path);
            return;
        }
        r.overrides.reserve(size_t(array.size()));
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString at = fieldpath::element(path, i);
            const QJsonValue e = array.at(i);
            if (!e.isObject()) {
                error(at, u"expected an override (%1 with subject, cidr or match and limit, "
                          "allow or deny), got %2"_s.arg(objectWord(), describe(e)));
                r.overrides.emplace_back(); // keeps overrides[i] <-> r.overrides[i]
                m_poisoned.insert(at);
                continue;
            }
            r.overrides.push_back(buildOverride(e.toObject(), at, algo));
        }
    }

    Override buildOverride(const QJsonObject &o, const QString &path, std::optional<Algorithm> algo)
    {
        Override out;
        unknownFields(o, path, overrideFields, u"an override has the fields"_s);
        const auto at = [&](const QString &field) { return fieldpath::member(path, field); };
        // Exactly one of subject / cidr / match.
        QStringList kinds;
        for (const QString &k : {u"subject"_s, u"cidr"_s, u"match"_s}) {
            if (o.contains(k)) {
                kinds << k;
            }
        }
        if (kinds.isEmpty()) {
            error(path, u"an override needs what it matches: one of subject (\"10.1.2.3\"), "
                        "cidr (\"10.0.0.0/8\") or match (\"partner-*\")"_s);
            m_poisoned.insert(path);
        } else {
            if (kinds.size() > 1) {
                error(at(kinds[1]),
                      u"an override matches one way: it has both %1 and %2; write one override "
                      "for each"_s.arg(kinds[0], kinds[1]));
            }
            const QString &k = kinds[0];
            out.kind = k == u"subject"_s ? Override::Kind::Subject
                       : k == u"cidr"_s  ? Override::Kind::Cidr
                                         : Override::Kind::Glob;
            const QString expected = k == u"subject"_s ? u"a subject, e.g. 10.1.2.3"_s
                                     : k == u"cidr"_s  ? u"a network, e.g. 10.0.0.0/8"_s
                                                       : u"a glob, e.g. partner-*"_s;
            if (auto text = string(o, k, path, expected, true)) {
                out.pattern = *text;
            } else {
                m_poisoned.insert(at(k));
            }
        }
        // Exactly one of limit / allow / deny.
        QStringList actions;
        for (const QString &a : {u"limit"_s, u"allow"_s, u"deny"_s}) {
            if (o.contains(a)) {
                actions << a;
            }
        }
        if (actions.isEmpty()) {
            error(path, u"an override needs what its subjects get: one of limit (%1 of the "
                        "rule's parameters), allow: true or deny: true"_s.arg(objectWord()));
        } else if (actions.size() > 1) {
            error(at(actions[1]), u"an override does one thing: it has both %1 and %2; keep "
                                  "one"_s.arg(actions[0], actions[1]));
        }
        if (!actions.isEmpty()) {
            const QString &a = actions[0];
            if (a == u"limit"_s) {
                out.action = Override::Action::Limit;
                const QJsonValue l = o.value(u"limit"_s);
                const QString limitPath = at(u"limit"_s);
                const QString shape =
                    !algo ? u"the rule's parameters"_s
                    : algorithm::isWindow(*algo)
                        ? u"limit and window, as the rule (%1) has them, e.g. {\"limit\": 100, "
                          "\"window\": \"1m\"}"_s.arg(algorithm::name(*algo))
                        : u"rate and burst, as the rule (%1) has them, e.g. {\"rate\": "
                          "\"10/s\", \"burst\": 20}"_s.arg(algorithm::name(*algo));
                if (!l.isObject()) {
                    error(limitPath,
                          u"expected %1 with %2, got %3"_s.arg(objectWord(), shape, describe(l)));
                } else {
                    const QJsonObject lo = l.toObject();
                    unknownFields(lo, limitPath, {u"limit"_s, u"window"_s, u"rate"_s, u"burst"_s},
                                  u"an override's limit has the rule's parameters:"_s);
                    Rule params;
                    parameters(lo, limitPath, algo, params);
                    out.limit = params.limit;
                    out.windowUs = params.windowUs;
                    out.rate = params.rate;
                    out.burst = params.burst;
                }
            } else {
                out.action = a == u"allow"_s ? Override::Action::Allow : Override::Action::Deny;
                if (auto flag = boolean(o, a, path); flag && !*flag) {
                    error(at(a), u"%1: false does nothing; write %1: true, or leave the "
                                 "override out"_s.arg(a));
                }
            }
        }
        if (o.contains(u"expires"_s) && o.contains(u"ttl"_s)) {
            error(at(u"ttl"_s), u"an override has expires (a time) or ttl (a duration from "
                                "when the rules are loaded), not both"_s);
        }
        if (auto text =
                string(o, u"expires"_s, path,
                       u"a time in ISO 8601 with its zone, e.g. 2027-01-01T00:00:00Z"_s, false)) {
            if (auto us = parseTimestampUs(*text)) {
                out.expiresUs = *us;
                if (*us <= 0) {
                    error(at(u"expires"_s), u"'%1' is before 1970"_s.arg(shortened(*text)));
                }
            } else {
                error(at(u"expires"_s),
                      u"'%1' is not a time; expected ISO 8601 with its zone, e.g. "
                      "2027-01-01T00:00:00Z or 2027-01-01T01:00:00+01:00"_s.arg(shortened(*text)));
            }
        }
        if (auto text =
                string(o, u"ttl"_s, path, u"a duration with a unit, e.g. 1h, 1d"_s, false)) {
            const Result<qint64> us = duration::parseUs(*text);
            if (us) {
                out.ttlUs = *us;
            } else {
                error(at(u"ttl"_s), us.error().message);
            }
        }
        if (auto text = string(o, u"note"_s, path, u"a string: why the override exists"_s, false)) {
            out.note = *text;
        }
        return out;
    }

    // The builder's errors, then those of validate() on what was built, except where the
    // builder already reported the field (or an enclosing one): a limit written "3" is one
    // error ("expected an integer"), not two (the limit left at 0 is not positive).
    QList<Diagnostic> merged(QList<Diagnostic> validated) const
    {
        QSet<QString> reported = m_poisoned;
        for (const Diagnostic &d : m_errors) {
            reported.insert(d.path);
        }
        QList<Diagnostic> out = m_errors;
        for (Diagnostic &d : validated) {
            bool covered = false;
            for (QString p = d.path; !p.isEmpty(); p = fieldpath::parent(p)) {
                if (reported.contains(p)) {
                    covered = true;
                    break;
                }
            }
            if (!covered) {
                out.append(std::move(d));
            }
        }
        return out;
    }

private:
    void error(const QString &path, const QString &message)
    {
        if (full()) {
            ++m_more; // counted, never built (bounded work)
            m_poisoned.insert(path);
            return;
        }
        m_errors.append(diagnostic(m_file, path, message));
    }
    bool full() const { return m_errors.size() >= maxErrors; }

    bool yaml() const { return m_flavor != Flavor::Json; }
    QString objectWord() const { return rules::objectWord(yaml()); }
    QString arrayWord() const { return rules::arrayWord(yaml()); }
    QString describe(const QJsonValue &v) const { return describeValue(v, yaml()); }

    void unknownFields(const QJsonObject &o, const QString &path, const QStringList &allowed,
                       const QString &intro)
    {
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            if (allowed.contains(it.key())) {
                continue;
            }
            if (full()) {
                ++m_more; // no suggestion to compute for an error nobody will see
                continue;
            }
            error(fieldpath::member(path, it.key()),
                  u"unknown field '%1'%2; %3 %4"_s.arg(shortened(it.key()),
                                                       didYouMean(it.key(), allowed), intro,
                                                       allowed.join(u", "_s)));
        }
    }

    void missing(const QString &path, const QString &field, const QString &expected)
    {
        error(fieldpath::member(path, field),
              u"required field '%1' is missing; expected %2"_s.arg(field, expected));
    }

    std::optional<QString> string(const QJsonObject &o, const QString &field, const QString &path,
                                  const QString &expected, bool required)
    {
        const auto it = o.constFind(field);
        if (it == o.constEnd()) {
            if (required) {
                missing(path, field, expected);
            }
            return std::nullopt;
        }
        if (!it->isString()) {
            // `id: 3` in YAML is a number: say how to make it a string (not for durations and
            // rates, where quotes alone would not help).
            const bool freeText = field == u"id"_s || field == u"description"_s ||
                                  field == u"route"_s || field == u"key_prefix"_s;
            const QString hint =
                freeText && (it->isDouble() || it->isBool())
                    ? u" (write it in quotes: \"%1\")"_s.arg(describe(*it).remove(u"the number "_s))
                    : QString();
            error(fieldpath::member(path, field),
                  u"expected %1, got %2%3"_s.arg(expected, describe(*it), hint));
            return std::nullopt;
        }
        return it->toString();
    }

    std::optional<qint64> integer(const QJsonObject &o, const QString &field, const QString &path,
                                  const QString &expected)
    {
        const QJsonValue v = o.value(field);
        if (v.isDouble()) {
            const qint64 i = v.toInteger(LLONG_MIN);
            if (i != LLONG_MIN) {
                return i;
            }
        }
        QString hint;
        bool numeric = false;
        if (v.isString()) {
            v.toString().trimmed().toLongLong(&numeric);
        }
        if (numeric) {
            hint = u" (write %1 without quotes)"_s.arg(v.toString().trimmed());
        }
        error(fieldpath::member(path, field),
              u"expected %1, got %2%3"_s.arg(expected, describe(v), hint));
        return std::nullopt;
    }

    std::optional<bool> boolean(const QJsonObject &o, const QString &field, const QString &path)
    {
        const auto it = o.constFind(field);
        if (it == o.constEnd()) {
            return std::nullopt;
        }
        if (it->isBool()) {
            return it->toBool();
        }
        QString hint;
        const QString text = it->toString().toLower();
        if (text == u"true"_s || text == u"false"_s) {
            hint = u" (write %1 without quotes)"_s.arg(text);
        } else if (text == u"yes"_s || text == u"no"_s || text == u"on"_s || text == u"off"_s) {
            hint = u" (write true or false)"_s;
        }
        error(fieldpath::member(path, field),
              u"expected true or false, got %1%2"_s.arg(describe(*it), hint));
        return std::nullopt;
    }

    // limit + window for the windows, rate + burst for the buckets; a parameter of the other
    // family is an error; with an unknown algorithm the required ones are unknown too.
    void parameters(const QJsonObject &o, const QString &path, std::optional<Algorithm> algo,
                    Rule &r)
    {
        struct Param
        {
            QString field;
            bool window;
            QString expected;
        };
        const Param params[] = {
            {u"limit"_s, true, u"a positive integer, e.g. 3"_s},
            {u"window"_s, true, u"a duration with a unit, e.g. 5s, 250ms, 1m"_s},
            {u"rate"_s, false, u"a rate N/<duration>, e.g. 100/s, 5/10s"_s},
            {u"burst"_s, false, u"a positive integer, e.g. 200"_s},
        };
        for (const Param &p : params) {
            const auto at = [&] { return fieldpath::member(path, p.field); };
            if (!algo) {
                m_poisoned.insert(at());
            }
            const bool belongs = !algo || algorithm::isWindow(*algo) == p.window;
            if (!o.contains(p.field)) {
                if (algo && belongs) {
                    missing(path, p.field,
                            u"%1 (%2 takes %3)"_s.arg(p.expected, algorithm::name(*algo),
                                                      p.window ? u"limit and window"_s
                                                               : u"rate and burst"_s));
                }
                continue;
            }
            if (!belongs) {
                error(at(), u"'%1' is not a parameter of %2; %2 takes %3"_s.arg(
                                p.field, algorithm::name(*algo),
                                p.window ? u"rate and burst"_s : u"limit and window"_s));
                continue;
            }
            if (p.field == u"limit"_s || p.field == u"burst"_s) {
                if (auto n = integer(o, p.field, path, u"a positive integer"_s)) {
                    (p.field == u"limit"_s ? r.limit : r.burst) = *n;
                }
            } else if (auto text = string(o, p.field, path, p.expected, true)) {
                if (p.field == u"window"_s) {
                    const Result<qint64> us = duration::parseUs(*text);
                    if (us) {
                        r.windowUs = *us;
                    } else {
                        error(at(), us.error().message);
                    }
                } else {
                    const Result<Rate> rate = duration::parseRate(*text);
                    if (rate) {
                        r.rate = *rate;
                    } else {
                        error(at(), rate.error().message);
                    }
                }
            }
        }
    }

    QString m_file;
    Flavor m_flavor;
    QList<Diagnostic> m_errors;
    QSet<QString> m_poisoned; // paths whose validate() errors would only repeat ours
    qsizetype m_more = 0;     // errors past maxErrors, counted only

public:
    qsizetype more() const { return m_more; }
};

// validate() and, for a file being read now, the overrides that have already expired (the
// store's overrides expire by their keys' TTL, and a stored rule is never refused for time).
QList<Diagnostic> validateNow(const RuleSet &set, const QString &file)
{
    QList<Diagnostic> out = validate(set, file);
    const qint64 nowUs = SystemClock().nowUs();
    for (qsizetype i = 0; i < qsizetype(set.rules.size()); ++i) {
        out +=
            expiredOverrides(set.rules[size_t(i)], fieldpath::element(u"rules"_s, i), file, nowUs);
    }
    return out;
}

Loaded parseRuleFile(const QByteArray &input, const QString &file, Flavor flavor)
{
    const QByteArray bytes = withoutBom(input);
    const Document doc =
        readDocument(bytes, file, flavor,
                     flavor == Flavor::Json ? u"a rule set: {\"version\": 1, \"rules\": [...]}"_s
                                            : u"a rule set: version: 1 and rules: [...]"_s);
    if (doc.failure) {
        return *doc.failure;
    }
    Loaded out;
    Builder builder(file, flavor);
    out.set = builder.buildSet(doc.root);
    out.errors = builder.merged(validateNow(out.set, file));
    finish(out, doc, bytes, file, flavor);
    capErrors(out.errors, builder.more(), file);
    return out;
}

} // namespace

void capErrors(QList<Diagnostic> &errors, qsizetype uncounted, const QString &file)
{
    const qsizetype more = std::max<qsizetype>(errors.size() - maxErrors, 0) + uncounted;
    if (more == 0) {
        return;
    }
    if (errors.size() > maxErrors) {
        errors.resize(maxErrors);
    }
    errors.append(diagnostic(
        file, {}, u"... and %1 more error(s); the first %2 are shown"_s.arg(more).arg(maxErrors)));
}

Loaded parseJson(const QByteArray &input, const QString &file)
{
    return parseRuleFile(input, file, Flavor::Json);
}

Loaded parseYaml(const QByteArray &input, const QString &file)
{
    return parseRuleFile(input, file, Flavor::Yaml);
}

Loaded parseEmbedding(const QByteArray &input, const QString &file, bool yaml,
                      const QString &expected, const FieldReader &fields)
{
    const Flavor flavor = yaml ? Flavor::Yaml : Flavor::Json;
    const QByteArray bytes = withoutBom(input);
    const Document doc = readDocument(bytes, file, flavor, expected);
    if (doc.failure) {
        return *doc.failure;
    }
    Loaded out;
    Builder builder(file, flavor);
    QList<Diagnostic> own;
    qsizetype uncounted = 0;
    if (builder.expectObject(doc.root, expected)) {
        const QJsonObject root = doc.root.toObject();
        builder.buildRules(root, out.set.rules);
        own = fields(root, uncounted);
    }
    out.errors = builder.merged(validateNow(out.set, file)) + own;
    finish(out, doc, bytes, file, flavor);
    capErrors(out.errors, builder.more() + uncounted, file);
    return out;
}

Loaded loadFile(const QString &path)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    const bool json = suffix == u"json"_s;
    if (!json && suffix != u"yaml"_s && suffix != u"yml"_s) {
        return failed(path, u"cannot tell the format from the name: rule files end in .json, "
                            ".yaml or .yml"_s);
    }
    if (info.isDir()) {
        return failed(path, u"is a directory, not a rule file"_s);
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return failed(path, u"cannot open the file: "_s + f.errorString());
    }
    const auto tooLarge = [&](qint64 size, bool atLeast) {
        return failed(path, u"the file is %1%2 MB (%3 bytes); rule files are limited to %4 MB. "
                            "Is this the right file?"_s.arg(atLeast ? u"more than "_s : QString())
                                .arg(double(size) / (1 << 20), 0, 'f', 1)
                                .arg(size)
                                .arg(maxFileBytes >> 20));
    };
    QByteArray bytes;
    if (!f.isSequential()) {
        // Refused before a byte is read: a 100 MB file costs a stat, not 100 MB of memory.
        if (f.size() > maxFileBytes) {
            return tooLarge(f.size(), false);
        }
        bytes = f.readAll();
    } else {
        // A pipe or a device: read up to the limit, and one byte more to know it was exceeded.
        while (bytes.size() <= maxFileBytes) {
            const QByteArray chunk =
                f.read(std::min<qint64>(1 << 20, maxFileBytes + 1 - bytes.size()));
            if (chunk.isEmpty()) {
                break;
            }
            bytes += chunk;
        }
        if (bytes.size() > maxFileBytes) {
            return tooLarge(bytes.size(), true);
        }
    }
    if (f.error() != QFileDevice::NoError) {
        return failed(path, u"cannot read the file: "_s + f.errorString());
    }
    return json ? parseJson(bytes, path) : parseYaml(bytes, path);
}

Result<Override> overrideFromJson(const Rule &rule, const QByteArray &input, const QString &where,
                                  QList<Diagnostic> *errors)
{
    const QByteArray bytes = withoutBom(input);
    QList<Diagnostic> found;
    std::optional<Override> built;
    if (isBlank(bytes)) {
        found.append(diagnostic(where, {}, u"the override is empty; expected a JSON object"_s));
    } else {
        JsonTree tree = readJson(bytes, where);
        if (tree.syntaxError) {
            found.append(*tree.syntaxError);
        } else if (!tree.root.isObject()) {
            found.append(diagnostic(where, {}, u"expected an override (a JSON object)"_s));
        } else {
            Builder builder(where, Flavor::Json);
            built = builder.buildOverride(tree.root.toObject(), {}, rule.algorithm);
            Rule alone = rule;
            alone.overrides = {*built};
            // validateOverrides() names "overrides[0].<field>": the override's own fields here.
            QList<Diagnostic> validated = validateOverrides(alone, {}, where);
            for (Diagnostic &d : validated) {
                d.path = d.path.mid(QStringLiteral("overrides[0]").size());
                if (d.path.startsWith(u'.')) {
                    d.path.remove(0, 1);
                }
            }
            found = builder.merged(validated);
            const JsonLocator::Scan scan = JsonLocator(bytes).scan(withAncestors(found), 1);
            addDuplicates(found, scan.duplicates, bytes, where);
            place(found, scan.offsets, bytes);
        }
    }
    if (errors != nullptr) {
        *errors = found;
    }
    if (!found.isEmpty()) {
        QStringList why;
        for (const Diagnostic &d : found) {
            why << d.toString();
        }
        return Error::make(Error::Kind::Invalid, why.join(u"; "_s));
    }
    return *built;
}

Loaded ruleFromJson(const QByteArray &input, const QString &where)
{
    const QByteArray bytes = withoutBom(input);
    if (isBlank(bytes)) {
        return failed(where, u"the rule is empty; expected a JSON object"_s);
    }
    JsonTree tree = readJson(bytes, where);
    if (tree.syntaxError) {
        Loaded out;
        out.errors.append(*tree.syntaxError);
        return out;
    }
    if (!tree.root.isObject()) {
        return failed(where, u"expected a rule (a JSON object), got an array"_s);
    }
    Loaded out;
    Builder builder(where, Flavor::Json);
    out.set.rules.push_back(builder.buildRule(tree.root.toObject(), {}));
    out.errors = builder.merged(validateRule(out.set.rules.front(), {}, where));
    const JsonLocator::Scan scan = JsonLocator(bytes).scan(withAncestors(out.errors), 3);
    addDuplicates(out.errors, scan.duplicates, bytes, where);
    place(out.errors, scan.offsets, bytes);
    return out;
}

} // namespace sluice::rules
