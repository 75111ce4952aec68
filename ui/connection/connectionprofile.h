#pragma once

#include "core/keys/keyscanner.h"
#include "core/redis/endpoint.h"

#include <QString>
#include <QStringList>

namespace sluice::ui {

// The secrets of a profile: never part of the profile itself. They live in the system keyring,
// or in memory for the session (ProfileStore).
struct ProfileSecrets
{
    QString password;      // the Redis password (AUTH)
    QString sshPassword;   // SSH password authentication
    QString sshPassphrase; // the passphrase of the SSH key file
};

// A named way to reach a Redis server, as kept in QSettings: addresses, names and file paths
// only (ProfileStore). Profiles saved before the transports existed (host, port, db, user) read
// as plain TCP.
struct ConnectionProfile
{
    enum class Transport {
        Tcp,      // host:port
        Tls,      // host:port under TLS (rediss://)
        Unix,     // a Unix socket on this machine
        Sentinel, // the master that the sentinels name
    };

    QString id; // stable key of the settings group and the keyring entry; empty: not saved yet
    QString name;
    Transport transport = Transport::Tcp;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString socketPath; // Unix
    int db = 0;
    QString user;             // empty: the default user
    bool hasPassword = false; // the server wants one (AUTH)
    // Nothing that writes reaches the server (Endpoint::readOnly): the console's write actions
    // are off. The editor turns it on for a new profile whose host is not this machine.
    bool readOnly = false;
    // The most keys a second the console's scans walk on this server (the Keys page and its
    // badge, the Monitor's limited subjects): KeyScanner::Options::maxKeysPerSecond; 0: no
    // budget.
    int scanBudget = int(keys::defaultScanBudget);
    // The Keys page rescans this often (seconds), within the scan budget; 0: only when asked
    // (F5), e.g. to spare a read-only replica.
    int keysRescanSeconds = defaultKeysRescanSeconds;
    static constexpr int defaultKeysRescanSeconds = 10;

    // TLS (Transport::Tls)
    QString tlsCaFile;   // empty: the system's trust store
    QString tlsCertFile; // client certificate, with tlsKeyFile
    QString tlsKeyFile;
    QString tlsServerName; // empty: the host
    bool tlsInsecure = false;

    // Sentinel (Transport::Sentinel)
    QStringList sentinels; // "host:port" each
    QString masterName;

    // An SSH tunnel through a bastion (any transport but none of the secrets)
    bool sshEnabled = false;
    QString sshUser;
    QString sshHost;
    quint16 sshPort = 22;
    QString sshKeyFile;        // empty: the SSH agent, then ~/.ssh's default keys
    QString sshKnownHostsFile; // empty: ~/.ssh/known_hosts
    bool sshAcceptNew = false;
    bool hasSshPassword = false;
    bool hasSshPassphrase = false;

    // "host:port" -> HostPort (26379 when the port is left out), or why not, in core's words.
    static bool parseSentinel(const QString &text, HostPort *out, QString *why)
    {
        const QString t = text.trimmed();
        const qsizetype colon = t.lastIndexOf(QLatin1Char(':'));
        HostPort hp{colon < 0 ? t : t.left(colon), 26379};
        if (hp.host.startsWith(QLatin1Char('[')) && hp.host.endsWith(QLatin1Char(']'))) {
            hp.host = hp.host.mid(1, hp.host.size() - 2);
        }
        if (hp.host.isEmpty()) {
            *why = QStringLiteral("the host is missing");
            return false;
        }
        if (hp.host.contains(QLatin1Char(' ')) || hp.host.contains(QLatin1Char('/'))) {
            *why = QStringLiteral("the host '%1' is not a host name or address").arg(hp.host);
            return false;
        }
        if (colon >= 0) {
            const QString portText = t.mid(colon + 1);
            bool ok = false;
            const uint port = portText.toUInt(&ok);
            if (!ok || portText.startsWith(QLatin1Char('+'))) {
                *why = QStringLiteral("the port '%1' is not a number").arg(portText);
                return false;
            }
            if (port == 0 || port > 65535) {
                *why = QStringLiteral("the port %1 is not between 1 and 65535").arg(portText);
                return false;
            }
            hp.port = quint16(port);
        }
        *out = hp;
        return true;
    }

    Endpoint endpoint(const ProfileSecrets &secrets = {}) const
    {
        Endpoint e;
        e.readOnly = readOnly;
        e.db = db;
        e.user = user;
        e.password = hasPassword ? secrets.password : QString();
        switch (transport) {
        case Transport::Unix:
            e.kind = Endpoint::Kind::Unix;
            e.host.clear();
            e.port = 0;
            e.socketPath = socketPath;
            break;
        case Transport::Sentinel:
            e.kind = Endpoint::Kind::Sentinel;
            e.host.clear();
            e.port = 0;
            e.masterName = masterName;
            for (const QString &s : sentinels) {
                HostPort hp;
                QString why;
                if (parseSentinel(s, &hp, &why)) {
                    e.sentinels << hp;
                }
            }
            break;
        case Transport::Tls:
            e.tls.enabled = true;
            e.tls.caFile = tlsCaFile;
            e.tls.certFile = tlsCertFile;
            e.tls.keyFile = tlsKeyFile;
            e.tls.serverName = tlsServerName;
            e.tls.insecure = tlsInsecure;
            [[fallthrough]];
        case Transport::Tcp:
            e.host = host;
            e.port = port;
            break;
        }
        if (sshEnabled && !sshHost.isEmpty()) {
            e.ssh.user = sshUser;
            e.ssh.host = sshHost;
            e.ssh.port = sshPort;
            e.ssh.keyFile = sshKeyFile;
            e.ssh.knownHostsFile = sshKnownHostsFile;
            e.ssh.acceptNew = sshAcceptNew;
            e.ssh.password = hasSshPassword ? secrets.sshPassword : QString();
            e.ssh.keyPassphrase = hasSshPassphrase ? secrets.sshPassphrase : QString();
        }
        return e;
    }
};

} // namespace sluice::ui
