#include "redislimiter.h"

#include "redis/errors.h"

#include <hiredis/hiredis.h>

#include <set>

namespace sluice {

namespace {

Error badReply(const ScriptRegistry::Script &script, const QString &why)
{
    return Error::make(Error::Kind::Protocol,
                       QStringLiteral("the %1 script replied %2; expected six integers")
                           .arg(script.name, why));
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
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("cost must be an integer >= 0, got %1").arg(request.cost));
    }
    return {};
}

} // namespace

RedisLimiter::RedisLimiter(Connection connection, const ScriptRegistry &scripts)
    : m_connection(std::move(connection))
    , m_scripts(scripts)
{
}

Result<const ScriptRegistry::Script *> RedisLimiter::scriptFor(const Policy &policy) const
{
    const QString name = algorithm::name(policy.algorithm);
    const ScriptRegistry::Script *s = m_scripts.find(name);
    if (s == nullptr) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("the script %1.lua is not embedded").arg(name));
    }
    return s;
}

Result<void> RedisLimiter::appendRequest(const Request &request)
{
    auto script = scriptFor(*request.policy);
    if (!script) {
        return script.error();
    }
    // EVALSHA sha 1 key <policy args (2 or 3)> cost now_us [min_ttl_ms]
    const QList<QByteArray> policyArgs = request.policy->scriptArgs();
    const QByteArray cost = QByteArray::number(request.cost);
    const QByteArray now = request.nowUs ? QByteArray::number(*request.nowUs) : QByteArray();
    const QByteArray minTtl = QByteArray::number(request.minTtlMs);
    const char *argv[10];
    size_t len[10];
    int n = 0;
    auto push = [&](const QByteArray &b) {
        argv[n] = b.constData();
        len[n] = size_t(b.size());
        ++n;
    };
    static const QByteArray evalsha = QByteArrayLiteral("EVALSHA");
    static const QByteArray one = QByteArrayLiteral("1");
    push(evalsha);
    push((*script)->sha);
    push(one);
    push(request.key);
    for (const QByteArray &a : policyArgs) {
        push(a);
    }
    push(cost);
    push(now);
    if (request.minTtlMs > 0) {
        push(minTtl);
    }
    m_connection.append(n, argv, len);
    return {};
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
    // SCRIPT LOAD what this connection has not loaded yet (once per script and connection).
    std::set<const ScriptRegistry::Script *> needed;
    for (const Request &req : requests) {
        if (req.policy != nullptr) {
            if (auto s = scriptFor(*req.policy)) {
                needed.insert(*s);
            }
        }
    }
    for (const ScriptRegistry::Script *s : needed) {
        if (auto r = ScriptRegistry::ensureLoaded(m_connection, *s); !r) {
            return r.error();
        }
    }

    std::vector<bool> sent(requests.size(), false);
    for (size_t i = 0; i < requests.size(); ++i) {
        auto ok = checkRequest(requests[i]);
        if (ok) {
            ok = appendRequest(requests[i]);
        }
        if (ok) {
            sent[i] = true;
            out.emplace_back(Decision{});
        } else {
            out.emplace_back(ok.error());
        }
    }
    std::vector<size_t> noScript;
    for (size_t i = 0; i < requests.size(); ++i) {
        if (!sent[i]) {
            continue;
        }
        auto raw = m_connection.readRaw();
        if (!raw) {
            return raw.error();
        }
        auto d = toDecision(**scriptFor(*requests[i].policy), raw->get());
        if (!d && d.error().kind == Error::Kind::NoScript) {
            noScript.push_back(i);
        }
        out[i] = std::move(d);
    }
    if (!noScript.empty()) {
        // The script cache was flushed between SCRIPT LOAD and these calls (SCRIPT FLUSH, a
        // restart, a failover): nothing ran for them. Load again and retry them once, in order.
        m_connection.loadedScripts().clear();
        for (const ScriptRegistry::Script *s : needed) {
            if (auto r = ScriptRegistry::ensureLoaded(m_connection, *s); !r) {
                return r.error();
            }
        }
        for (size_t i : noScript) {
            if (auto r = appendRequest(requests[i]); !r) {
                out[i] = r.error();
            }
        }
        for (size_t i : noScript) {
            auto raw = m_connection.readRaw();
            if (!raw) {
                return raw.error();
            }
            out[i] = toDecision(**scriptFor(*requests[i].policy), raw->get());
        }
    }
    return out;
}

} // namespace sluice
