// The check service's pure request parsing (app/serve/httpparse.h): form decoding, the query of
// /v1/check, whole numbers, and the request-head screen, without a socket. The end-to-end
// answers over a real socket are in tst_serve and tst_serve_hardening.

#include "app/serve/httpparse.h"

#include "testkit.h"

#include <QTest>

#include <algorithm>

using namespace sluice;
using namespace sluice::serve;
using namespace Qt::StringLiterals;

namespace {

// Feeds `data` to a fresh scanner in pieces of `piece` bytes (0: at once).
Rejection scanInPieces(const QByteArray &data, qsizetype piece, const HttpLimits &limits,
                       quint64 *heads = nullptr)
{
    HeadScanner s(limits);
    Rejection r;
    const qsizetype step = piece <= 0 ? std::max<qsizetype>(1, data.size()) : piece;
    for (qsizetype at = 0; at < data.size() && !r; at += step) {
        r = s.feed(QByteArrayView(data).sliced(at, std::min(step, data.size() - at)));
    }
    if (heads != nullptr) {
        *heads = s.heads();
    }
    return r;
}

HttpLimits smallLimits()
{
    HttpLimits l;
    l.maxRequestLineBytes = 40;
    l.maxHeaderBytes = 120;
    l.maxBodyBytes = 10;
    l.maxSubjectBytes = 8;
    return l;
}

} // namespace

