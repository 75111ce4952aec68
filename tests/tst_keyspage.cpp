// The console's Keys page, through its real widgets offscreen against real Redis servers: the
// CTest fixture's (keys planted through the real scripts plus the broken keys seen in the
// wild, listed, flagged, fixed in bulk through the page), private ones this test starts, kills
// and restarts (a lost connection and its recovery, a restart mid-scan), a 200,000-key scan
// while the GUI thread keeps ticking, figures for a million rows, and the screenshots.

#include "ownredis.h"
#include "pageharness.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/keys/healthbanner.h"
#include "ui/keys/keydetails.h"
#include "ui/keys/keypresentation.h"
#include "ui/keys/keysfilterproxy.h"
#include "ui/keys/keysmodel.h"
#include "ui/keys/keyspage.h"
#include "ui/keys/sparkline.h"

#include "core/keys/keyhealth.h"
#include "core/limiter/redislimiter.h"
#include "core/rules/codec.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>

using namespace sluice;
using namespace sluice::ui;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 sec = duration::usPerSecond;

Rule windowRule(const QString &id, Algorithm a, qint64 limit, qint64 windowUs,
                const QByteArray &prefix, Scope::Kind scope = Scope::Kind::Ip)
{
    return Rule::window(id, a, limit, windowUs, Scope{scope, {}}, prefix);
}

Rule bucketRule(const QString &id, Algorithm a, qint64 count, qint64 periodUs, qint64 burst,
                const QByteArray &prefix, Scope::Kind scope = Scope::Kind::Ip)
{
    return Rule::bucket(id, a, Rate{count, periodUs}, burst, Scope{scope, {}}, prefix);
}

QByteArray num(qint64 v)
{
    return QByteArray::number(v);
}

