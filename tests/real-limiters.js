// Drives real rate limiters from npm, unmodified, against a Redis, for tests/tst_real_limiters.cpp:
// each library writes its keys through its own API, as an application would.
//
//   node real-limiters.js LIBRARY STEP REDIS_URL TAG
//
// LIBRARY  rlflx | rate-limit-redis | fastify | nestjs
// STEP     write: the first requests; again: one more round (after the test took a TTL away);
//          traffic (rlflx only): two subjects for 4 s, top-busy past its limit of 100 and
//          asking 10 times a second, top-quiet 5 times a second; prints "started" once
//          top-busy is over its limit, then the decisions
// TAG      a prefix for the subjects, so that runs never share keys
// Prints one JSON line: what the library answered.
'use strict';

const crypto = require('crypto');
const Redis = require('ioredis');

const [lib, step, url, tag] = process.argv.slice(2);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Consumes one point; true when the limiter allowed it.
async function take(limiter, key) {
  try {
    await limiter.consume(key);
    return true;
  } catch (e) {
    if (e instanceof Error) throw e; // a Redis error, not a rejection
    return false;
  }
}

async function rlflxTraffic(redis) {
  const { RateLimiterRedis } = require('rate-limiter-flexible');
  const limiter = new RateLimiterRedis({ storeClient: redis, points: 100, duration: 60 });
  const out = { busy: { allowed: 0, rejected: 0 }, quiet: { allowed: 0, rejected: 0 } };
  const count = async (who) => {
    out[who][(await take(limiter, tag + 'top-' + who)) ? 'allowed' : 'rejected']++;
  };
  for (let i = 0; i < 110; i++) await count('busy');
  console.log('started');
  const end = Date.now() + 4000;
  for (let tick = 0; Date.now() < end; tick++) {
    await count('busy');
    if (tick % 2 === 0) await count('quiet');
    await sleep(100 - (Date.now() % 100) || 100);
  }
  return out;
}

async function rlflx(redis) {
  if (step === 'traffic') return rlflxTraffic(redis);
  const { RateLimiterRedis } = require('rate-limiter-flexible');
  // 10 points in 60 s.
  const limiter = new RateLimiterRedis({ storeClient: redis, points: 10, duration: 60 });
  const out = {};
  if (step === 'write') {
    for (let i = 0; i < 3; i++) out.user1 = (await limiter.consume(tag + 'user1')).consumedPoints;
    await limiter.block(tag + 'user3', 0); // blocked forever, on purpose
  } else {
    out.user1 = (await limiter.consume(tag + 'user1')).consumedPoints;
    try {
      await limiter.consume(tag + 'user3');
      out.user3 = 'allowed';
    } catch (e) {
      out.user3 = 'rejected';
    }
  }
  return out;
}

async function rateLimitRedis(redis) {
  const { RedisStore } = require('rate-limit-redis');
  const store = new RedisStore({ sendCommand: (command, ...args) => redis.call(command, ...args) });
  store.init({ windowMs: 60000 });
  const out = {};
  for (let i = 0; i < (step === 'write' ? 4 : 1); i++) {
    out.hits = (await store.increment(tag + '1.2.3.4')).totalHits;
  }
  return out;
}

async function fastify(redis) {
  const app = require('fastify')();
  await app.register(require('@fastify/rate-limit'), {
    max: 5,
    timeWindow: 60000,
    redis,
    keyGenerator: () => tag + 'client',
  });
  app.get('/', async () => 'ok');
  await app.ready();
  const statuses = [];
  for (let i = 0; i < (step === 'write' ? 3 : 4); i++) {
    statuses.push((await app.inject({ method: 'GET', url: '/' })).statusCode);
  }
  await app.close();
  return { statuses };
}

async function nestjs(redis) {
  const { ThrottlerStorageRedisService } = require('@nest-lab/throttler-storage-redis');
  const storage = new ThrottlerStorageRedisService(redis);
  // @nestjs/throttler's guard hashes <Class>-<handler>-<throttler>-<tracker>; so do we.
  const key = (who) =>
    crypto.createHash('sha256').update(`AppController-hello-default-${tag}${who}`).digest('hex');
  const out = { hitsKey: key('a'), blockedKey: key('b') };
  // limit 5 in 60 s, blocked for 30 s when over.
  for (let i = 0; i < (step === 'write' ? 3 : 1); i++) {
    out.a = await storage.increment(key('a'), 60000, 5, 30000, 'default');
  }
  for (let i = 0; i < (step === 'write' ? 6 : 1); i++) {
    out.b = await storage.increment(key('b'), 60000, 5, 30000, 'default');
  }
  return out;
}

(async () => {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const drivers = { rlflx, 'rate-limit-redis': rateLimitRedis, fastify, nestjs };
  if (!drivers[lib]) throw new Error(`unknown library ${lib}`);
  const out = await drivers[lib](redis);
  console.log(JSON.stringify(out));
  redis.disconnect();
})().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
