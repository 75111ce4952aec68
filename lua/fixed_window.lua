--[[ sluice fixed_window: at most `limit` units per window of `window_us`; a window opens with
the first request admitted at or after the end of the previous one (never on a denial).

KEYS[1]  the subject's state key (the only key touched)
ARGV     limit, window_us, cost, now_us [, min_ttl_ms]
         limit, window_us: integers in 1..2^53-1
         cost: integer in 0..2^53-1; 0 = peek (allowed = 1, nothing written)
         now_us: integer in 0..2^53-1, or '' to read the server's TIME (production)
         min_ttl_ms: optional TTL floor for the simulator ('' or absent = none)
Reply    {allowed (0|1), limit, remaining, retry_after_ms, reset_after_ms, delay_ms = 0}
         retry_after_ms = -1 when allowed, and when cost > limit (never admissible).
State    hash  s = window start (us), c = units admitted in that window.
         The window is live while now - s < window_us; a clock before s keeps it live.
         Written only on admission with cost > 0, always together with
         PEXPIRE max(reset_after_ms, 1, min_ttl_ms): the key dies with its window.
         A foreign state (s or c not a whole number in 0..2^53-1, or s >= now + 2^52) is no
         window at all: the next admission rewrites both fields.
Cost     O(1). redis.call per request: admitted HMGET + HINCRBY (or HSET) + PEXPIRE = 3;
         denied or peek: HMGET = 1; + TIME when now_us is ''.
Arithmetic: lua/README.md "fixed_window"; twin: core/limiter/model_windows.cpp.

This script is benchmarked, so the hot path avoids what costs in Redis' Lua: tonumber()
parses a string twice (x + 0 once, but fails on text: the two stored fields take tonumber), a number passed to redis.call is formatted with %.17g
(string.format('%d') is cheaper, an ARGV string is free), and every bytecode counts. ]]

local call = redis.call
local MAX = 9007199254740991 -- 2^53 - 1: integers up to here are exact in a double
local a = ARGV
local now = a[4]
if now == '' then
    -- A write after TIME needs effects replication: Redis 7+ always does it (there
    -- replicate_commands() is a deprecated no-op, and REDIS_VERSION_NUM exists), older ones
    -- on request.
    if not redis.REDIS_VERSION_NUM and redis.replicate_commands then
        redis.replicate_commands()
    end
    local t = call('TIME')
    now = t[1] * 1000000 + t[2]
end
-- Coercion errors (not a number) are caught here and reported by the cold path below.
local ok, limit, window, cost
ok, limit, window, cost, now = pcall(function(l, w, c, n) return l + 0, w + 0, c + 0, n + 0 end,
                                     a[1], a[2], a[3], now)
local minTtl = a[5]
if minTtl == nil or minTtl == '' then
    minTtl = 0
else
    minTtl = tonumber(minTtl) or -1
end
-- x % 1 is NaN for NaN and infinities, so the sum test also rejects them.
if not (ok and limit >= 1 and window >= 1 and cost >= 0 and now >= 0 and minTtl >= 0
        and limit <= MAX and window <= MAX and cost <= MAX and now <= MAX and minTtl <= MAX
        and limit % 1 + window % 1 + cost % 1 + now % 1 + minTtl % 1 == 0) then
    -- Cold path: name the first bad slot.
    local function bad(i, name, lo, extra)
        local n = tonumber(a[i])
        if i == 4 and a[4] == '' or i == 5 and (a[5] == nil or a[5] == '') then return nil end
        if n and n >= lo and n <= MAX and n % 1 == 0 then return nil end
        return redis.error_reply(string.format(
            "ERR sluice fixed_window: ARGV[%d] %s must be an integer in %d..2^53-1%s, got '%s'",
            i, name, lo, extra or '', tostring(a[i])))
    end
    return bad(1, 'limit', 1) or bad(2, 'window_us', 1) or bad(3, 'cost', 0)
        or bad(4, 'now_us', 0, " or '' (server time)")
        or bad(5, 'min_ttl_ms', 0, " or '' (none)")
        or redis.error_reply('ERR sluice fixed_window: bad arguments')
end

local key = KEYS[1]
local h = call('HMGET', key, 's', 'c')
local s, c = h[1], h[2] -- false when absent; else the digits this script wrote
local count, left = 0, 0 -- units in the live window, us until it ends (0: no live window)
if s then
    s = tonumber(s)
    if c then c = tonumber(c) else c = 0 end
    -- Foreign state (ALGORITHMS.md "Stored state"): s or c not a whole number in range (nan,
    -- inf, text, negative, s 2^52 us or more ahead) is no window; the next admission rewrites.
    if not (s and c and s >= 0 and s <= MAX and s - now < 4503599627370496 and c >= 0
            and c <= MAX and s % 1 + c % 1 == 0) then
        s = false
    elseif now - s < window then -- now - s < 0 (clock stepped back): still live
        count = c
        left = window - (now - s)
    end
end

local allowed = 1
if cost > 0 then
    if count + cost > limit then
        -- Denied. cost <= limit implies count > 0: the window is live and its end admits.
        allowed = 0
    else
        -- A one-character cost is a digit: its ARGV string is already canonical.
        local by = a[3]
        if #by ~= 1 then by = string.format('%d', cost) end
        if left > 0 then
            call('HINCRBY', key, 'c', by)
            count = count + cost
        else
            call('HSET', key, 's', string.format('%d', now), 'c', by)
            count = cost
            left = window
        end
    end
end

-- reset = ceil(left / 1000) ms. left % 1000 is exact below 2^53 except that a rounded
-- quotient can make it negative, and then (left - r) / 1000 is already the ceiling.
local r = left % 1000
local reset = (left - r) / 1000
if r > 0 then reset = reset + 1 end
local remaining = limit - count
if remaining < 0 then remaining = 0 end -- only after the limit was lowered

if allowed == 0 then
    return {0, limit, remaining, cost > limit and -1 or reset, reset, 0}
end
if cost > 0 then
    local ttl = reset
    if ttl < 1 then ttl = 1 end
    if ttl < minTtl then ttl = minTtl end
    call('PEXPIRE', key, string.format('%d', ttl))
end
return {1, limit, remaining, -1, reset, 0}
