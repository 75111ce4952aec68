#include "keysaudit.h"

#include "keyrows.h"

#include "core/common/bytes.h"
#include "core/keys/layouts.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sluice::cli {

using namespace sluice::keys;

namespace {

QString auditRow(const QString &layout, const QString &keys, const QString &ok,
                 const QString &never, const QString &longer, const QString &orphan,
                 const QString &byDesign, const QString &unknown)
{
    return padded(layout, 26) + keys.rightJustified(10) + ok.rightJustified(10) +
           never.rightJustified(15) + longer.rightJustified(14) + orphan.rightJustified(8) +
           byDesign.rightJustified(11) + unknown.rightJustified(12);
}

// A layout's flagged keys: what the layout is, what losing the TTL does, the samples.
void flaggedGroup(QStringList &lines, const AuditGroup &g, const QList<AuditEntry> &samples,
                  int samplesPerGroup)
{
    const Layout *l = findLayout(g.layout);
    lines << QString();
    lines << u"%1: %2 flagged of %3%4"_s.arg(g.layout, thousands(g.flagged()), thousands(g.keys),
                                             l ? u" (%1)"_s.arg(QString::fromLatin1(l->library))
                                               : QString());
    if (l != nullptr) {
        lines << u"  what: "_s + QString::fromLatin1(l->explanation);
        lines << u"  without its TTL (%1): %2"_s.arg(lostTtlName(l->lostTtl), lostTtlWords(*l));
    }
    for (const AuditEntry &e : samples) {
        lines << u"  %1  %2  ttl %3%4"_s.arg(bytes::printable(e.key), auditHealthName(e.health),
                                             ttlText(e.pttlMs),
                                             e.state.isEmpty() ? QString() : u"  "_s + e.state);
        lines << u"    why: "_s + e.cause;
    }
    if (g.flagged() > samplesPerGroup) {
        lines << u"  ... and %1 more (--json lists them all)"_s.arg(
            thousands(g.flagged() - samplesPerGroup));
    }
}

} // namespace

QByteArray auditJsonTail(const AuditReport &report)
{
    QJsonArray groups;
    for (const AuditGroup &g : report.groups) {
        const Layout *l = findLayout(g.layout);
        groups.append(QJsonObject{
            {u"layout"_s, g.layout},
            {u"library"_s, l ? QJsonValue(QString::fromLatin1(l->library)) : QJsonValue()},
            {u"explanation"_s, l ? QJsonValue(QString::fromLatin1(l->explanation)) : QJsonValue()},
            {u"ttl_set"_s, l ? QJsonValue(QString::fromLatin1(l->ttlSet)) : QJsonValue()},
            {u"lost_ttl"_s, l ? QJsonValue(lostTtlName(l->lostTtl)) : QJsonValue()},
            {u"keys"_s, g.keys},
            {u"ok"_s, g.ok},
            {u"never_expires"_s, g.neverExpires},
            {u"ttl_too_long"_s, g.ttlExceedsWindow},
            {u"window_ended"_s, g.orphans},
            {u"by_design"_s, g.byDesign},
            {u"wrong_type"_s, g.unknown}});
    }
    const QJsonObject tail{{u"complete"_s, report.scan.status == ScanSummary::Status::Completed},
                           {u"scanned"_s, report.scan.progress.keys},
                           {u"groups"_s, groups},
                           {u"flagged"_s, report.flagged()},
                           {u"suspects"_s, report.suspects},
                           {u"looks_like"_s, report.looksLike},
                           {u"other_keys_without_ttl"_s, report.otherNoTtl},
                           {u"other_keys"_s, report.other}};
    return QJsonDocument(tail).toJson(QJsonDocument::Compact);
}

QStringList auditSummary(const AuditReport &report, const QMap<QString, QList<AuditEntry>> &samples,
                         const QList<AuditEntry> &suspects, int samplesPerGroup,
                         const QString &scanLine, bool failed)
{
    QStringList lines;
    lines << auditRow(u"LAYOUT"_s, u"KEYS"_s, u"OK"_s, u"NEVER EXPIRES"_s, u"TTL TOO LONG"_s,
                      u"ENDED"_s, u"BY DESIGN"_s, u"WRONG TYPE"_s);
    for (const AuditGroup &g : report.groups) {
        lines << auditRow(g.layout, thousands(g.keys), thousands(g.ok), thousands(g.neverExpires),
                          thousands(g.ttlExceedsWindow), thousands(g.orphans),
                          thousands(g.byDesign), thousands(g.unknown));
    }
    for (const AuditGroup &g : report.groups) {
        if (g.flagged() == 0) {
            continue;
        }
        flaggedGroup(lines, g, samples.value(g.layout), samplesPerGroup);
    }
    if (report.suspects > 0) {
        lines << QString();
        lines << u"suspects: %1 (integer strings without TTL named like a limit, matching no "
                 "known layout)"_s.arg(thousands(report.suspects));
        for (const AuditEntry &e : std::as_const(suspects)) {
            lines << u"  %1  %2"_s.arg(bytes::printable(e.key), e.state);
            lines << u"    why: "_s + e.cause;
        }
    }
    if (report.looksLike > 0) {
        lines << QString();
        lines << u"looks like a limiter's keys, but the value is not: %1 (not judged as that "
                 "limiter; --json lists them)"_s.arg(thousands(report.looksLike));
    }
    lines << QString();
    lines << u"other keys without TTL: %1 (application keys: sessions, configuration; not "
             "flagged)"_s.arg(thousands(report.otherNoTtl));
    lines << u"other keys with a TTL: %1"_s.arg(thousands(report.other));
    lines << scanLine;
    if (report.flagged() > 0) {
        lines << u"fix: sluice-cli keys fix --url URL --match GLOB --ttl DURATION sets a TTL on "
                 "the keys of GLOB that have none (never extends one; --dry-run first; "
                 "--delete removes them instead)"_s;
    } else if (failed) {
        lines << u"nothing flagged among the keys scanned, but the scan is incomplete (see "
                 "below): the keys it did not reach are not judged"_s;
    } else {
        lines << u"nothing flagged"_s;
    }
    return lines;
}

} // namespace sluice::cli
