// A staged rollout in the console, on a redis-server of the test's own (the rule store's
// default namespace and its statistics would be shared on the fixture's): the push dialog's
// "Stage in shadow", the Rules page's stage banner with Promote and Discard, and the Monitor
// showing each candidate's chart beside the rule it would replace, with the statistics a
// real `serve` recorded for both. Screenshots of both pages in English and Chinese with
// SLUICE_SHOTS_DIR (screenshots()).

#include "ownredis.h"
#include "pageharness.h"
#include "servefixture.h"

#include "core/load/loadgenerator.h"
#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/rules/rulestore.h"
#include "ui/language.h"
#include "ui/load/loadpage.h"
#include "ui/monitor/limitedmodel.h"
#include "ui/monitor/monitorpage.h"
#include "ui/monitor/monitorsnapshot.h"
#include "ui/monitor/rulechart.h"
#include "ui/rules/rulediffdialog.h"
#include "ui/rules/rulesmodel.h"
#include "ui/rules/rulespage.h"
#include "ui/rules/rulessession.h"

#include <QApplication>
#include <QFile>
#include <QGridLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

const QByteArray enforcedJson = R"({"version": 1, "rules": [
    {"id": "api", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "10s"},
    {"id": "login", "scope": "ip", "algorithm": "token_bucket", "rate": "1/s", "burst": 2}]})";

RuleSet parse(const QByteArray &json)
{
    rules::Loaded l = rules::parseJson(json, u"inline.json"_s);
    Q_ASSERT(l.ok());
    return l.set;
}

} // namespace

class TestStagingConsole : public QObject
{
    Q_OBJECT
    test::OwnRedis m_redis;

    template <typename T> static T *waitForDialog(QWidget &parent, const char *name)
    {
        T *d = nullptr;
        (void)QTest::qWaitFor(
            [&] {
                d = parent.findChild<T *>(QString::fromLatin1(name));
                return d && d->isVisible();
            },
            10000);
        return d;
    }

    // The private Redis emptied, then holding the enforced rules alone (version 1).
    static bool onlyEnforced(Connection &c)
    {
        return c.command({"FLUSHALL"}) && rules::RuleStore().push(c, parse(enforcedJson), false);
    }

    // The enforced rules as the start of a change to them: based on version 1.
    static RuleSet enforcedAtVersion1()
    {
        RuleSet set = parse(enforcedJson);
        set.basedOn = 1;
        return set;
    }

    // The Rules page of `h`, shown at `size` and connected to the private Redis; null when it
    // could not be.
    RulesPage *connectedRulesPage(test::PageHarness &h, QSize size)
    {
        auto *page = new RulesPage(h.controller());
        if (!h.show(page, size) || !h.connect(m_redis.endpoint())) {
            return nullptr;
        }
        return page;
    }

    // A real serve following the store, and 6 requests of one subject on api through it: the
    // enforced 5 admitted, the candidate's 2 (4 would-be denials).
    bool serveSixRequests(test::ServeProcess &serve)
    {
        if (!serve.start(
                {u"--url"_s, m_redis.url(), u"--from-redis"_s, u"--listen"_s, u"127.0.0.1:0"_s})) {
            qWarning("serve did not start: %s", (serve.out() + serve.err()).constData());
            return false;
        }
        for (int i = 0; i < 6; ++i) {
            test::httpGet(serve.port(), "/v1/check?rule=api&subject=1.2.3.4");
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_redis.start(), m_redis.output().constData()); }

