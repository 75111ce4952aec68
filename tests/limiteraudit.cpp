#include "limiteraudit.h"

#include "runcli.h"
#include "testredis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTest>

using namespace Qt::StringLiterals;

namespace sluice::test {

QMap<QString, QJsonObject> auditKeys(const QByteArray &match)
{
    const CliRun r = runCli({u"keys"_s, u"audit"_s, u"--url"_s, redisUrl(), u"--match"_s,
                             QString::fromLatin1(match), u"--json"_s});
    QMap<QString, QJsonObject> out;
    if (r.exitCode != 0) {
        qWarning().noquote() << r.err;
        return out;
    }
    const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    for (const QJsonValue &v : doc.value(u"keys"_s).toArray()) {
        out.insert(v[u"key"_s].toString(), v.toObject());
    }
    return out;
}

QStringList wouldFix(const QByteArray &match)
{
    const CliRun r =
        runCli({u"keys"_s, u"fix"_s, u"--url"_s, redisUrl(), u"--match"_s,
                QString::fromLatin1(match), u"--ttl"_s, u"1h"_s, u"--dry-run"_s, u"--json"_s});
    QStringList out;
    for (const QJsonValue &v : QJsonDocument::fromJson(r.out).object().value(u"keys"_s).toArray()) {
        if (v[u"status"_s].toString() == u"would_do"_s) {
            out << v[u"key"_s].toString();
        }
    }
    return out;
}

void expectEntry(const QJsonObject &e, const QString &layout, const QString &health,
                 const QString &lostTtl)
{
    QVERIFY2(!e.isEmpty(), "the key is not in the audit");
    QCOMPARE(e[u"layout"_s].toString(), layout);
    QCOMPARE(e[u"health"_s].toString(), health);
    QCOMPARE(e[u"lost_ttl"_s].toString(), lostTtl);
}

QJsonObject auditThenPersist(const QByteArray &key, const QString &layout, const QString &lostTtl,
                             const QString &state, const QString &after)
{
    const QString name = QString::fromLatin1(key);
    const QJsonObject before = auditKeys(key).value(name);
    expectEntry(before, layout, u"ok"_s, lostTtl);
    if (QTest::currentTestFailed()) {
        return {};
    }
    if (!before[u"state"_s].toString().startsWith(state)) {
        qWarning().noquote() << "state:" << before[u"state"_s].toString();
        return {};
    }
    Connection c = connect();
    if (!c.command({"PERSIST", key})) {
        return {};
    }
    const QJsonObject e = auditKeys(key).value(name);
    expectEntry(e, layout, after, lostTtl);
    return QTest::currentTestFailed() ? QJsonObject() : e;
}

bool persistBlockingKey(const QByteArray &key, const QString &layout, const QString &state)
{
    const QJsonObject e = auditThenPersist(key, layout, u"blocks_subject"_s, state);
    if (e.isEmpty()) {
        return false;
    }
    const QString cause = e[u"cause"_s].toString();
    if (!cause.contains(u"denies its subject until someone deletes it"_s)) {
        qWarning().noquote() << "cause:" << cause;
        return false;
    }
    return wouldFix(key) == QStringList{QString::fromLatin1(key)};
}

QJsonObject runDriver(const QString &program, const QStringList &args,
                      const QProcessEnvironment &env)
{
    QProcess run;
    if (!env.isEmpty()) {
        run.setProcessEnvironment(env);
    }
    run.start(program, args);
    if (!run.waitForFinished(60'000) || run.exitStatus() != QProcess::NormalExit ||
        run.exitCode() != 0) {
        run.kill();
        run.waitForFinished(5'000);
        qWarning().noquote() << program << args.join(u' ')
                             << QString::fromLocal8Bit(run.readAllStandardError().right(2000));
        return {};
    }
    return QJsonDocument::fromJson(run.readAllStandardOutput()).object();
}

} // namespace sluice::test
