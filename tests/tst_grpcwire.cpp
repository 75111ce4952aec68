// The gRPC port's wire shortcuts against protobuf's own code: WireRequest (a usual
// RateLimitRequest read as views of its bytes) reads exactly what the generated parser reads,
// or declines (then protobuf parses the request); isUtf8 accepts exactly the strings protobuf
// accepts in a proto3 string field; encodeAnswer writes the bytes protobuf's serializer writes
// for the same RateLimitResponse.

#include "app/serve/grpcanswer.h"
#include "app/serve/grpcwire.h"

#include "core/rules/rule.h"

#include "envoy/service/ratelimit/v3/rls.pb.h"

#include <google/protobuf/stubs/logging.h>

#include <QtTest>

#include <string>

using namespace sluice;
using namespace sluice::serve;
namespace rls = ::envoy::service::ratelimit::v3;

namespace {

// `bytes` as the value of the domain field (1) of a RateLimitRequest.
std::string withDomain(const std::string &bytes)
{
    return std::string(1, char(0x0a)) + char(bytes.size()) + bytes;
}

// What WireRequest read, in the generated message's terms.
rls::RateLimitRequest asMessage(const WireRequest &w)
{
    rls::RateLimitRequest m;
    m.set_domain(std::string(w.domain()));
    m.set_hits_addend(w.hits_addend());
    for (int i = 0; i < w.descriptors_size(); ++i) {
        auto *d = m.add_descriptors();
        for (int j = 0; j < w.descriptors(i).entries_size(); ++j) {
            auto *e = d->add_entries();
            e->set_key(std::string(w.descriptors(i).entries(j).key()));
            e->set_value(std::string(w.descriptors(i).entries(j).value()));
        }
    }
    return m;
}

// WireRequest::read within the service's default bounds.
bool read(WireRequest &w, const std::string &bytes)
{
    return w.read(bytes, 256, 32);
}

} // namespace

