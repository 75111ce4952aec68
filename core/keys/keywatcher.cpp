#include "keywatcher.h"

#include "layouts.h"

#include "core/common/glob.h"
#include "core/common/names.h"

#include <QDateTime>
#include <QHash>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

// The globs of the layouts whose key says the limit: Spring Cloud Gateway's tokens, and the
// block keys (@nestjs/throttler's ...}:blocked and rate-limiter-flexible's block:..., one glob;
// Rack::Attack's bans).
const QList<QByteArray> inKeyGlobs = {QByteArrayLiteral("request_rate_limiter.*.tokens"),
                                      QByteArrayLiteral("*block*"),
                                      QByteArrayLiteral("rack::attack:*ban:*")};

qint64 serverNowUs(Connection &c)
{
    auto t = c.command({QByteArrayLiteral("TIME")});
    if (t && t->isArray() && t->elements.size() == 2) {
        return t->elements[0].str.toLongLong() * 1'000'000 + t->elements[1].str.toLongLong();
    }
    return QDateTime::currentMSecsSinceEpoch() * 1000;
}

int rank(WatchLevel l)
{
    return int(l);
}

// What compare() works on for each key of the second sample: a WatchedSubject without its copy
// of the key (a million keys compared hold 56 bytes each, not a second WatchedKey).
struct Row : WatchFigures
{
    const WatchedKey *key = nullptr;
};

// The counts of one key between two reads, into `s`.
void deltaOf(Row &s, const WatchedKey &before, const WatchedKey &after)
{
    if (!after.counter || !after.count || !before.count) {
        return;
    }
    const qint64 c1 = *before.count, c2 = *after.count;
    // A window that restarted: the count fell, or (a key reused from window to window) the TTL
    // went up although time passed, which only a new window's EXPIRE does.
    const bool ttlSetAgain = !after.orphanByName && before.pttlMs >= 0 && after.pttlMs >= 0 &&
                             after.pttlMs > before.pttlMs;
    const qint64 limit = after.limit;
    if (c2 < c1 || ttlSetAgain) {
        s.change = WatchChange::Reset;
        s.lowerBound = true;
        s.counted = c2;
        s.admitted = limit > 0 ? std::min(c2, limit) : -1;
    } else {
        s.counted = c2 - c1;
        s.admitted =
            limit > 0 ? std::max<qint64>(0, std::min(c2, limit) - std::min(c1, limit)) : -1;
    }
}

void ratesOf(Row &s, qint64 dtUs)
{
    if (dtUs <= 0) {
        return;
    }
    const double seconds = double(dtUs) / 1e6;
    if (s.counted >= 0) {
        s.countedPerS = double(s.counted) / seconds;
    }
    if (s.admitted >= 0) {
        s.admittedPerS = double(s.admitted) / seconds;
    }
}

// Counts the subject into the report's figures.
void addFigures(WatchReport &r, const Row &s)
{
    if (s.level == WatchLevel::At || s.level == WatchLevel::Over) {
        ++r.limitedCount;
    } else if (s.level == WatchLevel::Near) {
        ++r.nearCount;
    }
    if (s.admittedPerS >= 0) {
        r.admittedSum = std::max(r.admittedSum, 0.0) + s.admittedPerS;
    }
    if (s.countedPerS >= 0) {
        r.countedSum = std::max(r.countedSum, 0.0) + s.countedPerS;
    }
}

} // namespace

QString watchLevelName(WatchLevel l)
{
    using enum WatchLevel;
    constexpr Named<WatchLevel> names[] = {
        {Under, u"under"}, {Near, u"near"}, {At, u"at"}, {Over, u"over"}};
    return nameIn(names, l, u"under");
}

QString watchChangeName(WatchChange c)
{
    using enum WatchChange;
    constexpr Named<WatchChange> names[] = {
        {Steady, u"steady"}, {New, u"new"}, {Reset, u"reset"}, {Expired, u"expired"}};
    return nameIn(names, c, u"steady");
}

