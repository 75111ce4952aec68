// The console's Rules page, driven through its real widgets offscreen: typing in the editor,
// importing real files, exporting, and pushing to / pulling from the fixture's real Redis with
// the core RuleStore as the independent reader and "another writer".

#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/common/elidedlabel.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/language.h"
#include "ui/rules/historydialog.h"
#include "ui/rules/overridesmodel.h"
#include "ui/rules/rulediffdialog.h"
#include "ui/rules/rulesmodel.h"
#include "ui/rules/rulespage.h"

#include "core/limiter/redislimiter.h"
#include "core/rules/codec.h"
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <map>
#include <memory>

using namespace sluice;
using namespace sluice::ui;

namespace {

// Eight rules as a team might run them: every algorithm, every kind of scope, a shadow rule
// and a disabled one.
const char *const realisticRules =
    "{\n"
    "  \"version\": 1,\n"
    "  \"rules\": [\n"
    "    { \"id\": \"hello-per-ip\", \"description\": \"GET /hello: 3 per 5 s per client IP\",\n"
    "      \"route\": \"GET /hello\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\", "
    "\"limit\": 3, \"window\": \"5s\" },\n"
    "    { \"id\": \"api-global\", \"description\": \"Whole API: protects the database\",\n"
    "      \"route\": \"* /v1/*\", \"scope\": \"global\", \"algorithm\": \"token_bucket\", "
    "\"rate\": \"100/s\", \"burst\": 200 },\n"
    "    { \"id\": \"export-queue\", \"description\": \"CSV exports are queued, 10 per second\",\n"
    "      \"route\": \"POST /v1/exports\", \"scope\": \"user\", \"algorithm\": \"leaky_bucket\", "
    "\"rate\": \"10/s\", \"burst\": 50 },\n"
    "    { \"id\": \"search-per-key\", \"description\": \"Search API: 60 per minute per API key, "
    "exact\",\n"
    "      \"route\": \"GET /v1/search\", \"scope\": \"header:X-Api-Key\", \"algorithm\": "
    "\"sliding_log\",\n"
    "      \"limit\": 60, \"window\": \"1m\" },\n"
    "    { \"id\": \"reports-per-key\", \"description\": \"Reports: 1000 per hour per api_key "
    "(trial)\",\n"
    "      \"route\": \"GET /v1/reports\", \"scope\": \"param:api_key\", \"algorithm\": "
    "\"sliding_counter\",\n"
    "      \"limit\": 1000, \"window\": \"1h\", \"key_prefix\": \"app1:rl:\", \"on_redis_error\": "
    "\"local\",\n"
    "      \"shadow\": true },\n"
    "    { \"id\": \"login-per-ip\", \"description\": \"POST /login: 5 per minute per IP; fail "
    "closed\",\n"
    "      \"route\": \"POST /login\", \"scope\": \"ip\", \"algorithm\": \"gcra\", \"rate\": "
    "\"5/m\", \"burst\": 2,\n"
    "      \"on_redis_error\": \"deny\" },\n"
    "    { \"id\": \"upload-per-user\", \"description\": \"Uploads: 20 per minute per user\",\n"
    "      \"route\": \"POST /v1/files\", \"scope\": \"user\", \"algorithm\": \"token_bucket\", "
    "\"rate\": \"20/m\", \"burst\": 5 },\n"
    "    { \"id\": \"legacy-webhooks\", \"description\": \"Old webhook endpoint, replaced by "
    "/v2/hooks\",\n"
    "      \"route\": \"POST /v1/hooks\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\", "
    "\"limit\": 100,\n"
    "      \"window\": \"1m\", \"enabled\": false }\n"
    "  ]\n"
    "}";

} // namespace

class TestRulesPage : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<test::PageHarness> m_h;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    // The rule store of this test process: never another test's.
    const QByteArray m_ns = test::keyPrefix() + "store:";

    RulesPage &page()
    {
        if (!m_h) {
            m_h = std::make_unique<test::PageHarness>();
            auto *page = new RulesPage(m_h->controller());
            page->setStoreNamespace(m_ns);
            if (!m_h->show(page)) {
                qWarning("page not exposed");
            }
            // Every change the page makes to its model goes through the tester.
            m_tester = std::make_unique<QAbstractItemModelTester>(
                page->findChild<RulesModel *>(QStringLiteral("rulesModel")),
                QAbstractItemModelTester::FailureReportingMode::QtTest);
        }
        return *m_h->pageAs<RulesPage>();
    }
    template <typename T> T *find(const char *name)
    {
        page();
        return m_h->find<T>(name);
    }
    void click(const char *button)
    {
        QPushButton *b = find<QPushButton>(button);
        QVERIFY2(b, button);
        QTest::mouseClick(b, Qt::LeftButton);
    }
    void type(const char *edit, const QString &text)
    {
        auto *e = find<QLineEdit>(edit);
        e->setFocus();
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Backspace);
        QTest::keyClicks(e, text);
    }
    QString text(const char *label) { return find<QLabel>(label)->text(); }
    QString banner() { return text("bannerText"); }
    QString file(const QString &name, const QByteArray &contents)
    {
        return test::fileIn(m_dir, name, contents);
    }
    // `contents` written to the file `name` and imported into the page; false, with a warning
    // saying why, when the page refused it.
    bool imported(const QString &name, const QByteArray &contents)
    {
        QString error;
        if (!page().importFile(file(name, contents), &error)) {
            qWarning("%s: %s", qPrintable(name), qPrintable(error));
            return false;
        }
        return true;
    }
    bool importRealistic() { return imported(QStringLiteral("rules.json"), realisticRules); }
    // The table's rows as the user sees them: column texts joined with " | ".
    QStringList tableRows()
    {
        QStringList rows;
        const QAbstractItemModel *m = find<QTableView>("rulesTable")->model();
        for (int r = 0; r < m->rowCount(); ++r) {
            QStringList cells;
            for (int c = 0; c < m->columnCount(); ++c) {
                cells << m->index(r, c).data().toString();
            }
            rows << cells.join(QStringLiteral(" | "));
        }
        return rows;
    }
    void selectRule(const QString &id)
    {
        QTableView *table = find<QTableView>("rulesTable");
        const QAbstractItemModel *m = table->model();
        for (int r = 0; r < m->rowCount(); ++r) {
            if (m->index(r, RulesModel::IdColumn).data().toString() == id) {
                QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                                  table->visualRect(m->index(r, 1)).center());
                return;
            }
        }
        qWarning("no rule %s in the table", qPrintable(id));
    }
    // Connects the page's controller to the fixture's Redis and waits until push is possible.
    void connectToFixture()
    {
        page();
        m_h->connectTo();
        QTRY_VERIFY_WITH_TIMEOUT(find<QPushButton>("pushButton")->isEnabled(), 10000);
    }
    // Confirms the push dialog.
    static void confirm(QWidget *dialog)
    {
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("confirmPushButton")),
                          Qt::LeftButton);
    }
    // Connects, imports the realistic rules and pushes them through the dialog as version 1.
    bool pushFirstVersion()
    {
        connectToFixture();
        if (QTest::currentTestFailed() || !importRealistic()) {
            return false;
        }
        click("pushButton");
        auto *dialog = waitForDialog<RuleDiffDialog>("pushDialog");
        if (dialog == nullptr) {
            return false;
        }
        confirm(dialog);
        return QTest::qWaitFor(
            [&] { return banner().contains(QStringLiteral("Pushed version 1")); }, 10000);
    }
    // Sets `field` of rule `id` to `value` in the editor, applies it and opens the push dialog.
    RuleDiffDialog *editAndOpenPush(const QString &id, const char *field, const QString &value)
    {
        selectRule(id);
        type(field, value);
        click("applyButton");
        click("pushButton");
        return waitForDialog<RuleDiffDialog>("pushDialog");
    }
    template <typename T> T *waitForDialog(const char *name)
    {
        T *d = nullptr;
        const bool shown = QTest::qWaitFor(
            [&] {
                d = page().findChild<T *>(QString::fromLatin1(name));
                return d && d->isVisible();
            },
            10000);
        if (!shown) {
            qWarning("no dialog %s", name);
            return nullptr;
        }
        return d;
    }
    static std::map<QString, Rule> byId(const RuleSet &set)
    {
        std::map<QString, Rule> out;
        for (const Rule &r : set.rules) {
            out.emplace(r.id, r);
        }
        return out;
    }
    rules::RuleStore store() const { return rules::RuleStore(m_ns); }

