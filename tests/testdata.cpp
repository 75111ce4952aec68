#include "testdata.h"

#include "core/limiter/localmodel.h"
#include "core/redis/scriptregistry.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

namespace sluice::test {

void addAlgorithmRows()
{
    QTest::addColumn<int>("algorithm");
    for (Algorithm a : algorithm::all) {
        QTest::newRow(qPrintable(algorithm::name(a))) << int(a);
    }
}

Algorithm fetchAlgorithm()
{
    QFETCH(int, algorithm);
    return Algorithm(algorithm);
}

QString describe(const Decision &d)
{
    return QStringLiteral("{%1 %2 %3 %4 %5 %6}")
        .arg(int(d.allowed))
        .arg(d.limit)
        .arg(d.remaining)
        .arg(d.retryAfterMs)
        .arg(d.resetAfterMs)
        .arg(d.delayMs);
}

RuleSet setOf(std::vector<Rule> rules)
{
    RuleSet s;
    s.rules = std::move(rules);
    return s;
}

Result<Reply> runScript(Connection &c, const Policy &p, const QByteArray &key,
                        const QList<QByteArray> &args)
{
    const auto *script = ScriptRegistry::builtin().find(algorithm::name(p.algorithm));
    if (!script) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("no script for ") + algorithm::name(p.algorithm));
    }
    if (auto loaded = ScriptRegistry::ensureLoaded(c, *script); !loaded.ok()) {
        return loaded.error();
    }
    QList<QByteArray> cmd{"EVALSHA", script->sha, "1", key};
    cmd << p.scriptArgs() << args;
    return c.command(cmd);
}

int twinAdmitsAfterChange(LocalModel &twin, const Policy &before, int first, const Policy &after,
                          int then, const QByteArray &key, qint64 stepUs)
{
    qint64 now = 1'700'000'000'000'000;
    for (int i = 0; i < first; ++i) {
        const auto d = twin.decide(Request{&before, key, 1, now += stepUs, 0});
        if (!d || !d->allowed) {
            return -1;
        }
    }
    int admitted = 0;
    for (int i = 0; i < then; ++i) {
        const auto d = twin.decide(Request{&after, key, 1, now += stepUs, 0});
        admitted += d && d->allowed ? 1 : 0;
    }
    return admitted;
}

QString nginxBinary()
{
    for (const char *p : {"/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"}) {
        if (QFileInfo(QString::fromLatin1(p)).isExecutable()) {
            return QString::fromLatin1(p);
        }
    }
    return {};
}

QString nginxConfHead(const QString &dir)
{
    return QStringLiteral("pid %1/nginx.pid;\n"
                          "error_log %1/error.log;\n"
                          "events {}\n"
                          "http {\n"
                          "    access_log off;\n"
                          "    client_body_temp_path %1/tmp-body;\n"
                          "    proxy_temp_path %1/tmp-proxy;\n"
                          "    fastcgi_temp_path %1/tmp-fastcgi;\n"
                          "    uwsgi_temp_path %1/tmp-uwsgi;\n"
                          "    scgi_temp_path %1/tmp-scgi;\n")
        .arg(dir);
}

load::LoadOptions constantLoad(const Endpoint &e, const RuleSet &rules, qint64 perSecond,
                               qint64 durationUs, int subjects)
{
    load::LoadOptions o;
    o.endpoint = e;
    o.rules = rules;
    o.pattern.kind = sim::TrafficPattern::Kind::Constant;
    o.pattern.rate = Rate{perSecond, 1'000'000};
    o.durationUs = durationUs;
    o.threads = 2;
    o.subjects = subjects;
    return o;
}

load::LoadProgress recordedLoad(load::LoadOptions o, int timeoutMs)
{
    stats::StatsRecorder recorder;
    stats::StatsFlusher flusher(o.endpoint, &recorder);
    flusher.start();
    o.recorder = &recorder;
    load::LoadGenerator generator(o);
    if (auto r = generator.start(); !r) {
        load::LoadProgress failed;
        failed.error = r.error().message;
        return failed;
    }
    if (!QTest::qWaitFor([&] { return generator.progress().finished; }, timeoutMs)) {
        generator.cancel();
    }
    generator.wait();
    flusher.stop(); // writes everything before returning
    return generator.progress();
}

stats::Counts recordedCounts(Connection &c, const QString &ruleId, int seconds)
{
    stats::Counts total;
    auto s = stats::readSeries(c, {ruleId}, seconds, QDateTime::currentSecsSinceEpoch());
    if (!s) {
        // The counts are then zero, which the caller's check reports; this says why.
        qWarning("cannot read the statistics of %s: %s", qPrintable(ruleId),
                 qPrintable(s.error().message));
    } else if (!s->isEmpty()) {
        for (const stats::Counts &x : s->first().seconds) {
            total += x;
        }
    }
    return total;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QString fileIn(const QTemporaryDir &dir, const QString &name, const QByteArray &contents)
{
    const QString path = dir.filePath(name);
    if (!writeFile(path, contents)) {
        qWarning("cannot write %s", qPrintable(path));
    }
    return path;
}

// Spring Cloud Gateway's RedisRateLimiter script, restated command for command from
// spring-cloud-gateway-server-webflux/src/main/resources/META-INF/scripts/request_rate_limiter.lua
// (spring-cloud/spring-cloud-gateway, commit eea8e83dcb5a3ff70025f74bb42c450cc10a3072): the same
// GETs, arithmetic and the two SETEX of floor(2 x capacity / rate) seconds, time from TIME.
// KEYS tokens, timestamp; ARGV rate, capacity, (unused: now), requested.
QByteArray springGatewayScript()
{
    return R"(local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = t[1] + (t[2] / 1000000)
local requested = tonumber(ARGV[4])
local ttl = math.floor(capacity / rate * 2)
local tokens = tonumber(redis.call('get', KEYS[1])) or capacity
local stamp = tonumber(redis.call('get', KEYS[2])) or 0
local filled = math.min(capacity, tokens + math.max(0, now - stamp) * rate)
local allowed = filled >= requested
local left = filled
if allowed then left = filled - requested end
if ttl > 0 then
  redis.call('setex', KEYS[1], ttl, left)
  redis.call('setex', KEYS[2], ttl, now)
end
return { allowed and 1 or 0, left })";
}

} // namespace sluice::test
