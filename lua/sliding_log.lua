--[[ sluice sliding_log: at most `limit` units in any window (now - window_us, now], counted
exactly: one sorted-set entry per admitted unit.

KEYS[1]  the subject's state key (the only key touched)
ARGV     limit, window_us, cost, now_us [, min_ttl_ms [, version, on_change [, count_rejected] ] ]
         limit, window_us: integers in 1..2^53-1
         cost: integer in 0..2^53-1; 0 = peek (allowed = 1, nothing written)
         now_us: integer in 0..2^53-1, or '' to read the server's TIME (production)
         min_ttl_ms: optional TTL floor for the simulator ('' or absent = none)
         version: the rule version, "sl:<limit>:<window_us>" ('' or absent: none, and the
           state is neither stamped nor migrated); on_change: keep_used, reset, proportional
           or additive (lua/README.md "Rule versions")
         count_rejected: '1' = a denied request with cost <= limit is counted as if admitted:
           its entries are added at now and the oldest leave, so that the log holds exactly
           `limit` entries; '', '0' or absent = a denial writes nothing
Reply    {allowed (0|1), limit, remaining, retry_after_ms, reset_after_ms, delay_ms = 0}
         retry_after_ms = -1 when allowed, and when cost > limit (never admissible).
State    sorted set, one member per admitted unit: score = admission time (us), member
         "<now_us>:<i>", i running on from the number of members already at that score, so
         members stay unique within one microsecond. count = entries with score > now - W
         (entries dated after now, after a clock step back, count too).
         Written only on admission with cost > 0: ZREMRANGEBYSCORE -inf now-W (the trim), ZADD,
         PEXPIRE max(reset_after_ms, 1, min_ttl_ms). Denials and peeks write nothing, except
         a counted denial (count_rejected), written as an admission that first drops the
         oldest entries beyond `limit`: a window holding `limit` entries or more denies any
         cost > 0 until they leave, and the newest `limit` decide when, so the decisions are
         those of a log that kept every entry, and the log never holds more than `limit`.
         A foreign state (the newest score 2^52 us or more after now: inf, 1e300) is an empty
         log; the next admission deletes the key instead of trimming it.
         The member "v:<version>" at score -inf: the rule version of the last write (every
         trim removes it, every admission adds it again). Another version, read when the
         window (the new one) holds entries: the count meets the new limit per on_change,
         the oldest entries leaving first or extra ones added at the oldest entry's time; in
         memory, and written only with an admission. Another algorithm's version, one that
         does not parse, reset, or another Sluice type (hash, string): a fresh state, and
         the admission deletes the key first. No version member (an older Sluice): the
         current version.
Cost     O(log n + trimmed + cost). redis.call per admitted request: ZCOUNT, ZRANGE -1 -1
         (when the window holds entries), ZCOUNT now now (only when the newest entry is not
         older than now: same microsecond or clock stepped back), ZREMRANGEBYSCORE, ZADD (one
         per 1000 units), PEXPIRE: 5 as a rule (4 on an empty window, 6 at a repeated
         microsecond); denied: ZCOUNT, ZRANGE, ZRANGEBYSCORE = 3; a counted denial: an
         admission's, + 3 or 4 to drop the oldest entries, + ZRANGEBYSCORE; peek: 1 or 2;
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
local ver, mode = a[6], a[7]
if ver == '' then ver = nil end
local badMode = ver and mode ~= 'keep_used' and mode ~= 'reset' and mode ~= 'proportional'
    and mode ~= 'additive'
local countRej = a[8]
local badCount = countRej and countRej ~= '' and countRej ~= '0' and countRej ~= '1'
countRej = countRej == '1'
-- x % 1 is NaN for NaN and infinities, so the sum test also rejects them.
if badMode or badCount or not (ok and limit >= 1 and window >= 1 and cost >= 0 and now >= 0 and minTtl >= 0
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
        or badMode and redis.error_reply(fmt("ERR sluice sliding_log: ARGV[7] on_change "
            .. "must be keep_used, reset, proportional or additive, got '%s'", tostring(a[7])))
        or badCount and redis.error_reply(fmt("ERR sluice sliding_log: ARGV[8] count_rejected "
            .. "must be '1', '0' or '', got '%s'", tostring(a[8])))
        or redis.error_reply('ERR sluice sliding_log: bad arguments')
end

-- Times in ms are ceil(us / 1000), for 0 <= us < 2^53: us % 1000 is exact except that a
-- rounded quotient can make it negative, and then (us - r) / 1000 is already the ceiling.

local key = KEYS[1]
local lo = now - window -- entries with score <= lo have left the window (lo may be < 0)
local after = fmt('(%d', lo)
local count
local newest = false -- the newest score, read only when the window holds entries
local foreign = false -- the next admission deletes the key (a foreign or a fresh state)
if ver then
    count = redis.pcall('ZCOUNT', key, after, '+inf')
    if type(count) == 'table' then
        -- Another Redis type: another Sluice algorithm's state (the rule changed algorithm)
        -- is a fresh state; anything else stays the error it is (raised again by redis.call, with
        -- the script's name, as without a version).
        local ty = call('TYPE', key).ok
        if ty ~= 'hash' and ty ~= 'string' then call('ZCOUNT', key, after, '+inf') end
        count, foreign = 0, true
    end
else
    count = call('ZCOUNT', key, after, '+inf')
end
if count > 0 then
    newest = call('ZRANGE', key, '-1', '-1', 'WITHSCORES')[2] + 0
    -- Foreign state (ALGORITHMS.md "Stored state"): an entry 2^52 us or more ahead (inf,
    -- 1e300) makes the log absent; the next admission deletes the key and starts afresh.
    if newest - now >= 4503599627370496 then
        count, newest, foreign = 0, false, true
    end
end
-- Adds the members <score>:<first> .. <score>:<last> at `score` (a decimal string).
-- unpack() is limited to a few thousand values: 1000 members per ZADD.
local function addMembers(score, first, last)
    while first <= last do
        local stop = first + 999
        if stop > last then stop = last end
        local args, n = {}, 0
        for j = first, stop do
            args[n + 1] = score
            args[n + 2] = fmt('%s:%d', score, j)
            n = n + 2
        end
        call('ZADD', key, unpack(args))
        first = stop + 1
    end
end

-- Written under another rule version (lua/README.md "Rule versions"): the entries in the
-- new window meet the new limit. drop: the oldest ones leave; add: more at the oldest time.
local drop, add, oldest = 0, 0, false
if ver and count > 0 then
    local m = call('ZRANGE', key, '0', '0')[1]
    local ov = m and string.sub(m, 1, 2) == 'v:' and string.sub(m, 3)
    if ov and ov ~= ver and ov ~= '' then
        local oc, ol, ow = string.match(ov, '^(%l%l):(%d+):(%d+)$')
        ol, ow = tonumber(ol), tonumber(ow)
        if oc ~= 'sl' or mode == 'reset' or not (ol and ol >= 1 and ol <= MAX and ow >= 1
                and ow <= MAX) then
            count, newest, foreign = 0, false, true
        elseif mode ~= 'keep_used' then
            local u = count
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
                u = q
            elseif limit < ol then
                u = u - (ol - limit)
                if u < 0 then u = 0 end
            end
            if u < count then
                drop = count - u
            elseif u > count then
                add = u - count
                oldest = call('ZRANGEBYSCORE', key, after, '+inf', 'WITHSCORES', 'LIMIT', '0',
                              '1')[2] + 0
            end
            count = u
            if count == 0 then newest = false end
        end
    end
end
local remaining = limit - count
if remaining < 0 then remaining = 0 end -- only after the limit was lowered

local counted = false -- a denial written as an admission (count_rejected)
if cost > 0 and count + cost > limit and countRej and cost <= limit then
    -- The oldest k entries of the (migrated) log leave: first the ones a migration would
    -- add at the oldest time, then stored ones.
    local k = count + cost - limit
    if k <= add then
        add = add - k
    else
        drop, add = drop + k - add, 0
    end
    count, counted = limit - cost, true
    if count == 0 then newest = false end -- every entry leaves (cost = limit)
end
if cost > 0 then
    if count + cost > limit then
        -- Denied. The entry that must leave is the (count + cost - limit)-th oldest in the
        -- window; it leaves at its score + window.
        local retry = -1
        if cost <= limit then
            local k = count + cost - limit
            local score = oldest -- the k-th oldest of the migrated log (see drop, add)
            if k > add then
                score = call('ZRANGEBYSCORE', key, after, '+inf', 'WITHSCORES', 'LIMIT',
                             fmt('%d', k - add + drop - 1), '1')[2]
            end
            local us = window - (now - score)
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
    if foreign then
        call('DEL', key)
    else
        call('ZREMRANGEBYSCORE', key, '-inf', fmt('%d', lo))
    end
    -- Members at one score are numbered 0..m-1 (the next one is "<score>:<m>"): a
    -- migration keeps that, removing the highest numbers at the last score it drops from.
    if drop > 0 then
        local last = call('ZRANGE', key, fmt('%d', drop - 1), fmt('%d', drop - 1),
                          'WITHSCORES')[2]
        local below = call('ZCOUNT', key, '-inf', '(' .. last)
        local m = call('ZCOUNT', key, last, last)
        call('ZREMRANGEBYSCORE', key, '-inf', '(' .. last)
        local ls = fmt('%d', last + 0)
        for j = m - (drop - below), m - 1 do
            call('ZREM', key, fmt('%s:%d', ls, j))
        end
    end
    if add > 0 then
        local os = fmt('%d', oldest)
        local j = call('ZCOUNT', key, os, os)
        addMembers(os, j, j + add - 1)
    end
    -- Members at this microsecond: there can be some only when the newest entry is not
    -- older than now.
    local i = 0
    if newest and newest >= now then
        i = call('ZCOUNT', key, nowStr, nowStr)
    end
    if cost == 1 and ver then
        call('ZADD', key, '-inf', 'v:' .. ver, nowStr, fmt('%s:%d', nowStr, i))
    elseif cost == 1 then
        call('ZADD', key, nowStr, fmt('%s:%d', nowStr, i))
    else
        if ver then call('ZADD', key, '-inf', 'v:' .. ver) end
        addMembers(nowStr, i, i + cost - 1)
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
    if counted then
        -- The request again is admitted once the cost-th oldest entry has left.
        local score = call('ZRANGEBYSCORE', key, after, '+inf', 'WITHSCORES', 'LIMIT',
                           fmt('%d', cost - 1), '1')[2]
        us = window - (now - score)
        r = us % 1000
        local retry = (us - r) / 1000
        if r > 0 then retry = retry + 1 end
        return {0, limit, 0, retry, reset, 0}
    end
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
