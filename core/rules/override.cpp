// Per-subject overrides of a rule: the model's helpers and the checks of validate().
//
// Decisions (FORMATS.md "overrides"):
//  - Precedence: an exact subject, then the longest CIDR prefix, then a glob; between two of
//    the same rank, the first in the file. Overlapping overrides of different ranks are the
//    point (a network denied, one address of it allowed) and are not errors; an override that
//    can never win (the same subject, network or glob as an earlier one) is.
//  - A CIDR matches only subjects that are IP addresses: on a rule whose scope is not ip it
//    matches nothing and is refused. Host bits set ("10.1.2.3/8") are refused too: the writer
//    meant one of two things, and the file should say which.
//  - An empty glob or subject matches nothing (subjects are never empty).
#include "override.h"

#include "codec.h"
#include "jsonlocator.h"
#include "rule.h"

#include "core/common/bytes.h"
#include "core/common/glob.h"
#include "core/common/names.h"
#include "core/limiter/policy.h"

#include <QDateTime>

#include <QHash>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sluice {

constexpr Named<Override::Kind> kindFields[] = {{Override::Kind::Subject, u"subject"},
                                                {Override::Kind::Cidr, u"cidr"},
                                                {Override::Kind::Glob, u"match"}};

QString Override::kindField(Kind k)
{
    return nameIn(kindFields, k);
}

constexpr Named<Override::Action> actionNames[] = {{Override::Action::Limit, u"limit"},
                                                   {Override::Action::Allow, u"allow"},
                                                   {Override::Action::Deny, u"deny"}};

QString Override::actionName(Action a)
{
    return nameIn(actionNames, a);
}

QString Override::describeMatch() const
{
    return kindField(kind) + u' ' + bytes::shortened(pattern);
}

QString Override::describeAction(const Rule &rule) const
{
    if (action != Action::Limit) {
        return actionName(action);
    }
    return rules::overridePolicy(rule, *this).describe();
}

namespace rules {

Policy overridePolicy(const Rule &rule, const Override &o)
{
    Policy p = rule.policy();
    p.limit = o.limit;
    p.windowUs = o.windowUs;
    p.rate = o.rate;
    p.burst = o.burst;
    return p;
}

QByteArray overrideKeyFor(const Rule &rule, const QByteArray &subject)
{
    QByteArray key;
    const QByteArray id = rule.id.toUtf8();
    key.reserve(rule.keyPrefix.size() + id.size() + overrideKeyMarker.size() + subject.size() + 3);
    key += rule.keyPrefix;
    key += id;
    key += overrideKeyMarker;
    key += ":{";
    key += subject;
    key += '}';
    return key;
}

Decision overrideDecision(const Policy &policy, Override::Action action, qint64 nowUs, qint64 endUs)
{
    const qint64 capacity = policy.capacity();
    if (action != Override::Action::Deny) {
        return Decision{true, capacity, capacity, -1, 0, 0};
    }
    const qint64 untilEndMs = endUs > nowUs ? (endUs - nowUs + 999) / 1000 : -1;
    return Decision{false, capacity, 0, untilEndMs, std::max<qint64>(untilEndMs, 0), 0};
}

std::optional<qint64> parseTimestampUs(const QString &text)
{
    const QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid() || t.timeSpec() == Qt::LocalTime) {
        return std::nullopt; // no zone: which one would be a guess
    }
    return t.toMSecsSinceEpoch() * 1000;
}

QString formatTimestampUs(qint64 us)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC);
    return t.toString(us % 1'000'000 != 0 ? Qt::ISODateWithMs : Qt::ISODate);
}

int specificity(const Override &o)
{
    switch (o.kind) {
    case Override::Kind::Subject:
        return 0;
    case Override::Kind::Cidr: {
        QString ignored;
        const auto n = parseNetwork(o.pattern, &ignored);
        return 1 + 128 - (n ? n->prefix : 0);
    }
    case Override::Kind::Glob:
        return 1000;
    }
    return 1000;
}

namespace {

void add(QList<Diagnostic> &out, const QString &file, const QString &path, const QString &message)
{
    Diagnostic d;
    d.file = file;
    d.path = path;
    d.message = message;
    out.append(std::move(d));
}

// Policy::validate names the parameter first ("limit must be positive, got 0").
void addPolicyError(QList<Diagnostic> &out, const QString &file, const QString &at,
                    const QString &message)
{
    for (const QString &field : {u"limit"_s, u"window"_s, u"rate"_s, u"burst"_s}) {
        if (message.startsWith(field + u' ')) {
            const QString redundant = field + u" must "_s;
            add(out, file, fieldpath::member(at, field),
                message.startsWith(redundant) ? message.mid(field.size() + 1) : message);
            return;
        }
    }
    add(out, file, at, message);
}

} // namespace

