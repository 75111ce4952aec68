#include "adoption.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace sluice::adoption {

namespace {

using S = CounterScript;
constexpr std::pair<S, const char *> scripts[] = {{S::GetIncrExpire, "get_incr_expire"},
                                                  {S::IncrExpire, "incr_expire"},
                                                  {S::IncrRepairTtl, "incr_repair_ttl"},
                                                  {S::Calendar, "calendar"},
                                                  {S::GetThenIncr, "get_then_incr"}};

} // namespace

QString scriptName(CounterScript s)
{
    for (const auto &[script, name] : scripts) {
        if (script == s) {
            return QString::fromLatin1(name);
        }
    }
    return {};
}

std::optional<CounterScript> scriptFromName(const QString &name)
{
    for (const auto &[script, n] : scripts) {
        if (name == QLatin1String(n)) {
            return script;
        }
    }
    return std::nullopt;
}

QString scriptNames()
{
    QStringList out;
    for (const auto &entry : scripts) {
        out << QString::fromLatin1(entry.second);
    }
    return out.join(u", "_s);
}

const std::vector<LayoutId> &layoutIds()
{
    static const std::vector<LayoutId> ids = {
        {"sluice_fixed_window", false, {}},
        {"sluice_sliding_counter", false, {}},
        {"sluice_token_bucket", false, {}},
        {"sluice_leaky_bucket", false, {}},
        {"sluice_sliding_log", false, {}},
        {"sluice_gcra", false, {}},
        {"kong_counter", true, S::Calendar},
        {"spring_gateway_tokens", false, {}},
        {"spring_gateway_timestamp", false, {}},
        {"nestjs_hits", false, {}},
        {"nestjs_blocked", false, {}},
        {"fastify_counter", true, S::IncrExpire},
        {"redisson_value", false, {}},
        {"redisson_permits", false, {}},
        {"redis_cell", false, {}},
        {"redis_rate", false, {}},
        {"rlflx", true, S::IncrRepairTtl},
        {"rlflx_block", false, {}},
        {"rate_limit_redis", true, S::IncrRepairTtl},
        {"rack_attack_counter", false, {}},
        {"rack_attack_ban", false, {}},
        {"limits_fixed_window", false, {}},
        {"limits_moving_window", false, {}},
        {"django_ratelimit", false, {}},
        {"laravel_timer", false, {}},
        {"laravel_counter", false, {}},
        {"envoy_counter", true, S::Calendar},
        {"string_counter", true, S::GetIncrExpire},
        {"bucket4j", false, {}},
        {"redisson_config", false, {}},
        {"laravel_duration", false, {}},
        {"sorted_set_log", true, {}},
    };
    return ids;
}

const LayoutId *findLayoutId(const QString &id)
{
    for (const LayoutId &l : layoutIds()) {
        if (id == QLatin1String(l.id)) {
            return &l;
        }
    }
    return nullptr;
}

QString adoptableIds()
{
    QStringList out;
    for (const LayoutId &l : layoutIds()) {
        if (l.adoptable) {
            out << QString::fromLatin1(l.id);
        }
    }
    return out.join(u", "_s);
}

std::optional<CounterScript> counterScriptOf(const Adopt &adopt)
{
    const LayoutId *l = findLayoutId(adopt.layout);
    if (l == nullptr || !l->script) {
        return std::nullopt;
    }
    if (!adopt.script.isEmpty()) {
        return scriptFromName(adopt.script);
    }
    return l->script;
}

} // namespace sluice::adoption
