#include "keyscanner_p.h"

#include "clusterscan.h"

#include "core/redis/lazyconnection.h"
#include "core/redis/replyview.h"
#include "core/redis/scriptregistry.h"

#include <QElapsedTimer>
#include <QHash>

#include <algorithm>
#include <array>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

using namespace Qt::StringLiterals;

namespace sluice::keys {

using scanstep::cancelled;

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

QString thousands(qint64 v)
{
    // "12,345": counts in messages people read at a glance.
    QString digits = QString::number(v);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3) {
        digits.insert(i, u',');
    }
    return digits;
}

// One scan of one server (KeyScanner::run off a cluster), as named steps over the state they
// share: the server's identity, the latency probes, the pace, the COUNT, the keys seen. Each
// step that can end the scan says so with a Flow; by then `m_summary` is final.
class SingleScan
{
public:
    SingleScan(KeyReader &reader, Connection &c, const KeyScanner::Options &options,
               const KeyScanner::PageCallback &onPage)
        : m_reader(reader)
        , m_c(c)
        , m_options(options)
        , m_onPage(onPage)
        , m_patterns(options.patterns.isEmpty() ? reader.defaultPatterns() : options.patterns)
        , m_where(c.endpoint().display())
    {
        m_clock.start();
    }

    ScanSummary run()
    {
        if (!start() || !measureIdleLatency()) {
            return m_summary;
        }
        m_budget = std::max(m_options.maxKeysPerSecond, 0.0);
        m_pace = m_budget;
        m_progress.paceKeysPerS = m_pace;
        m_count = std::clamp(m_options.initialCount, m_options.minCount, m_options.maxCount);
        for (qsizetype pi = 0; pi < m_patterns.size(); ++pi) {
            if (!walkPattern(pi)) {
                // Reads whose replies were not read (a drain that failed) are never collected
                // on another connection or by another scan with this reader.
                m_reader.dropPending();
                if (m_options.follower != nullptr) {
                    m_options.follower->discard();
                }
                return m_summary;
            }
        }
        m_progress.fraction = 1.0;
        m_progress.elapsedMs = m_clock.elapsed();
        return m_summary;
    }

private:
    // What a step asks of the page loop: go on, do this round trip again (after a reconnect
    // or a script reload), or stop (the summary is final).
    enum class Flow { Next, Again, Stop };

    // A round trip sent: what it carries, in the order of its replies.
    struct Trip
    {
        bool scan = false;       // the SCAN, first: its reply lets the next round trip go out
        int count = 0;           // the SCAN's COUNT
        bool follower = false;   // a batch of the follower's reads (Options::follower)
        QList<QByteArray> reads; // the reader's, of keys listed before; emptied once collected
        QElapsedTimer rt;        // since it was sent
    };

    // The walk of one MATCH pattern: its cursor and the round trips under way.
    struct Walk
    {
        qsizetype index = 0;
        QByteArray pattern;
        QByteArray cursor = QByteArrayLiteral("0");
        bool started = false;
        QList<QByteArray> toRead; // listed by a SCAN, not sent to be read yet
        Trip now;                 // the round trip being read
        std::optional<Trip> next; // sent behind it once its SCAN reply was read (the overlap)
        bool needScan() const { return !started || cursor != "0"; }
    };

    // The keys one round trip brought: read, and to be read again key by key.
    struct Page
    {
        QList<KeyInfo> keys;
        QList<QByteArray> reread;
        qint64 listed = 0;               // keys its SCAN listed, not seen before
        int count = 0;                   // the COUNT its SCAN was sent with
        std::optional<Error> scanFailed; // its SCAN was refused: the scan ends after the page
    };

