#pragma once

#include "decisionpool.h"
#include "grpcsession.h"
#include "metrics.h"

#include "envoy/service/ratelimit/v3/rls.pb.h"

#include <google/protobuf/arena.h>

#include <QObject>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

// The answers of ShouldRateLimit (grpcservice.h): built in a decision worker once a request's
// last descriptor is decided, and written by the port's loop.
namespace sluice::serve {

namespace rls = ::envoy::service::ratelimit::v3;

// An answer on its way to the port's loop: `message` framed (the 5-byte gRPC head first) when
// the status is OK.
struct GrpcAnswer
{
    quint64 connection = 0;
    int32_t stream = 0;
    GrpcStatus status;
    std::string message;
};

// The answers decided in the workers, taken by the port's loop (`drain`, in the thread of
// `target`): the first into an empty queue wakes it.
struct GrpcAnswers
{
    std::mutex mutex;
    std::vector<GrpcAnswer> queue;
    bool closed = false; // the service is going: nothing more is posted
    QObject *target = nullptr;
    std::function<void()> drain;
};
void postAnswer(const std::shared_ptr<GrpcAnswers> &answers, GrpcAnswer answer);

// Where a request's answer goes: a gRPC stream (framed and posted to the loop), or `done`
// (POST /json). Called once.
struct GrpcReply
{
    using Done = std::function<void(const GrpcStatus &, const rls::RateLimitResponse *)>;
    Done done; // none: the stream below
    std::shared_ptr<GrpcAnswers> answers;
    quint64 connection = 0;
    int32_t stream = 0;

    // The status, and with OK the response.
    void operator()(const GrpcStatus &status, const rls::RateLimitResponse *response) const;
    // A stream's OK answer, already framed (encodeAnswer()).
    void framed(std::string bytes) const;
    bool toStream() const { return !done; }
};

// A message as one gRPC frame: flag 0 (not compressed), its length (4 bytes), its bytes.
std::string framedMessage(const google::protobuf::MessageLite &m);

// A protobuf arena whose first block is on the stack: messages built or parsed in it cost no
// allocation until they outgrow the block (then the arena takes blocks from the heap).
class StackArena
{
public:
    StackArena()
        : m_arena(options(m_block))
    {}
    template <typename Message> Message &make()
    {
        return *google::protobuf::Arena::CreateMessage<Message>(&m_arena);
    }

private:
    static google::protobuf::ArenaOptions options(char *block)
    {
        google::protobuf::ArenaOptions o;
        o.initial_block = block;
        o.initial_block_size = blockBytes;
        return o;
    }
    static constexpr size_t blockBytes = 4096;
    alignas(16) char m_block[blockBytes];
    google::protobuf::Arena m_arena;
};

// One request in flight: a slot per descriptor, the last outcome sends the answer.
class GrpcCall : public OutcomeSink
{
public:
    struct Slot
    {
        const ServiceRule *rule = nullptr; // none: not limited (no rule, or a disabled one)
        RuleTablePtr table;                // keeps `rule` and `verdict`'s policy alive
        Decision decision;
        Verdict verdict; // what decided: the rule's policy or an override's (verdictOf)
        DecisionSource source = DecisionSource::Redis;
        bool failed = false;
    };
    struct Options
    {
        bool headers = false;         // response_headers_to_add
        bool dynamicMetadata = false; // dynamic_metadata
    };

    GrpcCall(size_t descriptors, Options options, Metrics *metrics, GrpcReply reply)
        : m_slots(descriptors)
        , m_options(options)
        , m_metrics(metrics)
        , m_reply(std::move(reply))
    {}

    std::vector<Slot> &slots() { return m_slots; }
    const GrpcReply &reply() const { return m_reply; }
    // When its request was read (sluice_decision_duration_seconds).
    std::chrono::steady_clock::time_point received() const { return m_received; }
    // How many outcomes to wait for; 0 answers at once.
    void expect(int jobs);
    void take(DecisionOutcome &&o) override;

private:
    void finish();
    void writeMetadata(google::protobuf::Struct *out, const Slot *tightest) const;

    std::vector<Slot> m_slots;
    Options m_options;
    Metrics *m_metrics;
    GrpcReply m_reply;
    std::atomic<int> m_pending{0};
    std::chrono::steady_clock::time_point m_received = std::chrono::steady_clock::now();
};

// A RateLimitResponse of `slots` (overall_code OVER_LIMIT if `over`; each slot's status,
// current_limit, limit_remaining and duration_until_reset, as GrpcCall builds it without
// headers and metadata), framed, in the bytes protobuf's serializer writes for that message:
// the fields in number order, defaults left out. Written straight into one string.
std::string encodeAnswer(const std::vector<GrpcCall::Slot> &slots, bool over);

} // namespace sluice::serve
