#include "keysworker.h"

#include <QMutexLocker>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sluice::keys {

KeysWorker::KeysWorker(Endpoint endpoint, std::optional<RuleSet> rules, Options options,
                       QObject *parent)
    : QObject(parent)
    , m_endpoint(std::move(endpoint))
    , m_options(options)
    , m_reader(std::move(rules), options.reader)
    , m_timer(new QTimer(this))
{
    qRegisterMetaType<KeyInfo>();
    qRegisterMetaType<QList<KeyInfo>>();
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
    RawValue value;
    value.key = *key;
    QString error;
    Connection *c = connection(&error);
    if (c == nullptr) {
        value.error = error;
        Q_EMIT valueRead(value);
        return;
    }
    auto head = c->pipeline({{"TYPE", *key}, {"PTTL", *key}});
    if (!head || !(*head)[0] || !(*head)[1]) {
        value.error = !head         ? head.error().message
                      : !(*head)[0] ? (*head)[0].error().message
                                    : (*head)[1].error().message;
        Q_EMIT valueRead(value);
        return;
    }
    value.type = (*head)[0]->str;
    value.pttlMs = (*head)[1]->integer;
    constexpr qsizetype cut = 1024;
    const QByteArray cap = QByteArray::number(std::max<qint64>(m_options.reader.valueCap, cut) - 1);
    QList<QList<QByteArray>> reads;
    if (value.type == "string") {
        reads = {{"STRLEN", *key}, {"GETRANGE", *key, "0", cap}};
    } else if (value.type == "hash") {
        reads = {{"HLEN", *key}, {"HSCAN", *key, "0", "COUNT", "50"}};
    } else if (value.type == "zset") {
        reads = {{"ZCARD", *key}, {"ZRANGE", *key, "0", "19", "WITHSCORES"}};
    } else if (value.type == "list") {
        reads = {{"LLEN", *key}, {"LRANGE", *key, "0", "19"}};
    } else if (value.type == "set") {
        reads = {{"SCARD", *key}, {"SSCAN", *key, "0", "COUNT", "20"}};
    }
    if (!reads.isEmpty()) {
        auto r = c->pipeline(reads);
        if (!r || !(*r)[0] || !(*r)[1]) {
            value.error = !r         ? r.error().message
                          : !(*r)[0] ? (*r)[0].error().message
                                     : (*r)[1].error().message;
            Q_EMIT valueRead(value);
            return;
        }
        value.size = (*r)[0]->integer;
        const Reply &body = *(*r)[1];
        // SCAN-style replies are [cursor, [items]]; the others are the items themselves.
        const std::vector<Reply> &items =
            (value.type == "hash" || value.type == "set") && body.elements.size() == 2
                ? body.elements[1].elements
                : body.elements;
        auto clip = [](const QByteArray &b) { return b.size() > cut ? b.left(cut) : b; };
        if (value.type == "string") {
            value.entries.append({QByteArray(), clip(body.str)});
        } else if (value.type == "hash" || value.type == "zset") {
            for (size_t i = 0; i + 1 < items.size(); i += 2) {
                value.entries.append({clip(items[i].str), clip(items[i + 1].str)});
            }
        } else {
            for (const Reply &item : items) {
                value.entries.append({QByteArray(), clip(item.str)});
            }
        }
    }
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
    if (m_connection && !m_connection->isBroken()) {
        return &*m_connection;
    }
    if (m_connection) {
        if (auto r = m_connection->reconnect(); !r) {
            *error = r.error().message;
            return nullptr;
        }
        return &*m_connection;
    }
    auto c = Connection::open(m_endpoint);
    if (!c) {
        *error = c.error().message;
        return nullptr;
    }
    m_connection.emplace(std::move(*c));
    return &*m_connection;
}

void KeysWorker::scan(const QList<QByteArray> &patterns)
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
    KeyScanner scanner(m_reader);
    QList<KeyInfo> pending;
    ScanProgress lastProgress;
    QElapsedTimer sinceEmit;
    sinceEmit.start();
    const ScanSummary summary =
        scanner.run(*c, options, [&](const QList<KeyInfo> &page, const ScanProgress &progress) {
            pending += page;
            lastProgress = progress;
            if (sinceEmit.elapsed() >= m_options.pageIntervalMs) {
                Q_EMIT pageReady(pending, progress);
                pending.clear();
                sinceEmit.restart();
            }
            // Visible rows keep refreshing during a long scan; the connection is idle here.
            if (m_timer->isActive() && m_sinceRefresh.elapsed() >= m_options.refreshIntervalMs) {
                refreshNow();
            }
            readPendingValue(); // the details pane need not wait for the end of the scan
        });
    if (!pending.isEmpty()) {
        Q_EMIT pageReady(pending, summary.progress);
    }
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

void KeysWorker::fix(const QList<KeyInfo> &keys, bool deleteKeys, bool dryRun)
{
    m_cancel.store(false, std::memory_order_relaxed);
    QString error;
    Connection *c = connection(&error);
    if (c == nullptr) {
        KeyFixer::Report failed;
        failed.dryRun = dryRun;
        failed.error = Error::make(Error::Kind::Io, error);
        Q_EMIT fixFinished(failed);
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
    QString error;
    Connection *c = connection(&error);
    if (c == nullptr) {
        KeyFixer::Report failed;
        failed.dryRun = dryRun;
        failed.error = Error::make(Error::Kind::Io, error);
        Q_EMIT fixFinished(failed);
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
