<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ClusterNodes</name>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>failing</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>不可达</translation>
    </message>
    <message>
        <source>master</source>
        <translation>主节点</translation>
    </message>
    <message>
        <source>replica</source>
        <translation>副本</translation>
    </message>
    <message>
        <source>replica of %1</source>
        <translation>%1 的副本</translation>
    </message>
    <message>
        <source>The cluster sees it up (flags: %1).</source>
        <translation>集群认为它在线（标志：%1）。</translation>
    </message>
    <message>
        <source>Suspected down: the node asked cannot reach it, or its link is down (flags: %1). The cluster marks it failed if most masters agree.</source>
        <translation>疑似宕机：被询问的节点连不上它，或其链路已断开（标志：%1）。多数主节点同意后，集群会将其标记为故障。</translation>
    </message>
    <message>
        <source>Down: the masters agreed it failed, or it has no address (flags: %1). A replica of a failed master takes over its slots.</source>
        <translation>已宕机：主节点们已认定它故障，或它没有地址（标志：%1）。故障主节点的副本会接管它的槽。</translation>
    </message>
    <message>
        <source>one key per subject, over every slot</source>
        <translation>每个主体一个键，分布在所有槽上</translation>
    </message>
    <message>
        <source>no master serves a slot</source>
        <translation>没有主节点提供任何槽</translation>
    </message>
    <message numerus="yes">
        <source>%n master(s), %1% each</source>
        <translation>
            <numerusform>%n 个主节点，各 %1%</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n master(s), %1% to %2%</source>
        <translation>
            <numerusform>%n 个主节点，%1% 到 %2%</numerusform>
        </translation>
    </message>
    <message>
        <source>one key, slot %1</source>
        <translation>一个键，槽 %1</translation>
    </message>
    <message>
        <source>no master (slot %1 uncovered)</source>
        <translation>无主节点（槽 %1 未覆盖）</translation>
    </message>
    <message>
        <source>%1 is one key (%2) in slot %3, which no master serves now: its decisions fail and follow the rule&apos;s on_redis_error.</source>
        <translation>%1 只有一个键（%2），位于槽 %3，目前没有主节点提供该槽：它的决策会失败，并按规则的 on_redis_error 处理。</translation>
    </message>
    <message>
        <source>%1% of the node</source>
        <translation>占该节点 %1%</translation>
    </message>
    <message>
        <source>Hot key: %1 is one key (%2) in slot %3 on %4, so all its requests go to that node. At %5 requests/s that is %6% of the node (at %7 decisions/s); more masters do not spread it.</source>
        <translation>热键：%1 只有一个键（%2），位于 %4 上的槽 %3，所以它的全部请求都发往该节点。每秒 %5 个请求时，占该节点的 %6%（按每秒 %7 次决策计）；增加主节点也无法分摊它。</translation>
    </message>
    <message>
        <source>That is more than one node can serve: split the limit per subject, or shard it over several rules.</source>
        <translation>这超出了单个节点的能力：请按主体拆分限额，或把它分散到多条规则上。</translation>
    </message>
</context>
<context>
    <name>OverrideFields</name>
    <message>
        <source>why, for the next on-call (optional)</source>
        <translation>原因，留给下一位值班同事（可选）</translation>
    </message>
</context>
<context>
    <name>PatternDraft</name>
    <message>
        <source>Constant</source>
        <translation>恒定</translation>
    </message>
    <message>
        <source>Burst</source>
        <translation>突发</translation>
    </message>
    <message>
        <source>Poisson</source>
        <translation>泊松</translation>
    </message>
    <message>
        <source>Ramp</source>
        <translation>线性增长</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Evenly spaced requests at the rate, between From and To.</source>
        <translation>在“起始”和“结束”之间，按该速率均匀发送请求。</translation>
    </message>
    <message>
        <source>Count requests at once at At, or spread evenly over Spread.</source>
        <translation>在“时刻”一次性发出“数量”个请求，或在“分布时长”内均匀发出。</translation>
    </message>
    <message>
        <source>The rate on average, with random (exponential) gaps: real clients.</source>
        <translation>按平均速率发送，间隔随机（指数分布）：模拟真实客户端。</translation>
    </message>
    <message>
        <source>The rate grows (or falls) linearly from one value to the other between From and To.</source>
        <translation>在“起始”和“结束”之间，速率从一个值线性增长（或下降）到另一个值。</translation>
    </message>
    <message>
        <source>The requests of a recorded trace, at their times.</source>
        <translation>按记录的时间重放一份请求记录。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>burst of %1 at %2</source>
        <translation>在 %2 突发 %1 个请求</translation>
    </message>
    <message>
        <source> over %1</source>
        <translation>，分布在 %1 内</translation>
    </message>
    <message>
        <source>ramp %1 → %2</source>
        <translation>爬升 %1 → %2</translation>
    </message>
    <message>
        <source>replay %1</source>
        <translation>回放 %1</translation>
    </message>
    <message>
        <source>, %1 to %2</source>
        <translation>，%1 至 %2</translation>
    </message>
    <message>
        <source>start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>end</source>
        <translation>结束</translation>
    </message>
</context>
<context>
    <name>ProfileDraft</name>
    <message>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
    <message>
        <source>%1: not a readable file</source>
        <translation>%1：不是可读的文件</translation>
    </message>
    <message>
        <source>Socket path: enter the path of redis-server&apos;s Unix socket, such as /run/redis/redis-server.sock.</source>
        <translation>套接字路径：请输入 redis-server 的 Unix 套接字路径，例如 /run/redis/redis-server.sock。</translation>
    </message>
    <message>
        <source>Socket path: the socket path must be absolute (/path/redis.sock).</source>
        <translation>套接字路径：必须是绝对路径（/path/redis.sock）。</translation>
    </message>
    <message>
        <source>Sentinels: enter at least one sentinel as host:port.</source>
        <translation>哨兵：请至少输入一个哨兵，格式为 host:port。</translation>
    </message>
    <message>
        <source>Sentinels: &apos;%1&apos; is not host:port: %2.</source>
        <translation>哨兵：“%1”不是 host:port：%2。</translation>
    </message>
    <message>
        <source>Master name: the master name is missing (the name in the sentinels&apos; &apos;sentinel monitor NAME ...&apos;).</source>
        <translation>主节点名称：缺少主节点名称（即哨兵配置“sentinel monitor NAME ...”中的名称）。</translation>
    </message>
    <message>
        <source>CA file %1.</source>
        <translation>CA 文件 %1。</translation>
    </message>
    <message>
        <source>Client key: missing. The client certificate and the client key go together: give both.</source>
        <translation>客户端私钥：缺失。客户端证书和客户端私钥必须同时提供。</translation>
    </message>
    <message>
        <source>Client certificate: missing. The client certificate and the client key go together: give both.</source>
        <translation>客户端证书：缺失。客户端证书和客户端私钥必须同时提供。</translation>
    </message>
    <message>
        <source>Client certificate %1.</source>
        <translation>客户端证书 %1。</translation>
    </message>
    <message>
        <source>Client key %1.</source>
        <translation>客户端私钥 %1。</translation>
    </message>
    <message>
        <source>SSH login: enter the bastion host to log in to, or turn the SSH tunnel off.</source>
        <translation>SSH 登录：请输入要登录的跳板机，或关闭 SSH 隧道。</translation>
    </message>
    <message>
        <source>SSH key file %1.</source>
        <translation>SSH 密钥文件 %1。</translation>
    </message>
    <message>
        <source>A host name or an IP address.</source>
        <translation>主机名或 IP 地址。</translation>
    </message>
    <message>
        <source>Enter a host to test.</source>
        <translation>请输入要测试的主机。</translation>
    </message>
    <message>
        <source>The profile cannot be tested yet.</source>
        <translation>连接配置暂时无法测试。</translation>
    </message>
    <message>
        <source>Any name you will recognise, such as &apos;production&apos; or &apos;staging cache&apos;.</source>
        <translation>任何你能认出的名称，例如“production”或“staging cache”。</translation>
    </message>
    <message>
        <source>The profile needs a name.</source>
        <translation>连接配置需要名称。</translation>
    </message>
    <message>
        <source>A host name or an IP address, such as 127.0.0.1.</source>
        <translation>主机名或 IP 地址，例如 127.0.0.1。</translation>
    </message>
    <message>
        <source>The profile needs a host.</source>
        <translation>连接配置需要主机。</translation>
    </message>
    <message>
        <source>The profile cannot be saved yet.</source>
        <translation>连接配置暂时无法保存。</translation>
    </message>
    <message>
        <source>Choose another name, or select that profile to change it.</source>
        <translation>请换一个名称，或选择该连接配置进行修改。</translation>
    </message>
    <message>
        <source>A profile named &apos;%1&apos; exists already.</source>
        <translation>名为“%1”的连接配置已存在。</translation>
    </message>
</context>
<context>
    <name>RuleDraft</name>
    <message>
        <source>%1, burst %2</source>
        <translation>%1，突发容量 %2</translation>
    </message>
    <message>
        <source>%1 per %2</source>
        <translation>每 %2 %1 次</translation>
    </message>
    <message>
        <source>%1 · %2 %3, %4</source>
        <translation>%1 · %2 %3，%4</translation>
    </message>
    <message>
        <source>%1 + adopted %2</source>
        <translation>%1 + 接管的 %2</translation>
    </message>
