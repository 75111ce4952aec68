// Scenario files, JSON and YAML (first byte), without a folder: no replay file is ever read.
#include "core/rules/codec.h"
#include "core/sim/scenario.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    const QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const QString folder = QStringLiteral("/nonexistent-sluice-fuzz");
    const sluice::sim::scenario::Loaded l =
        data[0] & 1 ? sluice::sim::scenario::parseYaml(bytes, QStringLiteral("s.yaml"), folder)
                    : sluice::sim::scenario::parseJson(bytes, QStringLiteral("s.json"), folder);
    if (l.errors.size() > sluice::rules::maxErrors + 1) {
        std::abort();
    }
    return 0;
}
