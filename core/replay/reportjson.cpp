// The replay report as JSON and CSV (FORMATS.md "replay").
#include "replay.h"

#include "core/common/bytes.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {

QJsonValue iso(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonArray notes(const std::vector<LineNote> &list)
{
    QJsonArray a;
    for (const LineNote &n : list) {
        a.append(QJsonObject{{u"file"_s, n.file},
                             {u"line"_s, n.line},
                             {u"reason"_s, n.reason},
                             {u"sample"_s, n.sample}});
    }
    return a;
}

QJsonObject ruleJson(const RuleReport &r)
{
    QJsonObject o{{u"id"_s, r.id},
                  {u"set"_s, r.set},
                  {u"description"_s, r.description},
                  {u"route"_s, r.route},
                  {u"scope"_s, r.scope},
                  {u"shadow"_s, r.shadow},
                  {u"skipped"_s, r.skipped},
                  {u"skip_reason"_s, r.skipped ? QJsonValue(r.skipReason) : QJsonValue()}};
    if (r.skipped) {
        return o;
    }
    o.insert(u"matched"_s, r.matched);
    o.insert(u"decided"_s, r.decided);
    o.insert(u"admitted"_s, r.admitted);
    o.insert(u"denied"_s, r.denied);
    o.insert(u"shadow_denied"_s, r.shadowDenied);
    o.insert(u"no_subject"_s, r.noSubject);
    o.insert(u"subject_too_long"_s, r.subjectTooLong);
    o.insert(u"subjects"_s, r.subjects);
    o.insert(u"subjects_denied"_s, r.subjectsDenied);
    QJsonArray top;
    for (const DeniedSubject &d : r.top) {
        top.append(QJsonObject{{u"subject"_s, bytes::printable(d.subject)},
                               {u"requests"_s, d.requests},
                               {u"denied"_s, d.denied},
                               {u"first"_s, iso(d.firstUs)},
                               {u"last"_s, iso(d.lastUs)}});
    }
    o.insert(u"top_denied"_s, top);
    QJsonArray bins;
    for (qint64 b : r.deniedPerBin) {
        bins.append(b);
    }
    o.insert(u"denied_per_bin"_s, bins);
    o.insert(u"log_status"_s,
             r.hasStatus
                 ? QJsonValue(QJsonObject{{u"log_429"_s, r.log429},
                                          {u"log_429_denied_too"_s, r.log429Denied},
                                          {u"log_429_admitted"_s, r.log429 - r.log429Denied},
                                          {u"denied_not_429"_s, r.deniedNot429}})
                 : QJsonValue());
    QJsonArray candidates;
    for (const Candidate &c : r.candidates) {
        candidates.append(QJsonObject{{u"limit"_s, c.limit},
                                      {u"source"_s, c.source},
                                      {u"subjects"_s, c.subjects},
                                      {u"subject_share"_s, c.subjectShare},
                                      {u"requests"_s, c.requests},
                                      {u"request_share"_s, c.requestShare}});
    }
    o.insert(u"suggestion"_s, QJsonObject{{u"window_ms"_s, double(r.windowUs) / 1000.0},
                                          {u"limit"_s, r.limit},
                                          {u"peak"_s, QJsonObject{{u"p50"_s, r.p50},
                                                                  {u"p90"_s, r.p90},
                                                                  {u"p99"_s, r.p99},
                                                                  {u"p99_9"_s, r.p999},
                                                                  {u"max"_s, r.max}}},
                                          {u"candidates"_s, candidates}});
    o.insert(u"digest"_s, QString::number(r.digest, 16).rightJustified(16, u'0'));
    return o;
}

} // namespace

QByteArray toJson(const Report &r)
{
    QJsonArray rules, against, comparisons;
    for (const RuleReport &x : r.rules) {
        rules.append(ruleJson(x));
    }
    for (const RuleReport &x : r.against) {
        against.append(ruleJson(x));
    }
    for (const Comparison &c : r.comparisons) {
        QJsonArray a, b;
        for (const QByteArray &s : c.onlyRulesExamples) {
            a.append(bytes::printable(s));
        }
        for (const QByteArray &s : c.onlyAgainstExamples) {
            b.append(bytes::printable(s));
        }
        comparisons.append(QJsonObject{{u"rule"_s, c.rule},
                                       {u"comparable"_s, c.comparable},
                                       {u"why"_s, c.comparable ? QJsonValue() : QJsonValue(c.why)},
                                       {u"denied_only_by_rules"_s, c.onlyRules},
                                       {u"denied_only_by_against"_s, c.onlyAgainst},
                                       {u"denied_by_both"_s, c.both},
                                       {u"only_rules_examples"_s, a},
                                       {u"only_against_examples"_s, b}});
    }
    const bool any = r.parsed > 0 && r.lastUs >= r.firstUs && (r.firstUs != 0 || r.lastUs != 0);
    QJsonObject o{{u"files"_s, QJsonArray::fromStringList(r.files)},
                  {u"formats"_s, QJsonArray::fromStringList(r.formats)},
                  {u"backend"_s, r.backend},
                  {u"key_prefix"_s, r.backend == u"local"_s
                                        ? QJsonValue()
                                        : QJsonValue(QString::fromUtf8(r.keyPrefix))},
                  {u"lines"_s, r.lines},
                  {u"parsed"_s, r.parsed},
                  {u"unparsed"_s, r.unparsed},
                  {u"too_long"_s, r.tooLong},
                  {u"unmatched"_s, r.unmatched},
                  {u"late"_s, r.late},
                  {u"outliers"_s, r.outliers},
                  {u"outlier_lines"_s, notes(r.outlierLines)},
                  {u"decided_early"_s, r.decidedEarly},
                  {u"seconds_not_spread"_s, r.secondsNotSpread},
                  {u"max_subjects"_s, r.maxSubjects},
                  {u"reorder_window_ms"_s, double(r.reorderWindowUs) / 1000.0},
                  {u"spread_whole_seconds"_s, r.spread},
                  {u"bad_lines"_s, notes(r.badLines)},
                  {u"late_lines"_s, notes(r.lateLines)},
                  {u"first"_s, any ? iso(r.firstUs) : QJsonValue()},
                  {u"last"_s, any ? iso(r.lastUs) : QJsonValue()},
                  {u"bin_ms"_s, double(r.binUs) / 1000.0},
                  {u"rules"_s, rules},
                  {u"against"_s, against},
                  {u"comparisons"_s, comparisons},
                  {u"cancelled"_s, r.cancelled},
                  {u"error"_s, r.error.isEmpty() ? QJsonValue() : QJsonValue(r.error)},
                  {u"warning"_s, r.warning.isEmpty() ? QJsonValue() : QJsonValue(r.warning)},
                  {u"wall_s"_s, r.wallSeconds}};
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QByteArray deniedCsv(const Report &r)
{
    QByteArray out = "t_ms,set,rule,denied\n";
    for (const auto *list : {&r.rules, &r.against}) {
        for (const RuleReport &x : *list) {
            for (size_t i = 0; i < x.deniedPerBin.size(); ++i) {
                out += QByteArray::number((r.firstUs + qint64(i) * r.binUs) / 1000) + ',' +
                       x.set.toUtf8() + ',' + x.id.toUtf8() + ',' +
                       QByteArray::number(x.deniedPerBin[i]) + '\n';
            }
        }
    }
    return out;
}

} // namespace sluice::replay
