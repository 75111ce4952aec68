--[[ sluice leaky_bucket: a queue of capacity B draining at exactly rate_count / rate_period_us.
See docs/ALGORITHMS.md (the contract) and lua/README.md (the arithmetic, mirrored
step for step by core/limiter/model_buckets.cpp).

KEYS[1]  the subject's state key: the only key this script touches.
ARGV     rate_count, rate_period_us, burst, cost, now_us [, min_ttl_ms [, version, on_change] ]
           rate_count, rate_period_us  integers 1..2^53-1; the rate is their exact ratio
           burst       B, the queue capacity in units, 1..2^53-1
           cost        units to enqueue, 0..2^53-1; 0 = peek (reply only, nothing written)
           now_us      integer microseconds >= 0, or '' to use the server's TIME
           min_ttl_ms  optional floor of the TTL (the simulator's slow virtual clock)
           version     the rule version "lb:<count>:<period_us>:<burst>" ('' or absent: none,
                       the state is neither stamped nor migrated)
           on_change   keep_used, reset, proportional or additive (lua/README.md "Rule versions")
         Refused: 2 x B x P > 2^53, where P = rate_period_us / gcd(rate_count, rate_period_us).
Reply    {allowed 0|1, limit = B, remaining, retry_after_ms, reset_after_ms, delay_ms}
           remaining  whole units the queue can still take
           retry      -1 if allowed or cost > B, else the wait until the same request fits
           reset      time until the queue is empty
           delay      when allowed (or a peek): the wait in the queue before this request is
                      released = level before it / rate; 0 when denied
State    hash  l  queue level in ticks (P ticks per unit; drains c = rate_count / gcd ticks/us)
               t  time of the last update, us
         A missing key is an empty queue, and so is a foreign state: l or t not a whole number,
         l outside 0..2^52, t outside 0..2^53-1 or t >= now + 2^52 (the next write replaces it).
         The TTL is the reset time (>= 1 ms, >= min_ttl_ms),
         after which the queue is empty anyway.
         v = the rule version of the last write. Another version: the level is migrated per
         on_change at its own time t (lua/README.md "Rule versions"), in memory, and written
         (l t v) only with an admission. Another algorithm's version, one that does not
         parse, reset, or another Sluice type (zset, string): a empty queue, and the admission
         deletes the key first. No v (an older Sluice): the current version.
Cost     O(1). HMGET; on admission with cost > 0 also HSET + PEXPIRE (3 calls). Denials and
         peeks write nothing. Numbers reach Redis through string.format('%.0f'): exact below
         2^53, never scientific notation (Redis 7.2.0-7.2.4 printed 1e8 as "1e+08").
--]]

local call, floor, fmt = redis.call, math.floor, string.format

-- floor(a / b), exact for |a| < 2^53 and 1 <= b < 2^53: the double quotient may be one off.
local function idiv(a, b)
    local q = floor(a / b)
    if q * b > a then
        q = q - 1
    elseif (q + 1) * b <= a then
        q = q + 1
    end
    return q
end

-- ceil(a / b), same domain.
local function cdiv(a, b)
    return -idiv(-a, b)
end

local function bad(i, name, lo)
    local got = ARGV[i]
    return redis.error_reply(fmt("ERR sluice leaky_bucket: ARGV[%d] %s must be an integer >= %d "
        .. "and below 2^53%s, got %s", i, name, lo, i == 5 and " (or empty for TIME)" or "",
        got and "'" .. got .. "'" or "nothing"))
end

-- ARGV, checked inline (this runs on every request): integers, in range, below 2^53.
local A = ARGV
-- x + 0 reads a string as tonumber() does but parses it once (tonumber twice); it raises on
-- text, so it runs under one pcall, and a failure takes the tonumber() path to name the slot.
local function num(a, b, c, d) return a + 0, b + 0, c + 0, d + 0 end
local ok, count, period, burst, cost = pcall(num, A[1], A[2], A[3], A[4])
if not ok then
    count, period, burst, cost = tonumber(A[1]), tonumber(A[2]), tonumber(A[3]), tonumber(A[4])
end
local now = A[5]
if not (count and count >= 1 and count < 9007199254740992 and count == floor(count)) then
    return bad(1, 'rate_count', 1)
end
if not (period and period >= 1 and period < 9007199254740992 and period == floor(period)) then
    return bad(2, 'rate_period_us', 1)
end
if not (burst and burst >= 1 and burst < 9007199254740992 and burst == floor(burst)) then
    return bad(3, 'burst', 1)
end
if not (cost and cost >= 0 and cost < 9007199254740992 and cost == floor(cost)) then
    return bad(4, 'cost', 0)
end
if now == '' then
    -- Redis 7+ replicates effects always (replicate_commands() is a deprecated no-op there,
    -- and REDIS_VERSION_NUM exists); older ones on request.
    if not redis.REDIS_VERSION_NUM and redis.replicate_commands then
        redis.replicate_commands()
    end
    local tm = call('TIME')
    now = tm[1] * 1000000 + tm[2] -- TIME's digits: no check needed
else
    now = tonumber(now)
    if not (now and now >= 0 and now < 9007199254740992 and now == floor(now)) then
        return bad(5, 'now_us', 0)
    end
end
local minTtl = 0
if A[6] and A[6] ~= '' then
    minTtl = tonumber(A[6])
    if not (minTtl and minTtl >= 0 and minTtl < 9007199254740992 and minTtl == floor(minTtl)) then
        return bad(6, 'min_ttl_ms', 0)
    end
end
local ver, mode = A[7], A[8]
if ver == '' then ver = nil end
if ver and mode ~= 'keep_used' and mode ~= 'reset' and mode ~= 'proportional'
        and mode ~= 'additive' then
    return redis.error_reply(fmt("ERR sluice leaky_bucket: ARGV[8] on_change must be keep_used, reset, "
        .. "proportional or additive, got '%s'", tostring(mode)))
end

-- The reduced rate: c ticks per microsecond, P ticks per unit.
local g, r = count, period
while r > 0 do
    g, r = r, g - idiv(g, r) * r
end
local c, P = count / g, period / g
-- Policy::validate(): levels are compared with up to twice the capacity B x P.
if burst * P > 4503599627370496 then
    return redis.error_reply(fmt("ERR sluice leaky_bucket: ARGV[1..3] rate %s/%sus with burst %s "
        .. "is too large for exact arithmetic (2 x burst x period / gcd(count, period) must stay "
        .. "within 2^53); use a shorter period or a smaller burst", ARGV[1], ARGV[2], ARGV[3]))
end
local cap = burst * P

local key = KEYS[1]
local st
local wipe = false -- the admission deletes the key first (a fresh state replaces another)
if ver then
    st = redis.pcall('HMGET', key, 'l', 't', 'v')
    if st.err then
        -- Another Redis type: another Sluice algorithm's state (the rule changed algorithm)
        -- is a fresh state; anything else stays the error it is (raised again by redis.call, with
        -- the script's name, as without a version).
        local ty = call('TYPE', key).ok
        if ty ~= 'zset' and ty ~= 'string' then call('HMGET', key, 'l') end -- raises it
        st, wipe = {false, false, false}, true
    end
else
    st = call('HMGET', key, 'l', 't')
end
local l, t = st[1], st[2] -- false when absent
if l and t then
    ok, l, t = pcall(num, l, t, 0, 0) -- the digits this script wrote, read once
    if not ok then l, t = tonumber(st[1]), tonumber(st[2]) end
else
    l, t = nil, nil
end
-- Foreign state (ALGORITHMS.md "Stored state"): a level or time that is not a whole number in
-- range (nan, inf, text, negative, a level above 2^52, a time 2^52 us or more ahead) is absent.
if not (l and t and l >= 0 and l <= 4503599627370496 and l % 1 == 0 and t >= 0
        and t < 9007199254740992 and t - now < 4503599627370496 and t % 1 == 0) then
    l, t = 0, now
elseif ver and st[3] and st[3] ~= ver and st[3] ~= '' then
    -- Written under another rule version (lua/README.md "Rule versions"): the ticks used at
    -- t, in the new rate's ticks, per on_change; the new rate refills from t.
    local oc, on, op, ob = string.match(st[3], '^(%l%l):(%d+):(%d+):(%d+)$')
    on, op, ob = tonumber(on), tonumber(op), tonumber(ob)
    wipe = true
    local oP = 0
    if on and on >= 1 and on < 9007199254740992 and op >= 1 and op < 9007199254740992
            and ob >= 1 and ob < 9007199254740992 then
        local x, y = on, op
        while y > 0 do
            x, y = y, x - idiv(x, y) * y
        end
        oP = op / x
        if ob * oP > 4503599627370496 then oP = 0 end
    end
    if oc ~= 'lb' or mode == 'reset' or oP == 0 then
        l, t = 0, now
    else
        -- ceil(a x b / d), at most cap: exact while a x b < 2^53 (model::mulDivCeil).
        local function mdc(a, b, d)
            local x = a * b
            local q = math.ceil(x / d)
            if x < 9007199254740992 then
                if q * d < x then
                    q = q + 1
                elseif q > 0 and (q - 1) * d >= x then
                    q = q - 1
                end
            end
            if q > cap then q = cap end
            return q
        end
        local ocap = ob * oP
        local used = l
        local u
        if mode == 'proportional' then
            if used > ocap then used = ocap end
            u = mdc(used, cap, ocap)
        else
            u = mdc(used, P, oP)
            if mode == 'additive' and burst < ob then
                u = u - (ob - burst) * P
                if u < 0 then u = 0 end
            end
        end
        l = u
    end
end
-- Clock stepped back: no drain, and the stored time never moves backwards.
local e = now
if t > now then e = t end
-- Drain (e - t) x c ticks, down to 0. The product may be inexact only when it is far above
-- l, where the comparison still holds (same as e - t >= ceil(l / c) in the twin).
local drained = (e - t) * c
if drained >= l then
    l = 0
else
    l = l - drained
end

local allowed, retry, delay = 1, -1, 0
if cost > burst then
    allowed = 0
else
    local need = cost * P
    if cost == 0 or l + need <= cap then
        -- The queue ahead of this request drains in l / c us (from e, the effective time).
        delay = cdiv(e - now + cdiv(l, c), 1000)
        if cost > 0 then
            l = l + need
            local reset = cdiv(e - now + cdiv(l, c), 1000)
            local ttl = reset
            if ttl < minTtl then ttl = minTtl end
            if ttl < 1 then ttl = 1 end
            if wipe then call('DEL', key) end
            if ver then
                call('HSET', key, 'l', fmt('%.0f', l), 't', fmt('%.0f', e), 'v', ver)
            else
                call('HSET', key, 'l', fmt('%.0f', l), 't', fmt('%.0f', e))
            end
            call('PEXPIRE', key, fmt('%.0f', ttl))
            return {1, burst, idiv(cap - l, P), -1, reset, delay}
        end
    else
        allowed = 0
        retry = cdiv(e - now + cdiv(l + need - cap, c), 1000)
    end
end
local remaining = 0
if l < cap then remaining = idiv(cap - l, P) end
return {allowed, burst, remaining, retry, cdiv(e - now + cdiv(l, c), 1000), delay}