    // Steps that end the scan: the summary as it stands, with its status.
    Flow failWith(Error e)
    {
        m_summary.status = ScanSummary::Status::Failed;
        m_summary.error = std::move(e);
        m_progress.elapsedMs = m_clock.elapsed();
        return Flow::Stop;
    }
    // A recovery that failed: cancelled while reconnecting, or the end of the scan.
    Flow stopWith(Error e)
    {
        if (cancelled(m_options)) {
            return endCancelled();
        }
        return failWith(std::move(e));
    }
    Flow endCancelled()
    {
        m_summary.status = ScanSummary::Status::Cancelled;
        m_progress.elapsedMs = m_clock.elapsed();
        return Flow::Stop;
    }
    QString keptText() const
    {
        if (m_progress.keys == 0) {
            return u"no key was listed yet"_s;
        }
        return m_progress.keys == 1
                   ? u"the key listed so far is kept"_s
                   : u"the %1 keys listed so far are kept"_s.arg(thousands(m_progress.keys));
    }

    // A live connection, the reader's scripts, and the server's run id and size.
    bool start()
    {
        if (auto r = reconnectIfBroken(m_c); !r) {
            failWith(r.error());
            return false;
        }
        m_reader.setBulk(true);
        m_reader.dropPending();
        if (auto p = m_reader.prepare(m_c); !p) {
            failWith(p.error());
            return false;
        } else {
            m_progress.roundTrips += *p;
        }
        // The server's identity, to tell a dropped connection from a restart, and its size.
        m_c.append({QByteArrayLiteral("INFO"), QByteArrayLiteral("server")});
        m_c.append({QByteArrayLiteral("DBSIZE")});
        // What the server offers, in the same round trip (redis/serverfeatures.h).
        m_c.append(redis::featuresCommand(), redis::featuresBound());
        auto info = m_c.readRaw();
        auto size = info ? m_c.readRaw() : Result<Connection::RawReply>(info.error());
        auto features = size ? m_c.readRaw() : Result<Connection::RawReply>(size.error());
        if (!info || !size || !features) {
            failWith(!info ? info.error() : !size ? size.error() : features.error());
            return false;
        }
        m_summary.server = redis::featuresFromReply(features->get());
        if (!noTouch()) {
            return false;
        }
        if (const redis::ReplyView r(*info); r.isString()) {
            m_runId = runIdOf(r.toByteArray());
        }
        m_progress.dbSize = redis::ReplyView(*size).integer(m_progress.dbSize);
        ++m_progress.roundTrips;
        return true;
    }

    // CLIENT NO-TOUCH ON where the server has it, so that this scan's reads leave the keys'
    // LRU/LFU as they were (an eviction policy keeps choosing as if nobody looked). Once per
    // connection: again after a reconnect. Refused (an ACL): the scan goes on, touching.
    bool noTouch()
    {
        m_summary.noTouch = false;
        if (!m_summary.server.clientNoTouch) {
            return true;
        }
        auto r = m_c.command(
            {QByteArrayLiteral("CLIENT"), QByteArrayLiteral("NO-TOUCH"), QByteArrayLiteral("ON")});
        ++m_progress.roundTrips;
        if (!r) {
            if (m_c.isBroken()) {
                failWith(r.error());
                return false;
            }
            return true;
        }
        m_summary.noTouch = true;
        return true;
    }

    // The idle latency: the fastest of 3 PINGs. A refused PING: no back-off.
    bool measureIdleLatency()
    {
        m_probe = m_options.latencyFactor > 0;
        for (int i = 0; i < 3 && m_probe; ++i) {
            QElapsedTimer t;
            t.start();
            auto pong = m_c.command({QByteArrayLiteral("PING")});
            if (!pong) {
                if (pong.error().isConnectionLoss()) {
                    failWith(pong.error());
                    return false;
                }
                m_probe = false;
                break;
            }
            const qint64 us = t.nsecsElapsed() / 1000;
            m_progress.baselineLatencyUs =
                m_progress.baselineLatencyUs < 0 ? us : std::min(m_progress.baselineLatencyUs, us);
            ++m_progress.roundTrips;
            ++m_progress.latencyProbes;
        }
        return true;
    }

