#include "keyscanner.h"

#include "core/redis/cluster.h"
#include "core/redis/replyview.h"
#include "core/redis/scriptregistry.h"

#include <QElapsedTimer>
#include <QHash>

#include <algorithm>
#include <array>
#include <thread>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

// The 64-bit fingerprint of a key for the duplicate check: FNV-1a, then the splitmix64
// finalizer. Not qHash: Qt 6.4's qHash of short byte arrays collided 8 times in 200,000
// keys ("t:...:big:{N}"), and each collision dropped a distinct key as a "duplicate".
quint64 fingerprint(const char *data, size_t size)
{
    quint64 h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < size; ++i) {
        h ^= static_cast<unsigned char>(data[i]);
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

// The fingerprints of the keys delivered: open addressing over a power-of-two table at most
// half full (8 to 32 bytes a key), one probe sequence for "seen? if not, add".
class FingerprintSet
{
public:
    // True if `h` was not in the set (it is now).
    bool insert(quint64 h)
    {
        h = h == 0 ? 1 : h; // 0 marks a free slot
        if ((m_size + 1) * 2 > m_slots.size()) {
            grow();
        }
        const size_t mask = m_slots.size() - 1;
        for (size_t i = size_t(h) & mask;; i = (i + 1) & mask) {
            if (m_slots[i] == h) {
                return false;
            }
            if (m_slots[i] == 0) {
                m_slots[i] = h;
                ++m_size;
                return true;
            }
        }
    }

    void prefetch(quint64 h) const
    {
        if (!m_slots.empty()) {
            __builtin_prefetch(&m_slots[size_t(h == 0 ? 1 : h) & (m_slots.size() - 1)]);
        }
    }

private:
    void grow()
    {
        std::vector<quint64> old(std::max<size_t>(m_slots.size() * 2, 1024), 0);
        old.swap(m_slots);
        m_size = 0;
        for (const quint64 h : old) {
            if (h != 0) {
                insert(h);
            }
        }
    }
    std::vector<quint64> m_slots;
    size_t m_size = 0;
};

// run_id from INFO server; empty if INFO is not allowed (then a restart cannot be told apart
// from a dropped connection, and any loss ends the scan).
QByteArray runIdOf(const QByteArray &info)
{
    const qsizetype at = info.indexOf("run_id:");
    if (at < 0) {
        return {};
    }
    const qsizetype end = info.indexOf('\r', at);
    return info.mid(at + 7, end < 0 ? -1 : end - at - 7).trimmed();
}

bool cancelled(const KeyScanner::Options &o)
{
    return o.cancel != nullptr && o.cancel->load(std::memory_order_relaxed);
}

QString thousands(qint64 v)
{
    // "12,345": counts in messages people read at a glance.
    QString digits = QString::number(v);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3) {
        digits.insert(i, u',');
    }
    return digits;
}

} // namespace

KeyScanner::KeyScanner(KeyReader reader)
    : m_reader(std::move(reader))
{}

double KeyScanner::cursorFraction(const QByteArray &cursor)
{
    bool ok = false;
    quint64 v = cursor.toULongLong(&ok);
    if (!ok) {
        return 0;
    }
    quint64 r = 0;
    for (int i = 0; i < 64; ++i) {
        r = (r << 1) | (v & 1);
        v >>= 1;
    }
    return double(r) / 18446744073709551616.0; // 2^64
}

