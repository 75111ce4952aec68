// The Load page, driven offscreen through its widgets against the fixture's
// Redis: fields validated beside themselves, a constant 200/s for 2 s run to its end by the
// real LoadGenerator, counters equal to the generator's totals and to what the limit allows,
// the decisions in the statistics, Stop.

#include "core/stats/statsreader.h"
#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/language.h"
#include "ui/load/keyscope.h"
#include "ui/load/loadpage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;

namespace {

Rule windowRule(const QString &id, qint64 limit, qint64 windowUs)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, windowUs, Scope{Scope::Kind::Ip, {}},
                        test::keyPrefix());
}

QString uniqueId(const char *base)
{
    return test::uniqueId(QString::fromLatin1(base));
}

} // namespace

class TestLoadPage : public QObject
{
    Q_OBJECT

    test::PageHarness m_h;
    LoadPage *m_page = nullptr;

    template <typename T> T *find(const char *name) { return m_h.find<T>(name); }
    void type(const char *edit, const QString &text)
    {
        auto *e = find<QLineEdit>(edit);
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Backspace);
        QTest::keyClicks(e, text);
    }
    // Gives the page one fixed-window rule of `limit` per `windowUs`, its id made of `base`;
    // that rule.
    Rule useWindowRule(const char *base, qint64 limit, qint64 windowUs)
    {
        RuleSet set;
        set.rules = {windowRule(uniqueId(base), limit, windowUs)};
        m_page->setRules(set);
        return set.rules.front();
    }
    void pick(const QString &kind)
    {
        auto *combo = find<QComboBox>("load.pattern");
        combo->setCurrentIndex(combo->findText(kind));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_h.connect());
        m_page = new LoadPage(m_h.controller());
        QVERIFY(m_h.show(m_page, {1280, 800}, 5));
    }

    void validatesBesideTheFields()
    {
        auto *start = find<QPushButton>("startButton");
        auto *rulesError = find<QLabel>("rulesError");
        // No rules yet: said under the list, and Start is off.
        QVERIFY(!start->isEnabled());
        QVERIFY(rulesError->isVisible());
        QVERIFY(rulesError->text().contains(QStringLiteral("No rules")));

        RuleSet set;
        set.rules = {windowRule(uniqueId("load-v"), 10, duration::usPerSecond)};
        m_page->setRules(set);
        QVERIFY(!rulesError->isVisible());
        QVERIFY(start->isEnabled());

        pick(QStringLiteral("Constant"));
        type("load.rate", QStringLiteral("fast"));
        auto *rateError = find<QLabel>("load.rateError");
        QVERIFY(rateError->isVisible());
        // The scenario reader's message, as a scenario file would get it.
        QVERIFY2(!rateError->text().isEmpty() &&
                     !rateError->text().startsWith(QStringLiteral("Rate: ")),
                 qPrintable(rateError->text()));
        QVERIFY(!start->isEnabled());
        type("load.rate", QStringLiteral("200/s"));
        QVERIFY(!rateError->isVisible());
        QVERIFY(start->isEnabled());

        type("load.duration", QStringLiteral("2s"));
        type("load.to", QStringLiteral("5s"));
        QVERIFY(find<QLabel>("load.toError")->isVisible());
        QVERIFY(find<QLabel>("load.toError")->text().contains(QStringLiteral("2s")));
        type("load.to", QString());
        QVERIFY(!find<QLabel>("load.toError")->isVisible());

        // Burst: its own fields; At past the end is refused beside At.
        pick(QStringLiteral("Burst"));
        QVERIFY(find<QLineEdit>("load.count")->isVisible());
        QVERIFY(!find<QLineEdit>("load.rate")->isVisible());
        type("load.at", QStringLiteral("3s"));
        QVERIFY(find<QLabel>("load.atError")->isVisible());
        type("load.at", QStringLiteral("0s"));
        type("load.count", QStringLiteral("-4"));
        QVERIFY(find<QLabel>("load.countError")->isVisible());
        type("load.count", QStringLiteral("50"));
        QVERIFY(start->isEnabled());

        // Ramp: both rates.
        pick(QStringLiteral("Ramp"));
        QVERIFY(find<QLineEdit>("load.from_rate")->isVisible());
        type("load.to_rate", QStringLiteral("0/s"));
        QVERIFY(find<QLabel>("load.to_rateError")->isVisible());
        QVERIFY(!start->isEnabled());
        type("load.to_rate", QStringLiteral("100/s"));
        QVERIFY(start->isEnabled());

        // Unticking every rule.
        m_page->findChild<QListWidget *>(QStringLiteral("ruleList"))
            ->item(0)
            ->setCheckState(Qt::Unchecked);
        QVERIFY(rulesError->isVisible());
        QVERIFY(!start->isEnabled());
    }

    // Constant 200/s for 2 s on one subject, limit 100 a minute: 400 sent, exactly 100 allowed.
    void runsToTheEnd()
    {
        const Rule rule = useWindowRule("load-run", 100, 60 * duration::usPerSecond);
        pick(QStringLiteral("Constant"));
        type("load.rate", QStringLiteral("200/s"));
        type("load.from", QString());
        type("load.to", QString());
        type("load.duration", QStringLiteral("2s"));
        find<QSpinBox>("threadsSpin")->setValue(2);
        find<QSpinBox>("subjectsSpin")->setValue(1);
        QVERIFY(find<QLabel>("planLabel")->text().contains(QStringLiteral("400")));

        const qint64 startSecond = QDateTime::currentSecsSinceEpoch();
        QSignalSpy started(m_page, &LoadPage::started);
        QSignalSpy finished(m_page, &LoadPage::finished);
        QTest::mouseClick(find<QPushButton>("startButton"), Qt::LeftButton);
        QCOMPARE(started.size(), 1);
        QVERIFY(m_page->isRunning());
        QVERIFY(find<QPushButton>("stopButton")->isEnabled());
        // Live counters while it runs (polled, not waited for).
        QTRY_VERIFY_WITH_TIMEOUT(find<QLabel>("sentValue")->text() != QStringLiteral("0"), 5000);
        QVERIFY(finished.wait(15000) || !finished.isEmpty());
        QCOMPARE(finished.size(), 1);

        const auto p = finished.at(0).at(0).value<load::LoadProgress>();
        QVERIFY(p.finished);
        QVERIFY(!p.cancelled);
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(p.errors, 0);
        QCOMPARE(p.sent, 400);
        QCOMPARE(p.allowed, 100);
        QCOMPARE(p.denied, 300);
        QCOMPARE(p.allowed + p.denied, p.sent);
        // On keys of its own by default, removed at the end: the rule's real key is untouched.
        QVERIFY2(p.keyPrefix.startsWith("sluice:load:"), p.keyPrefix.constData());
        QVERIFY(p.keysRemoved > 0);
        {
            Connection c = test::connect();
            const auto exists = c.command({"EXISTS", rule.policy().keyFor("10.0.0.1")});
            QVERIFY(exists && exists->integer == 0);
        }
        // The counters on screen are the generator's totals.
        const QLocale loc;
        QCOMPARE(find<QLabel>("sentValue")->text(), loc.toString(p.sent));
        QCOMPARE(find<QLabel>("allowedValue")->text(), loc.toString(p.allowed));
        QCOMPARE(find<QLabel>("deniedValue")->text(), loc.toString(p.denied));
        QCOMPARE(find<QLabel>("errorsValue")->text(), QStringLiteral("0"));
        QCOMPARE(m_page->progress().sent, p.sent);
        auto *perRule = find<QTableWidget>("perRuleTable");
        QCOMPARE(perRule->rowCount(), 1);
        QCOMPARE(perRule->item(0, 1)->text(), loc.toString(100));
        QVERIFY(!m_page->isRunning());
        QVERIFY(find<QPushButton>("startButton")->isEnabled());
        QVERIFY(find<QLabel>("message")->text().contains(QStringLiteral("Finished")));

        // The decisions reached the statistics (the Monitor page's source) exactly.
        Connection c = test::connect();
        QTRY_COMPARE_WITH_TIMEOUT(test::recordedCounts(c, rule.id), (stats::Counts{100, 300, 0}),
                                  5000);
        QVERIFY(QDateTime::currentSecsSinceEpoch() - startSecond < 60);
        QVERIFY(m_h.shoot(QStringLiteral("load.png")));
    }

    // The rules' real keys only with a yes: a no starts nothing.
    void realKeysNeedAConfirmation()
    {
        const Rule rule = useWindowRule("load-real", 100, 60 * duration::usPerSecond);
        pick(QStringLiteral("Constant"));
        type("load.rate", QStringLiteral("50/s"));
        type("load.duration", QStringLiteral("1s"));
        find<QSpinBox>("subjectsSpin")->setValue(1);
        find<QCheckBox>("realKeysCheck")->setChecked(true);
        QStringList asked;
        bool yes = false;
        m_page->setConfirm([&](const QString &q) {
            asked << q;
            return yes;
        });
        QSignalSpy started(m_page, &LoadPage::started);
        QSignalSpy finished(m_page, &LoadPage::finished);
        QTest::mouseClick(find<QPushButton>("startButton"), Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(QStringLiteral("real keys")), qPrintable(asked.first()));
        QCOMPARE(started.size(), 0);
        yes = true;
        QTest::mouseClick(find<QPushButton>("startButton"), Qt::LeftButton);
        QCOMPARE(started.size(), 1);
        QVERIFY(finished.wait(15000) || !finished.isEmpty());
        const auto p = finished.at(0).at(0).value<load::LoadProgress>();
        QVERIFY(p.keyPrefix.isEmpty());
        Connection c = test::connect();
        const auto exists = c.command({"EXISTS", rule.policy().keyFor("10.0.0.1")});
        QVERIFY(exists && exists->integer == 1);
        find<QCheckBox>("realKeysCheck")->setChecked(false);
        m_page->setConfirm({});
    }

    // The run's own keys are not the rules' real keys: the note says what the Monitor and the
    // Keys page then see, and how to watch them; on the throwaway sandbox the real keys need no
    // confirmation, elsewhere they do.
    void keyScopeSaysWhatIsWatched()
    {
        KeyScope scope;
        auto *note = scope.findChild<QLabel *>(QStringLiteral("keyScopeNote"));
        QVERIFY(note->text().contains(QStringLiteral("sluice:load:")));
        QVERIFY(note->text().contains(QStringLiteral("Limited right now")));
        QVERIFY(note->text().contains(QStringLiteral("tick the box")));
        int asked = 0;
        int went = 0;
        const ConfirmHook hook = [&](const QString &) {
            ++asked;
            return true;
        };
        scope.findChild<QCheckBox *>(QStringLiteral("realKeysCheck"))->setChecked(true);
        scope.confirmThen(&scope, hook, [&] { ++went; });
        QCOMPARE(asked, 1);
        QCOMPARE(went, 1);
        scope.setThrowaway(true);
        QVERIFY(note->text().contains(QStringLiteral("sandbox")));
        scope.confirmThen(&scope, hook, [&] { ++went; });
        QCOMPARE(asked, 1);
        QCOMPARE(went, 2);
        // The page: not on the sandbox here (the fixture's profile).
        QVERIFY(!m_page->findChild<KeyScope *>()->isThrowaway());
    }

    // At the first-start size the Per rule table lists the rules ticked, at least three rows
    // tall, and the chart does not take the whole column.
    void perRuleTableKeepsRows()
    {
        RuleSet set;
        for (int i = 0; i < 4; ++i) {
            set.rules.push_back(
                windowRule(uniqueId("load-rows") + QString::number(i), 10, duration::usPerSecond));
        }
        m_page->setRules(set);
        m_page->window()->resize(1100, 700);
        QTest::qWait(100);
        auto *perRule = find<QTableWidget>("perRuleTable");
        QCOMPARE(perRule->rowCount(), 4);
        QCOMPARE(perRule->item(3, 0)->text(), set.rules[3].id);
        const int header = perRule->horizontalHeader()->height();
        QVERIFY2(perRule->height() >= header + 4 * 24,
                 qPrintable(QString::number(perRule->height())));
        QVERIFY(perRule->verticalScrollBar()->maximum() == 0);
        m_page->window()->resize(1280, 800);
    }

    // After a short run of four rules, at the three sizes, in both languages
    // (SLUICE_SHOTS_DIR).
    void sizeScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        RuleSet set;
        for (const char *name : {"hello-per-ip", "api-global", "export-queue", "login-per-ip"}) {
            set.rules.push_back(windowRule(uniqueId(name), 20, duration::usPerSecond));
        }
        test::inEachLanguage(
            QStringLiteral("load"), {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)},
            [&](QSize size, const QString &, const QString &path) {
                test::PageHarness frame;
                auto *page = new LoadPage(m_h.controller());
                QVERIFY(frame.show(page, size, 5));
                page->setRules(set);
                auto *combo = page->findChild<QComboBox *>(QStringLiteral("load.pattern"));
                combo->setCurrentIndex(0);
                auto *rate = page->findChild<QLineEdit *>(QStringLiteral("load.rate"));
                rate->setText(QStringLiteral("100/s"));
                Q_EMIT rate->textEdited(rate->text());
                auto *duration = page->findChild<QLineEdit *>(QStringLiteral("load.duration"));
                duration->setText(QStringLiteral("2s"));
                Q_EMIT duration->textEdited(duration->text());
                QSignalSpy finished(page, &LoadPage::finished);
                page->start();
                QVERIFY(finished.wait(15000));
                QTest::qWait(300);
                QVERIFY(frame.window()->grab().save(path));
            });
    }

    void stopsWhenAsked()
    {
        const Rule rule = useWindowRule("load-stop", 1000, duration::usPerSecond);
        pick(QStringLiteral("Poisson"));
        type("load.rate", QStringLiteral("100/s"));
        type("load.duration", QStringLiteral("60s"));
        QSignalSpy finished(m_page, &LoadPage::finished);
        QTest::mouseClick(find<QPushButton>("startButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_page->progress().sent > 0, 5000);
        QTest::mouseClick(find<QPushButton>("stopButton"), Qt::LeftButton);
        QVERIFY(finished.wait(5000));
        const auto p = finished.at(0).at(0).value<load::LoadProgress>();
        QVERIFY(p.cancelled);
        QVERIFY(p.elapsedS < 30);
        QVERIFY(find<QLabel>("message")->text().contains(QStringLiteral("Stopped")));
    }
};

QTEST_MAIN(TestLoadPage)
#include "tst_loadpage.moc"
