#include "statsflusher.h"

#include "statsrecorder.h"

#include "core/redis/errors.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <algorithm>

namespace sluice::stats {

namespace {

// A flush writes at most this many rule x second buckets (~30 commands each): a backlog after
// a long outage drains over a few seconds instead of one huge MULTI.
constexpr qsizetype maxBucketsPerFlush = 2000;

void mergeTop(QList<TopSubject> &into, const QList<TopSubject> &from)
{
    for (const TopSubject &t : from) {
        auto it = std::find_if(into.begin(), into.end(),
                               [&](const TopSubject &x) { return x.subject == t.subject; });
        if (it == into.end()) {
            into.append(t);
        } else {
            it->requests += t.requests;
            it->denied += t.denied;
        }
    }
}

} // namespace

StatsFlusher::StatsFlusher(Endpoint endpoint, StatsRecorder *recorder)
    : StatsFlusher(std::move(endpoint), recorder, Options{})
{}

StatsFlusher::StatsFlusher(Endpoint endpoint, StatsRecorder *recorder, Options options)
    : m_recorder(recorder)
    , m_options(std::move(options))
    , m_connection(std::move(endpoint), m_options.connection)
{}

StatsFlusher::~StatsFlusher()
{
    stop();
}

void StatsFlusher::start()
{
    std::lock_guard lock(m_mutex);
    if (m_thread.joinable()) {
        return;
    }
    m_stop = false;
    m_soon = false;
    m_status.running = true;
    m_thread = std::thread([this] { run(); });
}

void StatsFlusher::stop()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_thread.joinable()) {
            return;
        }
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
    std::lock_guard lock(m_mutex);
    m_status.running = false;
}

void StatsFlusher::flushSoon()
{
    {
        std::lock_guard lock(m_mutex);
        m_soon = true;
    }
    m_wake.notify_all();
}

StatsFlusher::Status StatsFlusher::status() const
{
    std::lock_guard lock(m_mutex);
    return m_status;
}

void StatsFlusher::run()
{
    for (;;) {
        bool final = false;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(lock, m_options.interval, [this] { return m_stop || m_soon; });
            m_soon = false;
            final = m_stop;
        }
        if (!final) {
            flushOnce();
            continue;
        }
        // Stopping: write the rest (a long backlog takes a few round trips), unless Redis fails.
        for (int i = 0; i < 1000 && flushOnce(); ++i) {
        }
        return;
    }
}

void StatsFlusher::mergeIntoBacklog()
{
    if (m_recorder == nullptr) {
        return;
    }
    for (SecondBucket &b : m_recorder->take()) {
        auto [it, fresh] = m_backlog.try_emplace({b.second, b.ruleId});
        if (fresh) {
            it->second = std::move(b);
        } else {
            it->second.counts += b.counts;
            mergeTop(it->second.top, b.top);
        }
    }
}

void StatsFlusher::trimBacklog()
{
    qint64 dropped = 0;
    const qint64 oldest = QDateTime::currentSecsSinceEpoch() - m_options.ttlSeconds;
    while (!m_backlog.empty() && (m_backlog.begin()->first.first <= oldest ||
                                  qsizetype(m_backlog.size()) > m_options.maxBacklog)) {
        m_backlog.erase(m_backlog.begin());
        ++dropped;
    }
    std::lock_guard lock(m_mutex);
    m_status.dropped += dropped;
    m_status.backlog = qint64(m_backlog.size());
}

// The batch in flight is in Redis: by this attempt, or (`earlier`) by one whose reply was lost.
void StatsFlusher::inflightApplied(bool earlier)
{
    std::lock_guard lock(m_mutex);
    m_status.skippedApplied += earlier ? 1 : 0;
    ++m_status.flushes;
    m_status.bucketsWritten += m_inflight->buckets;
    m_status.redisOk = true;
    m_status.lastError.clear();
    m_status.lastFlushMs = QDateTime::currentMSecsSinceEpoch();
    m_inflight.reset();
}

