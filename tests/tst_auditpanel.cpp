// The Keys page's audit mode as a widget (ui/keys/auditpanel.h), offscreen, on a redis-server
// of the test's own: the groups in the table, flagged first, the Why of the selection, Fix
// asking with the count. With $SLUICE_SHOTS_DIR set it also saves the panel at 1280x800 and
// 1920x1080, in English and in Chinese (audit-<lang>-<size>.png), to be looked at.
#include "ownredis.h"
#include "pageharness.h"

#include "ui/keys/auditpanel.h"
#include "ui/language.h"

#include "core/redis/connection.h"

#include <QApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

class TestAuditPanel : public QObject
{
    Q_OBJECT

    test::OwnRedis m_redis;

    void plant()
    {
        auto c = Connection::open(m_redis.endpoint());
        QVERIFY(c);
        QVERIFY(c->command({"FLUSHALL"}));
        QVERIFY(c->command({"DEBUG", "POPULATE", "5000", "session"}));
        auto t = c->command({"TIME"});
        QVERIFY(t);
        const QByteArray nowMs = QByteArray::number(t->elements[0].str.toLongLong() * 1000);
        QList<QList<QByteArray>> cmds;
        for (int i = 0; i < 37; ++i) {
            cmds << QList<QByteArray>{"SET",
                                      "rate_limit:10.0.0." + QByteArray::number(i) +
                                          "-com.example.HelloController-hello",
                                      "57"};
        }
        for (int i = 0; i < 120; ++i) {
            cmds << QList<QByteArray>{"SET", "rl:10.1.0." + QByteArray::number(i), "3", "PX",
                                      "60000"};
            cmds << QList<QByteArray>{"SET", "rlflx:user" + QByteArray::number(i), "2", "EX", "60"};
        }
        for (int i = 0; i < 12; ++i) {
            cmds << QList<QByteArray>{"ZADD", "sliding:user" + QByteArray::number(i), nowMs, nowMs};
        }
        cmds << QList<QByteArray>{"SET", "api_quota_user_7", "4"};
        cmds << QList<QByteArray>{"HSET",     "{limiter}", "rate", "10",
                                  "interval", "1000",      "type", "0"};
        auto r = c->pipeline(cmds);
        QVERIFY(r);
    }

    void audit(AuditPanel &panel)
    {
        QSignalSpy finished(panel.session(), &AuditSession::finished);
        panel.start();
        QVERIFY(finished.wait(30'000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_redis.start({u"--enable-debug-command"_s, u"yes"_s}),
                 m_redis.output().constData());
        plant();
    }

    void groupsWhyAndFix()
    {
        const Endpoint endpoint = m_redis.endpoint();
        AuditPanel panel([endpoint] { return std::optional<Endpoint>(endpoint); },
                         [] { return std::optional<RuleSet>(); });
        QString asked;
        panel.setConfirm([&](const QString &q) {
            asked = q;
            return true;
        });
        panel.resize(1280, 700);
        panel.show();
        audit(panel);
        QTableWidget *table = panel.table();
        QCOMPARE(table->item(0, 0)->text(), u"string_counter"_s);
        QCOMPARE(table->item(0, 1)->text(), u"37"_s);
        QCOMPARE(table->item(1, 0)->text(), u"sorted_set_log"_s);
        QVERIFY(panel.findChild<QPlainTextEdit *>(u"auditWhy"_s)
                    ->toPlainText()
                    .contains(u"INCR after the key expired"_s));
        auto *fix = panel.findChild<QPushButton *>(u"auditFixButton"_s);
        QVERIFY(fix->isEnabled());
        QSignalSpy fixed(panel.session(), &AuditSession::fixFinished);
        fix->click();
        QVERIFY2(asked.contains(u"37 keys"_s), qPrintable(asked));
        QVERIFY(fixed.wait(30'000));
        QVERIFY(panel.session()->lastFix().headline.startsWith(u"Set a TTL on 37 keys"_s));
        plant(); // as it was, for the screenshots
    }

    void screenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        const Endpoint endpoint = m_redis.endpoint();
        test::inEachLanguage(u"audit"_s, {QSize(1280, 800), QSize(1920, 1080)},
                             [&](QSize size, const QString &, const QString &path) {
                                 AuditPanel panel(
                                     [endpoint] { return std::optional<Endpoint>(endpoint); },
                                     [] { return std::optional<RuleSet>(); });
                                 // The page's margins and header take about this much of the
                                 // window.
                                 panel.resize(size.width() - 48 - 200, size.height() - 160);
                                 panel.show();
                                 audit(panel);
                                 panel.table()->selectRow(0);
                                 QTest::qWait(50);
                                 QVERIFY(panel.grab().save(path));
                             });
    }
};

QTEST_MAIN(TestAuditPanel)
#include "tst_auditpanel.moc"