    // Round trips until the pattern's cursor is back at 0 and every key it listed was read.
    // False: the scan ended.
    bool walkPattern(qsizetype index)
    {
        Walk w;
        w.index = index;
        w.pattern = m_patterns[index];
        while (true) {
            if (!w.next && !w.needScan() && w.toRead.isEmpty() && !followerDue(w)) {
                return true;
            }
            if (cancelled(m_options)) {
                drainNext(w);
                endCancelled();
                return false;
            }
            if (roundTrip(w) == Flow::Stop) {
                return false;
            }
        }
    }

    // One round trip: its SCAN reply (and, overlapped, the next round trip sent at once), the
    // follower's reads, the reads of the keys listed before, then the callback and the pace.
    Flow roundTrip(Walk &w)
    {
        if (w.next) {
            w.now = std::move(*w.next);
            w.next.reset();
        } else {
            if (probeDue()) {
                if (const Flow f = probeLatency(); f != Flow::Next) {
                    return f;
                }
            }
            if (!send(w, w.now)) {
                return failWith(Error::make(Error::Kind::Internal,
                                            u"the scan of %1 had nothing to ask"_s.arg(m_where)));
            }
        }
        Page page;
        if (w.now.scan) {
            if (const Flow f = readScanPage(w, page); f != Flow::Next) {
                return f;
            }
        }
        overlapNextRoundTrip(w, page);
        if (const Flow f = collectPage(w, page); f != Flow::Next) {
            return f;
        }
        return finishPage(w, page);
    }

    // The follower's replies and the reader's, then what needs the connection idle: keys read
    // again one by one (NOPERM, EVALSHA), string counters reviewed.
    Flow collectPage(Walk &w, Page &page)
    {
        if (w.now.follower) {
            if (const Flow f = collectFollower(w); f != Flow::Next) {
                return f;
            }
        }
        if (!w.now.reads.isEmpty()) {
            if (const Flow f = collectReads(w, page); f != Flow::Next) {
                return f;
            }
        }
        const bool needsConnection =
            !page.reread.isEmpty() ||
            std::any_of(page.keys.begin(), page.keys.end(), KeyReader::needsReview);
        if (needsConnection && w.next) {
            // The next round trip went out already: read back, so that the connection is idle;
            // pages like this one are likely to follow, so no overlap for a while.
            m_overlapPause = overlapPausePages;
            if (auto r = takeBackNext(w); !r) {
                w.toRead = page.reread + w.toRead;
                return deliverAndRecover(w, page, r.error());
            }
        }
        if (!page.reread.isEmpty()) {
            if (const Flow f = rereadKeys(w, page); f != Flow::Next) {
                return f;
            }
        }
        reviewStringCounters(page.keys);
        return Flow::Next;
    }

    // The page to the follower and the callback, the progress, the COUNT and the pace.
    Flow finishPage(Walk &w, Page &page)
    {
        ++m_progress.roundTrips;
        if (m_options.follower != nullptr && !page.keys.isEmpty()) {
            m_options.follower->queue(page.keys);
        }
        m_progress.count = m_count;
        const double within =
            w.cursor == "0" && w.started ? 1.0 : KeyScanner::cursorFraction(w.cursor);
        m_progress.fraction = (double(w.index) + within) / double(m_patterns.size());
        m_progress.elapsedMs = m_clock.elapsed();
        // Overlapped, a round trip takes what the pipeline spends on a page: the time since
        // the last page was delivered (its own went out while the page before was read, so
        // from its sending it would count that page's work too). Without the overlap, it runs
        // from its sending on through the callback, as the pace has always counted it.
        const bool overlapped = w.next.has_value();
        const qint64 roundTripNs =
            overlapped && m_sincePage.isValid()
                ? std::min(m_sincePage.nsecsElapsed(), w.now.rt.nsecsElapsed())
                : w.now.rt.nsecsElapsed();
        m_sincePage.start();
        const auto spentNs = [&] { return overlapped ? roundTripNs : w.now.rt.nsecsElapsed(); };
        if (m_onPage) {
            m_onPage(page.keys, m_progress);
        }
        if (page.scanFailed) {
            drainNext(w);
            return failWith(*page.scanFailed);
        }
        m_overlapPause = std::max(m_overlapPause - 1, 0);
        const bool slowed = adaptPace(page.listed, spentNs() / 1000);
        adaptCount(slowed, spentNs() / 1'000'000, page);
        // The budget: this round trip walked `walked` keys.
        const qint64 walked = w.now.scan ? std::max<qint64>(page.listed, m_progress.count) : 0;
        m_progress.keysWalked += walked;
        if (!waitForBudget(walked, w.now.rt.nsecsElapsed() / 1000)) {
            // Cancelled while a back-off paced the scan: the connection is left with no reply
            // due (the worker's next fix or refresh reads its own).
            drainNext(w);
            return endCancelled();
        }
        return Flow::Next;
    }