ScanSummary KeyScanner::runCluster(Connection &c, const Options &options,
                                   const PageCallback &onPage)
{
    ScanSummary summary;
    QElapsedTimer clock;
    clock.start();
    ScanProgress &progress = summary.progress;
    auto finish = [&](ScanSummary::Status status) {
        summary.status = status;
        progress.elapsedMs = clock.elapsed();
        return summary;
    };
    if (c.isBroken()) {
        if (auto r = c.reconnect(); !r) {
            summary.error = r.error();
            return finish(ScanSummary::Status::Failed);
        }
    }
    redis::Cluster &cluster = *c.cluster();
    if (auto r = cluster.refresh(); !r) {
        summary.error = r.error();
        return finish(ScanSummary::Status::Failed);
    }
    // One node per shard: its master, or with `replicas` its first replica that is online.
    const QList<redis::Cluster::Node> all = cluster.nodes();
    for (const redis::Cluster::Node &m : all) {
        if (!m.master || m.slots.isEmpty()) {
            continue;
        }
        NodeScan n;
        n.address = n.masterAddress = m.address.display();
        if (options.replicas) {
            n.noReplica = true;
            for (const redis::Cluster::Node &r : all) {
                if (!r.master && r.masterId == m.id &&
                    (r.health.isEmpty() || r.health == QLatin1String("online"))) {
                    n.address = r.address.display();
                    n.replica = true;
                    n.noReplica = false;
                    break;
                }
            }
        }
        progress.nodes << n;
    }
    auto addressOf = [&](const QString &display) {
        for (const redis::Cluster::Node &n : all) {
            if (n.address.display() == display) {
                return n.address;
            }
        }
        return HostPort{};
    };

    const qsizetype shards = progress.nodes.size();
    QStringList failures;
    for (qsizetype i = 0; i < shards; ++i) {
        if (cancelled(options)) {
            for (qsizetype j = i; j < shards; ++j) {
                progress.nodes[j].state = NodeScan::State::Cancelled;
            }
            return finish(ScanSummary::Status::Cancelled);
        }
        NodeScan &node = progress.nodes[i];
        node.state = NodeScan::State::Scanning;
        if (onPage) {
            onPage({}, progress);
        }
        auto failNode = [&](const QString &why) {
            node.state = NodeScan::State::Failed;
            node.error = why;
            failures << u"%1: %2"_s.arg(node.address, why);
        };
        auto nc =
            Connection::open(cluster.nodeEndpoint(addressOf(node.address)), cluster.options());
        if (!nc) {
            failNode(nc.error().message);
            continue;
        }
        if (node.replica) {
            // A replica serves reads of its master's slots once told READONLY.
            if (auto r = nc->command({QByteArrayLiteral("READONLY")}); !r) {
                failNode(u"READONLY refused: %1"_s.arg(r.error().message));
                continue;
            }
        }
        const ScanProgress base = progress;
        auto merge = [&](const ScanProgress &p) {
            progress.keys = base.keys + p.keys;
            progress.pages = base.pages + p.pages;
            progress.roundTrips = base.roundTrips + p.roundTrips;
            progress.latencyProbes = base.latencyProbes + p.latencyProbes;
            progress.backoffs = base.backoffs + p.backoffs;
            progress.pausedMs = base.pausedMs + p.pausedMs;
            progress.keysWalked = base.keysWalked + p.keysWalked;
            progress.count = p.count;
            progress.paceKeysPerS = p.paceKeysPerS;
            progress.latencyUs = p.latencyUs;
            progress.baselineLatencyUs = p.baselineLatencyUs;
            progress.dbSize =
                p.dbSize < 0 ? base.dbSize : std::max<qint64>(base.dbSize, 0) + p.dbSize;
            progress.fraction = (double(i) + p.fraction) / double(shards);
            progress.elapsedMs = clock.elapsed();
            node.keys = p.keys;
            node.dbSize = p.dbSize;
            node.fraction = p.fraction;
        };
        KeyScanner inner(m_reader);
        const ScanSummary part =
            inner.run(*nc, options, [&](const QList<KeyInfo> &page, const ScanProgress &p) {
                merge(p);
                if (!onPage) {
                    return;
                }
                QList<KeyInfo> tagged = page;
                for (KeyInfo &k : tagged) {
                    k.node = node.address;
                }
                onPage(tagged, progress);
            });
        merge(part.progress);
        summary.health.add(part.health);
        summary.gone += part.gone;
        summary.duplicates += part.duplicates;
        summary.reconnects += part.reconnects;
        summary.serverRestarted = summary.serverRestarted || part.serverRestarted;
        switch (part.status) {
        case ScanSummary::Status::Completed:
            node.state = NodeScan::State::Done;
            node.fraction = 1.0;
            break;
        case ScanSummary::Status::Cancelled:
            for (qsizetype j = i; j < shards; ++j) {
                progress.nodes[j].state = NodeScan::State::Cancelled;
            }
            return finish(ScanSummary::Status::Cancelled);
        case ScanSummary::Status::Failed:
            failNode(part.error ? part.error->message : u"the scan failed"_s);
            break;
        }
    }
    progress.fraction = 1.0;
    // Slots no master serves (CLUSTER DELSLOTS, a failed master with no replica to promote):
    // their keys, wherever they sit, were not walked, so the scan is not clean either.
    const QList<std::pair<int, int>> uncovered = cluster.uncoveredSlots();
    if (!failures.isEmpty() || !uncovered.isEmpty()) {
        QStringList parts;
        if (!failures.isEmpty()) {
            parts << u"%1 of the %2 shards of the Redis Cluster at %3 could not be scanned (%4)"_s
                         .arg(failures.size())
                         .arg(shards)
                         .arg(c.endpoint().display(), failures.join(u"; "_s));
        }
        if (!uncovered.isEmpty()) {
            parts << u"slots %1 of the Redis Cluster at %2 are served by no master: their keys "
                     "were not scanned"_s.arg(redis::slotRangesText(uncovered),
                                              c.endpoint().display());
        }
        summary.error = Error::make(
            Error::Kind::Io, parts.join(u"; "_s) + u"; the keys of the other shards are listed"_s);
        return finish(ScanSummary::Status::Failed);
    }
    return finish(ScanSummary::Status::Completed);
}

