#pragma once

#include "checkservice.h"
#include "grpcsession.h"

#include "core/common/result.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QString>

#include <memory>

class QTimer;

namespace sluice::serve {

// Envoy's rate limit service API over gRPC (serve --grpc; FORMATS.md "The gRPC API"):
// envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit, and grpc.health.v1.Health
// (SERVING while rules are loaded and Redis is up, NOT_SERVING otherwise; Check, and Watch,
// which sends every change). The same request and answer in the proto3 JSON mapping for
// POST /json on the HTTP port (handleJson, through CheckService::Options::json).
//
// A descriptor maps to a rule by the rule ids envoy ratelimit's configuration gets
// (core/rules/envoyformat.h ruleIdOf: DOMAIN.KEY[_VALUE]...), walked as envoy ratelimit walks its
// descriptor tree: at each entry KEY_VALUE first, else KEY (any value); the rule of the node the
// last entry reaches decides. The subject is the values of the entries matched by KEY alone,
// joined by U+001F ("_" when there are none: the one counter of a fixed path). A descriptor's
// `limit` override is a fixed window of its own (FORMATS.md "The gRPC API"). Every decision is
// a job of the CheckService (its workers, deny cache, statistics and metrics); a request's
// answer is sent once its last descriptor is decided. Bad input is INVALID_ARGUMENT with a
// message (and a message above the receive limit RESOURCE_EXHAUSTED, from gRPC itself); Redis
// unavailable is answered by each rule's on_redis_error, as over HTTP; INTERNAL only for a
// decision that failed for another reason (a bug; the log has it).
//
// The port is served by our own HTTP/2 layer (grpcsession.h: libnghttp2's framing) on the
// HttpServer's epoll loop, which keeps the connection limits, timers and TLS of the HTTP port
// (docs/ARCHITECTURE.md "The gRPC layer"). Threads: the loop runs in the thread the object
// lives in (the service's); it parses and checks each call and hands the decisions of one turn
// of the loop to the workers together; the workers serialize the answers, and the loop writes
// those that came meanwhile in one turn. The health status is polled in the same thread.
class GrpcService : public QObject
{
    Q_OBJECT
public:
    // What a request for a domain no rule has gets (counted: unknown_domain).
    enum class UnknownDomain {
        Ok,        // OK for every descriptor, as envoy ratelimit answers (the default)
        OverLimit, // OVER_LIMIT for every descriptor
        Error      // INVALID_ARGUMENT naming the domain
    };
    struct Options
    {
        UnknownDomain unknownDomain = UnknownDomain::Ok;
        // RateLimit headers (those of HTTP's answers, with the legacy trio envoy ratelimit
        // writes) of the most restrictive descriptor in response_headers_to_add.
        bool responseHeaders = false;
        // The deciding descriptor's rule id, algorithm, decision and source (and each
        // descriptor's) in the response's dynamic_metadata, which Envoy can log.
        bool dynamicMetadata = false;
        // What the port may hold of requests being read: a message that would pass it is
        // refused (RESOURCE_EXHAUSTED) before its bytes are buffered.
        qint64 memoryBytes = qint64(32) << 20;
        // Above: RESOURCE_EXHAUSTED, as soon as its length is read. The descriptors and their
        // entries are counted on the wire before a message is parsed (grpcwire.h), so a request
        // costs at most its bytes plus 256 x 32 entries' objects (some 2 MB), never 40 times its
        // size.
        int maxMessageBytes = 4 << 20;
        int maxDescriptors = 256;       // per request; above: INVALID_ARGUMENT
        int maxEntries = 32;            // per descriptor (envoyformat.h maxDepth)
        qsizetype maxEntryBytes = 8192; // a key or value (HTTP's subject bound)
        // The port's connection, stream and reset limits (grpcsession.h).
        GrpcLimits limits;
        // Where the port's lines go (event "grpc": a connection closed, out of descriptors).
        ServeLog *log = nullptr;
        // TLS (and client certificates, ALPN h2) on the gRPC port; none: plain.
        std::shared_ptr<ServerTls> tls;
        // A connection's handshake (TLS, HTTP/2's preface) not done by then is closed
        // (serve: --header-timeout-ms, as over HTTP).
        int handshakeTimeoutMs = 10000;
    };

    GrpcService(CheckService &service, Options options, QObject *parent = nullptr);
    ~GrpcService() override; // closes the port's connections (answers still coming dropped)

    // Listens on `address`:`port` (0: a free port, returned). After CheckService::listen().
    // Trouble accepting (out of file descriptors) is the service's /healthz problem "grpc".
    Result<quint16> listen(const QHostAddress &address, quint16 port);

    // POST /json: `body` a RateLimitRequest in the proto3 JSON mapping; `reply` gets 200 (OK),
    // 429 (OVER_LIMIT) with the RateLimitResponse in that mapping, or 400 / 500 with
    // {"status", "error", "message"}. Any thread; `reply` is called once, from any thread.
    void handleJson(const QByteArray &body, const CheckService::Options::JsonReply &reply);

    struct Impl;

private:
    std::unique_ptr<Impl> d;
    QTimer *m_healthTimer = nullptr;
};

} // namespace sluice::serve
