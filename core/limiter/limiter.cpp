#include "limiter.h"

namespace sluice {

Result<std::vector<Result<Decision>>> Limiter::decideBatch(std::span<const Request> requests)
{
    std::vector<Result<Decision>> out;
    out.reserve(requests.size());
    for (const Request &r : requests) {
        out.push_back(decide(r));
    }
    return out;
}

} // namespace sluice
