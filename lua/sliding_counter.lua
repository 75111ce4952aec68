--[[ sluice sliding_counter: the sliding window approximated from two fixed-window counters,
the previous one weighted by the part of it still inside the sliding window:
admit when prev * (1 - elapsed / W) + cur + cost <= limit, in exact integers.

KEYS[1]  the subject's state key (the only key touched)
ARGV     limit, window_us, cost, now_us [, min_ttl_ms [, version, on_change [, count_rejected] ] ]
         limit, window_us: integers >= 1 with 2 x limit x window_us <= 2^53
         cost: integer in 0..2^53-1; 0 = peek (allowed = 1, nothing written)
         now_us: integer in 0..2^53-1, or '' to read the server's TIME (production)
         min_ttl_ms: optional TTL floor for the simulator ('' or absent = none)
         version: the rule version, "sc:<limit>:<window_us>" ('' or absent: none, and the
           state is neither stamped nor migrated); on_change: keep_used, reset, proportional
           or additive (lua/README.md "Rule versions")
         count_rejected: '1' = a denied request with cost <= limit is counted as if admitted:
           its cost is added to the current window's count, up to the limit (so that the
           products stay exact); '', '0' or absent = a denial writes nothing
Reply    {allowed (0|1), limit, remaining, retry_after_ms, reset_after_ms, delay_ms = 0}
         retry_after_ms = -1 when allowed, and when cost > limit (never admissible).
State    hash  s = start of the current window (us), c = its count, p = the previous
         window's count. Windows run back to back from the first admission on an empty state
         (s, s + W, s + 2W, ...); once both counts have slid out the state is empty and the
         next admission anchors a new grid at its own time.
         Written only on admission with cost > 0 (HINCRBY c, or HSET s c p after a roll or a
         new anchor), with PEXPIRE max(reset_after_ms, 1, min_ttl_ms) = the end of the next
         window; an HINCRBY of a c that was > 0 already leaves that end, and so the TTL, as
         it was (a PTTL checks the key has one; with min_ttl_ms every write sets it).
         Denials and peeks write nothing, except a counted denial (count_rejected), written
         as an admission of min(cost, limit - c) would be (nothing when c >= limit). A foreign state (s, c or p not a whole
         number >= 0, s >= 2^53 or s >= now + 2^52, c x W or p x W above 2^53 - 1) is an empty
         one: the next admission anchors a new grid and rewrites all three fields.
         v = the rule version of the last write. Another version: c and p are migrated per
         on_change (the grid keeps its anchor s, windows take the new length), in memory; an
         admission writes s c p v whole (and PEXPIRE), a denial nothing. Another algorithm's
         version, one that does not parse, reset, or another Sluice type (zset, string): a
         fresh state, and the admission deletes the key first. No v (an older Sluice): the
         current version.
Cost     O(1). redis.call per admitted request: HMGET + HINCRBY + PTTL, or HMGET + HSET
         + PEXPIRE = 3;
         denied or peek: HMGET = 1; + TIME when now_us is ''.
Arithmetic: lua/README.md "sliding_counter"; twin: core/limiter/model_windows.cpp.
Products stay below 2^53 thanks to the 2 x limit x window bound, so they are exact; the
quotients use a corrected floor division (idiv), inlined: the only closure made on the hot
path is the argument converter. ]]

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
local ver, mode = a[6], a[7]
if ver == '' then ver = nil end
local badMode = ver and mode ~= 'keep_used' and mode ~= 'reset' and mode ~= 'proportional'
    and mode ~= 'additive'