    bool probeDue() const
    {
        return m_probe && (!m_sinceProbe.isValid() || m_sinceProbe.elapsed() >= probeIntervalMs);
    }

    // The latency probe: a PING alone, between round trips (Redis answers a pipeline's
    // replies together, so a PING inside ours would time our own work).
    Flow probeLatency()
    {
        m_sinceProbe.start();
        QElapsedTimer t;
        t.start();
        auto pong = m_c.command({QByteArrayLiteral("PING")});
        ++m_progress.roundTrips;
        ++m_progress.latencyProbes;
        if (!pong && pong.error().isConnectionLoss()) {
            if (auto r = recover(pong.error()); !r) {
                return stopWith(r.error());
            }
            return Flow::Again;
        }
        if (!pong) {
            m_probe = false;
            m_progress.latencyUs = -1;
        } else {
            m_recent[m_recentAt++ % m_recent.size()] = t.nsecsElapsed() / 1000;
            m_progress.latencyUs = t.nsecsElapsed() / 1000;
            m_probed = true;
        }
        return Flow::Next;
    }

    // Appends a round trip (not flushed): the SCAN of the next page, the follower's reads not
    // in flight, the reads of the keys listed and not sent. False: it would carry nothing.
    bool send(Walk &w, Trip &t)
    {
        t = Trip{};
        t.rt.start();
        if (w.needScan()) {
            t.scan = true;
            t.count = m_count;
            m_c.append({QByteArrayLiteral("SCAN"), w.cursor, QByteArrayLiteral("MATCH"), w.pattern,
                        QByteArrayLiteral("COUNT"), QByteArray::number(m_count)},
                       ReplyBound::scanPage(m_count));
        }
        t.follower = m_options.follower != nullptr && m_options.follower->append(m_c);
        if (!w.toRead.isEmpty()) {
            m_reader.append(m_c, w.toRead);
            t.reads = std::exchange(w.toRead, {});
        }
        return t.scan || t.follower || !t.reads.isEmpty();
    }

    // The round trip sent behind the one being read, read back so that the connection is idle:
    // its SCAN reply dropped (the cursor did not move: that SCAN goes again), its keys' replies
    // dropped (they are read again), the follower's collected as usual.
    Result<void> takeBackNext(Walk &w)
    {
        if (!w.next) {
            return {};
        }
        Trip t = std::move(*w.next);
        w.next.reset();
        ++m_progress.roundTrips;
        w.toRead = t.reads + w.toRead;
        if (t.scan) {
            if (auto scan = m_c.readRaw(); !scan) {
                return scan.error();
            }
        }
        if (t.follower) {
            if (auto r = m_options.follower->collect(m_c); !r) {
                return r;
            }
        }
        if (!t.reads.isEmpty()) {
            return m_reader.skip(m_c);
        }
        return {};
    }

    // A scan that stops leaves the connection with no reply due (the caller's next command
    // would read the round trip's replies).
    void drainNext(Walk &w) { (void)takeBackNext(w); }