ScanSummary KeyScanner::run(Connection &c, const Options &options, const PageCallback &onPage)
{
    if (c.cluster() != nullptr) {
        return runCluster(c, options, onPage);
    }
    ScanSummary summary;
    QElapsedTimer clock;
    clock.start();
    ScanProgress &progress = summary.progress;
    const QList<QByteArray> patterns =
        options.patterns.isEmpty() ? m_reader.defaultPatterns() : options.patterns;
    const QString where = c.endpoint().display();

    auto fail = [&](Error e) {
        summary.status = ScanSummary::Status::Failed;
        summary.error = std::move(e);
        progress.elapsedMs = clock.elapsed();
        return summary;
    };
    // A recovery that failed: cancelled while reconnecting, or the end of the scan.
    auto stop = [&](Error e) {
        if (cancelled(options)) {
            summary.status = ScanSummary::Status::Cancelled;
            progress.elapsedMs = clock.elapsed();
            return summary;
        }
        return fail(std::move(e));
    };
    auto kept = [&] {
        if (progress.keys == 0) {
            return u"no key was listed yet"_s;
        }
        return progress.keys == 1
                   ? u"the key listed so far is kept"_s
                   : u"the %1 keys listed so far are kept"_s.arg(thousands(progress.keys));
    };

    if (c.isBroken()) {
        if (auto r = c.reconnect(); !r) {
            return fail(r.error());
        }
    }
    m_reader.setBulk(true);
    if (auto p = m_reader.prepare(c); !p) {
        return fail(p.error());
    } else {
        progress.roundTrips += *p;
    }

    // The server's identity, to tell a dropped connection from a restart, and its size.
    QByteArray runId;
    {
        c.append({QByteArrayLiteral("INFO"), QByteArrayLiteral("server")});
        c.append({QByteArrayLiteral("DBSIZE")});
        auto info = c.readRaw();
        auto size = info ? c.readRaw() : Result<Connection::RawReply>(info.error());
        if (!info || !size) {
            return fail(info ? size.error() : info.error());
        }
        if (const redis::ReplyView r(*info); r.isString()) {
            runId = runIdOf(r.toByteArray());
        }
        progress.dbSize = redis::ReplyView(*size).integer(progress.dbSize);
        ++progress.roundTrips;
    }

    // The idle latency: the fastest of 3 PINGs. A refused PING: no back-off.
    bool probe = options.latencyFactor > 0;
    for (int i = 0; i < 3 && probe; ++i) {
        QElapsedTimer t;
        t.start();
        auto pong = c.command({QByteArrayLiteral("PING")});
        if (!pong) {
            if (pong.error().isConnectionLoss()) {
                return fail(pong.error());
            }
            probe = false;
            break;
        }
        const qint64 us = t.nsecsElapsed() / 1000;
        progress.baselineLatencyUs =
            progress.baselineLatencyUs < 0 ? us : std::min(progress.baselineLatencyUs, us);
        ++progress.roundTrips;
        ++progress.latencyProbes;
    }
    // Latency probes: every probeIntervalMs, the last 3 kept.
    constexpr qint64 probeIntervalMs = 100;
    QElapsedTimer sinceProbe;
    std::array<qint64, 3> recent{0, 0, 0};
    size_t recentAt = 0;
    bool probed = false; // a probe since the last back-off decision
    const double budget = std::max(options.maxKeysPerSecond, 0.0);
    double pace = budget; // 0: none
    progress.paceKeysPerS = pace;
    // Waits until `spentUs` plus the wait is at least `keys` at `pace`. False if cancelled.
    auto waitForBudget = [&](qint64 keys, qint64 spentUs) {
        if (pace <= 0 || keys <= 0) {
            return true;
        }
        qint64 leftUs = qint64(double(keys) / pace * 1e6) - spentUs;
        QElapsedTimer waited;
        waited.start();
        while (leftUs > 0) {
            if (cancelled(options)) {
                return false;
            }
            const qint64 slice = std::min<qint64>(leftUs, 50'000);
            std::this_thread::sleep_for(std::chrono::microseconds(slice));
            leftUs -= slice;
        }
        progress.pausedMs += waited.elapsed();
        return true;
    };

    // After a lost connection: Ok to resume at the same cursor, or the error that ends the scan.
    auto recover = [&](const Error &cause) -> Result<void> {
        std::optional<Error> last;
        for (int attempt = 0; attempt < std::max(options.reconnectAttempts, 1); ++attempt) {
            if (attempt > 0) {
                std::this_thread::sleep_for(options.reconnectDelay);
            }
            if (cancelled(options)) {
                return cause;
            }
            auto r = c.reconnect();
            if (r) {
                last.reset();
                break;
            }
            last = r.error();
        }
        if (last) {
            return Error::make(cause.kind,
                               u"lost the connection to Redis at %1 during the scan (%2) and "
                               "could not reconnect (%3); %4. Scan again when Redis is back"_s.arg(
                                   where, cause.message, last->message, kept()));
        }
        auto info = c.command({QByteArrayLiteral("INFO"), QByteArrayLiteral("server")});
        const QByteArray now =
            info && info->type == Reply::Type::String ? runIdOf(info->str) : QByteArray();
        if (runId.isEmpty() || now != runId) {
            summary.serverRestarted = !runId.isEmpty() && !now.isEmpty();
            const QString what =
                summary.serverRestarted
                    ? u"Redis at %1 restarted during the scan (its run id changed)"_s.arg(where)
                    : u"the connection to Redis at %1 was lost during the scan (%2), and "
                      "whether the server restarted cannot be told (INFO is not allowed)"_s.arg(
                          where, cause.message);
            return Error::make(Error::Kind::Closed,
                               u"%1: the SCAN cursor is lost, so the scan stopped; %2. Scan "
                               "again for a complete list"_s.arg(what, kept()));
        }
        if (auto p = m_reader.prepare(c); !p) {
            return p.error();
        } else {
            progress.roundTrips += *p + 1; // + the INFO above
        }
        ++summary.reconnects;
        return {};
    };

    FingerprintSet seen;
    std::vector<quint64> hashes; // of a SCAN page
    int noScriptRetries = 0;
    int count = std::clamp(options.initialCount, options.minCount, options.maxCount);
    for (qsizetype pi = 0; pi < patterns.size(); ++pi) {
        const QByteArray &pattern = patterns[pi];
        QByteArray cursor = QByteArrayLiteral("0");
        bool started = false;
        QList<QByteArray> toRead; // listed by the last SCAN, not read yet
        bool inFlight = false;    // this round trip was sent before the last onPage
        QElapsedTimer rt;         // since the round trip was sent
        // A cancelled scan leaves the connection with no reply due (the caller's next command
        // would read this round trip's replies).
        const auto drainInFlight = [&](bool scanSent) {
            if (!std::exchange(inFlight, false)) {
                return;
            }
            if (!toRead.isEmpty()) {
                (void)m_reader.collect(c);
            }
            if (scanSent) {
                (void)c.readRaw();
            }
        };
        while (true) {
            const bool needScan = !started || cursor != "0";
            if (!needScan && toRead.isEmpty()) {
                break;
            }
            if (cancelled(options)) {
                drainInFlight(needScan);
                summary.status = ScanSummary::Status::Cancelled;
                progress.elapsedMs = clock.elapsed();
                return summary;
            }
            // The latency probe: a PING alone, between round trips (Redis answers a pipeline's
            // replies together, so a PING inside ours would time our own work).
            const auto probeDue = [&] {
                return probe && (!sinceProbe.isValid() || sinceProbe.elapsed() >= probeIntervalMs);
            };
            if (!inFlight && probeDue()) {
                sinceProbe.start();
                QElapsedTimer t;
                t.start();
                auto pong = c.command({QByteArrayLiteral("PING")});
                ++progress.roundTrips;
                ++progress.latencyProbes;
                if (!pong && pong.error().isConnectionLoss()) {
                    if (auto r = recover(pong.error()); !r) {
                        return stop(r.error());
                    }
                    continue;
                }
                if (!pong) {
                    probe = false;
                    progress.latencyUs = -1;
                } else {
                    recent[recentAt++ % recent.size()] = t.nsecsElapsed() / 1000;
                    progress.latencyUs = t.nsecsElapsed() / 1000;
                    probed = true;
                }
            }
            const auto send = [&] {
                rt.start();
                if (!toRead.isEmpty()) {
                    m_reader.append(c, toRead);
                }
                if (!started || cursor != "0") {
                    c.append({QByteArrayLiteral("SCAN"), cursor, QByteArrayLiteral("MATCH"),
                              pattern, QByteArrayLiteral("COUNT"), QByteArray::number(count)},
                             ReplyBound::scanPage(count));
                }
            };
            if (!inFlight) {
                send();
            }
            inFlight = false;

            // The reads of the previous page.
            QList<KeyInfo> page;
            QList<QByteArray> rereadKeys;
            if (!toRead.isEmpty()) {
                auto infos = m_reader.collect(c);
                if (!infos && infos.error().kind == Error::Kind::NoScript && noScriptRetries < 2) {
                    // The script cache was flushed (SCRIPT FLUSH): drain the SCAN reply that is
                    // still due, load the script again, and redo this round trip.
                    ++noScriptRetries;
                    Result<void> resync;
                    if (needScan) {
                        if (auto scan = c.readRaw(); !scan) {
                            resync = scan.error();
                        }
                    }
                    if (resync) {
                        c.loadedScripts().clear();
                        if (auto p = m_reader.prepare(c); !p) {
                            resync = p.error();
                        } else {
                            progress.roundTrips += *p;
                        }
                    }
                    ++progress.roundTrips;
                    if (resync) {
                        continue;
                    }
                    infos = resync.error();
                }
                if (!infos && ScriptRegistry::isUnknownEvalshaRo(infos.error())) {
                    // Redis < 7 (no EVALSHA_RO): collect() noted it on the connection and read
                    // every reply; these keys again with EVALSHA, after the SCAN reply.
                    rereadKeys = toRead;
                    infos = QList<KeyInfo>{};
                }
                if (!infos) {
                    if (!infos.error().isConnectionLoss()) {
                        return fail(infos.error());
                    }
                    if (auto r = recover(infos.error()); !r) {
                        return stop(r.error());
                    }
                    continue; // the same round trip again
                }
                noScriptRetries = 0;
                if (m_reader.takePermissionRefusal()) {
                    // A NOPERM chunk: read these keys again, key by key, after the SCAN reply.
                    rereadKeys = toRead;
                    infos->clear();
                }
                toRead.clear();
                page.reserve(infos->size());
                for (KeyInfo &info : *infos) {
                    if (!info.exists()) {
                        ++summary.gone;
                        continue;
                    }
                    summary.health.add(info);
                    page << std::move(info);
                }
                progress.keys += page.size();
            }

            // The SCAN of the next page.
            if (needScan) {
                // Keys read before a failure here are delivered first: never lost.
                auto deliverRead = [&] {
                    if (!page.isEmpty() && onPage) {
                        onPage(page, progress);
                    }
                    page.clear();
                };
                auto scan = c.readRaw();
                if (!scan) {
                    deliverRead();
                    toRead = rereadKeys;
                    if (auto r = recover(scan.error()); !r) {
                        return stop(r.error());
                    }
                    continue;
                }
                const redis::ReplyView r(*scan);
                if (!r.isArray()) {
                    deliverRead();
                }
                if (r.isError()) {
                    // The kind is the taxonomy's (an ACL's NOPERM is auth), the words ours.
                    Error e = r.error();
                    e.message =
                        u"Redis at %1 refused SCAN: %2; listing keys needs SCAN (is it "
                        "renamed, or denied to this user by an ACL?)"_s.arg(where, e.message);
                    return fail(e);
                }
                if (r.size() != 2 || !r[1].isArray()) {
                    return fail(Error::make(Error::Kind::Protocol,
                                            u"Redis at %1 answered SCAN with something that is "
                                            "not a cursor and a list of keys"_s.arg(where)));
                }
                cursor = r[0].toByteArray();
                started = true;
                ++progress.pages;
                const redis::ReplyView list = r[1];
                // The page's fingerprints first, their slots fetched ahead: a million keys'
                // fingerprints do not fit in a cache, and a slot read waits for memory.
                hashes.resize(list.size());
                for (size_t i = 0, n = list.size(); i < n; ++i) {
                    const QByteArrayView key = list[i].bytes();
                    hashes[i] = fingerprint(key.data(), size_t(key.size()));
                    seen.prefetch(hashes[i]);
                }
                toRead.reserve(qsizetype(list.size()));
                for (size_t i = 0, n = list.size(); i < n; ++i) {
                    QByteArray key = list[i].toByteArray();
                    if (!seen.insert(hashes[i])) {
                        ++summary.duplicates;
                        continue;
                    }
                    toRead << std::move(key);
                }
            }
            if (!rereadKeys.isEmpty()) {
                auto again = m_reader.read(c, rereadKeys);
                ++progress.roundTrips;
                if (!again) {
                    if (!again.error().isConnectionLoss()) {
                        return fail(again.error());
                    }
                    if (auto r = recover(again.error()); !r) {
                        return stop(r.error());
                    }
                    toRead << rereadKeys;
                    continue;
                }
                for (KeyInfo &info : *again) {
                    if (!info.exists()) {
                        ++summary.gone;
                        continue;
                    }
                    summary.health.add(info);
                    page << std::move(info);
                }
                progress.keys += page.size();
            }
            ++progress.roundTrips;
            // String counters under a rule's prefix (rare): their values, on the idle connection.
            // A failure leaves them wrong_type; a lost connection shows at the next round trip.
            if (std::any_of(page.begin(), page.end(), KeyReader::needsReview)) {
                ++progress.roundTrips;
                if (auto changed = m_reader.reviewStringCounters(c, page)) {
                    for (const auto &[i, before] : std::as_const(*changed)) {
                        KeyInfo was = page[i];
                        was.health = before;
                        summary.health.remove(was);
                        summary.health.add(page[i]);
                    }
                }
            }
            progress.count = count;
            const double within = cursor == "0" && started ? 1.0 : cursorFraction(cursor);
            progress.fraction = (double(pi) + within) / double(patterns.size());
            progress.elapsedMs = clock.elapsed();
            qint64 roundTripNs = 0; // this one's, for the pace and COUNT below, if the next is sent
            // The next round trip now, so that Redis reads the next page while the callback
            // works; only when nothing paces the scan, no probe is due (it times an idle
            // connection) and the caller says its callback leaves the connection alone.
            if ((cursor != "0" || !toRead.isEmpty()) && pace <= 0 && !probeDue() &&
                !cancelled(options) && options.pageNeedsConnection &&
                !options.pageNeedsConnection()) {
                roundTripNs = rt.nsecsElapsed();
                send();
                (void)c.flush(); // a failure breaks the connection: the reads say so, and
                                 // recover() sends the round trip again
                inFlight = true;
            }
            // Without the overlap, the round trip's time runs on through the callback, as the
            // pace has always counted it.
            const auto spentNs = [&] { return inFlight ? roundTripNs : rt.nsecsElapsed(); };
            if (onPage) {
                onPage(page, progress);
            }

            // Back off when the server got slower for everyone; recover when it is not.
            const qint64 listed = toRead.size();
            bool slowed = false;
            if (probed && progress.baselineLatencyUs >= 0) {
                probed = false;
                // The median of the last 3 probes: one slow PING (a scheduling hiccup) is not a
                // trend.
                std::array<qint64, 3> sorted = recent;
                std::sort(sorted.begin(), sorted.end());
                const qint64 latency = recentAt >= 3 ? sorted[1] : progress.latencyUs;
                const double threshold =
                    std::max(options.latencyFactor * double(progress.baselineLatencyUs),
                             double(options.latencyFloor.count()));
                const qint64 spentUs = std::max<qint64>(spentNs() / 1000, 1);
                if (double(latency) > threshold) {
                    slowed = true;
                    ++progress.backoffs;
                    const double now =
                        pace > 0 ? pace : double(std::max<qint64>(listed, count)) * 1e6 / spentUs;
                    pace = std::max(now / 2, options.minKeysPerSecond);
                    count = std::max(count / 2, options.minCount);
                } else if (pace > 0 && (budget == 0 || pace < budget)) {
                    pace *= 1.25;
                    if (budget > 0 && pace >= budget) {
                        pace = budget;
                    } else if (budget == 0 &&
                               pace * double(spentUs) / 1e6 > 4.0 * double(options.maxCount)) {
                        pace = 0; // far above what a round trip walks: no limit again
                    }
                }
                progress.paceKeysPerS = pace;
            }

            // Adapt COUNT to the time this round trip took.
            const qint64 spent = spentNs() / 1'000'000;
            const qint64 target = options.targetRoundTrip.count();
            if (!slowed && spent * 2 < target) {
                count = std::min(count * 2, options.maxCount);
            } else if (!slowed && spent > target) {
                count = std::max(count / 2, options.minCount);
            }
            // The budget: this round trip walked `walked` keys.
            const qint64 walked = needScan ? std::max<qint64>(listed, progress.count) : 0;
            progress.keysWalked += walked;
            if (!waitForBudget(walked, (roundTripNs + rt.nsecsElapsed()) / 1000)) {
                // Cancelled while a back-off paced the scan after the next round trip had gone
                // out: its replies are read here, or the worker's next fix or refresh reads them.
                drainInFlight(!started || cursor != "0");
                summary.status = ScanSummary::Status::Cancelled;
                progress.elapsedMs = clock.elapsed();
                return summary;
            }
        }
    }
    progress.fraction = 1.0;
    progress.elapsedMs = clock.elapsed();
    return summary;
}

} // namespace sluice::keys
