// Key parsing: KeyMap::match (the subject of a key) over rules with overlapping prefixes.
#include "core/rules/codec.h"
#include "core/rules/keymap.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace sluice;

namespace {

const RuleSet &ruleSet()
{
    static const rules::Loaded l = rules::parseJson(
        "{\"version\": 1, \"rules\": ["
        "{\"id\": \"a\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\", \"limit\": 3, "
        "\"window\": \"5s\"},"
        "{\"id\": \"b\", \"scope\": \"ip\", \"algorithm\": \"gcra\", \"rate\": \"1/s\", "
        "\"burst\": 2, \"key_prefix\": \"rate_limit:a:\"},"
        "{\"id\": \"c.d\", \"scope\": \"global\", \"algorithm\": \"token_bucket\", "
        "\"rate\": \"5/10s\", \"burst\": 5, \"key_prefix\": \"x\"}]}",
        QStringLiteral("k.json"));
    if (!l.ok()) {
        std::abort();
    }
    return l.set;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const rules::KeyMap map(ruleSet());
    const QByteArray key(reinterpret_cast<const char *>(data), qsizetype(size));
    if (const auto m = map.match(key)) {
        // The key is <prefix><id>:{<subject>}: it ends with the subject and "}".
        if (!m->rule || !key.endsWith(m->subject + '}')) {
            std::abort();
        }
    }
    return 0;
}