class TestGrpcWire : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        google::protobuf::SetLogHandler(nullptr); // (its lines on every invalid string: none)
    }

    void readsTheUsualShape()
    {
        rls::RateLimitRequest m;
        m.set_domain("edge");
        m.set_hits_addend(3);
        auto *d = m.add_descriptors();
        auto *e = d->add_entries();
        e->set_key("remote_address");
        e->set_value("10.0.0.1");
        e = d->add_entries();
        e->set_key("path");
        e->set_value("");                                          // an empty value
        m.add_descriptors()->add_entries()->set_key("k\xc3\xa9y"); // UTF-8, no value
        const std::string bytes = m.SerializeAsString();
        WireRequest w;
        QVERIFY(read(w, bytes));
        QCOMPARE(asMessage(w).SerializeAsString(), bytes);
        // Read again: nothing of the last request is left.
        QVERIFY(read(w, withDomain("other")));
        QCOMPARE(w.descriptors_size(), 0);
        QCOMPARE(w.hits_addend(), 0u);
    }

    void declinesWhatItDoesNotRead()
    {
        rls::RateLimitRequest limit;
        limit.set_domain("edge");
        auto *d = limit.add_descriptors();
        d->add_entries()->set_key("k");
        d->mutable_limit()->set_requests_per_unit(5);
        rls::RateLimitRequest hits = limit;
        hits.mutable_descriptors(0)->clear_limit();
        hits.mutable_descriptors(0)->mutable_hits_addend()->set_value(2);
        WireRequest w;
        QVERIFY(!read(w, limit.SerializeAsString()));         // a descriptor's limit override
        QVERIFY(!read(w, hits.SerializeAsString()));          // a descriptor's own hits_addend
        QVERIFY(!read(w, withDomain("a") + withDomain("b"))); // a field twice (last wins)
        QVERIFY(!read(w, withDomain("a") + std::string("\x20\x01", 2))); // an unknown field
        QVERIFY(!read(w, std::string("\x0a\x05"
                                     "ab",
                                     4)));                             // cut short
        QVERIFY(!read(w, std::string("\x18\xff\xff\xff\xff\x1f", 6))); // hits_addend > 2^32
        // Past the bounds (screenRequest() refuses it then): 257 descriptors, 33 entries.
        rls::RateLimitRequest many;
        many.set_domain("edge");
        for (int i = 0; i < 257; ++i) {
            many.add_descriptors()->add_entries()->set_key("k");
        }
        QVERIFY(!read(w, many.SerializeAsString()));
        many.mutable_descriptors()->DeleteSubrange(256, 1);
        QVERIFY(read(w, many.SerializeAsString()));
        for (int j = 0; j < 32; ++j) {
            many.mutable_descriptors(0)->add_entries()->set_key("k");
        }
        QVERIFY(!read(w, many.SerializeAsString()));
        QVERIFY(!read(w, withDomain("\xed\xa0\x80"))); // a surrogate
    }

    // isUtf8 and protobuf's parser agree on every string (in the domain field).
    void utf8AsProtobuf_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("ascii") << QByteArray("plain");
        QTest::newRow("2 bytes") << QByteArray("\xc3\xa9");
        QTest::newRow("3 bytes") << QByteArray("\xe2\x82\xac");
        QTest::newRow("4 bytes") << QByteArray("\xf0\x9f\x98\x80");
        QTest::newRow("U+10FFFF") << QByteArray("\xf4\x8f\xbf\xbf");
        QTest::newRow("above U+10FFFF") << QByteArray("\xf4\x90\x80\x80");
        QTest::newRow("overlong 2") << QByteArray("\xc0\x80");
        QTest::newRow("overlong 3") << QByteArray("\xe0\x80\x80");
        QTest::newRow("overlong 4") << QByteArray("\xf0\x80\x80\x80");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80");
        QTest::newRow("lone continuation") << QByteArray("a\x80");
        QTest::newRow("cut") << QByteArray("\xe2\x82");
        QTest::newRow("5 bytes") << QByteArray("\xf8\x88\x80\x80\x80");
        QTest::newRow("0xff") << QByteArray("\xff");
    }
    void utf8AsProtobuf()
    {
        QFETCH(QByteArray, bytes);
        const std::string message = withDomain(bytes.toStdString());
        rls::RateLimitRequest parsed;
        const bool protobuf = parsed.ParseFromString(message);
        QCOMPARE(isUtf8(bytes.toStdString()), protobuf);
        WireRequest w;
        QCOMPARE(read(w, message), protobuf);
    }

    // encodeAnswer's bytes are those of the RateLimitResponse protobuf serializes.
    void answerAsProtobuf()
    {
        RuleSet set;
        set.rules.push_back(Rule::window(QStringLiteral("edge.remote_address"),
                                         Algorithm::FixedWindow, 100, 60'000'000));
        set.rules.push_back(Rule::window(QStringLiteral("edge.path"), Algorithm::FixedWindow,
                                         300'000, 30'000'000)); // 30 s: no unit
        const auto table = std::make_shared<const RuleTable>(set, 0, QStringLiteral("test"));
        std::vector<GrpcCall::Slot> slots(3);
        for (int i : {0, 2}) {
            GrpcCall::Slot &s = slots[size_t(i)];
            s.rule = table->find(i == 0 ? QStringLiteral("edge.remote_address")
                                        : QStringLiteral("edge.path"));
            s.table = table;
            s.decision = Decision{i == 0, 100, i == 0 ? 99 : 0, 1500, 1500, 0};
            s.verdict.policy = &s.rule->policy;
            s.verdict.allowed = i == 0;
        }
        const std::string framed = encodeAnswer(slots, true);
        QVERIFY(framed.size() > 5);
        QCOMPARE(framed[0], '\0');
        const size_t n = size_t(uint8_t(framed[1])) << 24 | size_t(uint8_t(framed[2])) << 16 |
                         size_t(uint8_t(framed[3])) << 8 | uint8_t(framed[4]);
        QCOMPARE(n, framed.size() - 5);
        rls::RateLimitResponse r;
        QVERIFY(r.ParseFromString(framed.substr(5)));
        QCOMPARE(r.SerializeAsString(), framed.substr(5)); // protobuf writes the same bytes
        QCOMPARE(r.overall_code(), rls::RateLimitResponse::OVER_LIMIT);
        QCOMPARE(r.statuses_size(), 3);
        QCOMPARE(r.statuses(0).code(), rls::RateLimitResponse::OK);
        QCOMPARE(r.statuses(0).current_limit().name(), std::string("edge.remote_address"));
        QCOMPARE(r.statuses(0).current_limit().unit(), rls::RateLimitResponse::RateLimit::MINUTE);
        QCOMPARE(r.statuses(0).current_limit().requests_per_unit(), 100u);
        QCOMPARE(r.statuses(0).limit_remaining(), 99u);
        QCOMPARE(r.statuses(0).duration_until_reset().seconds(), 1);
        QCOMPARE(r.statuses(0).duration_until_reset().nanos(), 500'000'000);
        QCOMPARE(r.statuses(1).code(), rls::RateLimitResponse::OK); // no rule
        QVERIFY(!r.statuses(1).has_current_limit());
        QCOMPARE(r.statuses(2).code(), rls::RateLimitResponse::OVER_LIMIT);
        QCOMPARE(r.statuses(2).current_limit().unit(), rls::RateLimitResponse::RateLimit::UNKNOWN);
        QVERIFY(QByteArray::fromStdString(r.statuses(2).current_limit().name())
                    .startsWith("edge.path: "));
        QCOMPARE(r.statuses(2).limit_remaining(), 0u);
    }
};

QTEST_APPLESS_MAIN(TestGrpcWire)
#include "tst_grpcwire.moc"