    // The connection was lost: what was sent and not collected is to be sent again, the keys
    // in the order they were listed (the SCAN cursor moves only when a SCAN reply is read).
    void requeue(Walk &w)
    {
        QList<QByteArray> keys = std::exchange(w.now.reads, {});
        if (w.next) {
            keys << w.next->reads;
        }
        keys << w.toRead;
        w.toRead = std::move(keys);
        w.now = Trip{};
        w.next.reset();
        m_reader.dropPending();
        if (m_options.follower != nullptr) {
            m_options.follower->resend();
        }
    }

    // A reply that did not come: reconnect and resume (the round trip again), or stop.
    Flow lostConnection(Walk &w, const Error &cause)
    {
        if (!cause.isConnectionLoss()) {
            return failWith(cause);
        }
        requeue(w);
        if (auto r = recover(cause); !r) {
            return stopWith(r.error());
        }
        return Flow::Again;
    }

    // Keys read before a failure are delivered first: never lost.
    Flow deliverAndRecover(Walk &w, Page &page, const Error &cause)
    {
        if (!page.keys.isEmpty()) {
            if (m_options.follower != nullptr && cause.isConnectionLoss()) {
                m_options.follower->queue(page.keys);
            }
            if (m_onPage) {
                m_onPage(page.keys, m_progress);
            }
        }
        return lostConnection(w, cause);
    }

    // The keys that exist go to the page and the health; the others are counted as gone.
    void deliver(QList<KeyInfo> &infos, QList<KeyInfo> &page)
    {
        for (KeyInfo &info : infos) {
            if (!info.exists()) {
                ++m_summary.gone;
                continue;
            }
            m_summary.health.add(info);
            page << std::move(info);
        }
        m_progress.keys += page.size();
    }

    // Reads still due from the follower: after the last pattern's last page, a round trip of
    // their own (before it, they ride with the next pattern's first).
    bool followerDue(const Walk &w) const
    {
        return m_options.follower != nullptr && w.index + 1 == m_patterns.size() &&
               m_options.follower->pending();
    }

    // The follower's reads, after the SCAN reply.
    Flow collectFollower(Walk &w)
    {
        w.now.follower = false;
        if (auto r = m_options.follower->collect(m_c); !r) {
            return lostConnection(w, r.error()); // the round trip again, its reads with it
        }
        return Flow::Next;
    }

    // The reads of the keys listed before.
    Flow collectReads(Walk &w, Page &page)
    {
        auto infos = m_reader.collect(m_c);
        if (!infos && infos.error().kind == Error::Kind::NoScript && m_noScriptRetries < 2) {
            // The script cache was flushed (SCRIPT FLUSH): with the connection idle (the next
            // round trip read back), load the script again and read these keys again.
            ++m_noScriptRetries;
            Result<void> resync = takeBackNext(w);
            if (resync) {
                m_c.loadedScripts().clear();
                if (auto p = m_reader.prepare(m_c); !p) {
                    resync = p.error();
                } else {
                    m_progress.roundTrips += *p;
                }
            }
            if (resync) {
                w.toRead = std::exchange(w.now.reads, {}) + w.toRead;
                return Flow::Again;
            }
            infos = resync.error();
        }
        if (!infos && ScriptRegistry::isUnknownEvalshaRo(infos.error())) {
            // Redis < 7 (no EVALSHA_RO): collect() noted it on the connection and read
            // every reply; these keys again with EVALSHA.
            page.reread = w.now.reads;
            infos = QList<KeyInfo>{};
        }
        if (!infos) {
            return lostConnection(w, infos.error()); // the same round trip again
        }
        m_noScriptRetries = 0;
        if (m_reader.takePermissionRefusal()) {
            // A NOPERM chunk: read these keys again, key by key.
            page.reread = w.now.reads;
            infos->clear();
        }
        w.now.reads.clear();
        page.keys.reserve(infos->size());
        deliver(*infos, page.keys);
        return Flow::Next;
    }

