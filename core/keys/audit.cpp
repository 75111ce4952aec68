#include "audit.h"

#include "keyhealth.h"
#include "valuereads.h"

#include "core/common/glob.h"
#include "core/redis/replyview.h"

#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

// Allowance on top of a known window before a TTL counts as too long: the libraries EXPIRE in
// whole seconds.
constexpr qint64 windowSlackMs = 1000;

QString sluiceLayoutOf(Algorithm a)
{
    return u"sluice_"_s + algorithm::name(a);
}

AuditHealth fromHealth(Health h)
{
    switch (h) {
    case Health::Ok:
        return AuditHealth::Ok;
    case Health::NoTtl:
        return AuditHealth::NeverExpires;
    case Health::TtlExceedsRule:
        return AuditHealth::TtlExceedsWindow;
    case Health::Orphan:
    case Health::WrongType:
    case Health::Unreadable:
        return AuditHealth::Unknown;
    }
    return AuditHealth::Unknown;
}

// Beyond a window's end plus its length, a key has outlived any TTL its library set in the
// window; this much more covers the jitter some add (Envoy's, 300 s at most by default).
constexpr qint64 orphanSlackMs = 301'000;

// The verdict on a recognised key's TTL (and, for names that hold a window, its age).
void judgeForeignTtl(AuditEntry &e, const Layout &l, const ForeignRead &read, qint64 windowMs,
                     const QString &whose)
{
    const auto end = windowEndUs(l, read.key);
    const qint64 pastUs = end ? read.nowUs - *end : 0;
    const bool orphan = end && pastUs > (std::max<qint64>(windowMs, 0) + orphanSlackMs) * 1000;
    if (read.pttlMs == -1 && *l.byDesign != '\0') {
        e.health = AuditHealth::ByDesign;
        e.cause = u"no TTL, by design: "_s + QString::fromLatin1(l.byDesign);
    } else if (orphan) {
        e.health = AuditHealth::Orphan;
        e.cause =
            u"orphan: the window its name holds ended %1 ago; %2 writes the next window to "
            "another key, so nothing reads this one. %3. Fix: delete it (keys fix --match GLOB "
            "--delete acts on those without TTL)"_s.arg(
                formatDurationMs(pastUs / 1000), QString::fromLatin1(l.library),
                read.pttlMs == -1
                    ? u"It has no TTL: it stays forever"_s
                    : u"Its TTL (%1) outlived it"_s.arg(formatDurationMs(read.pttlMs)));
    } else if (read.pttlMs == -1) {
        e.health = AuditHealth::NeverExpires;
        e.cause = u"never expires (%1). %2. Its TTL: %3; without one %4. Fix: set a TTL%5, "
                  "or delete it"_s.arg(lostTtlName(l.lostTtl), QString::fromLatin1(l.explanation),
                                       QString::fromLatin1(l.ttlSet), lostTtlWords(l),
                                       windowMs > 0
                                           ? u" of %1 (%2)"_s.arg(formatDurationMs(windowMs), whose)
                                           : QString());
    } else if (windowMs > 0 && read.pttlMs > windowMs + windowSlackMs) {
        e.health = AuditHealth::TtlExceedsWindow;
        e.cause = u"TTL %1 is longer than the window (%2, %3): the key outlives its "
                  "meaning; a TTL in seconds taken for ms, or a window shortened since. "
                  "Fix: lower it to %2"_s.arg(formatDurationMs(read.pttlMs),
                                              formatDurationMs(windowMs), whose);
    } else {
        e.health = AuditHealth::Ok;
    }
}

} // namespace

QString auditHealthName(AuditHealth h)
{
    switch (h) {
    case AuditHealth::Ok:
        return u"ok"_s;
    case AuditHealth::NeverExpires:
        return u"never_expires"_s;
    case AuditHealth::TtlExceedsWindow:
        return u"ttl_too_long"_s;
    case AuditHealth::Orphan:
        return u"window_ended"_s;
    case AuditHealth::ByDesign:
        return u"by_design"_s;
    case AuditHealth::Unknown:
        return u"wrong_type"_s;
    case AuditHealth::LooksLike:
        return u"looks_like"_s;
    case AuditHealth::Suspect:
        return u"suspect"_s;
    case AuditHealth::OtherNoTtl:
        return u"other_no_ttl"_s;
    case AuditHealth::Other:
        return u"other"_s;
    }
    return u"other"_s;
}

QString limitWordIn(const QByteArray &key)
{
    const QByteArray lower = key.toLower();
    for (const char *w : {"limit", "throttle", "quota", "rate", "count"}) {
        if (lower.contains(w)) {
            return QString::fromLatin1(w);
        }
    }
    return {};
}

qint64 AuditReport::keys() const
{
    qint64 n = suspects + looksLike + otherNoTtl + other;
    for (const AuditGroup &g : groups) {
        n += g.keys;
    }
    return n;
}

qint64 AuditReport::flagged() const
{
    qint64 n = suspects;
    for (const AuditGroup &g : groups) {
        n += g.flagged();
    }
    return n;
}

