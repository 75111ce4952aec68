// Rule files in JSON: any bytes give a Loaded, never a crash; errors stay bounded; what parses
// writes back and parses again to the same rules.
#include "rulesroundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return sluice::fuzz::rulesRoundTrip(data, size, &sluice::rules::parseJson,
                                        &sluice::rules::toJson);
}
