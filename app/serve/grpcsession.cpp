#include "grpcsession.h"

#include "grpcalloc.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace sluice::serve {

namespace {

constexpr size_t maxStatusMessage = 1024; // grpc-message, encoded

qint64 nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// grpc-message: percent-encoded (the spec: every byte outside 0x20-0x7E, and '%'), bounded.
std::string percentEncoded(const std::string &message)
{
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : message) {
        const auto c = static_cast<unsigned char>(ch);
        if (out.size() + 3 > maxStatusMessage) {
            break;
        }
        if (c < 0x20 || c > 0x7e || c == '%') {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 0xf];
        } else {
            out += char(c);
        }
    }
    return out;
}

// grpc-timeout: 1 to 8 digits and a unit (H M S m u n), at most a day; none or not that:
// time_point::max().
std::chrono::steady_clock::time_point deadlineOf(std::string_view v)
{
    using namespace std::chrono;
    static const std::pair<char, double> nsPer[] = {{'H', 3600e9}, {'M', 60e9}, {'S', 1e9},
                                                    {'m', 1e6},    {'u', 1e3},  {'n', 1}};
    if (v.size() < 2 || v.size() > 9) {
        return steady_clock::time_point::max();
    }
    double n = 0;
    for (const char c : v.substr(0, v.size() - 1)) {
        if (c < '0' || c > '9') {
            return steady_clock::time_point::max();
        }
        n = n * 10 + (c - '0');
    }
    for (const auto &[unit, ns] : nsPer) {
        if (v.back() == unit) {
            const auto d = nanoseconds(qint64(std::min(n * ns, 86400e9)));
            return steady_clock::now() + duration_cast<steady_clock::duration>(d);
        }
    }
    return steady_clock::time_point::max();
}

nghttp2_nv nv(std::string_view name, std::string_view value)
{
    return nghttp2_nv{reinterpret_cast<uint8_t *>(const_cast<char *>(name.data())),
                      reinterpret_cast<uint8_t *>(const_cast<char *>(value.data())), name.size(),
                      value.size(), NGHTTP2_NV_FLAG_NONE};
}

} // namespace

struct GrpcSession::Stream
{
    GrpcCalls::Method method = GrpcCalls::Method::ShouldRateLimit;
    bool knownPath = false;
    bool post = false;
    bool grpcContent = false;
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    qsizetype headerBytes = 0;
    std::string body; // the framed request message as it arrives
    qint64 reserved = 0;
    bool remoteDone = false; // the client's END_STREAM came
    bool called = false;     // handed on
    bool headersSent = false;
    bool done = false;   // the final trailers are submitted
    bool ending = false; // after `out`, the trailers (grpc-status 0)
    // Answered before the request ended: once the answer's last frame is sent, RST_STREAM
    // (NO_ERROR) tells the client to stop sending (sent earlier, it would cancel the answer).
    bool resetAfterAnswer = false;
    std::string out; // DATA still to send
    size_t outPos = 0;
    int32_t id = 0;
    Stream *prev = nullptr, *next = nullptr; // GrpcSession::m_active
};

namespace {
constexpr size_t keptStreams = 16;   // closed calls' Streams kept for reuse, per connection
constexpr size_t keptCapacity = 512; // of their strings' buffers (larger ones are let go)
} // namespace

GrpcSession::Stream *GrpcSession::find(int32_t stream) const
{
    return static_cast<Stream *>(nghttp2_session_get_stream_user_data(m_session, stream));
}

GrpcSession::Stream &GrpcSession::open(int32_t stream)
{
    std::unique_ptr<Stream> s;
    if (!m_free.empty()) {
        s = std::move(m_free.back());
        m_free.pop_back();
    } else {
        s = std::make_unique<Stream>();
    }
    Stream *p = s.release();
    p->id = stream;
    p->next = m_active;
    if (m_active != nullptr) {
        m_active->prev = p;
    }
    m_active = p;
    ++m_open;
    nghttp2_session_set_stream_user_data(m_session, stream, p);
    return *p;
}

