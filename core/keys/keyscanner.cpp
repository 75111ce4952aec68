#include "keyscanner_p.h"

#include "clusterscan.h"

#include "core/redis/lazyconnection.h"
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
                if (m_options.follower != nullptr) {
                    m_options.follower->discard(); // never sent on another connection
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

    // The walk of one MATCH pattern: its cursor and the round trip under way.
    struct Walk
    {
        qsizetype index = 0;
        QByteArray pattern;
        QByteArray cursor = QByteArrayLiteral("0");
        bool started = false;
        QList<QByteArray> toRead;  // listed by the last SCAN, not read yet
        bool inFlight = false;     // this round trip was sent before the last onPage
        bool followerSent = false; // it carries the follower's reads (Options::follower)
        QElapsedTimer rt;          // since the round trip was sent
        bool needScan() const { return !started || cursor != "0"; }
    };

    // The keys one round trip brought: read, and to be read again key by key.
    struct Page
    {
        QList<KeyInfo> keys;
        QList<QByteArray> reread;
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
            const bool needScan = w.needScan();
            if (!needScan && w.toRead.isEmpty() && !followerDue(w)) {
                return true;
            }
            if (cancelled(m_options)) {
                drainInFlight(w, needScan);
                endCancelled();
                return false;
            }
            switch (roundTrip(w, needScan)) {
            case Flow::Next:
            case Flow::Again:
                break;
            case Flow::Stop:
                return false;
            }
        }
    }

    // One round trip: the reads of the last page and the SCAN of the next, then the callback
    // and the pace.
    Flow roundTrip(Walk &w, bool needScan)
    {
        if (!w.inFlight && probeDue()) {
            if (const Flow f = probeLatency(); f != Flow::Next) {
                return f;
            }
        }
        if (!w.inFlight) {
            send(w);
        }
        w.inFlight = false;

        Page page;
        if (w.followerSent) {
            if (const Flow f = collectFollower(w); f != Flow::Next) {
                return f;
            }
        }
        if (!w.toRead.isEmpty()) {
            if (const Flow f = collectReads(w, page, needScan); f != Flow::Next) {
                return f;
            }
        }
        if (needScan) {
            if (const Flow f = readScanPage(w, page); f != Flow::Next) {
                return f;
            }
        }
        if (!page.reread.isEmpty()) {
            if (const Flow f = rereadKeys(w, page); f != Flow::Next) {
                return f;
            }
        }
        ++m_progress.roundTrips;
        reviewStringCounters(page.keys);
        if (m_options.follower != nullptr && !page.keys.isEmpty()) {
            m_options.follower->queue(page.keys);
        }
        m_progress.count = m_count;
        const double within =
            w.cursor == "0" && w.started ? 1.0 : KeyScanner::cursorFraction(w.cursor);
        m_progress.fraction = (double(w.index) + within) / double(m_patterns.size());
        m_progress.elapsedMs = m_clock.elapsed();
        const qint64 roundTripNs = overlapNextRoundTrip(w);
        // Without the overlap, the round trip's time runs on through the callback, as the
        // pace has always counted it.
        const auto spentNs = [&] { return w.inFlight ? roundTripNs : w.rt.nsecsElapsed(); };
        if (m_onPage) {
            m_onPage(page.keys, m_progress);
        }
        const qint64 listed = w.toRead.size();
        const bool slowed = adaptPace(listed, spentNs() / 1000);
        adaptCount(slowed, spentNs() / 1'000'000);
        // The budget: this round trip walked `walked` keys.
        const qint64 walked = needScan ? std::max<qint64>(listed, m_progress.count) : 0;
        m_progress.keysWalked += walked;
        if (!waitForBudget(walked, (roundTripNs + w.rt.nsecsElapsed()) / 1000)) {
            // Cancelled while a back-off paced the scan after the next round trip had gone
            // out: its replies are read here, or the worker's next fix or refresh reads them.
            drainInFlight(w, w.needScan());
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

    // Appends the follower's reads, those of the last page and the SCAN of the next (not
    // flushed).
    void send(Walk &w)
    {
        w.rt.start();
        if (m_options.follower != nullptr && m_options.follower->pending()) {
            m_options.follower->append(m_c);
            w.followerSent = true;
        }
        if (!w.toRead.isEmpty()) {
            m_reader.append(m_c, w.toRead);
        }
        if (w.needScan()) {
            m_c.append({QByteArrayLiteral("SCAN"), w.cursor, QByteArrayLiteral("MATCH"), w.pattern,
                        QByteArrayLiteral("COUNT"), QByteArray::number(m_count)},
                       ReplyBound::scanPage(m_count));
        }
    }

    // A cancelled scan leaves the connection with no reply due (the caller's next command
    // would read this round trip's replies).
    void drainInFlight(Walk &w, bool scanSent)
    {
        if (!std::exchange(w.inFlight, false)) {
            return;
        }
        if (std::exchange(w.followerSent, false)) {
            (void)m_options.follower->collect(m_c);
        }
        if (!w.toRead.isEmpty()) {
            (void)m_reader.collect(m_c);
        }
        if (scanSent) {
            (void)m_c.readRaw();
        }
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

    // The follower's reads, first in the round trip.
    Flow collectFollower(Walk &w)
    {
        w.followerSent = false;
        auto r = m_options.follower->collect(m_c);
        if (r) {
            return Flow::Next;
        }
        if (!r.error().isConnectionLoss()) {
            return failWith(r.error());
        }
        if (auto again = recover(r.error()); !again) {
            return stopWith(again.error());
        }
        return Flow::Again; // the same round trip again, the follower's reads with it
    }

    // The reads of the previous page.
    Flow collectReads(Walk &w, Page &page, bool needScan)
    {
        auto infos = m_reader.collect(m_c);
        if (!infos && infos.error().kind == Error::Kind::NoScript && m_noScriptRetries < 2) {
            // The script cache was flushed (SCRIPT FLUSH): drain the SCAN reply that is
            // still due, load the script again, and redo this round trip.
            ++m_noScriptRetries;
            Result<void> resync;
            if (needScan) {
                if (auto scan = m_c.readRaw(); !scan) {
                    resync = scan.error();
                }
            }
            if (resync) {
                m_c.loadedScripts().clear();
                if (auto p = m_reader.prepare(m_c); !p) {
                    resync = p.error();
                } else {
                    m_progress.roundTrips += *p;
                }
            }
            ++m_progress.roundTrips;
            if (resync) {
                return Flow::Again;
            }
            infos = resync.error();
        }
        if (!infos && ScriptRegistry::isUnknownEvalshaRo(infos.error())) {
            // Redis < 7 (no EVALSHA_RO): collect() noted it on the connection and read
            // every reply; these keys again with EVALSHA, after the SCAN reply.
            page.reread = w.toRead;
            infos = QList<KeyInfo>{};
        }
        if (!infos) {
            if (!infos.error().isConnectionLoss()) {
                return failWith(infos.error());
            }
            if (auto r = recover(infos.error()); !r) {
                return stopWith(r.error());
            }
            return Flow::Again; // the same round trip again
        }
        m_noScriptRetries = 0;
        if (m_reader.takePermissionRefusal()) {
            // A NOPERM chunk: read these keys again, key by key, after the SCAN reply.
            page.reread = w.toRead;
            infos->clear();
        }
        w.toRead.clear();
        page.keys.reserve(infos->size());
        deliver(*infos, page.keys);
        return Flow::Next;
    }

    // The SCAN of the next page: its cursor, and its keys not seen before to be read.
    Flow readScanPage(Walk &w, Page &page)
    {
        // Keys read before a failure here are delivered first: never lost.
        auto deliverRead = [&] {
            if (!page.keys.isEmpty() && m_onPage) {
                m_onPage(page.keys, m_progress);
            }
            page.keys.clear();
        };
        auto scan = m_c.readRaw();
        if (!scan) {
            deliverRead();
            w.toRead = page.reread;
            if (auto r = recover(scan.error()); !r) {
                return stopWith(r.error());
            }
            return Flow::Again;
        }
        const redis::ReplyView r(*scan);
        if (!r.isArray()) {
            deliverRead();
        }
        if (r.isError()) {
            // The kind is the taxonomy's (an ACL's NOPERM is auth), the words ours.
            Error e = r.error();
            e.message = u"Redis at %1 refused SCAN: %2; listing keys needs SCAN (is it "
                        "renamed, or denied to this user by an ACL?)"_s.arg(m_where, e.message);
            return failWith(e);
        }
        if (r.size() != 2 || !r[1].isArray()) {
            return failWith(Error::make(Error::Kind::Protocol,
                                        u"Redis at %1 answered SCAN with something that is "
                                        "not a cursor and a list of keys"_s.arg(m_where)));
        }
        w.cursor = r[0].toByteArray();
        w.started = true;
        ++m_progress.pages;
        queueUnseen(r[1], w.toRead);
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

    // Keys whose chunk was refused (NOPERM) or needs EVALSHA (Redis < 7), key by key.
    Flow rereadKeys(Walk &w, Page &page)
    {
        auto again = m_reader.read(m_c, page.reread);
        ++m_progress.roundTrips;
        if (!again) {
            if (!again.error().isConnectionLoss()) {
                return failWith(again.error());
            }
            if (auto r = recover(again.error()); !r) {
                return stopWith(r.error());
            }
            w.toRead << page.reread;
            return Flow::Again;
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

    // The next round trip now, so that Redis reads the next page while the callback works;
    // only when nothing paces the scan, no probe is due (it times an idle connection) and the
    // caller says its callback leaves the connection alone. The time of this round trip if
    // the next was sent, else 0.
    qint64 overlapNextRoundTrip(Walk &w)
    {
        if ((w.cursor != "0" || !w.toRead.isEmpty() || followerDue(w)) && m_pace <= 0 &&
            !probeDue() && !cancelled(m_options) && m_options.pageNeedsConnection &&
            !m_options.pageNeedsConnection()) {
            const qint64 roundTripNs = w.rt.nsecsElapsed();
            send(w);
            (void)m_c.flush(); // a failure breaks the connection: the reads say so, and
                               // recover() sends the round trip again
            w.inFlight = true;
            return roundTripNs;
        }
        return 0;
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
    void adaptCount(bool slowed, qint64 spentMs)
    {
        const qint64 target = m_options.targetRoundTrip.count();
        if (!slowed && spentMs * 2 < target) {
            m_count = std::min(m_count * 2, m_options.maxCount);
        } else if (!slowed && spentMs > target) {
            m_count = std::max(m_count / 2, m_options.minCount);
        }
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