    // Edit a limit, choose "Stage in shadow" in the push dialog: Redis has the stage, the
    // enforced rules are unchanged, the banner says what is staged; the Monitor gets the
    // candidates and puts "api@staged" on the row of "api"; after serve decided traffic, the
    // candidate's chart counts what it would deny. Promote: enforced, the banner gone.
    void stagePromoteFromThePages()
    {
        Connection c = m_redis.connect();
        QVERIFY(onlyEnforced(c));

        test::PageHarness h;
        auto *page = connectedRulesPage(h, {1280, 800});
        QVERIFY(page);
        QTRY_VERIFY_WITH_TIMEOUT(page->storeVersion() == std::optional<qint64>(1), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(page->rules().rules.size(), size_t(2), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(h.find<QPushButton>("pushButton")->isEnabled(), 10000);
        auto *stageBanner = h.find<QWidget>("stageBanner");
        QVERIFY(stageBanner && !stageBanner->isVisible());

        // The working set: api down to 2 (applied as the editor would).
        Rule api = page->rules().rules[0];
        QCOMPARE(api.id, u"api"_s);
        api.limit = 2;
        page->session()->apply(api, 0);
        QVERIFY(page->hasUnsavedChanges());

        QList<RuleSet> emitted;
        QObject::connect(page, &RulesPage::rulesChanged, page,
                         [&emitted](const RuleSet &s) { emitted << s; });
        QTest::mouseClick(h.find<QPushButton>("pushButton"), Qt::LeftButton);
        auto *dialog = waitForDialog<RuleDiffDialog>(*page, "pushDialog");
        QVERIFY(dialog);
        auto *stage = dialog->findChild<QPushButton *>(u"stageButton"_s);
        QVERIFY(stage && stage->isEnabled());
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"pushMessage"_s), u"try api at 2"_s);
        QTest::mouseClick(stage, Qt::LeftButton);

        QTRY_VERIFY_WITH_TIMEOUT(stageBanner->isVisible(), 10000);
        const QString text = h.find<QLabel>("stageText")->text();
        QVERIFY2(text.contains(u"changes api"_s) && text.contains(u"try api at 2"_s),
                 qPrintable(text));
        auto snap = rules::RuleStore().pull(c);
        QVERIFY(snap && snap->stage);
        QCOMPARE(snap->version, qint64(2));
        QCOMPARE(snap->set.rules[0].limit, qint64(5)); // enforced as before
        QCOMPARE(snap->stage->message, u"try api at 2"_s);
        // What the other pages get: the candidates with the rules.
        QTRY_VERIFY_WITH_TIMEOUT(!emitted.isEmpty() && emitted.last().staged.size() == 1, 10000);
        QCOMPARE(emitted.last().staged[0].id, u"api@staged"_s);
        QCOMPARE(emitted.last().staged[0].limit, qint64(2));
        // The working set holds the candidate (unsaved), but what serve enforces is the stored
        // rule: the other pages are told that one.
        QCOMPARE(page->rules().rules[0].limit, qint64(2));
        QCOMPARE(emitted.last().rules[0].limit, qint64(5));

        // Traffic through a real serve: 6 requests, the enforced 5 admitted, the candidate's 2.
        test::ServeProcess serve;
        QVERIFY(serveSixRequests(serve));

        test::PageHarness mh;
        auto *monitor = new MonitorPage(mh.controller());
        QVERIFY(mh.show(monitor, {1280, 800}));
        QVERIFY(mh.connect(m_redis.endpoint()));
        monitor->setRules(emitted.last());
        QTRY_VERIFY_WITH_TIMEOUT(monitor->chart(u"api@staged"_s) != nullptr, 5000);
        RuleChart *enforced = monitor->chart(u"api"_s);
        RuleChart *candidate = monitor->chart(u"api@staged"_s);
        QVERIFY(enforced);
        // Side by side: the same row of the grid, the candidate on the right.
        QGridLayout *grid = nullptr;
        for (QGridLayout *g : monitor->findChildren<QGridLayout *>()) {
            grid = g->indexOf(enforced) >= 0 ? g : grid;
        }
        QVERIFY(grid);
        int er = -1, ec = -1, cr = -1, cc = -1, span = 0;
        grid->getItemPosition(grid->indexOf(enforced), &er, &ec, &span, &span);
        grid->getItemPosition(grid->indexOf(candidate), &cr, &cc, &span, &span);
        QCOMPARE(cr, er);
        QCOMPARE(cc, ec + 1);
        QVERIFY2(
            candidate->findChild<QLabel *>(u"chartTitle"_s)->text().contains(u"staged candidate"_s),
            "the candidate's chart does not say what it is");
        QTRY_VERIFY_WITH_TIMEOUT(
            candidate->totals().shadowDenied == 4 && enforced->totals().denied == 1, 15000);
        QCOMPARE(candidate->totals().allowed, qint64(2));
        QCOMPARE(candidate->totals().denied, qint64(0));
        QVERIFY(candidate->shadowSeries()->isVisible());
        // The candidate limits nobody: "Limited right now" lists the enforced rule's subject only.
        QTRY_VERIFY_WITH_TIMEOUT(monitor->limitedModel()->rowCount() == 1, 10000);
        for (const LimitedSubject &l : monitor->snapshot().limited) {
            QCOMPARE(l.ruleId, u"api"_s);
        }

        // Promote asks first, saying what becomes enforced and for whom.
        QString asked;
        page->setStageConfirm([&asked](const QString &q) {
            asked = q;
            return true;
        });
        QTest::mouseClick(h.find<QPushButton>("promoteButton"), Qt::LeftButton);
        QVERIFY2(asked.contains(u"api: 5 per 10s per IP \u2192 2 per 10s per IP"_s),
                 qPrintable(asked));
        QTRY_VERIFY_WITH_TIMEOUT(!stageBanner->isVisible(), 10000);
        snap = rules::RuleStore().pull(c);
        QVERIFY(snap && !snap->stage);
        QCOMPARE(snap->version, qint64(3));
        QCOMPARE(snap->set.rules[0].limit, qint64(2));
        // The working set was the candidate: it follows the promotion, nothing unsaved.
        QTRY_VERIFY_WITH_TIMEOUT(!page->hasUnsavedChanges(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(emitted.last().staged.empty(), 5000);
    }

    // Both pages with a stage and its traffic, at 1280x800 and 1920x1080, in English and
    // Chinese (each page made after its language is installed, as the console makes them).
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("SLUICE_SHOTS_DIR");
        if (dir.isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        Connection c = m_redis.connect();
        QVERIFY(onlyEnforced(c));
        RuleSet candidate = enforcedAtVersion1();
        candidate.rules[0].limit = 2;
        rules::RuleStore::PushOptions o;
        o.message = u"try api at 2"_s;
        QVERIFY(rules::RuleStore().stage(c, candidate, o));
        test::ServeProcess serve;
        QVERIFY(serveSixRequests(serve));
        for (const QString &lang : {u"en"_s, u"zh_CN"_s}) {
            QVERIFY(test::useLanguage(lang));
            test::PageHarness h;
            auto *page = connectedRulesPage(h, {1280, 800});
            QVERIFY(page);
            QTRY_VERIFY_WITH_TIMEOUT(h.find<QWidget>("stageBanner")->isVisible(), 10000);
            test::PageHarness mh;
            auto *monitor = new MonitorPage(mh.controller());
            QVERIFY(mh.show(monitor, {1280, 800}));
            QVERIFY(mh.connect(m_redis.endpoint()));
            monitor->setRules(page->session()->servedSet());
            QTRY_VERIFY_WITH_TIMEOUT(monitor->chart(u"api@staged"_s) &&
                                         monitor->chart(u"api@staged"_s)->totals().total() > 0,
                                     15000);
            for (const QSize size : {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)}) {
                for (const auto &[shown, name] :
                     {std::pair<QWidget *, QString>{page, u"rules"_s},
                      std::pair<QWidget *, QString>{monitor, u"monitor"_s}}) {
                    shown->window()->resize(size);
                    QTest::qWait(300);
                    QVERIFY(
                        shown->window()->grab().save(QStringLiteral("%1/staging-%2-%3-%4x%5.png")
                                                         .arg(dir, name, lang)
                                                         .arg(size.width())
                                                         .arg(size.height())));
                }
            }
        }
        test::useLanguage(u"en"_s);
    }

    // The page's own writes re-base it. The rules pushed in the file's order (not the store's,
    // which is by id): after Promote the page is clean at the promoted version, a second Stage
    // is no conflict with yourself; Discard takes the rules back to the enforced ones; a
    // rollback with unsaved edits keeps them based on it, so the next stage goes through. No
    // message names a command-line flag.
    void ownWritesRebase()
    {
        Connection c = m_redis.connect();
        QVERIFY(c.command({"FLUSHALL"}));
        test::PageHarness h;
        auto *page = new RulesPage(h.controller());
        QVERIFY(h.show(page, {1100, 700}));
        page->setStageConfirm([](const QString &) { return true; });
        page->setHistoryConfirm([](const QString &) { return true; });
        QStringList said;
        QObject::connect(
            page->session(), &RulesSession::message, page,
            [&said](const ui::PageMessage &m) { said << m.headline + u"\n"_s + m.detail; });
        const QByteArray fileOrder = R"({"version": 1, "rules": [
            {"id": "login", "scope": "ip", "algorithm": "token_bucket", "rate": "1/s", "burst": 2},
            {"id": "api", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "10s"}]})";
        QTemporaryDir dir;
        QFile f(dir.filePath(u"rules.json"_s));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(fileOrder) > 0);
        f.close();
        QVERIFY(page->importFile(f.fileName(), nullptr));
        QVERIFY(h.connect(m_redis.endpoint()));
        QTRY_VERIFY_WITH_TIMEOUT(h.find<QPushButton>("pushButton")->isEnabled(), 10000);
        page->session()->forcePush(); // v1, in the file's order here
        QTRY_VERIFY_WITH_TIMEOUT(page->storeVersion() == std::optional<qint64>(1), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!page->hasUnsavedChanges(), 10000);

        auto stageLimit = [&](qint64 limit) {
            Rule api = page->rules().rules[1];
            api.limit = limit;
            page->session()->apply(api, 1);
            page->session()->confirmStage(u"try %1"_s.arg(limit));
        };
        auto *banner = h.find<QWidget>("stageBanner");
        auto *promote = h.find<QPushButton>("promoteButton");
        stageLimit(2);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible() && promote->isEnabled(), 10000);
        QTest::mouseClick(promote, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!page->hasUnsavedChanges(), 5000);
        QCOMPARE(page->rules().basedOn, std::optional<qint64>(3));
        const QString state = h.find<QLabel>("storeState")->text();
        QVERIFY2(!state.contains(u"based on"_s), qPrintable(state));

        // Stage again: based on the promoted version, no conflict.
        stageLimit(3);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QCOMPARE(rules::RuleStore().pull(c)->version, qint64(4));
        QTRY_VERIFY_WITH_TIMEOUT(h.find<QPushButton>("discardStageButton")->isEnabled(), 10000);
        QTest::mouseClick(h.find<QPushButton>("discardStageButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!page->hasUnsavedChanges(), 5000);
        QCOMPARE(page->rules().find(u"api"_s)->limit, qint64(2)); // the enforced rule again
        QCOMPARE(page->rules().basedOn, std::optional<qint64>(5));

        // A rollback with unsaved edits: they stay, based on it; the next stage goes through.
        Rule login = *page->rules().find(u"login"_s);
        login.burst = 7;
        page->session()->apply(login, page->session()->model()->rowOf(u"login"_s));
        page->session()->rollback(1);
        QTRY_VERIFY_WITH_TIMEOUT(page->storeVersion() == std::optional<qint64>(6), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(page->rules().basedOn, std::optional<qint64>(6), 5000);
        QVERIFY(page->hasUnsavedChanges());
        page->session()->confirmStage(u"burst 7"_s);
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
        QCOMPARE(rules::RuleStore().pull(c)->version, qint64(7));
        for (const QString &m : std::as_const(said)) {
            QVERIFY2(!m.contains(u"--"_s) && !m.contains(u"onflict"_s), qPrintable(m));
        }
    }

    // A stage refused as a conflict says what to do in the console's words: no flag, and no
    // button it does not offer.
    void stageConflictInConsoleWords()
    {
        Connection c = m_redis.connect();
        QVERIFY(onlyEnforced(c));
        test::PageHarness h;
        auto *page = connectedRulesPage(h, {1100, 700});
        QVERIFY(page);
        QTRY_COMPARE_WITH_TIMEOUT(page->rules().rules.size(), size_t(2), 10000);
        RuleSet other = enforcedAtVersion1();
        other.rules[1].burst = 9;
        QVERIFY(rules::RuleStore().push(c, other, false)); // v2, behind the page's back
        Rule api = page->rules().rules[0];
        api.limit = 2;
        page->session()->apply(api, 0);
        QTRY_VERIFY_WITH_TIMEOUT(page->storeVersion() == std::optional<qint64>(2), 10000);
        page->session()->confirmStage();
        QTRY_VERIFY_WITH_TIMEOUT(h.find<QLabel>("bannerText")->text().contains(u"not staged"_s),
                                 10000);
        const QString text = h.find<QLabel>("bannerText")->text();
        QVERIFY2(!text.contains(u"--"_s) && text.contains(u"conflict"_s), qPrintable(text));
        // No force for a stage in the console: the message offers no button it has not.
        QVERIFY2(!text.contains(u"force"_s), qPrintable(text));
        QVERIFY(h.find<QPushButton>("bannerPullButton"));
    }

    // The console alone, no check service: the candidate's chart says what would feed it, then
    // a Load run (its own keys, the default) decides the candidate in shadow beside api, and
    // the chart counts what it would deny.
    void loadRunFeedsTheCandidate()
    {
        Connection c = m_redis.connect();
        QVERIFY(onlyEnforced(c));
        RuleSet candidate = enforcedAtVersion1();
        candidate.rules[0].limit = 2;
        QVERIFY(rules::RuleStore().stage(c, candidate, {}));

        test::PageHarness h;
        auto *page = connectedRulesPage(h, {1100, 700});
        QVERIFY(page);
        QTRY_VERIFY_WITH_TIMEOUT(page->session()->servedSet().staged.size() == 1, 10000);
        const RuleSet served = page->session()->servedSet();

        test::PageHarness mh;
        auto *monitor = new MonitorPage(mh.controller());
        QVERIFY(mh.show(monitor, {1100, 700}));
        QVERIFY(mh.connect(m_redis.endpoint()));
        monitor->setRules(served);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->chart(u"api@staged"_s) != nullptr, 5000);
        auto *summary = monitor->chart(u"api@staged"_s)->findChild<QLabel *>(u"chartSummary"_s);
        QTRY_VERIFY2_WITH_TIMEOUT(summary->text().contains(u"Load page"_s),
                                  qPrintable(summary->text()), 5000);
        QVERIFY(mh.shoot(u"staging-candidate-unfed.png"_s));

        test::PageHarness lh;
        auto *load = new LoadPage(lh.controller());
        QVERIFY(lh.show(load, {1100, 700}));
        QVERIFY(lh.connect(m_redis.endpoint()));
        load->setRules(served);
        auto type = [&](const char *name, const QString &text) {
            auto *e = lh.find<QLineEdit>(name);
            e->selectAll();
            QTest::keyClick(e, Qt::Key_Backspace);
            QTest::keyClicks(e, text);
        };
        type("load.rate", u"20/s"_s);
        type("load.duration", u"1s"_s);
        lh.find<QSpinBox>("subjectsSpin")->setValue(1);
        const QString plan = lh.find<QLabel>("planLabel")->text();
        QVERIFY2(plan.contains(u"candidates"_s), qPrintable(plan));
        QSignalSpy finished(load, &LoadPage::finished);
        QTest::mouseClick(lh.find<QPushButton>("startButton"), Qt::LeftButton);
        QVERIFY(finished.wait(15000) || !finished.isEmpty());
        const auto p = finished.at(0).at(0).value<load::LoadProgress>();
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QTRY_VERIFY_WITH_TIMEOUT(monitor->chart(u"api@staged"_s)->totals().shadowDenied > 0, 15000);
        QVERIFY(!summary->text().contains(u"Load page"_s));
    }

    // The page's store watcher loses its subscription (cut as a restart or a network cut would;
    // the version does not move meanwhile): the state line says "not watching Redis", then
    // stops saying it once the watcher is back, with no new version to tell it.
    void watcherBackAfterALoss()
    {
        Connection c = m_redis.connect();
        QVERIFY(onlyEnforced(c));
        test::PageHarness h;
        auto *page = connectedRulesPage(h, {1100, 700});
        QVERIFY(page);
        QTRY_VERIFY_WITH_TIMEOUT(page->storeVersion() == std::optional<qint64>(1), 10000);
        auto *state = h.find<QLabel>("storeState");
        QStringList seen;
        QObject::connect(page->session(), &RulesSession::stateChanged, page,
                         [&] { seen << state->text(); });
        QVERIFY(c.command({"CLIENT", "KILL", "TYPE", "pubsub"}));
        QTRY_VERIFY_WITH_TIMEOUT(!seen.filter(u"not watching Redis"_s).isEmpty(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(!state->text().contains(u"not watching"_s),
                                  qPrintable(state->text()), 10000);
        QVERIFY(page->session()->watchError().isEmpty());
        QCOMPARE(page->storeVersion(), std::optional<qint64>(1));
    }

    // Discard from the banner: the stage gone, the rules as they were.
    void discardFromTheBanner()
    {
        Connection c = m_redis.connect();
        QVERIFY(onlyEnforced(c));
        RuleSet candidate = enforcedAtVersion1();
        candidate.rules.pop_back(); // removes login
        QVERIFY(rules::RuleStore().stage(c, candidate, {}));

        test::PageHarness h;
        auto *page = connectedRulesPage(h, {1100, 700});
        QVERIFY(page);
        // A stage that only removes has no candidate: the banner still says it.
        QTRY_VERIFY_WITH_TIMEOUT(h.find<QWidget>("stageBanner")->isVisible(), 10000);
        QVERIFY2(h.find<QLabel>("stageText")->text().contains(u"removes login"_s),
                 qPrintable(h.find<QLabel>("stageText")->text()));
        QTRY_VERIFY_WITH_TIMEOUT(h.find<QPushButton>("discardStageButton")->isEnabled(), 10000);
        // Discard asks first; "no" leaves the stage as it is.
        QString asked;
        page->setStageConfirm([&asked](const QString &q) {
            asked = q;
            return false;
        });
        QTest::mouseClick(h.find<QPushButton>("discardStageButton"), Qt::LeftButton);
        QVERIFY2(asked.contains(u"login stays"_s), qPrintable(asked));
        QTest::qWait(200);
        QVERIFY(rules::RuleStore().pull(c)->stage);
        page->setStageConfirm([](const QString &) { return true; });
        QTest::mouseClick(h.find<QPushButton>("discardStageButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!h.find<QWidget>("stageBanner")->isVisible(), 10000);
        auto snap = rules::RuleStore().pull(c);
        QVERIFY(snap && !snap->stage);
        QCOMPARE(snap->version, qint64(3));
        QCOMPARE(snap->set.rules.size(), size_t(2));
    }
};

QTEST_MAIN(TestStagingConsole)
#include "tst_stagingconsole.moc"