void GrpcSession::recycle(Stream &s)
{
    (s.prev != nullptr ? s.prev->next : m_active) = s.next;
    if (s.next != nullptr) {
        s.next->prev = s.prev;
    }
    --m_open;
    if (m_reading == &s) {
        m_reading = nullptr;
    }
    nghttp2_session_set_stream_user_data(m_session, s.id, nullptr);
    std::string body = std::move(s.body), out = std::move(s.out);
    s = Stream{};
    if (m_free.size() >= keptStreams || body.capacity() > keptCapacity ||
        out.capacity() > keptCapacity) {
        delete &s;
        return;
    }
    body.clear();
    out.clear();
    s.body = std::move(body);
    s.out = std::move(out);
    m_free.emplace_back(&s);
}

// libnghttp2's callbacks, into the session (user_data).
struct GrpcSessionCallbacks
{
    static GrpcSession &self(void *p) { return *static_cast<GrpcSession *>(p); }

    static GrpcSession::Stream *find(GrpcSession &s, int32_t id) { return s.find(id); }

    static int beginFrame(nghttp2_session *, const nghttp2_frame_hd *hd, void *p)
    {
        GrpcSession &s = self(p);
        if (hd->type == NGHTTP2_HEADERS) {
            s.m_continuationBytes = qsizetype(hd->length);
        } else if (hd->type == NGHTTP2_CONTINUATION) {
            s.m_continuationBytes += qsizetype(hd->length);
            if (s.m_continuationBytes > 4 * s.m_options.maxHeaderBytes) {
                // A header block that does not end (the CONTINUATION flood): no more is read.
                nghttp2_session_terminate_session(s.m_session, NGHTTP2_ENHANCE_YOUR_CALM);
                s.m_over = true;
                return NGHTTP2_ERR_CALLBACK_FAILURE;
            }
        }
        return 0;
    }

