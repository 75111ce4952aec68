#include "keystop.h"

#include "command.h"
#include "connectflags.h"
#include "keyrows.h"
#include "rules.h"

#include "core/keys/keyinfo.h"
#include "core/keys/keywatcher.h"
#include "core/redis/connection.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <cmath>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace sluice::cli {

namespace {

using namespace sluice::keys;

const QString command = u"keys top"_s;

QString usage()
{
    return usageOf(u"keys"_s);
}

QJsonValue orNull(qint64 v, qint64 none = -1)
{
    return v == none ? QJsonValue(QJsonValue::Null) : QJsonValue(v);
}

QJsonValue rate(double perS)
{
    return perS < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(std::round(perS * 100) / 100);
}

QString rateText(double perS)
{
    return perS < 0 ? u"-"_s : QString::number(perS, 'f', 1);
}

QJsonObject subjectJson(const WatchedSubject &s)
{
    const WatchedKey &k = s.now;
    return QJsonObject{
        {u"key"_s, bytes::printable(k.key)},
        {u"layout"_s, QString(k.layout)},
        {u"rule"_s, k.ruleId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(k.ruleId)},
        {u"limit"_s, orNull(k.limit, 0)},
        {u"count"_s, k.count ? QJsonValue(*k.count) : QJsonValue(QJsonValue::Null)},
        {u"tokens"_s, k.tokens ? QJsonValue(*k.tokens) : QJsonValue(QJsonValue::Null)},
        {u"blocked"_s, k.blockKey},
        {u"ttl_ms"_s, k.pttlMs},
        {u"level"_s, watchLevelName(s.level)},
        {u"change"_s, watchChangeName(s.change)},
        {u"counted"_s, orNull(s.counted)},
        {u"admitted"_s, orNull(s.admitted)},
        {u"counted_per_s"_s, rate(s.countedPerS)},
        {u"admitted_per_s"_s, rate(s.admittedPerS)},
        {u"lower_bound"_s, s.lowerBound}};
}

QByteArray reportJson(const WatchReport &r, const WatchSample &last, int count)
{
    QJsonArray subjects;
    for (const WatchedSubject &s : r.subjects) {
        if (subjects.size() >= count || s.change == WatchChange::Expired) {
            break;
        }
        subjects.append(subjectJson(s));
    }
    QJsonArray patterns;
    for (const QByteArray &p : last.patterns) {
        patterns.append(bytes::printable(p));
    }
    const QJsonObject o{
        {u"resolution"_s, r.resolution()},
        {u"interval_ms"_s, r.intervalMs},
        {u"watched"_s, r.watched},
        {u"limited"_s, r.limited()},
        {u"near"_s, r.near()},
        {u"expired"_s, r.expired},
        {u"admitted_per_s"_s, rate(r.admittedPerS())},
        {u"counted_per_s"_s, rate(r.countedPerS())},
        {u"subjects"_s, subjects},
        {u"patterns"_s, patterns},
        {u"complete"_s, last.scan.status == ScanSummary::Status::Completed && !last.truncated},
        {u"truncated"_s, last.truncated},
        {u"round_trips"_s, last.roundTrips},
        {u"no_touch"_s, last.scan.noTouch}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray reportText(const WatchReport &r, const WatchSample &last, int count)
{
    QStringList patterns;
    for (const QByteArray &p : last.patterns) {
        patterns << u"'"_s + bytes::printable(p) + u"'"_s;
    }
    QStringList lines;
    lines << u"keys top: %1, two samples of %2 (%3 round trips each%4)"_s.arg(
        r.resolution(), patterns.join(u", "_s), QString::number(last.roundTrips),
        last.scan.noTouch ? u", CLIENT NO-TOUCH"_s : QString());
    lines << u"watched %1 keys whose limit is known: %2 at or over it, %3 near it, %4 gone "
             "since the first sample"_s.arg(r.watched)
                 .arg(r.limited())
                 .arg(r.near())
                 .arg(r.expired);
    lines << u"admitted %1/s, counted %2/s (the counters' growth between the samples; counted "
             "includes denied requests where the library counts them)"_s.arg(
                 rateText(r.admittedPerS()), rateText(r.countedPerS()));
    if (last.truncated) {
        lines << u"stopped at the cap of watched keys: the rest are not in these figures"_s;
    }
    lines << QString();
    // The key last: a long one never pushes the other columns out of line.
    lines << padded(u"LEVEL"_s, 7) + padded(u"LAYOUT"_s, 24) + padded(u"NOW / LIMIT"_s, 16) +
                 padded(u"TTL"_s, 9) + padded(u"COUNTED/S"_s, 11) + padded(u"ADMITTED/S"_s, 12) +
                 padded(u"CHANGE"_s, 19) + u"KEY"_s;
    int shown = 0;
    for (const WatchedSubject &s : r.subjects) {
        if (shown++ >= count || s.change == WatchChange::Expired) {
            break;
        }
        const WatchedKey &k = s.now;
        const QString now = k.blockKey ? u"blocked"_s
                            : k.tokens ? u"%1 tokens"_s.arg(formatAmount(*k.tokens))
                            : k.count  ? u"%1 / %2"_s.arg(*k.count).arg(k.limit)
                                       : u"-"_s;
        lines << padded(watchLevelName(s.level), 7) + padded(QString(k.layout), 24) +
                     padded(now, 16) + padded(ttlText(k.pttlMs), 9) +
                     padded(rateText(s.countedPerS), 11) + padded(rateText(s.admittedPerS), 12) +
                     padded(watchChangeName(s.change) +
                                (s.lowerBound ? u" (at least)"_s : QString()),
                            19) +
                     bytes::printable(k.key);
    }
    if (shown == 0) {
        lines << u"(no watched key: give the limits of counters in a rule file's adopt blocks, "
                 "--rules FILE)"_s;
    }
    return (lines.join(u'\n') + u'\n').toUtf8();
}

// --interval S: seconds, a decimal from 0.2 to 3600.
std::optional<qint64> intervalMsOf(const Args &args)
{
    if (!args.has("interval")) {
        return 2000;
    }
    bool ok = false;
    const double s = args.raw("interval").toDouble(&ok);
    if (!ok || !std::isfinite(s) || s < 0.2 || s > 3600) {
        return std::nullopt;
    }
    return qint64(std::llround(s * 1000));
}

} // namespace

int keysTop(const Args &args)
{
    for (const char *bad : {"no-ttl", "health", "dry-run", "ttl", "delete", "any-key"}) {
        if (args.has(bad)) {
            return fail(command,
                        u"--%1 does not apply to `keys top`"_s.arg(QLatin1String(bad)) + usage(),
                        exitUsage);
        }
    }
    if (!args.positional().isEmpty()) {
        return fail(command,
                    u"unexpected argument '%1'"_s.arg(bytes::printable(args.positional().first())) +
                        usage(),
                    exitUsage);
    }
    if (!args.has("url")) {
        return fail(command, u"--url is required"_s + usage(), exitUsage);
    }
    const auto intervalMs = intervalMsOf(args);
    if (!intervalMs) {
        return fail(
            command,
            u"--interval '%1': seconds between the samples, from 0.2 to 3600 (e.g. 2)"_s.arg(
                bytes::printable(args.raw("interval"))) +
                usage(),
            exitUsage);
    }
    int count = 10;
    if (args.has("count")) {
        auto n = integerFlag(args, "count", 1, 10'000);
        if (!n) {
            return fail(command, n.error().message + usage(), exitUsage);
        }
        count = int(*n);
    }
    if (args.has("match") && args.raw("match").isEmpty()) {
        return fail(command, u"--match needs a glob, e.g. 'rl:*'"_s, exitUsage);
    }
    KeyWatcher::Options options;
    if (args.has("scan-budget")) {
        auto n = integerFlag(args, "scan-budget", 0, 100'000'000);
        if (!n) {
            return fail(command, n.error().message + usage(), exitUsage);
        }
        options.scan.maxKeysPerSecond = double(*n);
    }
    if (args.has("no-backoff")) {
        options.scan.latencyFactor = 0;
    }
    const CommandContext context(command, args);
    const Result<Endpoint> &endpoint = context.endpoint();
    if (!endpoint) {
        return fail(command, endpoint.error().message, exitUsage);
    }
    if (args.has("rules") || args.has("from-redis")) {
        int code = exitOk;
        auto loaded = loadRulesForCommand(args, command, &code);
        if (!loaded) {
            return code;
        }
        options.adoptions = adoptionsOf(loaded->set);
    }
    if (args.has("match")) {
        options.patterns << args.raw("match");
    }
    auto c = context.open();
    if (!c) {
        return fail(command, c.error().message, exitRuntime);
    }
    const bool json = args.has("json");
    const bool watch = args.has("watch");
    QElapsedTimer clock;
    clock.start();
    WatchSample before = KeyWatcher::sample(*c, options);
    for (;;) {
        if (before.error) {
            return fail(command, before.error->message, exitRuntime);
        }
        const qint64 wait = *intervalMs - clock.elapsed();
        if (wait > 0) {
            QThread::msleep(quint64(wait));
        }
        clock.restart();
        WatchSample after = KeyWatcher::sample(*c, options);
        if (after.error) {
            return fail(command, after.error->message, exitRuntime);
        }
        const WatchReport r = KeyWatcher::compare(before, after, options.nearFraction);
        const QByteArray out = json ? reportJson(r, after, count) : reportText(r, after, count);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
        std::fflush(stdout);
        if (!watch) {
            return exitOk;
        }
        if (!json) {
            std::fputs("\n", stdout);
        }
        before = std::move(after);
    }
}

} // namespace sluice::cli
