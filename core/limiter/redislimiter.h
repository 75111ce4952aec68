#pragma once

#include "limiter.h"

#include "core/redis/connection.h"
#include "core/redis/scriptregistry.h"

#include <array>
#include <optional>
#include <string>

namespace sluice {

// Decisions by the lua/ scripts in Redis, over one connection: EVALSHA per decision, or many
// EVALSHA pipelined in one round trip for a batch.
class RedisLimiter final : public Limiter
{
public:
    explicit RedisLimiter(Connection connection,
                          const ScriptRegistry &scripts = ScriptRegistry::builtin());
    // Over a connection the caller owns (a LazyConnection's, which decides when it reconnects);
    // it must outlive the limiter.
    explicit RedisLimiter(Connection *borrowed,
                          const ScriptRegistry &scripts = ScriptRegistry::builtin());

    Result<Decision> decide(const Request &request) override;
    Result<std::vector<Result<Decision>>> decideBatch(std::span<const Request> requests) override;

    Connection &connection() { return m_borrowed != nullptr ? *m_borrowed : *m_owned; }

    // The script a policy runs, or an Internal error if the registry lacks it.
    Result<const ScriptRegistry::Script *> scriptFor(const Policy &policy) const;

private:
    // Encodes one EVALSHA into m_out (RESP, no hiredis formatting: this is the hot path).
    void encodeRequest(const Request &request, const ScriptRegistry::Script &script);

    std::optional<Connection> m_owned;
    Connection *m_borrowed = nullptr; // else m_owned
    const ScriptRegistry &m_scripts;
    // The script of each Algorithm (indexed by its value): looked up once, not per request.
    std::array<const ScriptRegistry::Script *, std::size(algorithm::all)> m_byAlgorithm{};
    // The script arguments of the last policy seen (a batch usually has one policy), and the
    // parameters they were made from.
    Policy m_argsFor;
    QList<QByteArray> m_args;
    QList<QByteArray> m_tail; // Policy::versionArgs(): '' (min_ttl_ms), version, on_change[, '1']
    std::string m_out;        // the batch's commands, reused from batch to batch
};

} // namespace sluice
