--[[ sluice fixed_window: at most `limit` units per window of `window_us`; a window opens with
the first request admitted at or after the end of the previous one (never on a denial).

KEYS[1]  the subject's state key (the only key touched)
ARGV     limit, window_us, cost, now_us [, min_ttl_ms [, version, on_change [, count_rejected] ] ]
         limit, window_us: integers in 1..2^53-1
         cost: integer in 0..2^53-1; 0 = peek (allowed = 1, nothing written)
         now_us: integer in 0..2^53-1, or '' to read the server's TIME (production)
         min_ttl_ms: optional TTL floor for the simulator ('' or absent = none)
         version: the rule version, "fw:<limit>:<window_us>" ('' or absent: none, and the
           state is neither stamped nor migrated); on_change: keep_used, reset, proportional
           or additive (lua/README.md "Rule versions")
         count_rejected: '1' = a denied request with cost <= limit is counted as if admitted
           (its cost added to the live window's count, which may then pass the limit); '',
           '0' or absent = a denial writes nothing
Reply    {allowed (0|1), limit, remaining, retry_after_ms, reset_after_ms, delay_ms = 0}
         retry_after_ms = -1 when allowed, and when cost > limit (never admissible).
State    hash  s = window start (us), c = units admitted in that window.
         The window is live while now - s < window_us; a clock before s keeps it live.
         Written only on admission with cost > 0, or on a counted denial (count_rejected:
         HINCRBY into the live window, which a denial with cost <= limit always finds). The admission that opens a window writes
         both fields and PEXPIRE max(reset_after_ms, 1, min_ttl_ms): the TTL ends with the
         window. An admission into the live window only adds to c (HINCRBY): the window's
         end has not moved, so neither does the TTL; a PTTL checks that the key has one
         (a key another writer made without TTL gets the TTL here).
         A foreign state (s or c not a whole number in 0..2^53-1, or s >= now + 2^52) is no
         window at all: the next admission rewrites both fields.
         v = the rule version of the last write. Another version: the count is migrated per
         on_change (the start stays, the new window length applies), in memory; an admission
         writes s c v whole (and PEXPIRE), a denial nothing. Another algorithm's version, a
         version that does not parse, reset, or another Sluice type (zset, string): a fresh
         state, and the admission deletes the key first. No v (an older Sluice): the current
         version.
Cost     O(1). redis.call per request: opening HMGET + HSET + PEXPIRE = 3; into the live
         window HMGET + HINCRBY + PTTL = 3 (+ PEXPIRE when PTTL < 1, or with min_ttl_ms);
         denied or peek: HMGET = 1; a counted denial as an admission into the live window;
         + TIME when now_us is ''.
Arithmetic: lua/README.md "fixed_window"; twin: core/limiter/model_windows.cpp.

This script is benchmarked (tools/bench-peers.sh), so the hot path avoids what costs in
Redis' Lua (callgrind, instructions per call, README "Measured"): every redis.call (an
array reply such as HMGET's or TIME's costs twice a scalar one), every string parsed
(tonumber() parses twice, x + 0 once but raises on text, so one pcall converts the numbers;
a cost of '1', nearly every production call, is not parsed at all), and string.format (an
ARGV string is free: HINCRBY takes the cost as it came). ]]

local call = redis.call
local MAX = 9007199254740991 -- 2^53 - 1: integers up to here are exact in a double
local a, key = ARGV, KEYS[1]
local now, given = a[4], true
if now == '' then
    -- A write after TIME needs effects replication: Redis 7+ always does it (there
    -- replicate_commands() is a deprecated no-op, and REDIS_VERSION_NUM exists), older ones
    -- on request.
    if not redis.REDIS_VERSION_NUM and redis.replicate_commands then
        redis.replicate_commands()
    end
    local t = call('TIME')
    now, given = t[1] * 1000000 + t[2], false
end
local ver, mode = a[6], a[7]
if ver == '' then ver = nil end
local badMode = ver and mode ~= 'keep_used' and mode ~= 'reset' and mode ~= 'proportional'
    and mode ~= 'additive'
