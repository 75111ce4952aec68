#include "clock.h"

#include <chrono>

namespace sluice {

qint64 SystemClock::nowUs() const
{
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace sluice