    // The SCAN of the next page: its cursor, and its keys not seen before to be read. A refusal
    // ends the scan once the rest of the round trip is read and delivered.
    Flow readScanPage(Walk &w, Page &page)
    {
        auto scan = m_c.readRaw();
        if (!scan) {
            return lostConnection(w, scan.error()); // the same SCAN again
        }
        const redis::ReplyView r(*scan);
        if (r.isError()) {
            // The kind is the taxonomy's (an ACL's NOPERM is auth), the words ours.
            Error e = r.error();
            e.message = u"Redis at %1 refused SCAN: %2; listing keys needs SCAN (is it "
                        "renamed, or denied to this user by an ACL?)"_s.arg(m_where, e.message);
            page.scanFailed = e;
            return Flow::Next;
        }
        if (r.size() != 2 || !r[1].isArray()) {
            page.scanFailed = Error::make(Error::Kind::Protocol,
                                          u"Redis at %1 answered SCAN with something that is "
                                          "not a cursor and a list of keys"_s.arg(m_where));
            return Flow::Next;
        }
        w.cursor = r[0].toByteArray();
        w.started = true;
        ++m_progress.pages;
        const qsizetype before = w.toRead.size();
        queueUnseen(r[1], w.toRead);
        page.listed = w.toRead.size() - before;
        page.count = w.now.count;
        return Flow::Next;
    }

    // The keys of a SCAN page not delivered before (SCAN repeats keys across a rehash).
    void queueUnseen(const redis::ReplyView &list, QList<QByteArray> &toRead)
    {
        // The page's fingerprints first, their slots fetched ahead: a million keys'
        // fingerprints do not fit in a cache, and a slot read waits for memory.
        m_hashes.resize(list.size());
        for (size_t i = 0, n = list.size(); i < n; ++i) {
            const QByteArrayView key = list[i].bytes();
            m_hashes[i] = fingerprint(key.data(), size_t(key.size()));
            m_seen.prefetch(m_hashes[i]);
        }
        toRead.reserve(qsizetype(list.size()));
        const auto &filter = m_options.keyFilter;
        for (size_t i = 0, n = list.size(); i < n; ++i) {
            if (filter && !filter(list[i].bytes())) {
                continue;
            }
            QByteArray key = list[i].toByteArray();
            if (!m_seen.insert(m_hashes[i])) {
                ++m_summary.duplicates;
                continue;
            }
            toRead << std::move(key);
        }
    }

    // Keys whose chunk was refused (NOPERM) or needs EVALSHA (Redis < 7), key by key, on the
    // idle connection.
    Flow rereadKeys(Walk &w, Page &page)
    {
        auto again = m_reader.read(m_c, page.reread);
        ++m_progress.roundTrips;
        if (!again) {
            w.toRead = page.reread + w.toRead;
            return deliverAndRecover(w, page, again.error());
        }
        deliver(*again, page.keys);
        return Flow::Next;
    }

    // String counters under a rule's prefix (rare): their values, on the idle connection.
    // A failure leaves them wrong_type; a lost connection shows at the next round trip.
    void reviewStringCounters(QList<KeyInfo> &page)
    {
        if (!std::any_of(page.begin(), page.end(), KeyReader::needsReview)) {
            return;
        }
        ++m_progress.roundTrips;
        if (auto changed = m_reader.reviewStringCounters(m_c, page)) {
            for (const auto &[i, before] : std::as_const(*changed)) {
                KeyInfo was = page[i];
                was.health = before;
                m_summary.health.remove(was);
                m_summary.health.add(page[i]);
            }
        }
    }