    static int beginHeaders(nghttp2_session *, const nghttp2_frame *frame, void *p)
    {
        GrpcSession &s = self(p);
        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) {
            return 0;
        }
        s.m_reading = &s.open(frame->hd.stream_id);
        const int unfinished = s.m_open + s.m_refusedSinceAnswer;
        if (unfinished > 2 * s.m_options.limits.maxStreams) {
            s.close(Metrics::GrpcClosed::Streams,
                    QStringLiteral("%1 calls unfinished, above twice --grpc-max-streams (its "
                                   "client does not read its answers, or ignores "
                                   "MAX_CONCURRENT_STREAMS)")
                        .arg(unfinished));
        }
        return 0;
    }

    static int header(nghttp2_session *, const nghttp2_frame *frame, const uint8_t *name,
                      size_t namelen, const uint8_t *value, size_t valuelen, uint8_t, void *p)
    {
        GrpcSession &s = self(p);
        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) {
            return 0; // the client's trailers: not read
        }
        GrpcSession::Stream *st = s.m_reading != nullptr && s.m_reading->id == frame->hd.stream_id
                                      ? s.m_reading
                                      : find(s, frame->hd.stream_id);
        if (st == nullptr) {
            return 0;
        }
        st->headerBytes += qsizetype(namelen + valuelen + 32);
        if (st->headerBytes > s.m_options.maxHeaderBytes) {
            nghttp2_submit_rst_stream(s.m_session, NGHTTP2_FLAG_NONE, frame->hd.stream_id,
                                      NGHTTP2_ENHANCE_YOUR_CALM);
            return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
        }
        const std::string_view n(reinterpret_cast<const char *>(name), namelen);
        const std::string_view v(reinterpret_cast<const char *>(value), valuelen);
        if (n == ":method") {
            st->post = v == "POST";
        } else if (n == ":path") {
            st->knownPath = true;
            if (v == "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit") {
                st->method = GrpcCalls::Method::ShouldRateLimit;
            } else if (v == "/grpc.health.v1.Health/Check") {
                st->method = GrpcCalls::Method::HealthCheck;
            } else if (v == "/grpc.health.v1.Health/Watch") {
                st->method = GrpcCalls::Method::HealthWatch;
            } else {
                st->knownPath = false;
            }
        } else if (n == "content-type") {
            st->grpcContent = v == "application/grpc" || v.substr(0, 17) == "application/grpc+" ||
                              v.substr(0, 17) == "application/grpc;";
        } else if (n == "grpc-timeout") {
            st->deadline = deadlineOf(v);
        }
        return 0;
    }

    static int frameRecv(nghttp2_session *, const nghttp2_frame *frame, void *p)
    {
        GrpcSession &s = self(p);
        s.m_started = true;
        const int32_t id = frame->hd.stream_id;
        GrpcSession::Stream *st = find(s, id);
        switch (frame->hd.type) {
        case NGHTTP2_HEADERS:
            if (st != nullptr && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
                s.headersDone(id, *st);
            }
            break;
        case NGHTTP2_RST_STREAM:
            s.resetByClient(id);
            return 0;
        case NGHTTP2_DATA:
            break;
        default:
            return 0;
        }
        if (st != nullptr && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0 &&
            (st = find(s, id)) != nullptr) {
            s.requestDone(id, *st);
        }
        return 0;
    }

    static int dataChunk(nghttp2_session *, uint8_t, int32_t id, const uint8_t *data, size_t len,
                         void *p)
    {
        GrpcSession &s = self(p);
        if (GrpcSession::Stream *st = find(s, id)) {
            s.dataChunk(id, *st, data, len);
        }
        return 0;
    }

    static int streamClose(nghttp2_session *, int32_t id, uint32_t error, void *p)
    {
        self(p).streamClosed(id, error);
        return 0;
    }

    static int frameSent(nghttp2_session *session, const nghttp2_frame *frame, void *p)
    {
        if (frame->hd.type != NGHTTP2_HEADERS || (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) == 0) {
            return 0;
        }
        GrpcSession::Stream *st = find(self(p), frame->hd.stream_id);
        if (st != nullptr && st->resetAfterAnswer && !st->remoteDone) {
            nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, frame->hd.stream_id,
                                      NGHTTP2_NO_ERROR);
        }
        return 0;
    }

    static int invalidFrame(nghttp2_session *, const nghttp2_frame *frame, int error, void *p)
    {
        if (frame->hd.type == NGHTTP2_HEADERS && error == NGHTTP2_ERR_REFUSED_STREAM) {
            self(p).refused();
        }
        return 0;
    }

    static ssize_t read(nghttp2_session *session, int32_t id, uint8_t *buf, size_t length,
                        uint32_t *flags, nghttp2_data_source *source, void *)
    {
        auto *st = static_cast<GrpcSession::Stream *>(source->ptr);
        const size_t n = std::min(length, st->out.size() - st->outPos);
        std::memcpy(buf, st->out.data() + st->outPos, n);
        st->outPos += n;
        if (st->outPos == st->out.size()) {
            st->out.clear();
            st->outPos = 0;
            if (st->ending) {
                *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
                const nghttp2_nv trailers[] = {nv("grpc-status", "0")};
                nghttp2_submit_trailer(session, id, trailers, 1);
                st->done = true;
            } else if (n == 0) {
                return NGHTTP2_ERR_DEFERRED; // a streaming call: its next message
            }
        }
        return ssize_t(n);
    }
};

