#include "rulessession.h"

#include "rulesmodel.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"

#include "core/rules/codec.h"

// The rules session's side that talks to the rule store in Redis: the connection followed, the
// store watched, pull, push (with its preview and conflicts), staging, promotion and review.

namespace sluice::ui {

namespace {

QString endpointKey(const std::optional<Endpoint> &e)
{
    return e ? e->safeUrl() + QLatin1Char('\n') + e->password : QString();
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Redis

void RulesSession::syncEndpoint()
{
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    const QString key = endpointKey(endpoint);
    if (key == m_endpointKey) {
        return;
    }
    m_endpointKey = key;
    m_storeVersion.reset();
    m_storeSet = {};
    m_watchError.clear();
    m_autoPullPending = endpoint.has_value();
    m_pullRequest = 0; // answers of the previous session no longer count
    m_pushRequest = 0;
    m_pullPurpose = PullPurpose::None;
    m_worker.post([endpoint, ns = m_ns](RulesWorker *w) { w->setEndpoint(endpoint, ns); });
    Q_EMIT stateChanged();
}

void RulesSession::onConnectionState(const ConnectionState &state)
{
    m_redisUp = state.isUp();
    switch (state.state) {
    case ConnectionState::State::Connected:
        m_redisDown.clear();
        break;
    case ConnectionState::State::Idle:
        m_redisDown = tr("not connected to Redis (choose a server on the Connection page)");
        break;
    case ConnectionState::State::Connecting:
        m_redisDown = tr("connecting to %1…").arg(state.endpoint);
        break;
    case ConnectionState::State::Lost:
        m_redisDown = tr("Redis at %1 is not reachable (%2); the console keeps retrying")
                          .arg(state.endpoint, state.error);
        break;
    case ConnectionState::State::Failed:
        m_redisDown = tr("cannot connect to %1: %2").arg(state.endpoint, state.error);
        break;
    }
    // The endpoint appears once connected (a sandbox starts, a password arrives).
    syncEndpoint();
    // A rule selected before the connection (a file reopened at start) had its stored
    // overrides read as "not connected": read them now that Redis is there.
    if (state.state == ConnectionState::State::Connected && !m_overridesRule.isEmpty() &&
        m_overridesRequest == 0) {
        loadOverrides(m_overridesRule);
    }
    Q_EMIT stateChanged();
}

void RulesSession::onStoreChanged(const RuleSet &set, qint64 version)
{
    m_watchError.clear();
    const std::optional<qint64> previous = m_storeVersion;
    m_storeVersion = version;
    m_storeSet = set;
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    if (m_autoPullPending) {
        m_autoPullPending = false;
        const bool keepReopened = std::exchange(m_keepReopened, false);
        if (keepReopened && basedOn == version) {
            // The reopened file is the store's version: nothing to review.
        } else if (version > 0 && !set.rules.empty()) {
            if (!m_unsaved && !m_keepReopened) {
                adopt(set, version);
                say(Tone::Info,
                    tr("Loaded %n rule(s) from Redis, version %1.", nullptr, int(set.rules.size()))
                        .arg(version));
                return;
            }
            if (basedOn != version) {
                if (keepReopened) {
                    say(Tone::Info,
                        tr("Reopened %1; Redis has %n rule(s) at version %2.", nullptr,
                           int(set.rules.size()))
                            .arg(m_origin)
                            .arg(version),
                        tr("Pull to review the differences, or push to replace them."),
                        {Offer::PullAndReview});
                    Q_EMIT stateChanged();
                    return;
                }
                say(Tone::Warning,
                    tr("Redis has %n rule(s) at version %1; your unsaved changes are kept.",
                       nullptr, int(set.rules.size()))
                        .arg(version),
                    tr("Pull to review the differences, or push to replace them."),
                    {Offer::PullAndReview});
            }
        }
        Q_EMIT stateChanged();
        return;
    }
    Q_EMIT stateChanged();
    if (basedOn && *basedOn == version) {
        return; // our own push, or nothing new
    }
    if (previous && *previous == version) {
        return;
    }
    if (m_pushRequest != 0 || m_rollingBack) {
        return; // a write of ours is under way: its answer re-bases the working set
    }
    if (diffRules(set, m_model->set()).isEmpty()) {
        m_model->setBasedOn(version); // the same rules: nothing to review
        Q_EMIT stateChanged();
        return;
    }
    const QString editing = basedOn ? tr("you are editing v%1").arg(*basedOn)
                                    : tr("your rules here did not come from Redis");
    say(Tone::Warning, tr("Redis has v%1, %2.").arg(version).arg(editing),
        tr("Someone changed the rules in Redis. Pull to see what changed; a push now would be "
           "refused as a conflict."),
        {Offer::Pull});
}

void RulesSession::requestPull(PullPurpose purpose)
{
    if (!m_redisUp) {
        say(Tone::Warning, tr("Cannot pull now: %1.").arg(m_redisDown));
        return;
    }
    m_pullRequest = ++m_nextRequest;
    m_pullPurpose = purpose;
    std::optional<RuleSet> candidate;
    if (purpose == PullPurpose::PushPreview) {
        candidate = m_model->set();
    }
    m_worker.post([id = m_pullRequest, candidate](RulesWorker *w) { w->pull(id, candidate); });
    Q_EMIT stateChanged();
}

void RulesSession::pull()
{
    // Unsaved changes are never dropped silently: the review says what a pull would replace.
    requestPull(m_unsaved ? PullPurpose::Review : PullPurpose::Adopt);
}

void RulesSession::pullForReview()
{
    requestPull(PullPurpose::Review);
}

void RulesSession::push()
{
    if (!m_redisUp) {
        say(Tone::Warning, tr("Cannot push now: %1.").arg(m_redisDown),
            tr("Your rules stay here; push when Redis is back."));
        return;
    }
    if (const QList<Diagnostic> errors = rules::validate(m_model->set()); !errors.isEmpty()) {
        showProblems(tr("The rules are not valid; nothing was pushed:"), lines(errors), Tone::Bad);
        return;
    }
    requestPull(PullPurpose::PushPreview);
}

void RulesSession::confirmPush(const QString &message)
{
    sendPush(false, message);
}

void RulesSession::forcePush()
{
    sendPush(true);
}

void RulesSession::sendPush(bool force, const QString &message)
{
    m_pushRequest = ++m_nextRequest;
    m_worker.post([id = m_pushRequest, set = m_model->set(), force, message](RulesWorker *w) {
        w->push(id, set, force, message);
    });
    say(Tone::Info, force ? tr("Pushing (force)…") : tr("Pushing…"));
    Q_EMIT stateChanged();
}

void RulesSession::confirmStage(const QString &message)
{
    m_pushRequest = ++m_nextRequest;
    m_worker.post([id = m_pushRequest, set = m_model->set(), message](RulesWorker *w) {
        w->stage(id, set, message);
    });
    say(Tone::Info, tr("Staging…"));
    Q_EMIT stateChanged();
}

void RulesSession::promote()
{
    m_pushRequest = ++m_nextRequest;
    m_worker.post([id = m_pushRequest](RulesWorker *w) { w->finishStage(id, true, {}); });
    say(Tone::Info, tr("Promoting the staged change…"));
    Q_EMIT stateChanged();
}

void RulesSession::discard()
{
    m_pushRequest = ++m_nextRequest;
    m_worker.post([id = m_pushRequest](RulesWorker *w) { w->finishStage(id, false, {}); });
    say(Tone::Info, tr("Discarding the staged change…"));
    Q_EMIT stateChanged();
}

RuleSet RulesSession::servedSet() const
{
    RuleSet s = m_model->set();
    if (!m_stage) {
        return s;
    }
    s.staged = rules::RuleStore::shadowCandidates(*m_stage);
    // A rule the stage changes is enforced as stored until promoted, whatever the working set
    // says (it is often the candidate itself, unsaved): the other pages show what serve runs.
    for (Rule &r : s.rules) {
        if (const Rule *stored =
                m_stage->changed.contains(r.id) ? m_storeSet.find(r.id) : nullptr) {
            r = *stored;
        }
    }
    return s;
}

void RulesSession::onStageAnswer(const StoreReply &reply)
{
    if (reply.op == StoreReply::Op::StageState) {
        if (reply.ok) {
            const bool had = m_stage.has_value();
            const bool same = had && reply.stage && m_stage->version == reply.stage->version;
            if (!(same || (!had && !reply.stage))) {
                m_stage = reply.stage;
                changed(); // the Monitor and the Keys page meet the candidates
            }
        }
        return;
    }
    if (reply.request != m_pushRequest) {
        return;
    }
    m_pushRequest = 0;
    const QString op = reply.op == StoreReply::Op::Stage     ? QStringLiteral("stage")
                       : reply.op == StoreReply::Op::Promote ? QStringLiteral("promote")
                                                             : QStringLiteral("discard");
    if (!reply.ok) {
        const QString headline =
            reply.op == StoreReply::Op::Stage     ? tr("The change was not staged.")
            : reply.op == StoreReply::Op::Promote ? tr("The staged change was not promoted.")
                                                  : tr("The staged change was not discarded.");
        say(reply.conflict ? Tone::Warning : Tone::Bad, headline, forTheConsole(reply.error),
            reply.conflict && reply.op == StoreReply::Op::Stage ? QList<Offer>{Offer::PullAndReview}
                                                                : QList<Offer>{});
        Q_EMIT stateChanged();
        return;
    }
    m_storeVersion = reply.version;
    switch (reply.op) {
    case StoreReply::Op::Stage:
        // The working set is what is staged now, not what is enforced: still unsaved.
        m_model->setBasedOn(reply.version);
        say(Tone::Good,
            tr("Staged as version %1: the candidate runs in shadow beside the enforced rules.")
                .arg(reply.version),
            tr("It never blocks a request. Watch its would-deny counts on the Monitor beside the "
               "enforced rules, then promote or discard it."));
        break;
    case StoreReply::Op::Promote:
        m_stage.reset();
        rebase(reply.set, reply.version);
        say(Tone::Good,
            tr("Promoted: the staged rules are enforced as version %1.").arg(reply.version),
            m_unsaved ? tr("The edits you made after staging are kept here, unsaved.") : QString());
        break;
    default: {
        // The rules here were the candidate: they go back to the enforced ones with it (the
        // question said so). Edits made after staging are kept, re-based.
        const bool candidate = m_stage && diffRules(m_stage->set, m_model->set()).isEmpty();
        m_stage.reset();
        if (candidate && m_model->set().basedOn == reply.version - 1) {
            adopt(reply.set, reply.version);
        } else {
            rebase(reply.set, reply.version);
        }
        say(Tone::Info,
            tr("Discarded the staged change; version %1 enforces the rules as before.")
                .arg(reply.version),
            m_unsaved ? tr("The edits you made after staging are kept here, unsaved.") : QString());
        break;
    }
    }
    changed();
    Q_EMIT stageStored(op, reply.version);
}

void RulesSession::onAnswered(const StoreReply &reply)
{
    if (reply.op == StoreReply::Op::Stage || reply.op == StoreReply::Op::Promote ||
        reply.op == StoreReply::Op::Discard || reply.op == StoreReply::Op::StageState) {
        onStageAnswer(reply);
        return;
    }
    if (reply.op == StoreReply::Op::History || reply.op == StoreReply::Op::Version ||
        reply.op == StoreReply::Op::Rollback) {
        onHistoryAnswer(reply);
        return;
    }
    if (reply.op == StoreReply::Op::Pull) {
        if (reply.request != m_pullRequest) {
            return;
        }
        const PullPurpose purpose = m_pullPurpose;
        m_pullRequest = 0;
        m_pullPurpose = PullPurpose::None;
        onPulled(reply, purpose);
        Q_EMIT stateChanged();
        return;
    }
    if (reply.request != m_pushRequest) {
        return;
    }
    m_pushRequest = 0;
    onPushed(reply);
    Q_EMIT stateChanged();
}

void RulesSession::onPulled(const StoreReply &reply, PullPurpose purpose)
{
    if (!reply.ok) {
        say(Tone::Bad, tr("Cannot read the rules from Redis."), reply.error);
        return;
    }
    m_storeVersion = reply.version;
    m_storeSet = reply.set;
    m_stage = reply.stage;
    switch (purpose) {
    case PullPurpose::Adopt:
        adopt(reply.set, reply.version);
        say(Tone::Good, reply.version == 0 ? tr("Redis has no rules yet; the table is empty.")
                                           : tr("Pulled %n rule(s) from Redis, version %1.",
                                                nullptr, int(reply.set.rules.size()))
                                                 .arg(reply.version));
        break;
    case PullPurpose::PushPreview:
        Q_EMIT pushPreviewReady(pushPrompt(reply));
        break;
    case PullPurpose::Review:
        review(reply);
        break;
    case PullPurpose::None:
        break;
    }
}

void RulesSession::onPushed(const StoreReply &reply)
{
    if (reply.ok) {
        m_storeVersion = reply.version;
        m_storeSet = m_model->set();
        m_storeSet.basedOn = reply.version;
        m_model->setBasedOn(reply.version);
        m_origin = tr("Redis v%1").arg(reply.version);
        m_model->setAllWhere(m_origin);
        setUnsaved(false);
        changed();
        QStringList what;
        if (!reply.added.isEmpty()) {
            what << tr("added %1").arg(reply.added.join(QStringLiteral(", ")));
        }
        if (!reply.changed.isEmpty()) {
            what << tr("changed %1").arg(reply.changed.join(QStringLiteral(", ")));
        }
        if (!reply.removed.isEmpty()) {
            what << tr("removed %1").arg(reply.removed.join(QStringLiteral(", ")));
        }
        say(Tone::Good,
            what.isEmpty() ? tr("Redis already has these rules (version %1).").arg(reply.version)
                           : tr("Pushed version %1 to Redis%2.")
                                 .arg(reply.version)
                                 .arg(reply.forced ? tr(" (forced)") : QString()),
            what.join(QStringLiteral("; ")));
        return;
    }
    if (reply.conflict) {
        const std::optional<qint64> basedOn = m_model->set().basedOn;
        const QString detail = forTheConsole(reply.error);
        say(Tone::Bad,
            basedOn ? tr("Conflict: Redis moved on since version %1, nothing was overwritten.")
                          .arg(*basedOn)
                    : tr("Conflict: Redis has rules these did not come from, nothing was "
                         "overwritten."),
            detail, {Offer::PullAndReview, Offer::ForcePush});
        return;
    }
    say(Tone::Bad, tr("The push failed; Redis is unchanged."), reply.error);
}

void RulesSession::adopt(const RuleSet &set, qint64 version)
{
    RuleSet copy = set;
    copy.basedOn = version;
    copy.staged.clear(); // the working set is rules only; the stage is the session's
    m_origin = version > 0 ? tr("Redis v%1").arg(version) : QString();
    m_model->reset(std::move(copy), m_origin);
    m_file->forget(); // Redis's rules: a Save asks for a file
    setUnsaved(false);
    changed();
    Q_EMIT replaced();
}

void RulesSession::rebase(const RuleSet &store, qint64 version)
{
    m_storeVersion = version;
    m_storeSet = store;
    m_storeSet.basedOn = version;
    m_storeSet.staged.clear();
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    if (!basedOn || *basedOn != version - 1) {
        return; // someone wrote in between: the watcher's message offers the review
    }
    m_model->setBasedOn(version);
    if (diffRules(store, m_model->set()).isEmpty()) {
        m_origin = tr("Redis v%1").arg(version);
        m_model->setAllWhere(m_origin);
        setUnsaved(false);
    }
}

QString RulesSession::forTheConsole(QString error)
{
    // The core words its store messages for the command line; the console's choices are the
    // buttons beside the message. Known sentences are replaced whole; say() names the force
    // button for any other "--force".
    error.replace(QStringLiteral("Pull, merge and try again, or use --force to overwrite. "),
                  QString());
    error.replace(QStringLiteral("promote or discard it first (sluice-cli rules promote | rules "
                                 "discard), or push with --force, which discards it."),
                  tr("promote or discard it first (the buttons on the staged change's banner), "
                     "or push anyway, which discards it."));
    error.replace(QStringLiteral("discard it and stage again, or promote with --force."),
                  tr("discard it and stage again."));
    return error;
}

RulesSession::DiffPrompt RulesSession::pushPrompt(const StoreReply &reply) const
{
    DiffPrompt p;
    p.diff = diffRules(reply.set, m_model->set());
    p.preview = reply.preview;
    p.previewError = reply.previewError;
    p.version = reply.version;
    p.store = reply.set;
    const int mine = int(m_model->set().rules.size());
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    p.headline =
        reply.version == 0
            ? tr("Redis has no rules yet. Pushing stores your %n rule(s) as version 1:", nullptr,
                 mine)
            : tr("Redis is at version %1. Pushing your %n rule(s) makes version %2:", nullptr, mine)
                  .arg(reply.version)
                  .arg(reply.version + 1);
    if (p.diff.isEmpty()) {
        p.note = tr("Redis already has exactly these rules: there is nothing to push.");
    } else if (reply.version > 0 && basedOn != reply.version) {
        p.note = basedOn ? tr("Your rules are based on version %1: Redis changed since, so the "
                              "push will be refused as a conflict unless you force it.")
                               .arg(*basedOn)
                         : tr("Your rules did not come from Redis: the push will be refused as a "
                              "conflict unless you force it.");
    } else {
        p.note = tr("The push is one atomic step: every app reading the store sees all of it or "
                    "none.");
    }
    p.unchanged = mine - int(p.diff.added.size()) - int(p.diff.changed.size());
    return p;
}

void RulesSession::review(const StoreReply &reply)
{
    DiffPrompt p;
    p.diff = diffRules(reply.set, m_model->set());
    if (p.diff.isEmpty()) {
        adopt(reply.set, reply.version);
        say(Tone::Good, tr("Your rules are the same as Redis version %1.").arg(reply.version));
        return;
    }
    p.version = reply.version;
    p.store = reply.set;
    p.headline = tr("Redis is at version %1. Your rules differ from it as follows (what a push "
                    "would change):")
                     .arg(reply.version);
    p.note = tr("Keep mine: your rules stay and count as based on version %1, so the next push "
                "replaces exactly what is listed. Use Redis: your changes are dropped.")
                 .arg(reply.version);
    p.unchanged =
        int(m_model->set().rules.size()) - int(p.diff.added.size()) - int(p.diff.changed.size());
    Q_EMIT reviewReady(p);
}

void RulesSession::useRedis(const DiffPrompt &prompt)
{
    adopt(prompt.store, prompt.version);
    say(Tone::Good, tr("Now editing Redis version %1.").arg(prompt.version));
}

void RulesSession::keepMine(qint64 version)
{
    m_model->setBasedOn(version);
    setUnsaved(true);
    changed();
    say(Tone::Info, tr("Your rules now count as based on version %1.").arg(version),
        tr("Push to replace what the review listed."));
}

} // namespace sluice::ui
