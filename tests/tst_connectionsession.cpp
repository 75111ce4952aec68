// The Connection page's controller without its widgets (ConnectionSession), against the
// fixture's Redis and servers of the test's own: a test's answer (and an older one dropped), a
// test and a save refused with the field to fix, a connect reported until it is up and then
// left to the status bar, a connect that fails, a password asked for, a profile in use
// deleted. No widget is created; no keyring answers here.
#include "ownredis.h"
#include "pageharness.h"
#include "testredis.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionsession.h"
#include "ui/connection/profiledraft.h"
#include "ui/connection/profilestore.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

// A form's values for 127.0.0.1:port.
ProfileDraft draftFor(quint16 port, const QString &name = u"session test"_s)
{
    ProfileDraft d;
    d.reset();
    d.setText(u"name"_s, name);
    d.setText(u"host"_s, u"127.0.0.1"_s);
    d.setPort(port);
    return d;
}

// Waits until the session's message has a headline containing `text`.
bool waitForHeadline(const ConnectionSession &s, const QString &text, int timeoutMs = 15'000)
{
    QElapsedTimer t;
    t.start();
    while (!(!s.message().isEmpty() && s.message().headline.contains(text))) {
        if (t.elapsed() > timeoutMs) {
            qWarning("headline: %s", qPrintable(s.message().headline));
            return false;
        }
        QTest::qWait(20);
    }
    return true;
}

} // namespace

class TestConnectionSession : public QObject
{
    Q_OBJECT

    test::PageHarness m_h;

private Q_SLOTS:
    // Test connection on the fixture's Redis: "Testing", then the version and the round trip;
    // a form not saved is told to save them. A closed port: the failure in words.
    void testAnswers()
    {
        ConnectionSession session(m_h.controller());
        QSignalSpy testing(&session, &ConnectionSession::testingChanged);
        session.setFormUnsaved(true);
        QVERIFY(session.test(draftFor(test::redisEndpoint().port)));
        QVERIFY(session.isTesting());
        QVERIFY(session.message().headline.contains(u"Testing"_s));
        QCOMPARE(session.message().tone, Tone::Info);
        QTRY_VERIFY_WITH_TIMEOUT(!session.isTesting(), 15'000);
        QCOMPARE(testing.size(), 2);
        QCOMPARE(session.message().tone, Tone::Good);
        QVERIFY2(session.message().headline.contains(u"answered"_s),
                 qPrintable(session.message().headline));
        QVERIFY(session.message().detail.contains(u"Save the profile"_s));

        const quint16 closed = test::freeLoopbackPort();
        session.setFormUnsaved(false);
        QVERIFY(session.test(draftFor(closed)));
        QTRY_VERIFY_WITH_TIMEOUT(!session.isTesting(), 15'000);
        QCOMPARE(session.message().tone, Tone::Bad);
        QVERIFY2(session.message().headline.contains(u"Cannot connect"_s),
                 qPrintable(session.message().headline));
        QVERIFY(session.message().headline.contains(QString::number(closed)));
        QVERIFY(!session.trustOffered()); // no SSH: no host key to trust
        session.clearMessage();
        QVERIFY(session.message().isEmpty());
    }

    // A second test before the first answered: only its answer counts.
    void olderTestDropped()
    {
        ConnectionSession session(m_h.controller());
        const quint16 closed = test::freeLoopbackPort();
        QVERIFY(session.test(draftFor(closed)));
        QVERIFY(session.test(draftFor(test::redisEndpoint().port)));
        QTRY_VERIFY_WITH_TIMEOUT(!session.isTesting(), 15'000);
        QCOMPARE(session.message().tone, Tone::Good);
        QTest::qWait(300); // the first answer, if it came late, would not change it
        QCOMPARE(session.message().tone, Tone::Good);
    }

    // Refusals name the field to fix: no host for a test; no name for a save.
    void refusalsNameTheField()
    {
        ConnectionSession session(m_h.controller());
        QSignalSpy focus(&session, &ConnectionSession::focusRequested);
        ProfileDraft noHost;
        noHost.reset();
        noHost.setText(u"name"_s, u"x"_s);
        noHost.setText(u"host"_s, QString());
        QVERIFY(!session.test(noHost));
        QVERIFY(!session.isTesting());
        QCOMPARE(session.message().tone, Tone::Bad);
        QCOMPARE(focus.size(), 1);
        QCOMPARE(focus.takeFirst().at(0).toString(), u"host"_s);

        QVERIFY(session.save(draftFor(6379, QString())).isEmpty());
        QCOMPARE(session.message().tone, Tone::Bad);
        QCOMPARE(focus.size(), 1);
        QCOMPARE(focus.takeFirst().at(0).toString(), u"name"_s);
    }

    // Save, then Connect: "Connecting", then "Connected" with the server's version; once the
    // server goes away the message leaves the news to the status bar. Deleting the profile in
    // use disconnects and says so.
    void connectAndDelete()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        ConnectionSession session(m_h.controller());
        const QString id = session.save(draftFor(redis.port(), u"own"_s));
        QVERIFY(!id.isEmpty());
        QCOMPARE(session.message().tone, Tone::Good);
        QVERIFY(session.message().headline.contains(u"own"_s));

        session.connectTo(id, {});
        QVERIFY(session.message().headline.contains(u"Connecting"_s));
        QVERIFY(waitForHeadline(session, u"Connected to"_s));
        QCOMPARE(session.message().tone, Tone::Good);
        QCOMPARE(m_h.controller()->currentId(), id);

        redis.kill();
        QTRY_VERIFY_WITH_TIMEOUT(session.message().isEmpty(), 15'000);

        const bool inUse = session.remove(id);
        QVERIFY(inUse);
        QVERIFY(!m_h.store().profile(id));
        session.reportDeleted(u"own"_s, inUse);
        QVERIFY(session.message().headline.contains(u"Deleted"_s));
        QVERIFY(session.message().detail.contains(u"not connected any more"_s));
    }

    // A connect that cannot reach its server: the failure with its hint.
    void connectFails()
    {
        ConnectionSession session(m_h.controller());
        const QString id = session.save(draftFor(test::freeLoopbackPort(), u"nowhere"_s));
        QVERIFY(!id.isEmpty());
        session.connectTo(id, {});
        QVERIFY(waitForHeadline(session, u"Cannot connect"_s));
        QVERIFY(session.message().tone == Tone::Warning || session.message().tone == Tone::Bad);
        m_h.controller()->disconnectNow();
        session.remove(id);
    }

    // A profile whose password Sluice lacks: the profile is shown first, then the question,
    // then the secret's field.
    void passwordAsked()
    {
        ConnectionSession session(m_h.controller());
        const QString id = session.save(draftFor(test::redisEndpoint().port, u"locked"_s));
        QVERIFY(!id.isEmpty());
        QSignalSpy select(&session, &ConnectionSession::selectRequested);
        QSignalSpy secret(&session, &ConnectionSession::secretRequested);
        session.askPassword(id, u"the keyring is locked"_s);
        QCOMPARE(select.size(), 1);
        QCOMPARE(select.takeFirst().at(0).toString(), id);
        QCOMPARE(secret.size(), 1);
        QCOMPARE(session.message().tone, Tone::Warning);
        QVERIFY(session.message().headline.contains(u"locked"_s));
        QVERIFY(session.message().detail.contains(u"the keyring is locked"_s));
        session.remove(id);
    }
};

QTEST_MAIN(TestConnectionSession)
#include "tst_connectionsession.moc"
