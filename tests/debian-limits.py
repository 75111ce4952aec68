# Drives Debian's python limits (python3-limits), unmodified, against a Redis, for
# tests/tst_debian_limiters.cpp: its RedisStorage (python3-redis) and one of its three
# strategies, 5 per minute.
#
#   /usr/bin/python3 debian-limits.py STEP REDIS_URL TAG STRATEGY
#
# STEP      write: three hits; again: three more (after the test took the TTL away)
# TAG       the first identifier, so that runs never share keys
# STRATEGY  fixed (fixed-window), elastic (fixed-window-elastic-expiry), moving (moving-window)
# Prints one JSON line: the hits' answers (true: allowed), the key the strategy wrote and the
# library's version.
import json
import sys

import limits
from limits import parse
from limits.storage import RedisStorage
from limits.strategies import (
    FixedWindowElasticExpiryRateLimiter,
    FixedWindowRateLimiter,
    MovingWindowRateLimiter,
)

STRATEGIES = {
    "fixed": FixedWindowRateLimiter,
    "elastic": FixedWindowElasticExpiryRateLimiter,
    "moving": MovingWindowRateLimiter,
}
if len(sys.argv) != 5 or sys.argv[4] not in STRATEGIES:
    sys.exit("usage: debian-limits.py write|again REDIS_URL TAG fixed|elastic|moving")
step, url, tag, name = sys.argv[1:5]
storage = RedisStorage(url)  # the strategy holds it by a weak reference only
limiter = STRATEGIES[name](storage)
item = parse("5/minute")
hits = [limiter.hit(item, tag, name) for _ in range(3)]
print(json.dumps({"version": limits.__version__, "hits": hits, "key": item.key_for(tag, name)}))