const AuditGroup *AuditReport::group(const QString &layout) const
{
    for (const AuditGroup &g : groups) {
        if (g.layout == layout) {
            return &g;
        }
    }
    return nullptr;
}

void AuditReport::add(const AuditEntry &e)
{
    switch (e.health) {
    case AuditHealth::Suspect:
        ++suspects;
        return;
    case AuditHealth::LooksLike:
        ++looksLike;
        return;
    case AuditHealth::OtherNoTtl:
        ++otherNoTtl;
        return;
    case AuditHealth::Other:
        ++other;
        return;
    default:
        break;
    }
    AuditGroup *g = nullptr;
    for (AuditGroup &candidate : groups) {
        if (candidate.layout == e.layout) {
            g = &candidate;
            break;
        }
    }
    if (g == nullptr) {
        groups.append(AuditGroup{e.layout});
        g = &groups.last();
        g->severity = e.severity;
    }
    ++g->keys;
    switch (e.health) {
    case AuditHealth::Ok:
        ++g->ok;
        break;
    case AuditHealth::NeverExpires:
        ++g->neverExpires;
        break;
    case AuditHealth::TtlExceedsWindow:
        ++g->ttlExceedsWindow;
        break;
    case AuditHealth::Unknown:
        ++g->unknown;
        break;
    case AuditHealth::Orphan:
        ++g->orphans;
        break;
    case AuditHealth::ByDesign:
        ++g->byDesign;
        break;
    default:
        break;
    }
}

void AuditReport::sortGroups()
{
    std::stable_sort(groups.begin(), groups.end(), [](const AuditGroup &a, const AuditGroup &b) {
        if ((a.flagged() > 0) != (b.flagged() > 0)) {
            return a.flagged() > 0;
        }
        if (a.flagged() > 0 && a.severity != b.severity) {
            return a.severity > b.severity;
        }
        if (a.flagged() != b.flagged()) {
            return a.flagged() > b.flagged();
        }
        if (a.keys != b.keys) {
            return a.keys > b.keys;
        }
        return a.layout < b.layout;
    });
}

AuditEntry KeyAuditor::classify(const ForeignRead &read, const KeyInfo &info,
                                const QList<Adoption> &adoptions)
{
    AuditEntry e;
    e.key = read.key;
    e.type = read.type;
    e.pttlMs = read.pttlMs;
    e.readUs = read.nowUs;
    if (read.type == "zset" || read.type == "list") {
        e.entries = read.zcard;
    }

    // A Sluice key of a given rule, in the rule's state: judged as `keys` judges it.
    // (A string counter under a rule's prefix, judged no_ttl by the reader, is matched below.)
    if (judgedByItsRule(info)) {
        e.layout = sluiceLayoutOf(info.algorithm);
        e.lostTtl = lostTtlName(LostTtl::HealsOnNextRequest);
        e.severity = severity(LostTtl::HealsOnNextRequest);
        e.health = fromHealth(info.health);
        e.state = info.state.describe();
        e.cause = info.explanation();
        e.windowMs = info.maxTtlMs;
        e.limit = info.state.limit;
        e.ruleId = info.ruleId;
        return e;
    }

    auto judgeTtl = [&](const Layout &l, qint64 windowMs, const QString &whose) {
        e.windowMs = windowMs;
        e.lostTtl = lostTtlName(l.lostTtl);
        e.severity = severity(l.lostTtl);
        judgeForeignTtl(e, l, read, windowMs, whose);
    };

    for (const Adoption &a : adoptions) {
        if (!glob::matches(a.match, read.key, glob::Syntax::Redis)) {
            continue;
        }
        const Layout *l = findLayout(a.layout);
        if (l == nullptr) {
            continue; // refused when the rules were loaded
        }
        e.layout = a.layout;
        e.ruleId = a.ruleId;
        e.limit = a.limit;
        e.lostTtl = lostTtlName(l->lostTtl);
        e.severity = severity(l->lostTtl);
        if (!shapeFits(*l, read)) {
            e.health = AuditHealth::Unknown;
            e.cause = u"rule '%1' adopts it as %2 (%3), but it is a %4 that does not hold %5"_s.arg(
                a.ruleId, a.layout, QString::fromLatin1(l->library), QString::fromLatin1(read.type),
                QString::fromLatin1(l->valueShape));
            return e;
        }
        e.count = counterValue(*l, read);
        e.state = describeState(*l, read, a.limit, a.windowMs);
        judgeTtl(*l, a.windowMs, u"rule '%1' adopts it"_s.arg(a.ruleId));
        return e;
    }

    const QString algorithm = info.hasRule() ? algorithm::name(info.algorithm) : QString();
    if (const Layout *l = matchLayout(read, algorithm)) {
        e.layout = idOf(*l);
        e.count = counterValue(*l, read);
        if (l->decoder == Decoder::GatewayTokens) {
            bool ok = false;
            const double left = read.head.toDouble(&ok);
            if (ok) {
                e.tokens = left;
            }
        }
        const qint64 w = knownWindowMs(*l, read);
        e.state = describeState(*l, read, 0, w);
        judgeTtl(*l, w, u"from the key"_s);
        if (info.hasRule() && e.health == AuditHealth::NeverExpires) {
            e.ruleId = info.ruleId;
            e.windowMs = info.maxTtlMs;
            e.cause += u". It sits under rule '%1''s prefix: `keys fix --rules` sets its TTL "
                       "from the rule (%2), then the rule's script rebuilds its own state"_s.arg(
                           info.ruleId, formatDurationMs(info.maxTtlMs));
        }
        return e;
    }
    if (info.hasRule()) {
        e.layout = sluiceLayoutOf(info.algorithm);
        e.health = AuditHealth::Unknown;
        e.ruleId = info.ruleId;
        e.cause = info.explanation();
        return e;
    }
    if (const Layout *l = matchByName(read.key)) {
        e.looksLike = QString::fromLatin1(l->id);
        e.health = AuditHealth::LooksLike;
        e.cause =
            u"looks like %1 (%2, keys %3), but its value is not: a %4 that does not hold "
            "%5. Not judged as %1: another application's key under a limiter's prefix, "
            "or a limiter Sluice does not know"_s.arg(
                e.looksLike, QString::fromLatin1(l->library), QString::fromLatin1(l->keyShape),
                QString::fromLatin1(read.type), QString::fromLatin1(l->valueShape));
        return e;
    }
    if (read.pttlMs == -1) {
        const QString word = limitWordIn(read.key);
        const bool integer = read.type == "string" && read.strlen == read.head.size() &&
                             read.strlen > 0 && read.strlen <= 20 &&
                             std::all_of(read.head.begin(), read.head.end(),
                                         [](char c) { return (c >= '0' && c <= '9') || c == '-'; });
        if (integer && !word.isEmpty()) {
            e.health = AuditHealth::Suspect;
            e.count = read.head.toLongLong();
            e.state = u"integer %1"_s.arg(QString::fromLatin1(read.head));
            e.cause = u"suspect: an integer string without TTL whose name says \"%1\", and no "
                      "known layout matches it: likely a hand-written counter whose EXPIRE was "
                      "lost (INCR after expiry). Adopt it in a rule file, or fix it with a TTL "
                      "(keys fix --match GLOB --ttl DURATION)"_s.arg(word);
            return e;
        }
        e.health = AuditHealth::OtherNoTtl;
        return e;
    }
    e.health = AuditHealth::Other;
    return e;
}