GrpcSession::GrpcSession(quint64 connection, const Options &options, GrpcCalls &calls,
                         std::shared_ptr<qint64> buffered)
    : m_connection(connection)
    , m_options(options)
    , m_calls(calls)
    , m_buffered(std::move(buffered))
    , m_alloc(std::make_unique<GrpcAllocator>())
{
    nghttp2_session_callbacks *cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    using C = GrpcSessionCallbacks;
    nghttp2_session_callbacks_set_on_begin_frame_callback(cb, &C::beginFrame);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, &C::beginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(cb, &C::header);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &C::frameRecv);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &C::dataChunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &C::streamClose);
    nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(cb, &C::invalidFrame);
    nghttp2_session_callbacks_set_on_frame_send_callback(cb, &C::frameSent);
    // Unary calls need no stream priorities: no RFC 7540 dependency tree, and no closed
    // streams kept for it (both cost per call).
    nghttp2_option *option = nullptr;
    nghttp2_option_new(&option);
    nghttp2_option_set_no_closed_streams(option, 1);
    nghttp2_session_server_new3(&m_session, cb, this, option, m_alloc->mem());
    nghttp2_option_del(option);
    nghttp2_session_callbacks_del(cb);
    const nghttp2_settings_entry settings[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, uint32_t(m_options.limits.maxStreams)},
        {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, uint32_t(m_options.maxHeaderBytes)},
        {NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES, 1},
    };
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, 3);
    if (m_options.open && m_options.metrics != nullptr) {
        m_options.metrics->setGrpcConnections(++*m_options.open);
    }
}

GrpcSession::~GrpcSession()
{
    while (Stream *s = m_active) {
        m_active = s->next;
        if (s->called && !s->done) {
            m_calls.ended(*this, s->id);
        }
        release(*s);
        delete s;
    }
    nghttp2_session_del(m_session);
    if (m_options.open && m_options.metrics != nullptr) {
        m_options.metrics->setGrpcConnections(--*m_options.open);
    }
}

bool GrpcSession::receive(const char *data, size_t size)
{
    if (m_over) {
        return false;
    }
    const ssize_t r =
        nghttp2_session_mem_recv(m_session, reinterpret_cast<const uint8_t *>(data), size);
    if (r < 0) {
        m_over = true; // not HTTP/2, or a protocol error (nghttp2 queued its GOAWAY)
    }
    return !m_over;
}

void GrpcSession::produce(std::string &out, size_t room)
{
    while (room > 0) {
        const uint8_t *chunk = nullptr;
        const ssize_t n = nghttp2_session_mem_send(m_session, &chunk);
        if (n <= 0) {
            break;
        }
        out.append(reinterpret_cast<const char *>(chunk), size_t(n));
        room -= std::min(room, size_t(n));
    }
}

bool GrpcSession::finished() const
{
    return m_over || (nghttp2_session_want_read(m_session) == 0 &&
                      nghttp2_session_want_write(m_session) == 0);
}

void GrpcSession::goAway()
{
    if (!m_over) {
        m_over = true;
        nghttp2_session_terminate_session(m_session, NGHTTP2_NO_ERROR);
    }
}

void GrpcSession::close(Metrics::GrpcClosed reason, const QString &why)
{
    if (m_over) {
        return;
    }
    m_over = true;
    nghttp2_session_terminate_session(m_session, NGHTTP2_ENHANCE_YOUR_CALM);
    if (m_options.metrics != nullptr) {
        m_options.metrics->countGrpcClosed(reason);
    }
    // One line a second at most: a client reconnecting to be closed again must not fill the
    // log (the metric counts them all).
    static std::atomic<qint64> lastLogMs{0};
    const qint64 now = nowMs();
    qint64 last = lastLogMs.load();
    if (m_options.log && now - last >= 1000 && lastLogMs.compare_exchange_strong(last, now)) {
        m_options.log(QStringLiteral("gRPC: closed a connection: %1").arg(why));
    }
}

void GrpcSession::headersDone(int32_t stream, Stream &s)
{
    if (!s.post || !s.grpcContent) {
        // Not a gRPC call (a browser, curl): HTTP's own answer, no gRPC status.
        const nghttp2_nv h[] = {nv(":status", s.post ? "415" : "405")};
        nghttp2_submit_response(m_session, stream, h, 1, nullptr);
        s.done = true;
        s.resetAfterAnswer = !s.remoteDone;
        return;
    }
    if (!s.knownPath) {
        fail(stream, {GrpcCode::Unimplemented,
                      "no such method: this service has "
                      "envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit and "
                      "grpc.health.v1.Health/Check and /Watch"});
    }
}

