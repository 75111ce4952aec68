#pragma once

// What several tests build, list or print the same way: a row per algorithm, a decision in
// one line, the nginx binary, and a real load run recorded into the statistics.

#include "core/limiter/decision.h"
#include "core/load/loadgenerator.h"
#include "core/rules/rule.h"

#include "core/redis/connection.h"
#include "core/stats/statsreader.h"

#include <QString>

class QTemporaryDir;

namespace sluice {
class LocalModel;
}

namespace sluice::test {

// The current test's data: an int column "algorithm" and a row per algorithm (named by it).
void addAlgorithmRows();
// The algorithm of the current row (of addAlgorithmRows() or any int column "algorithm").
Algorithm fetchAlgorithm();
// A rule set of `rules` (the file's version 1, nothing staged).
RuleSet setOf(std::vector<Rule> rules);
// "{allowed limit remaining retryAfterMs resetAfterMs delayMs}", for failure messages.
QString describe(const Decision &d);
// A policy change on `key` as `twin` decides it, on times of its own: `first` requests under
// `before` (every one admitted), then `then` under `after`, `stepUs` apart. How many of the
// latter it admits; -1 when it denied one of the first.
int twinAdmitsAfterChange(LocalModel &twin, const Policy &before, int first, const Policy &after,
                          int then, const QByteArray &key, qint64 stepUs);
// `p`'s script run on `c` (loaded first) for `key`: EVALSHA with p's parameters, then `args`
// (cost, now, TTL, version, on_change, ...).
Result<Reply> runScript(Connection &c, const Policy &p, const QByteArray &key,
                        const QList<QByteArray> &args);
// The nginx executable of this machine; empty when there is none (the test then skips).
QString nginxBinary();
// The head of an nginx.conf whose files all live in `dir` (pid, logs, temp paths), opening
// the http block that the test fills and closes.
QString nginxConfHead(const QString &dir);
// A load run of `rules` on `e`: `perSecond` requests a second, constant, from `subjects`
// subjects for `durationUs`, on two threads.
load::LoadOptions constantLoad(const Endpoint &e, const RuleSet &rules, qint64 perSecond,
                               qint64 durationUs, int subjects);
// Runs `o` to its end with its decisions recorded and flushed to o.endpoint's statistics, as
// the Load page does; the final progress (with `error` set when it could not start).
load::LoadProgress recordedLoad(load::LoadOptions o, int timeoutMs = 20'000);
// What the statistics hold for `ruleId` over the last `seconds`, summed.
stats::Counts recordedCounts(Connection &c, const QString &ruleId, int seconds = 60);
// Writes `bytes` to `path` (replacing what was there): false when it could not.
bool writeFile(const QString &path, const QByteArray &bytes);
// Writes `contents` to `name` in `dir`: its path (a warning when it could not).
QString fileIn(const QTemporaryDir &dir, const QString &name, const QByteArray &contents);

// Spring Cloud Gateway's RedisRateLimiter script (request_rate_limiter.lua), restated command
// for command: KEYS tokens, timestamp; ARGV rate, capacity, (unused: now), requested. The
// source and commit it was read from are in testdata.cpp.
QByteArray springGatewayScript();

} // namespace sluice::test
