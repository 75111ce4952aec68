#include "layouts.h"

// The table of layouts.h: one row per layout, data only. Each row names the file of the
// library it was read from (docs/FORMATS.md "keys audit" lists them with the versions read);
// tests/tst_layouts.cpp plants every row's keys as the library writes them, and
// tests/tst_real_limiters.cpp lets the libraries that install here (npm) write their own keys,
// take a TTL away and check that `lostTtl` says what the library then does.
namespace sluice::keys {

namespace {

using V = ValueShape;
using W = WindowFrom;
using D = Decoder;
using T = LostTtl;

// The words shared by rows of one library.
constexpr char sluiceTtl[] = "PEXPIRE with every admission: the end of what the state means";
constexpr char sluiceSource[] = "lua/*.lua (lua/README.md)";
constexpr char rlflxByDesign[] =
    "rate-limiter-flexible keeps a key without TTL on purpose: block(key, 0) (a block with no end "
    "until the subject's next consume, which gives the key the limiter's duration), a limiter with "
    "duration 0 (never resets), set(key, points, 0). A lost TTL comes back by itself: its script "
    "EXPIREs a key whose PTTL is -1 on the subject's next request";
constexpr char redissonByDesign[] =
    "Redisson keeps the limiter's keys without TTL unless keepAliveTime is set (the default "
    "is 0): its script refills them by time, so nobody is blocked";

} // namespace

// clang-format off
const QList<Layout> &layouts()
{
    static const QList<Layout> table = {
    {"sluice_fixed_window", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     V::SluiceFixed, "hash s (window start, us), c (count)", sluiceTtl, T::HealsOnNextRequest, "",
     W::SluiceRule, D::Sluice, false, false,
     "Sluice's fixed window: one count per window; the script sets the TTL in the same step",
     sluiceSource},
    {"sluice_sliding_counter", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     V::SluiceCounter, "hash s, c, p (this and the previous window's counts)", sluiceTtl,
     T::HealsOnNextRequest, "", W::SluiceRule, D::Sluice, false, false,
     "Sluice's sliding counter: two windows' counts, weighted", sluiceSource},
    {"sluice_token_bucket", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     V::SluiceBucket, "hash l (tokens, ticks), t (last refill, us)", sluiceTtl,
     T::HealsOnNextRequest, "", W::SluiceRule, D::Sluice, false, false,
     "Sluice's token bucket (a leaky bucket has the same fields: give the rules to tell them "
     "apart)", sluiceSource},
    {"sluice_leaky_bucket", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     V::SluiceBucket, "hash l (queue, ticks), t (last update, us)", sluiceTtl,
     T::HealsOnNextRequest, "", W::SluiceRule, D::Sluice, false, false,
     "Sluice's leaky bucket: a queue that drains at the rate", sluiceSource},
    {"sluice_sliding_log", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "zset",
     V::SluiceLog, "sorted set: one member <now_us>:<i> per request, scored by its time (us)",
     sluiceTtl, T::HealsOnNextRequest, "", W::SluiceRule, D::Sluice, false, false,
     "Sluice's sliding log: the requests of the last window", sluiceSource},
    {"sluice_gcra", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "string",
     V::SluiceGcra, "string <tat_us> or <tat_us>+<rem>/<c>", sluiceTtl, T::HealsOnNextRequest,
     "", W::SluiceRule, D::Sluice, false, false, "Sluice's GCRA: the theoretical arrival time",
     sluiceSource},
    {"kong_counter", "Kong rate-limiting (policy redis)",
     "ratelimit:<route>:<service>:<identifier>:<period start ms>:<period>",
     R"(ratelimit:[^:]*:[^:]*:.*:[0-9]+:(second|minute|hour|day|month|year))", "string",
     V::Integer, "integer: requests in the period",
     "EXPIRE <period> when INCR answers 1 (sync_rate -1); with sync_rate > 0, EXPIREAT the "
     "period's end when the key is new (releases that took the period start in ms for seconds "
     "set about 1000x that)",
     T::OrphanedByWindowInName, "", W::KongPeriod, D::Counter, true, true,
     "Kong's rate-limiting plugin: one counter per period, the period's start in its name",
     "Kong/kong kong/plugins/rate-limiting/policies/init.lua"},
    {"spring_gateway_tokens", "Spring Cloud Gateway RedisRateLimiter",
     "request_rate_limiter.{<id>}.tokens (4.2 on: request_rate_limiter.{<route>.<id>}.tokens)",
     R"(request_rate_limiter\.\{.*\}\.tokens)", "string", V::Number, "number: tokens left",
     "SETEX floor(2 x capacity / rate) s with every request (nothing at all when that is 0)",
     T::HealsOnNextRequest, "", W::Unknown, D::GatewayTokens, false, true,
     "Spring Cloud Gateway's token bucket: tokens left at the last request",
     "spring-cloud/spring-cloud-gateway .../META-INF/scripts/request_rate_limiter.lua",
     LimitFrom::TokensLeft},
    {"spring_gateway_timestamp", "Spring Cloud Gateway RedisRateLimiter",
     "request_rate_limiter.{<id>}.timestamp", R"(request_rate_limiter\.\{.*\}\.timestamp)",
     "string", V::Number, "number: the last refill (s since the epoch)",
     "SETEX floor(2 x capacity / rate) s with every request", T::HealsOnNextRequest, "",
     W::Unknown, D::GatewayStamp, false, true,
     "Spring Cloud Gateway's token bucket: the time of its last refill",
     "spring-cloud/spring-cloud-gateway .../META-INF/scripts/request_rate_limiter.lua"},
    {"nestjs_hits", "@nestjs/throttler with a Redis storage",
     "{<sha256 or md5>:<throttler>}:hits", R"(.*\{[0-9a-f]{32,64}:[^{}]*\}:hits)", "string",
     V::Integer, "integer: hits in the window",
     "PEXPIRE ttl (ms) when PTTL after the INCR is 0 or less", T::HealsOnNextRequest, "",
     W::Unknown, D::Counter, false, true,
     "@nestjs/throttler's Redis storage: one counter per route and client",
     "jmcdo29/nest-lab packages/throttler-storage-redis/src/throttler-storage-redis.service.ts"},
    {"nestjs_blocked", "@nestjs/throttler with a Redis storage",
     "{<sha256 or md5>:<throttler>}:blocked", R"(.*\{[0-9a-f]{32,64}:[^{}]*\}:blocked)",
     "string", V::Integer, "integer: 1 while blocked", "SET 1 PX blockDuration",
     T::HealsOnNextRequest, "", W::Unknown, D::Flag, false, true,
     "@nestjs/throttler's Redis storage: the block of a client over its limit",
     "jmcdo29/nest-lab packages/throttler-storage-redis/src/throttler-storage-redis.service.ts",
     LimitFrom::BlockKey},
    {"fastify_counter", "@fastify/rate-limit (Redis store)",
     "fastify-rate-limit-[<METHOD><url>-]<key>", R"(fastify-rate-limit-.+)", "string",
     V::Integer, "integer: requests in the window",
     "PEXPIRE timeWindow only when INCR answers 1", T::BlocksSubject, "", W::Unknown,
     D::Counter, true, true,
     "@fastify/rate-limit's Redis store: INCR, and the TTL only on the window's first request",
     "fastify/fastify-rate-limit store/RedisStore.js"},
    {"redisson_value", "Redisson RRateLimiter", "{<name>}:value[:<client>]",
     R"(.*\{.*\}.*:value(:[^:]*)?)", "string", V::Integer, "integer: permits available",
     "PEXPIRE keepAliveTime when it is set", T::IdleKeyKept, redissonByDesign, W::Unknown,
     D::RedissonValue, false, false, "Redisson's RRateLimiter: the permits left in the interval",
     "redisson/redisson redisson/src/main/java/org/redisson/RedissonRateLimiter.java"},
    {"redisson_permits", "Redisson RRateLimiter", "{<name>}:permits[:<client>]",
     R"(.*\{.*\}.*:permits(:[^:]*)?)", "zset", V::TimestampScores,
     "sorted set: one packed member per acquisition, scored by its time (ms)",
     "PEXPIRE keepAliveTime when it is set", T::IdleKeyKept, redissonByDesign, W::Unknown,
     D::RedissonLog, false, false,
     "Redisson's RRateLimiter: the permits taken in the interval, with their times",
     "redisson/redisson redisson/src/main/java/org/redisson/RedissonRateLimiter.java"},
    {"redis_cell", "redis-cell (CL.THROTTLE)", "<key>", "", "string", V::CellTat,
     "integer: the theoretical arrival time, ns since the epoch",
     "the module sets it with every call", T::HealsOnNextRequest, "", W::Unknown, D::CellTat,
     false, false, "redis-cell's GCRA: the theoretical arrival time",
     "brandur/redis-cell src/cell/store.rs"},
    {"redis_rate", "go-redis/redis_rate", "rate:<key>", R"(rate:.+)", "string", V::RateTat,
     "number: the theoretical arrival time, s since 2017-01-01",
     "SET tat EX ceil(reset_after) with every allowed request", T::HealsOnNextRequest, "",
     W::Unknown, D::RateTat, false, true, "go-redis/redis_rate's GCRA: the theoretical arrival time",
     "go-redis/redis_rate lua.go"},
    {"rlflx", "rate-limiter-flexible (RateLimiterRedis)", "rlflx:<key>", R"(rlflx:.+)",
     "string", V::Integer, "integer: points consumed (above the limit while blocked)",
     "SET 0 EX duration NX, then INCRBY; EXPIRE duration when PTTL is -1; block() and set() "
     "rewrite it with their own duration",
     T::HealsOnNextRequest, rlflxByDesign, W::Unknown, D::Points, true, true,
     "rate-limiter-flexible: points consumed in the duration",
     "animir/node-rate-limiter-flexible lib/RateLimiterRedis.js"},
    {"rlflx_block", "rate-limiter-flexible (ExpressBruteFlexible)", "[<prefix>]block:<key>",
     R"([^:]*block:.+)", "string", V::Integer, "integer: 1 while blocked",
     "SET EX the block's duration", T::HealsOnNextRequest, rlflxByDesign, W::Unknown, D::Points,
     false, false, "rate-limiter-flexible's brute-force protection: the block key of a subject",
     "animir/node-rate-limiter-flexible lib/ExpressBruteFlexible.js",
     LimitFrom::BlockKey},
    {"rate_limit_redis", "express-rate-limit with rate-limit-redis", "rl:<key>", R"(rl:.+)",
     "string", V::Integer, "integer: hits in the window",
     "PX windowMs: 4.3 starts a key without TTL again at 1 (SET 1 PX), 3.x PEXPIREs after the "
     "INCR when PTTL is below 0",
     T::HealsOnNextRequest, "",
     W::Unknown, D::Counter, true, true, "express-rate-limit's Redis store: one counter per client",
     "express-rate-limit/rate-limit-redis source/scripts.ts"},
    {"rack_attack_counter", "Rack::Attack (Redis store)",
     "rack::attack:<now / period>:<name>:<discriminator>", R"(rack::attack:[0-9]+:.+)",
     "string", V::Integer, "integer: requests in the period",
     "EXPIRE the rest of the period + 1 s, pipelined after the INCRBY, with every request (a "
     "counter without TTL gets it back with its subject's next request in the period; one whose "
     "subject sends none stays, its period in its name)",
     T::HealsOnNextRequest, "", W::Unknown, D::Counter, false, true,
     "Rack::Attack's throttle (and fail2ban count): one counter per period, the period's "
     "number in its name",
     "rack/rack-attack lib/rack/attack/cache.rb, store_proxy/redis_proxy.rb (6.6.1)"},
    {"rack_attack_ban", "Rack::Attack (Redis store)", "rack::attack:(fail2ban|allow2ban):ban:<d>",
     R"(rack::attack:(fail2ban|allow2ban):ban:.+)", "string", V::Integer,
     "integer: 1 while banned", "SETEX bantime", T::BlocksSubject, "", W::Unknown, D::Flag,
     false, true, "Rack::Attack's Fail2Ban / Allow2Ban: the ban of a discriminator",
     "rack/rack-attack lib/rack/attack/fail2ban.rb",
     LimitFrom::BlockKey},
    {"limits_fixed_window", "python limits (Flask-Limiter, SlowAPI)",
     "[LIMITS:]LIMITER/<ids>/<amount>/<multiples>/<granularity>",
     R"((LIMITS:)?LIMITER/.+/[0-9]+/[0-9]+/(second|minute|hour|day|month|year))", "string",
     V::Integer, "integer: hits in the window",
     "EXPIRE the window when INCRBY answers the first hit (the elastic-expiry strategy writes "
     "the same key and EXPIREs it with every hit: a lost TTL comes back; the row says what the "
     "fixed window does)",
     T::BlocksSubject, "", W::LimitsName,
     D::Counter, false, true, "python limits' fixed window: one counter per window, reused",
     "alisaifee/limits limits/storage/redis.py, lua_scripts/incr_expire.lua (2.8.0)"},
    {"limits_moving_window", "python limits (Flask-Limiter, SlowAPI)",
     "[LIMITS:]LIMITER/<ids>/<amount>/<multiples>/<granularity>",
     R"((LIMITS:)?LIMITER/.+/[0-9]+/[0-9]+/(second|minute|hour|day|month|year))", "list",
     V::TimestampList, "list: one time (s since the epoch) per hit, the newest first",
     "EXPIRE the window with every admitted hit (LPUSH, LTRIM to the limit)",
     T::HealsOnNextRequest, "", W::LimitsName, D::TimestampLog, false, true,
     "python limits' moving window: the times of the last hits, at most the limit",
     "alisaifee/limits limits/resources/redis/lua_scripts/acquire_moving_window.lua (2.8.0)"},
    {"django_ratelimit", "django-ratelimit (Django's RedisCache)",
     "<KEY_PREFIX>:<version>:rl:<sha256 of group, rate, value, window end>",
     R"(.*:[0-9]+:rl:[0-9a-f]{64})", "string", V::Integer, "integer: hits in the window",
     "SET NX EX period + 5 (cache.add); then EXISTS and INCR, two commands",
     T::OrphanedByWindowInName, "", W::Unknown, D::Counter, false, true,
     "django-ratelimit: one counter per window, the window's end hashed into its name",
     "jsocol/django-ratelimit django_ratelimit/core.py"},
    {"laravel_timer", "Laravel RateLimiter / throttle", "<prefix>_cache_:<sha1 or md5>:timer",
     R"(.*_cache_?:[0-9a-f]{32}([0-9a-f]{8})?:timer)", "string", V::Integer,
     "integer: when the subject is available again (s since the epoch)", "SETEX decay (add)",
     T::IdleKeyKept, "", W::Unknown, D::Timer, false, true,
     "Laravel's rate limiter: when the counter's window ends",
     "laravel/framework src/Illuminate/Cache/RateLimiter.php (8.83)"},
    {"laravel_counter", "Laravel RateLimiter / throttle", "<prefix>_cache_:<sha1 or md5>",
     R"(.*_cache_?:[0-9a-f]{32}([0-9a-f]{8})?)", "string", V::Integer,
     "integer: hits in the window",
     "SETEX decay (add); SETEX again only when the INCRBY answers 1 on a key it did not add, so "
     "a counter without TTL keeps one no request gives back: it counts on while its timer "
     "lasts, and at the limit with the timer gone it is deleted and starts again",
     T::IdleKeyKept, "", W::Unknown, D::Counter, false, true,
     "Laravel's rate limiter: the hits of a subject; at the limit with its timer gone it is "
     "reset", "laravel/framework src/Illuminate/Cache/RateLimiter.php (8.83)"},
    {"envoy_counter", "Envoy ratelimit service", "<domain>_<key>_<value>..._<window start>",
     R"([^:\s]+_.+_[0-9]{10})", "string", V::Integer, "integer: hits in the window",
     "EXPIRE unit (+ jitter), pipelined after the INCRBY", T::OrphanedByWindowInName, "",
     W::EnvoyUnit, D::Counter, true, false,
     "Envoy's ratelimit service: one counter per window, its start in the name",
     "envoyproxy/ratelimit src/redis/fixed_cache_impl.go"},
    {"string_counter", "GET/INCR/EXPIRE counters (Spring aspect, RedisTemplate, OpenResty, ...)",
     "rate_limit: | count_rate_limit: | limit: | ratelimit: | throttle: <key>",
     R"((rate_limit|count_rate_limit|limit|ratelimit|throttle):.+)", "string", V::Integer,
     "integer: requests in the window", "EXPIRE the window when INCR answers 1",
     T::BlocksSubject, "", W::Unknown, D::Counter, true, true,
     "a plain counter: INCR, then EXPIRE on the first request. An INCR after the key expired, "
     "or an EXPIRE lost after its INCR, leaves it without TTL",
     "the Spring @RateLimiter aspect's Lua (tests/tst_foreigncounter.cpp)"},
    {"bucket4j", "Bucket4j (Lettuce/Jedis/Redisson proxy managers)", "<key>", "", "string",
     V::Binary, "binary: the serialized bucket configuration and state",
     "PSETEX only with an ExpirationAfterWriteStrategy", T::IdleKeyKept,
     "Bucket4j writes its buckets without TTL unless the proxy manager is given an "
     "ExpirationAfterWriteStrategy (the default is none): the state keeps its own clock, so "
     "nobody is blocked; idle buckets stay",
     W::Unknown, D::Bucket4j, false, false, "Bucket4j's bucket state",
     "bucket4j/bucket4j bucket4j-redis/bucket4j-redis-common/.../AbstractRedisProxyManagerBuilder.java"},
    {"redisson_config", "Redisson RRateLimiter", "<name>", "", "hash", V::RedissonConfig,
     "hash rate, interval (ms), type (0 overall, 1 per client)",
     "PEXPIRE keepAliveTime when it is set", T::IdleKeyKept,
     "Redisson's limiter configuration (trySetRate) is meant to last", W::RedissonField,
     D::RedissonConfig, false, false, "Redisson's RRateLimiter configuration",
     "redisson/redisson redisson/src/main/java/org/redisson/RedissonRateLimiter.java"},
    {"laravel_duration", "Laravel Redis::throttle (DurationLimiter)", "<name> | {<name>}", "",
     "hash", V::DurationHash, "hash start, end (s since the epoch), count",
     "EXPIRE decay x 2 when a window starts (a request after the end in the hash starts one)",
     T::HealsOnNextRequest, "", W::Unknown,
     D::Duration, false, false,
     "Laravel's DurationLimiter: the window's start, end and count; a request after the end "
     "starts a new window", "laravel/framework src/Illuminate/Redis/Limiters/DurationLimiter.php"},
    {"sorted_set_log", "sliding-window logs (ZADD now, ZREMRANGEBYSCORE, ZCARD)", "<key>", "",
     "zset", V::TimestampLog,
     "sorted set: one member per request, named by its time (\"<ms>\", \"<ms>-<rand>\"), "
     "scored by it",
     "EXPIRE the window with each request, as a rule", T::IdleKeyKept, "", W::Unknown,
     D::TimestampLog, true, false,
     "a sliding-window log: one entry per request, trimmed to the window by each request",
     "the sliding-window seed of tests/tst_cli_audit.cpp"},
    };
    return table;
}
// clang-format on

} // namespace sluice::keys
