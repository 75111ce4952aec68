// The decision JSON (core/limiter/decisionjson.h), the one writer of `sluice-cli check --json`
// and of the check service's /v1/check body: on every shape of decision (allowed, denied,
// shadow-admitted, uncertain, each source, any cost, keys and subjects with quotes,
// backslashes, control bytes, UTF-8 and bytes that are not) its bytes are exactly those of
// QJsonDocument(the documented object).toJson(Compact), the form FORMATS.md specifies.
#include "core/common/bytes.h"
#include "core/limiter/decisionjson.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <limits>
#include <optional>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

// The object as FORMATS.md documents it, written by Qt.
QByteArray reference(const Decision &d, const QByteArray &key, const DecisionJsonExtras &x)
{
    QJsonObject o{{u"allowed"_s, d.allowed},
                  {u"limit"_s, d.limit},
                  {u"remaining"_s, d.remaining},
                  {u"retry_after_ms"_s, d.retryAfterMs},
                  {u"reset_after_ms"_s, d.resetAfterMs},
                  {u"delay_ms"_s, d.delayMs},
                  {u"key"_s, bytes::printable(key)}};
    if (x.cost) {
        o.insert(u"cost"_s, *x.cost);
    }
    if (!x.rule.isEmpty()) {
        o.insert(u"rule"_s, QString::fromUtf8(x.rule));
    }
    if (x.shadow) {
        o.insert(u"shadow"_s, *x.shadow);
        if (*x.shadow) {
            o.insert(u"shadow_denied"_s, x.shadowDenied);
        }
    }
    if (!x.source.isEmpty()) {
        o.insert(u"source"_s, QString::fromUtf8(x.source));
    }
    if (x.subject != nullptr) {
        o.insert(u"subject"_s, bytes::printable(*x.subject));
    }
    if (x.uncertain) {
        o.insert(u"uncertain"_s, true);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray written(const Decision &d, const QByteArray &key, const DecisionJsonExtras &x)
{
    QByteArray out("prefix:"); // the writer appends to what is there
    {
        bytes::ByteWriter w(out, 8);
        writeDecisionJson(w, d, key, x);
    }
    return out.mid(7);
}

} // namespace

class TestDecisionJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sameBytesAsQt()
    {
        const QList<QByteArray> texts = {
            "rate_limit:api:{1.2.3.4}",
            "",
            QByteArray("q\"uo\"te"),
            QByteArray("back\\slash"),
            QByteArray("new\nline\ttab\r\x01\x1f", 15),
            QByteArray("nul\0byte", 8),
            QByteArray("caf\xc3\xa9 \xe4\xb8\xad"),
            QByteArray("bad \xff\xfe utf-8"),
            QByteArray("del \x7f"),
            QByteArray(300, 'k'),
        };
        const QList<Decision> decisions = {
            Decision{true, 10, 9, -1, 60000, 0},
            Decision{false, 10, 0, 1234, 1234, 0},
            Decision{true, 5, 2, -1, 800, 750}, // a leaky bucket's queued admission
            Decision{false, 3, 0, -1, 0, 0},    // never admissible (cost above the limit)
            Decision{true, std::numeric_limits<qint64>::max(), std::numeric_limits<qint64>::min(),
                     -1, 0, 0},
        };
        const QList<QByteArray> sources = {"redis", "cache", "fallback"};
        int shapes = 0;
        for (const Decision &d : decisions) {
            for (const QByteArray &key : texts) {
                // The CLI's: the decision alone.
                QCOMPARE(written(d, key, {}), reference(d, key, {}));
                QCOMPARE(decisionJson(d, key), reference(d, key, {}));
                ++shapes;
                // The service's: every combination of its fields.
                for (const QByteArray &subject : {texts[0], texts[2], texts[4], texts[7]}) {
                    for (int shadow = 0; shadow < 3; ++shadow) {
                        for (const bool uncertain : {false, true}) {
                            for (const QByteArray &source : sources) {
                                DecisionJsonExtras x;
                                x.cost = shadow == 2 ? 7 : 1;
                                x.rule = "api-per-ip";
                                x.shadow = shadow > 0;
                                x.shadowDenied = shadow == 2;
                                x.source = source;
                                x.subject = &subject;
                                x.uncertain = uncertain;
                                Decision shown = d;
                                shown.allowed = d.allowed || shadow > 0;
                                QCOMPARE(written(shown, key, x), reference(shown, key, x));
                                ++shapes;
                            }
                        }
                    }
                }
            }
        }
        qInfo("%d shapes, each the same bytes as QJsonDocument's", shapes);
    }

    // The escaper alone, on every byte value.
    void jsonStringLikeQt()
    {
        for (int c = 0; c < 256; ++c) {
            const QByteArray utf8 =
                c < 0x80 ? QByteArray(1, char(c)) + "x" : QString(QChar(c)).toUtf8() + "x";
            QByteArray out;
            {
                bytes::ByteWriter w(out);
                writeJsonString(w, utf8);
            }
            const QByteArray qt = QJsonDocument(QJsonObject{{u"s"_s, QString::fromUtf8(utf8)}})
                                      .toJson(QJsonDocument::Compact);
            QCOMPARE(out, qt.mid(5, qt.size() - 6)); // {"s":<here>}
        }
    }
};

QTEST_APPLESS_MAIN(TestDecisionJson)
#include "tst_decisionjson.moc"
