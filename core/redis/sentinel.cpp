#include "sentinel.h"

#include "core/common/bytes.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>
#include <thread>

namespace sluice::redis {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// One sentinel's share of the deadline (and that of the ROLE check of the address it gives):
// short, so that a dead first sentinel leaves time for the others.
constexpr milliseconds minSlice{200};
constexpr milliseconds maxSlice{1000};
// Less time than this left: not worth a connect (and hiredis reads a zero timeout as "none").
constexpr milliseconds minUseful{5};
// Between two rounds while the master is a replica or unreachable (a failover in progress).
constexpr milliseconds firstBackoff{50};
constexpr milliseconds maxBackoff{400};

milliseconds left(Clock::time_point end)
{
    return std::chrono::duration_cast<milliseconds>(end - Clock::now());
}

Connection::Options optionsWithin(milliseconds per, Clock::time_point end)
{
    const milliseconds slice = std::max(minUseful, std::min(per, left(end)));
    return Connection::Options{slice, slice};
}

// A plain connection to one sentinel: db 0 (no SELECT), TLS and SSH as for the master.
Endpoint sentinelAt(const Endpoint &e, const HostPort &hp, bool masterCredentials)
{
    Endpoint s;
    s.kind = Endpoint::Kind::Tcp;
    s.host = hp.host;
    s.port = hp.port;
    s.db = 0;
    s.user = masterCredentials ? e.user : e.sentinelUser;
    s.password = masterCredentials ? e.password : e.sentinelPassword;
    if (e.tls.enabled) {
        s.tls = e.tls;
    }
    s.ssh = e.ssh;
    return s;
}

Endpoint masterAt(const Endpoint &e, const HostPort &hp)
{
    Endpoint m = e;
    m.kind = Endpoint::Kind::Tcp;
    m.host = hp.host;
    m.port = hp.port;
    m.sentinels.clear();
    m.masterName.clear();
    m.sentinelUser.clear();
    m.sentinelPassword.clear();
    return m;
}

// SENTINEL GET-MASTER-ADDR-BY-NAME on one sentinel. Without a sentinel password it goes in
// without AUTH first, and again with the master's credentials if the sentinel says NOAUTH.
Result<Reply> askSentinel(const Endpoint &e, const HostPort &hp, milliseconds per,
                          Clock::time_point end)
{
    const bool ownCredentials = !e.sentinelPassword.isEmpty();
    bool masterCredentials = false;
    for (;;) {
        if (left(end) < minUseful) {
            return Error::make(Error::Kind::Timeout,
                               QStringLiteral("not asked: the deadline ran out first"));
        }
        auto c = Connection::open(sentinelAt(e, hp, masterCredentials), optionsWithin(per, end));
        if (!c) {
            return c.error();
        }
        auto r = c->command({QByteArrayLiteral("SENTINEL"),
                             QByteArrayLiteral("GET-MASTER-ADDR-BY-NAME"), e.masterName.toUtf8()});
        if (!r && r.error().kind == Error::Kind::Auth && !ownCredentials && !masterCredentials &&
            !e.password.isEmpty()) {
            masterCredentials = true;
            continue;
        }
        return r;
    }
}

// What the address a sentinel gave turned out to be.
struct Check
{
    enum class Outcome {
        Master,      // ROLE master: done
        Replica,     // ROLE slave: a failover in progress (or a stale sentinel)
        Unreachable, // could not connect or ROLE got no answer: maybe dead, maybe failing over
        Fatal,       // the credentials or the database are refused: waiting will not help
        Other,       // ROLE says sentinel, or something unexpected
    };
    Outcome outcome = Outcome::Other;
    Error error; // Unreachable, Fatal, Other
};

Check checkRole(const Endpoint &master, milliseconds per, Clock::time_point end)
{
    auto c = Connection::open(master, optionsWithin(per, end));
    if (!c) {
        if (c.error().kind == Error::Kind::Auth || c.error().kind == Error::Kind::Invalid) {
            return Check{Check::Outcome::Fatal, c.error()};
        }
        return Check{Check::Outcome::Unreachable, c.error()};
    }
    auto role = c->command({QByteArrayLiteral("ROLE")});
    if (!role) {
        if (role.error().kind == Error::Kind::Auth) {
            // A least-privilege user may not run ROLE: the sentinel's word is taken. A stale
            // address shows up later as READONLY, which makes the caller resolve again.
            return Check{Check::Outcome::Master, {}};
        }
        if (role.error().isConnectionLoss()) {
            return Check{Check::Outcome::Unreachable, role.error()};
        }
        return Check{Check::Outcome::Other, role.error()};
    }
    const QByteArray what =
        role->isArray() && !role->elements.empty() ? role->elements.front().str : QByteArray();
    if (what == "master") {
        return Check{Check::Outcome::Master, {}};
    }
    if (what == "slave") {
        return Check{Check::Outcome::Replica, {}};
    }
    return Check{Check::Outcome::Other,
                 Error::make(Error::Kind::Reply,
                             QStringLiteral("ROLE says '%1', not master")
                                 .arg(what.isEmpty() ? QStringLiteral("?") : bytes::quoted(what)))};
}

std::optional<HostPort> addressOf(const Reply &r)
{
    if (!r.isArray() || r.elements.size() != 2 || r.elements[0].str.isEmpty()) {
        return std::nullopt;
    }
    bool ok = false;
    const uint port = r.elements[1].str.toUInt(&ok);
    if (!ok || port == 0 || port > 65535) {
        return std::nullopt;
    }
    return HostPort{QString::fromUtf8(r.elements[0].str), quint16(port)};
}

QString joined(const QStringList &list)
{
    return list.join(QStringLiteral(", "));
}

} // namespace