QString WatchReport::resolution() const
{
    // Tenths of a second: "sampled every 2 s", "sampled every 2.4 s".
    const double s = std::round(double(intervalMs) / 100.0) / 10.0;
    return u"sampled every %1 s"_s.arg(QString::number(s, 'f', s == std::floor(s) ? 0 : 1));
}

QList<QByteArray> KeyWatcher::defaultPatterns(const QList<Adoption> &adoptions)
{
    QList<QByteArray> out;
    for (const Adoption &a : adoptions) {
        if (!out.contains(a.match)) {
            out << a.match;
        }
    }
    for (const QByteArray &g : inKeyGlobs) {
        if (!out.contains(g)) {
            out << g;
        }
    }
    if (out.contains(QByteArrayLiteral("*"))) {
        return {QByteArrayLiteral("*")}; // one walk covers every other glob
    }
    return out;
}

std::optional<WatchedKey> KeyWatcher::watchedOf(const AuditEntry &e)
{
    if (e.layout.isEmpty() || e.health == AuditHealth::Unknown ||
        e.health == AuditHealth::LooksLike) {
        return std::nullopt;
    }
    const Layout *l = findLayout(e.layout);
    if (l == nullptr) {
        return std::nullopt;
    }
    WatchedKey w;
    w.key = e.key;
    w.layout = QLatin1String(l->id);
    w.pttlMs = e.pttlMs;
    w.readUs = e.readUs;
    w.windowMs = e.windowMs;
    w.orphanByName = l->lostTtl == LostTtl::OrphanedByWindowInName;
    switch (limitFrom(*l)) {
    case LimitFrom::Adoption:
        if (e.ruleId.isEmpty() || e.limit <= 0) {
            return std::nullopt; // recognised, but nobody said its limit
        }
        w.ruleId = e.ruleId;
        w.limit = e.limit;
        w.counter = l->decoder == Decoder::Counter || l->decoder == Decoder::Points;
        w.count = w.counter        ? e.count
                  : e.entries >= 0 ? std::optional<qint64>(e.entries)
                                   : std::nullopt;
        if (!w.count) {
            return std::nullopt;
        }
        return w;
    case LimitFrom::TokensLeft:
        if (!e.tokens) {
            return std::nullopt;
        }
        w.tokens = e.tokens;
        return w;
    case LimitFrom::BlockKey:
        w.blockKey = true;
        return w;
    case LimitFrom::SluiceRule:
    case LimitFrom::Unknown:
        break;
    }
    return std::nullopt;
}

WatchSample KeyWatcher::sample(Connection &c, const Options &options)
{
    WatchSample s;
    s.patterns = options.patterns.isEmpty() ? defaultPatterns(options.adoptions) : options.patterns;
    s.startUs = serverNowUs(c);
    KeyAuditor::Options ao;
    ao.scan = options.scan;
    ao.scan.patterns = s.patterns;
    if (s.patterns.size() > 1) {
        // One walk of the keyspace for every glob, matched here: a SCAN walk costs Redis the
        // whole keyspace whatever its MATCH, and the scan budget counts every key walked.
        ao.scan.patterns = {QByteArrayLiteral("*")};
        ao.scan.keyFilter = [globs = s.patterns](QByteArrayView key) {
            return std::any_of(globs.begin(), globs.end(), [&](const QByteArray &g) {
                return glob::matches(g, key, glob::Syntax::Redis);
            });
        };
    }
    ao.adoptions = options.adoptions;
    ao.pageUsesConnection = false; // the values ride in the scan's round trips (valuereads.h)
    std::atomic<bool> stop{false};
    ao.scan.cancel = &stop;
    const AuditReport report =
        KeyAuditor::run(c, ao, [&](const QList<AuditEntry> &page, const ScanProgress &) {
            if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
                stop = true;
            }
            for (const AuditEntry &e : page) {
                auto w = watchedOf(e);
                if (!w) {
                    continue;
                }
                if (s.keys.size() >= options.maxKeys) {
                    s.truncated = true;
                    stop = true;
                    break;
                }
                s.keys << std::move(*w);
            }
        });
    s.scan = report.scan;
    s.roundTrips = report.scan.progress.roundTrips + 2; // and the two TIMEs
    if (report.scan.status == ScanSummary::Status::Failed) {
        s.error = report.scan.error;
    }
    s.endUs = serverNowUs(c);
    return s;
}