local countRej = a[8]
local badCount = countRej and countRej ~= '' and countRej ~= '0' and countRej ~= '1'
countRej = countRej == '1'
-- x % 1 is NaN for NaN and infinities, so the sum test also rejects them. limit x window is
-- exact whenever it is <= 2^52 (and > 2^52 whenever the exact product is).
if badMode or badCount or not (ok and limit >= 1 and window >= 1 and cost >= 0 and now >= 0 and minTtl >= 0
        and limit <= MAX and window <= MAX and cost <= MAX and now <= MAX and minTtl <= MAX
        and limit % 1 + window % 1 + cost % 1 + now % 1 + minTtl % 1 == 0
        and limit * window <= 4503599627370496) then
    -- Cold path: name the first bad slot.
    local function bad(i, name, lo, extra)
        local n = tonumber(a[i])
        if i == 4 and a[4] == '' or i == 5 and (a[5] == nil or a[5] == '') then return nil end
        if n and n >= lo and n <= MAX and n % 1 == 0 then return nil end
        return redis.error_reply(fmt(
            "ERR sluice sliding_counter: ARGV[%d] %s must be an integer in %d..2^53-1%s, got '%s'",
            i, name, lo, extra or '', tostring(a[i])))
    end
    return bad(1, 'limit', 1) or bad(2, 'window_us', 1) or bad(3, 'cost', 0)
        or bad(4, 'now_us', 0, " or '' (server time)")
        or bad(5, 'min_ttl_ms', 0, " or '' (none)")
        or badMode and redis.error_reply(fmt("ERR sluice sliding_counter: ARGV[7] on_change "
            .. "must be keep_used, reset, proportional or additive, got '%s'", tostring(a[7])))
        or badCount and redis.error_reply(fmt("ERR sluice sliding_counter: ARGV[8] "
            .. "count_rejected must be '1', '0' or '', got '%s'", tostring(a[8])))
        or redis.error_reply(fmt(
            'ERR sluice sliding_counter: ARGV[1] limit x ARGV[2] window_us is too large for ' ..
            'exact arithmetic (2 x limit x window_us must be <= 2^53), got %s x %s',
            a[1], a[2]))
end

