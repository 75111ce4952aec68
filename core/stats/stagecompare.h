#pragma once

#include "stats.h"

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/rules/rulestore.h"

#include <QList>
#include <QString>

namespace sluice::stats {

// A staged change beside the enforced rules, from the recorded statistics: per rule the stage
// changes, what the enforced rule decided and what its candidate (`<id>@staged`, a shadow
// rule: its "would deny" is shadowDenied) decided for the same requests, over the same seconds.
struct StagedRuleReport
{
    QString id;
    QString change;  // "added", "changed" or "removed"
    Counts enforced; // the enforced rule (none for an added one)
    Counts candidate;
    QList<TopSubject> candidateDenied; // subjects the candidate would deny, most first (<= 20)
};

struct StageReport
{
    int seconds = 0;
    qint64 nowSecond = 0; // the server's clock
    QList<StagedRuleReport> rules;
};

// One round trip for the series of every rule and candidate, one per rule for the subjects.
// `seconds` in [1, maxSeriesSeconds].
Result<StageReport> compareStage(Connection &c, const rules::RuleStore::Stage &stage, int seconds,
                                 const QByteArray &ns = defaultNamespace);

} // namespace sluice::stats
