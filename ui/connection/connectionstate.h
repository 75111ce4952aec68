#pragma once

#include "clusternodes.h"

#include "core/redis/endpoint.h"
#include "core/redis/serverfeatures.h"

#include <QMetaType>
#include <QString>

namespace sluice::ui {

// What the console knows about its connection to Redis, as a value: the worker emits a fresh
// snapshot on every change (and after every ping, once a second); the status bar and the pages
// only read it. Never holds a password.
struct ConnectionState
{
    enum class State {
        Idle,       // not connected, not trying
        Connecting, // first attempt for this request
        Connected,  // the last ping answered
        Lost,       // a transport failure: retrying by itself, see retryInSeconds
        Failed,     // retrying cannot help (wrong password, bad database): the user must act
    };

    State state = State::Idle;
    quint64 request = 0;    // the request it answers (ConnectionRequest::id)
    QString label;          // the profile's name, "sandbox", ...
    QString endpoint;       // Endpoint::display(): host:port[/db], " (TLS)", " via ssh ..."
    bool readOnly = false;  // the endpoint sends reads only (Endpoint::readOnly)
    QString redisVersion;   // last known; kept while the connection is lost
    double rttMs = -1;      // last round trip of a PING, in ms; < 0: not measured yet
    QString error;          // short reason in the user's words ("connection refused")
    QString hint;           // what to do about it, one sentence
    QString detail;         // what the server or the OS said, for the curious
    int retryInSeconds = 0; // Lost: seconds to the next attempt; 0: attempting now
    // Failed on an SSH host key that known_hosts does not have: detail shows its fingerprint,
    // and connecting again with trustHostKeyOnce accepts it.
    bool unknownHostKey = false;
    // Redis Cluster: the server is a cluster node (INFO cluster: cluster_enabled:1). A profile
    // of one node's address then connects to the whole cluster (its address as the seed).
    bool cluster = false;
    // The nodes as CLUSTER NODES showed them last (every 2 s while connected); kept while
    // the connection is lost. nodesError: why the last read failed; empty when it worked.
    QList<ClusterNode> nodes;
    QString nodesError;
    // What the server offers beyond Redis 7.0 (COMMAND INFO at connect, by name, never by
    // version); kept while the connection is lost. Unknown (with why) when COMMAND is refused.
    redis::ServerFeatures server;

    bool isUp() const { return state == State::Connected; }
};

// A request to the worker: which server, and a label for messages. Carries the password to the
// worker thread, never further.
struct ConnectionRequest
{
    quint64 id = 0;
    QString label;
    Endpoint endpoint;
    // Accept an unknown SSH host key (writing it to known_hosts) on the first attempt only.
    bool trustHostKeyOnce = false;
};

// "0.3 ms", "12 ms": the round trip as the status bar and the page show it.
QString formatRtt(double ms);

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::ConnectionState)
Q_DECLARE_METATYPE(sluice::ui::ConnectionRequest)
