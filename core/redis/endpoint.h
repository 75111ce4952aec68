#pragma once

#include "core/common/result.h"

#include <QList>
#include <QString>

namespace sluice {

// TLS for a connection (rediss://). Paths only: the files are read when connecting.
struct TlsOptions
{
    bool enabled = false;
    QString caFile;        // empty: the system's trust store
    QString certFile;      // client certificate (PEM), with keyFile
    QString keyFile;       // its private key (PEM)
    QString serverName;    // SNI and the name the certificate must carry; empty: the host
    bool insecure = false; // no certificate check at all: warned about on every start
};

// An SSH tunnel to the Redis host, through a bastion (--ssh user@host[:port]).
struct SshOptions
{
    QString user;
    QString host; // empty: no tunnel
    quint16 port = 22;
    QString keyFile;        // empty: the SSH agent, then ~/.ssh's default keys
    QString keyPassphrase;  // secret
    QString password;       // secret; password authentication when set
    QString knownHostsFile; // empty: ~/.ssh/known_hosts
    bool acceptNew = false; // an unknown host key is accepted and written to knownHostsFile

    bool isSet() const { return !host.isEmpty(); }
    // user@host:port, for messages
    QString display() const;
};

// host:port of one server (a sentinel, a seed node).
struct HostPort
{
    QString host;
    quint16 port = 0;
    QString display() const;
    friend bool operator==(const HostPort &, const HostPort &) = default;
};

// Where a Redis server is (ARCHITECTURE.md "Connections and topology"):
//   redis://[user:pass@]host:port[/db]
//   rediss://[user:pass@]host:port[/db]                       TLS
//   unix:///path/to/redis.sock[?db=N]
//   redis+sentinel://[user:pass@]host:port[,host:port...]/<master-name>[/db]
//   redis://[user:pass@]host:port,host:port[,...]             Redis Cluster seeds (rediss: TLS)
// plus what flags add (TLS files, an SSH tunnel, a password from a file or REDISCLI_AUTH).
struct Endpoint
{
    enum class Kind {
        Tcp,      // host:port (plain or TLS)
        Unix,     // socketPath
        Sentinel, // ask `sentinels` for `masterName`; host/port then name the master found last
    };
    Kind kind = Kind::Tcp;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    QString socketPath; // Unix
    int db = 0;
    QString user;     // empty: AUTH with the password only (legacy requirepass)
    QString password; // empty: no AUTH

    QList<HostPort> sentinels; // Sentinel
    QString masterName;        // Sentinel
    QString sentinelUser;      // AUTH for the sentinels; empty password: try none, then the
    QString sentinelPassword;  // master's credentials

    // Redis Cluster (Kind::Tcp): the seed addresses (redis://h1:p1,h2:p2, or --url repeated);
    // host/port is the first. Not empty: a cluster. A URL with one address leaves it empty: a
    // cluster is then found on its first MOVED reply (Connection). TLS, user and password apply
    // to every node.
    QList<HostPort> seeds;
    // One node of a cluster, talked to as such (a cluster's own per-node connections): a MOVED
    // reply is passed on, never followed.
    bool singleNode = false;
    bool isCluster() const { return kind == Kind::Tcp && !seeds.isEmpty(); }

    TlsOptions tls;
    SshOptions ssh;

    // Nothing that writes reaches the server: Connection refuses every command that is not a
    // read (see Connection), whatever the caller does. Set by a read-only console profile or
    // --read-only.
    bool readOnly = false;

    // Errors name the URL (without its password) and the part that is wrong.
    static Result<Endpoint> parse(const QString &url);
    // Several URLs naming one Redis Cluster (--url given more than once): each a redis:// or
    // rediss:// URL of one or more seeds, all with the same scheme; user and password from the
    // first that has them. One URL: parse(url).
    static Result<Endpoint> parseAll(const QStringList &urls);
    // Where it is, for messages and the status bar: never a password.
    //   host:port[/db], /path/redis.sock[/db], master@h1:p1,h2:p2[/db]; " (TLS)" and
    //   " via ssh user@bastion" added when they apply.
    QString display() const;
    // The URL without its password: redis://[user@]host:port[/db], rediss://..., unix://...,
    // redis+sentinel://...
    QString safeUrl() const;
    // True when any secret (password, sentinel password, SSH password or passphrase) is set.
    bool hasSecret() const;
    // The loopback or local-socket check used for read-only defaults.
    bool isLocal() const;
};

// Where a URL's password is: url[passwordStart, at) is the password, url[start, at) the whole
// user-info part ("user:pass" or a lone "pass"), url[at] its '@'. All -1 when there is none.
// The one reading of user info that masking, stripping and argv hiding share.
struct UserInfoSpan
{
    qsizetype start = -1;
    qsizetype passwordStart = -1;
    qsizetype at = -1;
    bool found() const { return at >= 0; }
};
UserInfoSpan userInfoSpan(const QString &url);

// The URL as given, with its password removed (user:pass@ becomes user:@, a lone pass@ goes),
// for a child process that gets the password some other way.
QString urlWithoutPassword(const QString &url);

// A URL as the user typed it, with any password masked (user:***@, or ***@ for a lone
// user-info part), for messages.
QString maskedUrl(const QString &url);

} // namespace sluice
