#pragma once

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// What a candidate rule set would do to the subjects being limited right now (FORMATS.md
// `rules push --preview`): for every rule it adds, changes or removes, the live keys of the
// stored rule are read (within a scan budget) and each subject's next request is decided in
// process, by the twins' arithmetic on the state Redis holds, under the stored rule and under
// the candidate one. Nothing is written: the reads are SCAN, TYPE-free layout reads (HMGET,
// GET, ZRANGE) and TIME, and the decisions never leave the process. Beside them, the last 15
// minutes of the statistics (allowed, denied) and the busiest denied subjects.
namespace sluice::keys {

struct PreviewSubject
{
    QByteArray subject;
    qint64 remainingBefore = 0; // under the stored rule
    qint64 remainingAfter = 0;  // under the candidate (-1: no rule after a removal)
    qint64 retryAfterMs = -1;   // the wait of the denial (before for released, after for denied)
};

struct RulePreview
{
    enum class Kind { Added, Changed, Removed };
    QString id;
    Kind kind = Kind::Changed;
    QStringList fields;     // "limit: 3 → 5", for a changed rule
    bool newState = false;  // the algorithm, key prefix or scope changes: states start over
    qint64 liveKeys = 0;    // keys of the stored rule read (all of them when complete)
    qint64 undecodable = 0; // keys whose state the stored rule's script would rebuild
    bool complete = true;   // false: the scan budget or the key cap ended the scan first
    qint64 deniedNow = 0;   // subjects whose next request the stored rule denies
    qint64 deniedAfter = 0; // ... that the candidate denies
    qint64 released = 0;    // denied now, allowed after
    qint64 newlyDenied = 0; // allowed now, denied after
    QList<PreviewSubject> topReleased;    // at most 20, most constrained first
    QList<PreviewSubject> topNewlyDenied; // at most 20
    // The statistics of the last 15 minutes (0 when none are recorded).
    qint64 statsAllowed = 0;
    qint64 statsDenied = 0;
    QList<QByteArray> topDeniedSubjects; // the busiest denied subjects of those 15 minutes
};

struct PreviewOptions
{
    qint64 maxKeysPerRule = 100'000; // the scan of one rule stops there (complete = false)
    qint64 scanBudget = 20'000;      // keys a second at most over the whole preview; 0: none
    int statsSeconds = 900;
    QByteArray statsNamespace = "{sluice}:";
};

// `stored` is what Redis has now (the rule store's rules), `candidate` what a push would store.
// Rules equal in both are not listed.
Result<QList<RulePreview>> previewChange(Connection &c, const RuleSet &stored,
                                         const RuleSet &candidate,
                                         const PreviewOptions &options = {});

} // namespace sluice::keys
