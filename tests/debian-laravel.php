<?php
// Drives Debian's Laravel (php-laravel-framework), unmodified, against a Redis, for
// tests/tst_debian_limiters.cpp: the throttle middleware (ThrottleRequests, inline and with a
// named limiter) on a RateLimiter over the Redis cache store, and Redis::throttle
// (DurationLimiter), through phpredis (php-redis), configured as Laravel's application skeleton
// configures them (config/database.php, config/cache.php: connection prefix
// <app>_database_, cache prefix <app>_cache), the connection prefix led by the test's TAG.
//
//   php debian-laravel.php STEP REDIS_URL TAG
//
// STEP  write: three requests from 1.2.3.4 (throttle:5,1), three from 5.6.7.8 (the named
//       limiter "api", 5 a minute), three acquisitions of the duration limiter "reports"
//       (5 in 3 s); again: one more of each; limit: requests from 1.2.3.4 until the
//       middleware answers 429 (at most 10)
// Prints one JSON line: the answers and the keys, as the library's own prefixes make them.

require_once '/usr/share/php/Illuminate/autoload.php';

use Illuminate\Cache\RateLimiter;
use Illuminate\Cache\RateLimiting\Limit;
use Illuminate\Cache\RedisStore;
use Illuminate\Cache\Repository;
use Illuminate\Container\Container;
use Illuminate\Http\Exceptions\ThrottleRequestsException;
use Illuminate\Http\Request;
use Illuminate\Http\Response;
use Illuminate\Redis\Limiters\DurationLimiter;
use Illuminate\Redis\RedisManager;
use Illuminate\Routing\Middleware\ThrottleRequests;
use Illuminate\Routing\Route;

[, $step, $url, $tag] = $argv + [null, null, null, null];
if ($tag === null) {
    fwrite(STDERR, "usage: php debian-laravel.php write|again|limit REDIS_URL TAG\n");
    exit(2);
}
$server = parse_url($url);
$app = new Container();
Container::setInstance($app);
$connection = ['host' => $server['host'], 'port' => $server['port'], 'database' => 0];
$redis = new RedisManager($app, 'phpredis', [
    'options' => ['prefix' => $tag . 'laravel_database_'],
    'default' => $connection,
    'cache' => $connection,
]);
$limiter = new RateLimiter(new Repository(new RedisStore($redis, 'laravel_cache', 'cache')));
$limiter->for('api', fn (Request $r) => Limit::perMinute(5)->by($r->ip()));
$throttle = new ThrottleRequests($limiter);

// One request through the middleware: its status.
$request = function (string $ip, array $args) use ($throttle): int {
    $r = Request::create('/', 'GET', [], [], [], ['REMOTE_ADDR' => $ip]);
    $route = new Route('GET', '/', fn () => 'ok');
    $r->setRouteResolver(fn () => $route);
    try {
        return $throttle->handle($r, fn () => new Response('ok'), ...$args)->getStatusCode();
    } catch (ThrottleRequestsException $e) {
        return $e->getStatusCode();
    }
};

$n = $step === 'write' ? 3 : 1;
$out = ['version' => \Illuminate\Foundation\Application::VERSION ?? null];
$prefix = $tag . 'laravel_database_laravel_cache:';
$out['inline'] = [];
for ($i = 0; $i < ($step === 'limit' ? 10 : $n); ++$i) {
    $out['inline'][] = $status = $request('1.2.3.4', [5, 1]);
    if ($step === 'limit' && $status === 429) {
        break;
    }
}
$out['inlineKey'] = $prefix . sha1('|1.2.3.4');
if ($step !== 'limit') {
    $out['named'] = [];
    for ($i = 0; $i < $n; ++$i) {
        $out['named'][] = $request('5.6.7.8', ['api']);
    }
    $out['namedKey'] = $prefix . md5('api5.6.7.8');
    // What Redis::throttle('reports')->allow(5)->every(3) builds.
    $duration = new DurationLimiter($redis->connection(), 'reports', 5, 3);
    $out['duration'] = [];
    for ($i = 0; $i < $n; ++$i) {
        $out['duration'][] = $duration->acquire();
    }
    $out['durationKey'] = $tag . 'laravel_database_reports';
    $out['durationEnd'] = (int) $duration->decaysAt;
    $out['now'] = time();
}
echo json_encode($out), "\n";
