#include "stagecompare.h"

#include "statsreader.h"

#include "core/redis/servertime.h"

#include <algorithm>

namespace sluice::stats {

Result<StageReport> compareStage(Connection &c, const rules::RuleStore::Stage &stage, int seconds,
                                 const QByteArray &ns)
{
    auto nowUs = redis::serverTimeUs(c);
    if (!nowUs) {
        return nowUs.error();
    }
    StageReport report;
    report.seconds = seconds;
    report.nowSecond = *nowUs / 1'000'000;

    QStringList ids;
    auto add = [&](const QStringList &list, const char *change) {
        for (const QString &id : list) {
            StagedRuleReport r;
            r.id = id;
            r.change = QLatin1String(change);
            report.rules << r;
            ids << id << rules::RuleStore::stagedId(id);
        }
    };
    add(stage.changed, "changed");
    add(stage.added, "added");
    add(stage.removed, "removed");
    if (ids.isEmpty()) {
        return report;
    }
    auto series = readSeries(c, ids, seconds, report.nowSecond, ns);
    if (!series) {
        return series.error();
    }
    auto sum = [](const RuleSeries &s) {
        Counts total;
        for (const Counts &k : s.seconds) {
            total += k;
        }
        return total;
    };
    for (qsizetype i = 0; i < report.rules.size(); ++i) {
        StagedRuleReport &r = report.rules[i];
        r.enforced = sum(series->at(2 * i));
        r.candidate = sum(series->at(2 * i + 1));
        if (r.change == QLatin1String("removed") || r.candidate.shadowDenied == 0) {
            continue;
        }
        auto top = readTopSubjects(c, rules::RuleStore::stagedId(r.id), seconds, report.nowSecond,
                                   topKept, ns);
        if (!top) {
            return top.error();
        }
        for (const TopSubject &s : *top) {
            if (s.denied > 0) {
                r.candidateDenied << s;
            }
        }
        std::stable_sort(
            r.candidateDenied.begin(), r.candidateDenied.end(),
            [](const TopSubject &a, const TopSubject &b) { return a.denied > b.denied; });
    }
    return report;
}

} // namespace sluice::stats
