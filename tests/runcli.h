#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QStringList>

namespace sluice::test {

// What one run of sluice-cli did.
struct CliRun
{
    int exitCode = -1; // -1: it crashed, or was killed at the deadline
    QByteArray out;    // stdout
    QByteArray err;    // stderr
    bool timedOut = false;
};

// Runs the sluice-cli this build made (the SLUICE_CLI path baked in at compile time) with
// `args`, as a user would: `env` replaces the environment when not empty (else the test's own
// is inherited), `input` is written to its stdin, which is then closed. Waits at most
// `deadlineMs`; a run still going then is killed and reported as timedOut.
CliRun runCli(const QStringList &args, const QProcessEnvironment &env = {},
              const QByteArray &input = {}, int deadlineMs = 120'000);

// The path of that sluice-cli.
QString cliPath();

} // namespace sluice::test