local countRej = a[8]
local badCount = countRej and countRej ~= '' and countRej ~= '0' and countRej ~= '1'
countRej = countRej == '1'
local h
local wipe = false -- the admission deletes the key first (a fresh state replaces another)
if ver then
    h = redis.pcall('HMGET', key, 's', 'c', 'v')
    if h.err then
        -- Another Redis type: another Sluice algorithm's state (the rule changed algorithm)
        -- is a fresh state; anything else stays the error it is (raised again by redis.call, with
        -- the script's name, as without a version).
        local ty = call('TYPE', key).ok
        if ty ~= 'zset' and ty ~= 'string' then call('HMGET', key, 's') end -- raises it
        h, wipe = {false, false, false}, true
    end
else
    h = call('HMGET', key, 's', 'c')
end
local hs, hc = h[1], h[2] -- false when absent; else the digits this script wrote
local by = a[3]
local cost = by
if by == '1' then cost = 1 end
-- The arguments and the two fields in one protected conversion; on a coercion error (text
-- somewhere) the arguments alone: then the state is foreign, or the cold path below names
-- the bad argument.
-- (A failed pcall returns false and the message: the inputs stay in x and t.)
local function num(l, w, x, n, p, q) return l + 0, w + 0, x + 0, n + 0, p + 0, q + 0 end
local x, t = cost, now
local ok, limit, window, s, c
ok, limit, window, cost, now, s, c = pcall(num, a[1], a[2], x, t, hs or 0, hc or 0)
if not ok then
    ok, limit, window, cost, now = pcall(num, a[1], a[2], x, t, 0, 0)
    hs = false
end
local minTtl = a[5]
if minTtl == nil or minTtl == '' then
    minTtl = 0
else
    minTtl = tonumber(minTtl) or -1
end
-- x % 1 is NaN for NaN and infinities, so the sum test also rejects them. A time from TIME
-- and an absent min_ttl_ms need no check.
if not (ok and limit >= 1 and window >= 1 and cost >= 0 and limit <= MAX and window <= MAX
        and cost <= MAX and limit % 1 + window % 1 + cost % 1 == 0)
    or given and not (now >= 0 and now <= MAX and now % 1 == 0)
    or minTtl ~= 0 and not (minTtl >= 0 and minTtl <= MAX and minTtl % 1 == 0)
    or badMode or badCount then
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
        or badMode and redis.error_reply(string.format("ERR sluice fixed_window: ARGV[7] on_change "
            .. "must be keep_used, reset, proportional or additive, got '%s'", tostring(a[7])))
        or badCount and redis.error_reply(string.format("ERR sluice fixed_window: ARGV[8] "
            .. "count_rejected must be '1', '0' or '', got '%s'", tostring(a[8])))
        or redis.error_reply('ERR sluice fixed_window: bad arguments')
end

-- Written under another rule version (lua/README.md "Rule versions"): the count meets the
-- new limit per on_change, the window keeps its start and takes the new length.
local hv = ver and h[3]
local stamp = ver and hv ~= ver -- the next write stamps the version (and sets the TTL)
if stamp and hv and hv ~= '' and hs and s >= 0 and s <= MAX and s - now < 4503599627370496
        and c >= 0 and c <= MAX and s % 1 + c % 1 == 0 then
    local oc, ol, ow = string.match(hv, '^(%l%l):(%d+):(%d+)$')
    ol, ow = tonumber(ol), tonumber(ow)
    wipe = true
    if oc ~= 'fw' or mode == 'reset' or not (ol and ol >= 1 and ol <= MAX and ow >= 1
            and ow <= MAX) then
        hs = false
    elseif mode == 'proportional' then
        -- ceil(min(c, ol) x limit / ol), exact while the product is below 2^53.
        if c > ol then c = ol end
        local x = c * limit
        local q = math.ceil(x / ol)
        if x < 9007199254740992 then
            if q * ol < x then q = q + 1 elseif q > 0 and (q - 1) * ol >= x then q = q - 1 end
        end
        if q > limit then q = limit end
        c = q
    elseif mode == 'additive' and limit < ol then
        c = c - (ol - limit)
        if c < 0 then c = 0 end
    end
end

local count, left = 0, 0 -- units in the live window, us until it ends (0: no live window)
-- Foreign state (ALGORITHMS.md "Stored state"): s or c not a whole number in range (nan,
-- inf, text, negative, s 2^52 us or more ahead) is no window; the next admission rewrites.
-- A missing c is 0 (hc or 0 above); a missing s is no window. now - s < 0 (the clock
-- stepped back) keeps the window live.
if hs and s >= 0 and s <= MAX and s - now < 4503599627370496 and c >= 0 and c <= MAX
        and s % 1 + c % 1 == 0 and now - s < window then
    count = c
    left = window - (now - s)
end

local opened, allowed = false, 1
if cost > 0 then
    if count + cost > limit and countRej and cost <= limit then
        -- Denied and counted (count_rejected): written below as an admission into the live
        -- window would be.
        allowed = 0
    elseif count + cost > limit then
        -- Denied. cost <= limit implies count > 0: the window is live and its end admits.
        -- reset = ceil(left / 1000) ms (see below).
        local r = left % 1000
        local reset = (left - r) / 1000
        if r > 0 then reset = reset + 1 end
        local remaining = limit - count
        if remaining < 0 then remaining = 0 end -- only after the limit was lowered
        return {0, limit, remaining, cost > limit and -1 or reset, reset, 0}
    end
    -- A one-character cost is a digit: its ARGV string is already canonical.
    if #by ~= 1 then by = string.format('%d', cost) end
    if wipe then call('DEL', key) end
    if left > 0 and not stamp then
        call('HINCRBY', key, 'c', by)
        count = count + cost
    elseif left > 0 then
        -- Into the live window, with the version stamped: s c v whole, and the TTL.
        count = count + cost
        call('HSET', key, 's', string.format('%d', s), 'c', string.format('%d', count), 'v', ver)
        opened = true
    else
        if ver then
            call('HSET', key, 's', string.format('%d', now), 'c', by, 'v', ver)
        else
            call('HSET', key, 's', string.format('%d', now), 'c', by)
        end
        count = cost
        left = window
        opened = true
    end
end

-- reset = ceil(left / 1000) ms. left % 1000 is exact below 2^53 except that a rounded
-- quotient can make it negative, and then (left - r) / 1000 is already the ceiling.
local r = left % 1000
local reset = (left - r) / 1000
if r > 0 then reset = reset + 1 end
local remaining = limit - count
if remaining < 0 then remaining = 0 end -- only after the limit was lowered

-- The TTL: set where the window opens (it ends with the window); an increment keeps it,
-- unless the key has none (PTTL -1: another writer made it, or took it away; 0: it goes
-- this millisecond) or the
-- simulator asks for its floor (min_ttl_ms) on every write.
if opened or cost > 0 and (minTtl > 0 or call('PTTL', key) < 1) then
    local ttl = reset
    if ttl < 1 then ttl = 1 end
    if ttl < minTtl then ttl = minTtl end
    call('PEXPIRE', key, string.format('%d', ttl))
end
if allowed == 0 then return {0, limit, remaining, reset, reset, 0} end
return {1, limit, remaining, -1, reset, 0}