local key = KEYS[1]
local h
local wipe = false -- the admission deletes the key first (a fresh state replaces another)
if ver then
    h = redis.pcall('HMGET', key, 's', 'c', 'p', 'v')
    if h.err then
        -- Another Redis type: another Sluice algorithm's state (the rule changed algorithm)
        -- is a fresh state; anything else stays the error it is (raised again by redis.call, with
        -- the script's name, as without a version).
        local ty = call('TYPE', key).ok
        if ty ~= 'zset' and ty ~= 'string' then call('HMGET', key, 's') end -- raises it
        h, wipe = {false, false, false, false}, true
    end
else
    h = call('HMGET', key, 's', 'c', 'p')
end
local stamp = ver and h[4] ~= ver -- the next write stamps the version (and sets the TTL)
local s = h[1] -- false when the key is absent
local c, p = 0, 0
local rolled = false
if s then
    s, c, p = tonumber(s), h[2], h[3]
    if c then c = tonumber(c) else c = 0 end
    if p then p = tonumber(p) else p = 0 end
    local hv = ver and h[4]
    -- Written under another rule version (lua/README.md "Rule versions").
    if hv and hv ~= ver and hv ~= '' and s and c and p and s >= 0 and s <= MAX
            and s - now < 4503599627370496 and c >= 0 and c <= MAX and p >= 0 and p <= MAX
            and s % 1 + c % 1 + p % 1 == 0 then
        local oc, ol, ow = string.match(hv, '^(%l%l):(%d+):(%d+)$')
        ol, ow = tonumber(ol), tonumber(ow)
        wipe = true
        if oc ~= 'sc' or mode == 'reset' or not (ol and ol >= 1 and ol <= MAX and ow >= 1
                and ow <= MAX) then
            s = false
        elseif mode ~= 'keep_used' then
            local function changed(u)
                if mode == 'proportional' then
                    if u > ol then u = ol end
                    local x = u * limit
                    local q = math.ceil(x / ol)
                    if x < 9007199254740992 then
                        if q * ol < x then
                            q = q + 1
                        elseif q > 0 and (q - 1) * ol >= x then
                            q = q - 1
                        end
                    end
                    if q > limit then q = limit end
                    return q
                elseif limit < ol then
                    u = u - (ol - limit)
                    if u < 0 then u = 0 end
                end
                return u
            end
            c, p = changed(c), changed(p)
        end
    end
    -- Foreign state (ALGORITHMS.md "Stored state"): nan, inf, text, negative, out of range.
    if not (s and c and p and s >= 0 and s <= MAX and s - now < 4503599627370496 and c >= 0
            and p >= 0 and c * window <= MAX and p * window <= MAX
            and s % 1 + c % 1 + p % 1 == 0) then
        s, c, p = false, 0, 0
    end
end
if s then
    local d = now - s -- < 0 when the clock stepped back: the stored window stays current
    if d >= window then
        if d < window + window then
            -- The next window: this count becomes the previous one.
            p = c
            c = 0
            s = s + window
            rolled = true
        else
            -- Both counts have slid out.
            c = 0
            p = 0
        end
    end
end
local empty = c == 0 and p == 0
local e = 0 -- elapsed in the current window
if not empty then
    e = now - s
    if e < 0 then e = 0 end
end
local nw = limit * window

local allowed, kept = 1, false
local by = cost -- what is added to c: the cost, or what a counted denial adds
if cost > 0 then
    if cost > limit or p * (window - e) + (c + cost) * window > nw then
        allowed, by = 0, 0
        if countRej and cost <= limit and c < limit then
            -- Counted (count_rejected), up to the limit. A denial finds c or p > 0: never
            -- an empty state.
            by = limit - c
            if by > cost then by = cost end
        end
    end
    if by == 0 then
        -- Denied and not counted, or a peek: nothing written.
    elseif empty or rolled or stamp then
        if empty then
            -- A new grid anchored at now.
            s, c, p = now, by, 0
        else
            -- After a roll c is 0; with the version stamped, s c p v are written whole.
            c = c + by
        end
        if wipe then call('DEL', key) end
        if ver then
            call('HSET', key, 's', fmt('%d', s), 'c', fmt('%d', c), 'p', fmt('%d', p), 'v', ver)
        else
            call('HSET', key, 's', fmt('%d', s), 'c', fmt('%d', c), 'p', fmt('%d', p))
        end
    else
        -- With c > 0 already, reset (s + 2W - now) has the same end before and after: the
        -- TTL set by the write that made c > 0 stays (checked below).
        kept = c > 0
        c = c + by
        -- A one-character cost is a digit: its ARGV string is already canonical.
        local text = a[3]
        if #text ~= 1 or by ~= cost then text = fmt('%d', by) end
        call('HINCRBY', key, 'c', text)
    end
end

-- floor(x / W) and ceil(us / 1000) below are exact for operands below 2^53: the double
-- quotient may round to the next integer, which the products catch (a negative us % 1000 is
-- the same rounding, and then (us - r) / 1000 is already the ceiling).
local x = nw - p * (window - e) - c * window
local remaining = 0
if x > 0 then
    remaining = math.floor(x / window)
    if remaining * window > x then
        remaining = remaining - 1
    elseif (remaining + 1) * window <= x then
        remaining = remaining + 1
    end
end
local reset = 0
if c > 0 then
    reset = window + window - (now - s)
elseif p > 0 then
    reset = window - (now - s)
end
local r = reset % 1000
reset = (reset - r) / 1000
if r > 0 then reset = reset + 1 end

-- The TTL: set by the write that anchors, rolls, or makes c > 0; an increment of c > 0 keeps
-- it, unless the key has none (PTTL -1: another writer made it, or took it away) or the
-- simulator asks for its floor (min_ttl_ms) on every write.
if by > 0 and not (kept and minTtl == 0 and call('PTTL', key) > 0) then
    local ttl = reset
    if ttl < 1 then ttl = 1 end
    if ttl < minTtl then ttl = minTtl end
    call('PEXPIRE', key, fmt('%d', ttl))
end

if allowed == 0 then
    local retry = -1
    if cost <= limit then
        local floor = math.floor
        local function idiv(y, z) -- floor(y / z), exact as above
            local q = floor(y / z)
            if q * z > y then
                q = q - 1
            elseif (q + 1) * z <= y then
                q = q + 1
            end
            return q
        end
        local retryUs
        local d = limit - c - cost
        local eMin = window
        if d >= 0 and p > 0 then
            eMin = window - idiv(d * window, p)
        end
        if eMin < window then
            -- Later in this window, once the previous window's weight has fallen enough.
            retryUs = eMin - (now - s)
        else
            -- In the next window, where this window's count becomes the previous one.
            local e2 = 0
            if c > 0 then
                e2 = window - idiv((limit - cost) * window, c)
                if e2 < 0 then e2 = 0 end
            end
            retryUs = window + e2 - (now - s)
        end
        r = retryUs % 1000
        retry = (retryUs - r) / 1000
        if r > 0 then retry = retry + 1 end
    end
    return {0, limit, remaining, retry, reset, 0}
end
return {1, limit, remaining, -1, reset, 0}