</context>
<context>
    <name>RuleFields</name>
    <message>
        <source>&amp;Id:</source>
        <translation>ID(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Algorithm:</source>
        <translation>算法(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Limit:</source>
        <translation>限流次数(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Window:</source>
        <translation>时间窗口(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Rate:</source>
        <translation>速率(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Burst:</source>
        <translation>突发容量(&amp;B)：</translation>
    </message>
    <message>
        <source>e.g. hello-per-ip</source>
        <translation>例如 hello-per-ip</translation>
    </message>
    <message>
        <source>e.g. 3</source>
        <translation>例如 3</translation>
    </message>
    <message>
        <source>e.g. 5s, 250ms, 1m</source>
        <translation>例如 5s、250ms、1m</translation>
    </message>
    <message>
        <source>e.g. 100/s, 5/10s</source>
        <translation>例如 100/s、5/10s</translation>
    </message>
    <message>
        <source>e.g. 200</source>
        <translation>例如 200</translation>
    </message>
    <message>
        <source>global (one limit for everyone)</source>
        <translation>全局（所有人共用一个限额）</translation>
    </message>
    <message>
        <source>per IP address</source>
        <translation>按 IP 地址</translation>
    </message>
    <message>
        <source>per user</source>
        <translation>按用户</translation>
    </message>
    <message>
        <source>per header value</source>
        <translation>按请求头值</translation>
    </message>
    <message>
        <source>per query parameter</source>
        <translation>按查询参数</translation>
    </message>
    <message>
        <source>header name, e.g. X-Api-Key</source>
        <translation>请求头名称，例如 X-Api-Key</translation>
    </message>
    <message>
        <source>parameter name, e.g. api_key</source>
        <translation>参数名称，例如 api_key</translation>
    </message>
    <message>
        <source>global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>per header value %1</source>
        <translation>按请求头值 %1</translation>
    </message>
    <message>
        <source>per query parameter %1</source>
        <translation>按查询参数 %1</translation>
    </message>
    <message>
        <source>S&amp;cope:</source>
        <translation>作用范围(&amp;C)：</translation>
    </message>
</context>
<context>
    <name>ScenarioDraft</name>
    <message numerus="yes">
        <source>The scenario has %n problem(s), marked beside their fields; it was not saved.</source>
        <translation>
            <numerusform>场景中有 %n 个问题，已在相应字段旁标出；场景未保存。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: scenarios are saved as JSON; give the file a .json name</source>
        <translation>%1：场景以 JSON 格式保存；请使用 .json 文件名</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Pattern %1: %2</source>
        <translation>流量模式 %1：%2</translation>
    </message>
    <message>
        <source>Rule %1: %2</source>
        <translation>规则 %1：%2</translation>
    </message>
</context>
<context>
    <name>sluice::ui::AddOverrideDialog</name>
    <message>
        <source>Add override</source>
        <translation>添加覆盖规则</translation>
    </message>
    <message>
        <source>An override of rule %1 stored in Redis: it decides for the subjects it matches instead of the rule&apos;s limit, wherever the rules come from the store, and ends by itself.</source>
        <translation>规则 %1 的覆盖规则，保存在 Redis 中：凡是从存储读取规则的地方，它替代规则的限额为所匹配的主体做判定，并到期自行结束。</translation>
    </message>
    <message>
        <source>the subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>the network (CIDR)</source>
        <translation>网络（CIDR）</translation>
    </message>
    <message>
        <source>e.g. 10.1.2.3, a user id, or 10.0.0.0/8</source>
        <translation>例如 10.1.2.3、某个用户 ID 或 10.0.0.0/8</translation>
    </message>
    <message>
        <source>deny: refuse every request</source>
        <translation>拒绝：拒绝每个请求</translation>
    </message>
    <message>
        <source>allow: never limit</source>
        <translation>放行：从不限流</translation>
    </message>
    <message>
        <source>&amp;Match:</source>
        <translation>匹配(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Who:</source>
        <translation>对象(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Action:</source>
        <translation>动作(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;For:</source>
        <translation>时长(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Note:</source>
        <translation>备注(&amp;N)：</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Name the subject or the network.</source>
        <translation>请填写主体或网络。</translation>
    </message>
    <message>
        <source>A network is written as an address and a prefix length: 10.0.0.0/8.</source>
        <translation>网络写作地址加前缀长度：10.0.0.0/8。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::AuditChart</name>
    <message>
        <source>No audit yet</source>
        <translation>尚未审计</translation>
    </message>
</context>
<context>
    <name>sluice::ui::AuditPanel</name>
    <message>
        <source>Every key of the database, read once within the scan budget, and recognised by the layout of the library that wrote it (Spring and RedisTemplate counters, rate-limiter-flexible, express-rate-limit, Redisson, Spring Cloud Gateway, Bucket4j, redis-cell, Kong, Envoy, sliding logs, Sluice). Application keys are only counted.</source>
        <translation>数据库中的每个键都在扫描预算内读取一次，并按写入它的库的布局识别（Spring 与 RedisTemplate 计数器、rate-limiter-flexible、express-rate-limit、Redisson、Spring Cloud Gateway、Bucket4j、redis-cell、Kong、Envoy、滑动日志、Sluice）。应用程序的键只计数。</translation>
    </message>
    <message>
        <source>Audit now</source>
        <translation>立即审计</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>&amp;TTL:</source>
        <translation>&amp;TTL：</translation>
    </message>
    <message>
        <source>The TTL to set on the group&apos;s keys that have none, e.g. 60s, 1m, 1h (at most 30d)</source>
        <translation>为该组中没有 TTL 的键设置的 TTL，例如 60s、1m、1h（最多 30d）</translation>
    </message>
    <message>
        <source>Fix with TTL…</source>
        <translation>设置 TTL 修复…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Not connected: connect to a Redis first</source>
        <translation>未连接：请先连接 Redis</translation>
    </message>
    <message>
        <source>Read-only connection: nothing is written</source>
        <translation>只读连接：不会写入任何内容</translation>
    </message>
    <message>
        <source>Acts on the selected group&apos;s keys that have no TTL</source>
        <translation>作用于所选组中没有 TTL 的键</translation>
    </message>
    <message>
        <source>TTL: %1</source>
        <translation>TTL：%1</translation>
    </message>
    <message>
        <source>Delete keys</source>
        <translation>删除键</translation>
    </message>
    <message>
        <source>Set a TTL</source>
        <translation>设置 TTL</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Set TTL</source>
        <translation>设置 TTL</translation>
    </message>
    <message>
        <source>%1 flagged, %2 never expire</source>
        <translation>%1 个已标记，%2 个永不过期</translation>
    </message>
    <message>
        <source>%1 flagged</source>
        <translation>%1 个已标记</translation>
    </message>
    <message>
        <source>all healthy</source>
        <translation>全部健康</translation>
    </message>
    <message>
        <source>nothing flagged among the keys listed</source>
        <translation>已列出的键中没有已标记的</translation>
    </message>
    <message>
        <source>The Keys table (your rules&apos; keys): %1; %2.</source>
        <translation>键表格（您的规则的键）：%1；%2。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::AuditSession</name>
    <message>
        <source>%1 (%2, TTL %3)</source>
        <translation>%1（%2，TTL %3）</translation>
    </message>
    <message>
        <source>never</source>
        <translation>永不</translation>
    </message>
    <message>
        <source>suspects</source>
        <translation>可疑键</translation>
    </message>
    <message>
        <source>integer strings without TTL named like a limit, matching no layout</source>
        <translation>名称像限流、没有 TTL、不匹配任何布局的整数字符串</translation>
    </message>
    <message>
        <source>%1 other keys without TTL (application keys: counted, not flagged) · %2 other keys with a TTL</source>
        <translation>%1 个其他无 TTL 的键（应用程序的键：只计数，不标记）· %2 个其他有 TTL 的键</translation>
    </message>
    <message>
        <source>Auditing… %1% · %2 keys</source>
        <translation>正在审计… %1% · %2 个键</translation>
    </message>
    <message>
        <source>Not audited yet: every key of the database is read once, within the scan budget</source>
        <translation>尚未审计：数据库中的每个键将在扫描预算内读取一次</translation>
    </message>
    <message>
        <source>Cancelled after %1 keys: the groups below count those</source>
        <translation>已在 %1 个键后取消：下面的分组只统计这些键</translation>
    </message>
    <message>
        <source>The audit stopped: %1</source>
        <translation>审计已停止：%1</translation>
    </message>
    <message>
        <source>Audited %1 keys in %2: %3 flagged</source>
        <translation>已在 %2 内审计 %1 个键：%3 个已标记</translation>
    </message>
    <message>
        <source>No key of %1 is without TTL: nothing to fix (a TTL that is too long is left to the library that set it)</source>
        <translation>%1 中没有无 TTL 的键：无需修复（过长的 TTL 留给设置它的库处理）</translation>
    </message>
    <message>
        <source>The TTL must be from 1 s to 30 d</source>
        <translation>TTL 必须在 1 秒到 30 天之间</translation>
    </message>
    <message>
        <source>1 key</source>
        <translation>1 个键</translation>
    </message>
    <message>
        <source>%1 keys</source>
        <translation>%1 个键</translation>
    </message>
    <message>
        <source>Delete %1 of %2 that have no TTL? Only keys that still have none when they are reached are deleted.</source>
        <translation>删除 %2 中没有 TTL 的 %1？只删除处理时仍没有 TTL 的键。</translation>
    </message>
    <message>
        <source>Set a TTL of %1 on %2 of %3 that have no TTL? A key that got a TTL meanwhile is left as it is.</source>
        <translation>为 %3 中没有 TTL 的 %2 设置 %1 的 TTL？期间已获得 TTL 的键保持不变。</translation>
    </message>
    <message>
        <source>Deleted %1 keys without TTL</source>
        <translation>已删除 %1 个没有 TTL 的键</translation>
    </message>
    <message>
        <source>Set a TTL on %1 keys that had none</source>
        <translation>已为 %1 个没有 TTL 的键设置 TTL</translation>
    </message>
    <message>
        <source>; %1 got a TTL meanwhile (left as it is)</source>
        <translation>；%1 个期间已获得 TTL（保持不变）</translation>
    </message>
    <message>
        <source>; %1 were gone</source>
        <translation>；%1 个已不存在</translation>
    </message>
    <message>
        <source>; %1 failed</source>
        <translation>；%1 个失败</translation>
    </message>
    <message>
        <source>; stopped: %1</source>
        <translation>；已停止：%1</translation>
    </message>
    <message>
        <source>; cancelled</source>
        <translation>；已取消</translation>
    </message>
    <message>
        <source>. Audit again to see the keyspace now.</source>
        <translation>。再次审计以查看当前的键空间。</translation>
    </message>
    <message>
        <source>&quot;Fix all from rules&quot; on the Keys page&apos;s table sets its TTL from the rule</source>
        <translation>键页面表格上的“按规则全部修复”会按规则设置其过期时间</translation>
    </message>
    <message>
        <source>(Fix with TTL, below)</source>
        <translation>（用下方的“设置过期时间修复”）</translation>
    </message>
    <message>
        <source>Without its TTL: %1 (%2).</source>
        <translation>丢失 TTL 时：%1（%2）。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::BlockDialog</name>
    <message>
        <source>Block</source>
        <translation>封禁</translation>
    </message>
    <message>
        <source>%1 on rule %2</source>
        <translation>%1（限流规则 %2）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Deny every request of %1 for the time below: an override stored in Redis, which the rule&apos;s key does not change and which ends by itself.</source>
        <translation>在下面的时长内拒绝 %1 的每个请求：这是一条存于 Redis 的例外规则，不改动该限流规则的键，到期自动结束。</translation>
    </message>
    <message>
        <source>Block &amp;for:</source>
        <translation>封禁时长(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Note:</source>
        <translation>备注(&amp;N)：</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ClusterNodesModel</name>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Slots</source>
        <translation>槽</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>健康状况</translation>
    </message>
    <message numerus="yes">
        <source>%n slot(s)</source>
        <translation>
            <numerusform>%n 个槽</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sluice::ui::ClusterPanel</name>
    <message>
        <source>Redis Cluster nodes</source>
        <translation>Redis Cluster 节点</translation>
    </message>
    <message>
        <source>Slot view: where each rule&apos;s keys land</source>
        <translation>槽视图：每条规则的键落在哪里</translation>
    </message>
    <message>
        <source>&amp;Requests/s to a global rule:</source>
        <translation>全局规则每秒请求数(&amp;R)：</translation>
    </message>
    <message>
        <source>Node &amp;capacity (decisions/s):</source>
        <translation>节点容量（每秒决策数）(&amp;C)：</translation>
    </message>
    <message numerus="yes">
        <source>%n master(s)</source>
        <translation>
            <numerusform>%n 个主节点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s)</source>
        <translation>
            <numerusform>%n 个副本</numerusform>
        </translation>
    </message>
    <message>
        <source>every slot served</source>
        <translation>所有槽均有节点提供</translation>
    </message>
    <message>
        <source>%1 of 16,384 slots served</source>
        <translation>16,384 个槽中有 %1 个有节点提供</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) not ok</source>
        <translation>
            <numerusform>%n 个节点异常</numerusform>
        </translation>
    </message>
    <message>
        <source>The last read of CLUSTER NODES failed: %1</source>
        <translation>上次读取 CLUSTER NODES 失败：%1</translation>
    </message>
    <message>
        <source>Read with CLUSTER NODES every 2 s.</source>
        <translation>每 2 秒用 CLUSTER NODES 读取一次。</translation>
    </message>
    <message>
        <source>Every global rule&apos;s key has the hash tag {global}: the %1 global rules share one slot, so their loads add up on one node.</source>
        <translation>每条全局规则的键都带有哈希标签 {global}：这 %1 条全局规则共用一个槽，它们的负载会叠加在同一个节点上。</translation>
    </message>
    <message>
        <source>No rules yet: open or pull a rule set on the Rules page.</source>
        <translation>还没有规则：请在“规则”页打开或拉取一个规则集。</translation>
    </message>
    <message>
        <source>The capacity is a figure you give: 100,000 decisions/s by default, what one Redis node served on a 2-core test machine (README, &quot;Engine vs redis-benchmark&quot;). Measure your node with the command line&apos;s bench (sluice-cli bench) against its URL.</source>
        <translation>容量是由你给出的数值：默认每秒 100,000 次判定，即一个 Redis 节点在双核测试机上的实测值（README 中的“Engine vs redis-benchmark”）。可用命令行的 bench（sluice-cli bench）对你的节点 URL 实测。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionController</name>
    <message>
        <source>password needed</source>
        <translation>需要密码</translation>
    </message>
    <message>
        <source>Enter the password of &apos;%1&apos; on the Connection page: %2.</source>
        <translation>请在“连接”页面输入“%1”的密码：%2。</translation>
    </message>
    <message>
        <source>sandbox</source>
        <translation>沙盒</translation>
    </message>
    <message>
        <source>starting redis-server</source>
        <translation>正在启动 redis-server</translation>
    </message>
    <message>
        <source>the sandbox could not start</source>
        <translation>沙盒无法启动</translation>
    </message>
    <message>
        <source>the sandbox stopped</source>
        <translation>沙盒已停止</translation>
    </message>
    <message>
        <source>Connect to the sandbox to start it again.</source>
        <translation>连接到沙盒即可重新启动它。</translation>
    </message>
    <message>
        <source>Enter the password to test the connection: %1.</source>
        <translation>请输入密码以测试连接：%1。</translation>
    </message>
    <message>
        <source>SSH password needed</source>
        <translation>需要 SSH 密码</translation>
    </message>
    <message>
        <source>Enter the SSH password of &apos;%1&apos; on the Connection page: %2.</source>
        <translation>请在“连接”页面输入“%1”的 SSH 密码：%2。</translation>
    </message>
    <message>
        <source>SSH key passphrase needed</source>
        <translation>需要 SSH 密钥口令</translation>
    </message>
    <message>
        <source>Enter the passphrase of the SSH key of &apos;%1&apos; on the Connection page: %2.</source>
        <translation>请在“连接”页面输入“%1”的 SSH 密钥口令：%2。</translation>
    </message>
    <message>
        <source>Enter the SSH password to test the connection: %1.</source>
        <translation>请输入 SSH 密码以测试连接：%1。</translation>
    </message>
    <message>
        <source>Enter the SSH key passphrase to test the connection: %1.</source>
        <translation>请输入 SSH 密钥口令以测试连接：%1。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionPage</name>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Where Sluice finds Redis. Passwords go to the system keyring, never into a file.</source>
        <translation>Sluice 在哪里找到 Redis。密码保存在系统密钥环中，从不写入文件。</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>连接配置</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新建连接配置</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected profile and its stored password</source>
        <translation>删除所选连接配置及其保存的密码</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Connect once with these values, without saving them</source>
        <translation>用这些设置连接一次，但不保存</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Save the profile and use it for the whole console</source>
        <translation>保存连接配置，并在整个控制台中使用</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙盒</translation>
    </message>
    <message>
        <source>A private redis-server that Sluice starts for you on a free port of this machine (127.0.0.1 only). It starts empty, saves nothing, and stops when Sluice exits: try rules, keys and simulations on it without touching a real server.</source>
        <translation>由 Sluice 在本机空闲端口上为你启动的私有 redis-server（仅限 127.0.0.1）。它启动时为空，不保存任何数据，并在 Sluice 退出时停止：可以在上面试用限流规则、键和仿真，而不影响真实服务器。</translation>
    </message>
    <message>
        <source>&amp;Connect to the sandbox</source>
        <translation>连接到沙盒(&amp;C)</translation>
    </message>
    <message>
        <source>Starting the sandbox…</source>
        <translation>正在启动沙盒…</translation>
    </message>
    <message>
        <source>private, on this machine</source>
        <translation>私有，位于本机</translation>
    </message>
    <message>
        <source>A private, empty Redis that Sluice starts and stops for you</source>
        <translation>由 Sluice 为你启动和停止的私有空 Redis</translation>
    </message>
    <message>
        <source>Deleted the profile &apos;%1&apos; and its stored password.</source>
        <translation>已删除连接配置“%1”及其保存的密码。</translation>
    </message>
    <message>
        <source>The console was connected through it and is not connected any more.</source>
        <translation>控制台原先通过它连接，现已断开连接。</translation>
    </message>
    <message>
        <source>Saved the profile &apos;%1&apos;.</source>
        <translation>已保存连接配置“%1”。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <source>Redis at %1 answered in %2.</source>
        <translation>%1 上的 Redis 在 %2 内响应。</translation>
    </message>
    <message>
        <source>Redis %1 at %2 answered in %3.</source>
        <translation>%2 上的 Redis %1 在 %3 内响应。</translation>
    </message>
    <message>
        <source>Save the profile to keep these values.</source>
        <translation>保存连接配置以保留这些设置。</translation>
    </message>
    <message>
        <source>Cannot connect to %1: %2.</source>
        <translation>无法连接到 %1：%2。</translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)…</source>
        <translation>正在连接到 %1（%2）…</translation>
    </message>
    <message>
        <source>Connected to %1: Redis %2 at %3, %4.</source>
        <translation>已连接到 %1：Redis %2，位于 %3，%4。</translation>
    </message>
    <message>
        <source>The whole console now works on this server.</source>
        <translation>整个控制台现在都在此服务器上工作。</translation>
    </message>
    <message>
        <source>Cannot connect to %1 yet: %2.</source>
        <translation>暂时无法连接到 %1：%2。</translation>
    </message>
    <message>
        <source>Sluice keeps trying by itself; the status bar shows when.</source>
        <translation>Sluice 会自动重试；状态栏会显示重试时间。</translation>
    </message>
    <message>
        <source>Enter the password of &apos;%1&apos;, then press Connect.</source>
        <translation>请输入“%1”的密码，然后点击“连接”。</translation>
    </message>
    <message>
        <source>Sluice does not have it: %1.</source>
        <translation>Sluice 没有该密码：%1。</translation>
    </message>
    <message>
        <source>The password is in the system keyring.</source>
        <translation>密码保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>The password is kept in memory for this session only: %1. Sluice will ask for it next time; it never writes passwords to disk.</source>
        <translation>密码仅在本次会话中保存在内存里：%1。下次 Sluice 会再次询问；它从不将密码写入磁盘。</translation>
    </message>
    <message>
        <source>Running on 127.0.0.1:%1, Redis %2. The console is connected to it.</source>
        <translation>运行于 127.0.0.1:%1，Redis %2。控制台已连接到它。</translation>
    </message>
    <message>
        <source>Running on 127.0.0.1:%1.</source>
        <translation>运行于 127.0.0.1:%1。</translation>
    </message>
    <message>
        <source>Starting redis-server…</source>
        <translation>正在启动 redis-server…</translation>
    </message>
    <message>
        <source>Not running. It starts when you connect to it.</source>
        <translation>未运行。连接到它时会自动启动。</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation>详细信息：%1</translation>
    </message>
    <message>
        <source>Trust this host key</source>
        <translation>信任此主机密钥</translation>
    </message>
    <message>
        <source>Connect again, accepting the bastion&apos;s key shown below and adding it to known_hosts</source>
        <translation>重新连接，接受下方显示的跳板机密钥并将其加入 known_hosts</translation>
    </message>
    <message>
        <source>Testing %1, trusting its SSH host key…</source>
        <translation>正在测试 %1，并信任其 SSH 主机密钥…</translation>
    </message>
    <message>
        <source>Connecting to %1 (%2), trusting its SSH host key…</source>
        <translation>正在连接 %1（%2），并信任其 SSH 主机密钥…</translation>
    </message>
    <message>
        <source>Enter the SSH password of &apos;%1&apos;, then press Connect.</source>
        <translation>请输入“%1”的 SSH 密码，然后点击“连接”。</translation>
    </message>
    <message>
        <source>Enter the passphrase of the SSH key of &apos;%1&apos;, then press Connect.</source>
        <translation>请输入“%1”的 SSH 密钥口令，然后点击“连接”。</translation>
    </message>
    <message>
        <source>The new profile is not saved. Save it before you leave?</source>
        <translation>新的连接配置尚未保存。离开前要保存吗？</translation>
    </message>
    <message>
        <source>The profile &apos;%1&apos; has changes that are not saved. Save them before you leave?</source>
        <translation>连接配置“%1”有未保存的更改。离开前要保存吗？</translation>
    </message>
    <message>
        <source>Unsaved profile</source>
        <translation>未保存的连接配置</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionState</name>
    <message>
        <source>- ms</source>
        <translation>- ms</translation>
    </message>
    <message>
        <source>&lt; %1 ms</source>
        <translation>&lt; %1 ms</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionStatus</name>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Connecting to %1 (%2)…</source>
        <translation>正在连接到 %1（%2）…</translation>
    </message>
    <message>
        <source>Redis %1</source>
        <translation>Redis %1</translation>
    </message>
    <message>
        <source>connection lost: %1</source>
        <translation>连接已断开：%1</translation>
    </message>
    <message>
        <source>reconnecting in %1 s</source>
        <translation>%1 s 后重新连接</translation>
    </message>
    <message>
        <source>reconnecting now…</source>
        <translation>正在重新连接…</translation>
    </message>
    <message>
        <source>cannot connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <source>see Connection (Ctrl+1)</source>
        <translation>请查看“连接”（Ctrl+1）</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionSwitcher</name>
    <message>
        <source>connected %1</source>
        <translation>%1 已连接</translation>
    </message>
    <message>
        <source>failed %1: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>lost %1: %2</source>
        <translation>%1 断开：%2</translation>
    </message>
    <message>
        <source>Switch ▾</source>
        <translation>切换 ▾</translation>
    </message>
    <message>
        <source>Connect to another server: the sandbox or a saved profile</source>
        <translation>连接到另一台服务器：沙盒或已保存的连接配置</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>沙盒</translation>
    </message>
    <message>
        <source>A private, empty Redis on this machine</source>
        <translation>本机上一个私有的空 Redis</translation>
    </message>
    <message>
        <source>%1 (read-only)</source>
        <translation>%1（只读）</translation>
    </message>
    <message>
        <source>No saved profiles yet: add one on the Connection page</source>
        <translation>还没有保存的连接配置：请在“连接”页添加</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ConnectionWorker</name>
    <message>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>Nothing listens on %1: is redis-server running there, and is the port right?</source>
        <translation>%1 上没有服务在监听：redis-server 是否在那里运行？端口是否正确？</translation>
    </message>
    <message>
        <source>cannot reach the server</source>
        <translation>无法访问服务器</translation>
    </message>
    <message>
        <source>Check the host name, the port and the network.</source>
        <translation>请检查主机名、端口和网络。</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1 s 内无响应</translation>
    </message>
    <message>
        <source>Something at %1 accepts connections but does not answer: is it a Redis server, and is it paused or overloaded? Check the address and the port.</source>
        <translation>%1 上有服务接受连接但没有响应：它是 Redis 服务器吗？是否已暂停或过载？请检查地址和端口。</translation>
    </message>
    <message>
        <source>the server closed the connection</source>
        <translation>服务器关闭了连接</translation>
    </message>
    <message>
        <source>It may have restarted, reached its client limit, or killed this client.</source>
        <translation>它可能已重启、达到客户端数量上限，或终止了此客户端。</translation>
    </message>
    <message>
        <source>not a Redis server</source>
        <translation>不是 Redis 服务器</translation>
    </message>
    <message>
        <source>What answers at %1 does not speak the Redis protocol: check the port.</source>
        <translation>%1 上响应的服务不使用 Redis 协议：请检查端口。</translation>
    </message>
    <message>
        <source>a password is required</source>
        <translation>需要密码</translation>
    </message>
    <message>
        <source>This server wants a password: enter it in the profile (and the user name, for an ACL user).</source>
        <translation>此服务器需要密码：请在连接配置中输入密码（如果是 ACL 用户，还需输入用户名）。</translation>
    </message>
    <message>
        <source>wrong user name or password</source>
        <translation>用户名或密码错误</translation>
    </message>
    <message>
        <source>Redis refused the credentials: check the user name and the password in the profile.</source>
        <translation>Redis 拒绝了凭据：请检查连接配置中的用户名和密码。</translation>
    </message>
    <message>
        <source>database %1 cannot be selected</source>
        <translation>无法选择数据库 %1</translation>
    </message>
    <message>
        <source>The server has fewer databases (its &apos;databases&apos; setting), or it is a cluster, which has database 0 only.</source>
        <translation>服务器的数据库数量较少（取决于其“databases”设置），或者它是集群，集群只有数据库 0。</translation>
    </message>
    <message>
        <source>the server answered with an error</source>
        <translation>服务器返回了错误</translation>
    </message>
    <message>
        <source>unknown SSH host key</source>
        <translation>未知的 SSH 主机密钥</translation>
    </message>
    <message>
        <source>%1 is not in known_hosts yet. Check its fingerprint (below) with the bastion&apos;s administrator, then press Trust this host key.</source>
        <translation>%1 尚不在 known_hosts 中。请与跳板机管理员核对其指纹（见下方），然后点击“信任此主机密钥”。</translation>
    </message>
    <message>
        <source>the SSH host key has changed</source>
        <translation>SSH 主机密钥已变更</translation>
    </message>
    <message>
        <source>Someone may be intercepting the connection, or the bastion was reinstalled. Sluice refuses it; see the details.</source>
        <translation>可能有人在拦截连接，或跳板机已重装。Sluice 拒绝连接；请查看详情。</translation>
    </message>
    <message>
        <source>the SSH login was refused</source>
        <translation>SSH 登录被拒绝</translation>
    </message>
    <message>
        <source>Check the SSH user, key file, passphrase or password of the profile.</source>
        <translation>请检查连接配置中的 SSH 用户、密钥文件、口令或密码。</translation>
    </message>
    <message>
        <source>cannot reach the SSH bastion</source>
        <translation>无法连接 SSH 跳板机</translation>
    </message>
    <message>
        <source>Check the SSH host and port, and the network.</source>
        <translation>请检查 SSH 主机和端口，以及网络。</translation>
    </message>
    <message>
        <source>a TLS file cannot be used</source>
        <translation>TLS 文件无法使用</translation>
    </message>
    <message>
        <source>Check the CA file, client certificate and client key of the profile.</source>
        <translation>请检查连接配置中的 CA 文件、客户端证书和客户端私钥。</translation>
    </message>
    <message>
        <source>TLS refused</source>
        <translation>TLS 被拒绝</translation>
    </message>
    <message>
        <source>The server&apos;s certificate did not pass the check: check the CA file and the server name of the profile.</source>
        <translation>服务器证书未通过校验：请检查连接配置中的 CA 文件和服务器名称。</translation>
    </message>
    <message>
        <source>no sentinel knows the master &apos;%1&apos;</source>
        <translation>没有哨兵知道主节点“%1”</translation>
    </message>
    <message>
        <source>the sentinels did not give the master &apos;%1&apos;</source>
        <translation>哨兵未给出主节点“%1”</translation>
    </message>
    <message>
        <source>Check the master name and the sentinels&apos; addresses.</source>
        <translation>请检查主节点名称和哨兵地址。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::DurationField</name>
    <message>
        <source>e.g. 30m, 1h, 1d</source>
        <translation>例如 30m、1h、1d</translation>
    </message>
    <message>
        <source>Give a time between %1 and %2.</source>
        <translation>请给出介于 %1 和 %2 之间的时长。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ExportDialog</name>
    <message>
        <source>Rule file, JSON</source>
        <translation>规则文件，JSON</translation>
    </message>
    <message>
        <source>The rules as Sluice reads them back: every rule, nothing left out.</source>
        <translation>Sluice 可以再读回的规则：全部规则，一条不少。</translation>
    </message>
    <message>
        <source>Rule file, YAML</source>
        <translation>规则文件，YAML</translation>
    </message>
    <message>
        <source>The same rules in YAML: every rule, nothing left out.</source>
        <translation>同样的规则，YAML 格式：全部规则，一条不少。</translation>
    </message>
    <message>
        <source>nginx limit_req include</source>
        <translation>nginx limit_req 配置片段</translation>
    </message>
    <message>
        <source>limit_req zones for http {}: each nginx counts on its own, in memory.</source>
        <translation>用于 http {} 的 limit_req 区域：每个 nginx 在自己的内存中单独计数。</translation>
    </message>
    <message>
        <source>nginx in front of Sluice (auth_request)</source>
        <translation>nginx 经由 Sluice 检查（auth_request）</translation>
    </message>
    <message>
        <source>A server that asks the check service (sluice-cli serve) before it proxies: every nginx shares the state in Redis.</source>
        <translation>一个在转发前询问检查服务（sluice-cli serve）的 server：所有 nginx 共享 Redis 中的状态。</translation>
    </message>
    <message>
        <source>Envoy ratelimit service config</source>
        <translation>Envoy 限流服务配置</translation>
    </message>
    <message>
        <source>One domain with a descriptor per fixed-window rule.</source>
        <translation>一个 domain，每条固定窗口规则一个 descriptor。</translation>
    </message>
    <message>
        <source>Kong rate-limiting plugins</source>
        <translation>Kong rate-limiting 插件</translation>
    </message>
    <message>
        <source>Plugin configurations for the fixed windows Kong&apos;s periods can express.</source>
        <translation>Kong 的周期能表达的固定窗口规则的插件配置。</translation>
    </message>
    <message>
        <source>Export rules</source>
        <translation>导出规则</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>Where the check service (sluice-cli serve) listens</source>
        <translation>检查服务（sluice-cli serve）监听的地址</translation>
    </message>
    <message>
        <source>The application nginx fronts</source>
        <translation>nginx 前置的应用</translation>
    </message>
    <message>
        <source>Where nginx listens: a port or address:port</source>
        <translation>nginx 监听的地址：端口或 地址:端口</translation>
    </message>
    <message>
        <source>Check &amp;service:</source>
        <translation>检查服务(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Upstream:</source>
        <translation>上游(&amp;U)：</translation>
    </message>
    <message>
        <source>nginx &amp;listens on:</source>
        <translation>nginx 监听(&amp;L)：</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the text above to the clipboard</source>
        <translation>把上面的文本复制到剪贴板</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message numerus="yes">
        <source>%n rule(s) left out: this format cannot express them.</source>
        <translation>
            <numerusform>%n 条规则未导出：此格式无法表达它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>Save the export</source>
        <translation>保存导出结果</translation>
    </message>
    <message>
        <source>%1 (*.%2)</source>
        <translation>%1 (*.%2)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ForeignWatchModel</name>
    <message>
        <source>blocked</source>
        <translation>已封禁</translation>
    </message>
    <message>
        <source>over its limit</source>
        <translation>超出限额</translation>
    </message>
    <message>
        <source>no token left</source>
        <translation>令牌已用完</translation>
    </message>
    <message>
        <source>at its limit</source>
        <translation>达到限额</translation>
    </message>
    <message>
        <source>near its limit</source>
        <translation>接近限额</translation>
    </message>
    <message>
        <source>under</source>
        <translation>未达限额</translation>
    </message>
    <message>
        <source>for %1</source>
        <translation>还有 %1</translation>
    </message>
    <message>
        <source>no end</source>
        <translation>无结束时间</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个令牌</translation>
    </message>
    <message>
        <source>Key %1 (%2%3)
%4. Admitted and counted per second: the growth of its counter between the two samples; %5.</source>
        <translation>键 %1（%2%3）
%4。每秒放行数和计数：两次采样之间其计数器的增长；%5。</translation>
    </message>
    <message>
        <source>, adopted by rule %1</source>
        <translation>，由规则 %1 接管</translation>
    </message>
    <message>
        <source>the same window in both</source>
        <translation>两次采样属于同一窗口</translation>
    </message>
    <message>
        <source>the key appeared between them: all it counted</source>
        <translation>该键在两次采样之间出现：为其全部计数</translation>
    </message>
    <message>
        <source>the window restarted between them: at least these</source>
        <translation>窗口在两次采样之间重新开始：至少为此数</translation>
    </message>
    <message>
        <source>the key expired since</source>
        <translation>该键此后已过期</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>程度</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>Now / limit</source>
        <translation>当前 / 限额</translation>
    </message>
    <message>
        <source>Admitted/s</source>
        <translation>放行/秒</translation>
    </message>
    <message>
        <source>Counted/s</source>
        <translation>计数/秒</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ForeignWatchPanel</name>
    <message>
        <source>Other limiters</source>
        <translation>其他限流器</translation>
    </message>
    <message>
        <source>Limiters Sluice does not run (a Spring aspect, a Node middleware, a gateway), read from their keys alone, never written: the subjects at or near their limit, the busiest, and the requests their counters admitted between two samples. A counter&apos;s limit comes from an adopt block of the rules; Spring Cloud Gateway&apos;s tokens and block keys say theirs.</source>
        <translation>不由 Sluice 运行的限流器（Spring 切面、Node 中间件、网关），仅从其键读取，从不写入：达到或接近限额的主体、最繁忙的主体，以及两次采样之间其计数器放行的请求数。计数器的限额来自规则中的 adopt 块；Spring Cloud Gateway 的令牌键和封禁键自带限额。</translation>
    </message>
    <message>
        <source>No other limiter&apos;s keys whose limit is known. Give a counter its limit with an adopt block in the rules; Spring Cloud Gateway&apos;s tokens and block keys (@nestjs/throttler, Rack::Attack) say theirs.</source>
        <translation>没有已知限额的其他限流器键。可在规则中用 adopt 块为计数器指定限额；Spring Cloud Gateway 的令牌键和封禁键（@nestjs/throttler、Rack::Attack）自带限额。</translation>
    </message>
    <message>
        <source>waiting for two samples…</source>
        <translation>等待两次采样…</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Not updating: %1</source>
        <translation>未在更新：%1</translation>
    </message>
    <message>
        <source>sampled every %1 s</source>
        <translation>每 %1 秒采样一次</translation>
    </message>
    <message>
        <source>%1 · %2 limited, %3 near, of %4 keys · admitted %5/s</source>
        <translation>%1 · %4 个键中 %2 个被限流，%3 个接近限额 · 放行 %5/秒</translation>
    </message>
    <message>
        <source> · only the first %1 keys (the cap)</source>
        <translation> · 仅前 %1 个键（上限）</translation>
    </message>
</context>
<context>
    <name>sluice::ui::HealthBanner</name>
    <message>
        <source>Why?</source>
        <translation>为什么？</translation>
    </message>
    <message>
        <source>Show them</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show only the keys that are not ok</source>
        <translation>仅显示状态异常的键</translation>
    </message>
    <message>
        <source>Fix all from rules…</source>
        <translation>按限流规则全部修复…</translation>
    </message>
    <message>
        <source>Delete all flagged…</source>
        <translation>删除所有已标记的键…</translation>
    </message>
    <message>
        <source>Delete every key that never expires or lives longer than its rule needs; the next request of its subject starts afresh</source>
        <translation>删除所有永不过期或存活时间超过其限流规则所需的键；其主体的下一个请求将重新开始计数</translation>
    </message>
    <message>
        <source>1 key has a TTL longer than its rule can need.</source>
        <translation>1 个键的 TTL 超过其限流规则所需。</translation>
    </message>
    <message>
        <source>%1 keys have a TTL longer than their rule can need.</source>
        <translation>%1 个键的 TTL 超过其限流规则所需。</translation>
    </message>
    <message>
        <source>1 key is not its rule&apos;s state.</source>
        <translation>1 个键不是其限流规则的状态。</translation>
    </message>
    <message>
        <source>%1 keys are not their rule&apos;s state.</source>
        <translation>%1 个键不是其限流规则的状态。</translation>
    </message>
    <message>
        <source>1 key matches no rule.</source>
        <translation>1 个键不匹配任何限流规则。</translation>
    </message>
    <message>
        <source>%1 keys match no rule.</source>
        <translation>%1 个键不匹配任何限流规则。</translation>
    </message>
    <message>
        <source>No limiter keys found.</source>
        <translation>未找到限流键。</translation>
    </message>
    <message>
        <source>The limiter key is healthy.</source>
        <translation>该限流键状态正常。</translation>
    </message>
    <message>
        <source>All %1 limiter keys are healthy.</source>
        <translation>全部 %1 个限流键状态正常。</translation>
    </message>
    <message>
        <source>(scan in progress)</source>
        <translation>（正在扫描）</translation>
    </message>
    <message>
        <source>Set the TTL of every key that never expires or lives too long to the most its rule can need</source>
        <translation>将所有永不过期或存活过久的键的 TTL 设为其限流规则所需的最大值</translation>
    </message>
    <message>
        <source>Needs the rules (Rules page): the TTL is taken from each key&apos;s rule</source>
        <translation>需要限流规则（“限流规则”页面）：TTL 取自每个键的限流规则</translation>
    </message>
    <message>
        <source>1 key could not be read: the Redis user may not read it (NOPERM), so its health is unknown.</source>
        <translation>1 个键无法读取：该 Redis 用户无权读取它（NOPERM），因此其健康状况未知。</translation>
    </message>
    <message>
        <source>%1 keys could not be read: the Redis user may not read them (NOPERM), so their health is unknown.</source>
        <translation>%1 个键无法读取：该 Redis 用户无权读取它们（NOPERM），因此其健康状况未知。</translation>
    </message>
    <message>
        <source>Grant: %1</source>
        <translation>请授权：%1</translation>
    </message>
    <message>
        <source>1 key could not be read, so its health is unknown.</source>
        <translation>1 个键无法读取，因此其健康状况未知。</translation>
    </message>
    <message>
        <source>%1 keys could not be read, so their health is unknown.</source>
        <translation>%1 个键无法读取，因此其健康状况未知。</translation>
    </message>
    <message>
        <source>A limiter key must carry a TTL: the limit is &quot;N per window&quot;, and when the window is over Redis deletes the key. A key without TTL is never deleted, so once its counter reaches the limit its subject is refused until someone deletes the key: a limit turned into a permanent block. The usual cause is an INCR that arrived just after the key expired (it creates a new counter without TTL), or an EXPIRE sent in a separate round trip that never arrived (a crash, a reconnect). Sluice&apos;s scripts write the TTL in the same step as the counter, so these keys come from elsewhere. &quot;Fix all from rules&quot; sets each key&apos;s TTL to the most its rule can need, and only if it still has none (or a longer one) at that instant.</source>
        <translation>限流键必须带过期时间：限流是“每个时间窗口 N 次”，窗口结束时 Redis 删除该键。没有过期时间的键永远不会被删除，所以一旦计数达到限流次数，其主体就会一直被拒绝，直到有人删除该键：限流成绝流。常见原因是键刚过期后到达的 INCR（它会新建一个没有过期时间的计数器），或在另一次往返中发送、却从未到达的 EXPIRE（崩溃、重连）。Sluice 的脚本在写计数器的同一步写入过期时间，所以这些键来自别处。“按规则全部修复”会把每个键的过期时间设为其规则最多需要的值，且仅当它此刻仍没有过期时间（或过期时间更长）时才设置。</translation>
    </message>
    <message>
        <source>1 limiter key never expires: once it reaches the limit it blocks its subject until someone deletes it.</source>
        <translation>1 个限流键永不过期：一旦达到限流次数，它会一直阻断其主体，直到有人删除它。</translation>
    </message>
    <message>
        <source>%1 limiter keys never expire: once one reaches the limit it blocks its subject until someone deletes it.</source>
        <translation>%1 个限流键永不过期：其中任何一个达到限流次数后，都会一直阻断其主体，直到有人删除它。</translation>
    </message>
    <message>
        <source>Listing the keys…</source>
        <translation>正在列出键…</translation>
    </message>
    <message>
        <source>The keys have not been listed yet.</source>
        <translation>尚未列出键。</translation>
    </message>
    <message>
        <source>No problem among the %1 keys listed, but the scan stopped at the scan budget after %2 % of the keyspace: the rest is not checked. Scan again (F5) to read all of it.</source>
        <translation>已列出的 %1 个键中没有问题，但扫描在扫描了 %2 % 的键空间后因扫描预算而停止：其余部分未检查。重新扫描（F5）可读取全部。</translation>
    </message>
    <message>
        <source>No problem among the %1 keys listed, but the scan covered only %2 % of the keyspace: the rest is not checked. Scan again (F5) to read all of it.</source>
        <translation>已列出的 %1 个键中没有问题，但扫描只覆盖了 %2 % 的键空间：其余部分未检查。重新扫描（F5）可读取全部。</translation>
    </message>
    <message>
        <source>No limiter keys were found at %1.</source>
        <translation>%1 时未找到限流键。</translation>
    </message>
    <message>
        <source>The %1 limiter keys were healthy at %2.</source>
        <translation>%2 时这 %1 个限流键是健康的。</translation>
    </message>
    <message>
        <source>Only %1 % of the keyspace was scanned: the rest is not checked.</source>
        <translation>只扫描了 %1 % 的键空间：其余部分未检查。</translation>
    </message>
    <message>
        <source>1 limiter key never expires: its state records its own time, so its limit still resets, and its subject&apos;s next admitted request sets a TTL again.</source>
        <translation>1 个限流键永不过期：它的状态记录了自己的时间，所以限额仍会重置，该主体下一次被放行的请求会重新设置 TTL。</translation>
    </message>
    <message>
        <source>%1 limiter keys never expire: their state records its own time, so their limits still reset, and each subject&apos;s next admitted request sets a TTL again.</source>
        <translation>%1 个限流键永不过期：它们的状态记录了自己的时间，所以限额仍会重置，每个主体下一次被放行的请求会重新设置 TTL。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::HistoryDialog</name>
    <message>
        <source>added %1</source>
        <translation>新增 %1</translation>
    </message>
    <message>
        <source>changed %1</source>
        <translation>修改 %1</translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>没有变化</translation>
    </message>
    <message>
        <source>Rule history</source>
        <translation>规则历史</translation>
    </message>
    <message>
        <source>Reading the history from Redis…</source>
        <translation>正在从 Redis 读取历史…</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation>时间 (UTC)</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Select a version to see what a rollback to it changes.</source>
        <translation>选择一个版本，查看回滚到它会改变什么。</translation>
    </message>
    <message>
        <source>What a rollback changes</source>
        <translation>回滚会改变什么</translation>
    </message>
    <message>
        <source>&amp;Roll back…</source>
        <translation>回滚(&amp;R)…</translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation>无法读取历史：%1</translation>
    </message>
    <message>
        <source>No rules were ever pushed to this Redis.</source>
        <translation>从未向此 Redis 推送过规则。</translation>
    </message>
    <message numerus="yes">
        <source>Rules in Redis: version %1 · %n change(s) kept</source>
        <translation>
            <numerusform>Redis 中的规则：版本 %1 · 保留 %n 次变更</numerusform>
        </translation>
    </message>
    <message>
        <source> · can roll back to v%1 … v%2</source>
        <translation> · 可回滚到 v%1 … v%2</translation>
    </message>
    <message>
        <source> · can roll back to v%1</source>
        <translation> · 可回滚到 v%1</translation>
    </message>
    <message>
        <source> · no earlier version can be rebuilt</source>
        <translation> · 没有可重建的更早版本</translation>
    </message>
    <message>
        <source> (stored)</source>
        <translation>（当前存储）</translation>
    </message>
    <message>
        <source>rollback to v%1: %2</source>
        <translation>回滚到 v%1：%2</translation>
    </message>
    <message>
        <source> (forced)</source>
        <translation>（强制）</translation>
    </message>
    <message>
        <source>This version cannot be rebuilt: a later change kept no record of what it replaced</source>
        <translation>此版本无法重建：之后的某次变更没有保留它所替换内容的记录</translation>
    </message>
    <message>
        <source>(before the oldest change kept)</source>
        <translation>（保留的最早变更之前）</translation>
    </message>
    <message>
        <source>v%1 is the stored version: a rollback to it changes nothing.</source>
        <translation>v%1 就是当前存储的版本：回滚到它不会改变任何内容。</translation>
    </message>
    <message>
        <source>v%1 cannot be rebuilt from the kept history.</source>
        <translation>无法从保留的历史重建 v%1。</translation>
    </message>
    <message>
        <source>Reading v%1…</source>
        <translation>正在读取 v%1…</translation>
    </message>
    <message>
        <source>v%1 has the same rules as the stored version.</source>
        <translation>v%1 的规则与当前存储的版本相同。</translation>
    </message>
    <message>
        <source>A rollback to v%1 would change, in Redis:</source>
        <translation>回滚到 v%1 将在 Redis 中改变：</translation>
    </message>
    <message>
        <source>&amp;Roll back to v%1…</source>
        <translation>回滚到 v%1(&amp;R)…</translation>
    </message>
    <message>
        <source>Store the rules of version %1 as version %2? Every service that follows the rule store serves them at once. The history keeps every version, so this can be undone the same way.</source>
        <translation>将版本 %1 的规则存储为版本 %2？所有跟随规则存储的服务会立即使用它们。历史保留每个版本，因此可以用同样的方式撤销。</translation>
    </message>
    <message>
        <source>Roll back the rules</source>
        <translation>回滚规则</translation>
    </message>
    <message>
        <source>Roll back to v%1</source>
        <translation>回滚到 v%1</translation>
    </message>
    <message>
        <source>staged in shadow: %1</source>
        <translation>已暂存，影子模式运行：%1</translation>
    </message>
    <message>
        <source>promoted the stage of v%1: %2</source>
        <translation>已启用 v%1 暂存的变更：%2</translation>
    </message>
    <message>
        <source>discarded the stage of v%1</source>
        <translation>已丢弃 v%1 暂存的变更</translation>
    </message>
    <message>
        <source>%1; discarded the stage of v%2</source>
        <translation>%1；已丢弃 v%2 暂存的变更</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeyDetails</name>
    <message>
        <source>never expires (no TTL)</source>
        <translation>永不过期（无 TTL）</translation>
    </message>
    <message>
        <source>gone: deleted or expired since it was listed</source>
        <translation>已消失：列出后已被删除或已过期</translation>
    </message>
    <message>
        <source>unknown (the read failed)</source>
        <translation>未知（读取失败）</translation>
    </message>
    <message>
        <source>%1 when read (%2 ms)</source>
        <translation>读取时为 %1（%2 ms）</translation>
    </message>
    <message>
        <source>Select a key to see its value, its decoded state, its rule and what its health means.</source>
        <translation>选择一个键，查看其值、解码后的状态、限流规则及其健康状况的含义。</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>TTL:</source>
        <translation>TTL：</translation>
    </message>
    <message>
        <source>Rule:</source>
        <translation>规则：</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>主体：</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <source>Health:</source>
        <translation>健康状况：</translation>
    </message>
    <message>
        <source>Why it is flagged</source>
        <translation>标记原因</translation>
    </message>
    <message>
        <source>Raw value</source>
        <translation>原始值</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>its state needs a TTL of %1 at most</source>
        <translation>其状态最多需要 %1 的 TTL</translation>
    </message>
    <message>
        <source>none: no rule produces this key</source>
        <translation>无：没有限流规则会生成此键</translation>
    </message>
    <message>
        <source>none (no rules loaded: open the Rules page to judge keys by their rule)</source>
        <translation>无（未加载限流规则：打开“限流规则”页面，按限流规则判断键）</translation>
    </message>
    <message>
        <source>not decoded (no rule)</source>
        <translation>未解码（无限流规则）</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <source>Could not read the value: %1</source>
        <translation>无法读取值：%1</translation>
    </message>
    <message>
        <source>(the key is gone)</source>
        <translation>（该键已消失）</translation>
    </message>
    <message>
        <source>string, 1 byte</source>
        <translation>字符串，1 字节</translation>
    </message>
    <message>
        <source>string, %1 bytes</source>
        <translation>字符串，%1 字节</translation>
    </message>
    <message>
        <source>… (the first %1 bytes)</source>
        <translation>…（前 %1 字节）</translation>
    </message>
    <message>
        <source>%1: no raw view for this type</source>
        <translation>%1：此类型没有原始视图</translation>
    </message>
    <message>
        <source>%1, 1 entry</source>
        <translation>%1，1 个条目</translation>
    </message>
    <message>
        <source>%1, %2 entries</source>
        <translation>%1，%2 个条目</translation>
    </message>
    <message>
        <source>… (%1 of %2 shown)</source>
        <translation>…（显示 %2 个中的 %1 个）</translation>
    </message>
    <message>
        <source>How much of its limit the key used, read once a second while it is selected; the dotted line is the limit</source>
        <translation>选中期间每秒读取一次：该键已用掉多少限流次数；虚线为上限</translation>
    </message>
    <message>
        <source>Last minute:</source>
        <translation>最近一分钟：</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 used now; %n reading(s) since selected</source>
        <translation>
            <numerusform>当前已用 %1 / %2；选中以来读取 %n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>no history: the key has no limiter state</source>
        <translation>无历史：该键没有限流状态</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeyScope</name>
    <message>
        <source>Decide on the rules&apos; real keys</source>
        <translation>使用限流规则的真实键</translation>
    </message>
    <message>
        <source>Off: the run counts under keys of its own, removed at the end. On: it counts against the quotas of real subjects.</source>
        <translation>关闭：压测在自己的键下计数，结束后删除。开启：计入真实主体的配额。</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>压测</translation>
    </message>
    <message>
        <source>Run the load on the rules&apos; real keys? Its requests count against the same quotas as real traffic, and the keys are not removed afterwards.</source>
        <translation>在限流规则的真实键上运行压测？其请求与真实流量计入同一配额，且之后不会删除这些键。</translation>
    </message>
    <message>
        <source>Use the real keys</source>
        <translation>使用真实键</translation>
    </message>
    <message>
        <source>⚠ The run uses the rules&apos; own key prefixes: subjects 10.0.0.1, … count against the same keys as real traffic. The Monitor&apos;s Limited right now and the Keys page show them.</source>
        <translation>⚠ 本次运行使用限流规则自己的键前缀：主体 10.0.0.1、… 与真实流量计入同一批键。“监控”页面的“当前被限流”和“键”页面会显示它们。</translation>
    </message>
    <message>
        <source>On the sandbox no confirmation is asked.</source>
        <translation>在沙盒上无需确认。</translation>
    </message>
    <message>
        <source>The run uses keys of its own (sluice:load:&lt;run&gt;:…), removed when it ends: real subjects&apos; quotas are untouched. The Monitor charts the run, but its Limited right now and the Keys page do not read these keys: tick the box to watch the subjects it limits there.</source>
        <translation>本次运行使用自己的键（sluice:load:&lt;run&gt;:…），结束时删除：真实主体的限额不受影响。“监控”页面的图表会显示这次运行，但其“当前被限流”和“键”页面不读取这些键：勾选此项即可在那里查看被它限流的主体。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysModel</name>
    <message>
        <source>no permission to read (NOPERM)</source>
        <translation>无权读取（NOPERM）</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>健康状况</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>∞ never</source>
        <translation>∞ 永不过期</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>%1 (override)</source>
        <extracomment>A key written under a per-subject override limit of the rule</extracomment>
        <translation>%1（单独覆盖）</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysPage</name>
    <message>
        <source>Audit the whole keyspace</source>
        <translation>审计整个键空间</translation>
    </message>
    <message>
        <source>Find the limiter keys other libraries wrote, in the whole database, and repair the ones that never expire</source>
        <translation>在整个数据库中查找其他库写入的限流键，并修复永不过期的键</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 h</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>never expires</source>
        <translation>永不过期</translation>
    </message>
    <message>
        <source>TTL too long</source>
        <translation>TTL 过长</translation>
    </message>
    <message>
        <source>no rule</source>
        <translation>无规则</translation>
    </message>
    <message>
        <source>wrong type</source>
        <translation>类型错误</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Set TTL from rule…</source>
        <translation>按规则设置 TTL…</translation>
    </message>
    <message>
        <source>Give the selected keys that never expire (or live too long) the TTL their rule needs</source>
        <translation>为所选的永不过期（或存活过久）的键设置其限流规则所需的 TTL</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Delete the selected keys from Redis</source>
        <translation>从 Redis 中删除所选键</translation>
    </message>
    <message>
        <source>Scan again</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <source>List the keys again (F5)</source>
        <translation>重新列出键（F5）</translation>
    </message>
    <message>
        <source>The limiter keys of the connected Redis: each key&apos;s rule, subject, state and TTL, and the keys that will never expire. Nothing is written unless you fix or delete.</source>
        <translation>已连接 Redis 中的限流键：每个键的限流规则、主体、状态和 TTL，以及永不过期的键。除非你进行修复或删除，否则不会写入任何内容。</translation>
    </message>
    <message>
        <source>&amp;Match:</source>
        <translation>匹配(&amp;M)：</translation>
    </message>
    <message>
        <source>SCAN MATCH glob(s), separated by spaces; empty: the key prefixes of the rules. Press Enter to scan.</source>
        <translation>SCAN MATCH 通配模式，多个用空格分隔；留空则使用限流规则的键前缀。按 Enter 开始扫描。</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>筛选(&amp;F)：</translation>
    </message>
    <message>
        <source>key, rule or subject contains…</source>
        <translation>键、规则或主体包含…</translation>
    </message>
    <message>
        <source>Only &amp;flagged</source>
        <translation>仅已标记(&amp;F)</translation>
    </message>
    <message>
        <source>Only keys that never expire, live too long, match no rule or are not their rule&apos;s state</source>
        <translation>仅显示永不过期、存活过久、不匹配任何限流规则或不是其限流规则状态的键</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>scanning…</source>
        <translation>正在扫描…</translation>
    </message>
    <message>
        <source>%1% of the keyspace</source>
        <translation>已扫描键空间的 %1%</translation>
    </message>
    <message>
        <source>fixing…</source>
        <translation>正在修复…</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>Scan &amp;replicas instead (spares the masters)</source>
        <translation>改为扫描副本（减轻主节点负担）(&amp;R)</translation>
    </message>
    <message>
        <source>Read one replica of each shard (READONLY) instead of its master; a shard without a replica online is read on its master. Fixes always go to the masters.</source>
        <translation>每个分片读取一个副本（READONLY）而不是主节点；没有在线副本的分片读取其主节点。修复总是发往主节点。</translation>
    </message>
    <message>
        <source>&amp;Tree</source>
        <translation>树状视图(&amp;T)</translation>
    </message>
    <message>
        <source>Group the keys by rule or by key prefix (the parts between &apos;:&apos;), with the keys and the flagged keys under each node</source>
        <translation>按限流规则或键前缀（以“:”分隔的部分）对键分组，每个节点显示其下的键数和已标记的键数</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>last %1</source>
        <translation>上次：%1</translation>
    </message>
    <message>
        <source>%1 of %2 keys shown</source>
        <translation>显示 %2 个键中的 %1 个</translation>
    </message>
    <message>
        <source>rescans every %1 s</source>
        <translation>每 %1 秒重新扫描</translation>
    </message>
    <message>
        <source>automatic rescans off (F5 scans again)</source>
        <translation>自动重新扫描已关闭（F5 重新扫描）</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysScanState</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>first scan running…</source>
        <translation>首次扫描进行中…</translation>
    </message>
    <message>
        <source>not scanned yet</source>
        <translation>尚未扫描</translation>
    </message>
    <message>
        <source>scanned %1, %2, 1 key</source>
        <translation>已扫描 %1，用时 %2，1 个键</translation>
    </message>
    <message>
        <source>scanned %1, %2, %3 keys</source>
        <translation>已扫描 %1，用时 %2，%3 个键</translation>
    </message>
    <message>
        <source>, %1 % of the keyspace</source>
        <translation>，键空间的 %1 %</translation>
    </message>
    <message>
        <source> · stale</source>
        <translation> · 过时</translation>
    </message>
    <message>
        <source>Redis does not answer (%1): no scan has finished yet.</source>
        <translation>Redis 没有响应（%1）：尚无扫描完成。</translation>
    </message>
    <message>
        <source>Stale: the last scan finished at %1, more than two rescan intervals ago.</source>
        <translation>过时：上次扫描于 %1 完成，已超过两个重新扫描间隔。</translation>
    </message>
    <message>
        <source>Stale: the last scan finished at %1, and automatic rescans are off for this connection (F5 scans again).</source>
        <translation>过时：上次扫描于 %1 完成，且此连接的自动重新扫描已关闭（F5 重新扫描）。</translation>
    </message>
    <message>
        <source>As of %1; the next scan is due.</source>
        <translation>截至 %1；下一次扫描即将进行。</translation>
    </message>
    <message>
        <source>As of %1; automatic rescans are off (F5 scans again).</source>
        <translation>截至 %1；自动重新扫描已关闭（F5 重新扫描）。</translation>
    </message>
    <message>
        <source>Keys: Redis does not answer</source>
        <translation>键：Redis 没有响应</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) never expire</source>
        <translation>
            <numerusform>%n 个键永不过期</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n flagged key(s)</source>
        <translation>
            <numerusform>%n 个已标记的键</numerusform>
        </translation>
    </message>
    <message>
        <source>Keys: stale since %1</source>
        <translation>键：自 %1 起过时</translation>
    </message>
    <message>
        <source>Keys: partial scan (%1 %)</source>
        <translation>键：部分扫描（%1 %）</translation>
    </message>
    <message>
        <source>(as of %1)</source>
        <translation>（截至 %1）</translation>
    </message>
    <message>
        <source>Keys  %1</source>
        <translation>键  %1</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message numerus="yes">
        <source>%n flagged key(s), %1 never expire</source>
        <translation>
            <numerusform>%n 个已标记的键，其中 %1 个永不过期</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Not current: Redis stopped answering at %1. The rows are those of the last good scan, at %2; nothing is known since.</source>
        <translation>非当前结果：Redis 于 %1 停止响应。下列各行来自 %2 最后一次成功的扫描；此后的情况未知。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysSession</name>
    <message>
        <source>1 key</source>
        <translation>1 个键</translation>
    </message>
    <message>
        <source>%1 keys</source>
        <translation>%1 个键</translation>
    </message>
    <message>
        <source>Not connected: choose a Redis on the Connection page.</source>
        <translation>未连接：请在“连接”页面选择一个 Redis。</translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation>目前 %1</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 · scanned in %2</source>
        <translation>%1 · 扫描用时 %2</translation>
    </message>
    <message>
        <source>%1 · scan cancelled</source>
        <translation>%1 · 扫描已取消</translation>
    </message>
    <message>
        <source>%1 · scan stopped</source>
        <translation>%1 · 扫描已停止</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>Redis restarted during the scan, so the scan stopped after %1: the keyspace it was walking is gone. The keys listed are kept; their rows update as they are read again. Scan again (F5) for the keys Redis holds now.</source>
        <translation>扫描期间 Redis 重启了，因此扫描在 %1 后停止：它正在遍历的键空间已不存在。已列出的键会保留；再次读取时其行会更新。重新扫描（F5）可获取 Redis 当前保存的键。</translation>
    </message>
    <message>
        <source>The scan stopped: %1</source>
        <translation>扫描已停止：%1</translation>
    </message>
    <message>
        <source>Could not list the keys: %1. Trying again when Redis answers.</source>
        <translation>无法列出键：%1。Redis 响应后将重试。</translation>
    </message>
    <message>
        <source>Connection to Redis lost (%1). The table shows the keys as last read; it updates again by itself when Redis answers.</source>
        <translation>与 Redis 的连接已断开（%1）。表中显示的是最后一次读取的键；Redis 响应后会自动更新。</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无响应</translation>
    </message>
    <message>
        <source>the selected key</source>
        <translation>所选键</translation>
    </message>
    <message>
        <source>the %1 selected keys</source>
        <translation>所选的 %1 个键</translation>
    </message>
    <message>
        <source>Delete %1 from Redis? Their subjects start afresh on their next request. This cannot be undone.</source>
        <translation>要从 Redis 中删除%1吗？其主体的下一个请求将重新开始计数。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>The selected key needs no TTL from its rule: it is not flagged as never expiring or living too long.</source>
        <translation>所选键不需要按其限流规则设置 TTL：它未被标记为永不过期或存活过久。</translation>
    </message>
    <message>
        <source>None of the %1 selected keys needs a TTL from its rule: none is flagged as never expiring or living too long.</source>
        <translation>所选的 %1 个键都不需要按其限流规则设置 TTL：没有一个被标记为永不过期或存活过久。</translation>
    </message>
    <message>
        <source>Set the TTL from their rule on %1?</source>
        <translation>要按限流规则为%1设置 TTL 吗？</translation>
    </message>
    <message>
        <source>Set the TTL from their rule on %1 of the %2 selected keys (those that never expire or live too long)? The others are left as they are.</source>
        <translation>要按限流规则为所选 %2 个键中的 %1 个（永不过期或存活过久的键）设置 TTL 吗？其他键保持不变。</translation>
    </message>
    <message>
        <source>A key that got a TTL within its rule meanwhile is left alone.</source>
        <translation>如果某个键在此期间已获得其限流规则范围内的 TTL，则不作改动。</translation>
    </message>
    <message>
        <source>Set TTL</source>
        <translation>设置 TTL</translation>
    </message>
    <message>
        <source>the 1 key that never expires or lives too long</source>
        <translation>1 个永不过期或存活过久的键</translation>
    </message>
    <message>
        <source>the %1 keys that never expire or live too long</source>
        <translation>%1 个永不过期或存活过久的键</translation>
    </message>
    <message>
        <source>Delete all</source>
        <translation>全部删除</translation>
    </message>
    <message>
        <source>Fix all</source>
        <translation>全部修复</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Deleted %1.</source>
        <translation>已删除%1。</translation>
    </message>
    <message>
        <source>TTL set on %1.</source>
        <translation>已为%1设置 TTL。</translation>
    </message>
    <message>
        <source>%1 already had a TTL within their rule (left alone).</source>
        <translation>%1已有其限流规则范围内的 TTL（未作改动）。</translation>
    </message>
    <message>
        <source>%1 had gone meanwhile.</source>
        <translation>%1在此期间已消失。</translation>
    </message>
    <message>
        <source>%1 skipped (no rule to take a TTL from, or not the rule&apos;s state).</source>
        <translation>已跳过%1（没有可获取 TTL 的限流规则，或不是该规则的状态）。</translation>
    </message>
    <message>
        <source>%1 failed: %2.</source>
        <translation>%1失败：%2。</translation>
    </message>
    <message>
        <source>Stopped: %1. The changes made before it stand.</source>
        <translation>已停止：%1。此前所做的更改仍然有效。</translation>
    </message>
    <message>
        <source>One of them matches no rule&apos;s prefix: it may not be a limiter key at all.</source>
        <translation>其中 1 个键不匹配任何限流规则的前缀：它可能根本不是限流键。</translation>
    </message>
    <message>
        <source>%1 of them match no rule&apos;s prefix: they may not be limiter keys at all.</source>
        <translation>其中 %1 个键不匹配任何限流规则的前缀：它们可能根本不是限流键。</translation>
    </message>
    <message>
        <source>Type %1 to delete them.</source>
        <translation>输入 %1 以确认删除。</translation>
    </message>
    <message>
        <source>%1 (replica of %2)</source>
        <translation>%1（%2 的副本）</translation>
    </message>
    <message>
        <source>%1 (master: no replica online)</source>
        <translation>%1（主节点：没有在线副本）</translation>
    </message>
    <message>
        <source>%1: waiting</source>
        <translation>%1：等待中</translation>
    </message>
    <message>
        <source>%1: %2, %3%</source>
        <translation>%1：%2，%3%</translation>
    </message>
    <message>
        <source>%1: %2, done</source>
        <translation>%1：%2，完成</translation>
    </message>
    <message>
        <source>%1: %2, cancelled</source>
        <translation>%1：%2，已取消</translation>
    </message>
    <message>
        <source>%1: failed: %2</source>
        <translation>%1：失败：%2</translation>
    </message>
    <message numerus="yes">
        <source>Redis Cluster, %n shard(s), read from replicas (the masters are spared; a replica may lag its master by a moment):</source>
        <translation>
            <numerusform>Redis Cluster，%n 个分片，从副本读取（不打扰主节点；副本可能稍稍落后于主节点）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Redis Cluster, %n shard(s), read from their masters:</source>
        <translation>
            <numerusform>Redis Cluster，%n 个分片，从各自的主节点读取：</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · stopped at the scan budget</source>
        <translation>%1 · 因扫描预算而停止</translation>
    </message>
    <message>
        <source>Sluice goes through every key under your rules&apos; prefixes again</source>
        <translation>Sluice 会重新遍历您的规则前缀下的每个键</translation>
    </message>
    <message>
        <source>Sluice goes through every key the Match field selects again</source>
        <translation>Sluice 会重新遍历“匹配”字段选中的每个键</translation>
    </message>
    <message>
        <source>Delete %1? %2 and deletes each key that is still flagged at that instant. This cannot be undone.</source>
        <translation>删除%1？%2，并删除在那一刻仍被标记的每个键。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Set the TTL from their rule on %1? %2 and fixes each key that is still flagged at that instant; a key that got a TTL meanwhile is left alone.</source>
        <translation>按规则为%1设置过期时间？%2，并修复在那一刻仍被标记的每个键；在此期间已获得过期时间的键保持不变。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::KeysTree</name>
    <message numerus="yes">
        <source>… %n more (filter the table to see them)</source>
        <translation>
            <numerusform>… 另有 %n 个（筛选表格以查看）</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Group by:</source>
        <translation>分组方式(&amp;G)：</translation>
    </message>
    <message>
        <source>key prefix (:)</source>
        <translation>键前缀（:）</translation>
    </message>
    <message>
        <source>rule</source>
        <translation>限流规则</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation>已标记</translation>
    </message>
    <message>
        <source>The tree groups up to %1 keys; %2 are listed. Narrow the Match field, or use the table.</source>
        <translation>树状视图最多分组 %1 个键；当前列出了 %2 个。请缩小“匹配”字段的范围，或使用表格。</translation>
    </message>
    <message>
        <source>(no rule)</source>
        <translation>（无规则）</translation>
    </message>
    <message>
        <source>No keys listed.</source>
        <translation>未列出任何键。</translation>
    </message>
    <message>
        <source>%1 keys, %2 flagged, from the last scan</source>
        <translation>%1 个键，%2 个已标记，来自上次扫描</translation>
    </message>
</context>
<context>
    <name>sluice::ui::LimitedModel</name>
    <message>
        <source>never (cost above the limit)</source>
        <translation>永不（消耗超过限流次数）</translation>
    </message>
    <message>
        <source>Key %1
%2</source>
        <translation>键 %1
%2</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Key %1
%2
This key of another limiter (rule %3 adopts it as %4) never expires: nothing will ever reset it, and once at its limit it denies forever. Fix it on the Keys page (a TTL of its window), or Unblock.</source>
        <translation>键 %1
%2
这个键属于另一个限流器（规则 %3 将其作为 %4 接管），永不过期：没有任何东西会重置它，一旦达到上限就会永久拒绝。请在“键”页面修复（设置为其窗口长度的 TTL），或解除限制。</translation>
    </message>
    <message>
        <source>%1 (adopted)</source>
        <translation>%1（接管的）</translation>
    </message>
    <message>
        <source>⚠ never (no TTL)</source>
        <translation>⚠ 永不（无 TTL）</translation>
    </message>
    <message>
        <source>⚠ no TTL, admits</source>
        <translation>⚠ 无 TTL，仍放行</translation>
    </message>
    <message>
        <source>Key %1
%2
A key of another limiter: rule %3 adopts it as %4.</source>
        <translation>键 %1
%2
另一个限流器的键：规则 %3 将其作为 %4 接管。</translation>
    </message>
    <message>
        <source>stored in Redis</source>
        <translation>存于 Redis</translation>
    </message>
    <message>
        <source>in the rule file</source>
        <translation>在规则文件中</translation>
    </message>
    <message>
        <source>Key %1
%2
An override of rule %3 (%4, %5) decides for this subject: %6.</source>
        <translation>键 %1
%2
限流规则 %3 的一条例外规则（%4，%5）决定此主体：%6。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>allowed (no end)</source>
        <translation>已放行（无截止）</translation>
    </message>
    <message>
        <source>allowed until %1</source>
        <translation>放行至 %1</translation>
    </message>
    <message>
        <source>blocked (no end)</source>
        <translation>已封禁（无截止）</translation>
    </message>
    <message>
        <source>blocked until %1</source>
        <translation>封禁至 %1</translation>
    </message>
    <message>
        <source>own limit: %1</source>
        <translation>独立限额：%1</translation>
    </message>
</context>
<context>
    <name>sluice::ui::LoadPage</name>
    <message>
        <source>Load generator</source>
        <translation>负载生成器</translation>
    </message>
    <message>
        <source>Send real decisions to the connected Redis, following a traffic pattern of the simulation lab, from several threads over many subjects. Every decision is recorded: watch it on the Monitor page.</source>
        <translation>按照仿真实验室中的某种流量模式，从多个线程、针对大量主体向已连接的 Redis 发送真实的限流判定。每次判定都会被记录：可在“监控”页面查看。</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>限流规则</translation>
    </message>
    <message>
        <source>Every request is decided by each rule ticked here</source>
        <translation>每个请求都由此处勾选的每条限流规则进行判定</translation>
    </message>
    <message>
        <source>Traffic</source>
        <translation>流量</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>decisions sent</source>
        <translation>已发送判定</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>放行</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>decisions / s</source>
        <translation>判定数/s</translation>
    </message>
    <message>
        <source>Decisions per second</source>
        <translation>每秒判定数</translation>
    </message>
    <message>
        <source>seconds since the start</source>
        <translation>自开始以来的秒数</translation>
    </message>
    <message>
        <source>Per rule</source>
        <translation>按规则</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>放行</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Shadow-denied</source>
        <translation>影子模式拒绝</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>e.g. 10s, 2m</source>
        <translation>例如 10s、2m</translation>
    </message>
    <message>
        <source>How long the run lasts</source>
        <translation>本次运行持续多长时间</translation>
    </message>
    <message>
        <source>Threads sending, each with its own connection</source>
        <translation>发送请求的线程数，每个线程使用独立的连接</translation>
    </message>
    <message>
        <source>Clients, named like addresses: 10.0.0.1, 10.0.0.2, ... Each request picks one at random</source>
        <translation>模拟的客户端，以地址命名：10.0.0.1、10.0.0.2……每个请求随机选取其中一个</translation>
    </message>
    <message>
        <source>The same seed draws the same subjects and Poisson gaps</source>
        <translation>相同的种子会抽取相同的主体和泊松间隔</translation>
    </message>
    <message>
        <source>S&amp;ubjects:</source>
        <translation>主体数(&amp;U)：</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>种子(&amp;E)：</translation>
    </message>
    <message>
        <source>%1 — %2%3</source>
        <translation>%1 — %2%3</translation>
    </message>
    <message>
        <source> (shadow)</source>
        <translation>（影子模式）</translation>
    </message>
    <message>
        <source>Disabled: the engine does not apply it; tick it to load it anyway</source>
        <translation>已禁用：引擎不会应用此规则；勾选后仍会加载它</translation>
    </message>
    <message>
        <source>%1 enforced, %2 by shadow rules (let through)</source>
        <translation>%1 次为实际拒绝，%2 次来自影子模式规则（已放行）</translation>
    </message>
    <message>
        <source>%1 s of %2 s</source>
        <translation>%1 s / %2 s</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>&amp;Duration</source>
        <translation>时长(&amp;D)</translation>
    </message>
    <message>
        <source>T&amp;hreads</source>
        <translation>线程数(&amp;H)</translation>
    </message>
</context>
<context>
    <name>sluice::ui::LoadSession</name>
    <message>
        <source>No rules yet: load or pull a rule set on the Rules page.</source>
        <translation>还没有限流规则：请在“限流规则”页面加载或拉取规则集。</translation>
    </message>
    <message>
        <source>Tick at least one rule.</source>
        <translation>请至少勾选一条规则。</translation>
    </message>
    <message>
        <source>Not connected: choose a server on the Connection page.</source>
        <translation>未连接：请在“连接”页面选择服务器。</translation>
    </message>
    <message>
        <source>About %1 requests</source>
        <translation>约 %1 个请求</translation>
    </message>
    <message>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <source>one subject</source>
        <translation>一个主体</translation>
    </message>
    <message>
        <source>%1 subjects</source>
        <translation>%1 个主体</translation>
    </message>
    <message>
        <source>%1 over %2 from %3, each decided by one rule.</source>
        <translation>%1，历时 %2，来自 %3，每个请求由一条规则判定。</translation>
    </message>
    <message>
        <source>%1 over %2 from %3, each decided by %4 rules: %5 decisions.</source>
        <translation>%1，历时 %2，来自 %3，每个请求由 %4 条规则判定：共 %5 次判定。</translation>
    </message>
    <message>
        <source>&lt;b&gt;✗ Cannot start:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;✗ 无法开始：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;✗ The run failed:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;✗ 运行失败：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stopped&lt;/b&gt; after %1 s: %2 decisions, %3 allowed, %4 denied.</source>
        <translation>&lt;b&gt;已停止&lt;/b&gt;，运行了 %1 s：%2 次判定，%3 次放行，%4 次拒绝。</translation>
    </message>
    <message>
        <source>&lt;b&gt;⚠ Finished with %1 errors:&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;⚠ 已完成，但有 %1 个错误：&lt;/b&gt;%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;✓ Finished:&lt;/b&gt; %1 decisions in %2 s, %3 allowed, %4 denied.</source>
        <translation>&lt;b&gt;✓ 已完成：&lt;/b&gt;%2 s 内完成 %1 次判定，%3 次放行，%4 次拒绝。</translation>
    </message>
    <message>
        <source>The Monitor page shows them.</source>
        <translation>可在“监控”页面查看。</translation>
    </message>
    <message>
        <source>The run&apos;s keys stay until their TTL: %1.</source>
        <translation>本次运行的键将保留到其 TTL 到期：%1。</translation>
    </message>
    <message numerus="yes">
        <source>%n of them the staged change&apos;s candidates, deciding in shadow beside the rules they would replace (their charts on the Monitor).</source>
        <translation>
            <numerusform>其中 %n 条是暂存变更的候选规则，在它们将替换的规则旁以影子模式判定（图表见监控页）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sluice::ui::MainWindow</name>
    <message>
        <source>Sluice: rate limits on Redis</source>
        <translation>Sluice：基于 Redis 的限流</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>限流规则</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Simulation</source>
        <translation>仿真</translation>
    </message>
    <message>
        <source>Monitor</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>压测</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Import rules…</source>
        <translation>导入规则(&amp;I)…</translation>
    </message>
    <message>
        <source>Read rules from a JSON or YAML file into the Rules page</source>
        <translation>从 JSON 或 YAML 文件读取规则到“限流规则”页面</translation>
    </message>
    <message>
        <source>&amp;Export rules…</source>
        <translation>导出规则(&amp;E)…</translation>
    </message>
    <message>
        <source>Export the rules (JSON, YAML, nginx, Envoy, Kong); on the Simulation page, export the figure</source>
        <translation>导出规则（JSON、YAML、nginx、Envoy、Kong）；在“仿真”页面则导出图表</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Filter</source>
        <translation>筛选(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Scan the keys again, read the monitor now; a lost connection is retried at once</source>
        <translation>重新扫描键，立即读取监控数据；连接断开时立即重试</translation>
    </message>
    <message>
        <source>&amp;Run simulation</source>
        <translation>运行仿真(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Full screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Sluice</source>
        <translation>关于 Sluice(&amp;A)</translation>
    </message>
    <message>
        <source>About Sluice</source>
        <translation>关于 Sluice</translation>
    </message>
    <message>
        <source>Version unknown</source>
        <translation>版本未知</translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sluice&lt;/b&gt;&lt;p&gt;A console for rate limits kept in Redis: rules, live keys, simulations, live traffic and load.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Sluice&lt;/b&gt;&lt;p&gt;管理 Redis 中限流的控制台：限流规则、实时键、仿真、实时流量与压测。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 (%2) - Sluice</source>
        <translation>%1（%2）- Sluice</translation>
    </message>
    <message>
        <source>Off: the profile &apos;%1&apos; is read-only, so Sluice sends this server nothing that writes. Turn it off on the Connection page to change data.</source>
        <translation>已关闭：连接配置“%1”为只读，Sluice 不会向该服务器发送任何写入命令。如需修改数据，请在“连接”页面关闭只读。</translation>
    </message>
    <message>
        <source>The Load page&apos;s decisions are made, but their statistics are not written to Redis, so the Monitor page does not see them. Redis said: %1</source>
        <translation>“负载”页面的判定照常进行，但其统计未写入 Redis，因此“监控”页面看不到它们。Redis 的回复：%1</translation>
    </message>
    <message>
        <source>The settings were not used.</source>
        <translation>未使用设置。</translation>
    </message>
    <message>
        <source>Recent &amp;files</source>
        <translation>最近的文件(&amp;F)</translation>
    </message>
    <message>
        <source>Co&amp;nnect to</source>
        <translation>连接到(&amp;N)</translation>
    </message>
    <message>
        <source>%1 could not be read, so Sluice starts with its defaults. The file was kept as %2.</source>
        <translation>无法读取 %1，Sluice 使用默认设置启动。原文件已保留为 %2。</translation>
    </message>
    <message>
        <source>%1 has no settings version Sluice knows, so Sluice starts with its defaults.</source>
        <translation>%1 的设置版本 Sluice 不认识，Sluice 使用默认设置启动。</translation>
    </message>
    <message>
        <source>No rule files imported yet</source>
        <translation>尚未导入规则文件</translation>
    </message>
    <message>
        <source>&amp;Clear the list</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>You are switching to another server.</source>
        <translation>你正要切换到另一台服务器。</translation>
    </message>
    <message>
        <source>&amp;Save rules</source>
        <translation>保存规则(&amp;S)</translation>
    </message>
    <message>
        <source>Write the rules back to their file, in its format (JSON or YAML)</source>
        <translation>把规则写回原文件，保持其格式（JSON 或 YAML）</translation>
    </message>
    <message>
        <source>Save rules &amp;as…</source>
        <translation>规则另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Write the rules to another JSON or YAML file</source>
        <translation>把规则写入另一个 JSON 或 YAML 文件</translation>
    </message>
    <message>
        <source>Sluice is about to quit.</source>
        <translation>Sluice 即将退出。</translation>
    </message>
    <message>
        <source>%1 was written by a newer Sluice (settings version %2; this one reads %3). Sluice uses what it understands of it and leaves the file as it is: what you change now is not kept.</source>
        <translation>%1 由更新版本的 Sluice 写入（设置版本 %2；本版本读取 %3）。Sluice 使用其中能理解的部分，不改动该文件：现在所做的更改不会被保存。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::MessageBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>sluice::ui::MonitorPage</name>
    <message>
        <source>Monitor</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>No rules yet. The charts show the rules of the Rules page; load or pull a rule set there.</source>
        <translation>还没有限流规则。图表显示的是“限流规则”页面中的规则；请在该页面加载或拉取规则集。</translation>
    </message>
    <message>
        <source>&amp;Unblock…</source>
        <translation>解除限制(&amp;U)…</translation>
    </message>
    <message>
        <source>Delete the selected subject&apos;s limiter state: its next request is admitted as if it had never been seen</source>
        <translation>删除所选主体的限流器状态：它的下一个请求会被放行，就像从未出现过一样</translation>
    </message>
    <message>
        <source>R&amp;ule:</source>
        <translation>规则(&amp;U)：</translation>
    </message>
    <message>
        <source>Unblock a subject</source>
        <translation>解除主体限制</translation>
    </message>
    <message>
        <source>Unblock</source>
        <translation>解除限制</translation>
    </message>
    <message>
        <source>The rule with the most requests in the last 15 minutes</source>
        <translation>过去 15 分钟内请求最多的规则</translation>
    </message>
    <message>
        <source>Decisions per second per rule, as recorded in Redis by every console, CLI and service using it; the subjects limited right now; the busiest subjects. Point at a chart for its values, click it to open it large.</source>
        <translation>每条限流规则每秒的判定数，由使用该 Redis 的每个控制台、CLI 和服务记录在 Redis 中；当前被限流的主体；最繁忙的主体。指向图表查看数值，点击图表将其放大。</translation>
    </message>
    <message>
        <source>&amp;Range:</source>
        <translation>时间范围(&amp;R)：</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Top subjects, last 15 min</source>
        <translation>最繁忙的主体（过去 15 分钟）</translation>
    </message>
    <message>
        <source>Top subjects</source>
        <translation>最繁忙的主体</translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation>自动（%1）</translation>
    </message>
    <message>
        <source>&amp;Allow for 1 h…</source>
        <translation>放行 1 小时(&amp;A)…</translation>
    </message>
    <message>
        <source>Store an override in Redis: the rule does not limit the selected subjects for the next hour</source>
        <translation>在 Redis 中存一条例外规则：接下来一小时内，该限流规则不再限制所选主体</translation>
    </message>
    <message>
        <source>&amp;Block…</source>
        <translation>封禁(&amp;B)…</translation>
    </message>
    <message>
        <source>Store an override in Redis: every request of the selected subjects is denied for a time you choose</source>
        <translation>在 Redis 中存一条例外规则：在你选定的时长内，所选主体的每个请求都被拒绝</translation>
    </message>
    <message>
        <source>An override blocks this subject: deleting its key would not unblock it. Allow it, or remove the override on the Rules page</source>
        <translation>此主体被例外规则封禁：删除它的键并不能解除。请放行它，或在“限流规则”页面删除该例外规则</translation>
    </message>
    <message>
        <source>Allow for one hour</source>
        <translation>放行一小时</translation>
    </message>
    <message>
        <source>Allow for 1 h</source>
        <translation>放行 1 小时</translation>
    </message>
    <message>
        <source>The shortest range that holds the latest burst of decisions</source>
        <translation>能容纳最近一次判定高峰的最短时间范围</translation>
    </message>
    <message>
        <source>%1 · held while you point at it</source>
        <translation>%1 · 指针停留期间保持不变</translation>
    </message>
</context>
<context>
    <name>sluice::ui::MonitorSession</name>
    <message>
        <source>Busiest rule</source>
        <translation>最繁忙的规则</translation>
    </message>
    <message>
        <source>Busiest: %1</source>
        <translation>最繁忙：%1</translation>
    </message>
    <message>
        <source>Not connected: choose a server on the Connection page.</source>
        <translation>未连接：请在“连接”页面选择服务器。</translation>
    </message>
    <message>
        <source>the connection is lost</source>
        <translation>连接已断开</translation>
    </message>
    <message>
        <source>⚠ Not updating (%1): showing the data read at %2. Retrying every second.</source>
        <translation>⚠ 未更新（%1）：显示的是 %2 读取的数据。每秒重试一次。</translation>
    </message>
    <message>
        <source>⚠ Cannot read yet (%1). Retrying every second.</source>
        <translation>⚠ 暂时无法读取（%1）。每秒重试一次。</translation>
    </message>
    <message>
        <source>● Live, read at %1</source>
        <translation>● 实时，读取于 %1</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <source>Limited right now (%1)</source>
        <translation>当前被限流（%1）</translation>
    </message>
    <message>
        <source>Limited right now</source>
        <translation>当前被限流</translation>
    </message>
    <message numerus="yes">
        <source>No subject is denied right now (%n key(s) read).</source>
        <translation>
            <numerusform>当前没有被拒绝的主体（已读取 %n 个键）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Subjects whose next request would be denied, longest wait first.</source>
        <translation>下一个请求将被拒绝的主体，等待时间最长的排在最前。</translation>
    </message>
    <message>
        <source>Only the first %1 keys were read: the list may be incomplete.</source>
        <translation>只读取了前 %1 个键：列表可能不完整。</translation>
    </message>
    <message>
        <source>Unblock %1 on rule %2?

This deletes the key %3: the subject&apos;s next request is admitted as if it had never been seen, and its limit starts over.</source>
        <translation>要解除 %1 在规则 %2 上的限制吗？

这会删除键 %3：该主体的下一个请求会被放行，就像从未出现过一样，其限流次数重新计算。</translation>
    </message>
    <message>
        <source>&lt;b&gt;✗ Could not unblock: %1.&lt;/b&gt;&lt;br&gt;The key %2 is unchanged; try again when the connection is back.</source>
        <translation>&lt;b&gt;✗ 无法解除限制：%1。&lt;/b&gt;&lt;br&gt;键 %2 未改变；请在连接恢复后重试。</translation>
    </message>
    <message>
        <source>&lt;b&gt;✓ Unblocked.&lt;/b&gt; Deleted %1: the subject&apos;s next request is admitted.</source>
        <translation>&lt;b&gt;✓ 已解除限制。&lt;/b&gt;已删除 %1：该主体的下一个请求会被放行。</translation>
    </message>
    <message>
        <source>&lt;b&gt;✓ Nothing to unblock.&lt;/b&gt; %1 had expired already.</source>
        <translation>&lt;b&gt;✓ 无需解除。&lt;/b&gt;%1 已经过期。</translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) of other limiters, adopted by the rules, are watched too; %1 never expire: once full, such a key denies forever (fix it on the Keys page).</source>
        <translation>
            <numerusform>规则接管的其他限流器的 %n 个键也在监视中；其中 %1 个永不过期：这样的键一旦满额就会永久拒绝（请在“键”页面修复）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) of other limiters, adopted by the rules, are watched too.</source>
        <translation>
            <numerusform>规则接管的其他限流器的 %n 个键也在监视中。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Auto: no decision recorded yet; showing the last %1.</source>
        <translation>自动：尚未记录任何判定；显示过去 %1。</translation>
    </message>
    <message>
        <source>No decisions recorded in the last %1.</source>
        <translation>过去 %1 内没有记录任何判定。</translation>
    </message>
    <message>
        <source>The statistics keep %1 minutes: nothing before %2 in this range.</source>
        <translation>统计数据只保留 %1 分钟：此时间范围内 %2 之前没有数据。</translation>
    </message>
    <message>
        <source>Recorded decisions. %1 has no key in Redis under its prefix: they were decided on other keys, which Limited right now does not read.</source>
        <translation>已记录的判定。%1 在 Redis 中其前缀下没有任何键：这些判定是在其他键上做出的，“当前被限流”不读取这些键。</translation>
    </message>
    <message numerus="yes">
        <source>No subject is denied on the rules&apos; own keys (%n key(s) read).</source>
        <translation>
            <numerusform>限流规则自己的键上没有被拒绝的主体（已读取 %n 个键）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n other rule(s)</source>
        <translation>
            <numerusform>%1 及另外 %n 条限流规则</numerusform>
        </translation>
    </message>
    <message>
        <source>Recorded decisions of the last 15 minutes: a subject denied then may be admitted again now.</source>
        <translation>过去 15 分钟记录的判定：当时被拒绝的主体现在可能已重新放行。</translation>
    </message>
    <message>
        <source>The overrides stored in Redis could not be read (%1): only the rule file&apos;s are shown.</source>
        <translation>无法读取 Redis 中存储的例外规则（%1）：只显示规则文件中的。</translation>
    </message>
    <message>
        <source>%1 on rule %2</source>
        <translation>%1（限流规则 %2）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✓ Allowed until %1:&lt;/b&gt; %2. The rule does not limit it until then.</source>
        <translation>
            <numerusform>&lt;b&gt;✓ 已放行至 %1：&lt;/b&gt;%2。在此之前该限流规则不再限制它。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✓ Blocked until %1:&lt;/b&gt; %2. Every request is denied until then.</source>
        <translation>
            <numerusform>&lt;b&gt;✓ 已封禁至 %1：&lt;/b&gt;%2。在此之前每个请求都被拒绝。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✗ Could not allow&lt;/b&gt; %1.</source>
        <translation>
            <numerusform>&lt;b&gt;✗ 无法放行&lt;/b&gt; %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;✗ Could not block&lt;/b&gt; %1.</source>
        <translation>
            <numerusform>&lt;b&gt;✗ 无法封禁&lt;/b&gt; %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>A subject an override lets through is listed with it, and not counted as limited.</source>
        <translation>被例外规则放行的主体也会列出并注明，但不计为被限流。</translation>
    </message>
    <message numerus="yes">
        <source>Allow %1 for one hour?

This stores an override in Redis: for the next hour the rule never limits this subject (its key is not even read), wherever the rules come from the store (the check service reading its rules from Redis). It ends by itself; remove it sooner on the Rules page.</source>
        <translation>
            <numerusform>放行 %1 一小时？

这会在 Redis 中存一条例外规则：接下来一小时内，凡是从规则存储读取规则的地方（从 Redis 读取规则的检查服务），该限流规则都不再限制此主体（连它的键都不读）。到期自动结束；如需提前结束，可在“限流规则”页面删除。</numerusform>
        </translation>
    </message>
    <message>
        <source>Auto: the last %1, the shortest range that holds the latest burst of decisions (from %2).</source>
        <translation>自动：最近 %1，能容纳最近一次判定高峰的最短范围（自 %2 起）。</translation>
    </message>
    <message>
        <source>%1 last ran on the Load page&apos;s own keys (sluice:load:&lt;run&gt;:…, removed when the run ends), which this list does not read. To watch a run here, tick &quot;Decide on the rules&apos; real keys&quot; on the Load page.</source>
        <translation>%1 上次运行在“负载”页自己的键上（sluice:load:&lt;run&gt;:…，运行结束即删除），此列表不读取这些键。要在这里观察一次运行，请在“负载”页勾选“在规则的真实键上判定”。</translation>
    </message>
    <message>
        <source>%1 decided in the last seconds but has no key under its prefix: the decisions were made on other keys, which this list does not read (a load&apos;s default run, the Load page&apos;s or sluice-cli load&apos;s, uses sluice:load:&lt;run&gt;:…). To watch a run of the Load page here, tick &quot;Decide on the rules&apos; real keys&quot;.</source>
        <translation>%1 在最近几秒有判定，但其前缀下没有键：判定发生在此列表不读取的其他键上（负载的默认运行，无论来自“负载”页还是 sluice-cli load，都使用 sluice:load:&lt;run&gt;:…）。要在这里观察“负载”页的运行，请勾选“在规则的真实键上判定”。</translation>
    </message>
    <message>
        <source>Limited right now (not current)</source>
        <translation>当前被限流（非最新）</translation>
    </message>
    <message>
        <source>Not current: Redis stopped answering at %1. These are the subjects read at %2; who is limited now is not known.</source>
        <translation>非最新：Redis 在 %1 停止应答。这些是 %2 读到的主体；现在谁被限流尚不可知。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::MonitorWorker</name>
    <message>
        <source>the key scan failed</source>
        <translation>键扫描失败</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>denied by an override, whatever its key holds</source>
        <translation>被例外规则拒绝，与其键中的状态无关</translation>
    </message>
    <message>
        <source>the rule is no longer in the rule set</source>
        <translation>该限流规则已不在规则集中</translation>
    </message>
    <message>
        <source>the subject is not UTF-8 text, which an override cannot name</source>
        <translation>该主体不是 UTF-8 文本，例外规则无法指定它</translation>
    </message>
</context>
<context>
    <name>sluice::ui::OverridesModel</name>
    <message>
        <source>%1 after loading</source>
        <translation>加载后 %1</translation>
    </message>
    <message>
        <source>never (no TTL)</source>
        <translation>永不（无过期时间）</translation>
    </message>
    <message>
        <source>no end</source>
        <translation>无截止</translation>
    </message>
    <message>
        <source>allow: never limited</source>
        <translation>放行：从不限流</translation>
    </message>
    <message>
        <source>deny: always refused</source>
        <translation>拒绝：始终拒绝</translation>
    </message>
    <message>
        <source>limit: %1</source>
        <translation>限额：%1</translation>
    </message>
    <message>
        <source>stored in Redis</source>
        <translation>存于 Redis</translation>
    </message>
    <message>
        <source>rule file</source>
        <translation>规则文件</translation>
    </message>
    <message>
        <source>%1: %2, until %3
Stored in Redis by %4 at %5; it ends by itself, or remove it here.</source>
        <translation>%1：%2，截止 %3
由 %4 于 %5 存入 Redis；到期自动结束，也可在此删除。</translation>
    </message>
    <message>
        <source>%1: %2, until %3
Part of the rule: change it in the rule file, then import and push.</source>
        <translation>%1：%2，截止 %3
属于限流规则本身：请在规则文件中修改，然后导入并推送。</translation>
    </message>
    <message>
        <source>Matches</source>
        <translation>匹配</translation>
    </message>
    <message>
        <source>Does</source>
        <translation>作用</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>截止</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>From</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>sluice::ui::OverridesPanel</name>
    <message>
        <source>Overrides</source>
        <translation>例外规则</translation>
    </message>
    <message>
        <source>&amp;Remove override…</source>
        <translation>删除例外规则(&amp;R)…</translation>
    </message>
    <message>
        <source>Remove the selected override from Redis: the rule decides for its subjects again</source>
        <translation>从 Redis 中删除所选例外规则：其主体重新由限流规则决定</translation>
    </message>
    <message>
        <source>Select a rule to see its per-subject overrides.</source>
        <translation>选择一条限流规则，查看它针对各主体的例外规则。</translation>
    </message>
    <message>
        <source>Overrides of %1 (%2)</source>
        <translation>%1 的例外规则（%2）</translation>
    </message>
    <message>
        <source>Reading the overrides stored in Redis…</source>
        <translation>正在读取 Redis 中存储的例外规则…</translation>
    </message>
    <message numerus="yes">
        <source>%n in the rule file. The overrides stored in Redis are not known: %1.</source>
        <translation>
            <numerusform>规则文件中有 %n 条。Redis 中存储的例外规则未知：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>None: the rule&apos;s limit applies to every subject. The Monitor&apos;s Allow and Block store overrides; sluice-cli overrides add does too.</source>
        <translation>无：该限流规则的限额适用于每个主体。“监控”页面的放行和封禁会存储例外规则，sluice-cli overrides add 也可以。</translation>
    </message>
    <message>
        <source>%1 in the rule file, %2 stored in Redis (those win over the file&apos;s, and end by themselves).</source>
        <translation>规则文件中 %1 条，Redis 中存储 %2 条（后者优先于文件中的，并会到期自动结束）。</translation>
    </message>
    <message>
        <source>Remove an override</source>
        <translation>删除例外规则</translation>
    </message>
    <message>
        <source>Remove the override %1 (%2) of rule %3 from Redis?

The rule&apos;s own limit then applies to it again, wherever the rules come from the store.</source>
        <translation>从 Redis 中删除限流规则 %3 的例外规则 %1（%2）？

此后凡是从规则存储读取规则的地方，都重新对它适用该限流规则自身的限额。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Add override…</source>
        <translation>添加覆盖规则…</translation>
    </message>
    <message>
        <source>Store an override of the selected rule in Redis: allow or deny a subject or a network for a time, whether it is limited right now or not</source>
        <translation>在 Redis 中为所选规则保存一条覆盖规则：在一段时间内放行或拒绝某个主体或网络，无论它当前是否被限流</translation>
    </message>
</context>
<context>
    <name>sluice::ui::PatternForm</name>
    <message>
        <source>&amp;Pattern</source>
        <translation>模式(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Rate</source>
        <translation>速率(&amp;R)</translation>
    </message>
    <message>
        <source>e.g. 200/s, 5/100ms</source>
        <translation>例如 200/s、5/100ms</translation>
    </message>
    <message>
        <source>Requests per period: N/s, N/m, N/&lt;duration&gt;</source>
        <translation>每个周期的请求数：N/s、N/m、N/&lt;时长&gt;</translation>
    </message>
    <message>
        <source>From r&amp;ate</source>
        <translation>起始速率(&amp;A)</translation>
    </message>
    <message>
        <source>e.g. 20/s</source>
        <translation>例如 20/s</translation>
    </message>
    <message>
        <source>The rate at the start of the ramp</source>
        <translation>爬升开始时的速率</translation>
    </message>
    <message>
        <source>To ra&amp;te</source>
        <translation>目标速率(&amp;T)</translation>
    </message>
    <message>
        <source>e.g. 500/s</source>
        <translation>例如 500/s</translation>
    </message>
    <message>
        <source>The rate at the end of the ramp</source>
        <translation>爬升结束时的速率</translation>
    </message>
    <message>
        <source>A&amp;t</source>
        <translation>时刻(&amp;T)</translation>
    </message>
    <message>
        <source>e.g. 9.9s; 0s: at the start</source>
        <translation>例如 9.9s；0s：开始时</translation>
    </message>
    <message>
        <source>When the burst starts, from the start of the run</source>
        <translation>突发的开始时间，从运行开始算起</translation>
    </message>
    <message>
        <source>&amp;Count</source>
        <translation>数量(&amp;C)</translation>
    </message>
    <message>
        <source>requests in the burst, e.g. 100</source>
        <translation>突发的请求数，例如 100</translation>
    </message>
    <message>
        <source>How many requests the burst sends</source>
        <translation>突发一次发送多少个请求</translation>
    </message>
    <message>
        <source>S&amp;pread</source>
        <translation>分布时长(&amp;P)</translation>
    </message>
    <message>
        <source>e.g. 100ms; empty: all at once</source>
        <translation>例如 100ms；留空：一次性全部发出</translation>
    </message>
    <message>
        <source>The burst&apos;s requests are spread evenly over this time</source>
        <translation>突发的请求在这段时间内均匀发出</translation>
    </message>
    <message>
        <source>&amp;From</source>
        <translation>起始(&amp;F)</translation>
    </message>
    <message>
        <source>empty: the start</source>
        <translation>留空：从开始</translation>
    </message>
    <message>
        <source>When the pattern starts, from the start of the run</source>
        <translation>流量模式的开始时间，从运行开始算起</translation>
    </message>
    <message>
        <source>T&amp;o</source>
        <translation>结束(&amp;O)</translation>
    </message>
    <message>
        <source>empty: the end</source>
        <translation>留空：到结束</translation>
    </message>
    <message>
        <source>When the pattern stops</source>
        <translation>流量模式的停止时间</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>empty: any of the subjects</source>
        <translation>留空：任一主体</translation>
    </message>
    <message>
        <source>Every request of the pattern from this one subject</source>
        <translation>该模式的每个请求都来自这一个主体</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>CSV of t_ms,subject lines</source>
        <translation>每行为 t_ms,subject 的 CSV</translation>
    </message>
</context>
<context>
    <name>sluice::ui::PeakChartView</name>
    <message>
        <source>Subjects above each peak</source>
        <translation>峰值以上的主体</translation>
    </message>
    <message>
        <source>Subjects whose peak in %1 is above the limit</source>
        <translation>%1 内峰值超过限流次数的主体</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ProfileForm</name>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>e.g. production, staging cache</source>
        <translation>例如：production、staging cache</translation>
    </message>
    <message>
        <source>TCP</source>
        <translation>TCP</translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS (rediss://)</translation>
    </message>
    <message>
        <source>Unix socket</source>
        <translation>Unix 套接字</translation>
    </message>
    <message>
        <source>Sentinel</source>
        <translation>Sentinel（哨兵）</translation>
    </message>
    <message>
        <source>How Sluice reaches Redis: plain TCP, TLS, a Unix socket on this machine, or the master that Sentinel names</source>
        <translation>Sluice 如何连接 Redis：普通 TCP、TLS、本机的 Unix 套接字，或 Sentinel 指定的主节点</translation>
    </message>
    <message>
        <source>T&amp;ransport:</source>
        <translation>传输方式(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <source>host name or IP address</source>
        <translation>主机名或 IP 地址</translation>
    </message>
    <message>
        <source>Soc&amp;ket path:</source>
        <translation>套接字路径(&amp;K)：</translation>
    </message>
    <message>
        <source>/run/redis/redis-server.sock</source>
        <translation>/run/redis/redis-server.sock</translation>
    </message>
    <message>
        <source>The path of redis-server&apos;s unixsocket, on this machine</source>
        <translation>本机上 redis-server 的 unixsocket 路径</translation>
    </message>
    <message>
        <source>Sen&amp;tinels:</source>
        <translation>哨兵(&amp;T)：</translation>
    </message>
    <message>
        <source>host:port, host:port, …</source>
        <translation>host:port, host:port, …</translation>
    </message>
    <message>
        <source>The sentinels to ask, separated by commas; the port is 26379 when left out</source>
        <translation>要询问的哨兵，用逗号分隔；省略端口时为 26379</translation>
    </message>
    <message>
        <source>&amp;Master name:</source>
        <translation>主节点名称(&amp;M)：</translation>
    </message>
    <message>
        <source>e.g. mymaster</source>
        <translation>例如：mymaster</translation>
    </message>
    <message>
        <source>The name the sentinels monitor the master by (sentinel monitor NAME ...)</source>
        <translation>哨兵监控主节点所用的名称（sentinel monitor NAME ...）</translation>
    </message>
    <message>
        <source>The database number SELECT picks; 0 unless you know otherwise</source>
        <translation>SELECT 选择的数据库编号；如无特殊情况填 0</translation>
    </message>
    <message>
        <source>&amp;Database:</source>
        <translation>数据库(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;User:</source>
        <translation>用户(&amp;U)：</translation>
    </message>
    <message>
        <source>default user</source>
        <translation>默认用户</translation>
    </message>
    <message>
        <source>An ACL user name (Redis 6 and later); empty for the default user</source>
        <translation>ACL 用户名（Redis 6 及以上）；留空则使用默认用户</translation>
    </message>
    <message>
        <source>Forget</source>
        <translation>忘记</translation>
    </message>
    <message>
        <source>Forget the stored password when you save</source>
        <translation>保存时忘记已保存的密码</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>C&amp;A file:</source>
        <translation>CA 文件(&amp;A)：</translation>
    </message>
    <message>
        <source>the system&apos;s trust store</source>
        <translation>系统信任库</translation>
    </message>
    <message>
        <source>The CA certificate (PEM) that signed the server&apos;s certificate</source>
        <translation>签发服务器证书的 CA 证书（PEM）</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <source>Client &amp;certificate:</source>
        <translation>客户端证书(&amp;C)：</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>A client certificate (PEM), for servers that ask for one (tls-auth-clients yes); with its key</source>
        <translation>客户端证书（PEM），用于要求客户端证书的服务器（tls-auth-clients yes）；需与其私钥一起提供</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>客户端证书</translation>
    </message>
    <message>
        <source>Client &amp;key:</source>
        <translation>客户端私钥(&amp;K)：</translation>
    </message>
    <message>
        <source>The client certificate&apos;s private key (PEM, without a passphrase)</source>
        <translation>客户端证书的私钥（PEM，无口令）</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>客户端私钥</translation>
    </message>
    <message>
        <source>Server na&amp;me:</source>
        <translation>服务器名称(&amp;M)：</translation>
    </message>
    <message>
        <source>the host</source>
        <translation>主机名</translation>
    </message>
    <message>
        <source>The name the server&apos;s certificate must carry, when it is not the host (SNI)</source>
        <translation>服务器证书必须包含的名称，当它不是主机名时填写（SNI）</translation>
    </message>
    <message>
        <source>Do not check the server&apos;s certificate</source>
        <translation>不校验服务器证书</translation>
    </message>
    <message>
        <source>⚠ Insecure: anyone between Sluice and the server can read and change the traffic, the password included. For a test server only.</source>
        <translation>⚠ 不安全：Sluice 与服务器之间的任何人都能读取并篡改通信内容，包括密码。仅用于测试服务器。</translation>
    </message>
    <message>
        <source>Through an SSH tunnel</source>
        <translation>通过 SSH 隧道</translation>
    </message>
    <message>
        <source>Reach Redis through a bastion host: Sluice logs in with SSH and connects from there</source>
        <translation>通过跳板机连接 Redis：Sluice 用 SSH 登录跳板机，再从那里连接</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH 隧道</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>bastion host</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation>端口(&amp;O)：</translation>
    </message>
    <message>
        <source>SSH &amp;login:</source>
        <translation>SSH 登录(&amp;L)：</translation>
    </message>
    <message>
        <source>Key &amp;file:</source>
        <translation>密钥文件(&amp;F)：</translation>
    </message>
    <message>
        <source>the SSH agent, then ~/.ssh&apos;s keys</source>
        <translation>先用 SSH agent，再用 ~/.ssh 中的密钥</translation>
    </message>
    <message>
        <source>SSH private key</source>
        <translation>SSH 私钥</translation>
    </message>
    <message>
        <source>Key pass&amp;phrase:</source>
        <translation>密钥口令(&amp;P)：</translation>
    </message>
    <message>
        <source>SSH pa&amp;ssword:</source>
        <translation>SSH 密码(&amp;S)：</translation>
    </message>
    <message>
        <source>For password logins; the key file and the agent are tried first</source>
        <translation>用于密码登录；会先尝试密钥文件和 agent</translation>
    </message>
    <message>
        <source>known_&amp;hosts:</source>
        <translation>known_hosts(&amp;H)：</translation>
    </message>
    <message>
        <source>known_hosts file</source>
        <translation>known_hosts 文件</translation>
    </message>
    <message>
        <source>Accept an unknown host key and add it to known_hosts</source>
        <translation>接受未知的主机密钥并加入 known_hosts</translation>
    </message>
    <message>
        <source>A changed host key is always refused</source>
        <translation>已变更的主机密钥始终会被拒绝</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新建连接配置</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未更改</translation>
    </message>
    <message>
        <source>type it to connect</source>
        <translation>输入密码以连接</translation>
    </message>
    <message>
        <source>The stored password will be forgotten when you save.</source>
        <translation>保存时将忘记已保存的密码。</translation>
    </message>
    <message>
        <source>Saving puts it in the system keyring; where none answers, Sluice keeps it for this session only.</source>
        <translation>保存时会将其存入系统密钥环；如果没有可用的密钥环，Sluice 仅在本次会话中保留它。</translation>
    </message>
    <message>
        <source>A password is stored in the system keyring. Type a new one to replace it.</source>
        <translation>系统密钥环中已保存密码。输入新密码即可替换。</translation>
    </message>
    <message>
        <source>No system keyring answered: the password is kept for this session only, and asked again next time.</source>
        <translation>没有可用的系统密钥环：密码仅在本次会话中保留，下次会再次询问。</translation>
    </message>
    <message>
        <source>No system keyring answered when it was saved, so Sluice did not keep it: type the password to connect (kept for this session).</source>
        <translation>保存时没有可用的系统密钥环，因此 Sluice 没有保留密码：请输入密码以连接（仅在本次会话中保留）。</translation>
    </message>
    <message>
        <source>Leave empty if the server needs no password.</source>
        <translation>如果服务器不需要密码，请留空。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Pick the file</source>
        <translation>选择文件</translation>
    </message>
    <message>
        <source>Read-only: send nothing that writes to this server</source>
        <translation>只读：不向该服务器发送任何写入命令</translation>
    </message>
    <message>
        <source>Sluice then only reads: fixing and deleting keys, unblocking, pushing rules, load and simulations on Redis are off. On by default for a server that is not on this machine.</source>
        <translation>Sluice 将只读取：修复和删除键、解除封禁、推送规则、压测以及在 Redis 上的仿真均被关闭。对不在本机上的服务器默认开启。</translation>
    </message>
    <message>
        <source>Safety:</source>
        <translation>安全：</translation>
    </message>
    <message>
        <source> keys/s</source>
        <translation> 个键/秒</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>The most keys a second Sluice&apos;s scans walk on this server (the Keys page and its badge, the Monitor&apos;s limited subjects), counted as SCAN walks them, matching or not; a scan also slows down by itself when the server&apos;s latency rises. 0: no limit.</source>
        <translation>Sluice 的扫描（“键”页面及其徽标、“监控”页面的受限主体）每秒在此服务器上最多遍历的键数，按 SCAN 遍历的键计算，无论是否匹配；服务器延迟升高时扫描还会自动放慢。0：不限。</translation>
    </message>
    <message>
        <source>Scan &amp;budget:</source>
        <translation>扫描预算(&amp;B)：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>off (F5 only)</source>
        <translation>关闭（仅 F5）</translation>
    </message>
    <message>
        <source>The Keys page lists the keys again this often, within the scan budget, so that its health, the navigation badge and the status bar stay current. Off: only when you press F5 (for instance to spare a read-only replica).</source>
        <translation>键页面按此间隔在扫描预算内重新列出键，使其健康状况、导航徽标和状态栏保持最新。关闭：仅在按 F5 时扫描（例如为了减轻只读副本的负担）。</translation>
    </message>
    <message>
        <source>Keys r&amp;escan:</source>
        <translation>键重新扫描(&amp;E)：</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ProfileStore</name>
    <message>
        <source>no system keyring answered (%1)</source>
        <translation>没有系统密钥环响应（%1）</translation>
    </message>
    <message>
        <source>the system keyring is not in use</source>
        <translation>未使用系统密钥环</translation>
    </message>
    <message>
        <source>no system keyring was available when it was saved, so Sluice kept it for that session only</source>
        <translation>保存时没有可用的系统密钥环，因此 Sluice 仅在该会话中保留了它</translation>
    </message>
    <message>
        <source>the system keyring has no password for it</source>
        <translation>系统密钥环中没有它的密码</translation>
    </message>
    <message>
        <source>the system keyring did not answer (%1)</source>
        <translation>系统密钥环没有响应（%1）</translation>
    </message>
    <message>
        <source>it was never saved</source>
        <translation>它从未保存过</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ReplayDialog</name>
    <message>
        <source>Replay a log</source>
        <translation>回放日志</translation>
    </message>
    <message>
        <source>Your own access logs through a rule file, on the in-process twins of the scripts and on the log&apos;s own clock: who would have been limited, and what limit to choose. Nothing is sent anywhere.</source>
        <translation>让您自己的访问日志按日志自身的时间通过规则文件（脚本的进程内孪生模型）：看谁会被限流，以及该选多大的限流次数。不会向任何地方发送数据。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Logs:</source>
        <translation>日志：</translation>
    </message>
    <message>
        <source>access.log; several files separated by ;</source>
        <translation>access.log；多个文件用 ; 分隔</translation>
    </message>
    <message>
        <source>Choose an access log</source>
        <translation>选择访问日志</translation>
    </message>
    <message>
        <source>Access logs (*.log *.gz *.txt *.json)</source>
        <translation>访问日志 (*.log *.gz *.txt *.json)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Rules:</source>
        <translation>限流规则：</translation>
    </message>
    <message>
        <source>rules.json</source>
        <translation>rules.json</translation>
    </message>
    <message>
        <source>Choose a rule file</source>
        <translation>选择规则文件</translation>
    </message>
    <message>
        <source>Rule files (*.json *.yaml *.yml)</source>
        <translation>规则文件 (*.json *.yaml *.yml)</translation>
    </message>
    <message>
        <source>Detect</source>
        <translation>自动识别</translation>
    </message>
    <message>
        <source>nginx log_format…</source>
        <translation>nginx log_format…</translation>
    </message>
    <message>
        <source>JSON lines</source>
        <translation>JSON 行</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the charts as PNG or SVG, or the report as CSV</source>
        <translation>将图表保存为 PNG 或 SVG，或将报告保存为 CSV</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>限流规则</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>匹配</translation>
    </message>
    <message>
        <source>Admitted</source>
        <translation>放行</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Shadow-denied</source>
        <translation>影子拒绝</translation>
    </message>
    <message>
        <source>Subjects</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>Denied subjects</source>
        <translation>被拒绝的主体</translation>
    </message>
    <message>
        <source>429 in the log</source>
        <translation>日志中的 429</translation>
    </message>
    <message>
        <source>Peak p99</source>
        <translation>峰值 p99</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Denials over time</source>
        <translation>拒绝随时间变化</translation>
    </message>
    <message>
        <source>Select a rule, then drag the red line to try a limit.</source>
        <translation>选择一条限流规则，然后拖动红线试一个限流次数。</translation>
    </message>
    <message>
        <source>Most denied subject</source>
        <translation>被拒绝最多的主体</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>First denial</source>
        <translation>首次拒绝</translation>
    </message>
    <message>
        <source>Last denial</source>
        <translation>最后拒绝</translation>
    </message>
    <message>
        <source>Export the replay</source>
        <translation>导出回放</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>CSV report (*.csv)</source>
        <translation>CSV 报告 (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>format not recognised: choose it</source>
        <translation>无法识别格式：请手动选择</translation>
    </message>
    <message>
        <source>detected: %1</source>
        <translation>识别为：%1</translation>
    </message>
    <message>
        <source>Denials per %1</source>
        <translation>每 %1 的拒绝数</translation>
    </message>
    <message>
        <source>%1 was skipped: %2</source>
        <translation>%1 已跳过：%2</translation>
    </message>
    <message>
        <source>Replay a log first: there is nothing to export yet.</source>
        <translation>请先回放日志：还没有可导出的内容。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Replay of %1</source>
        <translation>%1 的回放</translation>
    </message>
    <message>
        <source>%1: export to .png, .svg or .csv</source>
        <translation>%1：请导出为 .png、.svg 或 .csv</translation>
    </message>
    <message numerus="yes">
        <source>the Rules page&apos;s %n rule(s), or choose a file</source>
        <translation>
            <numerusform>“规则”页的 %n 条规则，或选择一个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Use this limit</source>
        <translation>使用此限额</translation>
    </message>
    <message>
        <source>Write the limit into the rule on the Rules page, unsaved: review it there, then save, push or stage it</source>
        <translation>将此限额写入“规则”页中的规则（未保存）：在那里检查，然后保存、推送或暂存</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Denied at the limit</source>
        <translation>此限额下拒绝</translation>
    </message>
    <message>
        <source>Most denied by the rule</source>
        <translation>规则拒绝最多的</translation>
    </message>
    <message>
        <source>A limit of %1 denies no subject.</source>
        <translation>限额 %1 不会拒绝任何主体。</translation>
    </message>
    <message numerus="yes">
        <source>A limit of %1 denies %n subject(s); the most denied:</source>
        <translation>
            <numerusform>限额 %1 会拒绝 %n 个主体；拒绝最多的：</numerusform>
        </translation>
    </message>
    <message>
        <source>Approximate (≈): the replay keeps the %1 highest peaks of each rule, and more subjects than that are above this limit.</source>
        <translation>近似值（≈）：回放为每条规则保留峰值最高的 %1 个主体，而超过此限额的主体比这更多。</translation>
    </message>
    <message>
        <source>Denied at %1</source>
        <translation>限额 %1 下拒绝</translation>
    </message>
    <message>
        <source>Write %1 into rule %2 on the Rules page, unsaved: review it there, then save, push or stage it</source>
        <translation>将 %1 写入“规则”页中的规则 %2（未保存）：在那里检查，然后保存、推送或暂存</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ReplaySession</name>
    <message>
        <source>Choose the logs and a rule file, then Replay.</source>
        <translation>选择日志和规则文件，然后点击回放。</translation>
    </message>
    <message>
        <source>%1 lines, %2 lines/s</source>
        <translation>%1 行，每秒 %2 行</translation>
    </message>
    <message>
        <source>Choose at least one log file.</source>
        <translation>请至少选择一个日志文件。</translation>
    </message>
    <message>
        <source>Choose a rule file.</source>
        <translation>请选择规则文件。</translation>
    </message>
    <message>
        <source>Replaying…</source>
        <translation>正在回放…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>%1 lines, %2 unparsed, %3 late; %4 s</source>
        <translation>%1 行，%2 行无法解析，%3 行迟到；%4 秒</translation>
    </message>
    <message>
        <source>; whole seconds spread evenly</source>
        <translation>；整秒时间已在该秒内均匀分布</translation>
    </message>
    <message>
        <source>; %1 outliers, not replayed</source>
        <translation>；%1 行离群，未回放</translation>
    </message>
    <message>
        <source>Cancelled: </source>
        <translation>已取消：</translation>
    </message>
    <message>
        <source>disabled: not replayed</source>
        <translation>已停用：未回放</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>no line matched its route</source>
        <translation>没有日志行匹配其路由</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) without a subject for %1</source>
        <translation>
            <numerusform>%n 行没有 %1 的主体</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s) with a subject too long to decide</source>
        <translation>
            <numerusform>%n 行的主体过长，无法判定</numerusform>
        </translation>
    </message>
    <message>
        <source>denied none: no subject above %1 (highest peak %2)</source>
        <translation>未拒绝任何请求：没有主体超过 %1（最高峰值 %2）</translation>
    </message>
    <message>
        <source>the staged candidate of %1, in shadow: counts, never denies</source>
        <translation>%1 的暂存候选，影子模式：只计数，从不拒绝</translation>
    </message>
    <message>
        <source>shadow: counts what it would deny, never denies</source>
        <translation>影子模式：只统计会拒绝的请求，从不拒绝</translation>
    </message>
    <message numerus="yes">
        <source>%n override(s) not applied by the replay</source>
        <translation>
            <numerusform>%n 个覆盖规则未被回放应用</numerusform>
        </translation>
    </message>
    <message>
        <source>Limit %1 per %2%3: %4 of subjects (%5), %6 of requests (%7). Peaks: p50 %8, p90 %9, p99 %10, max %11.</source>
        <translation>每 %2 限流 %1 次%3：%4 的主体（%5 个），%6 的请求（%7 个）。峰值：p50 %8，p90 %9，p99 %10，最大 %11。</translation>
    </message>
    <message>
        <source> (the rule&apos;s)</source>
        <translation>（规则本身的）</translation>
    </message>
    <message>
        <source>Choose a replayed rule first.</source>
        <translation>请先选择一条已回放的规则。</translation>
    </message>
    <message>
        <source>Replay the Rules page&apos;s rules (no rule file) to write a limit into them.</source>
        <translation>回放“规则”页的规则（不选规则文件），才能将限额写入其中。</translation>
    </message>
    <message>
        <source>Drag the red line to another limit first.</source>
        <translation>请先将红线拖到另一个限额。</translation>
    </message>
    <message>
        <source>Limit %1 written into the rule on the Rules page</source>
        <translation>限额 %1 已写入“规则”页中的规则</translation>
    </message>
    <message>
        <source>The limit was not written</source>
        <translation>限额未写入</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleChart</name>
    <message>
        <source>allowed</source>
        <translation>放行</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>shadow-denied</source>
        <translation>影子拒绝</translation>
    </message>
    <message>
        <source> · shadow (denies nothing, counts what it would)</source>
        <translation> · 影子模式（不拒绝任何请求，只统计本会拒绝的请求）</translation>
    </message>
    <message>
        <source> · disabled</source>
        <translation> · 已禁用</translation>
    </message>
    <message>
        <source>last minute: %1 %2 allowed  %3 %4 denied</source>
        <translation>最近一分钟：%1 %2 次放行  %3 %4 次拒绝</translation>
    </message>
    <message>
        <source>  %1 %2 shadow-denied</source>
        <translation>  %1 %2 次影子拒绝</translation>
    </message>
    <message>
        <source>Point at the chart for the values of a second; click to open it large</source>
        <translation>指向图表查看某一秒的数值；点击将其放大</translation>
    </message>
    <message>
        <source>Shown: %1 allowed, %2 denied, %3 shadow-denied</source>
        <translation>显示范围内：%1 次放行，%2 次拒绝，%3 次影子拒绝</translation>
    </message>
    <message>
        <source>%1 · nothing kept for this second (the statistics keep %2 minutes)</source>
        <translation>%1 · 这一秒没有保留数据（统计数据只保留 %2 分钟）</translation>
    </message>
    <message>
        <source>%1 · %2 allowed/s · %3 denied/s</source>
        <translation>%1 · 每秒 %2 次放行 · 每秒 %3 次拒绝</translation>
    </message>
    <message>
        <source> · %1 shadow-denied/s</source>
        <translation> · 每秒 %1 次影子拒绝</translation>
    </message>
    <message>
        <source>%1 · staged candidate</source>
        <translation>%1 · 暂存的候选规则</translation>
    </message>
    <message>
        <source> · in shadow: dashed, what it would deny</source>
        <translation> · 影子模式：虚线为它本会拒绝的请求</translation>
    </message>
    <message>
        <source>Nothing decided it yet: a check service that reads its rules from Redis decides it beside the enforced rule, and so does a run on the Load page.</source>
        <translation>尚无判定：从 Redis 读取规则的检查服务会在生效规则旁判定它，负载页面的运行也会。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleChartDialog</name>
    <message>
        <source>Monitor: %1</source>
        <translation>监控：%1</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleDiffDialog</name>
    <message>
        <source>Push rules to Redis</source>
        <translation>推送规则到 Redis</translation>
    </message>
    <message>
        <source>Review the conflict</source>
        <translation>查看冲突</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>What changes</source>
        <translation>变更内容</translation>
    </message>
    <message numerus="yes">
        <source>Added (%n)</source>
        <translation>
            <numerusform>新增（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Changed (%n)</source>
        <translation>
            <numerusform>已更改（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n fields</source>
        <translation>
            <numerusform>%n 个字段</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Removed (%n)</source>
        <translation>
            <numerusform>已删除（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>No differences</source>
        <translation>无差异</translation>
    </message>
    <message numerus="yes">
        <source>Unchanged (%n)</source>
        <translation>
            <numerusform>未更改（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Push to Redis</source>
        <translation>推送到 Redis</translation>
    </message>
    <message>
        <source>Keep mine (based on v%1)</source>
        <translation>保留我的（基于 v%1）</translation>
    </message>
    <message>
        <source>Keep your rules and mark them as based on v%1: the next push overwrites exactly what is listed here</source>
        <translation>保留你的规则，并将其标记为基于 v%1：下次推送将准确覆盖此处列出的内容</translation>
    </message>
    <message>
        <source>Use Redis v%1</source>
        <translation>使用 Redis v%1</translation>
    </message>
    <message>
        <source>Replace your rules with those in Redis; your changes are lost</source>
        <translation>用 Redis 中的规则替换你的规则；你的更改将丢失</translation>
    </message>
    <message>
        <source>Why (kept in the rules&apos; history; optional)</source>
        <translation>原因（记录在规则历史中；可选）</translation>
    </message>
    <message>
        <source>&amp;Message:</source>
        <translation>说明(&amp;M)：</translation>
    </message>
    <message>
        <source>Who it limits now could not be worked out: %1</source>
        <translation>无法算出它现在会限制谁：%1</translation>
    </message>
    <message>
        <source>No rule changes, so no subject is limited differently.</source>
        <translation>规则没有变化，因此没有主体受到不同的限制。</translation>
    </message>
    <message>
        <source>Who it limits now, from the live keys&apos; state: released (denied now, allowed after) %1 · newly denied (allowed now, denied after) %2</source>
        <translation>它现在会限制谁（依据实时键的状态）：解除（现在被拒绝，之后允许）%1 · 新拒绝（现在允许，之后被拒绝）%2</translation>
    </message>
    <message>
        <source>Subjects limited now</source>
        <translation>现在受限的主体</translation>
    </message>
    <message numerus="yes">
        <source>%n live key(s)</source>
        <translation>
            <numerusform>%n 个实时键</numerusform>
        </translation>
    </message>
    <message>
        <source> (a part: the preview stops at %1)</source>
        <translation>（部分：预览在 %1 处停止）</translation>
    </message>
    <message>
        <source> · denied now %1 → after %2</source>
        <translation> · 现在拒绝 %1 → 之后 %2</translation>
    </message>
    <message>
        <source> · every subject starts afresh</source>
        <translation> · 每个主体重新开始</translation>
    </message>
    <message>
        <source> · last 15 min: %1 allowed, %2 denied</source>
        <translation> · 最近 15 分钟：允许 %1，拒绝 %2</translation>
    </message>
    <message>
        <source>released</source>
        <translation>放出</translation>
    </message>
    <message>
        <source>newly denied</source>
        <translation>新拒绝</translation>
    </message>
    <message>
        <source>Stage in shadow</source>
        <translation>暂存为影子运行</translation>
    </message>
    <message>
        <source>Store these rules beside the enforced ones instead: the service decides every request by both, the candidate in shadow (it never blocks), so the Monitor shows what it would deny before you promote it</source>
        <translation>改为把这些规则暂存在生效规则旁边：服务对每个请求按两者各判定一次，候选规则以影子模式运行（从不拦截），这样在启用之前，监控页就能显示它本会拒绝哪些请求</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleEditor</name>
    <message>
        <source>Select a rule to edit it, or press Add.</source>
        <translation>选择一条规则进行编辑，或点击“添加”。</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>Changed here, not applied to the table yet</source>
        <translation>已在此处更改，尚未应用到表格</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>还原(&amp;V)</translation>
    </message>
    <message>
        <source>Forget the changes typed here</source>
        <translation>放弃在此处输入的更改</translation>
    </message>
    <message>
        <source>A&amp;pply</source>
        <translation>应用(&amp;P)</translation>
    </message>
    <message>
        <source>e.g. GET /hello</source>
        <translation>例如 GET /hello</translation>
    </message>
    <message>
        <source>Ro&amp;ute:</source>
        <translation>路由(&amp;U)：</translation>
    </message>
    <message>
        <source>what the limit protects, for the next on-call</source>
        <translation>该限流保护什么，写给下一位值班人员</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>描述(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Key prefix:</source>
        <translation>键前缀(&amp;K)：</translation>
    </message>
    <message>
        <source>allow: let requests through</source>
        <translation>allow：放行请求</translation>
    </message>
    <message>
        <source>deny: refuse requests</source>
        <translation>deny：拒绝请求</translation>
    </message>
    <message>
        <source>local: limit in process</source>
        <translation>local：在进程内限流</translation>
    </message>
    <message>
        <source>If Redis &amp;fails:</source>
        <translation>Redis 故障时(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Enabled</source>
        <translation>启用(&amp;E)</translation>
    </message>
    <message>
        <source>S&amp;hadow</source>
        <translation>影子模式(&amp;H)</translation>
    </message>
    <message>
        <source>Flags:</source>
        <translation>标志：</translation>
    </message>
    <message>
        <source>Shadow: decide and record, never block.</source>
        <translation>影子模式：判定并记录，但从不拦截。</translation>
    </message>
    <message>
        <source>What a client meets</source>
        <translation>客户端看到的效果</translation>
    </message>
    <message>
        <source>Sample s&amp;ubject:</source>
        <translation>示例主体(&amp;U)：</translation>
    </message>
    <message>
        <source>The value the scope takes from a request: an IP address, a user name, a header or parameter value</source>
        <translation>作用范围从请求中取到的值：IP 地址、用户名、请求头或参数的值</translation>
    </message>
    <message>
        <source>New rule</source>
        <translation>新建规则</translation>
    </message>
    <message>
        <source>Rule %1</source>
        <translation>规则 %1</translation>
    </message>
    <message>
        <source>Put the rule into the table (Redis and files change only when you push or export)</source>
        <translation>将规则放入表格（只有在推送或导出时才会更改 Redis 和文件）</translation>
    </message>
    <message>
        <source>Fix the fields marked in red first</source>
        <translation>请先修正标红的字段</translation>
    </message>
    <message>
        <source>Names the rule in keys, headers and logs.</source>
        <translation>在键、请求头和日志中用于标识该规则。</translation>
    </message>
    <message>
        <source>Counts per window; up to 2x the limit across a boundary.</source>
        <translation>按时间窗口计数；跨越窗口边界时最多可达限流次数的 2 倍。</translation>
    </message>
    <message>
        <source>Length of each window, e.g. 5s, 250ms, 1m.</source>
        <translation>每个时间窗口的长度，例如 5s、250ms、1m。</translation>
    </message>
    <message>
        <source>Exact over any span; one entry per request in Redis.</source>
        <translation>任意时间段内都精确；每个请求在 Redis 中占一条记录。</translation>
    </message>
    <message>
        <source>Any span this long admits at most the limit.</source>
        <translation>任意一段该长度的时间内，放行的请求数都不超过限流次数。</translation>
    </message>
    <message>
        <source>Weighs the previous window: nearly exact, two counters.</source>
        <translation>对上一个时间窗口加权：几乎精确，使用两个计数器。</translation>
    </message>
    <message>
        <source>The span the limit applies to, e.g. 1m.</source>
        <translation>限流次数所适用的时间段，例如 1m。</translation>
    </message>
    <message>
        <source>Steady refill; a full bucket allows a burst at once.</source>
        <translation>匀速补充令牌；桶满时可一次性放行突发请求。</translation>
    </message>
    <message>
        <source>Tokens per period, e.g. 100/s or 5/10s.</source>
        <translation>每个周期补充的令牌数，例如 100/s 或 5/10s。</translation>
    </message>
    <message>
        <source>Bucket size: the most requests at once.</source>
        <translation>桶容量：一次最多可放行的请求数。</translation>
    </message>
    <message>
        <source>Queues requests and releases them at a steady pace.</source>
        <translation>将请求排队，并以匀速放出。</translation>
    </message>
    <message>
        <source>How fast the queue drains, e.g. 10/s.</source>
        <translation>队列排空的速度，例如 10/s。</translation>
    </message>
    <message>
        <source>Queue size; requests beyond it are refused.</source>
        <translation>队列容量；超出的请求会被拒绝。</translation>
    </message>
    <message>
        <source>A steady pace plus a burst allowance; one timestamp.</source>
        <translation>匀速加上突发余量；只需一个时间戳。</translation>
    </message>
    <message>
        <source>The sustained pace, e.g. 5/m.</source>
        <translation>持续速率，例如 5/m。</translation>
    </message>
    <message>
        <source>Extra requests at once beyond the pace.</source>
        <translation>在匀速之外可一次性额外放行的请求数。</translation>
    </message>
    <message>
        <source>Requests admitted per window.</source>
        <translation>每个时间窗口放行的请求数。</translation>
    </message>
    <message>
        <source>One shared limit for all clients.</source>
        <translation>所有客户端共用一个限额。</translation>
    </message>
    <message>
        <source>One limit per client IP address.</source>
        <translation>每个客户端 IP 地址一个限额。</translation>
    </message>
    <message>
        <source>One limit per authenticated user.</source>
        <translation>每个已认证用户一个限额。</translation>
    </message>
    <message>
        <source>One limit per value of this header.</source>
        <translation>该请求头的每个值一个限额。</translation>
    </message>
    <message>
        <source>One limit per value of this parameter.</source>
        <translation>该参数的每个值一个限额。</translation>
    </message>
    <message>
        <source>What it guards, for people and exports.</source>
        <translation>它保护什么，供人查看和导出时使用。</translation>
    </message>
    <message>
        <source>One line: why this limit exists.</source>
        <translation>一行说明：为什么设置此限流。</translation>
    </message>
    <message>
        <source>Keys are &lt;prefix&gt;&lt;id&gt;:{&lt;subject&gt;}.</source>
        <translation>键的格式为 &lt;prefix&gt;&lt;id&gt;:{&lt;subject&gt;}。</translation>
    </message>
    <message>
        <source>Redis down: requests pass (fail open).</source>
        <translation>Redis 宕机：请求放行（fail open）。</translation>
    </message>
    <message>
        <source>Redis down: requests are refused (fail closed).</source>
        <translation>Redis 宕机：请求被拒绝（fail closed）。</translation>
    </message>
    <message>
        <source>Redis down: each instance limits on its own.</source>
        <translation>Redis 宕机：各实例各自在本地限流。</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#5f6770;&quot;&gt;Key: fix the fields marked in red to see it.&lt;/span&gt;</source>
        <translation>&lt;span style=&quot;color:#5f6770;&quot;&gt;键：请先修正标红的字段。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;color:#5f6770;&quot;&gt;Headers: fix the fields marked in red to see them.&lt;/span&gt;</source>
        <translation>&lt;span style=&quot;color:#5f6770;&quot;&gt;请求头：请先修正标红的字段。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Redis key: %1</source>
        <translation>Redis 键：%1</translation>
    </message>
    <message>
        <source>First request: 200%1</source>
        <translation>第一个请求：200%1</translation>
    </message>
    <message>
        <source>, released after %1 ms</source>
        <translation>，%1 ms 后放出</translation>
    </message>
    <message>
        <source>Request %1 at the same instant: 429 Too Many Requests%2</source>
        <translation>同一时刻的第 %1 个请求：429 Too Many Requests%2</translation>
    </message>
    <message>
        <source> (shadow: recorded, let through)</source>
        <translation>（影子模式：已记录，已放行）</translation>
    </message>
    <message>
        <source>Disabled: no request is limited by this rule.</source>
        <translation>已禁用：此规则不限制任何请求。</translation>
    </message>
    <message>
        <source>What a subject used under the old limit still counts: a lowered limit may leave it nothing until its window or bucket moves on. The default.</source>
        <translation>主体在旧限额下已用掉的部分继续计入：限额调低后，可能要等到窗口或桶前移才有余量。默认选项。</translation>
    </message>
    <message>
        <source>Everyone starts afresh under the new limit, as if never seen.</source>
        <translation>所有主体在新限额下从头开始，如同从未出现过。</translation>
    </message>
    <message>
        <source>Whoever had used half of the old limit has used half of the new one.</source>
        <translation>用掉旧限额一半的主体，也算用掉新限额的一半。</translation>
    </message>
    <message>
        <source>A raise gives everyone the difference on top of what they had left; a cut only caps what they had left.</source>
        <translation>调高时，每个主体在剩余量之上再加上差额；调低时，只把剩余量封顶。</translation>
    </message>
    <message>
        <source>What the counters already in Redis become, key by key on each subject&apos;s next request, when this rule&apos;s limit, window, rate, burst or algorithm changes (a new algorithm always starts afresh):
%1</source>
        <translation>当此限流规则的限流次数、时间窗口、速率、突发容量或算法改变时，Redis 中已有的计数器如何变化（在每个主体的下一个请求时逐键生效；换算法时总是从头开始）：
%1</translation>
    </message>
    <message>
        <source>If the limit chan&amp;ges:</source>
        <translation>限额变更时(&amp;G)：</translation>
    </message>
    <message>
        <source>Count them as if admitted</source>
        <translation>像放行的请求一样计数</translation>
    </message>
    <message>
        <source>Denied re&amp;quests:</source>
        <translation>被拒请求(&amp;Q)：</translation>
    </message>
    <message>
        <source>count_rejected: a request this rule denies uses up its limit as an admitted one would, so a client that keeps retrying while limited stays limited (what envoy ratelimit does unless told otherwise). Off: only admitted requests count.</source>
        <translation>count_rejected：此规则拒绝的请求也像放行的请求一样消耗限额，受限期间不断重试的客户端会一直受限（envoy ratelimit 默认如此）。关闭时只计放行的请求。</translation>
    </message>
    <message>
        <source>Not available for %1: %2</source>
        <translation>%1 不可用：%2</translation>
    </message>
    <message>
        <source>On: retries while limited count too.</source>
        <translation>开：受限期间的重试也计数。</translation>
    </message>
    <message>
        <source>For window algorithms only.</source>
        <translation>仅限窗口类算法。</translation>
    </message>
    <message>
        <source>Counters in Redis start afresh under the new limit.</source>
        <translation>Redis 中的计数器在新限额下从头开始。</translation>
    </message>
    <message>
        <source>Counters keep the same share of the new limit used.</source>
        <translation>计数器在新限额下保持相同的已用比例。</translation>
    </message>
    <message>
        <source>A raise adds to what is left; a cut caps it.</source>
        <translation>调高时加到剩余量上；调低时将其封顶。</translation>
    </message>
    <message>
        <source>Counters in Redis keep what was used (the default).</source>
        <translation>Redis 中的计数器保留已用量（默认）。</translation>
    </message>
    <message>
        <source>keep what was used (default)</source>
        <translation>保留已用量（默认）</translation>
    </message>
    <message>
        <source>start afresh</source>
        <translation>从头开始</translation>
    </message>
    <message>
        <source>keep the share used</source>
        <translation>保持已用比例</translation>
    </message>
    <message>
        <source>add a raise to what is left</source>
        <translation>调高时加到剩余量上</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleSpreadModel</name>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Load at the rate</source>
        <translation>该速率下的负载</translation>
    </message>
    <message>
        <source>spread</source>
        <translation>分散</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesModel</name>
    <message>
        <source>fixed window</source>
        <translation>固定窗口</translation>
    </message>
    <message>
        <source>sliding log</source>
        <translation>滑动窗口（日志）</translation>
    </message>
    <message>
        <source>sliding counter</source>
        <translation>滑动窗口计数器</translation>
    </message>
    <message>
        <source>token bucket</source>
        <translation>令牌桶</translation>
    </message>
    <message>
        <source>leaky bucket</source>
        <translation>漏桶</translation>
    </message>
    <message>
        <source>GCRA</source>
        <translation>GCRA</translation>
    </message>
    <message>
        <source>shadow</source>
        <translation>影子模式</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>Shadow: decisions are made and recorded, requests are never blocked</source>
        <translation>影子模式：进行判定并记录，但从不拦截请求</translation>
    </message>
    <message>
        <source>unsaved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>Changed here and not yet pushed to Redis or exported to a file</source>
        <translation>已在此处更改，尚未推送到 Redis 或导出到文件</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>限流次数</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>作用范围</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>路由</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标志</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesPage</name>
    <message>
        <source>Rules</source>
        <translation>限流规则</translation>
    </message>
    <message>
        <source>unsaved changes</source>
        <translation>有未保存的更改</translation>
    </message>
    <message>
        <source>The rules here differ from the file or Redis version they came from: push them or export them to keep them</source>
        <translation>此处的规则与其来源的文件或 Redis 版本不同：请推送或导出以保留它们</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Replace the rules here with a JSON or YAML rule file</source>
        <translation>用 JSON 或 YAML 规则文件替换此处的规则</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>导出(&amp;X)…</translation>
    </message>
    <message>
        <source>Write the rules as a rule file, or for nginx, Envoy or Kong</source>
        <translation>将规则写为规则文件，或导出为 nginx、Envoy 或 Kong 配置</translation>
    </message>
    <message>
        <source>P&amp;ull</source>
        <translation>拉取(&amp;U)</translation>
    </message>
    <message>
        <source>Pu&amp;sh…</source>
        <translation>推送(&amp;S)…</translation>
    </message>
    <message>
        <source>Filter by id, algorithm, limit, scope, route… (Ctrl+F)</source>
        <translation>按 id、算法、限流次数、范围、路由筛选…（Ctrl+F）</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <source>A new rule, typed in the editor</source>
        <translation>新建一条限流规则，在编辑器中填写</translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation>复制(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Remove the selected rule here; Redis keeps it until you push</source>
        <translation>在此处移除所选规则；在您推送之前，Redis 中仍保留该规则</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>Import rules</source>
        <translation>导入规则</translation>
    </message>
    <message>
        <source>Rule files (*.json *.yaml *.yml)</source>
        <translation>规则文件 (*.json *.yaml *.yml)</translation>
    </message>
    <message>
        <source>Pull and review</source>
        <translation>拉取并查看</translation>
    </message>
    <message>
        <source>Pull</source>
        <translation>拉取</translation>
    </message>
    <message>
        <source>Push anyway (force)</source>
        <translation>仍然推送（强制）</translation>
    </message>
    <message numerus="yes">
        <source>%n rule(s)</source>
        <translation>
            <numerusform>%n 条规则</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n rule(s) shown</source>
        <translation>
            <numerusform>显示 %n 条规则中的 %1 条</numerusform>
        </translation>
    </message>
    <message>
        <source>From %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>No rules yet: import a file, pull from Redis or add one</source>
        <translation>还没有限流规则：导入文件、从 Redis 拉取或添加一条</translation>
    </message>
    <message>
        <source>based on Redis v%1</source>
        <translation>基于 Redis v%1</translation>
    </message>
    <message>
        <source>push and pull are off: %1</source>
        <translation>推送和拉取已关闭：%1</translation>
    </message>
    <message>
        <source>not watching Redis: %1</source>
        <translation>未监视 Redis：%1</translation>
    </message>
    <message>
        <source>Redis has no rules yet</source>
        <translation>Redis 中还没有限流规则</translation>
    </message>
    <message>
        <source>Redis is at v%1</source>
        <translation>Redis 当前为 v%1</translation>
    </message>
    <message>
        <source>Off: %1. Editing, import and export keep working.</source>
        <translation>已关闭：%1。编辑、导入和导出仍可正常使用。</translation>
    </message>
    <message>
        <source>Store these rules in Redis, after a preview of what changes</source>
        <translation>将这些限流规则存入 Redis，推送前先预览改动</translation>
    </message>
    <message>
        <source>Load the rules kept in Redis (unsaved changes are reviewed first)</source>
        <translation>加载 Redis 中保存的限流规则（会先查看未保存的更改）</translation>
    </message>
    <message>
        <source>the new rule</source>
        <translation>新规则</translation>
    </message>
    <message>
        <source>Apply your changes to %1 before you leave it?</source>
        <translation>离开前是否应用对 %1 的修改？</translation>
    </message>
    <message>
        <source>Your changes to %1 are not valid yet. Discard them?</source>
        <translation>对 %1 的修改尚不合法。要放弃吗？</translation>
    </message>
    <message>
        <source>Unapplied changes</source>
        <translation>未应用的修改</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Keep editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <source>&amp;History…</source>
        <translation>历史(&amp;H)…</translation>
    </message>
    <message>
        <source>The versions stored in Redis: who changed what, the diff, and a rollback</source>
        <translation>存储在 Redis 中的版本：谁改了什么、差异，以及回滚</translation>
    </message>
    <message>
        <source>The last rule file, %1, is gone.</source>
        <translation>上次的规则文件 %1 已不存在。</translation>
    </message>
    <message>
        <source>Import another one, or pick one in File &gt; Recent files.</source>
        <translation>请导入另一个文件，或在“文件 &gt; 最近的文件”中选择。</translation>
    </message>
    <message>
        <source>You are opening another rule file.</source>
        <translation>你正要打开另一个规则文件。</translation>
    </message>
    <message>
        <source>Reload the file</source>
        <translation>重新加载文件</translation>
    </message>
    <message>
        <source>Keep the rules here</source>
        <translation>保留这里的规则</translation>
    </message>
    <message>
        <source>Overwrite the file</source>
        <translation>覆盖文件</translation>
    </message>
    <message>
        <source>Save without the comments</source>
        <translation>不带注释保存</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Nothing was saved: the rule in the editor is not valid yet.</source>
        <translation>未保存任何内容：编辑器中的规则尚不有效。</translation>
    </message>
    <message>
        <source>Fix the fields marked in red, or revert them, then save again.</source>
        <translation>修正标红的字段或撤销修改，然后再次保存。</translation>
    </message>
    <message>
        <source>JSON rule file (*.json)</source>
        <translation>JSON 规则文件 (*.json)</translation>
    </message>
    <message>
        <source>YAML rule file (*.yaml *.yml)</source>
        <translation>YAML 规则文件 (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Save rules as</source>
        <translation>规则另存为</translation>
    </message>
    <message>
        <source>The rules here have changes that are in no file and not pushed to Redis. Save them to a file first?</source>
        <translation>这里的规则有改动，既未保存到文件，也未推送到 Redis。先保存到文件吗？</translation>
    </message>
    <message>
        <source>The rules here have changes that are not saved to %1. Save them first?</source>
        <translation>这里的规则有改动尚未保存到 %1。先保存吗？</translation>
    </message>
    <message>
        <source>Unsaved rules</source>
        <translation>未保存的规则</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>放弃(&amp;D)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>You are opening %1.</source>
        <translation>你正要打开 %1。</translation>
    </message>
    <message>
        <source>The Rules page has no rule %1 any more.</source>
        <translation>“规则”页中已没有规则 %1。</translation>
    </message>
    <message>
        <source>The rule editor holds edits not applied yet: apply or discard them first.</source>
        <translation>规则编辑器中有尚未应用的修改：请先应用或放弃。</translation>
    </message>
    <message>
        <source>%1 is now %2, unsaved: review it, then save, push or stage it.</source>
        <translation>%1 现在是 %2，未保存：请检查，然后保存、推送或暂存。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesSession</name>
    <message>
        <source>unsaved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>Duplicated %1 as %2.</source>
        <translation>已将 %1 复制为 %2。</translation>
    </message>
    <message>
        <source>Change what differs in the editor, then Apply.</source>
        <translation>在编辑器中修改不同之处，然后点击“应用”。</translation>
    </message>
    <message>
        <source>Deleted %1 here.</source>
        <translation>已在此处删除 %1。</translation>
    </message>
    <message>
        <source>Redis keeps it until you push.</source>
        <translation>在您推送之前，Redis 中仍保留该规则。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n error(s); nothing was imported, the rules here are unchanged.</source>
        <translation>
            <numerusform>%1：%n 个错误；未导入任何内容，此处的限流规则保持不变。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cannot import %1: %n error(s). Nothing was changed.</source>
        <translation>
            <numerusform>无法导入 %1：%n 个错误。未做任何更改。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is not a valid rule file.</source>
        <translation>%1 不是有效的限流规则文件。</translation>
    </message>
    <message>
        <source>Every error is listed below with its line and column. Fix the file and import it again.</source>
        <translation>下面列出了每个错误及其所在的行和列。请修正文件后重新导入。</translation>
    </message>
    <message>
        <source>file %1</source>
        <translation>文件 %1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n rule(s) from %1.</source>
        <translation>
            <numerusform>已从 %1 导入 %n 条限流规则。</numerusform>
        </translation>
    </message>
    <message>
        <source>The file was pulled from Redis version %1.</source>
        <translation>该文件拉取自 Redis 版本 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n rule(s) to %1 (%2).</source>
        <translation>
            <numerusform>已将 %n 条限流规则导出到 %1（%2）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 cannot express %n rule(s); they are not in %2:</source>
        <translation>
            <numerusform>%1 无法表达 %n 条限流规则；它们未包含在 %2 中：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %1 of %2 rules to %3; %n left out.</source>
        <translation>
            <numerusform>已将 %2 条限流规则中的 %1 条导出到 %3；%n 条未导出。</numerusform>
        </translation>
    </message>
    <message>
        <source>The list below says why %1 cannot express them.</source>
        <translation>下面的列表说明了 %1 无法表达它们的原因。</translation>
    </message>
    <message>
        <source>not connected to Redis (choose a server on the Connection page)</source>
        <translation>未连接到 Redis（请在“连接”页面选择服务器）</translation>
    </message>
    <message>
        <source>connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Redis at %1 is not reachable (%2); the console keeps retrying</source>
        <translation>无法访问位于 %1 的 Redis（%2）；控制台将持续重试</translation>
    </message>
    <message>
        <source>cannot connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Loaded %n rule(s) from Redis, version %1.</source>
        <translation>
            <numerusform>已从 Redis 加载 %n 条限流规则，版本 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Redis has %n rule(s) at version %1; your unsaved changes are kept.</source>
        <translation>
            <numerusform>Redis 中有 %n 条限流规则，版本 %1；您未保存的更改已保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>Pull to review the differences, or push to replace them.</source>
        <translation>拉取以查看差异，或推送以替换它们。</translation>
    </message>
    <message>
        <source>you are editing v%1</source>
        <translation>您正在编辑 v%1</translation>
    </message>
    <message>
        <source>your rules here did not come from Redis</source>
        <translation>此处的限流规则并非来自 Redis</translation>
    </message>
    <message>
        <source>Redis has v%1, %2.</source>
        <translation>Redis 中为 v%1，%2。</translation>
    </message>
    <message>
        <source>Someone changed the rules in Redis. Pull to see what changed; a push now would be refused as a conflict.</source>
        <translation>有人修改了 Redis 中的限流规则。请拉取以查看改动；现在推送将因冲突而被拒绝。</translation>
    </message>
    <message>
        <source>Cannot pull now: %1.</source>
        <translation>现在无法拉取：%1。</translation>
    </message>
    <message>
        <source>Cannot push now: %1.</source>
        <translation>现在无法推送：%1。</translation>
    </message>
    <message>
        <source>Your rules stay here; push when Redis is back.</source>
        <translation>您的限流规则保留在此处；Redis 恢复后再推送。</translation>
    </message>
    <message>
        <source>The rules are not valid; nothing was pushed:</source>
        <translation>限流规则无效，未推送任何内容：</translation>
    </message>
    <message>
        <source>Pushing (force)…</source>
        <translation>正在推送（强制）…</translation>
    </message>
    <message>
        <source>Pushing…</source>
        <translation>正在推送…</translation>
    </message>
    <message>
        <source>Cannot read the rules from Redis.</source>
        <translation>无法从 Redis 读取限流规则。</translation>
    </message>
    <message>
        <source>Redis has no rules yet; the table is empty.</source>
        <translation>Redis 中还没有限流规则；表格为空。</translation>
    </message>
    <message numerus="yes">
        <source>Pulled %n rule(s) from Redis, version %1.</source>
        <translation>
            <numerusform>已从 Redis 拉取 %n 条限流规则，版本 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Redis v%1</source>
        <translation>Redis v%1</translation>
    </message>
    <message>
        <source>added %1</source>
        <translation>新增 %1</translation>
    </message>
    <message>
        <source>changed %1</source>
        <translation>修改 %1</translation>
    </message>
    <message>
        <source>removed %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Redis already has these rules (version %1).</source>
        <translation>Redis 中已有这些限流规则（版本 %1）。</translation>
    </message>
    <message>
        <source>Pushed version %1 to Redis%2.</source>
        <translation>已将版本 %1 推送到 Redis%2。</translation>
    </message>
    <message>
        <source> (forced)</source>
        <translation>（强制）</translation>
    </message>
    <message>
        <source>Conflict: Redis moved on since version %1, nothing was overwritten.</source>
        <translation>冲突：自版本 %1 以来 Redis 已有更新，未覆盖任何内容。</translation>
    </message>
    <message>
        <source>Conflict: Redis has rules these did not come from, nothing was overwritten.</source>
        <translation>冲突：Redis 中的限流规则并非这些规则的来源，未覆盖任何内容。</translation>
    </message>
    <message>
        <source>The push failed; Redis is unchanged.</source>
        <translation>推送失败；Redis 未做任何更改。</translation>
    </message>
    <message numerus="yes">
        <source>Redis has no rules yet. Pushing stores your %n rule(s) as version 1:</source>
        <translation>
            <numerusform>Redis 中还没有限流规则。推送会将您的 %n 条限流规则存储为版本 1：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Redis is at version %1. Pushing your %n rule(s) makes version %2:</source>
        <translation>
            <numerusform>Redis 当前为版本 %1。推送您的 %n 条限流规则将生成版本 %2：</numerusform>
        </translation>
    </message>
    <message>
        <source>Redis already has exactly these rules: there is nothing to push.</source>
        <translation>Redis 中的限流规则与此完全相同：无需推送。</translation>
    </message>
    <message>
        <source>Your rules are based on version %1: Redis changed since, so the push will be refused as a conflict unless you force it.</source>
        <translation>您的限流规则基于版本 %1：此后 Redis 已有改动，因此除非强制推送，否则推送将因冲突而被拒绝。</translation>
    </message>
    <message>
        <source>Your rules did not come from Redis: the push will be refused as a conflict unless you force it.</source>
        <translation>您的限流规则并非来自 Redis：除非强制推送，否则推送将因冲突而被拒绝。</translation>
    </message>
    <message>
        <source>The push is one atomic step: every app reading the store sees all of it or none.</source>
        <translation>推送是一个原子操作：每个读取该存储的应用要么看到全部更改，要么一项也看不到。</translation>
    </message>
    <message>
        <source>Your rules are the same as Redis version %1.</source>
        <translation>您的限流规则与 Redis 版本 %1 相同。</translation>
    </message>
    <message>
        <source>Redis is at version %1. Your rules differ from it as follows (what a push would change):</source>
        <translation>Redis 当前为版本 %1。您的限流规则与其差异如下（即推送将会更改的内容）：</translation>
    </message>
    <message>
        <source>Keep mine: your rules stay and count as based on version %1, so the next push replaces exactly what is listed. Use Redis: your changes are dropped.</source>
        <translation>保留我的：保留您的限流规则并视为基于版本 %1，下次推送将恰好替换所列内容。使用 Redis 的：放弃您的更改。</translation>
    </message>
    <message>
        <source>Now editing Redis version %1.</source>
        <translation>正在编辑 Redis 版本 %1。</translation>
    </message>
    <message>
        <source>Your rules now count as based on version %1.</source>
        <translation>您的限流规则现已视为基于版本 %1。</translation>
    </message>
    <message>
        <source>Push to replace what the review listed.</source>
        <translation>推送以替换查看中列出的内容。</translation>
    </message>
    <message>
        <source>Unknown export format &apos;%1&apos;: choose json, yaml, nginx, nginx-auth, envoy or kong.</source>
        <translation>未知的导出格式“%1”：请选择 json、yaml、nginx、nginx-auth、envoy 或 kong。</translation>
    </message>
    <message>
        <source>Cannot export to %1.</source>
        <translation>无法导出到 %1。</translation>
    </message>
    <message numerus="yes">
        <source>Reopened %1; Redis has %n rule(s) at version %2.</source>
        <translation>
            <numerusform>已重新打开 %1；Redis 中版本 %2 有 %n 条规则。</numerusform>
        </translation>
    </message>
    <message>
        <source>rollback to version %1</source>
        <translation>回滚到版本 %1</translation>
    </message>
    <message>
        <source>Rolling back to version %1…</source>
        <translation>正在回滚到版本 %1…</translation>
    </message>
    <message>
        <source>The rollback to version %1 was not made.</source>
        <translation>未能回滚到版本 %1。</translation>
    </message>
    <message>
        <source>Redis already has the rules of version %1 (version %2).</source>
        <translation>Redis 已经是版本 %1 的规则（版本 %2）。</translation>
    </message>
    <message>
        <source>Rolled back to version %1: stored as version %2.</source>
        <translation>已回滚到版本 %1：存储为版本 %2。</translation>
    </message>
    <message>
        <source>Rolled back to version %1: stored as version %2. Your unsaved changes are kept.</source>
        <translation>已回滚到版本 %1：存储为版本 %2。您未保存的更改已保留。</translation>
    </message>
    <message>
        <source>not connected to Redis</source>
        <translation>未连接到 Redis</translation>
    </message>
    <message>
        <source>Could not remove the override %1 of rule %2</source>
        <translation>无法删除限流规则 %2 的例外规则 %1</translation>
    </message>
    <message>
        <source>Removed the override %1 of rule %2</source>
        <translation>已删除限流规则 %2 的例外规则 %1</translation>
    </message>
    <message>
        <source>The rule decides for that subject again, wherever the rules come from the store.</source>
        <translation>凡是从规则存储读取规则的地方，该主体重新由限流规则决定。</translation>
    </message>
    <message>
        <source>The override %1 of rule %2 was already gone</source>
        <translation>限流规则 %2 的例外规则 %1 已不存在</translation>
    </message>
    <message>
        <source>It had ended, or someone removed it meanwhile.</source>
        <translation>它已到期，或在此期间被他人删除。</translation>
    </message>
    <message>
        <source>Staging…</source>
        <translation>正在暂存…</translation>
    </message>
    <message>
        <source>Promoting the staged change…</source>
        <translation>正在启用暂存的变更…</translation>
    </message>
    <message>
        <source>Discarding the staged change…</source>
        <translation>正在丢弃暂存的变更…</translation>
    </message>
    <message>
        <source>The change was not staged.</source>
        <translation>变更未能暂存。</translation>
    </message>
    <message>
        <source>The staged change was not promoted.</source>
        <translation>暂存的变更未能启用。</translation>
    </message>
    <message>
        <source>The staged change was not discarded.</source>
        <translation>暂存的变更未能丢弃。</translation>
    </message>
    <message>
        <source>Staged as version %1: the candidate runs in shadow beside the enforced rules.</source>
        <translation>已暂存为版本 %1：候选规则在生效规则旁以影子模式运行。</translation>
    </message>
    <message>
        <source>It never blocks a request. Watch its would-deny counts on the Monitor beside the enforced rules, then promote or discard it.</source>
        <translation>它从不拦截请求。在监控页对照生效规则查看它本会拒绝的次数，然后启用或丢弃它。</translation>
    </message>
    <message>
        <source>Promoted: the staged rules are enforced as version %1.</source>
        <translation>已启用：暂存的规则作为版本 %1 生效。</translation>
    </message>
    <message>
        <source>Discarded the staged change; version %1 enforces the rules as before.</source>
        <translation>已丢弃暂存的变更；版本 %1 的生效规则与之前相同。</translation>
    </message>
    <message numerus="yes">
        <source>Not saved: %n error(s) in the rules.</source>
        <translation>
            <numerusform>未保存：规则中有 %n 个错误。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was not written: the rules are not valid.</source>
        <translation>未写入 %1：规则无效。</translation>
    </message>
    <message>
        <source>Every error is listed below. Fix the rules, then save again.</source>
        <translation>下方列出了每个错误。修正规则后再次保存。</translation>
    </message>
    <message>
        <source>%1 is gone: it was deleted or moved after it was opened.</source>
        <translation>%1 已不存在：打开后被删除或移动了。</translation>
    </message>
    <message>
        <source>Nothing was written and your rules stay here. Save them with Save as…, under this name or another.</source>
        <translation>未写入任何内容，你的规则仍保留在这里。请用“另存为…”以此名称或其他名称保存。</translation>
    </message>
    <message>
        <source>%1 was changed on disk since it was opened.</source>
        <translation>%1 自打开后已在磁盘上被修改。</translation>
    </message>
    <message>
        <source>Nothing was written. Reload it (your edits here are dropped), or overwrite it with the rules here.</source>
        <translation>未写入任何内容。可重新加载它（这里的修改将被丢弃），或用这里的规则覆盖它。</translation>
    </message>
    <message>
        <source>%1 is read-only: nothing was written.</source>
        <translation>%1 是只读的：未写入任何内容。</translation>
    </message>
    <message>
        <source>Your rules stay here. Make the file writable, or save them elsewhere with Save as….</source>
        <translation>你的规则仍保留在这里。请让该文件可写，或用“另存为…”保存到别处。</translation>
    </message>
    <message numerus="yes">
        <source>%1 has %n comment line(s) that a Save would drop.</source>
        <translation>
            <numerusform>%1 有 %n 行注释，保存时会被丢弃。</numerusform>
        </translation>
    </message>
    <message>
        <source>The YAML reader does not keep comments, so Sluice writes the rules without them. Save without them, or save under another name with Save as….</source>
        <translation>YAML 读取器不保留注释，因此 Sluice 写入的规则不含注释。可不带注释保存，或用“另存为…”以其他名称保存。</translation>
    </message>
    <message>
        <source>%1. Nothing was changed on disk; your rules stay here.</source>
        <translation>%1。磁盘上没有任何改动；你的规则仍保留在这里。</translation>
    </message>
    <message numerus="yes">
        <source>Saved %n rule(s) to %1.</source>
        <translation>
            <numerusform>已将 %n 条规则保存到 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Written as YAML.</source>
        <translation>已按 YAML 格式写入。</translation>
    </message>
    <message>
        <source>Written as JSON.</source>
        <translation>已按 JSON 格式写入。</translation>
    </message>
    <message>
        <source>Your rules here are kept.</source>
        <translation>已保留这里的规则。</translation>
    </message>
    <message>
        <source>A Save overwrites %1 with them.</source>
        <translation>保存时将用它们覆盖 %1。</translation>
    </message>
    <message>
        <source>%1 was deleted or moved.</source>
        <translation>%1 已被删除或移动。</translation>
    </message>
    <message>
        <source>The rules stay here. Save them with Save as… to keep them in a file.</source>
        <translation>规则仍保留在这里。请用“另存为…”把它们保存到文件中。</translation>
    </message>
    <message>
        <source>%1 was changed on disk.</source>
        <translation>%1 已在磁盘上被修改。</translation>
    </message>
    <message>
        <source>Reload it (your edits here are dropped), or keep your rules here; a Save then overwrites the file.</source>
        <translation>可重新加载它（这里的修改将被丢弃），或保留这里的规则；之后保存时会覆盖该文件。</translation>
    </message>
    <message>
        <source>Reload it to see the change, or keep the rules here.</source>
        <translation>重新加载以查看改动，或保留这里的规则。</translation>
    </message>
    <message>
        <source>“Push anyway (force)”</source>
        <translation>“仍然推送（强制）”</translation>
    </message>
    <message>
        <source>The edits you made after staging are kept here, unsaved.</source>
        <translation>暂存之后所做的修改保留在此处，未保存。</translation>
    </message>
    <message>
        <source>promote or discard it first (the buttons on the staged change&apos;s banner), or push anyway, which discards it.</source>
        <translation>请先启用或丢弃它（暂存变更横幅上的按钮），或仍然推送（这会丢弃它）。</translation>
    </message>
    <message>
        <source>discard it and stage again.</source>
        <translation>请丢弃它后重新暂存。</translation>
    </message>
    <message>
        <source>They count as based on version %1: a push replaces the rolled-back rules with them, after its preview.</source>
        <translation>它们现在视为基于版本 %1：推送会在预览之后用它们替换回滚后的规则。</translation>
    </message>
    <message>
        <source>Stored the override %1 of rule %2</source>
        <translation>已保存规则 %2 的覆盖规则 %1</translation>
    </message>
    <message>
        <source>It decides for its subjects wherever the rules come from the store, until it ends.</source>
        <translation>凡是从存储读取规则的地方，它都为其主体做判定，直到结束。</translation>
    </message>
    <message>
        <source>Could not store the override %1 of rule %2</source>
        <translation>无法保存规则 %2 的覆盖规则 %1</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RulesWorker</name>
    <message>
        <source>not connected to Redis</source>
        <translation>未连接到 Redis</translation>
    </message>
</context>
<context>
    <name>sluice::ui::Sandbox</name>
    <message>
        <source>redis-server did not get ready within %1 s.</source>
        <translation>redis-server 未能在 %1 s 内就绪。</translation>
    </message>
    <message>
        <source>redis-server is not installed, so Sluice cannot start a sandbox. Install it (Debian, Ubuntu: apt-get install redis-server) or add a profile for a Redis you have.</source>
        <translation>未安装 redis-server，因此 Sluice 无法启动沙盒。请安装它（Debian、Ubuntu：apt-get install redis-server），或为已有的 Redis 添加一个连接配置。</translation>
    </message>
    <message>
        <source>Cannot create a temporary directory for the sandbox: %1</source>
        <translation>无法为沙盒创建临时目录：%1</translation>
    </message>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>redis-server stopped before it was ready (exit code %1). %2</source>
        <translation>redis-server 在就绪前已停止（退出码 %1）。%2</translation>
    </message>
    <message>
        <source>The sandbox redis-server was stopped from outside or crashed. Connect to the sandbox again to start a new, empty one.</source>
        <translation>沙盒 redis-server 已被外部停止或已崩溃。请重新连接沙盒，以启动一个新的空沙盒。</translation>
    </message>
    <message>
        <source>The sandbox redis-server exited (code %1). Connect to the sandbox again to start a new, empty one.</source>
        <translation>沙盒 redis-server 已退出（退出码 %1）。请重新连接沙盒，以启动一个新的空沙盒。</translation>
    </message>
</context>
<context>
    <name>sluice::ui::ScenarioEditor</name>
    <message>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <source>Choose a preset…</source>
        <translation>选择预设…</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Open a scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Scenarios (*.json *.yaml *.yml)</source>
        <translation>场景 (*.json *.yaml *.yml)</translation>
    </message>
    <message>
        <source>Save the scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>JSON scenario (*.json)</source>
        <translation>JSON 场景 (*.json)</translation>
    </message>
    <message>
        <source>Saved the scenario to %1</source>
        <translation>已将场景保存到 %1</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>e.g. my burst</source>
        <translation>例如 my burst</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>e.g. 30s, 5m</source>
        <translation>例如 30s、5m</translation>
    </message>
    <message>
        <source>Bin</source>
        <translation>分箱</translation>
    </message>
    <message>
        <source>one chart point per bin, e.g. 100ms</source>
        <translation>每个分箱对应一个图表点，例如 100ms</translation>
    </message>
    <message>
        <source>Measure window</source>
        <translation>测量窗口</translation>
    </message>
    <message>
        <source>span of &quot;max in window&quot;, e.g. 10s</source>
        <translation>“窗口内最大值”的时间跨度，例如 10s</translation>
    </message>
    <message>
        <source>Subjects</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>clients 10.0.0.1, …; default 1</source>
        <translation>客户端 10.0.0.1, …；默认 1</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>same seed, same traffic; default 1</source>
        <translation>相同种子产生相同流量；默认 1</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Traffic patterns</source>
        <translation>流量模式</translation>
    </message>
    <message>
        <source>Add pattern</source>
        <translation>添加流量模式</translation>
    </message>
    <message>
        <source>Rules</source>
        <translation>限流规则</translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation>添加规则</translation>
    </message>
    <message>
        <source>Use the rules from the Rules page</source>
        <translation>使用“限流规则”页面中的规则</translation>
    </message>
    <message>
        <source>No rules on the Rules page yet</source>
        <translation>“限流规则”页面中还没有规则</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>In-process twins (fast, no Redis)</source>
        <translation>进程内孪生实现（快速，无需 Redis）</translation>
    </message>
    <message>
        <source>The real scripts on the connected Redis</source>
        <translation>已连接 Redis 上的真实脚本</translation>
    </message>
    <message>
        <source>Both give identical decisions. On Redis the run writes under a prefix of its own and removes its keys afterwards.</source>
        <translation>两者的判定结果完全相同。在 Redis 上运行时，会写入专用前缀下的键，并在结束后删除这些键。</translation>
    </message>
    <message numerus="yes">
        <source>Replace the scenario&apos;s rules with the %n rule(s) of the Rules page</source>
        <translation>
            <numerusform>用“限流规则”页面中的 %n 条规则替换场景中的规则</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>sluice::ui::ServerPanel</name>
    <message>
        <source>watching keys does not keep them alive under LRU/LFU eviction: the console&apos;s scans use it</source>
        <translation>观察键不会让它们在 LRU/LFU 淘汰下多活：控制台的扫描会用它</translation>
    </message>
    <message>
        <source>not here (Redis 7.2 has it): under LRU/LFU eviction, keys the console watches are kept longer</source>
        <translation>此处没有（Redis 7.2 起有）：在 LRU/LFU 淘汰下，控制台观察的键会被保留得更久</translation>
    </message>
    <message>
        <source>redis-cell&apos;s GCRA in one command (or Dragonfly&apos;s): its keys are audited as redis_cell</source>
        <translation>redis-cell 的 GCRA，一条命令完成（或 Dragonfly 的）：它的键按 redis_cell 审计</translation>
    </message>
    <message>
        <source>not here: no redis-cell module</source>
        <translation>此处没有：未加载 redis-cell 模块</translation>
    </message>
    <message>
        <source>a native GCRA command of this server&apos;s build</source>
        <translation>此服务器构建自带的 GCRA 命令</translation>
    </message>
    <message>
        <source>not here: Sluice&apos;s gcra rule is a Lua script, as everywhere</source>
        <translation>此处没有：Sluice 的 gcra 规则是 Lua 脚本，与其他地方一样</translation>
    </message>
    <message>
        <source>TTLs on single hash fields: a limiter may expire a field, not its whole key</source>
        <translation>哈希字段级的 TTL：限流器可以让单个字段过期，而不是整个键</translation>
    </message>
    <message>
        <source>not here (Redis 7.4 has it): TTLs are per key</source>
        <translation>此处没有（Redis 7.4 起有）：TTL 按键设置</translation>
    </message>
    <message>
        <source>This server: %1</source>
        <translation>此服务器：%1</translation>
    </message>
    <message>
        <source>This server: %1, Redis %2</source>
        <translation>此服务器：%1，Redis %2</translation>
    </message>
    <message>
        <source>What it offers beyond Redis 7.0 is unknown: %1. The console&apos;s scans then count as accesses under LRU/LFU eviction.</source>
        <translation>无法得知它在 Redis 7.0 之外提供什么：%1。此时控制台的扫描在 LRU/LFU 淘汰下算作访问。</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>有</translation>
    </message>
    <message>
        <source>no</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationMetricsModel</name>
    <message>
        <source>fixed window</source>
        <translation>固定窗口</translation>
    </message>
    <message>
        <source>sliding window (log)</source>
        <translation>滑动窗口（日志）</translation>
    </message>
    <message>
        <source>sliding window counter</source>
        <translation>滑动窗口计数器</translation>
    </message>
    <message>
        <source>token bucket</source>
        <translation>令牌桶</translation>
    </message>
    <message>
        <source>leaky bucket</source>
        <translation>漏桶</translation>
    </message>
    <message>
        <source>GCRA</source>
        <translation>GCRA</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Offered</source>
        <translation>到达请求</translation>
    </message>
    <message>
        <source>Admitted</source>
        <translation>放行</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Admitted %</source>
        <translation>放行 %</translation>
    </message>
    <message>
        <source>Max/%1</source>
        <translation>最大/%1</translation>
    </message>
    <message>
        <source>Released max/%1</source>
        <translation>放出最大/%1</translation>
    </message>
    <message>
        <source>Peak/%1</source>
        <translation>峰值/%1</translation>
    </message>
    <message>
        <source>Delay max ms</source>
        <translation>最大延迟 ms</translation>
    </message>
    <message>
        <source>The most requests admitted in any span of %1 (the busiest window, shaded in the charts)</source>
        <translation>任意 %1 时间段内放行的最多请求数（即最繁忙窗口，在图表中以阴影标出）</translation>
    </message>
    <message>
        <source>The same on release times (admission + delay): the leaky bucket&apos;s output</source>
        <translation>按放出时间（放行 + 延迟）计算的同一指标：即漏桶的输出</translation>
    </message>
    <message>
        <source>The most requests admitted in one bin of %1</source>
        <translation>单个 %1 分箱内放行的最多请求数</translation>
    </message>
    <message>
        <source>The delay the leaky bucket asks an admitted request to wait</source>
        <translation>漏桶要求已放行请求等待的延迟</translation>
    </message>
    <message>
        <source>adopted %1</source>
        <translation>接管的 %1</translation>
    </message>
    <message>
        <source>Delay ms mean/max</source>
        <translation>延迟 ms 平均/最大</translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationPage</name>
    <message>
        <source>Simulation</source>
        <translation>仿真</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the scenario through every rule (Ctrl+R)</source>
        <translation>让场景流量通过每条限流规则（Ctrl+R）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the charts as PNG or SVG, or the time series as CSV (Ctrl+E)</source>
        <translation>将图表保存为 PNG 或 SVG，或将时间序列保存为 CSV（Ctrl+E）</translation>
    </message>
    <message>
        <source>Every rule decides the same traffic on its own, on a virtual clock: see where each one lets bursts through and where it smooths them.</source>
        <translation>每条限流规则在虚拟时钟上独立判定同一流量：看看每条规则在何处放过突发、在何处将其平滑。</translation>
    </message>
    <message>
        <source>Choose a preset or edit the scenario, then Run.</source>
        <translation>选择一个预设或编辑场景，然后点击“运行”。</translation>
    </message>
    <message numerus="yes">
        <source>Using the %n rule(s) of the Rules page.</source>
        <translation>
            <numerusform>使用“限流规则”页面中的 %n 条规则。</numerusform>
        </translation>
    </message>
    <message>
        <source>Fix the problems marked in the scenario first</source>
        <translation>请先修正场景中标出的问题</translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation>已加载 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Fix the problems marked in the scenario first.</source>
        <translation>请先修正场景中标出的问题。</translation>
    </message>
    <message>
        <source>Not connected to Redis: connect on the Connection page, or run on the in-process twins.</source>
        <translation>未连接到 Redis：请在“连接”页面连接，或使用进程内孪生实现运行。</translation>
    </message>
    <message>
        <source>Nothing was run.</source>
        <translation>未运行任何内容。</translation>
    </message>
    <message>
        <source>Generating about %1 requests…</source>
        <translation>正在生成约 %1 个请求…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Deciding: %1 of %2 requests through every rule</source>
        <translation>正在判定：%2 个请求中的 %1 个已通过每条限流规则</translation>
    </message>
    <message>
        <source>the scripts in Redis</source>
        <translation>Redis 中的脚本</translation>
    </message>
    <message>
        <source>the in-process twins</source>
        <translation>进程内孪生实现</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 requests; the charts show what was decided until then.</source>
        <translation>在 %2 个请求中的第 %1 个后已取消；图表显示截至此时的判定结果。</translation>
    </message>
    <message>
        <source>The run&apos;s keys were removed from Redis.</source>
        <translation>本次运行的键已从 Redis 中删除。</translation>
    </message>
    <message numerus="yes">
        <source>%1 requests through %n rule(s) on %2 in %3 s.</source>
        <translation>
            <numerusform>%1 个请求在 %2 上通过 %n 条限流规则，耗时 %3 s。</numerusform>
        </translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Run a simulation first: there is nothing to export yet.</source>
        <translation>请先运行仿真：目前还没有可导出的内容。</translation>
    </message>
    <message>
        <source>Export the simulation</source>
        <translation>导出仿真</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG 图形 (*.svg)</translation>
    </message>
    <message>
        <source>CSV time series (*.csv)</source>
        <translation>CSV 时间序列 (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>%1: export to .png, .svg or .csv</source>
        <translation>%1：请导出为 .png、.svg 或 .csv</translation>
    </message>
    <message>
        <source>Replay a log…</source>
        <translation>回放日志…</translation>
    </message>
    <message>
        <source>Run your access logs through a rule file: who would have been limited</source>
        <translation>让访问日志通过规则文件：看谁会被限流</translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationRunner</name>
    <message>
        <source>the run stopped without a result</source>
        <translation>运行已停止，但没有结果</translation>
    </message>
</context>
<context>
    <name>sluice::ui::StageBanner</name>
    <message>
        <source>&amp;Promote…</source>
        <translation>启用(&amp;P)…</translation>
    </message>
    <message>
        <source>Enforce the staged rules: a new version in the history</source>
        <translation>让暂存的规则生效：在历史中记为一个新版本</translation>
    </message>
    <message>
        <source>Disc&amp;ard…</source>
        <translation>丢弃(&amp;A)…</translation>
    </message>
    <message>
        <source>Drop the staged rules; the enforced ones stay as they are</source>
        <translation>丢弃暂存的规则；生效的规则保持不变</translation>
    </message>
    <message>
        <source>changes %1</source>
        <translation>修改 %1</translation>
    </message>
    <message>
        <source>adds %1</source>
        <translation>新增 %1</translation>
    </message>
    <message>
        <source>removes %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Staged at version %1 by %2: %3. The service decides by the enforced rules and, in shadow, by these; the Monitor shows them side by side.</source>
        <translation>由 %2 暂存于版本 %1：%3。服务按生效的规则判定，同时以影子模式按这些规则判定；监控页把两者并排显示。</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>某人</translation>
    </message>
    <message>
        <source>Why: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <source>A change is staged, running in shadow</source>
        <translation>有一项变更已暂存，正以影子模式运行</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1，作用于 %2</translation>
    </message>
    <message>
        <source>• %1: %2 → %3</source>
        <translation>• %1：%2 → %3</translation>
    </message>
    <message>
        <source>• %1 stays %2 (not %3)</source>
        <translation>• %1 保持 %2（而不是 %3）</translation>
    </message>
    <message>
        <source>• %1 is added: %2</source>
        <translation>• 新增 %1：%2</translation>
    </message>
    <message>
        <source>• %1 is not added</source>
        <translation>• 不新增 %1</translation>
    </message>
    <message>
        <source>• %1 is removed: its subjects are no longer limited by it</source>
        <translation>• 删除 %1：它的对象不再受它限流</translation>
    </message>
    <message>
        <source>• %1 stays</source>
        <translation>• %1 保留</translation>
    </message>
    <message>
        <source>Promote the change staged at version %1? From then on every service deciding from the store enforces:</source>
        <translation>启用版本 %1 暂存的变更？此后每个从规则存储读取规则的服务都将执行：</translation>
    </message>
    <message>
        <source>Discard the change staged at version %1? The enforced rules stay as they are:</source>
        <translation>丢弃版本 %1 暂存的变更？正在执行的规则保持不变：</translation>
    </message>
    <message>
        <source>The rules here become the promoted version (edits you made after staging are kept, unsaved).</source>
        <translation>此处的规则变为启用后的版本（暂存之后所做的修改会保留，未保存）。</translation>
    </message>
    <message>
        <source>The rules here go back to the enforced ones (edits you made after staging are kept, unsaved).</source>
        <translation>此处的规则回到正在执行的规则（暂存之后所做的修改会保留，未保存）。</translation>
    </message>
    <message>
        <source>Promote the staged change</source>
        <translation>启用暂存的变更</translation>
    </message>
    <message>
        <source>Discard the staged change</source>
        <translation>丢弃暂存的变更</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
</context>
<context>
    <name>sluice::ui::StatsWatch</name>
    <message>
        <source>Statistics are not written: grant %1</source>
        <translation>统计未写入：请授权 %1</translation>
    </message>
    <message>
        <source>Statistics are not written: %1</source>
        <translation>统计未写入：%1</translation>
    </message>
</context>
<context>
    <name>sluice::ui::TopSubjectsModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Denied share</source>
        <translation>拒绝占比</translation>
    </message>
</context>
<context>
    <name>sluice::ui::TtlDelegate</name>
    <message>
        <source>∞ never</source>
        <translation>∞ 永不过期</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>59 min 59 s</source>
        <translation>59 min 59 s</translation>
    </message>
</context>
<context>
    <name>sluice::ui::RuleDiff</name>
    <message>
        <source>(same fields, written differently)</source>
        <translation>（字段相同，写法不同）</translation>
    </message>
</context>
<context>
    <name>sluice::ui::SimulationCharts</name>
    <message>
        <source>cumulative (right)</source>
        <translation>累计（右轴）</translation>
    </message>
    <message>
        <source>admitted %1 of %2 (%3%)</source>
        <translation>放行 %1 / %2（%3%）</translation>
    </message>
    <message>
        <source>%1 in the busiest %2</source>
        <translation>最繁忙的 %2 内 %1</translation>
    </message>
    <message>
        <source>(limit %1: %2×)</source>
        <translation>（限流次数 %1：%2×）</translation>
    </message>
    <message>
        <source>released at most %1 per %2</source>
        <translation>每 %2 最多放出 %1</translation>
    </message>
    <message>
        <source>busiest window</source>
        <translation>最繁忙窗口</translation>
    </message>
    <message>
        <source>offered</source>
        <translation>到达请求</translation>
    </message>
    <message>
        <source>admitted</source>
        <translation>放行</translation>
    </message>
    <message>
        <source>released</source>
        <translation>放出</translation>
    </message>
    <message>
        <source>cumulative admitted</source>
        <translation>累计放行</translation>
    </message>
    <message>
        <source>time since the start of the scenario (s)</source>
        <translation>自场景开始的时间 (s)</translation>
    </message>
    <message>
        <source>/%1</source>
        <translation>/%1</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>%1 requests offered to every rule over %2 · %3 · bins of %4</source>
        <translation>%1 个请求在 %2 内到达每条限流规则 · %3 · 分箱 %4</translation>
    </message>
    <message>
        <source>%1 requests over %2 · %3</source>
        <translation>%1 个请求，历时 %2 · %3</translation>
    </message>
    <message>
        <source>the scripts in Redis</source>
        <translation>Redis 中的脚本</translation>
    </message>
    <message>
        <source>the in-process twins</source>
        <translation>进程内孪生实现</translation>
    </message>
    <message>
        <source>admitted (rule&apos;s colour)</source>
        <translation>放行（规则颜色）</translation>
    </message>
    <message>
        <source>released (leaky bucket)</source>
        <translation>放出（漏桶）</translation>
    </message>
    <message>
        <source>cumulative admitted (right)</source>
        <translation>累计放行（右轴）</translation>
    </message>
    <message>
        <source>busiest %1</source>
        <translation>最繁忙 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Sluice simulation: offered and admitted requests per rule</source>
        <translation>Sluice 仿真：每条限流规则的到达请求与放行请求</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>adopted %1 (%2), %3 per %4</source>
        <translation>接管的 %1（%2），每 %4 %3 次</translation>
    </message>
    <message>
        <source>lost its TTL at %1: never resets</source>
        <translation>在 %1 丢失了 TTL：永不重置</translation>
    </message>
</context>
</TS>