class TestHttpParse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void formDecode_data()
    {
        test::columns<QByteArray, QByteArray>("encoded", "decoded");
        QTest::newRow("plain") << QByteArray("abc.1-2_3~") << QByteArray("abc.1-2_3~");
        QTest::newRow("plus is a space") << QByteArray("a+b++") << QByteArray("a b  ");
        QTest::newRow("%2B is a plus") << QByteArray("a%2Bb") << QByteArray("a+b");
        QTest::newRow("escapes") << QByteArray("%41%62%3d%26%25") << QByteArray("Ab=&%");
        QTest::newRow("lower and upper hex") << QByteArray("%c3%A9") << QByteArray("\xc3\xa9");
        QTest::newRow("nul and ff") << QByteArray("%00%ff") << QByteArray("\x00\xff", 2);
        QTest::newRow("escape at the end") << QByteArray("ab%41") << QByteArray("abA");
        // A '%' not followed by two hex digits stands for itself (it used to become the byte
        // of two non-digits: "%zz" was 0xaa-ish garbage in a Redis key).
        QTest::newRow("bad escape") << QByteArray("%zz") << QByteArray("%zz");
        QTest::newRow("half hex") << QByteArray("%4g") << QByteArray("%4g");
        QTest::newRow("lone percent") << QByteArray("100%") << QByteArray("100%");
        QTest::newRow("percent and one digit") << QByteArray("a%4") << QByteArray("a%4");
        QTest::newRow("percent percent") << QByteArray("%%41") << QByteArray("%A");
        QTest::newRow("plus inside escape") << QByteArray("%+1") << QByteArray("% 1");
        QTest::newRow("empty") << QByteArray() << QByteArray();
    }
    void formDecode()
    {
        QFETCH(QByteArray, encoded);
        QFETCH(QByteArray, decoded);
        QCOMPARE(serve::formDecode(encoded), decoded);
    }

    void digits_data()
    {
        test::columns<QByteArray, bool, qint64>("text", "ok", "value");
        QTest::newRow("zero") << QByteArray("0") << true << qint64(0);
        QTest::newRow("leading zeros") << QByteArray("007") << true << qint64(7);
        QTest::newRow("18 digits")
            << QByteArray("999999999999999999") << true << qint64(999999999999999999);
        QTest::newRow("19 digits") << QByteArray("1000000000000000000") << false << qint64(0);
        QTest::newRow("empty") << QByteArray() << false << qint64(0);
        QTest::newRow("sign") << QByteArray("+1") << false << qint64(0);
        QTest::newRow("minus") << QByteArray("-1") << false << qint64(0);
        QTest::newRow("blank") << QByteArray(" 1") << false << qint64(0);
        QTest::newRow("hex") << QByteArray("0x1") << false << qint64(0);
        QTest::newRow("decimal point") << QByteArray("1.0") << false << qint64(0);
    }
    void digits()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        qint64 n = -42;
        QCOMPARE(parseDigits(text, &n), ok);
        QCOMPARE(n, ok ? value : qint64(-42)); // untouched on failure
    }

    void query_data()
    {
        QTest::addColumn<QByteArray>("query");
        QTest::addColumn<QString>("error"); // a part of it; empty: accepted
        test::columns<QByteArray, QByteArray, QByteArray>("rule", "subject", "cost");
        QTest::addColumn<QString>("has"); // which were given: r, s, c
        auto ok = [](const char *name, const QByteArray &q, const QByteArray &rule,
                     const QByteArray &subject, const QByteArray &cost, const char *has) {
            QTest::newRow(name) << q << QString() << rule << subject << cost
                                << QString::fromLatin1(has);
        };
        auto bad = [](const char *name, const QByteArray &q, const QString &error) {
            QTest::newRow(name) << q << error << QByteArray() << QByteArray() << QByteArray()
                                << QString();
        };
        ok("empty", "", "", "", "", "");
        ok("all three", "rule=fw&subject=1.2.3.4&cost=3", "fw", "1.2.3.4", "3", "rsc");
        ok("any order", "cost=0&subject=u&rule=r", "r", "u", "0", "rsc");
        ok("form decoded", "rule=a%2Fb&subject=a+b%26c%3D", "a/b", "a b&c=", "", "rs");
        ok("encoded names", "%72ule=x&sub%6aect=y", "x", "y", "", "rs");
        ok("empty pairs skipped", "&&rule=x&&&subject=y&", "x", "y", "", "rs");
        ok("no '=' is an empty value", "rule=x&subject", "x", "", "", "rs");
        ok("empty value", "rule=&subject=", "", "", "", "rs");
        ok("'=' inside a value", "rule=x&subject=a=b=c", "x", "a=b=c", "", "rs");
        ok("bad escape kept", "rule=x&subject=50%zz%", "x", "50%zz%", "", "rs");
        ok("binary subject", "rule=x&subject=%00%ff", "x", QByteArray("\x00\xff", 2), "", "rs");
        bad("repeated", "rule=a&subject=s&rule=a", u"parameter 'rule' is given twice"_s);
        bad("repeated empty", "subject&subject=", u"parameter 'subject' is given twice"_s);
        bad("repeated through an escape", "cost=1&%63ost=2", u"parameter 'cost' is given twice"_s);
        bad("unknown", "rule=x&sort=1", u"unknown parameter 'sort' (known: rule, subject, cost)"_s);
        bad("names are case-sensitive", "Rule=x", u"unknown parameter 'Rule'"_s);
        bad("empty name", "=x", u"unknown parameter ''"_s);
        bad("unprintable name", "%0a%ff=1", u"unknown parameter '\\x0a\\xff'"_s);
        // The name in the message is cut to 64 bytes: a long hostile name is not echoed whole.
        bad("long name", QByteArray(5000, 'n') + "=1",
            u"unknown parameter '"_s + QString(64, u'n') + u"' (known"_s);
    }
    void query()
    {
        QFETCH(QByteArray, query);
        QFETCH(QString, error);
        QFETCH(QByteArray, rule);
        QFETCH(QByteArray, subject);
        QFETCH(QByteArray, cost);
        QFETCH(QString, has);
        CheckParams p;
        const QString err = parseCheckQuery(query, &p);
        if (!error.isEmpty()) {
            QVERIFY2(err.contains(error), qPrintable(err));
            QVERIFY(err.size() < 200);
            return;
        }
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE(p.rule, rule);
        QCOMPARE(p.subject, subject);
        QCOMPARE(p.cost, cost);
        QCOMPARE(p.hasRule, has.contains(u'r'));
        QCOMPARE(p.hasSubject, has.contains(u's'));
        QCOMPARE(p.hasCost, has.contains(u'c'));
    }

    void head_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("status"); // 0: accepted
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("heads"); // complete heads accepted
        const HttpLimits l = smallLimits();
        auto row = [](const char *name, const QByteArray &data, int status, const char *code,
                      int heads) {
            QTest::newRow(name) << data << status << QString::fromLatin1(code) << heads;
        };
        row("one GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 0, "", 1);
        row("bare LF", "GET / HTTP/1.1\nHost: x\n\n", 0, "", 1);
        row("pipelined with blank lines", "GET / HTTP/1.1\r\n\r\n\r\n\nGET /a HTTP/1.1\r\n\r\n", 0,
            "", 2);
        row("body skipped",
            "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789GET / "
            "HTTP/1.1\r\n\r\n",
            0, "", 2);
        // A body whose bytes look like garbage is not read as a request.
        row("binary body",
            "PUT / HTTP/1.1\r\ncontent-length:3\r\n\r\n" + QByteArray("\x16\x03\x01", 3), 0, "", 1);
        row("head incomplete", "GET / HTTP/1.1\r\nHost: x\r\n", 0, "", 0);
        row("TLS hello", QByteArray("\x16\x03\x01\x02\x00\x01", 6), 400, "bad_request", 0);
        row("lower-case method", "get / HTTP/1.1\r\n\r\n", 400, "bad_request", 0);
        row("no space after the method", "GET/ HTTP/1.1\r\n", 400, "bad_request", 0);
        row("method of 17 letters", "ABCDEFGHIJKLMNOPQ", 400, "bad_request", 0);
        row("garbage after a good request", "GET / HTTP/1.1\r\n\r\n{json}", 400, "bad_request", 1);
        row("body above the limit", "POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", 413,
            "content_too_large", 0);
        row("body at the limit", "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n", 0, "", 1);
        row("chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 413,
            "content_too_large", 0);
        row("both lengths", "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: x\r\n\r\n",
            400, "bad_request", 0);
        row("signed length", "POST / HTTP/1.1\r\nContent-Length: +1\r\n\r\n", 400, "bad_request",
            0);
        row("two lengths", "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400,
            "bad_request", 0);
        row("same length twice",
            "POST / HTTP/1.1\r\nContent-Length: 1\r\ncontent-length: 1\r\n\r\nx", 0, "", 1);
        row("huge length", "POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 400,
            "bad_request", 0);
        row("upgrade", "GET / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n", 400, "upgrade_not_supported",
            0);
        row("subject at the limit", "GET / HTTP/1.1\r\nSluice-Subject: 12345678\r\n\r\n", 0, "", 1);
        row("subject above the limit", "GET / HTTP/1.1\r\nsluice-subject:  123456789 \r\n\r\n", 431,
            "request_header_fields_too_large", 0);
        row("request line at the limit",
            "GET /" + QByteArray(l.maxRequestLineBytes - 5, 'a') + "\r\n\r\n", 0, "", 1);
        row("request line above the limit",
            "GET /" + QByteArray(l.maxRequestLineBytes - 4, 'a') + "\r\n\r\n", 414, "uri_too_long",
            0);
        // Trailing blanks count: a request line's length does not depend on what comes after
        // it (the whole head used to be measured trimmed, the partial one not).
        row("request line of trailing blanks",
            "GET /" + QByteArray(l.maxRequestLineBytes - 10, 'a') + QByteArray(10, ' ') +
                "\r\n\r\n",
            414, "uri_too_long", 0);
        row("request line incomplete above the limit",
            "GET /" + QByteArray(l.maxRequestLineBytes, 'a'), 414, "uri_too_long", 0);
        row("head above the limit",
            "GET / HTTP/1.1\r\nX: " + QByteArray(l.maxHeaderBytes, 'x') + "\r\n\r\n", 431,
            "request_header_fields_too_large", 0);
        row("head at the limit",
            "GET / HTTP/1.1\r\nX: " + QByteArray(l.maxHeaderBytes - 23, 'x') + "\r\n\r\n", 0, "",
            1);
    }
    void head()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(int, heads);
        const HttpLimits l = smallLimits();
        // At once, byte by byte and in pieces: the same verdict (which reason is named may
        // differ between splits when a head has two; these rows have one).
        for (const qsizetype piece : {qsizetype(0), qsizetype(1), qsizetype(2), qsizetype(7)}) {
            quint64 n = 0;
            const Rejection r = scanInPieces(data, piece, l, &n);
            QCOMPARE(r.status, status);
            QCOMPARE(r.code, code);
            QVERIFY(r ? !r.message.isEmpty() : r.message.isEmpty());
            QCOMPARE(n, quint64(heads));
        }
    }

    // Never more than the head limit + 4 bytes held, however much arrives without an end.
    void headBytesAreBounded()
    {
        const HttpLimits l = smallLimits();
        HeadScanner s(l);
        QVERIFY(!s.feed("GET / HTTP/1.1\r\n"));
        QByteArray line("X: 1\r\n");
        Rejection r;
        for (int i = 0; i < 1000 && !r; ++i) {
            r = s.feed(line);
            QVERIFY(s.heldBytes() <= l.maxHeaderBytes + 4);
        }
        QCOMPARE(r.status, 431);
        HeadScanner big(l);
        QCOMPARE(big.feed("GET / HTTP/1.1\r\nX: " + QByteArray(1 << 20, 'x')).status, 431);
        QVERIFY(big.heldBytes() <= l.maxHeaderBytes + 4);
    }

    // reset() forgets a request begun (the socket does at a request boundary).
    void resetStartsARequest()
    {
        HeadScanner s(smallLimits());
        QVERIFY(!s.feed("GET / HT"));
        QVERIFY(s.inRequest());
        s.reset();
        QVERIFY(!s.inRequest());
        QVERIFY(!s.feed("GET /b HTTP/1.1\r\n\r\n"));
        QCOMPARE(s.heads(), quint64(1));
        QVERIFY(!s.inRequest());
        QVERIFY(!s.feed("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\nab"));
        QVERIFY(s.inRequest()); // two bytes of its body to come
        QVERIFY(!s.feed("cd"));
        QVERIFY(!s.inRequest());
    }

    // The request parser of the service's HTTP layer (parseRequestHead).
    void requestHead()
    {
        RequestHead h;
        QVERIFY(parseRequestHead("GET /v1/check?rule=a&subject=b#frag HTTP/1.1\r\nHost: x\r\n"
                                 "Sluice-Subject:  1.2.3.4 \r\nContent-Length: 0\r\n\r\n",
                                 &h));
        QCOMPARE(h.method, QByteArrayView("GET"));
        QCOMPARE(h.path, QByteArrayView("/v1/check"));
        QCOMPARE(h.query, QByteArrayView("rule=a&subject=b"));
        QCOMPARE(h.subject, QByteArrayView("1.2.3.4"));
        QVERIFY(h.hasSubject);
        QVERIFY(!h.close);
        // HTTP/1.0 closes unless asked to keep alive; Connection is a list.
        QVERIFY(parseRequestHead("GET / HTTP/1.0\r\n\r\n", &h) && h.close);
        QVERIFY(parseRequestHead("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &h) &&
                !h.close);
        QVERIFY(parseRequestHead("GET / HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n", &h) &&
                h.close);
        // The absolute form: its path and query.
        QVERIFY(parseRequestHead("GET http://svc:8080/healthz?x=1 HTTP/1.1\r\n\r\n", &h));
        QCOMPARE(h.path, QByteArrayView("/healthz"));
        QCOMPARE(h.query, QByteArrayView("x=1"));
        QVERIFY(parseRequestHead("GET HTTP://svc/v1/auth HTTP/1.1\n\n", &h));
        QCOMPARE(h.path, QByteArrayView("/v1/auth"));
        // Malformed: no path, another version, a blank in the target, a header without a name,
        // obsolete line folding, a bad Content-Length.
        for (const char *bad :
             {"GET http://svc HTTP/1.1\r\n\r\n", "GET * HTTP/1.1\r\n\r\n", "GET / HTTP/2.0\r\n\r\n",
              "GET / HTTP/1.1 x\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/1.1\r\n: x\r\n\r\n",
              "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n",
              "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "GET /\x7f HTTP/1.1\r\n\r\n"}) {
            QVERIFY2(!parseRequestHead(bad, &h), bad);
        }
        QCOMPARE(headEnd("GET / HTTP/1.1\r\n\r\nGET"), 18);
        QCOMPARE(headEnd("GET / HTTP/1.1\n\nGET"), 16);
        QCOMPARE(headEnd("GET / HTTP/1.1\r\n"), -1);
    }

    void malformed()
    {
        const HttpLimits l = smallLimits();
        QCOMPARE(serve::rejectMalformed("GET /a b c d HTTP/1.1\r\n", l).status, 400);
        QCOMPARE(serve::rejectMalformed("", l).status, 400);
        const QByteArray longLine = "GET /" + QByteArray(l.maxRequestLineBytes, 'a');
        QCOMPARE(serve::rejectMalformed(longLine, l).status, 414);
        QCOMPARE(serve::rejectMalformed(longLine + "\r\n\r\n", l).code, u"uri_too_long"_s);
        QCOMPARE(serve::rejectMalformed(longLine.left(l.maxRequestLineBytes) + "\r\n", l).status,
                 400);
    }
};

QTEST_GUILESS_MAIN(TestHttpParse)
#include "tst_httpparse.moc"
