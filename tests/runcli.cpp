#include "runcli.h"

#include <QProcess>
#include <QTest>

namespace sluice::test {

QString cliPath()
{
    return QStringLiteral(SLUICE_CLI);
}

CliRun runCli(const QStringList &args, const QProcessEnvironment &env, const QByteArray &input,
              int deadlineMs)
{
    QProcess p;
    if (!env.isEmpty()) {
        p.setProcessEnvironment(env);
    }
    p.start(cliPath(), args);
    CliRun run;
    if (!p.waitForStarted(10'000)) {
        run.err = p.errorString().toUtf8();
        return run;
    }
    if (!input.isEmpty()) {
        p.write(input);
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(deadlineMs)) {
        run.timedOut = true;
        p.kill();
        p.waitForFinished(5000);
    }
    run.exitCode = !run.timedOut && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

void checkUsageError(const QStringList &args, const QString &says)
{
    const CliRun r = runCli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData());
}

void usageErrorColumns()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
}

void checkUsageErrorRow(const QString &command)
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    checkUsageError(QStringList{command} + args, says);
}

} // namespace sluice::test
