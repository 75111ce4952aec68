// The profile editor's state without widgets (ui/connection/profiledraft.h): the problems by
// field as the form shows them, what refuses a test or a save, and the profile, secrets and
// endpoint it builds.

#include "ui/connection/profiledraft.h"

#include "testkit.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

using T = ConnectionProfile::Transport;

class TestProfileDraft : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void newProfileIsLocalTcp()
    {
        ProfileDraft d;
        d.reset();
        QVERIFY(d.isNew());
        QCOMPARE(d.transport(), T::Tcp);
        QCOMPARE(d.text(u"host"_s), u"127.0.0.1"_s);
        QVERIFY(d.problems().isEmpty());
        // A nameless profile tests, but does not save.
        QVERIFY(d.testRefusal().isEmpty());
        const auto refusal = d.saveRefusal({});
        QCOMPARE(refusal.problem.field, u"name"_s);
        QCOMPARE(refusal.headline, u"The profile needs a name."_s);
    }

    void textsAreTrimmedAndSentinelsSplit()
    {
        ProfileDraft d;
        d.reset();
        d.setText(u"name"_s, u"  prod  "_s);
        d.setTransport(T::Sentinel);
        d.setText(u"sentinels"_s, u" a:26379, ,b "_s);
        d.setText(u"master"_s, u"mymaster "_s);
        const ConnectionProfile p = d.profile();
        QCOMPARE(p.name, u"prod"_s);
        QCOMPARE(p.sentinels, QStringList({u"a:26379"_s, u"b"_s}));
        const Endpoint e = d.endpoint();
        QCOMPARE(e.kind, Endpoint::Kind::Sentinel);
        QCOMPARE(e.masterName, u"mymaster"_s);
        QCOMPARE(e.sentinels.size(), 2);
        QCOMPARE(e.sentinels.at(1).port, quint16(26379));
    }

    void problemsByField_data()
    {
        test::columns<int, QString, QString, QString, QString>("transport", "key", "text", "field",
                                                               "words");
        QTest::newRow("socket missing") << int(T::Unix) << u"socket"_s << QString() << u"socket"_s
                                        << u"Socket path: enter the path"_s;
        QTest::newRow("socket relative") << int(T::Unix) << u"socket"_s << u"run/r.sock"_s
                                         << u"socket"_s << u"must be absolute"_s;
        QTest::newRow("sentinel port") << int(T::Sentinel) << u"sentinels"_s << u"a:1, b:x"_s
                                       << u"sentinels"_s << u"the port 'x' is not a number"_s;
        QTest::newRow("no sentinels") << int(T::Sentinel) << u"sentinels"_s << u" , "_s
                                      << u"sentinels"_s << u"at least one sentinel"_s;
        QTest::newRow("tls key without cert") << int(T::Tls) << u"tlsKey"_s << u"/k.pem"_s
                                              << u"tlsCert"_s << u"Client certificate: missing"_s;
        QTest::newRow("tls ca missing") << int(T::Tls) << u"tlsCa"_s << u"/nonexistent/ca.pem"_s
                                        << u"tlsCa"_s << u"CA file /nonexistent/ca.pem: no such"_s;
    }
    void problemsByField()
    {
        QFETCH(int, transport);
        QFETCH(QString, key);
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, words);
        ProfileDraft d;
        d.reset();
        d.setText(u"name"_s, u"x"_s);
        d.setTransport(T(transport));
        d.setText(key, text);
        const auto first = d.firstProblem();
        QCOMPARE(first.field, field);
        QVERIFY2(first.message.contains(words), qPrintable(first.message));
        QCOMPARE(d.problems().value(field), first.message);
        QCOMPARE(d.saveRefusal({}).problem.field, field);
        QCOMPARE(d.testRefusal().headline, u"The profile cannot be tested yet."_s);
    }

    void sentinelNeedsMaster()
    {
        ProfileDraft d;
        d.reset();
        d.setTransport(T::Sentinel);
        d.setText(u"sentinels"_s, u"a:1, b:x"_s);
        // Both fields are wrong; the form shows the first.
        QCOMPARE(d.problems().keys().size(), 2);
        QVERIFY(d.problems().value(u"master"_s).startsWith(u"Master name:"_s));
        QCOMPARE(d.firstProblem().field, u"sentinels"_s);
    }

    void tlsPairOfFiles()
    {
        QTemporaryDir dir;
        const QString cert = dir.filePath(u"c.pem"_s);
        const QString key = dir.filePath(u"k.pem"_s);
        ProfileDraft d;
        d.reset();
        d.setTransport(T::Tls);
        d.setText(u"tlsCert"_s, cert);
        QCOMPARE(d.firstProblem().field, u"tlsKey"_s);
        d.setText(u"tlsKey"_s, key);
        QCOMPARE(d.firstProblem().field, u"tlsCert"_s); // neither file exists yet
        for (const QString &f : {cert, key}) {
            QFile file(f);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QVERIFY(d.problems().isEmpty());
        QVERIFY(d.endpoint().tls.enabled);
        QCOMPARE(d.endpoint().tls.keyFile, key);
    }

    void sshOnlyWhenOn()
    {
        ProfileDraft d;
        d.reset();
        d.setText(u"sshKey"_s, u"/nonexistent/id"_s);
        QVERIFY(d.problems().isEmpty()); // SSH is off: its fields do not count
        d.setSshEnabled(true);
        QCOMPARE(d.firstProblem().field, u"sshHost"_s);
        d.setText(u"sshHost"_s, u"bastion"_s);
        QCOMPARE(d.firstProblem().field, u"sshKey"_s);
        d.setText(u"sshKey"_s, QString());
        QVERIFY(d.problems().isEmpty());
        QCOMPARE(d.endpoint().ssh.host, u"bastion"_s);
    }

    void hostNeededForTcpOnly()
    {
        ProfileDraft d;
        d.reset();
        d.setText(u"name"_s, u"x"_s);
        d.setText(u"host"_s, u"  "_s);
        QCOMPARE(d.testRefusal().headline, u"Enter a host to test."_s);
        QCOMPARE(d.saveRefusal({}).problem.field, u"host"_s);
        d.setTransport(T::Unix);
        d.setText(u"socket"_s, u"/run/r.sock"_s);
        QVERIFY(d.testRefusal().isEmpty());
        QVERIFY(d.saveRefusal({}).isEmpty());
    }

    void nameTakenByAnother()
    {
        ConnectionProfile other;
        other.id = u"p1"_s;
        other.name = u"Production"_s;
        ProfileDraft d;
        d.reset();
        d.setText(u"name"_s, u"production"_s);
        const auto refusal = d.saveRefusal({other});
        QCOMPARE(refusal.headline, u"A profile named 'Production' exists already."_s);
        // The profile itself may keep its name.
        d.reset(other);
        QVERIFY(d.saveRefusal({other}).isEmpty());
    }

    void readOnlyByDefaultAwayFromThisMachine()
    {
        ProfileDraft d;
        d.reset();
        QVERIFY(!d.readOnly()); // 127.0.0.1
        d.setText(u"host"_s, u"redis.prod.example"_s);
        QVERIFY(d.readOnly());
        QVERIFY(d.profile().readOnly);
        QVERIFY(d.endpoint().readOnly); // the guard in Connection
        d.setText(u"host"_s, u"localhost"_s);
        QVERIFY(!d.readOnly());
        d.setText(u"host"_s, u"10.0.0.5"_s);
        d.setSshEnabled(true); // a tunnel is not this machine, whatever the host
        d.setText(u"host"_s, u"127.0.0.1"_s);
        d.setText(u"sshHost"_s, u"bastion"_s);
        QVERIFY(d.readOnly());
        // The user's choice wins, and stays while the host changes.
        d.setReadOnly(false);
        d.setText(u"host"_s, u"redis.prod.example"_s);
        QVERIFY(!d.readOnly());
        // A saved profile keeps what was saved.
        ConnectionProfile saved;
        saved.id = u"p1"_s;
        saved.host = u"redis.prod.example"_s;
        saved.readOnly = false;
        d.reset(saved);
        QVERIFY(!d.readOnly());
        d.setTransport(T::Unix);
        d.setText(u"socket"_s, u"/run/redis.sock"_s);
        d.reset();
        d.setTransport(T::Unix);
        d.setText(u"socket"_s, u"/run/redis.sock"_s);
        QVERIFY(!d.readOnly()); // a Unix socket is this machine
    }

    void secretsTypedStoredForgotten()
    {
        ConnectionProfile saved;
        saved.id = u"p1"_s;
        saved.name = u"p"_s;
        saved.hasPassword = true;
        ProfileDraft d;
        d.reset(saved);
        QCOMPARE(d.profile().id, u"p1"_s);
        QVERIFY(d.profile().hasPassword); // stored and kept
        QVERIFY(d.secrets().password.isEmpty());
        d.forgetPassword();
        QVERIFY(!d.profile().hasPassword);
        QVERIFY(d.secretEdits().password.forget);
        d.setText(u"password"_s, u"pw"_s);
        QVERIFY(!d.forgettingPassword());
        QVERIFY(d.profile().hasPassword);
        QCOMPARE(d.endpoint().password, u"pw"_s);
        d.setText(u"sshPassphrase"_s, u"pp"_s);
        QVERIFY(d.profile().hasSshPassphrase);
        QCOMPARE(d.secretEdits().sshPassphrase.typed, u"pp"_s);
    }
};

QTEST_GUILESS_MAIN(TestProfileDraft)
#include "tst_profiledraft.moc"
