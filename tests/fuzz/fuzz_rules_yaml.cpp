// Rule files in YAML: any bytes give a Loaded, never a crash; errors stay bounded.
#include "core/rules/codec.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const sluice::rules::Loaded l = sluice::rules::parseYaml(bytes, QStringLiteral("f.yaml"));
    if (l.errors.size() > sluice::rules::maxErrors + 1) {
        std::abort();
    }
    if (l.ok()) {
        // What parses writes back and parses again to the same rules.
        const sluice::rules::Loaded again =
            sluice::rules::parseYaml(sluice::rules::toYaml(l.set), QStringLiteral("g.yaml"));
        if (!again.ok() || again.set.rules.size() != l.set.rules.size()) {
            std::abort();
        }
    }
    return 0;
}
