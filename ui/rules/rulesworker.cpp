#include "rulesworker.h"

#include "core/rules/rulewatcher.h"
#include "ui/common/workerthread.h"

namespace sluice::ui {

RulesWorker::RulesWorker(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<sluice::ui::StoreReply>();
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
    m_connection.reset();
    m_endpoint = endpoint;
    m_store = rules::RuleStore(ns);
    m_ns = ns;
    if (!m_endpoint) {
        return;
    }
    rules::RuleWatcher::Options o;
    o.maxBackoff = std::chrono::milliseconds(4000);
    m_watcher = new rules::RuleWatcher(*m_endpoint, m_store, o, this);
    connect(m_watcher, &rules::RuleWatcher::rulesChanged, this, &RulesWorker::storeChanged);
    connect(m_watcher, &rules::RuleWatcher::errorOccurred, this, &RulesWorker::watchError);
    m_watcher->start();
}

Connection *RulesWorker::connection(Error *error)
{
    if (!m_endpoint) {
        *error = Error::make(Error::Kind::Io, tr("not connected to Redis"));
        return nullptr;
    }
    if (m_connection && m_connection->isBroken()) {
        if (auto r = m_connection->reconnect(); !r) {
            *error = r.error();
            return nullptr;
        }
    }
    if (!m_connection) {
        auto c = Connection::open(*m_endpoint, workerConnectionOptions(std::chrono::seconds(5)));
        if (!c) {
            *error = c.error();
            return nullptr;
        }
        m_connection.emplace(std::move(*c));
    }
    return &*m_connection;
}

void RulesWorker::fail(StoreReply &reply, const Error &error)
{
    reply.ok = false;
    reply.error = error.message;
    reply.conflict = error.kind == Error::Kind::Conflict;
    reply.connectionLoss = error.isConnectionLoss();
}

void RulesWorker::pull(quint64 request, const std::optional<RuleSet> &candidate)
{
    StoreReply reply;
    reply.op = StoreReply::Op::Pull;
    reply.request = request;
    Error error;
    if (Connection *c = connection(&error)) {
        auto s = m_store.pull(*c);
        if (s) {
            reply.ok = true;
            reply.version = s->version;
            reply.set = std::move(s->set);
            if (candidate) {
                // Bounded so that the push dialog opens in a moment on a big keyspace: the
                // preview says when it read a part only.
                keys::PreviewOptions o;
                o.maxKeysPerRule = 20'000;
                o.scanBudget = 0;
                o.statsNamespace = m_ns;
                auto p = keys::previewChange(*c, reply.set, *candidate, o);
                if (p) {
                    reply.preview = std::move(*p);
                } else {
                    reply.previewError = p.error().message;
                }
            }
        } else {
            fail(reply, s.error());
        }
    } else {
        fail(reply, error);
    }
    Q_EMIT answered(reply);
}

void RulesWorker::push(quint64 request, const RuleSet &set, bool force, const QString &message)
{
    StoreReply reply;
    reply.op = StoreReply::Op::Push;
    reply.request = request;
    reply.forced = force;
    Error error;
    if (Connection *c = connection(&error)) {
        rules::RuleStore::PushOptions o;
        o.force = force;
        o.message = message;
        auto r = m_store.push(*c, set, o);
        if (r) {
            reply.ok = true;
            reply.version = r->version;
            reply.added = r->added;
            reply.changed = r->changed;
            reply.removed = r->removed;
        } else {
            fail(reply, r.error());
        }
    } else {
        fail(reply, error);
    }
    Q_EMIT answered(reply);
}

void RulesWorker::history(quint64 request)
{
    StoreReply reply;
    reply.op = StoreReply::Op::History;
    reply.request = request;
    Error error;
    if (Connection *c = connection(&error)) {
        auto h = m_store.history(*c);
        if (h) {
            reply.ok = true;
            reply.version = h->version;
            reply.history = std::move(*h);
        } else {
            fail(reply, h.error());
        }
    } else {
        fail(reply, error);
    }
    Q_EMIT answered(reply);
}

void RulesWorker::pullVersion(quint64 request, qint64 version)
{
    StoreReply reply;
    reply.op = StoreReply::Op::Version;
    reply.request = request;
    reply.version = version;
    Error error;
    if (Connection *c = connection(&error)) {
        auto s = m_store.pullVersion(*c, version);
        auto now = s ? m_store.pull(*c) : Result<rules::RuleStore::Snapshot>(s.error());
        if (s && now) {
            reply.ok = true;
            reply.set = std::move(s->set);
            reply.current = std::move(now->set);
        } else {
            fail(reply, s ? now.error() : s.error());
        }
    } else {
        fail(reply, error);
    }
    Q_EMIT answered(reply);
}

void RulesWorker::rollback(quint64 request, qint64 version, const QString &message)
{
    StoreReply reply;
    reply.op = StoreReply::Op::Rollback;
    reply.request = request;
    reply.rollbackOf = version;
    Error error;
    if (Connection *c = connection(&error)) {
        auto snap = m_store.pullVersion(*c, version);
        rules::RuleStore::PushOptions o;
        o.message = message;
        auto r = snap ? m_store.rollback(*c, version, o)
                      : Result<rules::RuleStore::PushResult>(snap.error());
        if (r) {
            reply.ok = true;
            reply.version = r->version;
            reply.set = std::move(snap->set);
            reply.set.basedOn = r->version;
            reply.added = r->added;
            reply.changed = r->changed;
            reply.removed = r->removed;
        } else {
            fail(reply, r.error());
        }
    } else {
        fail(reply, error);
    }
    Q_EMIT answered(reply);
}

} // namespace sluice::ui
