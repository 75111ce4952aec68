<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ClusterNodes</name>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>master</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replica</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replica of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster sees it up (flags: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suspected down: the node asked cannot reach it, or its link is down (flags: %1). The cluster marks it failed if most masters agree.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Down: the masters agreed it failed, or it has no address (flags: %1). A replica of a failed master takes over its slots.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one key per subject, over every slot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no master serves a slot</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n master(s), %1% each</source>
        <translation>
            <numerusform>%n master, %1% each</numerusform>
            <numerusform>%n masters, %1% each</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n master(s), %1% to %2%</source>
        <translation>
            <numerusform>%n master, %1% to %2%</numerusform>
            <numerusform>%n masters, %1% to %2%</numerusform>
        </translation>
    </message>
    <message>
        <source>one key, slot %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no master (slot %1 uncovered)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is one key (%2) in slot %3, which no master serves now: its decisions fail and follow the rule&apos;s on_redis_error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hot key: %1 is one key (%2) in slot %3 on %4, so all its requests go to that node. At %5 requests/s that is %6% of the node (at %7 decisions/s); more masters do not spread it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>That is more than one node can serve: split the limit per subject, or shard it over several rules.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OverrideFields</name>
    <message>
        <source>why, for the next on-call (optional)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PatternDraft</name>
    <message>
        <source>Constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Burst</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Poisson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ramp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evenly spaced requests at the rate, between From and To.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Count requests at once at At, or spread evenly over Spread.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rate on average, with random (exponential) gaps: real clients.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rate grows (or falls) linearly from one value to the other between From and To.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The requests of a recorded trace, at their times.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>burst of %1 at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> over %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ramp %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>end</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProfileDraft</name>
    <message>
        <source>%1: no such file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a readable file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Socket path: enter the path of redis-server&apos;s Unix socket, such as /run/redis/redis-server.sock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Socket path: the socket path must be absolute (/path/redis.sock).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentinels: enter at least one sentinel as host:port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentinels: &apos;%1&apos; is not host:port: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Master name: the master name is missing (the name in the sentinels&apos; &apos;sentinel monitor NAME ...&apos;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA file %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client key: missing. The client certificate and the client key go together: give both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client certificate: missing. The client certificate and the client key go together: give both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client certificate %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client key %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH login: enter the bastion host to log in to, or turn the SSH tunnel off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH key file %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A host name or an IP address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a host to test.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile cannot be tested yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any name you will recognise, such as &apos;production&apos; or &apos;staging cache&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile needs a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A host name or an IP address, such as 127.0.0.1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile needs a host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile cannot be saved yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another name, or select that profile to change it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A profile named &apos;%1&apos; exists already.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleDraft</name>
    <message>
        <source>%1, burst %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 per %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 %3, %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 + adopted %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RuleFields</name>
    <message>
        <source>&amp;Id:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Algorithm:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Burst:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. hello-per-ip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 5s, 250ms, 1m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 100/s, 5/10s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 200</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global (one limit for everyone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per IP address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per header value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per query parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>header name, e.g. X-Api-Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter name, e.g. api_key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per header value %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per query parameter %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;cope:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScenarioDraft</name>
    <message numerus="yes">
        <source>The scenario has %n problem(s), marked beside their fields; it was not saved.</source>
        <translation>
            <numerusform>The scenario has %n problem, marked beside its field; it was not saved.</numerusform>
            <numerusform>The scenario has %n problems, marked beside their fields; it was not saved.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: scenarios are saved as JSON; give the file a .json name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pattern %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::AddOverrideDialog</name>
    <message>
        <source>Add override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An override of rule %1 stored in Redis: it decides for the subjects it matches instead of the rule&apos;s limit, wherever the rules come from the store, and ends by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the network (CIDR)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 10.1.2.3, a user id, or 10.0.0.0/8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deny: refuse every request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allow: never limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Match:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Who:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Action:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;For:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the subject or the network.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A network is written as an address and a prefix length: 10.0.0.0/8.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::AuditChart</name>
    <message>
        <source>No audit yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::AuditPanel</name>
    <message>
        <source>Every key of the database, read once within the scan budget, and recognised by the layout of the library that wrote it (Spring and RedisTemplate counters, rate-limiter-flexible, express-rate-limit, Redisson, Spring Cloud Gateway, Bucket4j, redis-cell, Kong, Envoy, sliding logs, Sluice). Application keys are only counted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;TTL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The TTL to set on the group&apos;s keys that have none, e.g. 60s, 1m, 1h (at most 30d)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix with TTL…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: connect to a Redis first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only connection: nothing is written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acts on the selected group&apos;s keys that have no TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set a TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 flagged, %2 never expire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all healthy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing flagged among the keys listed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Keys table (your rules&apos; keys): %1; %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::AuditSession</name>
    <message>
        <source>%1 (%2, TTL %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>suspects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>integer strings without TTL named like a limit, matching no layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 other keys without TTL (application keys: counted, not flagged) · %2 other keys with a TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auditing… %1% · %2 keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not audited yet: every key of the database is read once, within the scan budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled after %1 keys: the groups below count those</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The audit stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audited %1 keys in %2: %3 flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key of %1 is without TTL: nothing to fix (a TTL that is too long is left to the library that set it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The TTL must be from 1 s to 30 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1 of %2 that have no TTL? Only keys that still have none when they are reached are deleted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set a TTL of %1 on %2 of %3 that have no TTL? A key that got a TTL meanwhile is left as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1 keys without TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set a TTL on %1 keys that had none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 got a TTL meanwhile (left as it is)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 were gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>. Audit again to see the keyspace now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;Fix all from rules&quot; on the Keys page&apos;s table sets its TTL from the rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Fix with TTL, below)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without its TTL: %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::BlockDialog</name>
    <message>
        <source>Block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>Deny every request of %1 for the time below: an override stored in Redis, which the rule&apos;s key does not change and which ends by itself.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block &amp;for:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Note:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ClusterNodesModel</name>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n slot(s)</source>
        <translation>
            <numerusform>%n slot</numerusform>
            <numerusform>%n slots</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sluice::ui::ClusterPanel</name>
    <message>
        <source>Redis Cluster nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slot view: where each rule&apos;s keys land</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Requests/s to a global rule:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node &amp;capacity (decisions/s):</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n master(s)</source>
        <translation>
            <numerusform>%n master</numerusform>
            <numerusform>%n masters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s)</source>
        <translation>
            <numerusform>%n replica</numerusform>
            <numerusform>%n replicas</numerusform>
        </translation>
    </message>
    <message>
        <source>every slot served</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of 16,384 slots served</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) not ok</source>
        <translation>
            <numerusform>%n node not ok</numerusform>
            <numerusform>%n nodes not ok</numerusform>
        </translation>
    </message>
    <message>
        <source>The last read of CLUSTER NODES failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read with CLUSTER NODES every 2 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every global rule&apos;s key has the hash tag {global}: the %1 global rules share one slot, so their loads add up on one node.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules yet: open or pull a rule set on the Rules page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The capacity is a figure you give: 100,000 decisions/s by default, what one Redis node served on a 2-core test machine (README, &quot;Engine vs redis-benchmark&quot;). Measure your node with the command line&apos;s bench (sluice-cli bench) against its URL.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionController</name>
    <message>
        <source>password needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the password of &apos;%1&apos; on the Connection page: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting redis-server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sandbox could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sandbox stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to the sandbox to start it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the password to test the connection: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH password needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the SSH password of &apos;%1&apos; on the Connection page: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH key passphrase needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the passphrase of the SSH key of &apos;%1&apos; on the Connection page: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the SSH password to test the connection: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the SSH key passphrase to test the connection: %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionPage</name>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where Sluice finds Redis. Passwords go to the system keyring, never into a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected profile and its stored password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect once with these values, without saving them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the profile and use it for the whole console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A private redis-server that Sluice starts for you on a free port of this machine (127.0.0.1 only). It starts empty, saves nothing, and stops when Sluice exits: try rules, keys and simulations on it without touching a real server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect to the sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the sandbox…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>private, on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A private, empty Redis that Sluice starts and stops for you</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted the profile &apos;%1&apos; and its stored password.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The console was connected through it and is not connected any more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the profile &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis at %1 answered in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis %1 at %2 answered in %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the profile to keep these values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected to %1: Redis %2 at %3, %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole console now works on this server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot connect to %1 yet: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sluice keeps trying by itself; the status bar shows when.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the password of &apos;%1&apos;, then press Connect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sluice does not have it: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password is in the system keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The password is kept in memory for this session only: %1. Sluice will ask for it next time; it never writes passwords to disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running on 127.0.0.1:%1, Redis %2. The console is connected to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running on 127.0.0.1:%1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting redis-server…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not running. It starts when you connect to it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust this host key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect again, accepting the bastion&apos;s key shown below and adding it to known_hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing %1, trusting its SSH host key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1 (%2), trusting its SSH host key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the SSH password of &apos;%1&apos;, then press Connect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the passphrase of the SSH key of &apos;%1&apos;, then press Connect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new profile is not saved. Save it before you leave?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile &apos;%1&apos; has changes that are not saved. Save them before you leave?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionState</name>
    <message>
        <source>- ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt; %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionStatus</name>
    <message>
        <source>Not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connection lost: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reconnecting in %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reconnecting now…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot connect: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>see Connection (Ctrl+1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionSwitcher</name>
    <message>
        <source>connected %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch ▾</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to another server: the sandbox or a saved profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A private, empty Redis on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (read-only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No saved profiles yet: add one on the Connection page</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionWorker</name>
    <message>
        <source>connection refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing listens on %1: is redis-server running there, and is the port right?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot reach the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the host name, the port and the network.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Something at %1 accepts connections but does not answer: is it a Redis server, and is it paused or overloaded? Check the address and the port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server closed the connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It may have restarted, reached its client limit, or killed this client.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a Redis server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What answers at %1 does not speak the Redis protocol: check the port.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a password is required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server wants a password: enter it in the profile (and the user name, for an ACL user).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong user name or password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis refused the credentials: check the user name and the password in the profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database %1 cannot be selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server has fewer databases (its &apos;databases&apos; setting), or it is a cluster, which has database 0 only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server answered with an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown SSH host key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in known_hosts yet. Check its fingerprint (below) with the bastion&apos;s administrator, then press Trust this host key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SSH host key has changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone may be intercepting the connection, or the bastion was reinstalled. Sluice refuses it; see the details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SSH login was refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the SSH user, key file, passphrase or password of the profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot reach the SSH bastion</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the SSH host and port, and the network.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a TLS file cannot be used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the CA file, client certificate and client key of the profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s certificate did not pass the check: check the CA file and the server name of the profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no sentinel knows the master &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sentinels did not give the master &apos;%1&apos;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the master name and the sentinels&apos; addresses.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::DurationField</name>
    <message>
        <source>e.g. 30m, 1h, 1d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give a time between %1 and %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ExportDialog</name>
    <message>
        <source>Rule file, JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules as Sluice reads them back: every rule, nothing left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule file, YAML</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same rules in YAML: every rule, nothing left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nginx limit_req include</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>limit_req zones for http {}: each nginx counts on its own, in memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nginx in front of Sluice (auth_request)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A server that asks the check service (sluice-cli serve) before it proxies: every nginx shares the state in Redis.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Envoy ratelimit service config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One domain with a descriptor per fixed-window rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kong rate-limiting plugins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plugin configurations for the fixed windows Kong&apos;s periods can express.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the check service (sluice-cli serve) listens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The application nginx fronts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where nginx listens: a port or address:port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check &amp;service:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Upstream:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nginx &amp;listens on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the text above to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n rule(s) left out: this format cannot express them.</source>
        <translation>
            <numerusform>%n rule left out: this format cannot express it.</numerusform>
            <numerusform>%n rules left out: this format cannot express them.</numerusform>
        </translation>
    </message>
    <message>
        <source>Save the export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ForeignWatchModel</name>
    <message>
        <source>the same window in both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key appeared between them: all it counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the window restarted between them: at least these</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key expired since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>over its limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no token left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at its limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>near its limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>under</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1 (%2%3)
%4. Admitted and counted per second: the growth of its counter between the two samples; %5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, adopted by rule %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now / limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admitted/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counted/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ForeignWatchPanel</name>
    <message>
        <source>Other limiters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limiters Sluice does not run (a Spring aspect, a Node middleware, a gateway), read from their keys alone, never written: the subjects at or near their limit, the busiest, and the requests their counters admitted between two samples. A counter&apos;s limit comes from an adopt block of the rules; Spring Cloud Gateway&apos;s tokens and block keys say theirs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No other limiter&apos;s keys whose limit is known. Give a counter its limit with an adopt block in the rules; Spring Cloud Gateway&apos;s tokens and block keys (@nestjs/throttler, Rack::Attack) say theirs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for two samples…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not updating: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sampled every %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 limited, %3 near, of %4 keys · admitted %5/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · only the first %1 keys (the cap)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::HealthBanner</name>
    <message>
        <source>Why?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only the keys that are not ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix all from rules…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete all flagged…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete every key that never expires or lives longer than its rule needs; the next request of its subject starts afresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 key has a TTL longer than its rule can need.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys have a TTL longer than their rule can need.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 key is not its rule&apos;s state.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys are not their rule&apos;s state.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 key matches no rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys match no rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limiter keys found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The limiter key is healthy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All %1 limiter keys are healthy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(scan in progress)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the TTL of every key that never expires or lives too long to the most its rule can need</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs the rules (Rules page): the TTL is taken from each key&apos;s rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 key could not be read: the Redis user may not read it (NOPERM), so its health is unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys could not be read: the Redis user may not read them (NOPERM), so their health is unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grant: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 key could not be read, so its health is unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys could not be read, so their health is unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A limiter key must carry a TTL: the limit is &quot;N per window&quot;, and when the window is over Redis deletes the key. A key without TTL is never deleted, so once its counter reaches the limit its subject is refused until someone deletes the key: a limit turned into a permanent block. The usual cause is an INCR that arrived just after the key expired (it creates a new counter without TTL), or an EXPIRE sent in a separate round trip that never arrived (a crash, a reconnect). Sluice&apos;s scripts write the TTL in the same step as the counter, so these keys come from elsewhere. &quot;Fix all from rules&quot; sets each key&apos;s TTL to the most its rule can need, and only if it still has none (or a longer one) at that instant.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 limiter key never expires: once it reaches the limit it blocks its subject until someone deletes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 limiter keys never expire: once one reaches the limit it blocks its subject until someone deletes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listing the keys…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keys have not been listed yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problem among the %1 keys listed, but the scan stopped at the scan budget after %2 % of the keyspace: the rest is not checked. Scan again (F5) to read all of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problem among the %1 keys listed, but the scan covered only %2 % of the keyspace: the rest is not checked. Scan again (F5) to read all of it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limiter keys were found at %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 limiter keys were healthy at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only %1 % of the keyspace was scanned: the rest is not checked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 limiter key never expires: its state records its own time, so its limit still resets, and its subject&apos;s next admitted request sets a TTL again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 limiter keys never expire: their state records its own time, so their limits still reset, and each subject&apos;s next admitted request sets a TTL again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::HistoryDialog</name>
    <message>
        <source>added %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the history from Redis…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Author</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a version to see what a rollback to it changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a rollback changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Roll back…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules were ever pushed to this Redis.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Rules in Redis: version %1 · %n change(s) kept</source>
        <translation>
            <numerusform>Rules in Redis: version %1 · %n change kept</numerusform>
            <numerusform>Rules in Redis: version %1 · %n changes kept</numerusform>
        </translation>
    </message>
    <message>
        <source> · can roll back to v%1 … v%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · can roll back to v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · no earlier version can be rebuilt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (stored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rollback to v%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (forced)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This version cannot be rebuilt: a later change kept no record of what it replaced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(before the oldest change kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v%1 is the stored version: a rollback to it changes nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v%1 cannot be rebuilt from the kept history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading v%1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v%1 has the same rules as the stored version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A rollback to v%1 would change, in Redis:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Roll back to v%1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store the rules of version %1 as version %2? Every service that follows the rule store serves them at once. The history keeps every version, so this can be undone the same way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roll back the rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roll back to v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>staged in shadow: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>promoted the stage of v%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>discarded the stage of v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; discarded the stage of v%2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeyDetails</name>
    <message>
        <source>never expires (no TTL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gone: deleted or expired since it was listed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown (the read failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 when read (%2 ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a key to see its value, its decoded state, its rule and what its health means.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why it is flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its state needs a TTL of %1 at most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: no rule produces this key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (no rules loaded: open the Rules page to judge keys by their rule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not decoded (no rule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the value: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the key is gone)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>string, 1 byte</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>string, %1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… (the first %1 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no raw view for this type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, 1 entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… (%1 of %2 shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much of its limit the key used, read once a second while it is selected; the dotted line is the limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last minute:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 used now; %n reading(s) since selected</source>
        <translation>
            <numerusform>%1 of %2 used now; %n reading since selected</numerusform>
            <numerusform>%1 of %2 used now; %n readings since selected</numerusform>
        </translation>
    </message>
    <message>
        <source>no history: the key has no limiter state</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeyScope</name>
    <message>
        <source>Decide on the rules&apos; real keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: the run counts under keys of its own, removed at the end. On: it counts against the quotas of real subjects.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the load on the rules&apos; real keys? Its requests count against the same quotas as real traffic, and the keys are not removed afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the real keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ The run uses the rules&apos; own key prefixes: subjects 10.0.0.1, … count against the same keys as real traffic. The Monitor&apos;s Limited right now and the Keys page show them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On the sandbox no confirmation is asked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run uses keys of its own (sluice:load:&lt;run&gt;:…), removed when it ends: real subjects&apos; quotas are untouched. The Monitor charts the run, but its Limited right now and the Keys page do not read these keys: tick the box to watch the subjects it limits there.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysModel</name>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Health</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>∞ never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no permission to read (NOPERM)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (override)</source>
        <extracomment>A key written under a per-subject override limit of the rule</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysPage</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never expires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set TTL from rule…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the selected keys that never expire (or live too long) the TTL their rule needs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected keys from Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List the keys again (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The limiter keys of the connected Redis: each key&apos;s rule, subject, state and TTL, and the keys that will never expire. Nothing is written unless you fix or delete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Match:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SCAN MATCH glob(s), separated by spaces; empty: the key prefixes of the rules. Press Enter to scan.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key, rule or subject contains…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only &amp;flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only keys that never expire, live too long, match no rule or are not their rule&apos;s state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scanning…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the keyspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fixing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit the whole keyspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find the limiter keys other libraries wrote, in the whole database, and repair the ones that never expire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan &amp;replicas instead (spares the masters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read one replica of each shard (READONLY) instead of its master; a shard without a replica online is read on its master. Fixes always go to the masters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group the keys by rule or by key prefix (the parts between &apos;:&apos;), with the keys and the flagged keys under each node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 keys shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rescans every %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic rescans off (F5 scans again)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysScanState</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first scan running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not scanned yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scanned %1, %2, 1 key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scanned %1, %2, %3 keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 % of the keyspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · stale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis does not answer (%1): no scan has finished yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stale: the last scan finished at %1, more than two rescan intervals ago.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stale: the last scan finished at %1, and automatic rescans are off for this connection (F5 scans again).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As of %1; the next scan is due.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As of %1; automatic rescans are off (F5 scans again).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: Redis does not answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) never expire</source>
        <translation>
            <numerusform>%n key never expires</numerusform>
            <numerusform>%n keys never expire</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n flagged key(s)</source>
        <translation>
            <numerusform>%n flagged key</numerusform>
            <numerusform>%n flagged keys</numerusform>
        </translation>
    </message>
    <message>
        <source>Keys: stale since %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys: partial scan (%1 %)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(as of %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys  %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n flagged key(s), %1 never expire</source>
        <translation>
            <numerusform>%n flagged key, %1 never expiring</numerusform>
            <numerusform>%n flagged keys, %1 never expiring</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not current: Redis stopped answering at %1. The rows are those of the last good scan, at %2; nothing is known since.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysSession</name>
    <message>
        <source>1 key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: choose a Redis on the Connection page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · scanned in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · scan cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · scan stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis restarted during the scan, so the scan stopped after %1: the keyspace it was walking is gone. The keys listed are kept; their rows update as they are read again. Scan again (F5) for the keys Redis holds now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scan stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not list the keys: %1. Trying again when Redis answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection to Redis lost (%1). The table shows the keys as last read; it updates again by itself when Redis answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the selected key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the %1 selected keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1 from Redis? Their subjects start afresh on their next request. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected key needs no TTL from its rule: it is not flagged as never expiring or living too long.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of the %1 selected keys needs a TTL from its rule: none is flagged as never expiring or living too long.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the TTL from their rule on %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the TTL from their rule on %1 of the %2 selected keys (those that never expire or live too long)? The others are left as they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key that got a TTL within its rule meanwhile is left alone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set TTL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the 1 key that never expires or lives too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the %1 keys that never expire or live too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTL set on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already had a TTL within their rule (left alone).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 had gone meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 skipped (no rule to take a TTL from, or not the rule&apos;s state).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: %1. The changes made before it stand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One of them matches no rule&apos;s prefix: it may not be a limiter key at all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of them match no rule&apos;s prefix: they may not be limiter keys at all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type %1 to delete them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (replica of %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (master: no replica online)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, %3%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Redis Cluster, %n shard(s), read from replicas (the masters are spared; a replica may lag its master by a moment):</source>
        <translation>
            <numerusform>Redis Cluster, %n shard, read from a replica (the master is spared; a replica may lag its master by a moment):</numerusform>
            <numerusform>Redis Cluster, %n shards, read from replicas (the masters are spared; a replica may lag its master by a moment):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Redis Cluster, %n shard(s), read from their masters:</source>
        <translation>
            <numerusform>Redis Cluster, %n shard, read from its master:</numerusform>
            <numerusform>Redis Cluster, %n shards, read from their masters:</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · stopped at the scan budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sluice goes through every key under your rules&apos; prefixes again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sluice goes through every key the Match field selects again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete %1? %2 and deletes each key that is still flagged at that instant. This cannot be undone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set the TTL from their rule on %1? %2 and fixes each key that is still flagged at that instant; a key that got a TTL meanwhile is left alone.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysTree</name>
    <message numerus="yes">
        <source>… %n more (filter the table to see them)</source>
        <translation>
            <numerusform>… %n more (filter the table to see them)</numerusform>
            <numerusform>… %n more (filter the table to see them)</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Group by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key prefix (:)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tree groups up to %1 keys; %2 are listed. Narrow the Match field, or use the table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no rule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keys listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 keys, %2 flagged, from the last scan</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::LimitedModel</name>
    <message>
        <source>never (cost above the limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1
%2
This key of another limiter (rule %3 adopts it as %4) never expires: nothing will ever reset it, and once at its limit it denies forever. Fix it on the Keys page (a TTL of its window), or Unblock.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (adopted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ never (no TTL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ no TTL, admits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1
%2
A key of another limiter: rule %3 adopts it as %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the rule file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key %1
%2
An override of rule %3 (%4, %5) decides for this subject: %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed (no end)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocked (no end)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocked until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>own limit: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::LoadPage</name>
    <message>
        <source>Load generator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send real decisions to the connected Redis, following a traffic pattern of the simulation lab, from several threads over many subjects. Every decision is recorded: watch it on the Monitor page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every request is decided by each rule ticked here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Traffic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decisions sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decisions / s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decisions per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seconds since the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shadow-denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 10s, 2m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long the run lasts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads sending, each with its own connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clients, named like addresses: 10.0.0.1, 10.0.0.2, ... Each request picks one at random</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same seed draws the same subjects and Poisson gaps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ubjects:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (shadow)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled: the engine does not apply it; tick it to load it anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 enforced, %2 by shadow rules (let through)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s of %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;hreads</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::LoadSession</name>
    <message>
        <source>No rules yet: load or pull a rule set on the Rules page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick at least one rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: choose a server on the Connection page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About %1 requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 subjects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 over %2 from %3, each decided by one rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 over %2 from %3, each decided by %4 rules: %5 decisions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;✗ Cannot start:&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;✗ The run failed:&lt;/b&gt; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped&lt;/b&gt; after %1 s: %2 decisions, %3 allowed, %4 denied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;⚠ Finished with %1 errors:&lt;/b&gt; %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;✓ Finished:&lt;/b&gt; %1 decisions in %2 s, %3 allowed, %4 denied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Monitor page shows them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s keys stay until their TTL: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n of them the staged change&apos;s candidates, deciding in shadow beside the rules they would replace (their charts on the Monitor).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sluice::ui::MainWindow</name>
    <message>
        <source>Sluice: rate limits on Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Simulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import rules…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read rules from a JSON or YAML file into the Rules page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export rules…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the rules (JSON, YAML, nginx, Envoy, Kong); on the Simulation page, export the figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan the keys again, read the monitor now; a lost connection is retried at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run simulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Sluice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Sluice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Sluice&lt;/b&gt;&lt;p&gt;A console for rate limits kept in Redis: rules, live keys, simulations, live traffic and load.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) - Sluice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: the profile &apos;%1&apos; is read-only, so Sluice sends this server nothing that writes. Turn it off on the Connection page to change data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Load page&apos;s decisions are made, but their statistics are not written to Redis, so the Monitor page does not see them. Redis said: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings were not used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent &amp;files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;nnect to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be read, so Sluice starts with its defaults. The file was kept as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no settings version Sluice knows, so Sluice starts with its defaults.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rule files imported yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You are switching to another server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the rules back to their file, in its format (JSON or YAML)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save rules &amp;as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the rules to another JSON or YAML file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sluice is about to quit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was written by a newer Sluice (settings version %2; this one reads %3). Sluice uses what it understands of it and leaves the file as it is: what you change now is not kept.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::MessageBanner</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::MonitorPage</name>
    <message>
        <source>Monitor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules yet. The charts show the rules of the Rules page; load or pull a rule set there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Unblock…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected subject&apos;s limiter state: its next request is admitted as if it had never been seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R&amp;ule:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unblock a subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unblock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rule with the most requests in the last 15 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decisions per second per rule, as recorded in Redis by every console, CLI and service using it; the subjects limited right now; the busiest subjects. Point at a chart for its values, click it to open it large.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Range:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top subjects, last 15 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Allow for 1 h…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store an override in Redis: the rule does not limit the selected subjects for the next hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Block…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store an override in Redis: every request of the selected subjects is denied for a time you choose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An override blocks this subject: deleting its key would not unblock it. Allow it, or remove the override on the Rules page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow for one hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow for 1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top subjects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The shortest range that holds the latest burst of decisions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · held while you point at it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::MonitorSession</name>
    <message numerus="yes">
        <source>No subject is denied right now (%n key(s) read).</source>
        <translation>
            <numerusform>No subject is denied right now (%n key read).</numerusform>
            <numerusform>No subject is denied right now (%n keys read).</numerusform>
        </translation>
    </message>
    <message>
        <source>Busiest rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Busiest: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected: choose a server on the Connection page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Not updating (%1): showing the data read at %2. Retrying every second.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Cannot read yet (%1). Retrying every second.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>● Live, read at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limited right now (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limited right now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subjects whose next request would be denied, longest wait first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only the first %1 keys were read: the list may be incomplete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unblock %1 on rule %2?

This deletes the key %3: the subject&apos;s next request is admitted as if it had never been seen, and its limit starts over.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;✗ Could not unblock: %1.&lt;/b&gt;&lt;br&gt;The key %2 is unchanged; try again when the connection is back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;✓ Unblocked.&lt;/b&gt; Deleted %1: the subject&apos;s next request is admitted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;✓ Nothing to unblock.&lt;/b&gt; %1 had expired already.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) of other limiters, adopted by the rules, are watched too; %1 never expire: once full, such a key denies forever (fix it on the Keys page).</source>
        <translation>
            <numerusform>%n key of other limiters, adopted by the rules, is watched too; %1 never expires: once full, such a key denies forever (fix it on the Keys page).</numerusform>
            <numerusform>%n keys of other limiters, adopted by the rules, are watched too; %1 never expire: once full, such a key denies forever (fix it on the Keys page).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) of other limiters, adopted by the rules, are watched too.</source>
        <translation>
            <numerusform>%n key of other limiters, adopted by the rules, is watched too.</numerusform>
            <numerusform>%n keys of other limiters, adopted by the rules, are watched too.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message>
        <source>Auto: no decision recorded yet; showing the last %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No decisions recorded in the last %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The statistics keep %1 minutes: nothing before %2 in this range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recorded decisions. %1 has no key in Redis under its prefix: they were decided on other keys, which Limited right now does not read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>No subject is denied on the rules&apos; own keys (%n key(s) read).</source>
        <translation>
            <numerusform>No subject is denied on the rules&apos; own keys (%n key read).</numerusform>
            <numerusform>No subject is denied on the rules&apos; own keys (%n keys read).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n other rule(s)</source>
        <translation>
            <numerusform>%1 and %n other rule</numerusform>
            <numerusform>%1 and %n other rules</numerusform>
        </translation>
    </message>
    <message>
        <source>Recorded decisions of the last 15 minutes: a subject denied then may be admitted again now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The overrides stored in Redis could not be read (%1): only the rule file&apos;s are shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✓ Allowed until %1:&lt;/b&gt; %2. The rule does not limit it until then.</source>
        <translation>
            <numerusform>&lt;b&gt;✓ Allowed until %1:&lt;/b&gt; %2. The rule does not limit it until then.</numerusform>
            <numerusform>&lt;b&gt;✓ Allowed until %1:&lt;/b&gt; %2. The rule does not limit them until then.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✓ Blocked until %1:&lt;/b&gt; %2. Every request is denied until then.</source>
        <translation>
            <numerusform>&lt;b&gt;✓ Blocked until %1:&lt;/b&gt; %2. Every request is denied until then.</numerusform>
            <numerusform>&lt;b&gt;✓ Blocked until %1:&lt;/b&gt; %2. Every request of theirs is denied until then.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✗ Could not allow&lt;/b&gt; %1.</source>
        <translation>
            <numerusform>&lt;b&gt;✗ Could not allow&lt;/b&gt; %1.</numerusform>
            <numerusform>&lt;b&gt;✗ Could not allow&lt;/b&gt; %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✗ Could not block&lt;/b&gt; %1.</source>
        <translation>
            <numerusform>&lt;b&gt;✗ Could not block&lt;/b&gt; %1.</numerusform>
            <numerusform>&lt;b&gt;✗ Could not block&lt;/b&gt; %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>A subject an override lets through is listed with it, and not counted as limited.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Allow %1 for one hour?

This stores an override in Redis: for the next hour the rule never limits this subject (its key is not even read), wherever the rules come from the store (the check service reading its rules from Redis). It ends by itself; remove it sooner on the Rules page.</source>
        <translation>
            <numerusform>Allow %1 for one hour?

This stores an override in Redis: for the next hour the rule never limits this subject (its key is not even read), wherever the rules come from the store (the check service reading its rules from Redis). It ends by itself; remove it sooner on the Rules page.</numerusform>
            <numerusform>Allow %1 for one hour?

This stores an override in Redis: for the next hour the rule never limits these subjects (their keys are not even read), wherever the rules come from the store (the check service reading its rules from Redis). It ends by itself; remove it sooner on the Rules page.</numerusform>
        </translation>
    </message>
    <message>
        <source>Auto: the last %1, the shortest range that holds the latest burst of decisions (from %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 last ran on the Load page&apos;s own keys (sluice:load:&lt;run&gt;:…, removed when the run ends), which this list does not read. To watch a run here, tick &quot;Decide on the rules&apos; real keys&quot; on the Load page.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 decided in the last seconds but has no key under its prefix: the decisions were made on other keys, which this list does not read (a load&apos;s default run, the Load page&apos;s or sluice-cli load&apos;s, uses sluice:load:&lt;run&gt;:…). To watch a run of the Load page here, tick &quot;Decide on the rules&apos; real keys&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limited right now (not current)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not current: Redis stopped answering at %1. These are the subjects read at %2; who is limited now is not known.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::MonitorWorker</name>
    <message>
        <source>the key scan failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied by an override, whatever its key holds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the rule is no longer in the rule set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the subject is not UTF-8 text, which an override cannot name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::OverridesModel</name>
    <message>
        <source>%1 after loading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never (no TTL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allow: never limited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deny: always refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>limit: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rule file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, until %3
Stored in Redis by %4 at %5; it ends by itself, or remove it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2, until %3
Part of the rule: change it in the rule file, then import and push.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::OverridesPanel</name>
    <message>
        <source>Overrides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove override…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected override from Redis: the rule decides for its subjects again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add override…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store an override of the selected rule in Redis: allow or deny a subject or a network for a time, whether it is limited right now or not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a rule to see its per-subject overrides.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overrides of %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the overrides stored in Redis…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n in the rule file. The overrides stored in Redis are not known: %1.</source>
        <translation type="unfinished">
            <numerusform>%n in the rule file. The overrides stored in Redis are not known: %1.</numerusform>
            <numerusform>%n in the rule file. The overrides stored in Redis are not known: %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>None: the rule&apos;s limit applies to every subject. The Monitor&apos;s Allow and Block store overrides; sluice-cli overrides add does too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the rule file, %2 stored in Redis (those win over the file&apos;s, and end by themselves).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove an override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the override %1 (%2) of rule %3 from Redis?

The rule&apos;s own limit then applies to it again, wherever the rules come from the store.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::PatternForm</name>
    <message>
        <source>&amp;Pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 200/s, 5/100ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests per period: N/s, N/m, N/&lt;duration&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From r&amp;ate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 20/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rate at the start of the ramp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To ra&amp;te</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 500/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rate at the end of the ramp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;t</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 9.9s; 0s: at the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the burst starts, from the start of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>requests in the burst, e.g. 100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many requests the burst sends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;pread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 100ms; empty: all at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The burst&apos;s requests are spread evenly over this time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the pattern starts, from the start of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;o</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the pattern stops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>empty: any of the subjects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every request of the pattern from this one subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV of t_ms,subject lines</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::PeakChartView</name>
    <message>
        <source>Subjects above each peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subjects whose peak in %1 is above the limit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ProfileForm</name>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. production, staging cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unix socket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentinel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How Sluice reaches Redis: plain TCP, TLS, a Unix socket on this machine, or the master that Sentinel names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;ransport:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host name or IP address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Soc&amp;ket path:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>/run/redis/redis-server.sock</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The path of redis-server&apos;s unixsocket, on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sen&amp;tinels:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>host:port, host:port, …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sentinels to ask, separated by commas; the port is 26379 when left out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Master name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. mymaster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name the sentinels monitor the master by (sentinel monitor NAME ...)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database number SELECT picks; 0 unless you know otherwise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An ACL user name (Redis 6 and later); empty for the default user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget the stored password when you save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;A file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the system&apos;s trust store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CA certificate (PEM) that signed the server&apos;s certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client &amp;certificate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A client certificate (PEM), for servers that ask for one (tls-auth-clients yes); with its key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The client certificate&apos;s private key (PEM, without a passphrase)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Client key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server na&amp;me:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name the server&apos;s certificate must carry, when it is not the host (SNI)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not check the server&apos;s certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ Insecure: anyone between Sluice and the server can read and change the traffic, the password included. For a test server only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Through an SSH tunnel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reach Redis through a bastion host: Sluice logs in with SSH and connects from there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bastion host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH &amp;login:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key &amp;file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the SSH agent, then ~/.ssh&apos;s keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH private key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key pass&amp;phrase:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SSH pa&amp;ssword:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For password logins; the key file and the agent are tried first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>known_&amp;hosts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>known_hosts file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept an unknown host key and add it to known_hosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A changed host key is always refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type it to connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored password will be forgotten when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving puts it in the system keyring; where none answers, Sluice keeps it for this session only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A password is stored in the system keyring. Type a new one to replace it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system keyring answered: the password is kept for this session only, and asked again next time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system keyring answered when it was saved, so Sluice did not keep it: type the password to connect (kept for this session).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty if the server needs no password.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: send nothing that writes to this server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sluice then only reads: fixing and deleting keys, unblocking, pushing rules, load and simulations on Redis are off. On by default for a server that is not on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Safety:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> keys/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most keys a second Sluice&apos;s scans walk on this server (the Keys page and its badge, the Monitor&apos;s limited subjects), counted as SCAN walks them, matching or not; a scan also slows down by itself when the server&apos;s latency rises. 0: no limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scan &amp;budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off (F5 only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Keys page lists the keys again this often, within the scan budget, so that its health, the navigation badge and the status bar stay current. Off: only when you press F5 (for instance to spare a read-only replica).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys r&amp;escan:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ProfileStore</name>
    <message>
        <source>no system keyring answered (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the system keyring is not in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no system keyring was available when it was saved, so Sluice kept it for that session only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the system keyring has no password for it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the system keyring did not answer (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it was never saved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ReplayDialog</name>
    <message>
        <source>Replay a log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your own access logs through a rule file, on the in-process twins of the scripts and on the log&apos;s own clock: who would have been limited, and what limit to choose. Nothing is sent anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>access.log; several files separated by ;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an access log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Access logs (*.log *.gz *.txt *.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rules.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a rule file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule files (*.json *.yaml *.yml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nginx log_format…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the charts as PNG or SVG, or the report as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shadow-denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subjects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied subjects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>429 in the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denials over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a rule, then drag the red line to try a limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most denied subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First denial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last denial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV report (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>format not recognised: choose it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detected: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denials per %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was skipped: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay a log first: there is nothing to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: export to .png, .svg or .csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>the Rules page&apos;s %n rule(s), or choose a file</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Use this limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the limit into the rule on the Rules page, unsaved: review it there, then save, push or stage it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied at the limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most denied by the rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A limit of %1 denies no subject.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>A limit of %1 denies %n subject(s); the most denied:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Approximate (≈): the replay keeps the %1 highest peaks of each rule, and more subjects than that are above this limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write %1 into rule %2 on the Rules page, unsaved: review it there, then save, push or stage it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ReplaySession</name>
    <message>
        <source>Choose the logs and a rule file, then Replay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lines, %2 lines/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least one log file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a rule file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lines, %2 unparsed, %3 late; %4 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; whole seconds spread evenly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %1 outliers, not replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>disabled: not replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no line matched its route</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) without a subject for %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) with a subject too long to decide</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>denied none: no subject above %1 (highest peak %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the staged candidate of %1, in shadow: counts, never denies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shadow: counts what it would deny, never denies</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n override(s) not applied by the replay</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Limit %1 per %2%3: %4 of subjects (%5), %6 of requests (%7). Peaks: p50 %8, p90 %9, p99 %10, max %11.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the rule&apos;s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a replayed rule first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay the Rules page&apos;s rules (no rule file) to write a limit into them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag the red line to another limit first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit %1 written into the rule on the Rules page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The limit was not written</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleChart</name>
    <message>
        <source>allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shadow-denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · shadow (denies nothing, counts what it would)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last minute: %1 %2 allowed  %3 %4 denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  %1 %2 shadow-denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Point at the chart for the values of a second; click to open it large</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shown: %1 allowed, %2 denied, %3 shadow-denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · nothing kept for this second (the statistics keep %2 minutes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 allowed/s · %3 denied/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 shadow-denied/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · staged candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · in shadow: dashed, what it would deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing decided it yet: a check service that reads its rules from Redis decides it beside the enforced rule, and so does a run on the Load page.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleChartDialog</name>
    <message>
        <source>Monitor: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleDiffDialog</name>
    <message>
        <source>Push rules to Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review the conflict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Added (%n)</source>
        <translation>
            <numerusform>Added (%n)</numerusform>
            <numerusform>Added (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Changed (%n)</source>
        <translation>
            <numerusform>Changed (%n)</numerusform>
            <numerusform>Changed (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n fields</source>
        <translation>
            <numerusform>%n field</numerusform>
            <numerusform>%n fields</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Removed (%n)</source>
        <translation>
            <numerusform>Removed (%n)</numerusform>
            <numerusform>Removed (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>No differences</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Unchanged (%n)</source>
        <translation>
            <numerusform>Unchanged (%n)</numerusform>
            <numerusform>Unchanged (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Push to Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep mine (based on v%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep your rules and mark them as based on v%1: the next push overwrites exactly what is listed here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use Redis v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace your rules with those in Redis; your changes are lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why (kept in the rules&apos; history; optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Message:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who it limits now could not be worked out: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rule changes, so no subject is limited differently.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who it limits now, from the live keys&apos; state: released (denied now, allowed after) %1 · newly denied (allowed now, denied after) %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subjects limited now</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n live key(s)</source>
        <translation>
            <numerusform>%n live key</numerusform>
            <numerusform>%n live keys</numerusform>
        </translation>
    </message>
    <message>
        <source> (a part: the preview stops at %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · denied now %1 → after %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · every subject starts afresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · last 15 min: %1 allowed, %2 denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>released</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>newly denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage in shadow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store these rules beside the enforced ones instead: the service decides every request by both, the candidate in shadow (it never blocks), so the Monitor shows what it would deny before you promote it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleEditor</name>
    <message>
        <source>Select a rule to edit it, or press Add.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>modified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed here, not applied to the table yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget the changes typed here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;pply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. GET /hello</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ro&amp;ute:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what the limit protects, for the next on-call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Key prefix:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allow: let requests through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>deny: refuse requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local: limit in process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If Redis &amp;fails:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Enabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;hadow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flags:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shadow: decide and record, never block.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a client meets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample s&amp;ubject:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The value the scope takes from a request: an IP address, a user name, a header or parameter value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the rule into the table (Redis and files change only when you push or export)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the fields marked in red first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Names the rule in keys, headers and logs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counts per window; up to 2x the limit across a boundary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length of each window, e.g. 5s, 250ms, 1m.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact over any span; one entry per request in Redis.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any span this long admits at most the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weighs the previous window: nearly exact, two counters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The span the limit applies to, e.g. 1m.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steady refill; a full bucket allows a burst at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per period, e.g. 100/s or 5/10s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bucket size: the most requests at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queues requests and releases them at a steady pace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How fast the queue drains, e.g. 10/s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue size; requests beyond it are refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A steady pace plus a burst allowance; one timestamp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sustained pace, e.g. 5/m.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra requests at once beyond the pace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests admitted per window.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One shared limit for all clients.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One limit per client IP address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One limit per authenticated user.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One limit per value of this header.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One limit per value of this parameter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What it guards, for people and exports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One line: why this limit exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys are &lt;prefix&gt;&lt;id&gt;:{&lt;subject&gt;}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis down: requests pass (fail open).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis down: requests are refused (fail closed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis down: each instance limits on its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#5f6770;&quot;&gt;Key: fix the fields marked in red to see it.&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#5f6770;&quot;&gt;Headers: fix the fields marked in red to see them.&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis key: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First request: 200%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, released after %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request %1 at the same instant: 429 Too Many Requests%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (shadow: recorded, let through)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled: no request is limited by this rule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a subject used under the old limit still counts: a lowered limit may leave it nothing until its window or bucket moves on. The default.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everyone starts afresh under the new limit, as if never seen.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whoever had used half of the old limit has used half of the new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A raise gives everyone the difference on top of what they had left; a cut only caps what they had left.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the counters already in Redis become, key by key on each subject&apos;s next request, when this rule&apos;s limit, window, rate, burst or algorithm changes (a new algorithm always starts afresh):
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If the limit chan&amp;ges:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counters in Redis start afresh under the new limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counters keep the same share of the new limit used.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A raise adds to what is left; a cut caps it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counters in Redis keep what was used (the default).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep what was used (default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start afresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keep the share used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add a raise to what is left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Count them as if admitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied re&amp;quests:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>count_rejected: a request this rule denies uses up its limit as an admitted one would, so a client that keeps retrying while limited stays limited (what envoy ratelimit does unless told otherwise). Off: only admitted requests count.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not available for %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On: retries while limited count too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For window algorithms only.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleSpreadModel</name>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load at the rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spread</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesModel</name>
    <message>
        <source>fixed window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sliding log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sliding counter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leaky bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GCRA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shadow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>disabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shadow: decisions are made and recorded, requests are never blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed here and not yet pushed to Redis or exported to a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Route</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesPage</name>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules here differ from the file or Redis version they came from: push them or export them to keep them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the rules here with a JSON or YAML rule file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the rules as a rule file, or for nginx, Envoy or Kong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ull</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pu&amp;sh…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by id, algorithm, limit, scope, route… (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new rule, typed in the editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected rule here; Redis keeps it until you push</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule files (*.json *.yaml *.yml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pull and review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pull</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Push anyway (force)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n rule(s)</source>
        <translation>
            <numerusform>%n rule</numerusform>
            <numerusform>%n rules</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n rule(s) shown</source>
        <translation>
            <numerusform>%1 of %n rule shown</numerusform>
            <numerusform>%1 of %n rules shown</numerusform>
        </translation>
    </message>
    <message>
        <source>From %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules yet: import a file, pull from Redis or add one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>based on Redis v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>push and pull are off: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not watching Redis: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis has no rules yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis is at v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: %1. Editing, import and export keep working.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store these rules in Redis, after a preview of what changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the rules kept in Redis (unsaved changes are reviewed first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the new rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply your changes to %1 before you leave it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your changes to %1 are not valid yet. Discard them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unapplied changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The versions stored in Redis: who changed what, the diff, and a rollback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last rule file, %1, is gone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import another one, or pick one in File &gt; Recent files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You are opening another rule file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the rules here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrite the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save without the comments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was saved: the rule in the editor is not valid yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the fields marked in red, or revert them, then save again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON rule file (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YAML rule file (*.yaml *.yml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save rules as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules here have changes that are in no file and not pushed to Redis. Save them to a file first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules here have changes that are not saved to %1. Save them first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unsaved rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You are opening %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Rules page has no rule %1 any more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rule editor holds edits not applied yet: apply or discard them first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is now %2, unsaved: review it, then save, push or stage it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesSession</name>
    <message>
        <source>unsaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicated %1 as %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change what differs in the editor, then Apply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted %1 here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis keeps it until you push.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1: %n error(s); nothing was imported, the rules here are unchanged.</source>
        <translation>
            <numerusform>%1: %n error; nothing was imported, the rules here are unchanged.</numerusform>
            <numerusform>%1: %n errors; nothing was imported, the rules here are unchanged.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cannot import %1: %n error(s). Nothing was changed.</source>
        <translation>
            <numerusform>Cannot import %1: %n error. Nothing was changed.</numerusform>
            <numerusform>Cannot import %1: %n errors. Nothing was changed.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is not a valid rule file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every error is listed below with its line and column. Fix the file and import it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Imported %n rule(s) from %1.</source>
        <translation>
            <numerusform>Imported %n rule from %1.</numerusform>
            <numerusform>Imported %n rules from %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>The file was pulled from Redis version %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Exported %n rule(s) to %1 (%2).</source>
        <translation>
            <numerusform>Exported %n rule to %1 (%2).</numerusform>
            <numerusform>Exported %n rules to %1 (%2).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 cannot express %n rule(s); they are not in %2:</source>
        <translation>
            <numerusform>%1 cannot express %n rule; it is not in %2:</numerusform>
            <numerusform>%1 cannot express %n rules; they are not in %2:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %1 of %2 rules to %3; %n left out.</source>
        <translation>
            <numerusform>Exported %1 of %2 rules to %3; %n left out.</numerusform>
            <numerusform>Exported %1 of %2 rules to %3; %n left out.</numerusform>
        </translation>
    </message>
    <message>
        <source>The list below says why %1 cannot express them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected to Redis (choose a server on the Connection page)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis at %1 is not reachable (%2); the console keeps retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot connect to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Loaded %n rule(s) from Redis, version %1.</source>
        <translation>
            <numerusform>Loaded %n rule from Redis, version %1.</numerusform>
            <numerusform>Loaded %n rules from Redis, version %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Redis has %n rule(s) at version %1; your unsaved changes are kept.</source>
        <translation>
            <numerusform>Redis has %n rule at version %1; your unsaved changes are kept.</numerusform>
            <numerusform>Redis has %n rules at version %1; your unsaved changes are kept.</numerusform>
        </translation>
    </message>
    <message>
        <source>Pull to review the differences, or push to replace them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you are editing v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your rules here did not come from Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis has v%1, %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone changed the rules in Redis. Pull to see what changed; a push now would be refused as a conflict.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot pull now: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot push now: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules stay here; push when Redis is back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules are not valid; nothing was pushed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pushing (force)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pushing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the rules from Redis.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis has no rules yet; the table is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Pulled %n rule(s) from Redis, version %1.</source>
        <translation>
            <numerusform>Pulled %n rule from Redis, version %1.</numerusform>
            <numerusform>Pulled %n rules from Redis, version %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Redis v%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>added %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis already has these rules (version %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pushed version %1 to Redis%2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (forced)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflict: Redis moved on since version %1, nothing was overwritten.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflict: Redis has rules these did not come from, nothing was overwritten.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The push failed; Redis is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Redis has no rules yet. Pushing stores your %n rule(s) as version 1:</source>
        <translation>
            <numerusform>Redis has no rules yet. Pushing stores your %n rule as version 1:</numerusform>
            <numerusform>Redis has no rules yet. Pushing stores your %n rules as version 1:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Redis is at version %1. Pushing your %n rule(s) makes version %2:</source>
        <translation>
            <numerusform>Redis is at version %1. Pushing your %n rule makes version %2:</numerusform>
            <numerusform>Redis is at version %1. Pushing your %n rules makes version %2:</numerusform>
        </translation>
    </message>
    <message>
        <source>Redis already has exactly these rules: there is nothing to push.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules are based on version %1: Redis changed since, so the push will be refused as a conflict unless you force it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules did not come from Redis: the push will be refused as a conflict unless you force it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The push is one atomic step: every app reading the store sees all of it or none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules are the same as Redis version %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis is at version %1. Your rules differ from it as follows (what a push would change):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep mine: your rules stay and count as based on version %1, so the next push replaces exactly what is listed. Use Redis: your changes are dropped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now editing Redis version %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules now count as based on version %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Push to replace what the review listed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown export format &apos;%1&apos;: choose json, yaml, nginx, nginx-auth, envoy or kong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Reopened %1; Redis has %n rule(s) at version %2.</source>
        <translation>
            <numerusform>Reopened %1; Redis has %n rule at version %2.</numerusform>
            <numerusform>Reopened %1; Redis has %n rules at version %2.</numerusform>
        </translation>
    </message>
    <message>
        <source>rollback to version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolling back to version %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rollback to version %1 was not made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redis already has the rules of version %1 (version %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolled back to version %1: stored as version %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolled back to version %1: stored as version %2. Your unsaved changes are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected to Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not remove the override %1 of rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed the override %1 of rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rule decides for that subject again, wherever the rules come from the store.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The override %1 of rule %2 was already gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It had ended, or someone removed it meanwhile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Staging…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Promoting the staged change…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarding the staged change…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The change was not staged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The staged change was not promoted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The staged change was not discarded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Staged as version %1: the candidate runs in shadow beside the enforced rules.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It never blocks a request. Watch its would-deny counts on the Monitor beside the enforced rules, then promote or discard it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Promoted: the staged rules are enforced as version %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discarded the staged change; version %1 enforces the rules as before.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Not saved: %n error(s) in the rules.</source>
        <translation>
            <numerusform>Not saved: %n error in the rules.</numerusform>
            <numerusform>Not saved: %n errors in the rules.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was not written: the rules are not valid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every error is listed below. Fix the rules, then save again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is gone: it was deleted or moved after it was opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was written and your rules stay here. Save them with Save as…, under this name or another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was changed on disk since it was opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was written. Reload it (your edits here are dropped), or overwrite it with the rules here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is read-only: nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules stay here. Make the file writable, or save them elsewhere with Save as….</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n comment line(s) that a Save would drop.</source>
        <translation>
            <numerusform>%1 has %n comment line that a Save would drop.</numerusform>
            <numerusform>%1 has %n comment lines that a Save would drop.</numerusform>
        </translation>
    </message>
    <message>
        <source>The YAML reader does not keep comments, so Sluice writes the rules without them. Save without them, or save under another name with Save as….</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. Nothing was changed on disk; your rules stay here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Saved %n rule(s) to %1.</source>
        <translation>
            <numerusform>Saved %n rule to %1.</numerusform>
            <numerusform>Saved %n rules to %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Written as YAML.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written as JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your rules here are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Save overwrites %1 with them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was deleted or moved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules stay here. Save them with Save as… to keep them in a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was changed on disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload it (your edits here are dropped), or keep your rules here; a Save then overwrites the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload it to see the change, or keep the rules here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“Push anyway (force)”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The edits you made after staging are kept here, unsaved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stored the override %1 of rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It decides for its subjects wherever the rules come from the store, until it ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not store the override %1 of rule %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>promote or discard it first (the buttons on the staged change&apos;s banner), or push anyway, which discards it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>discard it and stage again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>They count as based on version %1: a push replaces the rolled-back rules with them, after its preview.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesWorker</name>
    <message>
        <source>not connected to Redis</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::Sandbox</name>
    <message>
        <source>redis-server did not get ready within %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redis-server is not installed, so Sluice cannot start a sandbox. Install it (Debian, Ubuntu: apt-get install redis-server) or add a profile for a Redis you have.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create a temporary directory for the sandbox: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot run %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redis-server stopped before it was ready (exit code %1). %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox redis-server was stopped from outside or crashed. Connect to the sandbox again to start a new, empty one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sandbox redis-server exited (code %1). Connect to the sandbox again to start a new, empty one.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::ScenarioEditor</name>
    <message>
        <source>Preset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a preset…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenarios (*.json *.yaml *.yml)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON scenario (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the scenario to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. my burst</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 30s, 5m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one chart point per bin, e.g. 100ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>span of &quot;max in window&quot;, e.g. 10s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subjects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clients 10.0.0.1, …; default 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same seed, same traffic; default 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Traffic patterns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the rules from the Rules page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rules on the Rules page yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In-process twins (fast, no Redis)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The real scripts on the connected Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both give identical decisions. On Redis the run writes under a prefix of its own and removes its keys afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Replace the scenario&apos;s rules with the %n rule(s) of the Rules page</source>
        <translation type="unfinished">
            <numerusform>Replace the scenario&apos;s rules with the %n rule of the Rules page</numerusform>
            <numerusform>Replace the scenario&apos;s rules with the %n rules of the Rules page</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sluice::ui::ServerPanel</name>
    <message>
        <source>watching keys does not keep them alive under LRU/LFU eviction: the console&apos;s scans use it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not here (Redis 7.2 has it): under LRU/LFU eviction, keys the console watches are kept longer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redis-cell&apos;s GCRA in one command (or Dragonfly&apos;s): its keys are audited as redis_cell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not here: no redis-cell module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a native GCRA command of this server&apos;s build</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not here: Sluice&apos;s gcra rule is a Lua script, as everywhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTLs on single hash fields: a limiter may expire a field, not its whole key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not here (Redis 7.4 has it): TTLs are per key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server: %1, Redis %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What it offers beyond Redis 7.0 is unknown: %1. The console&apos;s scans then count as accesses under LRU/LFU eviction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationMetricsModel</name>
    <message>
        <source>fixed window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sliding window (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sliding window counter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leaky bucket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GCRA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admitted %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released max/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak/%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delay max ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most requests admitted in any span of %1 (the busiest window, shaded in the charts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same on release times (admission + delay): the leaky bucket&apos;s output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most requests admitted in one bin of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The delay the leaky bucket asks an admitted request to wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>adopted %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delay ms mean/max</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationPage</name>
    <message>
        <source>Simulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the scenario through every rule (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the charts as PNG or SVG, or the time series as CSV (Ctrl+E)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every rule decides the same traffic on its own, on a virtual clock: see where each one lets bursts through and where it smooths them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a preset or edit the scenario, then Run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Using the %n rule(s) of the Rules page.</source>
        <translation>
            <numerusform>Using the %n rule of the Rules page.</numerusform>
            <numerusform>Using the %n rules of the Rules page.</numerusform>
        </translation>
    </message>
    <message>
        <source>Fix the problems marked in the scenario first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the problems marked in the scenario first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected to Redis: connect on the Connection page, or run on the in-process twins.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generating about %1 requests…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deciding: %1 of %2 requests through every rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the scripts in Redis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the in-process twins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 requests; the charts show what was decided until then.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run&apos;s keys were removed from Redis.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 requests through %n rule(s) on %2 in %3 s.</source>
        <translation>
            <numerusform>%1 requests through %n rule on %2 in %3 s.</numerusform>
            <numerusform>%1 requests through %n rules on %2 in %3 s.</numerusform>
        </translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a simulation first: there is nothing to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the simulation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV time series (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: export to .png, .svg or .csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay a log…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run your access logs through a rule file: who would have been limited</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationRunner</name>
    <message>
        <source>the run stopped without a result</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::StageBanner</name>
    <message>
        <source>&amp;Promote…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enforce the staged rules: a new version in the history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disc&amp;ard…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop the staged rules; the enforced ones stay as they are</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changes %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>adds %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removes %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Staged at version %1 by %2: %3. The service decides by the enforced rules and, in shadow, by these; the Monitor shows them side by side.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>someone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A change is staged, running in shadow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1: %2 → %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1 stays %2 (not %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1 is added: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1 is not added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1 is removed: its subjects are no longer limited by it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>• %1 stays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Promote the change staged at version %1? From then on every service deciding from the store enforces:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the change staged at version %1? The enforced rules stay as they are:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules here become the promoted version (edits you made after staging are kept, unsaved).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rules here go back to the enforced ones (edits you made after staging are kept, unsaved).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Promote the staged change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard the staged change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Promote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::StatsWatch</name>
    <message>
        <source>Statistics are not written: grant %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statistics are not written: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::TopSubjectsModel</name>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied share</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>sluice::ui::TtlDelegate</name>
    <message>
        <source>∞ never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>59 min 59 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
