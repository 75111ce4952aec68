#include "keysworker.h"

#include "core/redis/scriptregistry.h"

#include <QMutexLocker>
#include <QTimer>

#include <utility>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

constexpr qsizetype cut = 1024; // bytes of a value or member shown
constexpr int detailEntries = 20;

// TYPE, PTTL, the size and up to ARGV[2] entries, each part cut at ARGV[1] bytes on the server
// and followed by its full length: {type, pttl, size, part, length, part, length, ...}.
constexpr char valueLua[] = R"lua(
local k, cut, n = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TYPE', k)['ok']
local out = {t, redis.call('PTTL', k), -1}
local items, pairs = {}, false
if t == 'string' then
  out[3] = redis.call('STRLEN', k)
  items = {redis.call('GETRANGE', k, 0, cut - 1)}
elseif t == 'hash' then
  out[3] = redis.call('HLEN', k)
  items = redis.call('HSCAN', k, '0', 'COUNT', n)[2]
  pairs = true
elseif t == 'zset' then
  out[3] = redis.call('ZCARD', k)
  items = redis.call('ZRANGE', k, 0, n - 1, 'WITHSCORES')
  pairs = true
elseif t == 'list' then
  out[3] = redis.call('LLEN', k)
  items = redis.call('LRANGE', k, 0, n - 1)
elseif t == 'set' then
  out[3] = redis.call('SCARD', k)
  items = redis.call('SSCAN', k, '0', 'COUNT', n)[2]
