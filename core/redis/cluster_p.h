#pragma once

// What cluster.cpp (the connections, replies and redirects) and clusterroute.cpp (the command
// shapes and their routes) share.

#include "cluster.h"

#include "core/common/bytes.h"

#include <QSet>

#include <charconv>
#include <chrono>
#include <deque>
#include <optional>
#include <string>

namespace sluice::redis::clusterstep {

inline void appendDecimal(std::string &out, qint64 v)
{
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, size_t(r.ptr - buf));
}

inline QByteArray upper(const char *p, size_t n)
{
    return QByteArray(p, qsizetype(n)).toUpper();
}

// A key for a message: at most 80 bytes of it, printable.
inline QString printable(const QByteArray &key)
{
    return key.size() > 80 ? bytes::printable(key.left(80)) + QStringLiteral("...")
                           : bytes::printable(key);
}

} // namespace sluice::redis::clusterstep

namespace sluice::redis {

// A node: what the map says of it, its connection, and the replies it owes.
struct Cluster::NodeState
{
    Node info;
    std::optional<Connection> conn;
    QSet<QByteArray> loaded; // scripts this node has (SCRIPT LOAD seen to succeed)
    std::deque<Sent> inflight;
    std::chrono::steady_clock::time_point retryAt{};
};

struct Cluster::Op
{
    std::string resp;                            // the command as the caller gave it
    std::vector<std::pair<size_t, size_t>> args; // offset, length in resp
    QByteArray name;                             // upper case
    bool routed = false;
    bool done = false;
    bool hidden = false; // a part of a split command: never returned by readRaw
    bool redirectable = false;
    int slot = -1;
    QByteArray sha;        // EVALSHA: the script
    QByteArray scriptLoad; // SCRIPT LOAD: the script's sha1
    qint64 parent = -1;    // a part: its split command
    int waiting = 0;       // broadcast or split: replies still expected
    bool sums = false;
    qint64 sum = 0;
    int scanIndex = -1; // SCAN: which master (in masters()) it went to
    int scanMasters = 0;
    int attempts = 0;
    RawReply reply;
    RawReply firstError;       // broadcast or split: the first error reply
    std::optional<Error> lost; // written, then the node failed: it may have run
    ReplyBound bound;          // what its reply may be, as the caller stated
};

} // namespace sluice::redis
