// The replay's log line parsers (core/replay/logformat.h) on hostile lines: the fixed formats,
// JSON lines with the default field map, and an nginx log_format taken from the input itself.
// Checked on every input:
//  - a field of a parsed line lies inside the line, or (JSON's unescaped values) inside the
//    record's scratch, never elsewhere;
//  - a parser told to read only the address and the time agrees with the full parser on them
//    (it may accept more lines: the fields after the last needed one are not looked at, but a
//    line the full parser accepts it accepts too);
//  - a parsed time is -1 or a microsecond count, and the status within 0..999;
//  - format detection answers (a format or an error) on the input's lines.
// The first byte chooses the format; the rest is the line (or, for a log_format, the format
// up to the first newline and the line after it).
#include "core/replay/logformat.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace sluice;
using namespace sluice::replay;

namespace {

bool inside(View field, View line, const std::string &scratch)
{
    if (field.empty()) {
        return true;
    }
    const auto within = [&](const char *b, size_t n) {
        return field.data() >= b && field.data() + field.size() <= b + n;
    };
    return within(line.data(), line.size()) || within(scratch.data(), scratch.capacity());
}

void check(const LineParser &full, LineParser narrow, View line)
{
    Record a;
    Record b;
    const char *why = nullptr;
    const bool okFull = full.parse(line, a, &why);
    narrow.readOnly({SlotAddr, SlotTime});
    const bool okNarrow = narrow.parse(line, b, &why);
    if (okFull) {
        for (const View &f : a.fields) {
            if (!inside(f, line, a.scratch)) {
                std::abort();
            }
        }
        if (a.timeUs < -1 || a.status < 0 || a.status > 999) {
            std::abort();
        }
        if (!okNarrow) {
            // The narrow parser looks at less, so it refuses no line the full one takes.
            std::fprintf(stderr, "narrow parser refused: %s\n", why);
            std::abort();
        }
        if (full.has(SlotAddr) && a.fields[SlotAddr] != b.fields[SlotAddr]) {
            std::abort();
        }
        if (a.timeUs != b.timeUs || a.coarse != b.coarse) {
            std::abort();
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 16384) {
        return 0;
    }
    const char *text = reinterpret_cast<const char *>(data) + 1;
    const View input(text, size - 1);
    switch (data[0] % 5) {
    case 0:
    case 1:
    case 2: {
        const Format f = data[0] % 5 == 0   ? Format::NginxCombined
                         : data[0] % 5 == 1 ? Format::Envoy
                                            : Format::Alb;
        const Result<LineParser> p = LineParser::fixed(f);
        if (!p) {
            std::abort();
        }
        check(*p, *p, input);
        break;
    }
    case 3: {
        const Result<LineParser> p = LineParser::json(defaultJsonFields());
        if (!p) {
            std::abort();
        }
        check(*p, *p, input);
        break;
    }
    case 4: {
        const size_t nl = input.find('\n');
        if (nl == View::npos) {
            return 0;
        }
        const QString format = QString::fromUtf8(input.data(), qsizetype(nl));
        if (const Result<LineParser> p = LineParser::nginx(format)) {
            check(*p, *p, input.substr(nl + 1));
        }
        break;
    }
    }
    // Detection on the input's lines: an answer, never a crash.
    std::vector<QByteArray> lines;
    for (const QByteArray &l : QByteArray(input.data(), qsizetype(input.size())).split('\n')) {
        lines.push_back(l);
        if (lines.size() == 8) {
            break;
        }
    }
    (void)detect(lines);
    return 0;
}