private Q_SLOTS:
    void initTestCase()
    {
        test::freshTestSettings();
        QVERIFY(m_dir.isValid());
    }

    // Each test leaves no settings and no keys for the next.
    void cleanup()
    {
        m_tester.reset();
        m_h.reset();
        QSettings().clear();
        test::cleanup();
    }

    // The table model and the filter proxy under QAbstractItemModelTester through every kind
    // of change the page makes.
    void modelUnderTester()
    {
        RulesModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setFilterKeyColumn(-1);
        proxy.setSortRole(RulesModel::SortRole);
        QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const rules::Loaded loaded = rules::parseJson(realisticRules, QStringLiteral("r.json"));
        QVERIFY(loaded.ok());
        model.reset(loaded.set, QStringLiteral("file rules.json"));
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.columnCount(), int(RulesModel::ColumnCount));
        // The limit without the scope (its own column), the whole phrase in the tooltip.
        QCOMPARE(model.index(0, RulesModel::LimitColumn).data().toString(),
                 QStringLiteral("3 per 5s"));
        QVERIFY(model.index(0, RulesModel::LimitColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("3 per 5s per IP")));
        QCOMPARE(model.index(1, RulesModel::LimitColumn).data().toString(),
                 QStringLiteral("100/s, burst 200"));
        QCOMPARE(model.index(4, RulesModel::FlagsColumn).data().toString(),
                 QStringLiteral("shadow"));
        QCOMPARE(model.index(7, RulesModel::FlagsColumn).data().toString(),
                 QStringLiteral("disabled"));
        QCOMPARE(model.index(0, RulesModel::WhereColumn).data().toString(),
                 QStringLiteral("file rules.json"));
        proxy.sort(RulesModel::AlgorithmColumn);
        proxy.setFilterFixedString(QStringLiteral("token bucket"));
        QCOMPARE(proxy.rowCount(), 2);
        Rule r = model.rule(0);
        r.limit = 4;
        model.replaceRule(0, r, QStringLiteral("unsaved"));
        QCOMPARE(model.index(0, RulesModel::LimitColumn).data().toString(),
                 QStringLiteral("4 per 5s"));
        model.insertRule(2, r, QStringLiteral("unsaved"));
        model.removeRule(2);
        model.removeRule(7);
        model.setAllWhere(QStringLiteral("Redis v3"));
        QCOMPARE(model.index(6, RulesModel::WhereColumn).data().toString(),
                 QStringLiteral("Redis v3"));
        model.reset({}, QString());
        QCOMPARE(proxy.rowCount(), 0);
    }

    // Add a rule by typing in the editor: it shows in the table, the page says it is unsaved,
    // and rulesChanged() carries it.
    void addRuleByTyping()
    {
        QVERIFY(importRealistic());
        QSignalSpy changed(&page(), &RulesPage::rulesChanged);
        QVERIFY(!find<QLabel>("unsavedMark")->isVisible());
        click("addButton");
        type("idEdit", QStringLiteral("checkout-per-user"));
        auto *algorithm = find<QComboBox>("algorithmCombo");
        algorithm->setFocus();
        algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("token_bucket")));
        QVERIFY(find<QLineEdit>("rateEdit")->isVisible());
        QVERIFY(!find<QLineEdit>("limitEdit")->isVisible()); // only the fields it takes
        type("rateEdit", QStringLiteral("20/s"));
        type("burstEdit", QStringLiteral("40"));
        auto *scope = find<QComboBox>("scopeCombo");
        scope->setCurrentIndex(scope->findData(QStringLiteral("user")));
        type("routeEdit", QStringLiteral("POST /checkout"));
        QVERIFY(find<QPushButton>("applyButton")->isEnabled());
        // The preview follows the fields.
        QVERIFY2(
            text("keyPreview").contains(QStringLiteral("rate_limit:checkout-per-user:{alice}")),
            qPrintable(text("keyPreview")));
        QVERIFY2(text("headersPreview")
                     .contains(QStringLiteral(
                         "RateLimit-Policy: &quot;checkout-per-user&quot;;q=40;w=2")),
                 qPrintable(text("headersPreview")));
        QVERIFY2(text("headersPreview").contains(QStringLiteral("r=39;")),
                 qPrintable(text("headersPreview")));
        type("subjectEdit", QStringLiteral("bob"));
        QVERIFY(text("keyPreview").contains(QStringLiteral("checkout-per-user:{bob}")));
        click("applyButton");

        QVERIFY(changed.count() >= 1);
        const RuleSet last = changed.last().at(0).value<RuleSet>();
        const Rule *added = last.find(QStringLiteral("checkout-per-user"));
        QVERIFY(added);
        QCOMPARE(added->algorithm, Algorithm::TokenBucket);
        QCOMPARE(added->rate, (Rate{20, 1'000'000}));
        QCOMPARE(added->burst, 40);
        QCOMPARE(added->scope.kind, Scope::Kind::User);
        QCOMPARE(page().rules().rules.size(), size_t(9));
        const QString row = tableRows().last();
        QVERIFY2(row.startsWith(QStringLiteral("checkout-per-user | token bucket | 20/s, burst "
                                               "40 | user | POST /checkout |  | unsaved")),
                 qPrintable(row));
        QVERIFY(find<QLabel>("unsavedMark")->isVisible());
        // A second add may not reuse the id: the CLI's duplicate message, Apply off.
        click("addButton");
        type("idEdit", QStringLiteral("checkout-per-user"));
        QTRY_VERIFY(find<QLabel>("idError")->isVisible());
        QVERIFY2(text("idError").contains(QStringLiteral("duplicate id 'checkout-per-user'")),
                 qPrintable(text("idError")));
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled());
    }

    // A bad value: the message beside the field is the CLI's, word for word; Apply is off.
    void badValueShowsTheMessage()
    {
        QVERIFY(importRealistic());
        selectRule(QStringLiteral("hello-per-ip"));
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("hello-per-ip"));
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled()); // nothing changed yet
        type("limitEdit", QStringLiteral("0"));
        QLabel *limitError = find<QLabel>("limitError");
        QVERIFY(limitError->isVisible());
        // What `rules validate` says about the same value in a file.
        QByteArray bad = realisticRules;
        bad.replace("\"limit\": 3,", "\"limit\": 0,");
        const rules::Loaded fromFile = rules::parseJson(bad, QStringLiteral("bad.json"));
        QCOMPARE(fromFile.errors.size(), 1);
        QCOMPARE(fromFile.errors.first().path, QStringLiteral("rules[0].limit"));
        QCOMPARE(limitError->text(), QStringLiteral("✗ ") + fromFile.errors.first().message);
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled());
        QVERIFY(text("headersPreview").contains(QStringLiteral("fix the fields")));

        type("limitEdit", QStringLiteral("5"));
        QVERIFY(!limitError->isVisible());
        QVERIFY(find<QPushButton>("applyButton")->isEnabled());
        type("windowEdit", QStringLiteral("5 parsecs"));
        QVERIFY(find<QLabel>("windowError")->isVisible());
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled());
        click("revertButton");
        QCOMPARE(find<QLineEdit>("limitEdit")->text(), QStringLiteral("3"));
        QVERIFY(!find<QLabel>("windowError")->isVisible());

        // A rate of zero on the token bucket.
        selectRule(QStringLiteral("api-global"));
        type("rateEdit", QStringLiteral("0/s"));
        QLabel *rateError = find<QLabel>("rateError");
        QVERIFY(rateError->isVisible());
        const Result<Rate> parsed = duration::parseRate(QStringLiteral("0/s"));
        QVERIFY(!parsed.ok());
        QCOMPARE(rateError->text(), QStringLiteral("✗ ") + parsed.error().message);
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled());
        // The rule in the table is untouched until Apply.
        QCOMPARE(page().rules().find(QStringLiteral("api-global"))->rate, (Rate{100, 1'000'000}));
        type("idEdit", QStringLiteral("api global"));
        QVERIFY2(text("idError").contains(QStringLiteral("contains U+0020")),
                 qPrintable(text("idError")));
        QVERIFY(page().grab().save(test::screenshotPath(QStringLiteral("rules-validation.png"))));
    }

    // An invalid file: every error listed with its line, the rules in the page untouched.
    void importInvalidFileKeepsTheRules()
    {
        QVERIFY(importRealistic());
        const RuleSet before = page().rules();
        const QString path = file(QStringLiteral("bad.json"),
                                  "{\n"
                                  "  \"version\": 1,\n"
                                  "  \"rules\": [\n"
                                  "    { \"id\": \"ok-rule\", \"scope\": \"ip\", \"algorithm\": "
                                  "\"fixed_window\", \"limit\": 3, \"window\": \"5s\" },\n"
                                  "    { \"id\": \"zero\", \"scope\": \"ip\", \"algorithm\": "
                                  "\"fixed_window\", \"limit\": 0, \"window\": \"5s\" },\n"
                                  "    { \"id\": \"typo\", \"scope\": \"ip\", \"algorithm\": "
                                  "\"token_bucket\", \"rate\": \"0/s\", \"burst\": 5,\n"
                                  "      \"limt\": 3 }\n"
                                  "  ]\n"
                                  "}");
        QString error;
        QVERIFY(!page().importFile(path, &error));
        QVERIFY2(error.contains(QStringLiteral("3 error")), qPrintable(error));
        QVERIFY(find<QWidget>("problemsPanel")->isVisible());
        auto *list = find<QListWidget>("problemList");
        QCOMPARE(list->count(), 3);
        QStringList lines;
        for (int i = 0; i < list->count(); ++i) {
            lines << list->item(i)->text();
        }
        QVERIFY2(lines[0].startsWith(path + QStringLiteral(":5:")) &&
                     lines[0].contains(QStringLiteral("rules[1].limit")),
                 qPrintable(lines.join(u'\n')));
        QVERIFY2(lines[1].startsWith(path + QStringLiteral(":6:")) &&
                     lines[1].contains(QStringLiteral("rules[2].rate")),
                 qPrintable(lines.join(u'\n')));
        QVERIFY2(lines[2].startsWith(path + QStringLiteral(":7:")) &&
                     lines[2].contains(QStringLiteral("unknown field 'limt'")),
                 qPrintable(lines.join(u'\n')));
        QVERIFY(page().rules() == before);
        QCOMPARE(tableRows().size(), 8);
        QVERIFY(!find<QLabel>("unsavedMark")->isVisible());
    }

    // Export: every format writes; nginx lists the rules it cannot express, and so does the page.
    void exportShowsWhatCannotBeExpressed()
    {
        QVERIFY(importRealistic());
        QStringList warnings;
        const QString conf = m_dir.filePath(QStringLiteral("limits.conf"));
        QVERIFY(page().exportFile(conf, QStringLiteral("nginx"), &warnings));
        QFile f(conf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray nginx = f.readAll();
        QVERIFY(nginx.contains("limit_req_zone"));
        QVERIFY(nginx.contains("limit_req_status 429;"));
        QVERIFY2(!warnings.isEmpty(), "nginx cannot express windows; no warning came");
        QVERIFY(warnings.join(u'\n').contains(QStringLiteral("hello-per-ip: ")));
        QVERIFY(find<QWidget>("problemsPanel")->isVisible());
        auto *list = find<QListWidget>("problemList");
        QCOMPARE(list->count(), warnings.size());
        QCOMPARE(list->item(0)->text(), warnings.first());
        QVERIFY2(text("problemsTitle").contains(QStringLiteral("nginx")),
                 qPrintable(text("problemsTitle")));

        for (const char *format : {"envoy", "kong"}) {
            QStringList w;
            QVERIFY(page().exportFile(m_dir.filePath(QLatin1String(format)), QLatin1String(format),
                                      &w));
            QVERIFY(!w.isEmpty()); // they only have fixed windows
        }
        // JSON and YAML round-trip the set exactly and count as saved.
        click("addButton");
        type("idEdit", QStringLiteral("extra"));
        click("applyButton");
        QVERIFY(page().hasUnsavedChanges());
        for (const char *name : {"out.json", "out.yaml"}) {
            const QString path = m_dir.filePath(QLatin1String(name));
            QStringList w;
            QVERIFY(page().exportFile(path, QFileInfo(path).suffix(), &w));
            QVERIFY(w.isEmpty());
            const rules::Loaded back = rules::loadFile(path);
            QVERIFY(back.ok());
            QVERIFY(back.set.rules == page().rules().rules);
        }
        QVERIFY(!page().hasUnsavedChanges());
        QVERIFY(tableRows().last().endsWith(QStringLiteral("file out.yaml")));
        QVERIFY(!page().exportFile(m_dir.filePath(QStringLiteral("x")), QStringLiteral("haproxy"),
                                   &warnings));
    }

    // Push through the diff preview; read the store back with the core RuleStore.
    void pushThenReadBack()
    {
        connectToFixture();
        QVERIFY(importRealistic());
        click("pushButton");
        auto *dialog = waitForDialog<RuleDiffDialog>("pushDialog");
        QVERIFY(dialog);
        QVERIFY2(dialog->findChild<QLabel *>(QStringLiteral("diffSummary"))
                     ->text()
                     .contains(QStringLiteral("no rules yet")),
                 "the preview does not say the store is empty");
        QTreeWidget *tree = dialog->tree();
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("Added (8)"));
        confirm(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Pushed version 1")), 10000);
        QVERIFY(!page().hasUnsavedChanges());
        QVERIFY(tableRows().first().endsWith(QStringLiteral("Redis v1")));

        Connection c = test::connect();
        auto pulled = store().pull(c);
        QVERIFY2(pulled.ok(), qPrintable(pulled.ok() ? QString() : pulled.error().message));
        QCOMPARE(pulled->version, 1);
        QVERIFY(byId(pulled->set) == byId(page().rules()));
        QCOMPARE(page().rules().basedOn, std::optional<qint64>(1));

        // An edit shows as a changed field in the next preview.
        dialog = editAndOpenPush(QStringLiteral("login-per-ip"), "burstEdit", QStringLiteral("4"));
        QVERIFY(dialog);
        QCOMPARE(dialog->tree()->topLevelItem(0)->text(0), QStringLiteral("Changed (1)"));
        QTreeWidgetItem *rule = dialog->tree()->topLevelItem(0)->child(0);
        QCOMPARE(rule->text(0), QStringLiteral("~ login-per-ip"));
        QCOMPARE(rule->text(1), QStringLiteral("burst: 2 → 4"));
        QCOMPARE(dialog->tree()->topLevelItem(1)->text(0), QStringLiteral("Unchanged (7)"));
        QVERIFY(dialog->grab().save(test::screenshotPath(QStringLiteral("rules-diff.png"))));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("cancelButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(!page().findChild<RuleDiffDialog *>());
        QCOMPARE(store().pull(c)->version, 1); // cancelled: nothing written
    }

    // The push dialog says who the change limits now: a subject at hello-per-ip's limit (the
    // real script wrote its state) would be released by a higher limit.
    void pushPreviewShowsWhoItReleases()
    {
        QVERIFY(pushFirstVersion());
        QTRY_VERIFY(!page().findChild<RuleDiffDialog *>());

        const QByteArray subject =
            "preview-" + QByteArray::number(QCoreApplication::applicationPid());
        const Policy policy = page().rules().find(QStringLiteral("hello-per-ip"))->policy();
        {
            RedisLimiter limiter(test::connect());
            for (int i = 0; i < 3; ++i) {
                Request r;
                r.policy = &policy;
                r.key = policy.keyFor(subject);
                QVERIFY(limiter.decide(r).ok());
            }
        }
        auto *dialog =
            editAndOpenPush(QStringLiteral("hello-per-ip"), "limitEdit", QStringLiteral("5"));
        QVERIFY(dialog);
        auto *preview = dialog->findChild<QTreeWidget *>(QStringLiteral("previewTree"));
        QVERIFY(preview);
        QCOMPARE(preview->topLevelItemCount(), 1);
        QTreeWidgetItem *rule = preview->topLevelItem(0);
        QCOMPARE(rule->text(0), QStringLiteral("hello-per-ip"));
        QVERIFY2(rule->text(1).contains(QStringLiteral("denied now 1 → after 0")),
                 qPrintable(rule->text(1)));
        QCOMPARE(rule->childCount(), 1);
        QCOMPARE(rule->child(0)->text(1),
                 QStringLiteral("released (1): ") + QString::fromLatin1(subject));
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("previewTitle"))
                    ->text()
                    .contains(QStringLiteral("released (denied now, allowed after) 1")));
        QVERIFY(dialog->grab().save(test::screenshotPath(QStringLiteral("rules-push-who.png"))));
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("cancelButton")),
                          Qt::LeftButton);
        Connection c = test::connect();
        QVERIFY(c.command({"DEL", policy.keyFor(subject)}).ok());
    }

    // The push asks why; the History panel lists who changed what, shows what a rollback to
    // an older version changes, and rolls back: a new version with the old rules, which the
    // page (with no unsaved changes) follows.
    void historyAndRollback()
    {
        connectToFixture();
        QVERIFY(importRealistic());
        const RuleSet first = page().rules();
        click("pushButton");
        auto *dialog = waitForDialog<RuleDiffDialog>("pushDialog");
        QVERIFY(dialog);
        auto *message = dialog->findChild<QLineEdit *>(QStringLiteral("pushMessage"));
        QVERIFY(message);
        QTest::keyClicks(message, QStringLiteral("first limits"));
        confirm(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Pushed version 1")), 10000);

        // Another writer raises one limit: version 2.
        Connection c = test::connect();
        RuleSet second = first;
        second.basedOn = 1;
        for (Rule &r : second.rules) {
            if (r.id == QStringLiteral("hello-per-ip")) {
                r.limit = 30;
            }
        }
        rules::RuleStore::PushOptions o;
        o.author = QStringLiteral("bob");
        o.message = QStringLiteral("raise hello");
        QVERIFY(store().push(c, second, o).ok());
        QTRY_VERIFY_WITH_TIMEOUT(page().storeVersion() == std::optional<qint64>(2), 10000);

        page().setHistoryConfirm([](const QString &question) {
            return question.contains(QStringLiteral("version 1 as version 3"));
        });
        HistoryDialog *history = page().showHistory();
        QTreeWidget *list = history->list();
        QTRY_COMPARE_WITH_TIMEOUT(list->topLevelItemCount(), 2, 10000);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("v2 (stored)"));
        QCOMPARE(list->topLevelItem(0)->text(2), QStringLiteral("bob"));
        QCOMPARE(list->topLevelItem(0)->text(3), QStringLiteral("changed hello-per-ip"));
        QCOMPARE(list->topLevelItem(0)->text(4), QStringLiteral("raise hello"));
        QCOMPARE(list->topLevelItem(1)->text(4), QStringLiteral("first limits"));
        QVERIFY(!history->rollbackButton()->isEnabled());

        list->setCurrentItem(list->topLevelItem(1));
        QTRY_VERIFY_WITH_TIMEOUT(history->rollbackButton()->isEnabled(), 10000);
        QTreeWidget *diff = history->diffTree();
        QCOMPARE(diff->topLevelItem(0)->text(0), QStringLiteral("Changed (1)"));
        QCOMPARE(diff->topLevelItem(0)->child(0)->text(1), QStringLiteral("limit: 30 → 3"));
        QVERIFY(history->grab().save(test::screenshotPath(QStringLiteral("rules-history.png"))));

        QTest::mouseClick(history->rollbackButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Rolled back to version 1")),
                                 10000);
        auto stored = store().pull(c);
        QVERIFY(stored.ok());
        QCOMPARE(stored->version, 3);
        QVERIFY(byId(stored->set) == byId(first));
        QVERIFY(byId(page().rules()) == byId(first));
        QCOMPARE(page().rules().basedOn, std::optional<qint64>(3));
        auto h = store().history(c);
        QVERIFY(h.ok());
        QCOMPARE(h->entries.front().rollbackOf, std::optional<qint64>(1));
        // The panel reads the history again: three versions now.
        QTRY_COMPARE_WITH_TIMEOUT(list->topLevelItemCount(), 3, 10000);
        history->close();
    }

    // Another writer pushes in between: the page shows it, a push is a conflict that names what
    // changed and overwrites nothing; review then push works, and so does force.
    void conflictWithAnotherWriter()
    {
        QVERIFY(pushFirstVersion());

        // Someone else, from the command line: api-global gets burst 500.
        Connection c = test::connect();
        RuleSet theirs = store().pull(c)->set;
        for (Rule &r : theirs.rules) {
            if (r.id == QStringLiteral("api-global")) {
                r.burst = 500;
            }
        }
        QVERIFY(store().push(c, theirs, false).ok());
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Redis has v2, you are "
                                                                  "editing v1")),
                                 10000);
        QVERIFY(page().findChild<QPushButton *>(QStringLiteral("bannerPullButton")));
        QVERIFY2(text("storeState").contains(QStringLiteral("Redis is at v2")),
                 qPrintable(text("storeState")));

        // Our edit, pushed over v2: refused, with who changed what.
        auto *dialog =
            editAndOpenPush(QStringLiteral("hello-per-ip"), "limitEdit", QStringLiteral("4"));
        QVERIFY(dialog);
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("diffNote"))
                    ->text()
                    .contains(QStringLiteral("conflict")));
        {
            // The page with its push preview over it, as the user sees them together.
            QPixmap shot = page().grab();
            QPainter p(&shot);
            const QPixmap d = dialog->grab();
            p.fillRect(QRect(QPoint((shot.width() - d.width()) / 2 - 1,
                                    (shot.height() - d.height()) / 2 - 1),
                             d.size() + QSize(2, 2)),
                       QColor(0x60, 0x68, 0x70));
            p.drawPixmap((shot.width() - d.width()) / 2, (shot.height() - d.height()) / 2, d);
            p.end();
            QVERIFY(shot.save(test::screenshotPath(QStringLiteral("rules-push-preview.png"))));
        }
        confirm(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Conflict")), 10000);
        QVERIFY2(banner().contains(QStringLiteral("v2 changed api-global")), qPrintable(banner()));
        QVERIFY(page().findChild<QPushButton *>(QStringLiteral("pullReviewButton")));
        QVERIFY(page().findChild<QPushButton *>(QStringLiteral("forcePushButton")));
        QVERIFY(page().grab().save(test::screenshotPath(QStringLiteral("rules-conflict.png"))));
        auto stored = store().pull(c);
        QCOMPARE(stored->version, 2);
        QCOMPARE(stored->set.find(QStringLiteral("api-global"))->burst, 500); // not overwritten
        QCOMPARE(stored->set.find(QStringLiteral("hello-per-ip"))->limit, 3);

        // Pull and review: the review lists what our push would change; keep ours.
        click("pullReviewButton");
        auto *review = waitForDialog<RuleDiffDialog>("reviewDialog");
        QVERIFY(review);
        QCOMPARE(review->tree()->topLevelItem(0)->text(0), QStringLiteral("Changed (2)"));
        QTest::mouseClick(review->findChild<QPushButton *>(QStringLiteral("keepMineButton")),
                          Qt::LeftButton);
        QCOMPARE(page().rules().basedOn, std::optional<qint64>(2));
        // Now a plain push goes through.
        click("pushButton");
        dialog = waitForDialog<RuleDiffDialog>("pushDialog");
        QVERIFY(dialog);
        confirm(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Pushed version 3")), 10000);
        QCOMPARE(store().pull(c)->set.find(QStringLiteral("hello-per-ip"))->limit, 4);

        // Again someone else; this time we force.
        theirs = store().pull(c)->set;
        theirs.rules.pop_back();
        QVERIFY(store().push(c, theirs, false).ok()); // v4
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Redis has v4")), 10000);
        click("pushButton");
        dialog = waitForDialog<RuleDiffDialog>("pushDialog");
        QVERIFY(dialog);
        confirm(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Conflict")), 10000);
        QCOMPARE(store().pull(c)->version, 4);
        click("forcePushButton");
        QTRY_VERIFY_WITH_TIMEOUT(banner().contains(QStringLiteral("Pushed version 5 to Redis "
                                                                  "(forced)")),
                                 10000);
        stored = store().pull(c);
        QCOMPARE(stored->version, 5);
        QVERIFY(byId(stored->set) == byId(page().rules()));
    }

    // A new session on a store that has rules: the page loads them and shows the version.
    void sessionPullsTheStore()
    {
        Connection c = test::connect();
        const rules::Loaded loaded = rules::parseJson(realisticRules, QStringLiteral("r.json"));
        QVERIFY(store().push(c, loaded.set, false).ok()); // v1
        QVERIFY(store()
                    .push(c, RuleSet{1, 1, {loaded.set.rules[0], loaded.set.rules[1]}, {}}, false)
                    .ok()); // v2
        QSignalSpy changed(&page(), &RulesPage::rulesChanged);
        connectToFixture();
        QTRY_COMPARE_WITH_TIMEOUT(page().rules().rules.size(), size_t(2), 10000);
        QCOMPARE(page().rules().basedOn, std::optional<qint64>(2));
        QVERIFY(changed.count() >= 1);
        QVERIFY2(text("storeState").contains(QStringLiteral("From Redis v2")),
                 qPrintable(text("storeState")));
        QVERIFY(tableRows().first().endsWith(QStringLiteral("Redis v2")));
        QVERIFY(banner().contains(QStringLiteral("version 2")));
    }

    // Without Redis the page keeps working; push says why it is off.
    void worksWithoutRedis()
    {
        connectToFixture();
        m_h->controller()->disconnectNow();
        QTRY_VERIFY(!find<QPushButton>("pushButton")->isEnabled());
        QVERIFY2(
            find<QPushButton>("pushButton")->toolTip().contains(QStringLiteral("not connected")),
            qPrintable(find<QPushButton>("pushButton")->toolTip()));
        QVERIFY(text("storeState").contains(QStringLiteral("push and pull are off")));
        QVERIFY(importRealistic());
        selectRule(QStringLiteral("api-global"));
        type("burstEdit", QStringLiteral("300"));
        click("applyButton");
        QCOMPARE(page().rules().find(QStringLiteral("api-global"))->burst, 300);
        page().push(); // the File menu could still call it
        QVERIFY(banner().contains(QStringLiteral("Cannot push now")));
        QVERIFY(!page().findChild<RuleDiffDialog *>());
    }

    // Filter, duplicate, delete.
    void filterDuplicateDelete()
    {
        QVERIFY(importRealistic());
        page().focusFilter();
        QVERIFY(find<QLineEdit>("filterEdit")->hasFocus());
        QTest::keyClicks(find<QLineEdit>("filterEdit"), QStringLiteral("bucket"));
        QCOMPARE(tableRows().size(), 3);
        QVERIFY(text("countLabel").contains(QStringLiteral("3 of 8")));
        find<QLineEdit>("filterEdit")->clear();
        selectRule(QStringLiteral("login-per-ip"));
        click("duplicateButton");
        QVERIFY(page().rules().find(QStringLiteral("login-per-ip-copy")));
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("login-per-ip-copy"));
        click("deleteButton");
        QVERIFY(!page().rules().find(QStringLiteral("login-per-ip-copy")));
        QCOMPARE(page().rules().rules.size(), size_t(8));
    }

    // Typed but not applied, then another rule selected: the page asks, and does what it is
    // told (keep editing, discard or apply); never drops the edits silently.
    // A rule's on_change (no row of the form) survives an edit of its other fields.
    void editKeepsOnChange()
    {
        QVERIFY(imported(QStringLiteral("change.json"),
                         "{\"version\": 1, \"rules\": [{\"id\": \"p\", \"scope\": \"ip\", "
                         "\"algorithm\": \"fixed_window\", \"limit\": 3, \"window\": \"5s\", "
                         "\"on_change\": \"proportional\"}]}"));
        QCOMPARE(page().rules().find(QStringLiteral("p"))->onChange, OnChange::Proportional);
        selectRule(QStringLiteral("p"));
        type("limitEdit", QStringLiteral("7"));
        click("applyButton");
        const Rule *r = page().rules().find(QStringLiteral("p"));
        QVERIFY(r);
        QCOMPARE(r->limit, 7);
        QCOMPARE(r->onChange, OnChange::Proportional);
    }

    // The selected rule's overrides: the rule file's and those stored in Redis (read by the
    // Rules worker), each with what it matches, what it does, until when, its note and where it
    // comes from; a stored one is removed from there, and is gone from Redis.
    void listsAndRemovesOverrides()
    {
        connectToFixture();
        const char *const json =
            "{\"version\": 1, \"rules\": [{\"id\": \"hello-per-ip\", \"scope\": \"ip\", "
            "\"algorithm\": \"fixed_window\", \"limit\": 3, \"window\": \"5s\",\n"
            " \"overrides\": [{\"subject\": \"10.1.2.3\", \"allow\": true, \"note\": "
            "\"health checker\"},\n"
            "  {\"cidr\": \"203.0.113.0/24\", \"limit\": {\"limit\": 50, \"window\": \"1m\"}, "
            "\"expires\": \"2099-01-01T00:00:00Z\"}]},\n"
            " {\"id\": \"other\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\", "
            "\"limit\": 3, \"window\": \"5s\"}]}";
        rules::Loaded loaded = rules::parseJson(json, {});
        QVERIFY(loaded.ok());
        Connection c = test::connect();
        const rules::OverrideStore overrides(m_ns);
        Override deny;
        deny.pattern = QStringLiteral("10.9.9.9");
        deny.action = Override::Action::Deny;
        deny.ttlUs = duration::usPerHour;
        deny.note = QStringLiteral("brute force");
        auto added = overrides.add(c, loaded.set.rules[0], deny, {});
        QVERIFY2(added, qPrintable(added ? QString() : added.error().message));

        QVERIFY(imported(QStringLiteral("overrides.json"), json));
        selectRule(QStringLiteral("hello-per-ip"));
        OverridesModel *m = page().overridesModel();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 3, 5000);
        const auto cell = [&](int row, int column) {
            return m->index(row, column).data().toString();
        };
        // The stored one first: it wins over the file's.
        QCOMPARE(cell(0, OverridesModel::MatchColumn), QStringLiteral("subject 10.9.9.9"));
        QCOMPARE(cell(0, OverridesModel::ActionColumn), QStringLiteral("deny: always refused"));
        QCOMPARE(cell(0, OverridesModel::NoteColumn), QStringLiteral("brute force"));
        QCOMPARE(cell(0, OverridesModel::FromColumn), QStringLiteral("stored in Redis"));
        QCOMPARE(
            cell(0, OverridesModel::UntilColumn),
            QLocale().toString(QDateTime::fromMSecsSinceEpoch(added->override.expiresUs / 1000),
                               QStringLiteral("yyyy-MM-dd HH:mm")));
        QCOMPARE(cell(1, OverridesModel::MatchColumn), QStringLiteral("subject 10.1.2.3"));
        QCOMPARE(cell(1, OverridesModel::ActionColumn), QStringLiteral("allow: never limited"));
        QCOMPARE(cell(1, OverridesModel::FromColumn), QStringLiteral("rule file"));
        QCOMPARE(cell(1, OverridesModel::UntilColumn), QStringLiteral("no end"));
        QCOMPARE(cell(2, OverridesModel::MatchColumn), QStringLiteral("cidr 203.0.113.0/24"));
        QVERIFY2(cell(2, OverridesModel::ActionColumn).startsWith(QStringLiteral("limit: 50")),
                 qPrintable(cell(2, OverridesModel::ActionColumn)));
        QVERIFY(cell(2, OverridesModel::UntilColumn).startsWith(QStringLiteral("2099-01-01")));
        QVERIFY(text("overridesHeading").contains(QStringLiteral("(3)")));

        // Stored behind the page (the Monitor, the CLI): read again when the page is shown.
        Override later;
        later.pattern = QStringLiteral("10.7.7.7");
        later.action = Override::Action::Allow;
        later.ttlUs = duration::usPerHour;
        QVERIFY(overrides.add(c, loaded.set.rules[0], later, {}).ok());
        m_h->window()->hide();
        m_h->window()->show();
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 4, 5000);
        QVERIFY(*overrides.remove(c, QStringLiteral("hello-per-ip"), Override::Kind::Subject,
                                  later.pattern));
        m_h->window()->hide();
        m_h->window()->show();
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 3, 5000);

        // Another rule: none of these.
        selectRule(QStringLiteral("other"));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 0, 5000);
        selectRule(QStringLiteral("hello-per-ip"));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 3, 5000);

        // Only a stored one can be removed here; asked first.
        auto *view = find<QTableView>("overridesTable");
        auto *remove = find<QPushButton>("removeOverrideButton");
        QVERIFY(!remove->isEnabled());
        view->selectRow(1);
        QVERIFY(!remove->isEnabled());
        view->selectRow(0);
        QVERIFY(remove->isEnabled());
        QString asked;
        page().setOverrideConfirm([&](const QString &q) {
            asked = q;
            return true;
        });
        click("removeOverrideButton");
        QVERIFY(asked.contains(QStringLiteral("10.9.9.9")) &&
                asked.contains(QStringLiteral("hello-per-ip")));
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 2, 5000);
        QCOMPARE(c.command({"EXISTS", added->key})->integer, 0);
        QVERIFY2(banner().contains(QStringLiteral("Removed the override subject 10.9.9.9")),
                 qPrintable(banner()));
        QCOMPARE(overrides.list(c, loaded.set)->size(), 0);
    }

    // "Add override…" stores an override of the selected rule for a subject nobody limits
    // right now, typed in its dialog: it is in Redis with the time asked for and listed as
    // stored; a network without its prefix length is refused before anything is written.
    void addsAnOverride()
    {
        connectToFixture();
        const char *const json =
            "{\"version\": 1, \"rules\": [{\"id\": \"add-ov\", \"scope\": \"ip\", "
            "\"algorithm\": \"fixed_window\", \"limit\": 3, \"window\": \"5s\"}]}";
        QVERIFY(imported(QStringLiteral("addov.json"), json));
        selectRule(QStringLiteral("add-ov"));
        auto *add = find<QPushButton>("addOverrideButton");
        QTRY_VERIFY_WITH_TIMEOUT(add->isEnabled(), 5000);
        QTest::mouseClick(add, Qt::LeftButton);
        auto *d = page().findChild<QDialog *>(QStringLiteral("addOverrideDialog"));
        QVERIFY(d);
        QTRY_VERIFY(d->isVisible());
        auto *ok = d->findChild<QPushButton *>(QStringLiteral("addOverrideConfirmButton"));
        auto *who = d->findChild<QLineEdit *>(QStringLiteral("overridePatternEdit"));
        auto *kind = d->findChild<QComboBox *>(QStringLiteral("overrideKindCombo"));
        auto *duration = d->findChild<QLineEdit *>(QStringLiteral("overrideDurationEdit"));
        QVERIFY(!ok->isEnabled()); // nobody named yet
        kind->setFocus();
        QTest::keyClick(kind, Qt::Key_Down); // the network
        QTest::keyClicks(who, QStringLiteral("10.0.0.0"));
        QVERIFY(!ok->isEnabled());
        QTest::keyClick(kind, Qt::Key_Up); // the subject
        who->selectAll();
        QTest::keyClicks(who, QStringLiteral("10.4.4.4"));
        duration->selectAll();
        QTest::keyClicks(duration, QStringLiteral("2h"));
        QVERIFY(ok->isEnabled());
        QTest::mouseClick(ok, Qt::LeftButton);
        OverridesModel *m = page().overridesModel();
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 1, 5000);
        QCOMPARE(m->index(0, OverridesModel::MatchColumn).data().toString(),
                 QStringLiteral("subject 10.4.4.4"));
        QCOMPARE(m->index(0, OverridesModel::ActionColumn).data().toString(),
                 QStringLiteral("deny: always refused"));
        QCOMPARE(m->index(0, OverridesModel::FromColumn).data().toString(),
                 QStringLiteral("stored in Redis"));
        QVERIFY2(banner().contains(QStringLiteral("Stored the override subject 10.4.4.4")),
                 qPrintable(banner()));
        Connection c = test::connect();
        RuleSet set = page().session()->rules();
        auto stored = rules::OverrideStore(m_ns).list(c, set);
        QVERIFY(stored && stored->size() == 1);
        QVERIFY2(stored->first().pttlMs > 7'100'000 && stored->first().pttlMs <= 7'200'000,
                 qPrintable(QString::number(stored->first().pttlMs)));
        QVERIFY(*rules::OverrideStore(m_ns).remove(
            c, QStringLiteral("add-ov"), Override::Kind::Subject, QStringLiteral("10.4.4.4")));
    }

    // A rule selected before the console connects (the file reopened at start, the sandbox
    // still starting) shows its stored overrides once Redis is there, not "not connected".
    void overridesReadOnceConnected()
    {
        const QByteArray json = "{\"version\": 1, \"rules\": [{\"id\": \"early\", \"scope\": "
                                "\"ip\", \"algorithm\": \"fixed_window\", \"limit\": 3, "
                                "\"window\": \"5s\"}]}";
        rules::Loaded loaded = rules::parseJson(json, {});
        QVERIFY(loaded.ok());
        Connection c = test::connect();
        page();
        Override deny;
        deny.pattern = QStringLiteral("10.9.9.9");
        deny.action = Override::Action::Deny;
        deny.ttlUs = duration::usPerHour;
        QVERIFY(rules::OverrideStore(m_ns).add(c, loaded.set.rules[0], deny, {}).ok());
        QVERIFY(imported(QStringLiteral("early.json"), json));
        selectRule(QStringLiteral("early"));
        QVERIFY2(text("overridesNote").contains(QStringLiteral("not connected")),
                 qPrintable(text("overridesNote")));
        connectToFixture();
        QTRY_COMPARE_WITH_TIMEOUT(page().overridesModel()->rowCount(), 1, 5000);
        QVERIFY2(!text("overridesNote").contains(QStringLiteral("not connected")),
                 qPrintable(text("overridesNote")));
    }

    // Fields the form does not show survive an edit of the ones it does: a rule's adopt block
    // (another limiter's keys it watches) and its per-subject overrides, as the file had them.
    void editKeepsAdoptAndOverrides()
    {
        QVERIFY(imported(
            QStringLiteral("adopt.json"),
            "{\"version\": 1, \"rules\": [{\"id\": \"hello-per-ip\", \"scope\": \"ip\", "
            "\"algorithm\": \"fixed_window\", \"limit\": 3, \"window\": \"5s\",\n"
            " \"adopt\": {\"match\": \"rate_limit:*-hello\", \"layout\": "
            "\"string_counter\", \"window\": \"1m\", \"limit\": 100},\n"
            " \"overrides\": [{\"subject\": \"10.1.2.3\", \"allow\": true, \"note\": "
            "\"health checker\"},\n"
            "  {\"cidr\": \"203.0.113.0/24\", \"deny\": true, \"expires\": "
            "\"2099-01-01T00:00:00Z\"},\n"
            "  {\"match\": \"partner-*\", \"limit\": {\"limit\": 300, \"window\": \"1m\"}, "
            "\"ttl\": \"1d\"}]}]}"));
        const Rule before = *page().rules().find(QStringLiteral("hello-per-ip"));
        QVERIFY(before.adopt.has_value());
        QCOMPARE(before.overrides.size(), size_t(3));
        selectRule(QStringLiteral("hello-per-ip"));
        type("limitEdit", QStringLiteral("7"));
        type("descriptionEdit", QStringLiteral("GET /hello"));
        QVERIFY(find<QPushButton>("applyButton")->isEnabled());
        click("applyButton");
        const Rule *r = page().rules().find(QStringLiteral("hello-per-ip"));
        QVERIFY(r);
        QCOMPARE(r->limit, 7);
        QCOMPARE(r->description, QStringLiteral("GET /hello"));
        QVERIFY2(r->adopt.has_value(), "the adopt block was dropped by the edit");
        QCOMPARE(*r->adopt, *before.adopt);
        QCOMPARE(r->overrides.size(), size_t(3));
        QVERIFY(r->overrides == before.overrides);

        // An edit that makes an override wrong says so rather than dropping it: a CIDR needs
        // scope ip.
        QComboBox *scope = find<QComboBox>("scopeCombo");
        scope->setCurrentIndex(scope->findData(QStringLiteral("user")));
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled());
        QVERIFY2(text("generalError").contains(QStringLiteral("overrides[1]")),
                 qPrintable(text("generalError")));
    }

    // The editor's on_change combo: the rule's value shown in words, each choice explained in
    // its tooltip, and the one picked is what Apply puts into the rule (and what a push sends).
    void editorSetsOnChange()
    {
        QVERIFY(imported(QStringLiteral("onchange.json"),
                         "{\"version\": 1, \"rules\": [{\"id\": \"p\", \"scope\": \"ip\", "
                         "\"algorithm\": \"token_bucket\", \"rate\": \"10/s\", \"burst\": 20, "
                         "\"on_change\": \"proportional\"}]}"));
        selectRule(QStringLiteral("p"));
        auto *combo = find<QComboBox>("onChangeCombo");
        QVERIFY(combo);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("proportional"));
        QCOMPARE(combo->count(), 4);
        for (int i = 0; i < combo->count(); ++i) {
            QVERIFY(!combo->itemData(i, Qt::ToolTipRole).toString().isEmpty());
            QVERIFY(combo->toolTip().contains(combo->itemData(i).toString()));
        }
        QVERIFY(!find<QPushButton>("applyButton")->isEnabled());
        // Picked with the keyboard: Down from proportional is additive.
        combo->setFocus();
        QTest::keyClick(combo, Qt::Key_Down);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("additive"));
        QVERIFY(find<ElidedLabel>("onChangeHelp")->text().contains(QStringLiteral("raise")));
        QVERIFY(find<QPushButton>("applyButton")->isEnabled()); // a change of the rule
        click("applyButton");
        QCOMPARE(page().rules().find(QStringLiteral("p"))->onChange, OnChange::Additive);
        combo->setCurrentIndex(combo->findData(QStringLiteral("keep_used")));
        click("applyButton");
        QCOMPARE(page().rules().find(QStringLiteral("p"))->onChange, OnChange::KeepUsed);
    }

    // count_rejected: a checkbox the window algorithms enable, clicked and applied; greyed
    // out with the reason for the others, where the rule never gets it.
    void editorCountsRejected()
    {
        QVERIFY(imported(QStringLiteral("countrejected.json"),
                         "{\"version\": 1, \"rules\": [{\"id\": \"s\", \"scope\": \"ip\", "
                         "\"algorithm\": \"sliding_log\", \"limit\": 3, \"window\": \"1s\"}, "
                         "{\"id\": \"g\", \"scope\": \"ip\", \"algorithm\": \"gcra\", "
                         "\"rate\": \"5/s\", \"burst\": 2}]}"));
        selectRule(QStringLiteral("s"));
        auto *check = find<QCheckBox>("countRejectedCheck");
        QVERIFY(check);
        QVERIFY(check->isEnabled() && !check->isChecked());
        QVERIFY(check->toolTip().contains(QStringLiteral("count_rejected")));
        QVERIFY(find<ElidedLabel>("countRejectedHelp")->text().contains(QStringLiteral("retries")));
        QTest::mouseClick(check, Qt::LeftButton, {}, QPoint(8, check->height() / 2));
        QVERIFY(check->isChecked());
        QVERIFY(find<QPushButton>("applyButton")->isEnabled());
        click("applyButton");
        QVERIFY(page().rules().find(QStringLiteral("s"))->countRejected);

        // Another algorithm that refuses it: greyed out, the reason said, not written.
        auto *algorithm = find<QComboBox>("algorithmCombo");
        algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("token_bucket")));
        QVERIFY(!check->isEnabled());
        QVERIFY2(check->toolTip().contains(QStringLiteral("token_bucket cannot count")),
                 qPrintable(check->toolTip()));
        QVERIFY(find<ElidedLabel>("countRejectedHelp")->text().contains(QStringLiteral("window")));
        click("applyButton");
        QVERIFY(!page().rules().find(QStringLiteral("s"))->countRejected);
        QCOMPARE(page().rules().find(QStringLiteral("s"))->algorithm, Algorithm::TokenBucket);

        selectRule(QStringLiteral("g"));
        QVERIFY(!check->isEnabled());
        QVERIFY2(check->toolTip().contains(QStringLiteral("gcra cannot count")),
                 qPrintable(check->toolTip()));
        // Back to a window algorithm: enabled again.
        algorithm->setCurrentIndex(algorithm->findData(QStringLiteral("fixed_window")));
        QVERIFY(check->isEnabled());
    }

    void unappliedEditsAreKeptOrConfirmed()
    {
        QVERIFY(importRealistic());
        QStringList questions;
        RulesPage::EditChoice answer = RulesPage::EditChoice::KeepEditing;
        page().setEditChoiceHook([&](const QString &q) {
            questions << q;
            return answer;
        });
        selectRule(QStringLiteral("hello-per-ip"));
        type("limitEdit", QStringLiteral("4"));
        QVERIFY(questions.isEmpty());

        // Keep editing: the editor and the selection stay on hello-per-ip, edits intact.
        selectRule(QStringLiteral("api-global"));
        QCOMPARE(questions.size(), 1);
        QVERIFY2(questions[0].contains(QStringLiteral("hello-per-ip")), qPrintable(questions[0]));
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("hello-per-ip"));
        QCOMPARE(find<QLineEdit>("limitEdit")->text(), QStringLiteral("4"));
        const auto selected = find<QTableView>("rulesTable")->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected[0].data().toString(), QStringLiteral("hello-per-ip"));

        // Discard: the other rule opens, the set is unchanged.
        answer = RulesPage::EditChoice::Discard;
        selectRule(QStringLiteral("api-global"));
        QCOMPARE(questions.size(), 2);
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("api-global"));
        QCOMPARE(page().rules().find(QStringLiteral("hello-per-ip"))->limit, 3);
        QVERIFY(!page().hasUnsavedChanges());

        // Apply: the edit goes in, then the other rule opens.
        selectRule(QStringLiteral("hello-per-ip"));
        type("limitEdit", QStringLiteral("6"));
        answer = RulesPage::EditChoice::Apply;
        selectRule(QStringLiteral("login-per-ip"));
        QCOMPARE(questions.size(), 3);
        QCOMPARE(page().rules().find(QStringLiteral("hello-per-ip"))->limit, 6);
        QVERIFY(page().hasUnsavedChanges());
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("login-per-ip"));

        // Add with edits pending asks too, and so does leaving a new rule not yet added.
        type("descriptionEdit", QStringLiteral("changed"));
        answer = RulesPage::EditChoice::KeepEditing;
        click("addButton");
        QCOMPARE(questions.size(), 4);
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("login-per-ip"));
        answer = RulesPage::EditChoice::Discard;
        click("addButton");
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("new-rule"));
        selectRule(QStringLiteral("api-global"));
        QCOMPARE(questions.size(), 6);
        QVERIFY2(questions[5].contains(QStringLiteral("the new rule")), qPrintable(questions[5]));
        QCOMPARE(find<QLineEdit>("idEdit")->text(), QStringLiteral("api-global"));

        // An unmodified editor never asks.
        selectRule(QStringLiteral("hello-per-ip"));
        QCOMPARE(questions.size(), 6);
    }

    // The screenshot of record: eight rules, the editor on a token bucket.
    // At the first-start size the rule's id and its limit, what a row is read by, stay whole:
    // the other columns (route, scope, flags) give way first and elide with their tooltip
    // ("hell…", "3 pe…" at 1100x700 before).
    void idAndLimitColumnsStayWhole()
    {
        QVERIFY(importRealistic());
        page().resize(940, 640); // the page's part of a 1100x700 window
        page().show();
        QVERIFY(QTest::qWaitForWindowExposed(&page()));
        QTableView *table = find<QTableView>("rulesTable");
        QTRY_VERIFY(table->viewport()->width() > 0);
        QCoreApplication::processEvents();
        const QFontMetrics fm = table->fontMetrics();
        for (const int c : {int(RulesModel::IdColumn), int(RulesModel::LimitColumn)}) {
            const int need = static_cast<QAbstractItemView *>(table)->sizeHintForColumn(c);
            QVERIFY2(table->columnWidth(c) >= need,
                     qPrintable(QStringLiteral("column %1: %2 px, its cells need %3 px")
                                    .arg(c)
                                    .arg(table->columnWidth(c))
                                    .arg(need)));
            for (int r = 0; r < table->model()->rowCount(); ++r) {
                const QString text = table->model()->index(r, c).data().toString();
                QVERIFY2(table->columnWidth(c) >= fm.horizontalAdvance(text) + 6,
                         qPrintable(QStringLiteral("\"%1\" needs %2 px, has %3")
                                        .arg(text)
                                        .arg(fm.horizontalAdvance(text) + 6)
                                        .arg(table->columnWidth(c))));
            }
        }
        // And nothing is reached by scrolling sideways.
        int total = 0;
        for (int c = 0; c < table->model()->columnCount(); ++c) {
            total += table->isColumnHidden(c) ? 0 : table->columnWidth(c);
        }
        QVERIFY2(total <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(total).arg(table->viewport()->width())));
    }

    // The Rules page with a rule's overrides listed (the file's and a stored one), at two sizes
    // in both languages (SLUICE_SHOTS_DIR).
    void overridesScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        const QByteArray json =
            QByteArray(realisticRules)
                .replace("\"limit\": 3, \"window\": \"5s\" }",
                         "\"limit\": 3, \"window\": \"5s\", \"overrides\": [{\"subject\": "
                         "\"10.1.2.3\", \"allow\": true, \"note\": \"health checker\"}, "
                         "{\"cidr\": \"203.0.113.0/24\", \"deny\": true, \"expires\": "
                         "\"2099-01-01T00:00:00Z\"}, {\"match\": \"partner-*\", \"limit\": "
                         "{\"limit\": 300, \"window\": \"1m\"}, \"ttl\": \"1d\"}] }");
        rules::Loaded loaded = rules::parseJson(json, {});
        QVERIFY2(loaded.ok() && !loaded.set.rules[0].overrides.empty(),
                 qPrintable(loaded.errors.value(0).toString()));
        Connection c = test::connect();
        Override deny;
        deny.pattern = QStringLiteral("198.51.100.23");
        deny.action = Override::Action::Deny;
        deny.ttlUs = duration::usPerHour;
        deny.note = QStringLiteral("credential stuffing");
        QVERIFY(rules::OverrideStore(m_ns).add(c, loaded.set.rules[0], deny, {}).ok());
        test::inEachLanguage(
            QStringLiteral("rules-overrides"), {QSize(1280, 800), QSize(1920, 1080)},
            [&](QSize size, const QString &, const QString &path) {
                m_tester.reset();
                m_h.reset();
                connectToFixture();
                m_h->window()->resize(size);
                QVERIFY(imported(QStringLiteral("rules.json"), json));
                selectRule(QStringLiteral("hello-per-ip"));
                QTRY_COMPARE_WITH_TIMEOUT(page().overridesModel()->rowCount(), 4, 5000);
                QTest::qWait(300);
                QVERIFY(m_h->window()->grab().save(path));
            });
        (void)rules::OverrideStore(m_ns).remove(c, QStringLiteral("hello-per-ip"),
                                                Override::Kind::Subject, deny.pattern);
    }

    void screenshot()
    {
        connectToFixture();
        QVERIFY(importRealistic());
        selectRule(QStringLiteral("api-global"));
        QCOMPARE(find<QComboBox>("algorithmCombo")->currentData().toString(),
                 QStringLiteral("token_bucket"));
        QVERIFY(page().grab().save(test::screenshotPath(QStringLiteral("rules.png"))));
    }
};

QTEST_MAIN(TestRulesPage)
#include "tst_rulespage.moc"
