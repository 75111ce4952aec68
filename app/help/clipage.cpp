// The help of sluice-cli: every word of `sluice-cli --help`, `sluice-cli CMD --help`, the usage
// lines of usage errors, sluice-cli(1) and the bash completion comes from here (help.h).
// A new command or flag is documented here; tst_manpage fails on a flag a command accepts
// that is not.
#include "app/help/help.h"

namespace sluice::help {

namespace {

Page makeCliPage()
{
    Page p;
    p.program = QStringLiteral("sluice-cli");
    p.title = QStringLiteral("rate limits on Redis from the command line");
    p.synopsis = {QStringLiteral("COMMAND [OPTIONS]"), QStringLiteral("COMMAND --help"),
                  QStringLiteral("--version")};
    p.description = QStringLiteral(
        "sluice-cli makes real rate-limit decisions through Sluice's six Lua scripts in Redis "
        "(fixed window, sliding log, sliding counter, token bucket, leaky bucket, GCRA), "
        "validates and exports rule files, keeps rules in Redis, lists limiter keys with their "
        "decoded state and health, simulates traffic, generates load and runs the HTTP check "
        "service.\n\n"
        "Every command prints one JSON document on stdout with --json, text otherwise; errors "
        "go to stderr and name the flag, file, line or key at fault. A flag given twice is a "
        "usage error. No output ever contains a password.");
    p.optionsHeading = QStringLiteral("CONNECTION OPTIONS");
    p.options = {
        {QStringLiteral("--url URL"),
         QStringLiteral("The Redis to use: redis://[user:pass@]host:port[/db], "
                        "rediss://... (TLS), unix:///path/redis.sock[?db=N], or "
                        "redis+sentinel://[user:pass@]host:port[,host:port...]/master[/db] "
                        "(rediss+sentinel:// for TLS). A password in the URL works but is "
                        "warned about: other users see command lines. One address that is "
                        "a Redis Cluster node means the whole cluster (every master is "
                        "scanned and routed to); give several addresses (h1:p1,h2:p2 or --url "
                        "repeated) to have more than one seed.")},
        {QStringLiteral("--no-cluster"),
         QStringLiteral("Talk to the one --url address as it is, even when it is a Redis "
                        "Cluster node: keys lists that node's keys only.")},
        {QStringLiteral("--password-file FILE"),
         QStringLiteral("The Redis password: the file's first line. Without it, the URL's, "
                        "else $REDISCLI_AUTH.")},
        {QStringLiteral("--tls"),
         QStringLiteral("TLS for a redis:// URL (the same as rediss://).")},
        {QStringLiteral("--tls-ca FILE"),
         QStringLiteral("CA certificates (PEM); default: the system's trust store.")},
        {QStringLiteral("--tls-cert FILE --tls-key FILE"),
         QStringLiteral("A client certificate and its key (PEM, no passphrase): both or "
                        "neither.")},
        {QStringLiteral("--tls-server-name NAME"),
         QStringLiteral("The name the server's certificate must carry (and SNI); default: the "
                        "host of the URL.")},
        {QStringLiteral("--tls-insecure"),
         QStringLiteral("No certificate check at all; warned about at every start.")},
        {QStringLiteral("--ssh USER@HOST[:PORT]"),
         QStringLiteral("Reach Redis through an SSH bastion. The key comes from --ssh-key, "
                        "else the agent and ~/.ssh's default keys; a password from "
                        "--ssh-password-file; a key passphrase from "
                        "$SLUICE_SSH_KEY_PASSPHRASE.")},
        {QStringLiteral("--ssh-key FILE"), QStringLiteral("The private key for --ssh.")},
        {QStringLiteral("--ssh-known-hosts FILE"),
         QStringLiteral("The known hosts file that checks the bastion's host key; default "
                        "~/.ssh/known_hosts.")},
        {QStringLiteral("--ssh-accept-new"),
         QStringLiteral("Accept and record an unknown host key (a changed key is always "
                        "refused).")},
        {QStringLiteral("--ssh-password-file FILE"),
         QStringLiteral("The SSH password: the file's first line.")},
        {QStringLiteral("--read-only"),
         QStringLiteral("Nothing that writes reaches the server: the connection sends reads "
                        "only. Commands that must write (check, serve, load, bench, simulate on "
                        "Redis, keys fix, rules push) refuse to start with it (exit 2).")},
    };

    const Option json{QStringLiteral("--json"),
                      QStringLiteral("One JSON document on stdout instead of text.")};
    const Option noStats{QStringLiteral("--no-stats"),
                         QStringLiteral("Record no statistics. Otherwise every decision is "
                                        "counted per rule and second in Redis "
                                        "({sluice}:stats:*), which the console's Monitor "
                                        "shows; a failure to write them is said once on "
                                        "stderr.")};
    const Option rulesFile{QStringLiteral("--rules FILE"),
                           QStringLiteral("The rules: a JSON or YAML rule file (by its "
                                          "extension).")};
    const Option fromRedis{QStringLiteral("--from-redis"),
                           QStringLiteral("The rules of the rule store in Redis (rules push "
                                          "puts them there).")};
    const Option scanBudget{
        QStringLiteral("--scan-budget N"),
        QStringLiteral("Keys per second the scan walks at most (default 20000; 0: no limit). "
                       "The scan also halves its pace while the server's latency is above "
                       "twice its idle latency.")};
    const Option noBackoff{
        QStringLiteral("--no-backoff"),
        QStringLiteral("Do not probe the server's latency nor slow down when it rises: only "
                       "the budget paces the scan (with --scan-budget 0, nothing does; for a "
                       "replica, a maintenance window or a benchmark).")};

    Command check;
    check.name = QStringLiteral("check");
    check.summary = QStringLiteral("make real rate-limit decisions through the scripts in Redis");
    check.synopsis = {
        QStringLiteral("check --url URL (--rules FILE --rule ID | --from-redis --rule ID\n"
                       "        | --algorithm A (--limit N --window W | --rate R --burst B) "
                       "[--id ID] [--key-prefix P])\n"
                       "        --subject S [--cost C] [--count K] [--now-us T] [--no-stats] "
                       "[--json]")};
    check.description = QStringLiteral(
        "Asks the rule's script in Redis for a decision for a subject and prints it: allowed "
        "or denied, what remains, when to retry, when the window resets and the key. A denial "
        "is a result (exit 0).\n\n"
        "  sluice-cli check --url redis://127.0.0.1:6379 --algorithm fixed_window \\\n"
        "      --limit 3 --window 5s --id hello-per-ip --subject 1.2.3.4 --count 4");
    check.options = {
        rulesFile,
        fromRedis,
        {QStringLiteral("--rule ID"),
         QStringLiteral("The rule of --rules or --from-redis to use.")},
        {QStringLiteral("--algorithm A"),
         QStringLiteral("An inline policy instead of a rule: fixed_window, sliding_log, "
                        "sliding_counter (with --limit and --window), token_bucket, "
                        "leaky_bucket, gcra (with --rate and --burst).")},
        {QStringLiteral("--limit N"), QStringLiteral("Requests per window (windows).")},
        {QStringLiteral("--window W"), QStringLiteral("The window: 500ms, 10s, 1m, 1h, 1d.")},
        {QStringLiteral("--rate R"), QStringLiteral("The refill or leak rate (buckets, GCRA): "
                                                    "10/s, 100/m, 5/10s.")},
        {QStringLiteral("--burst B"), QStringLiteral("The capacity (buckets, GCRA).")},
        {QStringLiteral("--id ID"),
         QStringLiteral("The inline policy's id, part of its key (default cli).")},
        {QStringLiteral("--key-prefix P"),
         QStringLiteral("The inline policy's key prefix (default rate_limit:).")},
        {QStringLiteral("--subject S"),
         QStringLiteral("Who is limited: an IP, a user id, any bytes up to 1 MiB.")},
        {QStringLiteral("--cost C"),
         QStringLiteral("What the request costs (default 1); 0 peeks without consuming.")},
        {QStringLiteral("--count K"),
         QStringLiteral("Make K decisions in a row (with --json: one array).")},
        {QStringLiteral("--now-us T"),
         QStringLiteral("Inject the time in microseconds instead of Redis' TIME: for tests and "
                        "simulation only.")},
        noStats,
        json,
    };
    check.connects = true;

    Command rules;
    rules.name = QStringLiteral("rules");
    rules.summary =
        QStringLiteral("validate, export (json, yaml, nginx, nginx-auth, envoy, kong), push to "
                       "and pull from Redis");
    rules.synopsis = {
        QStringLiteral("rules validate FILE [--json]"),
        QStringLiteral("rules export FILE --format json|yaml|nginx|envoy|kong [--out F]"),
        QStringLiteral("rules export FILE --format nginx-auth --service http://HOST:PORT\n"
                       "        --upstream http://HOST:PORT [--listen [ADDR:]PORT] [--out F]"),
        QStringLiteral("rules import FILE|DIR --format envoy-ratelimit [--out F]\n"
                       "        [--stop-cache-key-increment-when-overlimit]"),
        QStringLiteral("rules push FILE --url URL [--force] [--author A] [--message M] [--json]"),
        QStringLiteral("rules push FILE --url URL --preview [--scan-budget N] [--json]"),
        QStringLiteral("rules pull --url URL [--out F] [--json]"),
        QStringLiteral("rules history --url URL [--json]"),
        QStringLiteral("rules diff A B [--url URL] [--json]"),
        QStringLiteral("rules rollback N --url URL [--author A] [--message M] [--json]"),
        QStringLiteral("rules push FILE --url URL --stage [--author A] [--message M] [--json]"),
        QStringLiteral("rules staged --url URL [--json]"),
        QStringLiteral("rules promote|discard --url URL [--force] [--author A] [--message M] "
                       "[--json]")};
    rules.subcommands = {
        QStringLiteral("validate"), QStringLiteral("export"),   QStringLiteral("import"),
        QStringLiteral("push"),     QStringLiteral("pull"),     QStringLiteral("history"),
        QStringLiteral("diff"),     QStringLiteral("rollback"), QStringLiteral("staged"),
        QStringLiteral("promote"),  QStringLiteral("discard")};
    rules.description = QStringLiteral(
        "validate reports every error of a rule file at once, each as file:line:column: field "
        "path: what is wrong and what is expected (exit 2 when there is one).\n\n"
        "export writes the rules in another format. nginx, Envoy and Kong cannot express "
        "every rule: the ones left out are named on stderr with the reason. nginx-auth writes a "
        "whole nginx server that fronts --upstream and asks the check service (--service) "
        "through auth_request.\n\n"
        "import reads envoyproxy/ratelimit's YAML (a file, or every .yaml and .yml file of a "
        "directory) and writes it as a Sluice rule file: one rule per rate_limit, named by its "
        "descriptor path. What Sluice cannot express is named on stderr at its "
        "file:line:column and left out; what envoy ratelimit itself refuses fails the import "
        "(exit 2). envoy ratelimit counts denied requests unless its process runs with "
        "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true: the rules are imported with "
        "count_rejected: true unless --stop-cache-key-increment-when-overlimit says the "
        "deployment sets it; the summary on stderr says which.\n\n"
        "push stores the rules in Redis as a new version, atomically, only if nobody pushed "
        "since the version the file was pulled at (its based_on); pull writes them to a file.\n\n"
        "history lists the stored versions (the last 100 changes: version, time, author, "
        "message, rules added, changed and removed) and which of them can be rebuilt. diff "
        "compares two rule sets rule by rule and field by field; A and B are each a rule file, "
        "redis (the stored rules) or redis@N (stored version N). rollback stores version N's "
        "rules as a new version (history is never rewritten), refused like push when someone "
        "pushed meanwhile.\n\n"
        "push --stage stores the file as a candidate beside the enforced rules, as a new "
        "version that changes nothing enforced: serve decides every request of a changed or "
        "added rule a second time by the candidate, in shadow (as RULE@staged: keys and "
        "statistics of its own; it never blocks). staged shows the candidate's would-deny counts "
        "beside the enforced rule's denials over the last 15 minutes, with the subjects it would "
        "deny. promote makes the candidate the rules, discard drops it; each is a version in the "
        "history. While a change is staged, push and rollback are refused (--force pushes and "
        "discards the stage).");
    rules.options = {
        {QStringLiteral("--format F"),
         QStringLiteral("export: json, yaml, nginx, nginx-auth, envoy or kong; import: "
                        "envoy-ratelimit.")},
        {QStringLiteral("--out F"),
         QStringLiteral("Write to F instead of stdout (pull: F ends in .json, .yaml or .yml).")},
        {QStringLiteral("--stop-cache-key-increment-when-overlimit"),
         QStringLiteral("import: the envoy ratelimit deployment runs with "
                        "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true (denied requests not "
                        "counted): import the rules with count_rejected false.")},
        {QStringLiteral("--service http://HOST:PORT"),
         QStringLiteral("nginx-auth: where the check service (sluice-cli serve) listens.")},
        {QStringLiteral("--upstream http://HOST:PORT"),
         QStringLiteral("nginx-auth: the application nginx fronts.")},
        {QStringLiteral("--listen [ADDR:]PORT"),
         QStringLiteral("nginx-auth: where nginx listens (default 8080).")},
        {QStringLiteral("--force"),
         QStringLiteral("push, rollback: overwrite even when someone pushed meanwhile, or a "
                        "change is staged (it is discarded); promote: even when the rules "
                        "changed since the stage.")},
        {QStringLiteral("--stage"),
         QStringLiteral("push: store the file as a candidate that runs in shadow beside the "
                        "enforced rules, until rules promote or rules discard.")},
        {QStringLiteral("--preview"),
         QStringLiteral("push: write nothing; per rule the push adds, changes or removes, read "
                        "its live keys and say which subjects are denied now and would be "
                        "allowed after the change, and the reverse (the top 20 of each), beside "
                        "the last 15 minutes of statistics.")},
        {QStringLiteral("--scan-budget N"),
         QStringLiteral("push --preview: keys per second the preview reads at most (default "
                        "20000, 0 = no budget).")},
        {QStringLiteral("--author A"),
         QStringLiteral("push, rollback, promote, discard: who made the change, kept in the "
                        "history (default: "
                        "$SLUICE_AUTHOR, else the OS user).")},
        {QStringLiteral("--message M"),
         QStringLiteral("push, rollback, promote, discard: why, one line kept in the history "
                        "(at most 200 "
                        "characters).")},
        json,
    };
    rules.connects = true;

    Command bench;
    bench.name = QStringLiteral("bench");
    bench.summary =
        QStringLiteral("decisions/s per algorithm beside redis-benchmark running the same script");
    bench.synopsis = {QStringLiteral(
        "bench --url URL [--seconds S] [--rounds R] [--algorithm A] [--redis-benchmark PATH] "
        "[--json]")};
    bench.description = QStringLiteral(
        "Measures decisions per second on one connection, one at a time and pipelined in "
        "batches of 64, for every algorithm, each decision on the admitting path over 10,000 "
        "subjects; the ceiling is redis-benchmark running EVALSHA of the same script with the "
        "same arguments, in between. The figures are medians over the rounds. Its keys (under "
        "sluice-bench:) are removed.");
    bench.options = {
        {QStringLiteral("--seconds S"), QStringLiteral("Seconds per measurement (default 1).")},
        {QStringLiteral("--rounds R"), QStringLiteral("Rounds per figure (default 3).")},
        {QStringLiteral("--algorithm A"), QStringLiteral("Only this algorithm.")},
        {QStringLiteral("--redis-benchmark PATH"),
         QStringLiteral("The redis-benchmark to run (default: the one on PATH; without one the "
                        "ceiling is null).")},
        json,
    };
    bench.connects = true;

    Command simulate;
    simulate.name = QStringLiteral("simulate");
    simulate.summary =
        QStringLiteral("every rule of a scenario on the same traffic, in process or on Redis");
    simulate.synopsis = {
        QStringLiteral("simulate SCENARIO [--backend local|redis] [--url URL] [--json] "
                       "[--csv FILE]\n        [--png FILE] [--svg FILE] [--batch N]"),
        QStringLiteral("simulate --bench [--url URL] [--requests N] [--rounds R] [--json]")};
    simulate.description = QStringLiteral(
        "Runs every rule of a scenario on the same seeded traffic on a virtual clock, on the "
        "in-process twins of the scripts or on the scripts in Redis (under a run-scoped "
        "prefix, removed afterwards, also after Ctrl+C); both give identical results. "
        "SCENARIO is a .json, .yaml or .yml file, or preset:NAME with NAME one of "
        "3-per-5s-per-ip, 10-per-10s-per-ip, boundary-burst, budget-in-100ms, steady-overload, "
        "shared-global.");
    simulate.options = {
        {QStringLiteral("--backend local|redis"),
         QStringLiteral("Where the decisions are made (default local; --url alone means "
                        "redis).")},
        {QStringLiteral("--csv FILE"),
         QStringLiteral("Write the time series: t_ms,rule,offered,admitted,rejected,released.")},
        {QStringLiteral("--png FILE"),
         QStringLiteral("Draw the console's charts of the run (one row per rule), headless.")},
        {QStringLiteral("--svg FILE"), QStringLiteral("The same charts as SVG.")},
        {QStringLiteral("--batch N"),
         QStringLiteral("Decisions per pipelined round trip on Redis (1 to 100000).")},
        {QStringLiteral("--bench"),
         QStringLiteral("The simulator's throughput: 1,000,000 offered requests through six "
                        "rules on the twins and, with --url, on Redis.")},
        {QStringLiteral("--requests N"), QStringLiteral("--bench: offered requests.")},
        {QStringLiteral("--rounds R"), QStringLiteral("--bench: runs, the median is shown "
                                                      "(default 3).")},
        json,
    };
    simulate.connects = true;

    Command keys;
    keys.name = QStringLiteral("keys");
    keys.summary = QStringLiteral(
        "list limiter keys with decoded state and health; keys fix sets TTLs from rules");
    keys.synopsis = {
        QStringLiteral("keys --url URL [--match GLOB] [--rules FILE | --from-redis] [--no-ttl]\n"
                       "        [--health ID[,ID...]] [--scan-budget N] [--no-backoff] [--json]"),
        QStringLiteral("keys fix --url URL (--rules FILE | --from-redis) [--match GLOB] "
                       "[--dry-run]\n        [--scan-budget N] [--no-backoff] [--json]"),
        QStringLiteral("keys audit --url URL [--match GLOB] [--rules FILE | --from-redis]\n"
                       "        [--scan-budget N] [--no-backoff] [--json]"),
        QStringLiteral("keys fix --url URL --match GLOB (--ttl DURATION | --delete) "
                       "[--any-key]\n        [--dry-run] [--scan-budget N] [--no-backoff] "
                       "[--json]"),
        QStringLiteral("keys top --url URL [--rules FILE | --from-redis] [--match GLOB]\n"
                       "        [--interval S] [--count N] [--watch] [--scan-budget N] "
                       "[--no-backoff] [--json]")};
    keys.subcommands = {QStringLiteral("fix"), QStringLiteral("audit"), QStringLiteral("top")};
    keys.description = QStringLiteral(
        "Lists the limiter keys (SCAN, in pages, within a budget) with type, TTL, rule, "
        "subject, decoded state and health: ok, never_expires (can block its subject "
        "forever), ttl_too_long (longer than the rule can need), no_rule, wrong_type (not the "
        "rule's state), unreadable; then a summary. The previous release's ids (no_ttl, "
        "ttl_exceeds_rule, orphan) are still accepted by --health, with a warning.\n\n"
        "keys fix sets the TTL of the flagged keys from their rule, in a script that never "
        "extends a TTL that was set meanwhile.\n\n"
        "keys audit scans the whole keyspace (or GLOB) and groups the keys by the limiter "
        "layout that wrote them (Sluice's own, rate-limiter-flexible, rate-limit-redis, "
        "Redisson, Spring Cloud Gateway, Bucket4j, redis-cell, Kong, envoy, plain INCR "
        "counters...), flagging never-expiring keys, TTLs longer than the layout's window and "
        "suspect integer counters; other keys without TTL are only counted.\n\n"
        "keys fix --match GLOB --ttl DURATION (1ms to 30d) sets a TTL only on the keys of GLOB "
        "that have none at fix time and that a known limiter layout recognises (as keys audit "
        "judges them); --delete removes them instead (UNLINK). The other keys of GLOB without "
        "TTL (sessions, configuration, suspects) are listed as skipped, with why, unless "
        "--any-key. A TTL is never extended nor shortened.\n\n"
        "keys top watches other limiters live from their keys alone, read-only: two samples "
        "(SCAN of the adopted globs and of the layouts whose key says the limit, bounded "
        "pipelined reads, CLIENT NO-TOUCH where the server has it) S seconds apart, then the "
        "subjects at or over their limit, near it, the top subjects and the requests counted "
        "and admitted per second between the samples, with the resolution said; --watch "
        "repeats every S seconds. The limit of a counter comes from a rule file's adopt "
        "block (--rules); Spring Cloud Gateway's tokens and block keys say theirs.");
    keys.options = {
        {QStringLiteral("--match GLOB"), QStringLiteral("Only the keys matching this SCAN glob.")},
        rulesFile,
        fromRedis,
        {QStringLiteral("--no-ttl"), QStringLiteral("Only the keys that never expire.")},
        {QStringLiteral("--health ID[,ID...]"),
         QStringLiteral("keys: only the keys of these health ids (ok, never_expires, "
                        "ttl_too_long, no_rule, wrong_type, unreadable).")},
        {QStringLiteral("--dry-run"), QStringLiteral("keys fix: say what would change, change "
                                                     "nothing.")},
        {QStringLiteral("--ttl DURATION"),
         QStringLiteral("keys fix --match: the TTL set on the keys without one (1ms to 30d).")},
        {QStringLiteral("--delete"),
         QStringLiteral("keys fix --match: remove the keys without TTL instead (UNLINK).")},
        {QStringLiteral("--any-key"),
         QStringLiteral("keys fix --match: also the keys no known limiter layout recognises "
                        "(application keys); without it they are skipped and listed.")},
        {QStringLiteral("--interval S"),
         QStringLiteral("keys top: seconds between the samples, 0.2 to 3600 (default 2).")},
        {QStringLiteral("--count N"),
         QStringLiteral("keys top: the subjects shown, the most limited first (default 10).")},
        {QStringLiteral("--watch"),
         QStringLiteral("keys top: repeat every interval until interrupted (--json: one "
                        "object a line).")},
        scanBudget,
        noBackoff,
        json,
    };
    keys.connects = true;

    Command load;
    load.name = QStringLiteral("load");
    load.summary = QStringLiteral("real decisions in real time from N threads following a "
                                  "traffic pattern");
    load.synopsis = {QStringLiteral(
        "load --url URL\n"
        "        (--scenario FILE|preset:NAME [--rules FILE | --from-redis]\n"
        "         | (--rules FILE | --from-redis) --pattern P --duration D)\n"
        "        [--rule ID[,ID...]] [--threads N] [--subjects M] [--seed S] [--rule-prefixes]\n"
        "        [--no-stats] [--json]")};
    load.description = QStringLiteral(
        "Sends real decisions to Redis in real time, prints live counters on stderr once a "
        "second and a summary at the end, and records them in the statistics. If Redis cannot "
        "keep up, every request is sent late rather than dropped. The decisions use run-scoped "
        "keys (sluice:load:<random>:), removed at the end, so real subjects' quotas are "
        "untouched.\n\n"
        "  P: constant:RATE | poisson:RATE | ramp:FROM_RATE:TO_RATE | burst:COUNT[@AT][+SPREAD]\n"
        "     (RATE as 100/s; AT, SPREAD as 250ms: burst:500@1s+100ms)");
    load.options = {
        {QStringLiteral("--scenario FILE|preset:NAME"),
         QStringLiteral("The traffic and rules of a scenario file or preset.")},
        rulesFile,
        fromRedis,
        {QStringLiteral("--pattern P"), QStringLiteral("The traffic pattern (see above).")},
        {QStringLiteral("--duration D"), QStringLiteral("How long the pattern runs: 30s, 2m.")},
        {QStringLiteral("--rule ID[,ID...]"), QStringLiteral("Only these rules.")},
        {QStringLiteral("--threads N"), QStringLiteral("Sending threads, one connection each.")},
        {QStringLiteral("--subjects M"), QStringLiteral("Distinct subjects the traffic is "
                                                        "spread over.")},
        {QStringLiteral("--seed S"), QStringLiteral("The seed of the traffic (repeatable "
                                                    "runs).")},
        {QStringLiteral("--rule-prefixes"),
         QStringLiteral("Use the rules' own key_prefix: the real subjects' keys (said on "
                        "stderr).")},
        noStats,
        json,
    };
    load.connects = true;

    Command serve;
    serve.name = QStringLiteral("serve");
    serve.summary = QStringLiteral(
        "HTTP check service: GET /v1/check, /v1/auth (nginx auth_request), /healthz, /metrics");
    serve.synopsis = {QStringLiteral(
        "serve --url URL (--rules FILE | --from-redis |\n"
        "        --envoy-config DIR [--stop-cache-key-increment-when-overlimit]) --listen "
        "HOST:PORT\n"
        "        [--legacy-headers] [--workers N] [--timeout-ms T] [--max-connections N]\n"
        "        [--max-body-bytes N] [--max-header-bytes N] [--header-timeout-ms T]\n"
        "        [--idle-timeout-ms T] [--max-in-flight N] [--max-connections-per-peer N]\n"
        "        [--http-threads N] [--healthz-detail] [--no-deny-cache] [--no-stats]\n"
        "        [--metrics-listen HOST:PORT] [--metrics-compat envoy-ratelimit]\n"
        "        [--log-format text|json] [--grpc [ADDR:]PORT]\n"
        "        [--grpc-unknown-domain ok|over_limit|error] [--grpc-response-headers]\n"
        "        [--grpc-max-connections N] [--grpc-max-connections-per-peer N]\n"
        "        [--grpc-max-streams N] [--grpc-max-resets-per-second N]\n"
        "        [--grpc-idle-timeout-ms MS]\n"
        "        [--listen-tls-cert FILE --listen-tls-key FILE [--listen-tls-client-ca FILE]]\n"
        "        [--grpc-dynamic-metadata]")};
    serve.description = QStringLiteral(
        "Answers GET /v1/check?rule=ID&subject=S[&cost=N] with 200 or 429 and the decision as "
        "JSON, with Retry-After and the RateLimit-Policy and RateLimit headers; GET /v1/auth "
        "the same for nginx auth_request (403 on a denial); GET /healthz the status and the "
        "state of Redis (200, or 503 before any rules are loaded; with --healthz-detail also "
        "the Redis address, the reason, the rules and the statistics); GET /metrics the "
        "Prometheus metrics (OpenMetrics when the scraper's Accept asks for it). While Redis "
        "is down, or refuses writes (OOM, MISCONF), each rule answers by its on_redis_error.\n\n"
        "Prints \"listening on http://HOST:PORT\" (https with --listen-tls-cert) once it "
        "listens and, under systemd (Type=notify), tells the service manager it is ready. "
        "SIGHUP reads --rules FILE and the TLS certificate again; a file that does not load "
        "keeps what is served and its errors go to stderr. "
        "--from-redis needs no SIGHUP: it follows every push within a round trip. SIGINT and "
        "SIGTERM stop it.");
    serve.options = {
        rulesFile,
        fromRedis,
        {QStringLiteral("--listen HOST:PORT"),
         QStringLiteral("Where to listen: an IP address, localhost or * and a port (0 picks a "
                        "free one).")},
        {QStringLiteral("--legacy-headers"),
         QStringLiteral("Also send RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset.")},
        {QStringLiteral("--workers N"),
         QStringLiteral("Decision threads, each with its own connection (1 to 64).")},
        {QStringLiteral("--timeout-ms T"),
         QStringLiteral("The deadline of a decision (10 to 60000, default 500); past it the "
                        "rule's on_redis_error answers.")},
        {QStringLiteral("--max-connections N"), QStringLiteral("Open connections at most "
                                                               "(default 1000).")},
        {QStringLiteral("--max-body-bytes N"), QStringLiteral("Request body bytes at most "
                                                              "(default 4096).")},
        {QStringLiteral("--max-header-bytes N"), QStringLiteral("Request head bytes at most "
                                                                "(default 16384).")},
        {QStringLiteral("--header-timeout-ms T"),
         QStringLiteral("Time for a request head and body once begun (default 10000).")},
        {QStringLiteral("--idle-timeout-ms T"),
         QStringLiteral("A keep-alive connection idle this long is closed (default 60000).")},
        {QStringLiteral("--max-in-flight N"),
         QStringLiteral("Requests of one connection waiting or unread at most (default 32).")},
        {QStringLiteral("--max-connections-per-peer N"),
         QStringLiteral("Open connections of one client address at most (default half of "
                        "--max-connections).")},
        {QStringLiteral("--healthz-detail"),
         QStringLiteral("GET /healthz in full: the Redis address, reasons, the rule file, "
                        "counters (by default the status and state only, for any client).")},
        {QStringLiteral("--http-threads N"),
         QStringLiteral("Threads that read requests and write answers, on one port (1 to 16, "
                        "default 1).")},
        {QStringLiteral("--no-deny-cache"),
         QStringLiteral("Ask Redis for every request, also for a subject denied until a known "
                        "time (by default such denials are answered in-process until then).")},
        noStats,
        {QStringLiteral("--metrics-listen HOST:PORT"),
         QStringLiteral("Answer GET /metrics there instead of on --listen.")},
        {QStringLiteral("--metrics-compat envoy-ratelimit"),
         QStringLiteral("Also export envoyproxy/ratelimit's metric names "
                        "(ratelimit_service_rate_limit_*, ratelimit_service_response_time_seconds) "
                        "so that its dashboards keep working.")},
        {QStringLiteral("--envoy-config DIR"),
         QStringLiteral("Serve envoyproxy/ratelimit's configuration (a YAML file, or every .yaml "
                        "and .yml file of DIR) as it is, reloaded whenever its files change. "
                        "Denied requests count on the window algorithms, as in envoy ratelimit "
                        "by default (each rule's count_rejected true).")},
        {QStringLiteral("--stop-cache-key-increment-when-overlimit"),
         QStringLiteral("With --envoy-config: the deployment runs with "
                        "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true; denied requests are not "
                        "counted (count_rejected false).")},
        {QStringLiteral("--log-format text|json"),
         QStringLiteral("json: one JSON object per line on stderr (time, level, event, rule, "
                        "message, fields), for Loki, Elasticsearch or journald.")},
        {QStringLiteral("--grpc [ADDR:]PORT"),
         QStringLiteral("Also serve Envoy's rate limit service API over gRPC "
                        "(envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit, and "
                        "grpc.health.v1.Health) there; a bare port is every interface. POST "
                        "/json on --listen takes the same request as JSON.")},
        {QStringLiteral("--grpc-unknown-domain ok|over_limit|error"),
         QStringLiteral("The answer to a domain no rule is under (default ok, as envoy "
                        "ratelimit; error is INVALID_ARGUMENT).")},
        {QStringLiteral("--grpc-response-headers"),
         QStringLiteral("Put the RateLimit headers of the most restrictive descriptor in "
                        "response_headers_to_add.")},
        {QStringLiteral("--grpc-max-connections N"),
         QStringLiteral("gRPC connections at most (default 256); past it a new one gets an "
                        "HTTP/2 GOAWAY with the reason and is closed.")},
        {QStringLiteral("--grpc-max-connections-per-peer N"),
         QStringLiteral("gRPC connections of one client address at most (default half of "
                        "--grpc-max-connections).")},
        {QStringLiteral("--grpc-max-streams N"),
         QStringLiteral("Calls at once on one gRPC connection (MAX_CONCURRENT_STREAMS, default "
                        "100); a connection with twice as many unfinished is closed.")},
        {QStringLiteral("--grpc-max-resets-per-second N"),
         QStringLiteral("A gRPC connection on which more calls than this end reset or "
                        "cancelled in a second, and more than were answered, is closed "
                        "(default 200).")},
        {QStringLiteral("--grpc-idle-timeout-ms MS"),
         QStringLiteral("A gRPC connection without a call open for this long is told so in an "
                        "HTTP/2 GOAWAY (NO_ERROR: its client opens a new one for its next call) "
                        "and closed (default 300000, 5 minutes).")},
        {QStringLiteral("--listen-tls-cert FILE --listen-tls-key FILE"),
         QStringLiteral("HTTPS on --listen and TLS on --grpc (1.2 or newer) with this PEM "
                        "certificate (then its chain) and unencrypted key; read again on SIGHUP "
                        "and when the files change (open connections keep theirs; one that does "
                        "not load keeps the one served). --tls-* are the connection to Redis.")},
        {QStringLiteral("--listen-tls-client-ca FILE"),
         QStringLiteral("Require a client certificate signed by a CA of this PEM file (and "
                        "valid now) on both listeners.")},
        {QStringLiteral("--grpc-dynamic-metadata"),
         QStringLiteral("Put the deciding rule's id, algorithm, decision and source (and each "
                        "descriptor's) in the response's dynamic_metadata, which Envoy can log.")},
    };
    serve.connects = true;

    Command replay;
    replay.name = QStringLiteral("replay");
    replay.summary =
        QStringLiteral("real access logs through candidate rules: who would have been limited");
    replay.synopsis = {QStringLiteral(
        "replay LOG... (--rules FILE | --from-redis --url URL) [--against FILE2]\n"
        "        [--format auto|nginx-combined|nginx|envoy|alb|json] [--log-format STRING]\n"
        "        [--field ROLE=KEY]... [--trust-proxies N|CIDR,...] [--reorder-window D]\n"
        "        [--candidate N]... [--backend local|redis] [--url URL] [--batch N]\n"
        "        [--max-subjects N] [--csv FILE] [--json]")};
    replay.description = QStringLiteral(
        "Replays access logs through the rules on the log's own time line, offline: every "
        "request whose method and path match a rule's route (\"GET /api\" takes GET requests "
        "to every path starting with /api; no route takes every request) is decided by the "
        "in-process twins of the scripts (or the scripts in Redis with --backend redis, under "
        "a run prefix removed afterwards), with the subject the rule's scope names: the "
        "client address, a hop of X-Forwarded-For, the user, a logged header or a query "
        "parameter. A rule whose scope the log does not carry is named and skipped. The "
        "report, per rule: requests matched, admitted, denied and shadow-denied, subjects seen "
        "and denied, the 20 most denied subjects, denials over time, the log's own 429s beside "
        "the rule's denials, and a limit suggestion: the distribution of each subject's peak "
        "requests in the rule's window and, for candidate limits, the share of subjects and of "
        "requests they would deny. .gz files are read directly; several files are merged by "
        "time; lines out of order by up to the reorder window are put back in order. Lines "
        "that do not parse are counted and the first 10 shown; the run stops when more than "
        "half of a file's first 1,000 lines do not parse.");
    replay.options = {
        rulesFile,
        fromRedis,
        {QStringLiteral("--against FILE2"),
         QStringLiteral("A second rule set on the same log, side by side: per rule id, the "
                        "subjects denied by one set and not the other.")},
        {QStringLiteral("--format F"),
         QStringLiteral("auto (default: nginx-combined, envoy, alb or json, detected from the "
                        "first lines of each file), nginx-combined, nginx (with --log-format), "
                        "envoy (its default access log format), alb (AWS ALB access logs), json "
                        "(JSON lines).")},
        {QStringLiteral("--log-format STRING"),
         QStringLiteral("An nginx log_format string, e.g. '$remote_addr - $remote_user [$msec] "
                        "\"$request\" $status \"$http_x_forwarded_for\" \"$http_x_api_key\"': "
                        "$remote_addr, $remote_user, $time_local, $time_iso8601, $msec, "
                        "$request, $request_method, $request_uri, $status and $http_NAME are "
                        "read, other variables skipped.")},
        {QStringLiteral("--field ROLE=KEY"),
         QStringLiteral("JSON lines: the key holding ROLE, one of time, ip, method, path, "
                        "request, status, xff, user, header:NAME (repeatable; defaults: time, "
                        "ip, method, path, request, status, x_forwarded_for, user).")},
        {QStringLiteral("--trust-proxies N|CIDR,..."),
         QStringLiteral("The client of scope ip is the address N hops before the peer in the "
                        "chain X-Forwarded-For + peer, or the last one outside the given "
                        "networks (10.0.0.0/8,fd00::/8). Default: the peer address.")},
        {QStringLiteral("--reorder-window D"),
         QStringLiteral("Lines out of time order by at most D are reordered (default 5s, 0s to "
                        "1h); older ones are counted as late and not replayed. A line far ahead "
                        "of the lines before and after it is an outlier, counted and skipped.")},
        {QStringLiteral("--max-subjects N"),
         QStringLiteral("Stop with exit 1 (the report of the lines before printed) when a scope "
                        "has more than N distinct subjects (default: what half the memory holds "
                        "at 128 bytes per rule and subject and 112 per subject).")},
        {QStringLiteral("--candidate N"),
         QStringLiteral("A limit to judge beside the rule's own and the p90, p99 and p99.9 "
                        "peaks (repeatable, or a comma list).")},
        {QStringLiteral("--backend local|redis"),
         QStringLiteral("Where the decisions are made (default local; --url alone means "
                        "redis).")},
        {QStringLiteral("--batch N"),
         QStringLiteral("Decisions per pipelined round trip on Redis (1 to 100000, default "
                        "512).")},
        {QStringLiteral("--csv FILE"),
         QStringLiteral("Write the denials over time: t_ms,set,rule,denied.")},
        json,
    };
    replay.connects = true;

    Command overrides;
    overrides.name = QStringLiteral("overrides");
    overrides.summary = QStringLiteral("per-subject overrides of the stored rules: add, remove, "
                                       "list, without a new rule version");
    overrides.synopsis = {
        QStringLiteral("overrides add --url URL --rule ID (--subject S | --cidr C | --match GLOB)\n"
                       "        (--allow | --deny | --limit N --window W | --rate R --burst B)\n"
                       "        (--ttl D | --expires T | --permanent) [--note TEXT] [--author A]\n"
                       "        [--replace] [--json]"),
        QStringLiteral("overrides remove --url URL --rule ID (--subject S | --cidr C | --match "
                       "GLOB) [--json]"),
        QStringLiteral("overrides list --url URL [--rule ID] [--json]")};
    overrides.subcommands = {QStringLiteral("add"), QStringLiteral("remove"),
                             QStringLiteral("list")};
    overrides.description = QStringLiteral(
        "Overrides are kept in Redis beside the stored rules, one key per override whose TTL is "
        "the override's end (a --permanent one has none, and lasts until removed). serve "
        "follows them live, and check, load and keys read them with --from-redis. add refuses "
        "an override for a rule the store does not hold, a limit of another shape than the "
        "rule's algorithm takes, a CIDR on a rule whose scope is not ip, and one whose match "
        "is already stored (--replace overwrites it).");
    overrides.options = {
        {QStringLiteral("--rule ID"), QStringLiteral("The stored rule the override belongs to.")},
        {QStringLiteral("--subject S | --cidr C | --match GLOB"),
         QStringLiteral("What it matches: one subject, an IP network (scope ip), or a glob (* "
                        "and ?).")},
        {QStringLiteral("--allow | --deny"),
         QStringLiteral("Never limited, or always denied; both answered without Redis.")},
        {QStringLiteral("--limit N --window W | --rate R --burst B"),
         QStringLiteral("A limit of its own, in the rule's algorithm, under keys of its own.")},
        {QStringLiteral("--ttl D | --expires T | --permanent"),
         QStringLiteral("When it ends: a duration from now (the server's clock), an ISO 8601 "
                        "time with its zone, or never.")},
        {QStringLiteral("--note TEXT"), QStringLiteral("Why, kept with it.")},
        {QStringLiteral("--author A"),
         QStringLiteral("Who added it, kept with it (default: the OS user).")},
        {QStringLiteral("--replace"),
         QStringLiteral("Overwrite a stored override with the same rule and match.")},
        json,
    };
    overrides.connects = true;

    p.commands = {check, rules, overrides, bench, simulate, replay, keys, load, serve};
    p.sections = {
        {QStringLiteral("EXIT STATUS"),
         QStringLiteral("0 on success (a denial is a result), 1 on a runtime failure (Redis "
                        "unreachable: the message names the address), 2 on bad usage or "
                        "invalid input (the message names the flag and what is expected).")},
        {QStringLiteral("ENVIRONMENT"),
         QStringLiteral("REDISCLI_AUTH: the Redis password when neither --password-file nor "
                        "the URL gives one.\n\n"
                        "SLUICE_SSH_KEY_PASSPHRASE: the passphrase of the --ssh key.")},
        {QStringLiteral("FILES"),
         QStringLiteral("/usr/share/sluice/lua/*.lua: the scripts sluice-cli loads into Redis "
                        "(byte for byte; any client can run them with EVALSHA).\n\n"
                        "/usr/share/sluice/samples/: sample rule files.\n\n"
                        "/etc/sluice/NAME.conf: the configuration of the systemd service "
                        "sluice-serve@NAME.")},
        {QStringLiteral("SEE ALSO"),
         QStringLiteral(
             "sluice-console(1), redis-cli(1), /usr/share/doc/sluice-redis/USER-GUIDE.md")},
    };
    return p;
}

} // namespace

const Page &cliPage()
{
    static const Page page = makeCliPage();
    return page;
}

} // namespace sluice::help