QList<Diagnostic> validateOverrides(const Rule &rule, const QString &path, const QString &file)
{
    QList<Diagnostic> out;
    if (rule.overrides.empty()) {
        return out;
    }
    const QString list = fieldpath::member(path, u"overrides"_s);
    // What an earlier override already matches, for the dead ones: pattern -> index.
    QHash<QString, qsizetype> subjects;
    QHash<QByteArray, qsizetype> networks;
    QHash<QString, qsizetype> globs;
    const auto dead = [&](qsizetype i, qsizetype first, const QString &field, const QString &what) {
        add(out, file, fieldpath::member(fieldpath::element(list, i), field),
            u"overrides[%1] already matches %2: it wins (of two overrides as specific as each "
            "other, the first in the file), so this one would never apply; remove one of "
            "them"_s.arg(first)
                .arg(what));
    };
    for (qsizetype i = 0; i < qsizetype(rule.overrides.size()); ++i) {
        const Override &o = rule.overrides[size_t(i)];
        const QString at = fieldpath::element(list, i);
        const QString field = Override::kindField(o.kind);
        const QString matchPath = fieldpath::member(at, field);
        switch (o.kind) {
        case Override::Kind::Subject: {
            if (o.pattern.isEmpty()) {
                add(out, file, matchPath,
                    u"the subject is empty and would match nothing (subjects are never "
                    "empty); give the client IP, user id, ... it applies to"_s);
                break;
            }
            if (o.pattern.toUtf8().size() > 1024) {
                add(out, file, matchPath,
                    u"the subject is %1 bytes; at most 1024 (subjects become Redis keys)"_s.arg(
                        o.pattern.toUtf8().size()));
                break;
            }
            const auto it = subjects.constFind(o.pattern);
            if (it != subjects.constEnd()) {
                dead(i, *it, field, u"the subject '%1'"_s.arg(bytes::shortened(o.pattern)));
            } else {
                subjects.insert(o.pattern, i);
            }
            break;
        }
        case Override::Kind::Cidr: {
            if (rule.scope.kind != Scope::Kind::Ip) {
                add(out, file, matchPath,
                    u"a CIDR matches IP addresses, but the rule's scope is %1: its subjects are "
                    "not addresses, so '%2' would match nothing; use subject or match"_s.arg(
                        rule.scope.toString(), bytes::shortened(o.pattern)));
                break;
            }
            QString error;
            const auto n = parseNetwork(o.pattern, &error);
            if (!n) {
                add(out, file, matchPath, error);
                break;
            }
            const QByteArray key = n->address + char(n->prefix);
            const auto it = networks.constFind(key);
            if (it != networks.constEnd()) {
                dead(i, *it, field, u"the network %1"_s.arg(bytes::shortened(o.pattern)));
            } else {
                networks.insert(key, i);
            }
            break;
        }
        case Override::Kind::Glob: {
            if (o.pattern.isEmpty()) {
                add(out, file, matchPath,
                    u"the glob is empty and would match nothing (subjects are never empty); "
                    "e.g. partner-* ('*' any text, '?' one character)"_s);
                break;
            }
            if (o.pattern.toUtf8().size() > 1024) {
                add(out, file, matchPath,
                    u"the glob is %1 bytes; at most 1024"_s.arg(o.pattern.toUtf8().size()));
                break;
            }
            // A glob without wildcards is one subject: an exact override of it wins.
            const QByteArray g = o.pattern.toUtf8();
            if (!glob::hasWildcards(g, glob::Syntax::Subject)) {
                const auto s = subjects.constFind(o.pattern);
                if (s != subjects.constEnd()) {
                    add(out, file, matchPath,
                        u"'%1' has no wildcard, so it matches only the subject of "
                        "overrides[%2], which wins (an exact subject is more specific than a "
                        "glob): this one would never apply; remove one of them"_s
                            .arg(bytes::shortened(o.pattern))
                            .arg(*s));
                    break;
                }
            }
            const auto it = globs.constFind(o.pattern);
            if (it != globs.constEnd()) {
                dead(i, *it, field, u"the glob '%1'"_s.arg(bytes::shortened(o.pattern)));
            } else {
                globs.insert(o.pattern, i);
            }
            break;
        }
        }
        if (o.action == Override::Action::Limit) {
            const QString limitPath = fieldpath::member(at, u"limit"_s);
            const Policy p = overridePolicy(rule, o);
            const bool window = algorithm::isWindow(rule.algorithm);
            bool each = true;
            const auto check = [&](const Policy &one) {
                const Result<void> r = one.validate();
                if (!r) {
                    addPolicyError(out, file, limitPath, r.error().message);
                }
                return r.ok();
            };
            if (window) {
                each &= check(Policy::window(Algorithm::FixedWindow, o.limit, 1));
                each &= check(Policy::window(Algorithm::FixedWindow, 1, o.windowUs));
            } else {
                each &= check(Policy::bucket(Algorithm::TokenBucket, o.rate, 1));
                each &= check(Policy::bucket(Algorithm::TokenBucket, Rate{1, 1}, o.burst));
            }
            if (each) {
                check(p);
            }
        }
        if (o.expiresUs != 0 && o.ttlUs != 0) {
            add(out, file, fieldpath::member(at, u"ttl"_s),
                u"an override has expires or ttl, not both"_s);
        }
        if (o.note.size() > 1024) {
            add(out, file, fieldpath::member(at, u"note"_s),
                u"the note is %1 characters long; at most 1024 are allowed"_s.arg(o.note.size()));
        } else {
            for (QChar c : o.note) {
                if (c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() < 0xA0)) {
                    add(out, file, fieldpath::member(at, u"note"_s),
                        u"the note contains a control character; expected one line of text"_s);
                    break;
                }
            }
        }
    }
    return out;
}

QList<Diagnostic> expiredOverrides(const Rule &rule, const QString &path, const QString &file,
                                   qint64 nowUs)
{
    QList<Diagnostic> out;
    const QString list = fieldpath::member(path, u"overrides"_s);
    for (qsizetype i = 0; i < qsizetype(rule.overrides.size()); ++i) {
        const Override &o = rule.overrides[size_t(i)];
        if (o.expiresUs != 0 && o.expiresUs <= nowUs) {
            add(out, file, fieldpath::member(fieldpath::element(list, i), u"expires"_s),
                u"the override expired at %1 (now is %2): it would never apply; remove it or "
                "give a later time"_s.arg(formatTimestampUs(o.expiresUs),
                                          formatTimestampUs(nowUs - nowUs % 1'000'000)));
        }
    }
    return out;
}

} // namespace rules
} // namespace sluice
