#pragma once

#include "httpserver.h"
#include "metrics.h"

#include <QString>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

typedef struct nghttp2_session nghttp2_session;

namespace sluice::serve {

// gRPC's status codes (the ones the service answers).
enum class GrpcCode {
    Ok = 0,
    Cancelled = 1,
    InvalidArgument = 3,
    DeadlineExceeded = 4,
    NotFound = 5,
    ResourceExhausted = 8,
    Unimplemented = 12,
    Internal = 13,
    Unavailable = 14,
};

struct GrpcStatus
{
    GrpcCode code = GrpcCode::Ok;
    std::string message;
    bool ok() const { return code == GrpcCode::Ok; }
};

// The port's bounds (serve: --grpc-max-connections, --grpc-max-connections-per-peer,
// --grpc-max-streams, --grpc-max-resets-per-second, --grpc-idle-timeout-ms).
struct GrpcLimits
{
    int maxConnections = 256;
    int maxConnectionsPerPeer = 0; // 0: half of maxConnections (at least 1)
    int maxStreams = 100;          // SETTINGS_MAX_CONCURRENT_STREAMS of a connection
    int maxResetsPerSecond = 200;  // calls reset by the client unanswered per second
    int idleTimeoutMs = 300000;    // without a call open this long: GOAWAY (NO_ERROR), closed
};

class GrpcSession;
class GrpcAllocator;

// What the sessions hand on: a call's whole request message, in the server's thread.
class GrpcCalls
{
public:
    enum class Method { ShouldRateLimit, HealthCheck, HealthWatch };
    virtual ~GrpcCalls() = default;
    // `deadline`: the client's grpc-timeout (time_point::max(): none). The answer comes
    // through GrpcSession::answer(), now or later (in the server's thread).
    virtual void call(GrpcSession &session, int32_t stream, Method method, std::string_view message,
                      std::chrono::steady_clock::time_point deadline) = 0;
    // A call ended before its answer (reset by the client, or its connection closed).
    virtual void ended(GrpcSession &session, int32_t stream) = 0;
};

// One HTTP/2 connection of the gRPC port (libnghttp2's server session; the gRPC-over-HTTP/2
// wire): POST /envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit and
// /grpc.health.v1.Health/Check and /Watch, content-type application/grpc[+proto], one
// length-prefixed message a call; any other path UNIMPLEMENTED, a compressed message
// UNIMPLEMENTED (grpc-accept-encoding: identity), a message above maxMessageBytes
// RESOURCE_EXHAUSTED as soon as its length prefix arrives (the rest is never buffered). An
// answer is HEADERS, DATA and the trailers grpc-status / grpc-message; an error is
// trailers-only. Bounds: MAX_CONCURRENT_STREAMS (maxStreams); a connection with more than
// twice that unfinished (its client ignores the setting, or does not read its answers), or
// with more than maxResetsPerSecond calls reset unanswered within a second and fewer answered,
// is sent GOAWAY (ENHANCE_YOUR_CALM) and closed (counted in
// sluice_grpc_connections_closed_total{reason}); a request's headers (CONTINUATION frames
// included) above maxHeaderBytes reset the stream, or close the connection past four times
// that; what all the sessions of a server buffer of messages is bounded by *buffered.
class GrpcSession final : public ConnSession
{
public:
    struct Options
    {
        GrpcLimits limits;
        int maxMessageBytes = 4 << 20;
        qsizetype maxHeaderBytes = 16384;
        qint64 memoryBytes = qint64(32) << 20; // of *buffered, every session's messages
        Metrics *metrics = nullptr;
        std::function<void(const QString &)> log; // a closed connection (at most once a second)
        std::shared_ptr<int> open;                // the sessions open (sluice_grpc_connections)
    };
    GrpcSession(quint64 connection, const Options &options, GrpcCalls &calls,
                std::shared_ptr<qint64> buffered);
    ~GrpcSession() override;
    GrpcSession(const GrpcSession &) = delete;
    GrpcSession &operator=(const GrpcSession &) = delete;

    quint64 connection() const { return m_connection; }

    // The answer of a call still open: `message` (serialized) with status OK, else the status
    // alone (trailers-only). `more`: a streaming call (Watch) goes on after this message.
    void answer(int32_t stream, const GrpcStatus &status, std::string message, bool more = false);
    // A unary call's OK answer, `framed` its message with the 5-byte gRPC frame head already.
    void answerFramed(int32_t stream, std::string framed);

    bool receive(const char *data, size_t size) override;
    void produce(std::string &out, size_t room) override;
    bool started() const override { return m_started; }
    bool idle() const override { return m_open == 0; }
    bool finished() const override;
    void goAway() override;

    struct Stream;

private:
    friend struct GrpcSessionCallbacks;
    void close(Metrics::GrpcClosed reason, const QString &why);
    void fail(int32_t stream, const GrpcStatus &status);
    void headersDone(int32_t stream, Stream &s);
    void dataChunk(int32_t stream, Stream &s, const uint8_t *data, size_t size);
    void requestDone(int32_t stream, Stream &s);
    void streamClosed(int32_t stream, uint32_t error);
    void resetByClient(int32_t stream);
    void refused();
    void release(Stream &s);
    void send(int32_t stream, Stream &s, bool more);
    // The Stream of an open call (nghttp2's stream user data), or none.
    Stream *find(int32_t stream) const;
    Stream &open(int32_t stream); // a Stream from the free list (or a new one)
    void recycle(Stream &s);      // back to the free list

    quint64 m_connection;
    Options m_options;
    GrpcCalls &m_calls;
    std::shared_ptr<qint64> m_buffered;
    std::unique_ptr<GrpcAllocator> m_alloc; // nghttp2's blocks, reused (outlives m_session)
    nghttp2_session *m_session = nullptr;
    // The Streams of the open calls (a list through them, found by nghttp2's stream user
    // data), and a few of closed calls kept for the next ones (no allocation per call).
    Stream *m_active = nullptr;
    std::vector<std::unique_ptr<Stream>> m_free;
    int m_open = 0;              // calls open
    Stream *m_reading = nullptr; // the call whose request headers are being read
    bool m_started = false;
    bool m_over = false;          // a GOAWAY is queued: nothing more is read
    int m_refusedSinceAnswer = 0; // streams refused past MAX_CONCURRENT_STREAMS
    qint64 m_windowMs = 0;        // the second resets are counted in
    int m_resets = 0, m_answered = 0;
    qsizetype m_continuationBytes = 0; // of the header block being read
};

} // namespace sluice::serve