    // The next round trip now, right after this one's SCAN reply, so that Redis reads the next
    // page while this one is collected, judged and delivered; only when nothing paces the scan,
    // no probe is due (it times an idle connection), no page lately needed the connection, and
    // the caller says its callback leaves the connection alone.
    void overlapNextRoundTrip(Walk &w, const Page &page)
    {
        const bool more = w.needScan() || !w.toRead.isEmpty() ||
                          (m_options.follower != nullptr && m_options.follower->unsent());
        if (more && !page.scanFailed && m_pace <= 0 && m_overlapPause == 0 && !probeDue() &&
            !cancelled(m_options) && m_options.pageNeedsConnection &&
            !m_options.pageNeedsConnection()) {
            Trip t;
            send(w, t);
            (void)m_c.flush(); // a failure breaks the connection: the reads say so, and
                               // recover() sends the round trips again
            w.next = std::move(t);
        }
    }

    // Back off when the server got slower for everyone; recover when it is not. True: slowed
    // down after this round trip.
    bool adaptPace(qint64 listed, qint64 spentUsRaw)
    {
        if (!m_probed || m_progress.baselineLatencyUs < 0) {
            return false;
        }
        m_probed = false;
        bool slowed = false;
        // The median of the last 3 probes: one slow PING (a scheduling hiccup) is not a trend.
        std::array<qint64, 3> sorted = m_recent;
        std::sort(sorted.begin(), sorted.end());
        const qint64 latency = m_recentAt >= 3 ? sorted[1] : m_progress.latencyUs;
        const double threshold =
            std::max(m_options.latencyFactor * double(m_progress.baselineLatencyUs),
                     double(m_options.latencyFloor.count()));
        const qint64 spentUs = std::max<qint64>(spentUsRaw, 1);
        if (double(latency) > threshold) {
            slowed = true;
            ++m_progress.backoffs;
            const double now =
                m_pace > 0 ? m_pace : double(std::max<qint64>(listed, m_count)) * 1e6 / spentUs;
            m_pace = std::max(now / 2, m_options.minKeysPerSecond);
            m_count = std::max(m_count / 2, m_options.minCount);
        } else if (m_pace > 0 && (m_budget == 0 || m_pace < m_budget)) {
            m_pace *= 1.25;
            if (m_budget > 0 && m_pace >= m_budget) {
                m_pace = m_budget;
            } else if (m_budget == 0 &&
                       m_pace * double(spentUs) / 1e6 > 4.0 * double(m_options.maxCount)) {
                m_pace = 0; // far above what a round trip walks: no limit again
            }
        }
        m_progress.paceKeysPerS = m_pace;
        return slowed;
    }

    // Adapt COUNT to the time this round trip took.
    // COUNT halves when a round trip took longer than its target, and else doubles while a
    // round trip takes less than half of it, but never past the COUNT whose page would list
    // about maxListed keys (Options) at the density of `page` (listed for its own COUNT: with
    // the overlap, COUNT has moved on since it was sent). On a dense keyspace that is the bound.
    void adaptCount(bool slowed, qint64 spentMs, const Page &page)
    {
        const qint64 target = m_options.targetRoundTrip.count();
        if (slowed) {
            return;
        }
        if (spentMs > target) {
            m_count = std::max(m_count / 2, m_options.minCount);
            return;
        }
        qint64 next = spentMs * 2 < target ? qint64(m_count) * 2 : qint64(m_count);
        if (page.listed > 0 && page.count > 0) {
            next = std::min(next, qint64(page.count) * m_options.maxListed / page.listed);
        }
        m_count = int(std::clamp<qint64>(next, m_options.minCount, m_options.maxCount));
    }