WatchLevel KeyWatcher::levelOf(const WatchedKey &k, double nearFraction)
{
    if (k.blockKey) {
        return WatchLevel::Over;
    }
    if (k.tokens) {
        return *k.tokens < 1.0 ? WatchLevel::At : WatchLevel::Under;
    }
    if (k.limit <= 0 || !k.count) {
        return WatchLevel::Under;
    }
    const qint64 n = *k.count;
    if (n > k.limit) {
        return WatchLevel::Over;
    }
    if (n == k.limit) {
        return WatchLevel::At;
    }
    return double(n) >= nearFraction * double(k.limit) ? WatchLevel::Near : WatchLevel::Under;
}

WatchReport KeyWatcher::compare(const WatchSample &before, const WatchSample &after,
                                double nearFraction, qsizetype maxSubjects)
{
    WatchReport r;
    r.intervalMs = std::max<qint64>(0, (after.startUs - before.startUs) / 1000);
    r.truncated = after.truncated;
    r.roundTrips = after.roundTrips;
    QHash<QByteArray, const WatchedKey *> earlier;
    earlier.reserve(before.keys.size());
    for (const WatchedKey &k : before.keys) {
        earlier.insert(k.key, &k);
    }
    std::vector<Row> rows;
    rows.reserve(size_t(after.keys.size()));
    for (const WatchedKey &k : after.keys) {
        Row s;
        s.key = &k;
        s.level = levelOf(k, nearFraction);
        const auto it = earlier.constFind(k.key);
        if (it == earlier.constEnd()) {
            s.change = WatchChange::New;
            if (k.counter && k.count) {
                s.counted = *k.count;
                s.admitted = k.limit > 0 ? std::min(*k.count, k.limit) : -1;
            }
            ratesOf(s, after.startUs - before.startUs);
        } else {
            deltaOf(s, **it, k);
            ratesOf(s, k.readUs - (*it)->readUs);
            earlier.erase(it);
        }
        addFigures(r, s);
        rows.push_back(s);
    }
    r.watched = after.keys.size();
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.level != b.level) {
            return rank(a.level) > rank(b.level);
        }
        if (a.countedPerS != b.countedPerS) {
            return a.countedPerS > b.countedPerS;
        }
        if (a.key->count.value_or(0) != b.key->count.value_or(0)) {
            return a.key->count.value_or(0) > b.key->count.value_or(0);
        }
        return a.key->key < b.key->key;
    });
    const size_t kept = std::min(rows.size(), size_t(std::max<qsizetype>(maxSubjects, 0)));
    r.subjects.reserve(qsizetype(kept));
    for (size_t i = 0; i < kept; ++i) {
        const Row &row = rows[i];
        WatchedSubject s;
        static_cast<WatchFigures &>(s) = row;
        s.now = *row.key;
        r.subjects << std::move(s);
    }
    // The keys gone since the first sample, in its order (the hash's order is not stable).
    for (const WatchedKey &k : before.keys) {
        if (earlier.contains(k.key) && r.subjects.size() < maxSubjects) {
            WatchedSubject s;
            s.now = k;
            s.change = WatchChange::Expired;
            r.subjects << std::move(s);
        }
    }
    r.expired = earlier.size();
    return r;
}

} // namespace sluice::keys
