#include "rulesworker.h"

#include "core/rules/rulewatcher.h"
#include "ui/common/workerthread.h"

namespace sluice::ui {

RulesWorker::RulesWorker(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<sluice::ui::StoreReply>();
    qRegisterMetaType<sluice::ui::OverridesReply>();
    qRegisterMetaType<sluice::RuleSet>();
}

RulesWorker::~RulesWorker()
{
    if (m_watcher) {
        m_watcher->stop(); // joins its thread: in this worker's thread, never the GUI's
    }
}

void RulesWorker::setEndpoint(const std::optional<Endpoint> &endpoint, const QByteArray &ns)
{
    if (m_watcher) {
        m_watcher->stop();
        delete m_watcher;
        m_watcher = nullptr;
    }
    m_endpoint = endpoint;
    m_connection = workerConnection(endpoint, std::chrono::seconds(5));
    m_store = rules::RuleStore(ns);
    m_ns = ns;
    if (!m_endpoint) {
        return;
    }
    rules::RuleWatcher::Options o;
    o.maxBackoff = std::chrono::milliseconds(4000);
    m_watcher = new rules::RuleWatcher(*m_endpoint, m_store, o, this);
    connect(m_watcher, &rules::RuleWatcher::rulesChanged, this, &RulesWorker::onWatched);
    connect(m_watcher, &rules::RuleWatcher::errorOccurred, this, &RulesWorker::watchError);
    connect(m_watcher, &rules::RuleWatcher::recovered, this, &RulesWorker::watchRecovered);
    m_watcher->start();
}

Connection *RulesWorker::connection(Error *error)
{
    if (!m_endpoint) {
        *error = Error::make(Error::Kind::Io, tr("not connected to Redis"));
        return nullptr;
    }
    auto c = m_connection->get();
    if (!c) {
        *error = c.error();
        return nullptr;
    }
    return *c;
}

void RulesWorker::fail(StoreReply &reply, const Error &error)
{
    reply.ok = false;
    reply.error = error.message;
    reply.conflict = error.kind == Error::Kind::Conflict;
    reply.connectionLoss = error.isConnectionLoss();
}

// Every store operation: the connection (opened if needed), the work on it, and one answer
// with what went wrong when something did. `work` fills the reply and returns the error, if any.
template <typename Work> void RulesWorker::answer(StoreReply reply, Work &&work)
{
    Error error;
    if (Connection *c = connection(&error)) {
        if (std::optional<Error> failed = work(*c, reply)) {
            fail(reply, *failed);
        } else {
            reply.ok = true;
        }
    } else {
        fail(reply, error);
    }
    Q_EMIT answered(reply);
}

namespace {

// What a write did, into its reply: the version now stored and the rules it added, changed and
// removed.
void took(StoreReply &reply, const rules::RuleStore::PushResult &r)
{
    reply.version = r.version;
    reply.added = r.added;
    reply.changed = r.changed;
    reply.removed = r.removed;
}

StoreReply replyTo(StoreReply::Op op, quint64 request)
{
    StoreReply reply;
    reply.op = op;
    reply.request = request;
    return reply;
}

} // namespace

void RulesWorker::pull(quint64 request, const std::optional<RuleSet> &candidate)
{
    answer(replyTo(StoreReply::Op::Pull, request),
           [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
               auto s = m_store.pull(c);
               if (!s) {
                   return s.error();
               }
               reply.version = s->version;
               reply.set = std::move(s->set);
               reply.stage = std::move(s->stage);
               if (candidate) {
                   // Bounded so that the push dialog opens in a moment on a big keyspace: the
                   // preview says when it read a part only.
                   keys::PreviewOptions o;
                   o.maxKeysPerRule = 20'000;
                   o.scanBudget = 0;
                   o.statsNamespace = m_ns;
                   auto p = keys::previewChange(c, reply.set, *candidate, o);
                   if (p) {
                       reply.preview = std::move(*p);
                   } else {
                       reply.previewError = p.error().message;
                   }
               }
               return std::nullopt;
           });
}

void RulesWorker::push(quint64 request, const RuleSet &set, bool force, const QString &message)
{
    StoreReply first = replyTo(StoreReply::Op::Push, request);
    first.forced = force;
    answer(std::move(first), [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
        rules::RuleStore::PushOptions o;
        o.force = force;
        o.message = message;
        auto r = m_store.push(c, set, o);
        if (!r) {
            return r.error();
        }
        took(reply, *r);
        return std::nullopt;
    });
}

void RulesWorker::history(quint64 request)
{
    answer(replyTo(StoreReply::Op::History, request),
           [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
               auto h = m_store.history(c);
               if (!h) {
                   return h.error();
               }
               reply.version = h->version;
               reply.history = std::move(*h);
               return std::nullopt;
           });
}

void RulesWorker::pullVersion(quint64 request, qint64 version)
{
    StoreReply first = replyTo(StoreReply::Op::Version, request);
    first.version = version;
    answer(std::move(first), [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
        auto s = m_store.pullVersion(c, version);
        if (!s) {
            return s.error();
        }
        auto now = m_store.pull(c);
        if (!now) {
            return now.error();
        }
        reply.set = std::move(s->set);
        reply.current = std::move(now->set);
        return std::nullopt;
    });
}

void RulesWorker::rollback(quint64 request, qint64 version, const QString &message)
{
    StoreReply first = replyTo(StoreReply::Op::Rollback, request);
    first.rollbackOf = version;
    answer(std::move(first), [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
        auto snap = m_store.pullVersion(c, version);
        if (!snap) {
            return snap.error();
        }
        rules::RuleStore::PushOptions o;
        o.message = message;
        auto r = m_store.rollback(c, version, o);
        if (!r) {
            return r.error();
        }
        took(reply, *r);
        reply.set = std::move(snap->set);
        reply.set.basedOn = r->version;
        return std::nullopt;
    });
}

// The watcher reads in its own thread, and its notice waits in this thread's queue behind the
// writes asked of this worker: a notice of v6 can come after this worker's stage made v7. Told
// to the page, it would say that someone else changed the rules. A notice the store no longer
// bears out is dropped; the watcher reports the version that replaced it itself. A version read
// that fails leaves the notice as it is (the watcher's own errors say why).
bool RulesWorker::isStale(qint64 version)
{
    Error error;
    Connection *c = connection(&error);
    if (!c) {
        return false;
    }
    auto now = c->command({"GET", m_store.versionKey()});
    if (!now) {
        return false;
    }
    bool number = false;
    const qint64 stored = now->isNil() ? 0 : now->str.toLongLong(&number);
    return (now->isNil() || number) && stored != version;
}

void RulesWorker::onWatched(const RuleSet &set, qint64 version)
{
    if (isStale(version)) {
        return;
    }
    Q_EMIT storeChanged(set, version);
    // A stage that only removes rules has no candidates in `set`: its state is read apart.
    answer(replyTo(StoreReply::Op::StageState, 0),
           [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
               auto st = m_store.staged(c);
               if (!st) {
                   return st.error();
               }
               reply.version = version;
               reply.stage = std::move(*st);
               return std::nullopt;
           });
}

void RulesWorker::stage(quint64 request, const RuleSet &set, const QString &message)
{
    answer(replyTo(StoreReply::Op::Stage, request),
           [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
               rules::RuleStore::PushOptions o;
               o.message = message;
               auto r = m_store.stage(c, set, o);
               if (!r) {
                   return r.error();
               }
               took(reply, *r);
               return std::nullopt;
           });
}

void RulesWorker::finishStage(quint64 request, bool promote, const QString &message)
{
    answer(replyTo(promote ? StoreReply::Op::Promote : StoreReply::Op::Discard, request),
           [&](Connection &c, StoreReply &reply) -> std::optional<Error> {
               rules::RuleStore::PushOptions o;
               o.message = message;
               auto r = promote ? m_store.promote(c, o) : m_store.discard(c, o);
               if (!r) {
                   return r.error();
               }
               took(reply, *r);
               reply.discardedStage = r->discardedStage.value_or(0);
               auto now = m_store.pull(c); // the rules enforced now, for the working set
               if (!now) {
                   return now.error();
               }
               reply.set = std::move(now->set);
               return std::nullopt;
           });
}

// The rule's stored overrides as they are now, into `reply` (ok, or the error).
void RulesWorker::listOverridesInto(Connection &c, const Rule &rule, OverridesReply &reply) const
{
    RuleSet alone;
    alone.rules = {rule};
    auto listed = rules::OverrideStore(m_ns).list(c, alone, rule.id, &reply.stale);
    if (listed) {
        reply.ok = true;
        reply.stored = std::move(*listed);
    } else {
        reply.error = listed.error().message;
    }
}

void RulesWorker::listOverrides(quint64 request, const Rule &rule)
{
    OverridesReply reply;
    reply.request = request;
    reply.ruleId = rule.id;
    Error error;
    if (Connection *c = connection(&error)) {
        listOverridesInto(*c, rule, reply);
    } else {
        reply.error = error.message;
    }
    Q_EMIT overridesAnswered(reply);
}

Connection *RulesWorker::connectionFor(OverridesReply &reply)
{
    Error error;
    Connection *c = connection(&error);
    if (!c) {
        reply.error = error.message;
        Q_EMIT overridesAnswered(reply);
    }
    return c;
}

void RulesWorker::removeOverride(quint64 request, const Rule &rule, Override::Kind kind,
                                 const QString &pattern)
{
    OverridesReply reply;
    reply.request = request;
    reply.ruleId = rule.id;
    Connection *c = connectionFor(reply);
    if (!c) {
        return;
    }
    Override o;
    o.kind = kind;
    o.pattern = pattern;
    reply.removedMatch = o.describeMatch();
    auto removed = rules::OverrideStore(m_ns).remove(*c, rule.id, kind, pattern);
    if (!removed) {
        reply.error = removed.error().message;
    } else {
        // The list as it is now, with what was removed.
        reply.removed = *removed;
        listOverridesInto(*c, rule, reply);
    }
    Q_EMIT overridesAnswered(reply);
}

} // namespace sluice::ui
