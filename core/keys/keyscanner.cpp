#include "keyscanner.h"

#include "core/redis/replyview.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <thread>

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

ScanSummary KeyScanner::run(Connection &c, const Options &options, const PageCallback &onPage)
{
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

    QSet<quint64> seen;
    int noScriptRetries = 0;
    int count = std::clamp(options.initialCount, options.minCount, options.maxCount);
    for (qsizetype pi = 0; pi < patterns.size(); ++pi) {
        const QByteArray &pattern = patterns[pi];
        QByteArray cursor = QByteArrayLiteral("0");
        bool started = false;
        QList<QByteArray> toRead; // listed by the last SCAN, not read yet
        while (true) {
            const bool needScan = !started || cursor != "0";
            if (!needScan && toRead.isEmpty()) {
                break;
            }
            if (cancelled(options)) {
                summary.status = ScanSummary::Status::Cancelled;
                progress.elapsedMs = clock.elapsed();
                return summary;
            }
            QElapsedTimer rt;
            rt.start();
            const QByteArray countText = QByteArray::number(count);
            if (!toRead.isEmpty()) {
                m_reader.append(c, toRead);
            }
            if (needScan) {
                c.append({QByteArrayLiteral("SCAN"), cursor, QByteArrayLiteral("MATCH"), pattern,
                          QByteArrayLiteral("COUNT"), countText});
            }

            // The reads of the previous page.
            QList<KeyInfo> page;
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
                toRead.clear();
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
                for (size_t i = 0, n = list.size(); i < n; ++i) {
                    QByteArray key = list[i].toByteArray();
                    const quint64 h = fingerprint(key.constData(), size_t(key.size()));
                    if (seen.contains(h)) {
                        ++summary.duplicates;
                        continue;
                    }
                    seen.insert(h);
                    toRead << std::move(key);
                }
            }
            ++progress.roundTrips;
            progress.count = count;
            const double within = cursor == "0" && started ? 1.0 : cursorFraction(cursor);
            progress.fraction = (double(pi) + within) / double(patterns.size());
            progress.elapsedMs = clock.elapsed();
            if (onPage) {
                onPage(page, progress);
            }

            // Adapt COUNT to the time this round trip took.
            const qint64 spent = rt.elapsed();
            const qint64 target = options.targetRoundTrip.count();
            if (spent * 2 < target) {
                count = std::min(count * 2, options.maxCount);
            } else if (spent > target) {
                count = std::max(count / 2, options.minCount);
            }
        }
    }
    progress.fraction = 1.0;
    progress.elapsedMs = clock.elapsed();
    return summary;
}

} // namespace sluice::keys
