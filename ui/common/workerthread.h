#pragma once

#include "core/redis/lazyconnection.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QThread>

#include <memory>
#include <optional>
#include <utility>

namespace sluice::ui {

// The options of a page worker's own connection: connecting gives up after `connect` (a page
// says "not connected" soon rather than late), a command after `command`.
inline Connection::Options
workerConnectionOptions(std::chrono::milliseconds command,
                        std::chrono::milliseconds connect = std::chrono::seconds(2))
{
    Connection::Options o;
    o.connectTimeout = connect;
    o.commandTimeout = command;
    return o;
}

// A page worker's connection to `endpoint` with the options above, opened on its first use and
// reopened by LazyConnection's rule; none without an endpoint (not connected: the worker reads
// nothing).
inline std::optional<LazyConnection>
workerConnection(std::optional<Endpoint> endpoint, std::chrono::milliseconds command,
                 std::chrono::milliseconds connect = std::chrono::seconds(2))
{
    if (!endpoint) {
        return std::nullopt;
    }
    return std::optional<LazyConnection>(std::in_place, std::move(*endpoint),
                                         workerConnectionOptions(command, connect));
}

// A worker object on its own named QThread, the way every page talks to Redis: the worker is
// created here, moved to the thread, deleted there when the thread finishes (so its connection
// closes in the thread that used it), and the destructor quits and waits for the thread (at
// most one command timeout, if a command is under way). GUI thread only.
//
//     WorkerThread<RulesWorker> m_worker{QStringLiteral("sluice-rules")};
//     connect(m_worker.get(), &RulesWorker::answered, this, &RulesSession::onAnswered);
//     m_worker.post([id](RulesWorker *w) { w->pull(id); });
template <typename Worker> class WorkerThread
{
public:
    template <typename... Args>
    explicit WorkerThread(const QString &name, Args &&...args)
        : m_worker(new Worker(std::forward<Args>(args)...))
    {
        m_thread.setObjectName(name);
        m_worker->moveToThread(&m_thread);
        QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
        m_thread.start();
    }
    ~WorkerThread()
    {
        m_thread.quit();
        m_thread.wait();
    }
    WorkerThread(const WorkerThread &) = delete;
    WorkerThread &operator=(const WorkerThread &) = delete;

    // Lets `owned` end on its own, never waiting: its thread quits after the slot running now,
    // and the WorkerThread is deleted in the GUI thread once the thread has finished (a session
    // replaced while its worker is still in a round trip).
    static void retire(std::unique_ptr<WorkerThread> owned)
    {
        WorkerThread *t = owned.release();
        QObject::connect(&t->m_thread, &QThread::finished, QCoreApplication::instance(),
                         [t] { delete t; });
        t->m_thread.quit();
    }

    // The worker, for connect(); call it only through post() (or its thread-safe members).
    Worker *get() const { return m_worker; }
    QThread *thread() { return &m_thread; }

    // Runs f(worker) in the worker's thread, later; never waits.
    template <typename F> void post(F &&f)
    {
        QMetaObject::invokeMethod(
            m_worker, [w = m_worker, f = std::forward<F>(f)]() mutable { f(w); },
            Qt::QueuedConnection);
    }

private:
    QThread m_thread;
    Worker *m_worker; // lives in m_thread; deleted there on finished
};

} // namespace sluice::ui