void GrpcSession::fail(int32_t stream, const GrpcStatus &status)
{
    Stream *found = find(stream);
    if (found == nullptr || found->done) {
        return;
    }
    Stream &s = *found;
    s.done = true;
    const std::string code = std::to_string(int(status.code));
    const std::string message = percentEncoded(status.message);
    if (s.headersSent || !s.remoteDone) {
        // Headers, then the status in trailers: a client still sending (its RST_STREAM follows)
        // reads the status only from trailers after headers (grpc-core reports a reset after
        // a trailers-only answer as INTERNAL).
        if (!s.headersSent) {
            const nghttp2_nv h[] = {nv(":status", "200"), nv("content-type", "application/grpc"),
                                    nv("grpc-accept-encoding", "identity")};
            nghttp2_submit_headers(m_session, NGHTTP2_FLAG_NONE, stream, nullptr, h, 3, nullptr);
            s.headersSent = true;
        }
        const nghttp2_nv t[] = {nv("grpc-status", code), nv("grpc-message", message)};
        s.ending = false;
        nghttp2_submit_trailer(m_session, stream, t, 2);
    } else {
        // Trailers-only.
        const nghttp2_nv h[] = {nv(":status", "200"), nv("content-type", "application/grpc"),
                                nv("grpc-status", code), nv("grpc-message", message),
                                nv("grpc-accept-encoding", "identity")};
        nghttp2_submit_response(m_session, stream, h,
                                status.code == GrpcCode::Unimplemented ? 5 : 4, nullptr);
        s.headersSent = true;
    }
    s.resetAfterAnswer = !s.remoteDone; // the rest of the request is not wanted
    release(s);
}

void GrpcSession::dataChunk(int32_t stream, Stream &s, const uint8_t *data, size_t size)
{
    if (s.done || s.called) {
        return; // answered already: dropped
    }
    const auto *bytes = reinterpret_cast<const char *>(data);
    const size_t head = std::min(size, s.body.size() < 5 ? 5 - s.body.size() : 0);
    s.body.append(bytes, head);
    bytes += head;
    size -= head;
    if (s.body.size() < 5) {
        return;
    }
    if (s.reserved == 0) {
        const auto *b = reinterpret_cast<const unsigned char *>(s.body.data());
        const qint64 length = qint64(b[1]) << 24 | qint64(b[2]) << 16 | qint64(b[3]) << 8 | b[4];
        if ((b[0] & 1) != 0) {
            fail(stream, {GrpcCode::Unimplemented, "the message is compressed; this service "
                                                   "takes identity (uncompressed) messages"});
            return;
        }
        if (length > m_options.maxMessageBytes) {
            fail(stream,
                 {GrpcCode::ResourceExhausted, "the request message is " + std::to_string(length) +
                                                   " bytes, above the service's limit of " +
                                                   std::to_string(m_options.maxMessageBytes)});
            return;
        }
        if (*m_buffered + length > m_options.memoryBytes) {
            fail(stream, {GrpcCode::ResourceExhausted,
                          "the service is reading too many large requests at once; retry"});
            return;
        }
        s.reserved = std::max<qint64>(length, 1);
        *m_buffered += s.reserved;
        s.body.reserve(size_t(5 + length));
    }
    if (qint64(s.body.size() + size) - 5 > s.reserved) {
        fail(stream, {GrpcCode::InvalidArgument, "more than one request message in a unary call"});
        return;
    }
    s.body.append(bytes, size);
}

