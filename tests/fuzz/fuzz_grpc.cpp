// The gRPC port's wire (app/serve/grpcsession.h, grpcwire.h) as a hostile client sends it: the
// input's bytes are a client's side of one HTTP/2 connection, fed to a GrpcSession without a
// socket, in pieces the input chooses, the session's answers produced after each. The calls it
// hands on are read off the wire (WireRequest), screened (screenRequest) and parsed as the
// service does, and answered at once, later or never, as the input says. Checked on every
// input:
//  - what WireRequest reads is what protobuf parses (or it declines);
//  - what the session holds of request messages stays within its memory bound, and all of it
//    is given back when the session ends;
//  - a request the screen lets through parses to at most the descriptor and entry bounds;
//  - each entry's rule id part on bytes (envoy::appendIdPart) is the text one (ruleIdPart);
//  - the session's output stays bounded by what it is asked for plus one frame.
// The first bytes choose small limits, so the bounds are reached at short lengths; the client
// preface is prepended unless the first byte says not to.
#include "app/serve/grpcsession.h"
#include "app/serve/grpcwire.h"
#include "core/rules/envoyformat.h"

#include "envoy/service/ratelimit/v3/rls.pb.h"

#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace sluice;
using namespace sluice::serve;

namespace {

namespace rls = ::envoy::service::ratelimit::v3;

constexpr int maxDescriptors = 8;
constexpr int maxEntries = 4;

void quiet(google::protobuf::LogLevel, const char *, int, const std::string &) {}

// A request WireRequest read is the one protobuf parses: the same domain, hits_addend and
// entries, and no descriptor with a limit or a hits_addend of its own.
void sameAsParsed(const WireRequest &wire, const rls::RateLimitRequest &request)
{
    if (wire.domain() != request.domain() || wire.hits_addend() != request.hits_addend() ||
        wire.descriptors_size() != request.descriptors_size()) {
        std::abort();
    }
    for (int i = 0; i < wire.descriptors_size(); ++i) {
        const auto &d = request.descriptors(i);
        const WireRequest::Descriptor w = wire.descriptors(i);
        if (d.has_limit() || d.has_hits_addend() || w.entries_size() != d.entries_size()) {
            std::abort();
        }
        for (int j = 0; j < w.entries_size(); ++j) {
            if (w.entries(j).key() != d.entries(j).key() ||
                w.entries(j).value() != d.entries(j).value()) {
                std::abort();
            }
        }
    }
}

// What the service does with a call's message before deciding it: the usual shape read off the
// wire, else screened and parsed.
void screenAndParse(std::string_view message)
{
    static WireRequest wire;
    const bool read = wire.read(message, maxDescriptors, maxEntries);
    if (!screenRequest(message, maxDescriptors, maxEntries).isEmpty()) {
        if (read) {
            std::abort(); // read within the bounds the screen refuses
        }
        return;
    }
    rls::RateLimitRequest request;
    if (!request.ParseFromArray(message.data(), int(message.size()))) {
        if (read) {
            std::abort(); // read what protobuf refuses (bad UTF-8, bad bytes)
        }
        return;
    }
    if (read) {
        sameAsParsed(wire, request);
    }
    if (request.descriptors_size() > maxDescriptors) {
        std::abort(); // the screen let through more descriptors than its bound
    }
    for (const auto &d : request.descriptors()) {
        if (d.entries_size() > maxEntries) {
            std::abort();
        }
        for (const auto &e : d.entries()) {
            std::string bytes;
            rules::envoy::appendIdPart(bytes, e.key());
            rules::envoy::appendIdPart(bytes, e.value());
            const QString text = rules::envoy::ruleIdPart(QString::fromStdString(e.key())) +
                                 rules::envoy::ruleIdPart(QString::fromStdString(e.value()));
            if (QString::fromStdString(bytes) != text) {
                std::abort(); // the gRPC walk would not find the rule the id names
            }
        }
    }
}

class Calls final : public GrpcCalls
{
public:
    explicit Calls(uint8_t mode)
        : m_mode(mode)
    {}

    void call(GrpcSession &session, int32_t stream, Method method, std::string_view message,
              std::chrono::steady_clock::time_point) override
    {
        if (method == Method::ShouldRateLimit) {
            screenAndParse(message);
        }
        switch ((m_mode + m_calls++) % 4) {
        case 0: // answered now
            session.answer(stream, GrpcStatus{}, std::string(message.substr(0, 16)),
                           method == Method::HealthWatch);
            break;
        case 1: // refused now, with bytes a status message must encode
            session.answer(stream, GrpcStatus{GrpcCode::InvalidArgument, "bad \x01\n%\xff"}, {});
            break;
        case 2: // answered later
            m_pending.push_back(stream);
            break;
        default: // never answered (the client resets it, or the connection ends)
            break;
        }
    }

    void ended(GrpcSession &, int32_t stream) override
    {
        m_pending.erase(std::remove(m_pending.begin(), m_pending.end(), stream), m_pending.end());
    }

    // The answers decided meanwhile (half of those waiting).
    void answerSome(GrpcSession &session)
    {
        const size_t n = (m_pending.size() + 1) / 2;
        std::vector<int32_t> now(m_pending.begin(), m_pending.begin() + long(n));
        m_pending.erase(m_pending.begin(), m_pending.begin() + long(n));
        for (const int32_t stream : now) {
            std::string framed("\0\0\0\0\2\x08\x01", 7); // one OK RateLimitResponse
            session.answerFramed(stream, std::move(framed));
        }
    }

private:
    uint8_t m_mode;
    unsigned m_calls = 0;
    std::vector<int32_t> m_pending;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3) {
        return 0;
    }
    google::protobuf::SetLogHandler(&quiet);
    const uint8_t flags = data[0];
    const size_t piece = 1 + size_t(data[1]) * 4; // bytes fed at a time
    const uint8_t mode = data[2];
    GrpcSession::Options options;
    options.limits.maxStreams = 1 + (flags >> 4);
    options.limits.maxResetsPerSecond = 1 + (flags & 7);
    options.maxMessageBytes = 64 << (mode & 3);
    options.maxHeaderBytes = 256 << ((mode >> 2) & 3);
    options.memoryBytes = 128 << ((mode >> 4) & 3);
    auto buffered = std::make_shared<qint64>(0);
    {
        Calls calls(mode);
        GrpcSession session(1, options, calls, buffered);
        std::string input;
        if ((flags & 8) == 0) {
            input = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        }
        input.append(reinterpret_cast<const char *>(data + 3), size - 3);
        std::string out;
        for (size_t at = 0; at < input.size(); at += piece) {
            const bool open =
                session.receive(input.data() + at, std::min(piece, input.size() - at));
            if (*buffered < 0 || *buffered > options.memoryBytes) {
                std::abort(); // the sessions' message bytes outside their bound
            }
            calls.answerSome(session);
            const size_t room = 4096;
            out.clear();
            session.produce(out, room);
            if (out.size() > room + 65536) {
                std::abort(); // far more than asked for (a frame is at most 16 KiB here)
            }
            if (!open || session.finished()) {
                break;
            }
        }
    }
    if (*buffered != 0) {
        std::abort(); // message bytes not given back when the session ended
    }
    return 0;
}
