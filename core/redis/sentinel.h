#pragma once

// Redis Sentinel: finding the master that a set of sentinels monitors (ARCHITECTURE.md
// "Connections and topology": a Sentinel-discovered master that may move).

#include "connection.h"
#include "endpoint.h"
#include "errors.h"

#include "core/common/result.h"

#include <chrono>

namespace sluice::redis {

// Asks the sentinels, in order, for the master's address (SENTINEL GET-MASTER-ADDR-BY-NAME),
// then checks it with ROLE that it is a master. Returns a Kind::Tcp endpoint for the master
// with the same db, credentials, TLS and SSH options as `sentinelEndpoint` (the sentinel list
// and the sentinel credentials are not carried over).
//
// Sentinels are reached over a plain Kind::Tcp endpoint (db 0; TLS and SSH as the master's),
// with AUTH sentinelUser/sentinelPassword when a sentinel password is set; otherwise without
// AUTH, and again with the master's user/password if the sentinel answers NOAUTH.
//
// Time: each sentinel (and the ROLE check of the address it gives) gets a short slice of
// `deadline` (deadline / number of sentinels, 200 ms to 1 s); the whole call returns within
// about `deadline`. A master whose ROLE says "slave" (a failover in progress) or that cannot
// be reached is asked again after a short back-off (50 ms doubling to 400 ms) while time is
// left.
//
// Errors (never with a password):
//   Invalid  not a redis+sentinel:// endpoint; or every sentinel answered and none knows the
//            master: "no sentinel knows a master named 'x' (asked h1:p1, h2:p2)"
//   Io / Timeout  no sentinel could be reached (each named, with why; Timeout when every one
//            timed out); or the master stayed a replica / unreachable until the deadline:
//            "master 'x' at A is a replica: a failover is in progress ..."
//   Auth     the master refused the credentials (not retried: waiting does not fix a password)
// Blocking; any thread (it opens its own connections).
Result<Endpoint> resolveMaster(const Endpoint &sentinelEndpoint,
                               std::chrono::milliseconds deadline);

// resolveMaster() within options.connectTimeout, then Connection::open on the master found.
// The connection's endpoint() is the master's Kind::Tcp endpoint: a reconnect() goes back to
// that address. To follow a later failover, call this again with the sentinel endpoint.
// (Until Connection::connectNow resolves Kind::Sentinel itself, which then folds this in.)
Result<Connection> openSentinelMaster(const Endpoint &sentinelEndpoint,
                                      Connection::Options options);

} // namespace sluice::redis