    // Waits until `spentUs` plus the wait is at least `keys` at the pace. False if cancelled.
    bool waitForBudget(qint64 keys, qint64 spentUs)
    {
        if (m_pace <= 0 || keys <= 0) {
            return true;
        }
        qint64 leftUs = qint64(double(keys) / m_pace * 1e6) - spentUs;
        QElapsedTimer waited;
        waited.start();
        while (leftUs > 0) {
            if (cancelled(m_options)) {
                return false;
            }
            const qint64 slice = std::min<qint64>(leftUs, 50'000);
            std::this_thread::sleep_for(std::chrono::microseconds(slice));
            leftUs -= slice;
        }
        m_progress.pausedMs += waited.elapsed();
        return true;
    }

    // After a lost connection: Ok to resume at the same cursor, or the error that ends the
    // scan.
    Result<void> recover(const Error &cause)
    {
        const auto reconnected =
            reconnectWithRetry(m_c, {m_options.reconnectAttempts, m_options.reconnectDelay,
                                     [this] { return cancelled(m_options); }});
        if (!reconnected) {
            return Error::make(
                cause.kind, u"lost the connection to Redis at %1 during the scan (%2) and "
                            "could not reconnect (%3); %4. Scan again when Redis is back"_s.arg(
                                m_where, cause.message, reconnected.error().message, keptText()));
        }
        if (!*reconnected) {
            return cause;
        }
        auto info = m_c.command({QByteArrayLiteral("INFO"), QByteArrayLiteral("server")});
        const QByteArray now =
            info && info->type == Reply::Type::String ? runIdOf(info->str) : QByteArray();
        if (m_runId.isEmpty() || now != m_runId) {
            m_summary.serverRestarted = !m_runId.isEmpty() && !now.isEmpty();
            const QString what =
                m_summary.serverRestarted
                    ? u"Redis at %1 restarted during the scan (its run id changed)"_s.arg(m_where)
                    : u"the connection to Redis at %1 was lost during the scan (%2), and "
                      "whether the server restarted cannot be told (INFO is not allowed)"_s.arg(
                          m_where, cause.message);
            return Error::make(Error::Kind::Closed,
                               u"%1: the SCAN cursor is lost, so the scan stopped; %2. Scan "
                               "again for a complete list"_s.arg(what, keptText()));
        }
        if (auto p = m_reader.prepare(m_c); !p) {
            return p.error();
        } else {
            m_progress.roundTrips += *p + 1; // + the INFO above
        }
        if (m_summary.noTouch) {
            auto r = m_c.command({QByteArrayLiteral("CLIENT"), QByteArrayLiteral("NO-TOUCH"),
                                  QByteArrayLiteral("ON")});
            ++m_progress.roundTrips;
            m_summary.noTouch = bool(r);
        }
        ++m_summary.reconnects;
        return {};
    }

    // Latency probes: every probeIntervalMs, the last 3 kept.
    static constexpr qint64 probeIntervalMs = 100;
    // After a page that needed the connection idle (the next round trip read back): pages
    // without the overlap, so that a keyspace of such pages does not read each page twice.
    static constexpr int overlapPausePages = 16;

    KeyReader &m_reader;
    Connection &m_c;
    const KeyScanner::Options &m_options;
    const KeyScanner::PageCallback &m_onPage;
    const QList<QByteArray> m_patterns;
    const QString m_where;
    ScanSummary m_summary;
    ScanProgress &m_progress = m_summary.progress;
    QElapsedTimer m_clock;
    QByteArray m_runId;   // empty: INFO not allowed, a restart cannot be told from a loss
    bool m_probe = false; // latency probes on (a refused PING turns them off)
    QElapsedTimer m_sinceProbe;
    std::array<qint64, 3> m_recent{0, 0, 0};
    size_t m_recentAt = 0;
    bool m_probed = false; // a probe since the last back-off decision
    double m_budget = 0;   // Options::maxKeysPerSecond; 0: none
    double m_pace = 0;     // the budget in force now; 0: none
    int m_count = 0;       // SCAN COUNT
    int m_noScriptRetries = 0;
    QElapsedTimer m_sincePage; // since the last page was delivered
    int m_overlapPause = 0;    // pages to go without the overlap (a page needed the connection)
    FingerprintSet m_seen;
    std::vector<quint64> m_hashes; // of a SCAN page
};

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

ScanSummary KeyScanner::run(Connection &c, const Options &options, const PageCallback &onPage)
{
    if (c.cluster() != nullptr) {
        return scanCluster(m_reader, c, options, onPage);
    }
    return SingleScan(m_reader, c, options, onPage).run();
}

} // namespace sluice::keys
