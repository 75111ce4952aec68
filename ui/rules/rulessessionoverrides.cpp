#include "rulessession.h"

#include "ui/connection/connectioncontroller.h"

// The rules session's overrides of a rule: listed from the file and the store, removed.

namespace sluice::ui {

void RulesSession::loadOverrides(const QString &ruleId)
{
    const Rule *rule = rules().find(ruleId);
    if (ruleId != m_overridesRule) {
        m_stored.clear();
    }
    m_overridesRule = ruleId;
    m_overridesError.clear();
    if (!rule) {
        m_overridesRequest = 0;
        m_stored.clear();
        Q_EMIT overridesChanged();
        return;
    }
    if (!m_connection->endpoint()) {
        m_overridesRequest = 0;
        m_stored.clear();
        m_overridesError = tr("not connected to Redis");
        Q_EMIT overridesChanged();
        return;
    }
    m_overridesRequest = ++m_nextRequest;
    m_worker.post(
        [id = m_overridesRequest, rule = *rule](RulesWorker *w) { w->listOverrides(id, rule); });
    Q_EMIT overridesChanged();
}

void RulesSession::removeStoredOverride(const QString &ruleId, Override::Kind kind,
                                        const QString &pattern)
{
    const Rule *rule = rules().find(ruleId);
    if (!rule) {
        return;
    }
    m_overridesRule = ruleId;
    m_overridesRequest = ++m_nextRequest;
    m_worker.post([id = m_overridesRequest, rule = *rule, kind, pattern](RulesWorker *w) {
        w->removeOverride(id, rule, kind, pattern);
    });
    Q_EMIT overridesChanged();
}

void RulesSession::onOverrides(const OverridesReply &reply)
{
    if (reply.request != m_overridesRequest) {
        return; // an older read, or of another rule
    }
    m_overridesRequest = 0;
    if (!reply.removedMatch.isEmpty()) {
        if (!reply.error.isEmpty() && !reply.ok) {
            say(Tone::Bad,
                tr("Could not remove the override %1 of rule %2")
                    .arg(reply.removedMatch, reply.ruleId),
                reply.error);
        } else if (reply.removed) {
            say(Tone::Good,
                tr("Removed the override %1 of rule %2").arg(reply.removedMatch, reply.ruleId),
                tr("The rule decides for that subject again, wherever the rules come from the "
                   "store."));
        } else {
            say(Tone::Info,
                tr("The override %1 of rule %2 was already gone")
                    .arg(reply.removedMatch, reply.ruleId),
                tr("It had ended, or someone removed it meanwhile."));
        }
    }
    if (!reply.addedMatch.isEmpty()) {
        if (reply.added) {
            say(Tone::Good,
                tr("Stored the override %1 of rule %2").arg(reply.addedMatch, reply.ruleId),
                tr("It decides for its subjects wherever the rules come from the store, until "
                   "it ends."));
        } else {
            say(Tone::Bad,
                tr("Could not store the override %1 of rule %2")
                    .arg(reply.addedMatch, reply.ruleId),
                reply.error);
        }
    }
    if (reply.ok) {
        m_stored = reply.stored;
        m_overridesError.clear();
    } else {
        m_stored.clear();
        m_overridesError = reply.error;
    }
    Q_EMIT overridesChanged();
}

} // namespace sluice::ui
