#include "exportcounting.h"

namespace sluice::rules {

QStringList envoyCountingNotes(const std::vector<const Rule *> &exported,
                               QList<Export::Skipped> &skipped)
{
    qsizetype counting = 0;
    for (const Rule *r : exported) {
        counting += r->countRejected ? 1 : 0;
    }
    if (exported.empty()) {
        return {};
    }
    const bool stop = counting * 2 < qsizetype(exported.size());
    QStringList head;
    if (stop) {
        head << QStringLiteral("Denied requests: run the ratelimit service with")
             << QStringLiteral("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true (Sluice's "
                               "count_rejected false; it is one switch")
             << QStringLiteral("for the whole process, and with it a request over one "
                               "descriptor's limit increments none of")
             << QStringLiteral("its descriptors).");
    } else {
        head << QStringLiteral("Denied requests: leave STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT "
                               "unset or false: envoy ratelimit")
             << QStringLiteral("then counts them, as Sluice's count_rejected true does (one "
                               "switch for the whole process).");
    }
    for (const Rule *r : exported) {
        if (r->countRejected == stop) {
            skipped.append(
                {QStringLiteral("%1 count_rejected").arg(r->id),
                 QStringLiteral("%1: envoy ratelimit counts denied requests or not for the "
                                "whole process (STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT), not "
                                "per rule; set as most rules here ask, it %2 this rule's")
                     .arg(r->countRejected ? QStringLiteral("true") : QStringLiteral("false"),
                          stop ? QStringLiteral("does not count") : QStringLiteral("counts"))});
        }
    }
    return head;
}

void kongCountingNote(const Rule &r, QList<Export::Skipped> &skipped)
{
    if (!r.countRejected) {
        return;
    }
    skipped.append({QStringLiteral("%1 count_rejected").arg(r.id),
                    QStringLiteral("true: Kong's rate-limiting plugin counts only the requests "
                                   "it lets through; left out")});
}

} // namespace sluice::rules
