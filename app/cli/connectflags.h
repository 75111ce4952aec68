#pragma once

#include "args.h"

#include "core/redis/endpoint.h"

#include <vector>

namespace sluice::cli {

// The flags that say how to reach Redis, accepted by every command that takes --url
// (Args::parse adds them): TLS files, an SSH tunnel, the password from a file. Never a secret
// on the command line: --password-file and $REDISCLI_AUTH (redis-cli's convention) carry the
// Redis password, --ssh-password-file and $SLUICE_SSH_KEY_PASSPHRASE the SSH ones.
const std::vector<Flag> &connectionFlags();

// The endpoint of --url plus those flags. Usage errors (a malformed URL, a TLS flag without
// TLS, a missing or unreadable file) come back as Kind::Invalid naming the flag; they never
// carry a password. Warnings (a password in the URL, --tls-insecure) are printed to stderr as
// "sluice-cli <command>: warning: ...", once per call.
// A single --url address that is a Redis Cluster node becomes that whole cluster (its seed), and
// a cluster that is down or leaves slots unserved is warned about, naming the slots; --no-cluster
// keeps the one node (redis::discoverCluster).
Result<Endpoint> endpointFromArgs(const Args &args, const QString &command);

// Overwrites the password part of every redis[s]://user:pass@ argument in place, so that ps and
// /proc/<pid>/cmdline show "****" from then on (the arguments were copied before).
void hidePasswordsInArgv(int argc, char **argv);

} // namespace sluice::cli
