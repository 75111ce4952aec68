#pragma once

#include "core/common/result.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Access-log formats for the replay (FORMATS.md "replay"): a line's fields as views of its
// bytes, parsed without a QString and without an allocation per line.
namespace sluice::replay {

enum class Format { Auto, NginxCombined, NginxCustom, Envoy, Alb, Json };
QString formatName(Format f);
// "nginx-combined", "nginx" (a --log-format string), "envoy", "alb", "json", "auto".
std::optional<Format> formatFromName(const QString &name);

// How a line gives its time.
enum class TimeKind {
    None,
    Local,  // nginx $time_local, [10/Oct/2026:13:55:36 +0000]: whole seconds
    Iso,    // ISO 8601, 2026-10-10T13:55:36.123Z or +02:00; whole seconds without a fraction
    Msec,   // nginx $msec, 1760104536.123 (seconds with a fraction)
    Number, // a JSON number: seconds since the epoch, fraction allowed
};

// The fields a line may give (slots of a Record).
enum Slot : int {
    SlotAddr,    // client address ($remote_addr), possibly with a :port (ALB)
    SlotUser,    // $remote_user
    SlotTime,    // the time, as text
    SlotRequest, // "GET /path?q HTTP/1.1"
    SlotMethod,
    SlotPath, // the request target, query included
    SlotStatus,
    SlotXff, // X-Forwarded-For
    SlotFirstHeader,
};

using View = std::string_view;

// Short byte strings (literals, times, subjects): words compared in place beat a call to
// memcmp and a byte loop.
inline bool sameBytes(const char *a, const char *b, size_t n)
{
    const auto word = [](const char *p) {
        quint64 v;
        std::memcpy(&v, p, 8);
        return v;
    };
    if (n >= 8) {
        for (; n > 8; a += 8, b += 8, n -= 8) {
            if (word(a) != word(b)) {
                return false;
            }
        }
        return word(a + n - 8) == word(b + n - 8); // the last eight, overlapping
    }
    if (n >= 4) { // the first four bytes and the last four, overlapping
        quint32 x, y, u, v;
        std::memcpy(&x, a, 4);
        std::memcpy(&y, b, 4);
        std::memcpy(&u, a + n - 4, 4);
        std::memcpy(&v, b + n - 4, 4);
        return x == y && u == v;
    }
    // 0 to 3 bytes: the first, the middle and the last cover them all.
    return n == 0 || (a[0] == b[0] && a[n >> 1] == b[n >> 1] && a[n - 1] == b[n - 1]);
}

struct Record
{
    View fields[SlotFirstHeader + 16];
    // Whole seconds (the requests of one second are spread over it by the replay) or exact.
    qint64 timeUs = 0;
    bool coarse = false;
    int status = 0;      // 0: not logged
    std::string scratch; // unescaped JSON values; reserved once, reused line after line
    // The last time text parsed and its value: the lines of one second share it, so a time is
    // parsed once per distinct text.
    char lastTime[40] = {};
    size_t lastTimeSize = 0;
    qint64 lastTimeUs = -1;
    bool lastCoarse = false;
};

// Parsed microseconds since the epoch, or -1 when `text` is not that kind of time. `coarse` is
// set when the text has whole seconds only.
qint64 parseTime(TimeKind kind, View text, bool *coarse);

// One compiled format: which fields it gives and how to find them in a line.
class LineParser
{
public:
    // A fixed format (not NginxCustom / Json / Auto).
    static Result<LineParser> fixed(Format f);
    // An nginx log_format string ("$remote_addr - $remote_user [$time_local] ...").
    static Result<LineParser> nginx(const QString &logFormat);
    // JSON lines; `fields` maps a role (time, ip, method, path, request, status, xff, user,
    // header:<Name>) to a key of the top-level object.
    static Result<LineParser> json(const QList<QPair<QString, QString>> &fields);

    Format format() const { return m_format; }
    QString name() const; // for messages: "nginx-combined", "nginx log_format", ...

    // Which slot holds the header `name` (case and '-'/'_' insensitive), -1 when the format
    // does not log it. X-Forwarded-For is SlotXff.
    int headerSlot(const QString &name) const;
    bool has(int slot) const;
    // The address comes with a port (ALB "1.2.3.4:5678").
    bool addrHasPort() const { return m_addrHasPort; }
    // The request target is an absolute URL (ALB "http://host:80/path").
    bool absoluteTarget() const { return m_absoluteTarget; }
    // The names of the logged headers, for messages ("User-Agent, X-Forwarded-For").
    QStringList loggedHeaders() const;

    // Reads only what these slots need (and the time): the fields after the last of them are
    // not looked for (as the full parse does not look at text after its last field). A field
    // not read keeps whatever it held in `r` before.
    void readOnly(const std::vector<int> &slots);

    // Fills `r` from one line (no newline). False (and `why` set to a static reason) when the
    // line is not of this format. `r` is this parser's own, line after line: the fields it
    // does not give are never set, the ones it gives are all set by a line that parses.
    bool parse(View line, Record &r, const char **why) const;

private:
    struct Item
    {
        std::string literal; // must follow the previous variable (or start the line)
        int slot = -1;       // the variable after the literal; -1 ignored, -2 none (end)
    };
    bool parseTemplate(View line, Record &r, const char **why) const;
    bool parseJson(View line, Record &r, const char **why) const;
    bool finish(Record &r, const char **why) const;
    void setLastNeeded(size_t last);

    Format m_format = Format::NginxCombined;
    std::vector<Item> m_items; // templates
    size_t m_lastNeeded = 0;   // items after this one are not read
    TimeKind m_timeKind = TimeKind::None;
    std::vector<std::string> m_headerNames; // normalized: lower case, '_' for '-'
    std::vector<QString> m_headerDisplay;
    std::vector<std::string> m_jsonKeys; // per slot: the key ("" = not mapped)
    bool m_has[SlotFirstHeader + 16] = {};
    bool m_addrHasPort = false;
    bool m_absoluteTarget = false;
};

// Which of the fixed formats (nginx-combined, envoy, alb, json with the default field map)
// the first lines are in: the one that parses most of them (at least half). Error: none does,
// naming the tried formats and quoting the first line (printable).
Result<Format> detect(const std::vector<QByteArray> &firstLines);

// The default JSON field map: time, ip, method, path, request, status, xff, user.
QList<QPair<QString, QString>> defaultJsonFields();

} // namespace sluice::replay