Result<Endpoint> resolveMaster(const Endpoint &e, std::chrono::milliseconds deadline)
{
    if (e.kind != Endpoint::Kind::Sentinel) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("%1 is not a redis+sentinel:// address").arg(e.display()));
    }
    if (e.sentinels.isEmpty() || e.masterName.isEmpty()) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("a redis+sentinel:// address needs at least one "
                                          "sentinel and a master name"));
    }
    const Clock::time_point start = Clock::now();
    const Clock::time_point end = start + deadline;
    const milliseconds per =
        std::clamp(milliseconds(deadline.count() / e.sentinels.size()), minSlice, maxSlice);
    QStringList asked;
    for (const HostPort &hp : e.sentinels) {
        asked << hp.display();
    }
    milliseconds backoff = firstBackoff;
    int rounds = 0;
    for (;;) {
        ++rounds;
        QStringList unknown;      // answered: no such master
        QStringList failures;     // "sentinel h:p: why"
        QList<Error::Kind> kinds; // of the failures
        // The last address that was a replica or unreachable: worth asking again.
        std::optional<HostPort> transientAt;
        std::optional<Check> transient;
        for (const HostPort &hp : e.sentinels) {
            auto r = askSentinel(e, hp, per, end);
            if (!r) {
                failures << QStringLiteral("sentinel %1: %2").arg(hp.display(), r.error().message);
                kinds << r.error().kind;
                continue;
            }
            if (r->isNil()) {
                unknown << hp.display();
                continue;
            }
            const std::optional<HostPort> at = addressOf(*r);
            if (!at) {
                failures << QStringLiteral("sentinel %1: its answer is not an address")
                                .arg(hp.display());
                kinds << Error::Kind::Protocol;
                continue;
            }
            const Endpoint master = masterAt(e, *at);
            if (left(end) < minUseful) {
                transientAt = at;
                transient = Check{Check::Outcome::Unreachable,
                                  Error::make(Error::Kind::Timeout,
                                              QStringLiteral("the deadline ran out first"))};
                break;
            }
            Check check = checkRole(master, per, end);
            switch (check.outcome) {
            case Check::Outcome::Master:
                return master;
            case Check::Outcome::Fatal:
                return Error::make(check.error.kind,
                                   QStringLiteral("master '%1' (from sentinel %2): %3")
                                       .arg(e.masterName, hp.display(), check.error.message));
            case Check::Outcome::Replica:
            case Check::Outcome::Unreachable:
                // Another sentinel may know the new master already.
                transientAt = at;
                transient = std::move(check);
                break;
            case Check::Outcome::Other:
                failures << QStringLiteral("sentinel %1 names %2 as the master: %3")
                                .arg(hp.display(), at->display(), check.error.message);
                kinds << Error::Kind::Reply;
                break;
            }
        }
        if (transient) {
            if (left(end) > backoff + minUseful) {
                std::this_thread::sleep_for(backoff);
                backoff = std::min(backoff * 2, maxBackoff);
                continue;
            }
            const qint64 ms =
                std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
            const QString tries = QStringLiteral("asked %1 sentinel round(s) in %2 ms: %3")
                                      .arg(rounds)
                                      .arg(ms)
                                      .arg(joined(asked));
            if (transient->outcome == Check::Outcome::Replica) {
                return Error::make(Error::Kind::Io,
                                   QStringLiteral("master '%1' at %2 is a replica: a failover is "
                                                  "in progress (%3)")
                                       .arg(e.masterName, transientAt->display(), tries));
            }
            return Error::make(
                transient->error.kind == Error::Kind::Timeout ? Error::Kind::Timeout
                                                              : Error::Kind::Io,
                QStringLiteral("master '%1' at %2 cannot be reached (%3): %4")
                    .arg(e.masterName, transientAt->display(), tries, transient->error.message));
        }
        if (unknown.size() == e.sentinels.size()) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("no sentinel knows a master named '%1' (asked %2)")
                                   .arg(e.masterName, joined(asked)));
        }
        // Some failed. The kind: timeout or auth when every failure is one, else io.
        Error::Kind kind = Error::Kind::Io;
        if (unknown.isEmpty() && !kinds.isEmpty() &&
            std::all_of(kinds.begin(), kinds.end(), [&](Error::Kind k) { return k == kinds[0]; }) &&
            (kinds[0] == Error::Kind::Timeout || kinds[0] == Error::Kind::Auth)) {
            kind = kinds[0];
        }
        if (!unknown.isEmpty()) {
            failures.prepend(QStringLiteral("%1 do not know it").arg(joined(unknown)));
        }
        const bool none = unknown.isEmpty() && failures.size() == e.sentinels.size();
        return Error::make(kind, QStringLiteral("%1 of master '%2': %3")
                                     .arg(none ? QStringLiteral("cannot reach any sentinel")
                                               : QStringLiteral("no sentinel gave the address"),
                                          e.masterName, failures.join(QStringLiteral("; "))));
    }
}

Result<Connection> openSentinelMaster(const Endpoint &sentinelEndpoint, Connection::Options options)
{
    if (sentinelEndpoint.kind != Endpoint::Kind::Sentinel) {
        return Connection::open(sentinelEndpoint, options);
    }
    auto master = resolveMaster(sentinelEndpoint, options.connectTimeout);
    if (!master) {
        return master.error();
    }
    return Connection::open(*master, options);
}

} // namespace sluice::redis
