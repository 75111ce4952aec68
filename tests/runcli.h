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

// Runs sluice-cli with `args` and checks that it refused them as a usage error: exit 2, `says`
// in its stderr, nothing on its stdout. The checks are QTest's: a failure ends this function,
// not the caller's test function (call it last, or test QTest::currentTestFailed() after it).
void checkUsageError(const QStringList &args, const QString &says);
// The columns of a table of usage errors: "args" (a command's arguments) and "says".
void usageErrorColumns();
// checkUsageError() on the current row of such a table: sluice-cli `command` with the row's
// args, refused in the row's words.
void checkUsageErrorRow(const QString &command);

// The path of that sluice-cli.
QString cliPath();

} // namespace sluice::test
