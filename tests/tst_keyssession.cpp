// The Keys page's controller without its widgets (KeysSession), against the fixture's Redis:
// the not-connected note, a scan into the model, the questions a fix asks and the fix itself,
// the report in words, and the health counts. No widget is created here.

#include "pageharness.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/keys/keysmodel.h"
#include "ui/keys/keyssession.h"

#include "core/keys/keyhealth.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

Rule windowRule(const QString &id, const QByteArray &prefix)
{
    return Rule::window(id, Algorithm::FixedWindow, 3, 60 * duration::usPerSecond,
                        Scope{Scope::Kind::Ip, {}}, prefix);
}

} // namespace

class TestKeysSession : public QObject
{
    Q_OBJECT

    test::PageHarness m_h; // the profile store

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<KeyInfo>();
        qRegisterMetaType<QList<KeyInfo>>();
        qRegisterMetaType<ScanProgress>();
        qRegisterMetaType<ScanSummary>();
        qRegisterMetaType<KeyFixer::Report>();
        qRegisterMetaType<KeysWorker::RawValue>();
    }

    void notConnectedSaysSo()
    {
        ConnectionController controller(&m_h.store());
        KeysModel model;
        KeysSession session(&controller, &model);
        session.startSession();
        QVERIFY(!session.hasSession());
        QVERIFY2(session.message().headline.startsWith(u"Not connected"_s),
                 qPrintable(session.message().headline));
        QCOMPARE(session.message().tone, Tone::Info);
        QVERIFY(!session.fixAllQuestion(false));
    }

    // Two keys that never expire among three: scanned, asked about, fixed, counted.
    void scanAskFix()
    {
        Connection c = test::cleanSlate();
        const QByteArray prefix = test::keyPrefix();
        RuleSet set;
        set.rules = {windowRule(u"fw"_s, prefix)};
        const Rule &rule = set.rules.front();
        const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
        const QByteArray never1 = rule.keyFor("10.0.0.1");
        const QByteArray never2 = rule.keyFor("10.0.0.2");
        const QByteArray fine = rule.keyFor("10.0.0.3");
        for (const QByteArray &k : {never1, never2, fine}) {
            QVERIFY(c.command({"HSET", k, "s", QByteArray::number(nowUs), "c", "1"}));
        }
        QVERIFY(c.command({"PEXPIRE", fine, "30000"}));

        ConnectionController controller(&m_h.store());
        KeysModel model;
        KeysSession session(&controller, &model);
        QSignalSpy scans(&session, &KeysSession::scanFinished);
        QSignalSpy health(&session, &KeysSession::healthChanged);
        session.setRules(set);
        session.setPatterns({prefix + '*'});
        controller.connectTo(m_h.fixtureProfile());
        QTRY_VERIFY_WITH_TIMEOUT(session.hasSession(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!scans.isEmpty() && !session.isScanning(), 15000);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.count(Health::NoTtl), qint64(2));
        QVERIFY2(session.countText().startsWith(u"3 keys · scanned in"_s),
                 qPrintable(session.countText()));
        QVERIFY(!health.isEmpty());
        QCOMPARE(health.last().at(0).toLongLong(), qint64(2));
        QVERIFY(session.message().isEmpty());

        // The questions say how many and where.
        const auto all = session.fixAllQuestion(false);
        QVERIFY(all);
        QVERIFY2(all->text.contains(u"the 2 keys that never expire"_s), qPrintable(all->text));
        // In the user's words, not the SCAN patterns.
        QVERIFY2(all->text.contains(u"every key the Match field selects"_s), qPrintable(all->text));
        QVERIFY(!all->text.contains(QString::fromUtf8(prefix)));
        QCOMPARE(all->yes, u"Fix all"_s);
        QList<KeyInfo> fineOnly;
        for (int r = 0; r < model.rowCount(); ++r) {
            if (model.info(r).key == fine) {
                fineOnly << model.info(r);
            }
        }
        QString nothing;
        QVERIFY(!session.fixSelectionQuestion(fineOnly, false, &nothing));
        QVERIFY2(nothing.contains(u"needs no TTL"_s), qPrintable(nothing));
        const auto del = session.fixSelectionQuestion(fineOnly, true, &nothing);
        QVERIFY(del && del->text.contains(u"cannot be undone"_s));
        QVERIFY(del->typeToConfirm.isEmpty()); // a limiter key: a plain yes
        // A key that matches no rule's prefix may not be a limiter key: its count typed in.
        QList<KeyInfo> stray = fineOnly;
        stray.first().ruleId.clear();
        const auto strayDelete = session.fixSelectionQuestion(fineOnly + stray, true, &nothing);
        QVERIFY(strayDelete);
        QCOMPARE(strayDelete->typeToConfirm, u"2"_s);
        QVERIFY2(strayDelete->text.contains(u"One of them matches no rule's prefix"_s) &&
                     strayDelete->text.contains(u"Type 2 to delete them."_s),
                 qPrintable(strayDelete->text));

        // The fix, and its report.
        QSignalSpy fixed(&session, &KeysSession::fixFinished);
        session.fixAll(false);
        QVERIFY(session.isFixing());
        QVERIFY(!session.fixAllQuestion(false)); // one fix at a time
        QTRY_VERIFY_WITH_TIMEOUT(!fixed.isEmpty(), 15000);
        QVERIFY(!session.isFixing());
        const auto report = fixed.first().at(0).value<KeyFixer::Report>();
        QCOMPARE(report.count(KeyFixer::Status::Done), qint64(2));
        const PageMessage words = KeysSession::describe(report);
        QVERIFY2(words.headline.startsWith(u"TTL set on 2 keys."_s), qPrintable(words.headline));
        QCOMPARE(words.tone, Tone::Good);
        QVERIFY(test::pttl(c, never1) > 0);
        QVERIFY(test::pttl(c, never2) > 0);
        QCOMPARE(model.count(Health::NoTtl), qint64(0));
        test::cleanup(c);
    }
};

QTEST_GUILESS_MAIN(TestKeysSession)
#include "tst_keyssession.moc"