void GrpcSession::requestDone(int32_t stream, Stream &s)
{
    s.remoteDone = true;
    if (s.done || s.called) {
        return;
    }
    const auto *b = reinterpret_cast<const unsigned char *>(s.body.data());
    const size_t length =
        s.body.size() < 5 ? 0 : size_t(b[1]) << 24 | size_t(b[2]) << 16 | size_t(b[3]) << 8 | b[4];
    if (s.body.size() < 5 || s.body.size() != 5 + length) {
        fail(stream,
             {GrpcCode::InvalidArgument, "the call ended without its whole request message"});
        return;
    }
    s.called = true;
    // The message is parsed within the call: its bytes are let go after it.
    m_calls.call(*this, stream, s.method, std::string_view(s.body).substr(5), s.deadline);
    if (Stream *st = find(stream)) {
        release(*st);
    }
}

void GrpcSession::answer(int32_t stream, const GrpcStatus &status, std::string message, bool more)
{
    Stream *s = find(stream);
    if (s == nullptr || s->done) {
        return; // reset, or the connection closed
    }
    if (!status.ok()) {
        fail(stream, status);
        return;
    }
    const auto n = quint32(message.size());
    s->out += char(0);
    s->out += char(n >> 24);
    s->out += char(n >> 16);
    s->out += char(n >> 8);
    s->out += char(n);
    s->out += message;
    send(stream, *s, more);
}

void GrpcSession::answerFramed(int32_t stream, std::string framed)
{
    Stream *s = find(stream);
    if (s == nullptr || s->done) {
        return; // reset, or the connection closed
    }
    if (s->out.empty()) {
        s->out.swap(framed);
        s->outPos = 0;
    } else {
        s->out += framed;
    }
    send(stream, *s, false);
}

void GrpcSession::send(int32_t stream, Stream &s, bool more)
{
    s.ending = !more;
    if (s.headersSent) {
        nghttp2_session_resume_data(m_session, stream);
        return;
    }
    s.headersSent = true;
    const nghttp2_nv h[] = {nv(":status", "200"), nv("content-type", "application/grpc")};
    nghttp2_data_provider provider{};
    provider.source.ptr = &s;
    provider.read_callback = &GrpcSessionCallbacks::read;
    nghttp2_submit_response(m_session, stream, h, 2, &provider);
}

void GrpcSession::streamClosed(int32_t stream, uint32_t error)
{
    Stream *found = find(stream);
    if (found == nullptr) {
        return;
    }
    Stream &s = *found;
    if (s.called && !s.done) {
        m_calls.ended(*this, stream);
    }
    if (error == NGHTTP2_NO_ERROR && s.done) {
        ++m_answered;
        m_refusedSinceAnswer = 0;
    }
    release(s);
    recycle(s);
}

void GrpcSession::resetByClient(int32_t stream)
{
    if (Stream *s = find(stream); s == nullptr || s->done) {
        return;
    }
    const qint64 now = nowMs();
    if (now - m_windowMs >= 1000) {
        m_windowMs = now;
        m_resets = 0;
        m_answered = 0;
    }
    if (++m_resets > m_options.limits.maxResetsPerSecond && m_resets > m_answered) {
        close(Metrics::GrpcClosed::Resets,
              QStringLiteral("%1 calls reset unanswered within a second, above "
                             "--grpc-max-resets-per-second")
                  .arg(m_resets));
    }
}

void GrpcSession::refused()
{
    ++m_refusedSinceAnswer;
    const int unfinished = m_open + m_refusedSinceAnswer;
    if (unfinished > 2 * m_options.limits.maxStreams) {
        close(Metrics::GrpcClosed::Streams,
              QStringLiteral("%1 calls unfinished, above twice --grpc-max-streams (its client "
                             "does not read its answers, or ignores MAX_CONCURRENT_STREAMS)")
                  .arg(unfinished));
    }
}

void GrpcSession::release(Stream &s)
{
    *m_buffered -= s.reserved;
    s.reserved = 0;
    if (s.body.capacity() > keptCapacity) {
        std::string().swap(s.body);
    } else {
        s.body.clear();
    }
}

} // namespace sluice::serve