end
local limit = pairs and 2 * n or n
for i = 1, math.min(#items, limit) do
  local v = items[i]
  out[#out + 1] = string.sub(v, 1, cut)
  out[#out + 1] = #v
end
if t == 'string' then out[5] = out[3] end
return out
)lua";

const ScriptRegistry::Script &valueScript()
{
    static const ScriptRegistry registry = [] {
        ScriptRegistry r;
        r.add(u"key_value"_s, QByteArray(valueLua));
        return r;
    }();
    return *registry.find(u"key_value"_s);
}

QString firstError(const Result<std::vector<Result<Reply>>> &r)
{
    if (!r) {
        return r.error().message;
    }
    for (const Result<Reply> &x : *r) {
        if (!x) {
            return x.error().message;
        }
    }
    return {};
}

} // namespace

KeysWorker::RawValue KeysWorker::readValue(Connection &c, const QByteArray &key)
{
    RawValue value;
    value.key = key;
    // The script first: every part is cut on the server.
    auto s = ScriptRegistry::evalReadOnly(
        c, valueScript(), {key}, {QByteArray::number(cut), QByteArray::number(detailEntries)},
        ReplyBound::values("the key value script"));
    if (s && s->elements.size() >= 3) {
        const std::vector<Reply> &e = s->elements;
        value.serverSideCut = true;
        value.type = e[0].str;
        value.pttlMs = e[1].integer;
        value.size = value.type == "string" || value.type == "hash" || value.type == "zset" ||
                             value.type == "list" || value.type == "set"
                         ? e[2].integer
                         : -1;
        const bool pairs = value.type == "hash" || value.type == "zset";
        auto clip = [](const QByteArray &b) { return b.size() > cut ? b.left(cut) : b; };
        for (size_t i = 3; i + 1 < e.size(); i += pairs ? 4 : 2) {
            if (pairs && i + 3 < e.size()) {
                value.entries.append({clip(e[i].str), clip(e[i + 2].str)});
                value.entryLengths.append({e[i + 1].integer, e[i + 3].integer});
            } else if (!pairs) {
                value.entries.append({QByteArray(), clip(e[i].str)});
                value.entryLengths.append({0, e[i + 1].integer});
            }
        }
        return value;
    }
    if (!s && s.error().isConnectionLoss()) {
        value.error = s.error().message;
        return value;
    }
    // Plain reads (scripting refused).
    auto head = c.pipeline({{"TYPE", key}, {"PTTL", key}});
    if (QString e = firstError(head); !e.isEmpty()) {
        value.error = e;
        return value;
    }
    value.type = (*head)[0]->str;
    value.pttlMs = (*head)[1]->integer;
    const QByteArray last = QByteArray::number(cut - 1);
    const QByteArray n = QByteArray::number(detailEntries);
    QList<QList<QByteArray>> reads;
    if (value.type == "string") {
        reads = {{"STRLEN", key}, {"GETRANGE", key, "0", last}};
    } else if (value.type == "hash") {
        reads = {{"HLEN", key}, {"HRANDFIELD", key, n}}; // names only: values by length below
    } else if (value.type == "zset") {
        reads = {{"ZCARD", key},
                 {"ZRANGE", key, "0", QByteArray::number(detailEntries - 1), "WITHSCORES"}};
    } else if (value.type == "list") {
        reads = {{"LLEN", key}, {"LRANGE", key, "0", QByteArray::number(detailEntries - 1)}};
    } else if (value.type == "set") {
        reads = {{"SCARD", key}, {"SRANDMEMBER", key, n}};
    }
    if (reads.isEmpty()) {
        return value;
    }
    auto r = c.pipeline(reads, ReplyBound::values("a read of a key's value"));
    if (QString e = firstError(r); !e.isEmpty()) {
        value.error = e;
        return value;
    }
    value.size = (*r)[0]->integer;
    const Reply &body = *(*r)[1];
    auto clip = [](const QByteArray &b) { return b.size() > cut ? b.left(cut) : b; };
    if (value.type == "string") {
        value.entries.append({QByteArray(), body.str});
        value.entryLengths.append({0, value.size});
    } else if (value.type == "hash") {
        // Each value's length first; only those within 1 KiB are read (HGET), the others are
        // shown by their length.
        QList<QList<QByteArray>> lengths;
        for (const Reply &f : body.elements) {
            lengths.append({"HSTRLEN", key, f.str});
        }
        auto l = c.pipeline(lengths);
        if (QString e = firstError(l); !e.isEmpty()) {
            value.error = e;
            return value;
        }
        QList<QList<QByteArray>> gets;
        for (size_t i = 0; i < body.elements.size(); ++i) {
            if ((*l)[i]->integer <= cut) {
                gets.append({"HGET", key, body.elements[i].str});
            }
        }
        auto g = c.pipeline(gets, ReplyBound::values("a read of a key's value"));
        if (QString e = firstError(g); !e.isEmpty()) {
            value.error = e;
            return value;
        }
        size_t got = 0;
        for (size_t i = 0; i < body.elements.size(); ++i) {
            const qint64 length = (*l)[i]->integer;
            const QByteArray v = length <= cut ? (*g)[got++]->str : QByteArray();
            value.entries.append({clip(body.elements[i].str), v});
            value.entryLengths.append({body.elements[i].str.size(), length});
        }
    } else if (value.type == "zset") {
        for (size_t i = 0; i + 1 < body.elements.size(); i += 2) {
            value.entries.append({clip(body.elements[i].str), clip(body.elements[i + 1].str)});
            value.entryLengths.append(
                {body.elements[i].str.size(), body.elements[i + 1].str.size()});
        }
    } else {
        for (const Reply &item : body.elements) {
            value.entries.append({QByteArray(), clip(item.str)});
            value.entryLengths.append({0, item.str.size()});
        }
    }
    return value;
}

KeysWorker::KeysWorker(Endpoint endpoint, std::optional<RuleSet> rules, Options options,
                       QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_connection(std::move(endpoint))
    , m_reader(std::move(rules), options.reader)
    , m_timer(new QTimer(this))
{
    qRegisterMetaType<KeyInfo>();
    qRegisterMetaType<QList<KeyInfo>>();
    qRegisterMetaType<NodeScan>();
    qRegisterMetaType<ScanProgress>();
    qRegisterMetaType<ScanSummary>();
    qRegisterMetaType<KeyFixer::Report>();
    qRegisterMetaType<RawValue>();
    m_timer->setInterval(m_options.refreshIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &KeysWorker::refreshVisible);
    m_sinceRefresh.start();
}

KeysWorker::KeysWorker(Endpoint endpoint, std::optional<RuleSet> rules, QObject *parent)
    : KeysWorker(std::move(endpoint), std::move(rules), Options{}, parent)
{}

KeysWorker::~KeysWorker() = default;

void KeysWorker::cancel()
{
    m_cancel.store(true, std::memory_order_relaxed);
}

void KeysWorker::setVisibleKeys(const QList<QByteArray> &keys)
{
    QMutexLocker lock(&m_visibleMutex);
    m_visible = keys;
}

void KeysWorker::requestValue(const QByteArray &key)
{
    {
        QMutexLocker lock(&m_visibleMutex);
        m_valueRequest = key;
    }
    QMetaObject::invokeMethod(this, &KeysWorker::readPendingValue, Qt::QueuedConnection);
}

void KeysWorker::readPendingValue()
{
    std::optional<QByteArray> key;
    {
        QMutexLocker lock(&m_visibleMutex);
        key.swap(m_valueRequest);
    }
    if (!key) {
        return;
    }
    QString error;
    Connection *c = connection(&error);
    if (c == nullptr) {
        RawValue value;
        value.key = *key;
        value.error = error;
        Q_EMIT valueRead(value);
        return;
    }
    const RawValue value = readValue(*c, *key);
    Q_EMIT valueRead(value);
}

void KeysWorker::setRules(const RuleSet &rules)
{
    m_reader = KeyReader(rules, m_options.reader);
}

void KeysWorker::startRefreshing()
{
    m_timer->start();
}

void KeysWorker::stopRefreshing()
{
    m_timer->stop();
}

Connection *KeysWorker::connection(QString *error)
{
    auto c = m_connection.get();
    if (!c) {
        *error = c.error().message;
        return nullptr;
    }
    return *c;
}

void KeysWorker::scan(const QList<QByteArray> &patterns, qint64 maxKeysWalked)
{
    m_cancel.store(false, std::memory_order_relaxed);
    Q_EMIT scanStarted();
    QString error;
    Connection *c = connection(&error);
    if (c == nullptr) {
        ScanSummary failed;
        failed.status = ScanSummary::Status::Failed;
        failed.error = Error::make(Error::Kind::Io, error);
        Q_EMIT scanFinished(failed);
        return;
    }
    KeyScanner::Options options = m_options.scanner;
    options.patterns = patterns;
    options.cancel = &m_cancel;
    options.replicas = m_replicas.load(std::memory_order_relaxed);
    KeyScanner scanner(m_reader);
    QList<KeyInfo> pending;
    ScanProgress lastProgress;
    QElapsedTimer sinceEmit;
    sinceEmit.start();
    const auto refreshDue = [&] {
        return m_timer->isActive() && m_sinceRefresh.elapsed() >= m_options.refreshIntervalMs;
    };
    // The scanner sends the next round trip before a page's callback (when nothing paces the
    // scan) unless the callback is about to use the connection: a refresh is due, or a value
    // was asked for; those then wait one page at most.
    bool overlapped = false;
    options.pageNeedsConnection = [&] {
        bool valueAsked = false;
        {
            QMutexLocker lock(&m_visibleMutex);
            valueAsked = m_valueRequest.has_value();
        }
        overlapped = !refreshDue() && !valueAsked;
        return !overlapped;
    };
    bool capped = false;
    ScanSummary summary =
        scanner.run(*c, options, [&](const QList<KeyInfo> &page, const ScanProgress &progress) {
            pending += page;
            lastProgress = progress;
            if (maxKeysWalked > 0 && progress.keysWalked >= maxKeysWalked && !capped) {
                // The cap: the scanner checks the flag before its next round trip.
                capped = !m_cancel.exchange(true, std::memory_order_relaxed);
            }
            if (sinceEmit.elapsed() >= m_options.pageIntervalMs ||
                pending.size() >= m_options.pageMaxKeys) {
                Q_EMIT pageReady(pending, progress);
                pending.clear();
                sinceEmit.restart();
            }
            if (std::exchange(overlapped, false)) {
                return; // the next round trip is in flight: the connection is busy
            }
            // Visible rows keep refreshing during a long scan; the connection is idle here.
            if (refreshDue()) {
                refreshNow();
            }
            readPendingValue(); // the details pane need not wait for the end of the scan
        });
    if (!pending.isEmpty()) {
        Q_EMIT pageReady(pending, summary.progress);
    }
    // Stopped by the cap, not by a cancel() from outside (which was not set when it hit).
    summary.stoppedAtCap = capped && summary.status == ScanSummary::Status::Cancelled;
    Q_EMIT scanFinished(summary);
}

void KeysWorker::refreshVisible()
{
    refreshNow();
}

void KeysWorker::refreshNow()
{
    m_sinceRefresh.restart();
    QList<QByteArray> keys;
    {
        QMutexLocker lock(&m_visibleMutex);
        keys = m_visible;
    }
    if (keys.isEmpty()) {
        return;
    }
    QString error;
    Connection *c = connection(&error);
    Result<QList<KeyInfo>> read =
        c ? m_reader.read(*c, keys) : Result<QList<KeyInfo>>(Error::make(Error::Kind::Io, error));
    if (!read) {
        if (!m_refreshFailing) {
            Q_EMIT connectionError(read.error().message);
        }
        m_refreshFailing = true;
        return;
    }
    m_refreshFailing = false;
    Q_EMIT refreshed(*read);
}

// The connection for a fix, or nullptr once fixFinished() said why there is none.
Connection *KeysWorker::fixConnection(bool dryRun)
{
    QString error;
    Connection *c = connection(&error);
    if (c == nullptr) {
        KeyFixer::Report failed;
        failed.dryRun = dryRun;
        failed.error = Error::make(Error::Kind::Io, error);
        Q_EMIT fixFinished(failed);
    }
    return c;
}

void KeysWorker::fix(const QList<KeyInfo> &keys, bool deleteKeys, bool dryRun)
{
    m_cancel.store(false, std::memory_order_relaxed);
    Connection *c = fixConnection(dryRun);
    if (c == nullptr) {
        return;
    }
    KeyFixer::Options options;
    options.dryRun = dryRun;
    options.cancel = &m_cancel;
    Q_EMIT fixFinished(KeyFixer::run(
        *c, keys, deleteKeys ? KeyFixer::Action::Delete : KeyFixer::Action::SetTtl, options));
}

void KeysWorker::fixAllFlagged(const QList<QByteArray> &patterns, bool deleteKeys, bool dryRun)
{
    m_cancel.store(false, std::memory_order_relaxed);
    Connection *c = fixConnection(dryRun);
    if (c == nullptr) {
        return;
    }
    KeyScanner scanner(m_reader);
    KeyScanner::Options scanOptions = m_options.scanner;
    scanOptions.patterns = patterns;
    KeyFixer::Options options;
    options.dryRun = dryRun;
    options.cancel = &m_cancel;
    KeyFixer::Sweep sweep =
        KeyFixer::sweep(*c, scanner, scanOptions,
                        deleteKeys ? KeyFixer::Action::Delete : KeyFixer::Action::SetTtl, options);
    if (!sweep.fixes.error && sweep.scan.error) {
        sweep.fixes.error = sweep.scan.error;
    }
    Q_EMIT fixFinished(sweep.fixes);
}

} // namespace sluice::keys
