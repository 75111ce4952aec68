// The Rules page's controller without its widgets: the working set, unsaved changes, and the
// push / pull / review / conflict machine against the fixture's real Redis, with the core
// RuleStore as "another writer". No widget is created here.

#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/rules/rulesmodel.h"
#include "ui/rules/rulessession.h"
#include "ui/rules/rulesworker.h"

#include "core/rules/rulestore.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace sluice;
using namespace sluice::ui;

Q_DECLARE_METATYPE(sluice::ui::RulesSession::DiffPrompt)
Q_DECLARE_METATYPE(sluice::ui::RulesSession::Problems)

namespace {

Rule windowRule(const QString &id, qint64 limit)
{
    Rule r;
    r.id = id;
    r.scope.kind = Scope::Kind::Ip;
    r.algorithm = Algorithm::FixedWindow;
    r.limit = limit;
    r.windowUs = 1'000'000;
    return r;
}

const char *const twoRules = "{ \"version\": 1, \"rules\": [\n"
                             "  { \"id\": \"a\", \"scope\": \"ip\", \"algorithm\": "
                             "\"fixed_window\", \"limit\": 3, \"window\": \"5s\" },\n"
                             "  { \"id\": \"b\", \"scope\": \"global\", \"algorithm\": "
                             "\"token_bucket\", \"rate\": \"100/s\", \"burst\": 200 }\n"
                             "] }";

} // namespace

class TestRulesSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    // The rule store of this test process: never another test's.
    const QByteArray m_ns = test::keyPrefix() + "store:";
    std::unique_ptr<test::PageHarness> m_h;
    std::unique_ptr<RulesSession> m_session;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QList<PageMessage> m_messages;
    QList<QList<RulesSession::Offer>> m_offers; // m_messages[i]'s
    QList<RulesSession::DiffPrompt> m_previews;
    QList<RulesSession::DiffPrompt> m_reviews;

    RulesSession &session()
    {
        if (!m_session) {
            m_h = std::make_unique<test::PageHarness>();
            m_session = std::make_unique<RulesSession>(m_h->controller());
            m_session->setStoreNamespace(m_ns);
            m_tester = std::make_unique<QAbstractItemModelTester>(
                m_session->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
            connect(m_session.get(), &RulesSession::message, this,
                    [this](const PageMessage &m, const QList<RulesSession::Offer> &offers) {
                        m_messages << m;
                        m_offers << offers;
                    });
            connect(m_session.get(), &RulesSession::pushPreviewReady, this,
                    [this](const RulesSession::DiffPrompt &p) { m_previews << p; });
            connect(m_session.get(), &RulesSession::reviewReady, this,
                    [this](const RulesSession::DiffPrompt &p) { m_reviews << p; });
        }
        return *m_session;
    }
    QString lastHeadline() const
    {
        return m_messages.isEmpty() ? QString() : m_messages.last().headline;
    }
    // The last message whose headline has `text`, or -1 (the watcher may speak after it, so
    // the last message of all is not always the one).
    qsizetype saidAt(const QString &text) const
    {
        for (qsizetype i = m_messages.size() - 1; i >= 0; --i) {
            if (m_messages[i].headline.contains(text)) {
                return i;
            }
        }
        return -1;
    }
    bool said(const QString &text) const { return saidAt(text) >= 0; }
    void connectToFixture()
    {
        session();
        m_h->connectTo();
        QTRY_VERIFY_WITH_TIMEOUT(session().canTalkToRedis(), 10000);
        // The watcher's first report: from here on, store changes are someone else's.
        QTRY_VERIFY_WITH_TIMEOUT(session().storeVersion().has_value(), 10000);
    }
    QString file(const QString &name, const QByteArray &contents)
    {
        return test::fileIn(m_dir, name, contents);
    }
    rules::RuleStore store() const { return rules::RuleStore(m_ns); }
    // Push through the preview, as the page does on "Push" in the dialog.
    bool pushConfirmed()
    {
        const qsizetype before = m_previews.size();
        session().push();
        if (!QTest::qWaitFor([&] { return m_previews.size() > before; }, 10000)) {
            return false;
        }
        session().confirmPush();
        return QTest::qWaitFor([&] { return !session().isBusy(); }, 10000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useTestSettings();
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        QSettings().clear();
        test::cleanup();
        m_messages.clear();
        m_offers.clear();
        m_previews.clear();
        m_reviews.clear();
    }

    void cleanup()
    {
        m_tester.reset();
        m_session.reset();
        m_h.reset();
        Connection c = test::cleanSlate();
    }

    // Apply, duplicate and remove make the set unsaved; ids stay unique.
    void editingTheWorkingSet()
    {
        QSignalSpy changed(&session(), &RulesSession::rulesChanged);
        QVERIFY(!session().hasUnsavedChanges());
        const Rule fresh = session().newRule();
        QCOMPARE(fresh.id, QStringLiteral("new-rule"));
        QCOMPARE(session().apply(fresh, -1), 0);
        QVERIFY(session().hasUnsavedChanges());
        QCOMPARE(session().newRule().id, QStringLiteral("new-rule-2"));
        QCOMPARE(session().duplicate(0), 1);
        QCOMPARE(session().rules().rules[1].id, QStringLiteral("new-rule-copy"));
        QCOMPARE(session().apply(windowRule(QStringLiteral("edited"), 7), 1), 1);
        QCOMPARE(session().rules().rules[1].limit, 7);
        session().remove(0);
        QCOMPARE(session().rules().rules.size(), size_t(1));
        QVERIFY(lastHeadline().contains(QStringLiteral("Deleted new-rule")));
        QCOMPARE(changed.count(), 4);
        QCOMPARE(session().duplicate(5), -1); // no such row: nothing happens
    }

    void importReplacesOrKeeps()
    {
        QSignalSpy replaced(&session(), &RulesSession::replaced);
        QSignalSpy problems(&session(), &RulesSession::problems);
        QString error;
        QVERIFY(session().importFile(file(QStringLiteral("two.json"), twoRules), &error));
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(session().rules().rules.size(), size_t(2));
        QCOMPARE(session().origin(), QStringLiteral("file two.json"));
        QVERIFY(!session().hasUnsavedChanges());

        QVERIFY(!session().importFile(file(QStringLiteral("bad.json"), "{ \"version\": 1, "
                                                                       "\"rules\": [ { \"id\": "
                                                                       "\"x\" } ] }"),
                                      &error));
        QVERIFY2(error.contains(QStringLiteral("nothing was imported")), qPrintable(error));
        QCOMPARE(session().rules().rules.size(), size_t(2)); // unchanged
        QCOMPARE(replaced.count(), 1);
        const auto last = problems.last().first().value<RulesSession::Problems>();
        QVERIFY(!last.lines.isEmpty());
        QCOMPARE(last.tone, Tone::Bad);
        QCOMPARE(m_messages.last().tone, Tone::Bad);
    }

    void exportJsonMakesItSaved()
    {
        session().apply(windowRule(QStringLiteral("a"), 3), -1);
        QVERIFY(session().hasUnsavedChanges());
        QStringList warnings;
        QVERIFY(session().exportFile(m_dir.filePath(QStringLiteral("out.yaml")),
                                     QStringLiteral("yaml"), &warnings));
        QVERIFY(warnings.isEmpty());
        QVERIFY(!session().hasUnsavedChanges());
        QCOMPARE(session().origin(), QStringLiteral("file out.yaml"));
        QVERIFY(!session().exportFile(m_dir.filePath(QStringLiteral("out.x")),
                                      QStringLiteral("toml"), nullptr));
        QCOMPARE(m_messages.last().tone, Tone::Bad);
    }

    void withoutRedisPushAndPullSayWhy()
    {
        QVERIFY(!session().canTalkToRedis());
        QVERIFY(!session().redisDown().isEmpty());
        session().push();
        QCOMPARE(m_messages.last().tone, Tone::Warning);
        QVERIFY(lastHeadline().startsWith(QStringLiteral("Cannot push now")));
        session().pull();
        QVERIFY(lastHeadline().startsWith(QStringLiteral("Cannot pull now")));
    }

    // Push shows a preview first; confirmed, it stores version 1 and the set is saved.
    void pushPreviewThenPush()
    {
        connectToFixture();
        QVERIFY(session().importFile(file(QStringLiteral("two.json"), twoRules), nullptr));
        QVERIFY(pushConfirmed());
        QCOMPARE(m_previews.size(), 1);
        QCOMPARE(m_previews[0].version, 0);
        QCOMPARE(m_previews[0].diff.added.size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Pushed version 1")), 10000);
        QCOMPARE(session().storeVersion(), std::optional<qint64>(1));
        QVERIFY(!session().hasUnsavedChanges());
        Connection c = test::connect();
        QCOMPARE(store().pull(c)->set.rules.size(), size_t(2));
    }

    // Another writer moves the store on: the session says so, a push is a conflict that offers
    // review and force, and the review can keep mine or use Redis.
    void conflictReviewAndForce()
    {
        connectToFixture();
        QVERIFY(session().importFile(file(QStringLiteral("two.json"), twoRules), nullptr));
        QVERIFY(pushConfirmed());

        Connection c = test::connect();
        RuleSet theirs = store().pull(c)->set;
        theirs.rules[0].limit = 30;
        QVERIFY(store().push(c, theirs, false).ok());
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Redis has v2")), 10000);
        QCOMPARE(m_offers[saidAt(QStringLiteral("Redis has v2"))],
                 QList<RulesSession::Offer>{RulesSession::Offer::Pull});

        session().apply(windowRule(QStringLiteral("a"), 4), 0);
        QVERIFY(pushConfirmed());
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Conflict")), 10000);
        QCOMPARE(m_offers[saidAt(QStringLiteral("Conflict"))],
                 (QList<RulesSession::Offer>{RulesSession::Offer::PullAndReview,
                                             RulesSession::Offer::ForcePush}));
        QCOMPARE(store().pull(c)->version, 2); // nothing overwritten

        // A pull with unsaved changes reviews instead of replacing.
        session().pull();
        QTRY_COMPARE_WITH_TIMEOUT(m_reviews.size(), 1, 10000);
        QCOMPARE(m_reviews[0].version, 2);
        QCOMPARE(m_reviews[0].diff.changed.size(), 1);
        QCOMPARE(session().rules().rules[0].limit, 4); // still mine
        session().keepMine(2);
        QCOMPARE(session().rules().basedOn, std::optional<qint64>(2));
        QVERIFY(session().hasUnsavedChanges());

        // Based on v2 now: the push goes through as version 3.
        QVERIFY(pushConfirmed());
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Pushed version 3")), 10000);
        QCOMPARE(store().pull(c)->set.rules[0].limit, 4);

        // Someone again; this time force over them.
        theirs = store().pull(c)->set;
        theirs.rules[0].limit = 99;
        QVERIFY(store().push(c, theirs, false).ok());
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Redis has v4")), 10000);
        session().forcePush();
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("(forced)")), 10000);
        QCOMPARE(store().pull(c)->version, 5);
        QCOMPARE(store().pull(c)->set.rules[0].limit, 4);

        // Use Redis: the review's store rules replace mine.
        theirs = store().pull(c)->set;
        theirs.rules[0].limit = 11;
        QVERIFY(store().push(c, theirs, false).ok());
        QTRY_VERIFY_WITH_TIMEOUT(said(QStringLiteral("Redis has v6")), 10000);
        session().apply(windowRule(QStringLiteral("a"), 12), 0);
        session().pullForReview();
        QTRY_COMPARE_WITH_TIMEOUT(m_reviews.size(), 2, 10000);
        QSignalSpy replaced(&session(), &RulesSession::replaced);
        session().useRedis(m_reviews.last());
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(session().rules().rules[0].limit, 11);
        QVERIFY(!session().hasUnsavedChanges());
        QCOMPARE(session().origin(), QStringLiteral("Redis v6"));
    }

    // A new session adopts the store's rules when nothing is unsaved.
    void adoptsTheStoreOnConnect()
    {
        Connection c = test::connect();
        RuleSet set;
        set.rules.push_back(windowRule(QStringLiteral("from-redis"), 5));
        QVERIFY(store().push(c, set, false).ok());
        QSignalSpy replaced(&session(), &RulesSession::replaced);
        connectToFixture();
        QTRY_COMPARE_WITH_TIMEOUT(session().rules().rules.size(), size_t(1), 10000);
        QCOMPARE(session().rules().rules[0].id, QStringLiteral("from-redis"));
        QCOMPARE(replaced.count(), 1);
        QVERIFY(!session().hasUnsavedChanges());
    }

    // The watcher's notice waits in the worker's queue behind the page's own writes: a notice
    // of v1 handled after a write made v2 never reaches the page, which would say that someone
    // else changed the rules (seen as a warning after a rollback then a stage). Delivered here
    // as the queue delivers it, after the write; the notice of v2 still goes through.
    void staleWatcherNoticeIsDropped()
    {
        Connection c = test::connect();
        RuleSet set;
        set.rules.push_back(windowRule(QStringLiteral("a"), 5));
        QVERIFY(store().push(c, set, false).ok()); // v1
        RulesWorker worker;
        worker.setEndpoint(test::redisEndpoint(), m_ns);
        QSignalSpy told(&worker, &RulesWorker::storeChanged);
        set.rules[0].limit = 6;
        QVERIFY(store().push(c, set, true).ok()); // v2
        const auto notice = [&](qint64 version) {
            return QMetaObject::invokeMethod(&worker, "onWatched", Qt::DirectConnection,
                                             Q_ARG(sluice::RuleSet, set), Q_ARG(qint64, version));
        };
        QVERIFY(notice(1));
        QCOMPARE(told.count(), 0);
        QVERIFY(notice(2));
        QCOMPARE(told.count(), 1);
        QCOMPARE(told.at(0).at(1).toLongLong(), qint64(2));
    }
};

QTEST_MAIN(TestRulesSession)
#include "tst_rulessession.moc"
