--[[ sluice sliding_log: at most `limit` units in any window (now - window_us, now], counted
exactly: one sorted-set entry per admitted unit.

KEYS[1]  the subject's state key (the only key touched)
ARGV     limit, window_us, cost, now_us [, min_ttl_ms]
         limit, window_us: integers in 1..2^53-1
         cost: integer in 0..2^53-1; 0 = peek (allowed = 1, nothing written)
         now_us: integer in 0..2^53-1, or '' to read the server's TIME (production)
         min_ttl_ms: optional TTL floor for the simulator ('' or absent = none)
Reply    {allowed (0|1), limit, remaining, retry_after_ms, reset_after_ms, delay_ms = 0}
         retry_after_ms = -1 when allowed, and when cost > limit (never admissible).
State    sorted set, one member per admitted unit: score = admission time (us), member
         "<now_us>:<i>", i running on from the number of members already at that score, so
         members stay unique within one microsecond. count = entries with score > now - W
         (entries dated after now, after a clock step back, count too).
         Written only on admission with cost > 0: ZREMRANGEBYSCORE -inf now-W (the trim), ZADD,
         PEXPIRE max(reset_after_ms, 1, min_ttl_ms). Denials and peeks write nothing.
         A foreign state (the newest score 2^52 us or more after now: inf, 1e300) is an empty
         log; the next admission deletes the key instead of trimming it.
Cost     O(log n + trimmed + cost). redis.call per admitted request: ZCOUNT, ZRANGE -1 -1
         (when the window holds entries), ZCOUNT now now (only when the newest entry is not
         older than now: same microsecond or clock stepped back), ZREMRANGEBYSCORE, ZADD (one
         per 1000 units), PEXPIRE: 5 as a rule (4 on an empty window, 6 at a repeated
         microsecond); denied: ZCOUNT, ZRANGE, ZRANGEBYSCORE = 3; peek: 1 or 2;
         + TIME when now_us is ''.
Arithmetic: lua/README.md "sliding_log"; twin: core/limiter/model_windows.cpp.
Numbers reach Redis through string.format('%d') (never through .., which keeps 14 digits). ]]

local call = redis.call
local fmt = string.format
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
        return redis.error_reply(fmt(
            "ERR sluice sliding_log: ARGV[%d] %s must be an integer in %d..2^53-1%s, got '%s'",
            i, name, lo, extra or '', tostring(a[i])))
    end
    return bad(1, 'limit', 1) or bad(2, 'window_us', 1) or bad(3, 'cost', 0)
        or bad(4, 'now_us', 0, " or '' (server time)")
        or bad(5, 'min_ttl_ms', 0, " or '' (none)")
        or redis.error_reply('ERR sluice sliding_log: bad arguments')
end

-- Times in ms are ceil(us / 1000), for 0 <= us < 2^53: us % 1000 is exact except that a
-- rounded quotient can make it negative, and then (us - r) / 1000 is already the ceiling.

local key = KEYS[1]
local lo = now - window -- entries with score <= lo have left the window (lo may be < 0)
local after = fmt('(%d', lo)
local count = call('ZCOUNT', key, after, '+inf')
local newest = false -- the newest score, read only when the window holds entries
local foreign = false
if count > 0 then
    newest = call('ZRANGE', key, '-1', '-1', 'WITHSCORES')[2] + 0
    -- Foreign state (ALGORITHMS.md "Stored state"): an entry 2^52 us or more ahead (inf,
    -- 1e300) makes the log absent; the next admission deletes the key and starts afresh.
    if newest - now >= 4503599627370496 then
        count, newest, foreign = 0, false, true
    end
end
local remaining = limit - count
if remaining < 0 then remaining = 0 end -- only after the limit was lowered

if cost > 0 then
    if count + cost > limit then
        -- Denied. The entry that must leave is the (count + cost - limit)-th oldest in the
        -- window; it leaves at its score + window.
        local retry = -1
        if cost <= limit then
            local k = count + cost - limit
            local e = call('ZRANGEBYSCORE', key, after, '+inf', 'WITHSCORES', 'LIMIT',
                           fmt('%d', k - 1), '1')
            local us = window - (now - e[2])
            local r = us % 1000
            retry = (us - r) / 1000
            if r > 0 then retry = retry + 1 end
        end
        local reset = 0
        if newest then
            local us = window - (now - newest)
            local r = us % 1000
            reset = (us - r) / 1000
            if r > 0 then reset = reset + 1 end
        end
        return {0, limit, remaining, retry, reset, 0}
    end
    local nowStr = fmt('%d', now)
    -- Members at this microsecond are numbered 0..m-1; there can be some only when the newest
    -- entry is not older than now.
    local i = 0
    if newest and newest >= now then
        i = call('ZCOUNT', key, nowStr, nowStr)
    end
    if foreign then
        call('DEL', key)
    else
        call('ZREMRANGEBYSCORE', key, '-inf', fmt('%d', lo))
    end
    if cost == 1 then
        call('ZADD', key, nowStr, fmt('%s:%d', nowStr, i))
    else
        -- unpack() is limited to a few thousand values: 1000 members per ZADD.
        local last = i + cost - 1
        while i <= last do
            local stop = i + 999
            if stop > last then stop = last end
            local args, n = {}, 0
            for j = i, stop do
                args[n + 1] = nowStr
                args[n + 2] = fmt('%s:%d', nowStr, j)
                n = n + 2
            end
            call('ZADD', key, unpack(args))
            i = stop + 1
        end
    end
    count = count + cost
    remaining = limit - count
    if not newest or newest < now then newest = now end
    local us = window - (now - newest)
    local r = us % 1000
    local reset = (us - r) / 1000
    if r > 0 then reset = reset + 1 end
    local ttl = reset
    if ttl < 1 then ttl = 1 end
    if ttl < minTtl then ttl = minTtl end
    call('PEXPIRE', key, fmt('%d', ttl))
    return {1, limit, remaining, -1, reset, 0}
end

-- Peek.
local reset = 0
if newest then
    local us = window - (now - newest)
    local r = us % 1000
    reset = (us - r) / 1000
    if r > 0 then reset = reset + 1 end
end
return {1, limit, remaining, -1, reset, 0}