Result<QList<AuditEntry>> KeyAuditor::judge(Connection &c, const QList<KeyInfo> &infos,
                                            const QList<Adoption> &adoptions)
{
    ValueReads values;
    if (auto r = values.readAll(c, infos); !r) {
        return r.error();
    }
    QList<AuditEntry> out;
    out.reserve(infos.size());
    values.take([&](const KeyInfo &info, const ForeignRead &read) {
        out << classify(read, info, adoptions);
    });
    return out;
}

QList<Adoption> adoptionsOf(const RuleSet &rules)
{
    QList<Adoption> out;
    for (const Rule &r : rules.rules) {
        if (r.adopt) {
            out << Adoption{r.id, r.adopt->match, r.adopt->layout,
                            std::max<qint64>(r.adoptWindowUs() / 1000, 1), r.adoptLimit()};
        }
    }
    return out;
}

AuditReport KeyAuditor::run(Connection &c, const Options &options, const PageCallback &onPage)
{
    AuditReport report;
    QList<Adoption> adoptions = options.adoptions;
    if (adoptions.isEmpty() && options.rules) {
        adoptions = adoptionsOf(*options.rules);
    }
    // The values ride in the scan's own round trips: with a key's PTTL where its type can be
    // told before (no TYPE then), else in a round trip after its TYPE and PTTL.
    ValueReads values;
    KeyReader reader(options.rules);
    reader.setTypedReads(&values);
    KeyScanner scanner{reader};
    KeyScanner::Options so = options.scan;
    if (so.patterns.isEmpty()) {
        so.patterns << QByteArrayLiteral("*");
    }
    so.follower = &values;
    if (!options.pageUsesConnection) {
        // The next round trip goes out before the page is judged: Redis reads while we judge.
        so.pageNeedsConnection = [] { return false; };
    }
    std::atomic<bool> stop{false};
    const std::atomic<bool> *callerCancel = options.scan.cancel;
    so.cancel = &stop;
    QList<AuditEntry> entries;
    // The caller's cancel is relayed to the scan through `stop`, checked before every page.
    report.scan = scanner.run(c, so, [&](const QList<KeyInfo> &, const ScanProgress &p) {
        if (callerCancel != nullptr && callerCancel->load(std::memory_order_relaxed)) {
            stop = true;
            return;
        }
        entries.clear();
        values.take([&](const KeyInfo &info, const ForeignRead &read) {
            entries << classify(read, info, adoptions);
            report.add(entries.last());
        });
        if (onPage) {
            onPage(entries, p);
        }
    });
    report.sortGroups();
    return report;
}

} // namespace sluice::keys