bool StatsFlusher::settleInflight()
{
    if (!m_inflight) {
        return true;
    }
    auto failed = [&](const QString &message) {
        std::lock_guard lock(m_mutex);
        m_status.redisOk = false;
        m_status.lastError = message;
    };
    auto check =
        m_connection.current()->pipeline({{QByteArrayLiteral("WATCH"), m_inflight->marker},
                                          {QByteArrayLiteral("EXISTS"), m_inflight->marker}});
    if (!check || !check->back()) {
        failed(!check ? check.error().message : check->back().error().message);
        if (!check && check.error().isConnectionLoss()) {
            m_connection.reset();
        }
        return false;
    }
    if (check->back()->integer == 1) {
        m_connection.current()->command({QByteArrayLiteral("UNWATCH")}).ok();
        inflightApplied(true);
        return true;
    }
    auto replies = m_connection.current()->pipeline(m_inflight->commands);
    {
        std::lock_guard lock(m_mutex);
        ++m_status.roundTrips;
        m_status.commands += m_inflight->commands.size();
    }
    if (!replies) {
        failed(replies.error().message);
        if (replies.error().isConnectionLoss()) {
            m_connection.reset();
        }
        return false;
    }
    const Result<Reply> &exec = replies->back();
    if (exec.ok() && exec->isArray()) {
        inflightApplied(false);
        return true;
    }
    if (exec.ok()) {
        // Aborted by WATCH: the first copy landed meanwhile; the next check skips the batch.
        return false;
    }
    failed(exec.error().message);
    return false;
}

