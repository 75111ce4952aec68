#include "connectflags.h"

#include "core/redis/topology.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <cstdio>

namespace sluice::cli {

const std::vector<Flag> &connectionFlags()
{
    static const std::vector<Flag> flags = {
        {"tls", false},
        {"tls-ca", true},
        {"tls-cert", true},
        {"tls-key", true},
        {"tls-server-name", true},
        {"tls-insecure", false},
        {"read-only", false},
        {"password-file", true},
        {"ssh", true},
        {"ssh-key", true},
        {"ssh-known-hosts", true},
        {"ssh-accept-new", false},
        {"ssh-password-file", true},
        {"no-cluster", false},
    };
    return flags;
}

namespace {

void warn(const QString &command, const QString &text)
{
    const QByteArray line =
        QStringLiteral("sluice-cli %1: warning: %2\n").arg(command, text).toLocal8Bit();
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
}

Error usage(const QString &text)
{
    return Error::make(Error::Kind::Invalid, text);
}

Result<void> readableFile(const Args &args, const char *flag)
{
    const QString path = args.text(flag);
    const QFileInfo fi(path);
    if (path.isEmpty()) {
        return usage(QStringLiteral("--%1 needs a file name").arg(QLatin1String(flag)));
    }
    if (!fi.exists()) {
        return usage(QStringLiteral("--%1 %2: no such file").arg(QLatin1String(flag), path));
    }
    if (!fi.isFile() || !fi.isReadable()) {
        return usage(QStringLiteral("--%1 %2: not a readable file").arg(QLatin1String(flag), path));
    }
    return {};
}

// The first line of a secret file, without its line end. The file's contents never appear in
// a message.
Result<QString> secretFrom(const Args &args, const char *flag)
{
    if (auto r = readableFile(args, flag); !r) {
        return r.error();
    }
    QFile f(args.text(flag));
    if (!f.open(QIODevice::ReadOnly)) {
        return usage(QStringLiteral("--%1 %2: %3")
                         .arg(QLatin1String(flag), args.text(flag), f.errorString()));
    }
    QByteArray data = f.read(64 * 1024);
    if (const qsizetype nl = data.indexOf('\n'); nl >= 0) {
        data.truncate(nl);
    }
    if (data.endsWith('\r')) {
        data.chop(1);
    }
    if (data.isEmpty()) {
        return usage(
            QStringLiteral("--%1 %2: the file is empty").arg(QLatin1String(flag), args.text(flag)));
    }
    return QString::fromUtf8(data);
}

// What each command writes, for --read-only: refused before connecting (exit 2).
Result<void> refusedReadOnly(const Args &args, const QString &command)
{
    static const QHash<QString, QString> writes = {
        {QStringLiteral("check"), QStringLiteral("a decision updates its counter")},
        {QStringLiteral("serve"), QStringLiteral("decisions update their counters")},
        {QStringLiteral("load"), QStringLiteral("it sends real decisions")},
        {QStringLiteral("bench"), QStringLiteral("it sends real decisions")},
        {QStringLiteral("simulate"), QStringLiteral("a run on Redis writes its keys")},
        {QStringLiteral("keys fix"), QStringLiteral("it sets TTLs and deletes keys")},
        {QStringLiteral("rules push"), QStringLiteral("it writes the rule store")},
    };
    if (args.has("read-only") && writes.contains(command)) {
        return usage(QStringLiteral("--read-only: '%1' writes to Redis (%2); run it without "
                                    "--read-only, or use a read-only command (keys, rules pull)")
                         .arg(command, writes.value(command)));
    }
    return {};
}

// The password: --password-file, else the URL's (warned about), else $REDISCLI_AUTH.
Result<void> applyPassword(const Args &args, const QString &command, Endpoint &e)
{
    if (!e.password.isEmpty()) {
        warn(command, QStringLiteral("a password in --url can be seen by other users of this "
                                     "machine (ps, shell history); prefer --password-file FILE "
                                     "or REDISCLI_AUTH"));
    }
    if (args.has("password-file")) {
        auto secret = secretFrom(args, "password-file");
        if (!secret) {
            return secret.error();
        }
        e.password = *secret;
    } else if (e.password.isEmpty()) {
        const QByteArray env = qgetenv("REDISCLI_AUTH");
        if (!env.isEmpty()) {
            e.password = QString::fromUtf8(env);
        }
    }
    return {};
}

// --tls and its files; --tls-insecure warned about.
Result<void> applyTls(const Args &args, const QString &command, Endpoint &e)
{
    const bool tlsFlags = args.has("tls-ca") || args.has("tls-cert") || args.has("tls-key") ||
                          args.has("tls-server-name") || args.has("tls-insecure");
    if (args.has("tls")) {
        e.tls.enabled = true;
    }
    if (e.kind == Endpoint::Kind::Unix && e.tls.enabled) {
        return usage(QStringLiteral("--tls: TLS over a Unix socket is not supported"));
    }
    if (tlsFlags && !e.tls.enabled) {
        return usage(QStringLiteral("TLS options need TLS: use rediss:// (or --tls)"));
    }
    for (const char *flag : {"tls-ca", "tls-cert", "tls-key"}) {
        if (args.has(flag)) {
            if (auto r = readableFile(args, flag); !r) {
                return r.error();
            }
        }
    }
    if (args.has("tls-cert") != args.has("tls-key")) {
        return usage(QStringLiteral("--tls-cert and --tls-key go together: give both"));
    }
    e.tls.caFile = args.text("tls-ca");
    e.tls.certFile = args.text("tls-cert");
    e.tls.keyFile = args.text("tls-key");
    e.tls.serverName = args.text("tls-server-name");
    e.tls.insecure = args.has("tls-insecure");
    e.readOnly = args.has("read-only");
    if (e.tls.insecure) {
        warn(command, QStringLiteral("--tls-insecure: the server's certificate is not checked; "
                                     "anyone between here and %1 can read and change the "
                                     "traffic, passwords included")
                          .arg(e.display()));
    }
    return {};
}

// --ssh user@host[:port] (host may be [v6]) into e.ssh's user, host and port.
Result<void> sshAddress(const QString &spec, Endpoint &e)
{
    const qsizetype at = spec.indexOf(QLatin1Char('@'));
    if (at <= 0) {
        return usage(QStringLiteral("--ssh '%1': expected user@host[:port]").arg(spec));
    }
    e.ssh.user = spec.left(at);
    QString hostPort = spec.mid(at + 1);
    quint16 port = 22;
    if (hostPort.startsWith(QLatin1Char('['))) {
        const qsizetype close = hostPort.indexOf(QLatin1Char(']'));
        if (close < 0) {
            return usage(QStringLiteral("--ssh '%1': the IPv6 address has no ']'").arg(spec));
        }
        const QString rest = hostPort.mid(close + 1);
        e.ssh.host = hostPort.mid(1, close - 1);
        if (rest.startsWith(QLatin1Char(':'))) {
            hostPort = QStringLiteral("x") + rest; // only the port is left to read
        } else if (!rest.isEmpty()) {
            return usage(QStringLiteral("--ssh '%1': expected user@host[:port]").arg(spec));
        } else {
            hostPort.clear();
        }
    }
    if (!hostPort.isEmpty()) {
        const qsizetype colon = hostPort.lastIndexOf(QLatin1Char(':'));
        if (e.ssh.host.isEmpty()) {
            e.ssh.host = colon >= 0 ? hostPort.left(colon) : hostPort;
        }
        if (colon >= 0) {
            bool ok = false;
            const uint p = hostPort.mid(colon + 1).toUInt(&ok);
            if (!ok || p == 0 || p > 65535) {
                return usage(QStringLiteral("--ssh '%1': the port '%2' is not between 1 and "
                                            "65535")
                                 .arg(spec, hostPort.mid(colon + 1)));
            }
            port = quint16(p);
        }
    }
    if (e.ssh.host.isEmpty()) {
        return usage(QStringLiteral("--ssh '%1': the host is missing").arg(spec));
    }
    e.ssh.port = port;
    return {};
}

// --ssh and its key, known hosts and password; the key's passphrase from the environment.
Result<void> applySsh(const Args &args, Endpoint &e)
{
    const bool sshFlags = args.has("ssh-key") || args.has("ssh-known-hosts") ||
                          args.has("ssh-accept-new") || args.has("ssh-password-file");
    if (sshFlags && !args.has("ssh")) {
        return usage(QStringLiteral("SSH options need --ssh user@host[:port]"));
    }
    if (!args.has("ssh")) {
        return {};
    }
    if (e.kind == Endpoint::Kind::Unix) {
        return usage(QStringLiteral("--ssh: a Unix socket cannot be reached through a tunnel"));
    }
    if (auto r = sshAddress(args.text("ssh"), e); !r) {
        return r.error();
    }
    if (args.has("ssh-key")) {
        if (auto r = readableFile(args, "ssh-key"); !r) {
            return r.error();
        }
        e.ssh.keyFile = args.text("ssh-key");
    }
    e.ssh.knownHostsFile = args.text("ssh-known-hosts");
    e.ssh.acceptNew = args.has("ssh-accept-new");
    if (args.has("ssh-password-file")) {
        auto secret = secretFrom(args, "ssh-password-file");
        if (!secret) {
            return secret.error();
        }
        e.ssh.password = *secret;
    }
    const QByteArray passphrase = qgetenv("SLUICE_SSH_KEY_PASSPHRASE");
    if (!passphrase.isEmpty()) {
        e.ssh.keyPassphrase = QString::fromUtf8(passphrase);
    }
    return {};
}

// Topology: one address that is a Redis Cluster node means that whole cluster, for every
// command (a scan of one node of three would list a third of the keys and call it clean).
// --no-cluster talks to the address alone (a cluster is then found on the first MOVED reply,
// as before). An address that does not answer is left as it is: the command says so when it
// connects (and serve starts anyway, answering by on_redis_error).
Result<void> probeCluster(const Args &args, const QString &command, Endpoint &e)
{
    if (args.has("no-cluster") || !redis::mayBeClusterNode(e)) {
        return {};
    }
    const QString address = e.display();
    auto probe = redis::discoverCluster(e);
    // check against a server that took the connection and then did not answer in time
    // (stalled): its own connect would wait the deadline out a second time, so it ends here
    // (exit 1), within one deadline.
    if (!probe && probe.error().kind == Error::Kind::Timeout && command == QLatin1String("check")) {
        return probe.error();
    }
    if (probe && probe->clusterNode) {
        if (const QString problem = probe->problem(address); !problem.isEmpty()) {
            warn(command,
                 problem + QStringLiteral("; keys in those slots cannot be read or written"));
        }
    }
    return {};
}

} // namespace

Result<Endpoint> endpointFromArgs(const Args &args, const QString &command)
{
    if (auto r = refusedReadOnly(args, command); !r) {
        return r.error();
    }
    auto parsed = Endpoint::parseAll(args.text("url").split(QLatin1Char('\n')));
    if (!parsed) {
        Error e = parsed.error();
        e.message = QStringLiteral("--url: ") + e.message;
        return e;
    }
    Endpoint e = *parsed;
    Result<void> r = applyPassword(args, command, e);
    r = r ? applyTls(args, command, e) : r;
    r = r ? applySsh(args, e) : r;
    r = r ? probeCluster(args, command, e) : r;
    if (!r) {
        return r.error();
    }
    return e;
}

void hidePasswordsInArgv(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromUtf8(argv[i]);
        const UserInfoSpan span = userInfoSpan(arg);
        if (!span.found() || !arg.contains(QStringLiteral("://"))) {
            continue;
        }
        // The span in bytes of the argument as it is in memory.
        const qsizetype from = arg.left(span.passwordStart).toUtf8().size();
        const qsizetype to = arg.left(span.at).toUtf8().size();
        for (qsizetype p = from; p < to; ++p) {
            argv[i][p] = '*';
        }
    }
}

} // namespace sluice::cli
