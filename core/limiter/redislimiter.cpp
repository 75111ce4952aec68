#include "redislimiter.h"

#include "redis/errors.h"

#include <hiredis/hiredis.h>

namespace sluice {

namespace {

Error badReply(const ScriptRegistry::Script &script, const QString &why)
{
    return Error::make(
        Error::Kind::Protocol,
        QStringLiteral("the %1 script replied %2; expected six integers").arg(script.name, why));
}

Result<Decision> toDecision(const ScriptRegistry::Script &script, const redisReply *r)
{
    if (r->type == REDIS_REPLY_ERROR) {
        return redis::replyError(r);
    }
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 6) {
        return badReply(script, QStringLiteral("something else (type %1)").arg(r->type));
    }
    qint64 v[6];
    for (size_t i = 0; i < 6; ++i) {
        if (r->element[i]->type != REDIS_REPLY_INTEGER) {
            return badReply(script, QStringLiteral("a non-integer in slot %1").arg(i + 1));
        }
        v[i] = r->element[i]->integer;
    }
    return Decision{v[0] != 0, v[1], v[2], v[3], v[4], v[5]};
}

Result<void> checkRequest(const Request &request)
{
    if (request.policy == nullptr) {
        return Error::make(Error::Kind::Internal, QStringLiteral("request without a policy"));
    }
    if (request.cost < 0) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("cost must be an integer >= 0, got %1").arg(request.cost));
    }
    return {};
}

} // namespace

RedisLimiter::RedisLimiter(Connection connection, const ScriptRegistry &scripts)
    : m_connection(std::move(connection))
    , m_scripts(scripts)
{
    for (Algorithm a : algorithm::all) {
        m_byAlgorithm[size_t(a)] = m_scripts.find(algorithm::name(a));
    }
}

Result<const ScriptRegistry::Script *> RedisLimiter::scriptFor(const Policy &policy) const
{
    const ScriptRegistry::Script *s = m_byAlgorithm[size_t(policy.algorithm)];
    if (s == nullptr) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("the script %1.lua is not embedded")
                               .arg(algorithm::name(policy.algorithm)));
    }
    return s;
}

void RedisLimiter::appendRequest(const Request &request, const ScriptRegistry::Script &script)
{
    const Policy &p = *request.policy;
    if (p.algorithm != m_argsFor.algorithm || p.limit != m_argsFor.limit ||
        p.windowUs != m_argsFor.windowUs || p.rate != m_argsFor.rate ||
        p.burst != m_argsFor.burst || m_args.isEmpty()) {
        m_args = p.scriptArgs();
        m_argsFor = p;
    }
    // EVALSHA sha 1 key <policy args (2 or 3)> cost now_us [min_ttl_ms]: small numbers and
    // the empty now_us need no allocation.
    static const QByteArray evalsha = QByteArrayLiteral("EVALSHA");
    static const QByteArray one = QByteArrayLiteral("1");
    static const QByteArray empty;
    const QByteArray cost = request.cost == 1 ? one : QByteArray::number(request.cost);
    const QByteArray now = request.nowUs ? QByteArray::number(*request.nowUs) : empty;
    const QByteArray minTtl =
        request.minTtlMs > 0 ? QByteArray::number(request.minTtlMs) : QByteArray();
    const char *argv[10];
    size_t len[10];
    int n = 0;
    auto push = [&](const QByteArray &b) {
        argv[n] = b.constData();
        len[n] = size_t(b.size());
        ++n;
    };
    push(evalsha);
    push(script.sha);
    push(one);
    push(request.key);
    for (const QByteArray &a : m_args) {
        push(a);
    }
    push(cost);
    push(now);
    if (request.minTtlMs > 0) {
        push(minTtl);
    }
    m_connection.append(n, argv, len);
}

Result<Decision> RedisLimiter::decide(const Request &request)
{
    auto batch = decideBatch(std::span<const Request>(&request, 1));
    if (!batch) {
        return batch.error();
    }
    return std::move(batch->front());
}

Result<std::vector<Result<Decision>>> RedisLimiter::decideBatch(std::span<const Request> requests)
{
    std::vector<Result<Decision>> out;
    out.reserve(requests.size());
    if (m_connection.isBroken()) {
        if (auto r = m_connection.reconnect(); !r) {
            return r.error();
        }
    }
    // Resolve each request's script; SCRIPT LOAD what this connection has not loaded yet
    // (once per script and connection, so in the steady state this costs nothing).
    std::vector<const ScriptRegistry::Script *> scripts(requests.size(), nullptr);
    for (size_t i = 0; i < requests.size(); ++i) {
        auto ok = checkRequest(requests[i]);
        if (ok) {
            if (auto s = scriptFor(*requests[i].policy)) {
                scripts[i] = *s;
                if (auto l = ScriptRegistry::ensureLoaded(m_connection, **s); !l) {
                    return l.error();
                }
            } else {
                ok = s.error();
            }
        }
        out.emplace_back(ok ? Result<Decision>(Decision{}) : Result<Decision>(ok.error()));
    }
    for (size_t i = 0; i < requests.size(); ++i) {
        if (scripts[i] != nullptr) {
            appendRequest(requests[i], *scripts[i]);
        }
    }
    std::vector<size_t> noScript;
    for (size_t i = 0; i < requests.size(); ++i) {
        if (scripts[i] == nullptr) {
            continue;
        }
        auto raw = m_connection.readRaw();
        if (!raw) {
            return raw.error();
        }
        out[i] = toDecision(*scripts[i], raw->get());
        if (!out[i] && out[i].error().kind == Error::Kind::NoScript) {
            noScript.push_back(i);
        }
    }
    if (!noScript.empty()) {
        // The script cache was flushed between SCRIPT LOAD and these calls (SCRIPT FLUSH, a
        // restart, a failover): nothing ran for them. Load again and retry them once, in order.
        // Load everything first: SCRIPT LOAD is a synchronous command and must not be
        // interleaved with pipelined replies.
        m_connection.loadedScripts().clear();
        for (size_t i : noScript) {
            if (auto l = ScriptRegistry::ensureLoaded(m_connection, *scripts[i]); !l) {
                return l.error();
            }
        }
        for (size_t i : noScript) {
            appendRequest(requests[i], *scripts[i]);
        }
        for (size_t i : noScript) {
            auto raw = m_connection.readRaw();
            if (!raw) {
                return raw.error();
            }
            out[i] = toDecision(*scripts[i], raw->get());
        }
    }
    return out;
}

} // namespace sluice