bool StatsFlusher::flushOnce()
{
    mergeIntoBacklog();
    trimBacklog();
    if (m_backlog.empty() && !m_inflight) {
        return false;
    }
    auto failed = [&](const QString &message) {
        std::lock_guard lock(m_mutex);
        m_status.redisOk = false;
        m_status.lastError = message;
        m_status.backlog = qint64(m_backlog.size());
    };
    // (Re)connect: one attempt per interval while Redis is away.
    if (m_connection.needsConnect()) {
        {
            std::lock_guard lock(m_mutex);
            ++m_status.connects;
        }
        if (auto c = m_connection.get(); !c) {
            failed(c.error().message);
            return false;
        }
    }

    if (!settleInflight()) {
        return false;
    }
    if (m_backlog.empty()) {
        return true;
    }

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    const QByteArray marker =
        m_options.ns + "flush:" + QByteArray::number(QRandomGenerator::system()->generate64(), 16) +
        '-' + QByteArray::number(++m_batchSerial);
    QList<QList<QByteArray>> commands;
    commands.append({QByteArrayLiteral("MULTI")});
    commands.append({QByteArrayLiteral("SET"), marker, QByteArrayLiteral("1"),
                     QByteArrayLiteral("EX"), QByteArray::number(m_options.ttlSeconds)});
    qsizetype buckets = 0;
    auto it = m_backlog.begin();
    for (; it != m_backlog.end() && buckets < maxBucketsPerFlush; ++it, ++buckets) {
        const SecondBucket &b = it->second;
        // Each key lives until <second> + ttlSeconds, however late it is written.
        const QByteArray ttl =
            QByteArray::number(std::max<qint64>(1, m_options.ttlSeconds - (now - b.second)));
        const QByteArray k = countsKey(m_options.ns, b.ruleId, b.second);
        const std::pair<const char *, qint64> fields[] = {
            {"a", b.counts.allowed}, {"d", b.counts.denied}, {"s", b.counts.shadowDenied}};
        for (const auto &[field, n] : fields) {
            if (n > 0) {
                commands.append(
                    {QByteArrayLiteral("HINCRBY"), k, QByteArray(field), QByteArray::number(n)});
            }
        }
        commands.append({QByteArrayLiteral("EXPIRE"), k, ttl});
        if (b.top.isEmpty()) {
            continue;
        }
        QList<TopSubject> top = b.top;
        std::sort(top.begin(), top.end(), [](const TopSubject &x, const TopSubject &y) {
            return x.requests != y.requests ? x.requests > y.requests : x.subject < y.subject;
        });
        if (top.size() > m_options.topKept) {
            top.resize(m_options.topKept);
        }
        const QByteArray kt = topKey(m_options.ns, b.ruleId, b.second);
        const QByteArray ktd = topDeniedKey(m_options.ns, b.ruleId, b.second);
        bool anyDenied = false;
        for (const TopSubject &t : top) {
            commands.append(
                {QByteArrayLiteral("ZINCRBY"), kt, QByteArray::number(t.requests), t.subject});
            if (t.denied > 0) {
                commands.append(
                    {QByteArrayLiteral("HINCRBY"), ktd, t.subject, QByteArray::number(t.denied)});
                anyDenied = true;
            }
        }
        // Other processes add their own top subjects to the same second: keep the busiest.
        commands.append({QByteArrayLiteral("ZREMRANGEBYRANK"), kt, QByteArrayLiteral("0"),
                         QByteArray::number(-(m_options.topKept + 1))});
        commands.append({QByteArrayLiteral("EXPIRE"), kt, ttl});
        if (anyDenied) {
            commands.append({QByteArrayLiteral("EXPIRE"), ktd, ttl});
        }
    }
    commands.append({QByteArrayLiteral("EXEC")});

    auto replies = m_connection.current()->pipeline(commands);
    {
        std::lock_guard lock(m_mutex);
        ++m_status.roundTrips;
        m_status.commands += commands.size();
    }
    if (!replies) {
        if (replies.error().isConnectionLoss()) {
            // Sent, maybe applied: settled by its marker on the next attempt, never merged back.
            m_inflight = Inflight{marker, commands, buckets};
            m_backlog.erase(m_backlog.begin(), it);
            m_connection.reset();
        }
        failed(replies.error().message);
        return false;
    }
    // READONLY (a demoted master: a failover), MASTERDOWN, LOADING, ..., or writes refused (OOM,
    // MISCONF after a failed save): the transaction was
    // refused as a whole (EXECABORT), so nothing was applied and the backlog is kept for a new
    // connection, which goes to the new master (redis+sentinel://, a moved VIP or DNS name).
    for (const Result<Reply> &r : *replies) {
        if (!r && (redis::isUnavailableReply(r.error()) || redis::isWriteRefusedReply(r.error()))) {
            failed(r.error().message);
            m_connection.reset();
            return false;
        }
    }
    // EXEC's reply decides: a transport failure keeps the backlog for the next attempt; a
    // refused transaction (a key of another type in our namespace) would be refused again, so those
    // buckets are dropped and the error is reported.
    const Result<Reply> &exec = replies->back();
    const bool written = exec.ok() && exec->isArray();
    m_backlog.erase(m_backlog.begin(), it);
    std::lock_guard lock(m_mutex);
    m_status.backlog = qint64(m_backlog.size());
    if (written) {
        ++m_status.flushes;
        m_status.bucketsWritten += buckets;
        m_status.redisOk = true;
        m_status.lastError.clear();
        m_status.lastFlushMs = QDateTime::currentMSecsSinceEpoch();
    } else {
        m_status.dropped += buckets;
        m_status.redisOk = false;
        // EXECABORT says only that a queued command was refused: that one's error says why
        // (NOPERM names the command and what to grant).
        QString why = exec.ok() ? QString() : exec.error().message;
        for (const Result<Reply> &r : *replies) {
            if (!r && r.error().kind == Error::Kind::Auth) {
                why = r.error().message;
                break;
            }
        }
        m_status.lastError = exec.ok()
                                 ? QStringLiteral("Redis discarded the statistics transaction")
                                 : QStringLiteral("Redis refused the statistics: %1").arg(why);
    }
    return written;
}

} // namespace sluice::stats
