// sluice-grpc-load: ShouldRateLimit calls against a rate limit service (sluice-cli serve
// --grpc, or any implementation of Envoy's API) for a while, with a fixed number in flight,
// over several HTTP/2 connections; prints one line of figures:
//
//   requests N rate_per_s R p50_ms A p99_ms B ok O over_limit L errors E
//
//   sluice-grpc-load --target HOST:PORT [--seconds S] [--concurrency N] [--channels C]
//                    [--subjects M] [--domain D] [--key K]
//
// Each call carries one descriptor (K, s<i>), the subjects in the order sluice-cli bench uses
// (i * 7919 mod M). One thread drives the completion queue: the client costs little CPU per
// call, which matters on a machine that also runs the service and Redis.

#include "envoy/service/ratelimit/v3/rls.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace rls = envoy::service::ratelimit::v3;
using Clock = std::chrono::steady_clock;

namespace {

struct Call
{
    grpc::ClientContext context;
    rls::RateLimitResponse response;
    grpc::Status status;
    std::unique_ptr<grpc::ClientAsyncResponseReader<rls::RateLimitResponse>> reader;
    Clock::time_point started;
};

int usage(const char *why)
{
    std::fprintf(stderr,
                 "sluice-grpc-load: %s\nusage: sluice-grpc-load --target HOST:PORT [--seconds S] "
                 "[--concurrency N] [--channels C] [--subjects M] [--domain D] [--key K]\n",
                 why);
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    std::string target, domain = "bench", key = "remote_address";
    int seconds = 5, concurrency = 64, channels = 4;
    long subjects = 10000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            return usage(("missing the value of " + a).c_str());
        }
        const char *v = argv[++i];
        if (a == "--target") {
            target = v;
        } else if (a == "--seconds") {
            seconds = std::atoi(v);
        } else if (a == "--concurrency") {
            concurrency = std::atoi(v);
        } else if (a == "--channels") {
            channels = std::atoi(v);
        } else if (a == "--subjects") {
            subjects = std::atol(v);
        } else if (a == "--domain") {
            domain = v;
        } else if (a == "--key") {
            key = v;
        } else {
            return usage(("unknown flag " + a).c_str());
        }
    }
    if (target.empty() || seconds < 1 || concurrency < 1 || channels < 1 || subjects < 1) {
        return usage("--target is required; the numbers must be at least 1");
    }
    // A channel argument of its own per channel: each gets its own connection.
    std::vector<std::unique_ptr<rls::RateLimitService::Stub>> stubs;
    for (int c = 0; c < channels; ++c) {
        grpc::ChannelArguments args;
        args.SetInt("sluice.load.channel", c);
        stubs.push_back(rls::RateLimitService::NewStub(
            grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args)));
    }
    grpc::CompletionQueue cq;
    long next = 0;
    auto start = [&](Call *call) {
        rls::RateLimitRequest request;
        request.set_domain(domain);
        auto *e = request.add_descriptors()->add_entries();
        e->set_key(key);
        e->set_value("s" + std::to_string((next * 7919) % subjects));
        call->context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
        call->started = Clock::now();
        call->reader =
            stubs[size_t(next % channels)]->AsyncShouldRateLimit(&call->context, request, &cq);
        call->reader->Finish(&call->response, &call->status, call);
        ++next;
    };
    const Clock::time_point begin = Clock::now();
    const Clock::time_point end = begin + std::chrono::seconds(seconds);
    for (int i = 0; i < concurrency; ++i) {
        start(new Call);
    }
    std::vector<std::uint32_t> latencyUs;
    latencyUs.reserve(size_t(200000) * size_t(seconds));
    long ok = 0, over = 0, errors = 0, inFlight = concurrency;
    void *tag = nullptr;
    bool fine = false;
    while (inFlight > 0 && cq.Next(&tag, &fine)) {
        auto *call = static_cast<Call *>(tag);
        const Clock::time_point now = Clock::now();
        latencyUs.push_back(std::uint32_t(
            std::chrono::duration_cast<std::chrono::microseconds>(now - call->started).count()));
        if (!fine || !call->status.ok()) {
            ++errors;
            if (errors == 1) {
                std::fprintf(stderr, "sluice-grpc-load: %s\n",
                             call->status.error_message().c_str());
            }
        } else if (call->response.overall_code() == rls::RateLimitResponse::OVER_LIMIT) {
            ++over;
        } else {
            ++ok;
        }
        delete call;
        if (now < end) {
            start(new Call);
        } else {
            --inFlight;
        }
    }
    const double wall = std::chrono::duration<double>(Clock::now() - begin).count();
    std::sort(latencyUs.begin(), latencyUs.end());
    auto pct = [&](double p) {
        return latencyUs.empty() ? 0.0
                                 : latencyUs[std::min(latencyUs.size() - 1,
                                                      size_t(p * double(latencyUs.size())))] /
                                       1000.0;
    };
    const long requests = long(latencyUs.size());
    std::printf("requests %ld rate_per_s %.0f p50_ms %.2f p99_ms %.2f ok %ld over_limit %ld "
                "errors %ld\n",
                requests, double(requests) / wall, pct(0.50), pct(0.99), ok, over, errors);
    return errors > 0 ? 1 : 0;
}
