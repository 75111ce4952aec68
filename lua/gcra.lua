--[[ sluice gcra: the generic cell rate algorithm, redis-cell CL.THROTTLE semantics.
See docs/ALGORITHMS.md (the contract) and lua/README.md (the arithmetic, mirrored
step for step by core/limiter/model_buckets.cpp).

KEYS[1]  the subject's state key: the only key this script touches.
ARGV     rate_count, rate_period_us, burst, cost, now_us [, min_ttl_ms [, version, on_change] ]
           rate_count, rate_period_us  integers 1..2^53-1; the rate is their exact ratio,
                       the emission interval T = rate_period_us / rate_count us
           burst       b, 1..2^53-1: b + 1 requests may arrive at once (DVT = T x (b + 1))
           cost        units, 0..2^53-1; 0 = peek (reply only, nothing written)
           now_us      integer microseconds >= 0, or '' to use the server's TIME
           min_ttl_ms  optional floor of the TTL (the simulator's slow virtual clock)
           version     the rule version "gc:<count>:<period_us>:<burst>" ('' or absent: none,
                       the state is neither stamped nor migrated)
           on_change   keep_used, reset, proportional or additive (lua/README.md "Rule versions")
         Refused: 2 x (b + 1) x P > 2^53, where P = rate_period_us / gcd(count, period).
Reply    {allowed 0|1, limit = b + 1, remaining, retry_after_ms, reset_after_ms, delay_ms = 0}
           as CL.THROTTLE (limited is inverted into allowed), in ms rounded up, not seconds
State    string "<tat_us>" or "<tat_us>+<rem>/<c>": the theoretical arrival time
         TAT = tat_us + rem / c us exactly (c = rate_count / gcd, 0 < rem < c).
         A missing key is TAT = now, and so is a foreign state: not of this form, not whole,
         rem >= c, TAT >= 2^53 or TAT >= now + 2^52 (the next write replaces it). The TTL is
         the reset time TAT - now (>= 1 ms, >= min_ttl_ms), after which TAT <= now and the key
         means nothing any more.
         Versioned: "<tat>[+<rem>/<c>]@<version>", the rule version of the last write.
         Another version: the time used (TAT - now, at most DVT) is migrated per on_change
         into the new rate's units (lua/README.md "Rule versions"), in memory, and written
         only with an admission. Another algorithm's version, one that does not parse,
         reset, or another Sluice type (hash, zset; SET replaces it): TAT = now. No version
         (an older Sluice): the current version.
Cost     O(1). GET; on admission with cost > 0 also SET ... PX ttl (2 calls: the value and
         its TTL in one command). Denials and peeks write nothing. Numbers reach Redis
         through string.format('%.0f'): exact below 2^53, never scientific notation.
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
    return redis.error_reply(fmt("ERR sluice gcra: ARGV[%d] %s must be an integer >= %d "
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
    return redis.error_reply(fmt("ERR sluice gcra: ARGV[8] on_change must be keep_used, reset, "
        .. "proportional or additive, got '%s'", tostring(mode)))
end

-- The reduced rate: times are counted in 1/c us, so T = P and DVT = P x (b + 1), integers.
local g, r = count, period
while r > 0 do
    g, r = r, g - idiv(g, r) * r
end
local c, P = count / g, period / g
local limit = burst + 1
-- Policy::validate(): DVT plus one increment must stay exact.
if limit * P > 4503599627370496 then
    return redis.error_reply(fmt("ERR sluice gcra: ARGV[1..3] rate %s/%sus with burst %s is too "
        .. "large for exact arithmetic (2 x (burst + 1) x period / gcd(count, period) must stay "
        .. "within 2^53); use a shorter period or a smaller burst", ARGV[1], ARGV[2], ARGV[3]))
end
local dvt = limit * P

-- base = max(TAT, now) = tat + rem / c, with tat >= now.
local key = KEYS[1]
local tat, rem = now, 0
local raw, ov
if ver then
    raw = redis.pcall('GET', key)
    if type(raw) == 'table' then
        -- Another Redis type: another Sluice algorithm's state (the rule changed algorithm)
        -- is TAT = now (SET replaces it); anything else stays the error it is (raised again by
        -- redis.call, with the script's name, as without a version).
        local ty = call('TYPE', key).ok
        if ty ~= 'hash' and ty ~= 'zset' then call('GET', key) end -- raises it
        raw = false
    end
    if raw then
        local at = string.find(raw, '@', 1, true)
        if at then
            ov = string.sub(raw, at + 1)
            raw = string.sub(raw, 1, at - 1)
        end
    end
else
    raw = call('GET', key)
end
if raw then
    local v, x, den = tonumber(raw), 0, c
    if not v then
        local a, b, d = string.match(raw, '^(%d+)%+(%d+)/(%d+)$')
        if a then
            v, x, den = tonumber(a), tonumber(b), tonumber(d)
            if not (x < den and den < 9007199254740992) then
                v = nil -- not a fraction: foreign state
            end
        end
    end
    if v and ov and ov ~= ver and ov ~= '' then
        -- Written under another rule version (lua/README.md "Rule versions").
        local oc, on, op, ob = string.match(ov, '^(%l%l):(%d+):(%d+):(%d+)$')
        on, op, ob = tonumber(on), tonumber(op), tonumber(ob)
        local oP, oc1 = 0, 1
        if on and on >= 1 and on < 9007199254740992 and op >= 1 and op < 9007199254740992
                and ob >= 1 and ob < 9007199254740992 then
            local gg, y = on, op
            while y > 0 do
                gg, y = y, gg - idiv(gg, y) * y
            end
            oP, oc1 = op / gg, on / gg
            if (ob + 1) * oP > 4503599627370496 then oP = 0 end
        end
        if oc ~= 'gc' or mode == 'reset' or oP == 0 then
            v = nil -- a fresh state: TAT = now
        else
            local w, z = v, x
            if z > 0 and den ~= oc1 then w, z = w + 1, 0 end
            if w < 9007199254740992 and w - now < 4503599627370496 then
                -- ceil(a x b / d), at most dvt: exact while a x b < 2^53 (model::mulDivCeil).
                local function mdc(a1, b1, d1)
                    local y1 = a1 * b1
                    local q = math.ceil(y1 / d1)
                    if y1 < 9007199254740992 then
                        if q * d1 < y1 then
                            q = q + 1
                        elseif q > 0 and (q - 1) * d1 >= y1 then
                            q = q - 1
                        end
                    end
                    if q > dvt then q = dvt end
                    return q
                end
                local odvt = (ob + 1) * oP
                local used = 0 -- in the old 1/c us, at most the old DVT
                if w >= now then
                    local dd = w - now
                    if dd * oc1 > odvt - z then
                        used = odvt
                    else
                        used = dd * oc1 + z
                    end
                end
                local u
                if mode == 'proportional' then
                    u = mdc(used, dvt, odvt)
                else
                    u = mdc(used, P, oP)
                    if mode == 'additive' and burst < ob then
                        u = u - (ob - burst) * P
                        if u < 0 then u = 0 end
                    end
                end
                local q = idiv(u, c)
                v, x, den = now + q, u - q * c, c
            end
        end
    end
    if v and x > 0 and den ~= c then
        -- Written under another rate: round up to the whole us (never over-admit).
        v, x = v + 1, 0
    end
    -- Foreign state (ALGORITHMS.md "Stored state"): a TAT that is not a whole number below
    -- 2^53, or is 2^52 us or more ahead (nan, inf, 1e400, text), is absent; a past one is too.
    if v and v >= now and v < 9007199254740992 and v - now < 4503599627370496 and v % 1 == 0 then
        tat, rem = v, x
    end
end

-- rel = max(TAT, now) - now in 1/c us = d x c + rem. After a clock step back it can exceed
-- DVT ("far"), and then it is never multiplied out (d x c could pass 2^53). The comparison is
-- exact even when the product is not (dvt - rem is exact and the rounding is monotone).
local d = tat - now
local far = d * c > dvt - rem
local rel = 0
if not far then rel = d * c + rem end

local allowed, retry = 1, -1
if cost > limit then
    allowed = 0
elseif cost > 0 then
    local need = cost * P
    if not far and rel + need <= dvt then
        -- new TAT = base + need / c = (tat + q) + x / c; reset = ceil(rel' / c) us.
        local x = rem + need
        local q = idiv(x, c)
        x = x - q * c
        local reset = d + q
        if x > 0 then reset = reset + 1 end
        reset = cdiv(reset, 1000)
        local ttl = reset
        if ttl < minTtl then ttl = minTtl end
        if ttl < 1 then ttl = 1 end
        local value
        if x > 0 then
            value = fmt('%.0f+%.0f/%.0f', tat + q, x, c)
        else
            value = fmt('%.0f', tat + q)
        end
        if ver then value = value .. '@' .. ver end
        call('SET', key, value, 'PX', fmt('%.0f', ttl))
        return {1, limit, idiv(dvt - rel - need, P), -1, reset, 0}
    end
    -- Denied: admitted once rel has fallen by rel + need - dvt, i.e. after
    -- ceil((d x c + rem + need - dvt) / c) = d + ceil((rem + need - dvt) / c) us.
    allowed = 0
    retry = cdiv(d + cdiv(rem + need - dvt, c), 1000)
end
local remaining = 0
if not far then remaining = idiv(dvt - rel, P) end
local reset = d
if rem > 0 then reset = reset + 1 end
return {allowed, limit, remaining, retry, cdiv(reset, 1000), 0}
