# Drives Debian's Rack::Attack (ruby-rack-attack), unmodified, through a real Rack app against
# a Redis, for tests/tst_debian_limiters.cpp: its plain Redis store (ruby-redis) gets the keys
# an application's requests make it write.
#
#   ruby debian-rack-attack.rb STEP REDIS_URL TAG PERIOD
#
# STEP    write: three requests from 1.2.3.4 (throttle: 5 per PERIOD), two failed logins from
#         5.6.7.8 (Fail2Ban: 2 in 600 s ban for 600 s) and a plain request from it; again: one
#         more request from each address (after the test took a TTL away)
# TAG     a prefix for the throttle's name and the discriminators, so that runs never share keys
# PERIOD  the throttle's period in s (the test picks one that does not end during the test)
# Prints one JSON line: the statuses, the keys the library wrote (from its own cache's prefix
# and epoch) and the library's version.
require 'json'
require 'redis'
require 'rack'
require 'rack/mock'
require 'rack/attack'
require 'rack/attack/version'

step, url, tag, period = ARGV
raise "usage: ruby #{$PROGRAM_NAME} write|again REDIS_URL TAG PERIOD" unless period

PERIOD = Integer(period)
Rack::Attack.cache.store = Redis.new(url: url)
Rack::Attack.throttle("#{tag}req/ip", limit: 5, period: PERIOD, &:ip)
Rack::Attack.blocklist("#{tag}logins") do |req|
  Rack::Attack::Fail2Ban.filter("#{tag}#{req.ip}", maxretry: 2, findtime: 600, bantime: 600) do
    req.path == '/login'
  end
end

app = Rack::Builder.new do
  use Rack::Attack
  run ->(_env) { [200, { 'content-type' => 'text/plain' }, ['ok']] }
end
client = Rack::MockRequest.new(app)

n = step == 'write' ? 3 : 1
throttle = Array.new(n) { client.get('/', 'REMOTE_ADDR' => '1.2.3.4').status }
# Fail2Ban answers 403 to the failed logins it counts; `probe`, a plain request from the same
# address, is 403 only while the address is banned.
logins = Array.new(step == 'write' ? 2 : 0) { client.get('/login', 'REMOTE_ADDR' => '5.6.7.8').status }
probe = client.get('/', 'REMOTE_ADDR' => '5.6.7.8').status
cache = Rack::Attack.cache
epoch = cache.last_epoch_time
puts JSON.generate(
  version: Rack::Attack::VERSION,
  throttle: throttle,
  logins: logins,
  probe: probe,
  counter: "#{cache.prefix}:#{epoch / PERIOD}:#{tag}req/ip:1.2.3.4",
  ban: "#{cache.prefix}:fail2ban:ban:#{tag}5.6.7.8"
)