// `n` fixed-window states "<prefix>big:{<i>}" with a 10 min TTL (long enough that none expires
// during a slow scan; the test's rule has a 10 min window too).
bool plantFixedWindows(Connection &c, const QByteArray &prefix, qint64 n)
{
    return test::plantFixedWindows(c, prefix, 0, n, 600'000);
}

// The console's session on one server, as the main window makes it, and the page on it.
// A fixed window's key as the script writes it (one request counted), a minute to live.
bool plantWindow(Connection &c, const QByteArray &key)
{
    return c.command({"HSET", key, "s", "1", "c", "1"}) && c.command({"PEXPIRE", key, "60000"});
}

struct Harness
{
    explicit Harness(const Endpoint &e)
    {
        page = std::make_unique<KeysPage>(base.controller());
        page->resize(1280, 800);
        page->setConfirm([this](const QString &q) {
            questions << q;
            return true;
        });
        sourceTester = std::make_unique<QAbstractItemModelTester>(
            page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxyTester = std::make_unique<QAbstractItemModelTester>(
            page->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        base.connectTo(e);
    }
    ~Harness()
    {
        proxyTester.reset();
        sourceTester.reset();
        page.reset();
    }

    template <typename T> T *find(const char *name)
    {
        auto *w = page->findChild<T *>(QString::fromLatin1(name));
        if (!w) {
            qWarning("no widget %s", name);
        }
        return w;
    }
    QTableView *table() { return find<QTableView>("keysTable"); }
    QString banner() { return find<QLabel>("bannerText")->text(); }
    void click(const char *name) { QTest::mouseClick(find<QPushButton>(name), Qt::LeftButton); }
    // The proxy row of a key; -1 when not shown.
    int rowOf(const QByteArray &key)
    {
        auto *p = page->proxy();
        for (int r = 0; r < p->rowCount(); ++r) {
            if (p->index(r, 0).data(KeysModel::RawKeyRole).toByteArray() == key) {
                return r;
            }
        }
        return -1;
    }
    QVariant cell(const QByteArray &key, int column, int role = Qt::DisplayRole)
    {
        const int r = rowOf(key);
        return r < 0 ? QVariant() : page->proxy()->index(r, column).data(role);
    }
    // The page resized (when a size is given), shown and exposed.
    bool show(QSize size = {})
    {
        if (size.isValid()) {
            page->resize(size);
        }
        page->show();
        return QTest::qWaitForWindowExposed(page.get());
    }
    // The keys matching `pattern` (typed into the pattern field) scanned under `rules`, to the
    // end of the scan.
    bool scanMatching(const QByteArray &pattern, const RuleSet &rules)
    {
        find<QLineEdit>("patternEdit")->setText(QString::fromUtf8(pattern));
        page->setRules(rules);
        return scan();
    }
    // Scans again and waits for the end of the scan (the last one, if several were queued).
    bool scan(int timeoutMs = 30'000)
    {
        QSignalSpy done(page.get(), &KeysPage::scanFinished);
        page->refresh();
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (!done.isEmpty() && !page->isScanning()) {
                return true;
            }
            QTest::qWait(20);
        }
        return false;
    }

    test::PageHarness base; // the profile store and the controller
    std::unique_ptr<KeysPage> page;
    std::unique_ptr<QAbstractItemModelTester> sourceTester;
    std::unique_ptr<QAbstractItemModelTester> proxyTester;
    QStringList questions;
};

} // namespace

class TestKeysPage : public QObject
{
    Q_OBJECT

    QByteArray m_prefix;
    RuleSet m_rules;

    const Rule &rule(const char *id) const { return *m_rules.find(QString::fromLatin1(id)); }
    QByteArray key(const char *id, const QByteArray &subject) const
    {
        return rule(id).keyFor(subject);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::useTestSettings();
        m_prefix = test::keyPrefix();
        m_rules.rules = {
            // Slow enough that nothing planted expires while the test runs.
            windowRule(u"fw"_s, Algorithm::FixedWindow, 3, 60 * sec, m_prefix),
            windowRule(u"sl"_s, Algorithm::SlidingLog, 3, 60 * sec, m_prefix),
            windowRule(u"sc"_s, Algorithm::SlidingCounter, 3, 60 * sec, m_prefix),
            bucketRule(u"tb"_s, Algorithm::TokenBucket, 1, 10 * sec, 20, m_prefix),
            bucketRule(u"lb"_s, Algorithm::LeakyBucket, 1, 10 * sec, 5, m_prefix),
            bucketRule(u"g"_s, Algorithm::Gcra, 1, 10 * sec, 5, m_prefix),
        };
    }

    // A key written under a per-subject override limit of a rule: the rule's, labelled so.
    void overrideKeysAreLabelled()
    {
        Connection c = test::connect();
        const QByteArray k = m_prefix + "fw:override:{10.9.9.9}";
        QVERIFY(plantWindow(c, k));
        Harness h(test::redisEndpoint());
        QVERIFY(h.show());
        QVERIFY(h.scanMatching(m_prefix + "fw:override:*", m_rules));
        QCOMPARE(h.page->model()->rowCount(), 1);
        QCOMPARE(h.cell(k, KeysModel::RuleColumn).toString(), u"fw (override)"_s);
        QCOMPARE(h.cell(k, KeysModel::SubjectColumn).toString(), u"10.9.9.9"_s);
        QVERIFY(c.command({"DEL", k}));
    }

    // A wide window gives the Key column its keys' width and the State what is left (the
    // state gives way first): a long key was middle-elided at 1920 px beside 800 px of state.
    void keyColumnTakesItsKeysWidth()
    {
        Connection c = test::connect();
        const QByteArray k =
            m_prefix + "fw:{a-long-subject-name-of-a-partner-0123456789-eu-west-1-batch-reports}";
        QVERIFY(plantWindow(c, k));
        Harness h(test::redisEndpoint());
        QVERIFY(h.show({1000, 700}));
        QVERIFY(h.scanMatching(k, m_rules));
        QCOMPARE(h.page->model()->rowCount(), 1);
        QTableView *t = h.table();
        // Scanned in a small window, then made wide (the review's 1536 -> 1920).
        h.page->resize(1920, 1000);
        const int needed = t->fontMetrics().horizontalAdvance(QString::fromUtf8(k));
        QVERIFY(needed > 400); // wider than a fixed key column
        QTRY_VERIFY2(
            t->columnWidth(KeysModel::KeyColumn) >= needed,
            qPrintable(u"%1 of %2"_s.arg(t->columnWidth(KeysModel::KeyColumn)).arg(needed)));
        QVERIFY(t->columnWidth(KeysModel::StateColumn) >= 240);
        // Narrow: the key gives way too, down to its floor, the state keeps its share.
        h.page->resize(1000, 700);
        QTRY_VERIFY(t->columnWidth(KeysModel::KeyColumn) < needed);
        QVERIFY(c.command({"DEL", k}));
    }

    // A key planted without a TTL after the first scan comes last in the table, below the
    // fold at 1100x700: the rescan that finds it scrolls it into view (it was appended out of
    // sight). The Key, Rule and Subject columns are as wide as their text, the State gives way.
    void flaggedKeyComesIntoView()
    {
        Connection c = test::connect();
        const QByteArray pattern = m_prefix + "fw:{view-*";
        for (int i = 0; i < 120; ++i) {
            const QByteArray k = key("fw", "view-" + QByteArray::number(i));
            QVERIFY(plantWindow(c, k));
        }
        Harness h(test::redisEndpoint());
        QVERIFY(h.show({1100, 700}));
        QVERIFY(h.scanMatching(pattern, m_rules));
        QCOMPARE(h.page->model()->rowCount(), 120);
        const QByteArray never = key("fw", "view-never");
        QVERIFY(c.command({"HSET", never, "s", "1", "c", "1"})); // no TTL
        QVERIFY(h.scan());
        QTableView *t = h.table();
        const int row = h.rowOf(never);
        QCOMPARE(row, 120); // appended last: out of sight unless scrolled to
        QVERIFY(t->viewport()->height() / t->rowHeight(0) < 120); // below the first screenful
        QTRY_VERIFY(t->viewport()->rect().contains(t->visualRect(t->model()->index(row, 0))));
        QVERIFY(t->rowAt(0) > 0); // scrolled to it
        // Each short column holds its text; the key is whole beside a State that gave way.
        const QFontMetrics fm = t->fontMetrics();
        for (const int col : {KeysModel::KeyColumn, KeysModel::RuleColumn}) {
            const QString text = t->model()->index(row, col).data().toString();
            QVERIFY2(t->columnWidth(col) >= fm.horizontalAdvance(text) + 6,
                     qPrintable(u"column %1: %2 px for %3 px of \"%4\""_s.arg(col)
                                    .arg(t->columnWidth(col))
                                    .arg(fm.horizontalAdvance(text))
                                    .arg(text)));
        }
        for (int i = 0; i < 120; ++i) {
            QVERIFY(c.command({"DEL", key("fw", "view-" + QByteArray::number(i))}));
        }
        QVERIFY(c.command({"DEL", never}));
    }

    // A short details pane (a 1100x700 window) with a long state: the facts scroll, each
    // keeps its lines; they were squeezed over each other (the state cut, the last minute's
    // note drawn over its chart).
    void detailsScrollInAShortPane()
    {
        Connection c = test::connect();
        const QByteArray k = m_prefix + "fw:{10.8.8.8}"; // a string where a hash belongs
        QVERIFY(c.command({"SET", k, "3"}));
        Harness h(test::redisEndpoint());
        QVERIFY(h.show({940, 640}));
        QVERIFY(h.scanMatching(k, m_rules));
        h.table()->selectRow(h.rowOf(k));
        QTRY_VERIFY_WITH_TIMEOUT(!h.find<QLabel>("detailsState")->text().isEmpty(), 5000);
        QTest::qWait(100);
        const auto *state = h.find<QLabel>("detailsState");
        QVERIFY2(state->height() >= state->heightForWidth(state->width()),
                 qPrintable(
                     u"%1 < %2"_s.arg(state->height()).arg(state->heightForWidth(state->width()))));
        const QRect chart = h.find<QWidget>("detailsHistory")->geometry();
        const QRect note = h.find<QLabel>("detailsHistoryNote")->geometry();
        QVERIFY2(chart.bottom() < note.top(),
                 qPrintable(u"%1 >= %2"_s.arg(chart.bottom()).arg(note.top())));
        QVERIFY(c.command({"DEL", k}));
    }

    // --- pure ---------------------------------------------------------------------------------

    void displayBytes()
    {
        QCOMPARE(keypresentation::displayBytes("rate_limit:a:{1.2.3.4}"),
                 u"rate_limit:a:{1.2.3.4}"_s);
        QCOMPARE(keypresentation::displayBytes(QByteArray("a\nb\r\t\\", 6)),
                 u"a\\x0ab\\x0d\\x09\\x5c"_s);
        QCOMPARE(keypresentation::displayBytes(QByteArray("\x00\xff{x}", 5)), u"\\x00\\xff{x}"_s);
        QCOMPARE(keypresentation::displayBytes("caf\xc3\xa9"), u"café"_s);
        QCOMPARE(keypresentation::ttlText(4200), u"4.2 s"_s);
        QCOMPARE(keypresentation::ttlText(42'000), u"42 s"_s);
        QCOMPARE(keypresentation::ttlText(192'000), u"3 min 12 s"_s);
    }

    // The model and the proxy under the tester through every change the page makes.
    void modelsUnderTester()
    {
        KeysModel model;
        KeysFilterProxy proxy(&model);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto info = [](const QByteArray &k, qint64 pttl, Health h) {
            KeyInfo i;
            i.key = k;
            i.type = "hash";
            i.pttlMs = pttl;
            i.health = h;
            i.ruleId = u"r"_s;
            i.maxTtlMs = 60'000;
            return i;
        };
        model.append({info("a", 1000, Health::Ok), info("b", -1, Health::NoTtl)});
        model.append({info("c", 5000, Health::Ok), info("d", 9'000'000, Health::TtlExceedsRule),
                      info("e", 100, Health::WrongType)});
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.count(Health::NoTtl), qint64(1));
        QCOMPARE(model.flagged(), qint64(3));
        proxy.sort(KeysModel::TtlColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data(KeysModel::RawKeyRole).toByteArray(), QByteArray("e"));
        QCOMPARE(proxy.index(4, 0).data(KeysModel::RawKeyRole).toByteArray(), QByteArray("b"));
        proxy.setOnlyFlagged(true);
        QCOMPARE(proxy.rowCount(), 3);
        auto rowOf = [&](const QByteArray &k) {
            for (int r = 0; r < model.rowCount(); ++r) {
                if (model.info(r).key == k) {
                    return r;
                }
            }
            return -1;
        };
        // A refresh: "b" got a TTL; a pair whose row holds another key is ignored.
        model.replace(
            {{rowOf("b"), info("b", 30'000, Health::Ok)}, {rowOf("a"), info("zz", 1, Health::Ok)}});
        QCOMPARE(model.count(Health::NoTtl), qint64(0));
        QCOMPARE(model.count(Health::Ok), qint64(3));
        QCOMPARE(rowOf("zz"), -1);
        // Sorted descending by flag: worst first.
        proxy.setOnlyFlagged(false);
        proxy.sort(KeysModel::FlagColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data(KeysModel::RawKeyRole).toByteArray(), QByteArray("e"));
        proxy.setOnlyFlagged(true);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setOnlyFlagged(false);
        proxy.setText(u"c"_s);
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setText({});
        KeyFixer::Report report;
        report.action = KeyFixer::Action::Delete;
        KeyFixer::Outcome o;
        o.key = "e";
        o.status = KeyFixer::Status::Done;
        report.outcomes << o;
        QCOMPARE(model.applyFix(report), 1);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.count(Health::WrongType), qint64(0));
        model.clear();
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(model.summary().keys, qint64(0));
    }

    // --- the fixture's Redis ------------------------------------------------------------------

    // Keys of every algorithm made by the real scripts, and the broken ones: listed, flagged,
    // explained, then fixed in bulk and deleted through the page.
    void listFlagAndFix()
    {
        Connection c = test::cleanSlate();
        {
            RedisLimiter limiter(test::connect());
            const QList<QByteArray> subjects{"10.0.0.1", "10.0.0.2", QByteArray("line\nbreak"),
                                             QByteArray("\x00\xff", 2)};
            for (const Rule &r : m_rules.rules) {
                const Policy p = r.policy();
                for (const QByteArray &s : subjects) {
                    auto d = limiter.decide(Request{&p, p.keyFor(s), 1, std::nullopt, 0});
                    QVERIFY2(d.ok() && d->allowed, qPrintable(r.id));
                }
            }
        }
        const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
        // INCR-after-expiry leftovers: fixed-window hashes written without a TTL.
        const QByteArray never1 = key("fw", "noexp-1");
        const QByteArray never2 = key("fw", "noexp-2");
        QVERIFY(c.command({"HSET", never1, "s", num(nowUs), "c", "2"}));
        QVERIFY(c.command({"HSET", never2, "s", num(nowUs), "c", "3"}));
        // The ms-vs-s bug: a token bucket with a TTL 1000x too long.
        const QByteArray tooLong = key("tb", "10.0.0.1");
        QVERIFY(c.command({"PEXPIRE", tooLong, num(maxTtlMs(rule("tb")) * 1000)}));
        // A zset where the fixed window keeps a hash.
        const QByteArray wrong = key("fw", "zset");
        QVERIFY(c.command({"ZADD", wrong, "1", "m"}));
        QVERIFY(c.command({"PEXPIRE", wrong, "60000"}));
        // An orphan: the state of a rule that no longer exists.
        const QByteArray orphan = m_prefix + "deleted-rule:{9.9.9.9}";
        QVERIFY(c.command({"HSET", orphan, "s", "1", "c", "1"}));
        QVERIFY(c.command({"PEXPIRE", orphan, "60000"}));
        const int planted = 6 * 4 + 2 + 2;

        Harness h(test::redisEndpoint());
        QVERIFY(h.show());
        QSignalSpy health(h.page.get(), &KeysPage::healthChanged);
        QVERIFY(h.scanMatching(m_prefix + '*', m_rules));
        QCOMPARE(h.page->model()->rowCount(), planted);

        // Flags: words and an icon, never colour alone.
        QCOMPARE(h.cell(never1, KeysModel::FlagColumn).toString(), u"never expires"_s);
        QVERIFY(!h.cell(never1, KeysModel::FlagColumn, Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(h.cell(never1, KeysModel::TtlColumn).toString(), u"∞ never"_s);
        QCOMPARE(h.cell(tooLong, KeysModel::FlagColumn).toString(), u"TTL too long"_s);
        QCOMPARE(h.cell(wrong, KeysModel::FlagColumn).toString(), u"wrong type"_s);
        QCOMPARE(h.cell(orphan, KeysModel::FlagColumn).toString(), u"no rule"_s);
        QCOMPARE(h.cell(key("g", "10.0.0.2"), KeysModel::FlagColumn).toString(), u"ok"_s);
        QCOMPARE(h.cell(key("fw", "10.0.0.1"), KeysModel::RuleColumn).toString(), u"fw"_s);
        QVERIFY2(
            h.cell(key("fw", "10.0.0.1"), KeysModel::StateColumn).toString().contains(u"1 / 3"_s),
            qPrintable(h.cell(key("fw", "10.0.0.1"), KeysModel::StateColumn).toString()));
        // Binary-safe keys: escaped, never mangled.
        QCOMPARE(h.cell(key("sl", "line\nbreak"), KeysModel::SubjectColumn).toString(),
                 u"line\\x0abreak"_s);
        QVERIFY(h.cell(key("g", QByteArray("\x00\xff", 2)), KeysModel::KeyColumn)
                    .toString()
                    .endsWith(u"g:{\\x00\\xff}"_s));
        // A TTL that counts down between refreshes.
        const qint64 ttl1 = h.cell(key("fw", "10.0.0.1"), 0, KeysModel::RemainingRole).toLongLong();
        QVERIFY(ttl1 > 0 && ttl1 <= 60'000);

        // The banner and the badge.
        // What such a key does, not "forever" beside a row whose counter says it resets: these
        // are Sluice's own hashes, which record their window's start, so their limit resets and
        // the next admission sets the TTL again (a plain counter without a rule blocks: below).
        QVERIFY2(h.banner().startsWith(u"2 limiter keys never expire: their state records its "
                                       "own time, so their limits still reset"_s),
                 qPrintable(h.banner()));
        QVERIFY2(!h.banner().contains(u"blocks"_s) && !h.banner().contains(u"forever"_s),
                 qPrintable(h.banner()));
        QVERIFY2(h.banner().contains(u"1 key has a TTL longer than its rule can need"_s),
                 qPrintable(h.banner()));
        QVERIFY(!health.isEmpty());
        QCOMPARE(health.last().at(0).toLongLong(), qint64(2));
        QCOMPARE(health.last().at(1).toLongLong(), qint64(5));

        // "Show them": only the flagged keys.
        h.click("showFlaggedButton");
        QVERIFY(h.find<QCheckBox>("onlyFlaggedCheck")->isChecked());
        QCOMPARE(h.page->proxy()->rowCount(), 5);

        // The details of a key without TTL: the cause in words, the raw value.
        h.table()->selectRow(h.rowOf(never1));
        QVERIFY2(h.find<QLabel>("detailsExplanation")->text().contains(u"its limit still resets"_s),
                 qPrintable(h.find<QLabel>("detailsExplanation")->text()));
        QVERIFY2(h.find<QLabel>("detailsRule")->text().contains(rule("fw").describe()),
                 qPrintable(h.find<QLabel>("detailsRule")->text()));
        QTRY_VERIFY_WITH_TIMEOUT(
            h.find<QPlainTextEdit>("rawValue")->toPlainText().contains(u"hash, 2 entries"_s), 5000);
        QVERIFY(h.find<QPlainTextEdit>("rawValue")->toPlainText().contains(u"c  3"_s) ||
                h.find<QPlainTextEdit>("rawValue")->toPlainText().contains(u"c  2"_s));

        // Fix all from rules, confirmed (the test's hook), with the count in the question.
        QSignalSpy fixed(h.page.get(), &KeysPage::fixFinished);
        h.click("fixAllButton");
        QCOMPARE(h.questions.size(), 1);
        QVERIFY2(h.questions.first().contains(u"the 3 keys that never expire or live too long"_s),
                 qPrintable(h.questions.first()));
        QVERIFY(fixed.wait(20'000));
        const auto report = fixed.first().first().value<KeyFixer::Report>();
        QVERIFY(!report.error);
        QCOMPARE(report.count(KeyFixer::Status::Done), qint64(3));
        QVERIFY(test::pttl(c, never1) > 0);
        QVERIFY(test::pttl(c, never2) > 0);
        QVERIFY(test::pttl(c, tooLong) > 0 && test::pttl(c, tooLong) <= maxTtlMs(rule("tb")));
        QVERIFY2(h.find<QLabel>("fixReport")->text().startsWith(u"TTL set on 3 keys."_s),
                 qPrintable(h.find<QLabel>("fixReport")->text()));
        QVERIFY(!h.banner().contains(u"never expire"_s));
        QCOMPARE(h.page->model()->count(Health::NoTtl), qint64(0));
        QCOMPARE(health.last().at(0).toLongLong(), qint64(0));
        QCOMPARE(h.cell(never1, KeysModel::FlagColumn).toString(), QString()); // filtered out now
        QCOMPARE(h.page->proxy()->rowCount(), 2);

        // Delete the wrong-type key, selected, confirmed.
        h.table()->clearSelection();
        h.table()->selectRow(h.rowOf(wrong));
        fixed.clear();
        h.click("deleteButton");
        QCOMPARE(h.questions.size(), 2);
        QVERIFY2(h.questions.last().contains(u"Delete the selected key"_s),
                 qPrintable(h.questions.last()));
        QVERIFY(fixed.wait(10'000));
        QCOMPARE(test::pttl(c, wrong), qint64(-2));
        QCOMPARE(h.rowOf(wrong), -1);
        QCOMPARE(h.page->model()->rowCount(), planted - 1);

        // The text filter: raw bytes, escapes as shown.
        h.find<QCheckBox>("onlyFlaggedCheck")->setChecked(false);
        QTest::keyClicks(h.find<QLineEdit>("filterEdit"), u"line\\x0a"_s);
        QTRY_COMPARE(h.page->proxy()->rowCount(), 6);
        test::cleanup(c);
    }

    // 200,000 keys: the count is right, and the GUI thread keeps processing events meanwhile
    // (the longest gap between two ticks of a 5 ms timer is printed, not asserted).
    void bigScanKeepsTheGuiFree()
    {
        Connection c = test::cleanSlate();
        constexpr qint64 n = 200'000;
        QVERIFY(plantFixedWindows(c, m_prefix, n));
        RuleSet set;
        set.rules = {windowRule(u"big"_s, Algorithm::FixedWindow, 10, 600 * sec, m_prefix)};

        Harness h(test::redisEndpoint());
        h.proxyTester.reset(); // checks every insert against the whole proxy: too slow here
        h.sourceTester.reset();
        QVERIFY(h.show());
        QVERIFY(h.scan()); // the session's first scan (default patterns), out of the way
        h.find<QLineEdit>("patternEdit")->setText(QString::fromUtf8(m_prefix) + u"big:*"_s);

        QElapsedTimer clock;
        qint64 maxGap = 0;
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] {
            maxGap = std::max(maxGap, clock.restart());
            ++ticks;
        });
        QSignalSpy done(h.page.get(), &KeysPage::scanFinished);
        QElapsedTimer took;
        took.start();
        clock.start();
        ticker.start(5);
        h.page->setRules(set); // rescans with the rule
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() && !h.page->isScanning(), 120'000);
        ticker.stop();
        const qint64 scanMs = took.elapsed();
        const auto summary = done.last().first().value<ScanSummary>();
        qInfo("scan summary: %lld keys delivered, %lld pages, %lld gone, %lld duplicates",
              summary.progress.keys, summary.progress.pages, summary.gone, summary.duplicates);
        QCOMPARE(summary.status, ScanSummary::Status::Completed);
        QCOMPARE(h.page->model()->rowCount(), int(n));
        QCOMPARE(h.page->model()->count(Health::Ok), n);
        qInfo("200,000-key scan through the page: %lld ms; GUI thread: %d ticks of 5 ms, longest "
              "gap %lld ms",
              scanMs, ticks, maxGap);

        // Sorting the 200,000 rows by TTL, through the header as a user does.
        took.restart();
        h.table()->sortByColumn(KeysModel::TtlColumn, Qt::DescendingOrder);
        qInfo("sort of 200,000 rows by TTL in the view: %lld ms", took.elapsed());
        QVERIFY(test::unplantFixedWindows(c, m_prefix, 0, n));
    }

    // The page at the CLI's unpaced rate: a profile with no scan budget ("no limit"), over a
    // keyspace made outside the test. tools/bench-keys.sh sets SLUICE_BENCH_KEYS_URL (its
    // private Redis), SLUICE_BENCH_KEYS_RULES (its rule file) and SLUICE_BENCH_KEYS_N (the keys
    // there), runs this between its C kit's passes and prints the ratio. The figures are printed
    // ("page figures: ..."), not asserted; the rows are: every key, then every key decoded.
    void unpacedScanFigures()
    {
        const QString url = qEnvironmentVariable("SLUICE_BENCH_KEYS_URL");
        if (url.isEmpty()) {
            QSKIP("a benchmark: tools/bench-keys.sh runs it (SLUICE_BENCH_KEYS_URL, _RULES, _N)");
        }
        const auto e = Endpoint::parse(url);
        QVERIFY2(e, qPrintable(url));
        const auto loaded = rules::loadFile(qEnvironmentVariable("SLUICE_BENCH_KEYS_RULES"));
        QVERIFY(loaded.ok());
        const qint64 n = qEnvironmentVariableIntValue("SLUICE_BENCH_KEYS_N");
        QVERIFY(n > 0);

        Harness h(*e);
        h.proxyTester.reset(); // checks every insert against the whole proxy: too slow here
        h.sourceTester.reset();
        const QString id = h.base.controller()->currentId();
        auto profile = h.base.store().profile(id);
        QVERIFY(profile);
        profile->scanBudget = 0; // "no limit", as a user sets it on the Connection page
        h.base.store().save(*profile, QString());
        QCOMPARE(h.base.controller()->scanBudget(), 0.0);
        QVERIFY(h.show());
        QVERIFY(h.scan(300'000)); // the session's first scan, out of the way

        // One timed scan: its keys/s, and the longest gap between two ticks of a 5 ms timer.
        const auto timed = [&](const char *what, const std::function<void()> &start) {
            QElapsedTimer clock;
            qint64 maxGap = 0;
            QElapsedTimer took;
            QStringList long_; // the gaps over 50 ms: when (from the start) and the rows then
            QTimer ticker;
            connect(&ticker, &QTimer::timeout, this, [&] {
                const qint64 gap = clock.restart();
                maxGap = std::max(maxGap, gap);
                if (gap > 50) {
                    long_ << u"%1 ms at %2 ms (%3 rows)"_s.arg(gap)
                                 .arg(took.elapsed())
                                 .arg(h.page->model()->rowCount());
                }
            });
            QSignalSpy done(h.page.get(), &KeysPage::scanFinished);
            took.start();
            clock.start();
            ticker.start(5);
            start();
            QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty() && !h.page->isScanning(), 600'000);
            ticker.stop();
            const qint64 ms = std::max<qint64>(1, took.elapsed());
            const auto summary = done.last().first().value<ScanSummary>();
            QCOMPARE(summary.status, ScanSummary::Status::Completed);
            QCOMPARE(h.page->model()->rowCount(), int(n));
            std::printf("page figures: %s %lld keys in %lld ms, %.0f keys/s, longest GUI gap %lld "
                        "ms, %lld back-offs\n",
                        what, qlonglong(summary.progress.keys), qlonglong(ms), n * 1000.0 / ms,
                        qlonglong(maxGap), qlonglong(summary.progress.backoffs));
            if (!long_.isEmpty()) {
                std::printf("page figures: %s gaps over 50 ms: %s\n", what,
                            qPrintable(long_.join(u", "_s)));
            }
            std::fflush(stdout);
        };
        h.find<QLineEdit>("patternEdit")->setText(u"*"_s);
        timed("plain", [&] { h.page->refresh(); });
        timed("states", [&] { h.page->setRules(loaded.set); });
    }

    // A big table is freed in the thread pool, not on the GUI thread: a rescan of a million
    // rows stalled it for 58 to 106 ms there (tools/bench-keys.sh, the page's figures). Shown
    // by a key the test shares with the table: still shared after clear() while the pool is
    // held busy, its own once the pool has run.
    void clearFreesABigTableInThePool()
    {
        KeysModel model;
        QList<KeyInfo> rows;
        for (int i = 0; i < 20'000; ++i) {
            KeyInfo k;
            k.key = "rate_limit:a:{" + QByteArray::number(i) + '}';
            k.type = "hash";
            k.pttlMs = 60'000;
            rows << k;
        }
        const QByteArray shared = rows[7].key;
        model.append(rows);
        rows.clear();
        QVERIFY(!shared.isDetached()); // the table holds it too

        QThreadPool *pool = QThreadPool::globalInstance();
        QSemaphore held;
        QSemaphore running;
        const int threads = pool->maxThreadCount();
        for (int i = 0; i < threads; ++i) { // every thread of the pool busy until released
            pool->start([&] {
                running.release();
                held.acquire();
            });
        }
        // Released on every way out: a pool left held would hang the test's exit.
        auto release = qScopeGuard([&] { held.release(threads); });
        QVERIFY(running.tryAcquire(threads, 10'000));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY2(!shared.isDetached(), "the rows were freed by clear() itself");
        release.dismiss();
        held.release(threads);
        QVERIFY(pool->waitForDone(10'000));
        QVERIFY(shared.isDetached()); // freed by the pool

        // A small table is freed at once (no task for a few rows).
        rows.resize(10);
        rows[0].key = shared;
        model.append(rows);
        rows.clear();
        QVERIFY(!shared.isDetached());
        model.clear();
        QVERIFY(shared.isDetached());
    }

    // Figures for a million rows (printed, not asserted): appended in pages as the worker
    // sends them, with a view attached, then sorted by TTL and filtered.
    void millionRowsFigures()
    {
        KeysModel model;
        KeysFilterProxy proxy(&model);
        QTableView view;
        view.setModel(&proxy);
        view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        constexpr int total = 1'000'000;
        constexpr int page = 10'000;
        QRandomGenerator rng(42);
        qint64 appendNs = 0;
        qint64 worstPageNs = 0;
        QElapsedTimer t;
        for (int at = 0; at < total; at += page) {
            QList<KeyInfo> chunk;
            chunk.reserve(page);
            for (int i = at; i < at + page; ++i) {
                KeyInfo k;
                k.key = "rate_limit:api-per-user:{user-" + QByteArray::number(i) + '}';
                k.type = "hash";
                k.ruleId = u"api-per-user"_s;
                k.subject = "user-" + QByteArray::number(i);
                k.maxTtlMs = 60'000;
                k.pttlMs = i % 997 == 0 ? -1 : qint64(rng.bounded(60'000));
                k.health = k.pttlMs == -1 ? Health::NoTtl : Health::Ok;
                k.state.kind = KeyState::Kind::FixedWindow;
                k.state.limit = 100;
                k.state.count = i % 100;
                chunk << k;
            }
            t.start();
            model.append(chunk);
            const qint64 ns = t.nsecsElapsed();
            appendNs += ns;
            worstPageNs = std::max(worstPageNs, ns);
        }
        QCOMPARE(proxy.rowCount(), total);
        t.start();
        view.sortByColumn(KeysModel::TtlColumn, Qt::AscendingOrder);
        const qint64 sortMs = t.elapsed();
        QCOMPARE(proxy.index(total - 1, 0).data(KeysModel::PttlRole).toLongLong(), qint64(-1));
        t.start();
        proxy.setOnlyFlagged(true);
        const qint64 filterMs = t.elapsed();
        QCOMPARE(proxy.rowCount(), total / 997 + 1);
        qInfo("1,000,000 rows: append %lld ms in total in pages of %d (worst page %lld ms); "
              "sort by TTL %lld ms; 'only flagged' filter %lld ms",
              appendNs / 1'000'000, page, worstPageNs / 1'000'000, sortMs, filterMs);
    }

    // --- private servers ----------------------------------------------------------------------

    // Kill the server: the page says so and keeps its rows; start it again: the message goes
    // by itself.
    void lostConnectionAndRecovery()
    {
        test::OwnRedis server;
        QVERIFY(server.start());
        auto plant = [&] {
            Connection c = Connection::open(server.endpoint()).value();
            for (int i = 0; i < 5; ++i) {
                QVERIFY(c.command(
                    {"SET", "rate_limit:demo:{10.0.0." + num(i) + '}', "1", "PX", "600000"}));
            }
            QVERIFY(c.command({"SET", "rate_limit:demo:{forever}", "1"}));
        };
        plant();
        Harness h(server.endpoint());
        QVERIFY(h.show());
        QTRY_COMPARE_WITH_TIMEOUT(h.page->model()->rowCount(), 6, 10'000);
        QTRY_VERIFY(!h.page->isScanning());
        // No rules yet: judged by the TTL only.
        QVERIFY2(h.banner().startsWith(u"1 limiter key never expires: once it reaches the limit "
                                       "it blocks its subject until someone deletes it."_s),
                 qPrintable(h.banner()));
        QCOMPARE(h.cell("rate_limit:demo:{forever}", KeysModel::RuleColumn).toString(), u"—"_s);
        QVERIFY(h.page->message().isEmpty());

        server.kill();
        QTRY_VERIFY_WITH_TIMEOUT(h.page->message().contains(u"lost"_s), 10'000);
        QCOMPARE(h.page->model()->rowCount(), 6); // the last data stays
        QVERIFY(h.table()->isEnabled());
        QVERIFY(h.page->grab().save(test::screenshotPath(u"keys-lost.png"_s)));

        QVERIFY(server.start());
        plant();
        QTRY_VERIFY_WITH_TIMEOUT(h.page->message().isEmpty(), 20'000);
        QCOMPARE(h.page->model()->rowCount(), 6);
        // Rows read again after the recovery: the rows update.
        QTRY_VERIFY_WITH_TIMEOUT(
            h.cell("rate_limit:demo:{10.0.0.1}", 0, KeysModel::PttlRole).toLongLong() > 0, 10'000);
    }

    // Redis restarts while the page scans: the scan ends with a message saying so, and the
    // keys listed before stay.
    void restartMidScan()
    {
        test::OwnRedis server;
        QVERIFY(server.start());
        constexpr qint64 n = 300'000;
        {
            Connection c = Connection::open(server.endpoint()).value();
            QVERIFY(plantFixedWindows(c, "rate_limit:", n));
        }
        Harness h(server.endpoint());
        h.proxyTester.reset();
        h.sourceTester.reset();
        bool killed = false;
        connect(h.page->model(), &QAbstractItemModel::rowsInserted, this, [&] {
            if (!killed) {
                killed = true;
                server.kill();
            }
        });
        QSignalSpy done(h.page.get(), &KeysPage::scanFinished);
        h.page->show();
        QTRY_VERIFY_WITH_TIMEOUT(killed, 20'000);
        QVERIFY(server.start());
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 20'000);
        const auto summary = done.last().first().value<ScanSummary>();
        QCOMPARE(summary.status, ScanSummary::Status::Failed);
        const int kept = h.page->model()->rowCount();
        QVERIFY(kept > 0 && kept < n);
        QVERIFY2(h.page->message().contains(u"scan stopped"_s) ||
                     h.page->message().contains(u"Redis restarted during the scan"_s),
                 qPrintable(h.page->message()));
        qInfo("restart mid-scan: %d keys kept; message: %s", kept, qPrintable(h.page->message()));
        QCOMPARE(h.page->model()->rowCount(), kept);
    }

    // Realistic data, as an on-call engineer would meet it: pictures to look at.
    void screenshots()
    {
        test::OwnRedis server;
        QVERIFY(server.start());
        const QByteArray prefix = "rate_limit:";
        RuleSet rules;
        rules.rules = {
            windowRule(u"login-per-ip"_s, Algorithm::FixedWindow, 5, 60 * sec, prefix),
            windowRule(u"search-per-ip"_s, Algorithm::SlidingLog, 30, 60 * sec, prefix),
            windowRule(u"signup-per-ip"_s, Algorithm::SlidingCounter, 3, 600 * sec, prefix),
            bucketRule(u"api-per-user"_s, Algorithm::TokenBucket, 10, 60 * sec, 20, prefix,
                       Scope::Kind::User),
            bucketRule(u"upload-per-user"_s, Algorithm::LeakyBucket, 6, 60 * sec, 10, prefix,
                       Scope::Kind::User),
            bucketRule(u"export-per-user"_s, Algorithm::Gcra, 1, 10 * sec, 5, prefix,
                       Scope::Kind::User),
        };
        const QList<QByteArray> ips{"203.0.113.7",   "198.51.100.23", "192.0.2.44",
                                    "203.0.113.150", "198.51.100.9",  "10.12.0.31"};
        const QList<QByteArray> users{"u-4812", "u-1077", "u-3390", "u-0042", "u-7781", "u-5150"};
        {
            RedisLimiter limiter(Connection::open(server.endpoint()).value());
            int n = 0;
            for (const Rule &r : rules.rules) {
                const Policy p = r.policy();
                const auto &subjects = r.scope.kind == Scope::Kind::User ? users : ips;
                for (const QByteArray &s : subjects) {
                    const int cost = 1 + (n++ * 7) % 4;
                    for (int i = 0; i < cost; ++i) {
                        (void)limiter.decide(Request{&p, p.keyFor(s), 1, std::nullopt, 0});
                    }
                }
            }
            Connection c = Connection::open(server.endpoint()).value();
            const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
            for (const char *ip : {"45.83.64.1", "185.220.101.4", "91.240.118.172"}) {
                QVERIFY(c.command({"HSET", rules.rules[0].keyFor(ip), "s", num(nowUs), "c", "5"}));
            }
            QVERIFY(c.command({"HSET", rules.rules[2].keyFor("45.83.64.1"), "s", num(nowUs), "c",
                               "3", "p", "1"}));
            QVERIFY(c.command({"PEXPIRE", rules.rules[3].keyFor("u-1077"), "86400000"}));
            QVERIFY(c.command({"SET", rules.rules[0].keyFor("203.0.113.99"), "7", "PX", "60000"}));
            QVERIFY(
                c.command({"HSET", "rate_limit:old-login:{198.51.100.23}", "s", "1", "c", "2"}));
            QVERIFY(c.command({"PEXPIRE", "rate_limit:old-login:{198.51.100.23}", "50000"}));
        }
        Harness h(server.endpoint());
        h.page->setRules(rules);
        QVERIFY(h.show());
        QTRY_VERIFY_WITH_TIMEOUT(!h.page->isScanning() && h.page->model()->rowCount() > 0, 10'000);
        QCOMPARE(h.page->model()->rowCount(), 42);
        h.table()->sortByColumn(KeysModel::FlagColumn, Qt::DescendingOrder);
        h.table()->selectRow(h.rowOf(rules.rules[0].keyFor("185.220.101.4")));
        QTRY_VERIFY_WITH_TIMEOUT(
            h.find<QPlainTextEdit>("rawValue")->toPlainText().startsWith(u"hash"_s), 5000);
        QTest::qWait(1200); // a refresh and a few countdown ticks
        // At 1280x800 every column is in view, the health flag last, with no scrolling.
        {
            QTableView *t = h.table();
            const QHeaderView *hh = t->horizontalHeader();
            const int right = hh->sectionViewportPosition(KeysModel::FlagColumn) +
                              hh->sectionSize(KeysModel::FlagColumn);
            QVERIFY2(right <= t->viewport()->width(),
                     qPrintable(u"%1 > %2"_s.arg(right).arg(t->viewport()->width())));
            QVERIFY(!t->horizontalScrollBar()->isVisible());
            QVERIFY(hh->sectionSize(KeysModel::KeyColumn) >= 200);
        }
        // The details' last minute: one reading per refresh since the key was selected.
        QTRY_VERIFY_WITH_TIMEOUT(h.page->findChild<Sparkline *>(u"detailsHistory"_s)->size() >= 2,
                                 5000);
        QVERIFY(h.page->grab().save(test::screenshotPath(u"keys.png"_s)));

        h.click("whyButton");
        h.click("showFlaggedButton");
        h.table()->selectRow(h.rowOf(rules.rules[3].keyFor("u-1077")));
        QTRY_VERIFY_WITH_TIMEOUT(
            h.find<QPlainTextEdit>("rawValue")->toPlainText().startsWith(u"hash"_s), 5000);
        QTest::qWait(300);
        QVERIFY(h.page->grab().save(test::screenshotPath(u"keys-flagged.png"_s)));

        QSignalSpy fixed(h.page.get(), &KeysPage::fixFinished);
        h.click("fixAllButton");
        QVERIFY(fixed.wait(10'000));
        h.find<QCheckBox>("onlyFlaggedCheck")->setChecked(false);
        QTest::qWait(300);
        QVERIFY(h.page->grab().save(test::screenshotPath(u"keys-fixed.png"_s)));
    }
};

QTEST_MAIN(TestKeysPage)
#include "tst_keyspage.moc"
