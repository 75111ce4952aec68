// Access-log line parsers. Every format but JSON is a template: literals and variables, the
// value of a variable running up to the next literal (nginx escapes '"' inside quoted values
// as \x22, so a quoted value never holds its own terminator). A line is read only up to the
// last field the replay needs. Nothing here allocates per line.
#include "logformat.h"

#include "core/common/bytes.h"
#include "core/common/names.h"

#include <QRegularExpression>

#include <cstring>
#include <utility>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {

// The variables of the fixed formats, in the nginx spelling of --log-format ($_ = ignored).
const char *const combinedTemplate = "$remote_addr - $remote_user [$time_local] \"$request\" "
                                     "$status $body_bytes_sent \"$http_referer\" "
                                     "\"$http_user_agent\"";
// Envoy's default access log format:
// [%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%"
// %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION%
// %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%"
// "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"
const char *const envoyTemplate =
    "[$time_iso8601] \"$request_method $request_uri $_\" $status $_ $_ $_ $_ $_ "
    "\"$http_x_forwarded_for\" \"$http_user_agent\" \"$http_x_request_id\" \"$http_host\" "
    "\"$_\"";
// AWS ALB: type time elb client:port target:port request_processing_time
// target_processing_time response_processing_time elb_status_code target_status_code
// received_bytes sent_bytes "request" "user_agent" ... (the rest is not read).
const char *const albTemplate =
    "$_ $time_iso8601 $_ $remote_addr $_ $_ $_ $_ $status $_ $_ $_ \"$request\" "
    "\"$http_user_agent\"";

std::string normalizedHeader(const QString &name)
{
    std::string s = name.toLatin1().toLower().toStdString();
    for (char &c : s) {
        if (c == '-') {
            c = '_';
        }
    }
    return s;
}

QString displayHeader(const std::string &normalized)
{
    QString out;
    bool up = true;
    for (char c : normalized) {
        if (c == '_') {
            out += u'-';
            up = true;
        } else {
            out += up ? QChar(QLatin1Char(c)).toUpper() : QChar(QLatin1Char(c));
            up = false;
        }
    }
    return out;
}

inline bool same(const char *a, const char *b, size_t n)
{
    return sameBytes(a, b, n);
}

inline int digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : -1;
}

// Exactly n digits at p.
inline bool digits(const char *p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; ++i) {
        const int d = digit(p[i]);
        if (d < 0) {
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
qint64 daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return qint64(era) * 146097 + doe - 719468;
}

constexpr qint64 usPerSec = 1'000'000;
// 9999-12-31: nothing later is a time (a log spanning years is fine, a year 40000 is not).
constexpr qint64 maxSeconds = 253402300799;

qint64 compose(int y, int mo, int d, int h, int mi, int s, qint64 fracUs, int offsetMin)
{
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
        return -1;
    }
    const qint64 secs =
        daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - qint64(offsetMin) * 60;
    if (secs < 0 || secs > maxSeconds) {
        return -1;
    }
    return secs * usPerSec + fracUs;
}

// ".123456" -> microseconds (more digits are cut, fewer padded); p advanced.
qint64 fraction(const char *&p, const char *end)
{
    qint64 us = 0;
    int n = 0;
    while (p < end && digit(*p) >= 0) {
        if (n < 6) {
            us = us * 10 + digit(*p);
        }
        ++n;
        ++p;
    }
    for (; n < 6; ++n) {
        us *= 10;
    }
    return us;
}

qint64 parseLocal(View t, bool *coarse)
{
    // 10/Oct/2026:13:55:36 +0000
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (t.size() < 26) {
        return -1;
    }
    const char *p = t.data();
    int d = 0, y = 0, h = 0, mi = 0, s = 0, oh = 0, om = 0;
    if (!digits(p, 2, &d) || p[2] != '/' || p[6] != '/' || !digits(p + 7, 4, &y) || p[11] != ':' ||
        !digits(p + 12, 2, &h) || p[14] != ':' || !digits(p + 15, 2, &mi) || p[17] != ':' ||
        !digits(p + 18, 2, &s) || p[20] != ' ' || (p[21] != '+' && p[21] != '-') ||
        !digits(p + 22, 2, &oh) || !digits(p + 24, 2, &om)) {
        return -1;
    }
    int mo = 0;
    for (int i = 0; i < 12; ++i) {
        if (std::memcmp(p + 3, months + 3 * i, 3) == 0) {
            mo = i + 1;
            break;
        }
    }
    const int offset = (p[21] == '-' ? -1 : 1) * (oh * 60 + om);
    *coarse = true;
    return compose(y, mo, d, h, mi, s, 0, offset);
}

qint64 parseIso(View t, bool *coarse)
{
    // 2026-10-10T13:55:36[.123456][Z|+02:00|+0200]
    if (t.size() < 19) {
        return -1;
    }
    const char *p = t.data();
    const char *end = p + t.size();
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (!digits(p, 4, &y) || p[4] != '-' || !digits(p + 5, 2, &mo) || p[7] != '-' ||
        !digits(p + 8, 2, &d) || (p[10] != 'T' && p[10] != ' ' && p[10] != 't') ||
        !digits(p + 11, 2, &h) || p[13] != ':' || !digits(p + 14, 2, &mi) || p[16] != ':' ||
        !digits(p + 17, 2, &s)) {
        return -1;
    }
    p += 19;
    qint64 frac = 0;
    *coarse = true;
    if (p < end && (*p == '.' || *p == ',')) {
        ++p;
        if (p == end || digit(*p) < 0) {
            return -1;
        }
        frac = fraction(p, end);
        *coarse = false;
    }
    int offset = 0;
    if (p < end && (*p == 'Z' || *p == 'z')) {
        ++p;
    } else if (p < end && (*p == '+' || *p == '-')) {
        const int sign = *p == '-' ? -1 : 1;
        ++p;
        int oh = 0, om = 0;
        if (end - p >= 5 && digits(p, 2, &oh) && p[2] == ':' && digits(p + 3, 2, &om)) {
            p += 5;
        } else if (end - p >= 4 && digits(p, 2, &oh) && digits(p + 2, 2, &om)) {
            p += 4;
        } else if (end - p >= 2 && digits(p, 2, &oh)) {
            p += 2;
        } else {
            return -1;
        }
        offset = sign * (oh * 60 + om);
    }
    if (p != end) {
        return -1;
    }
    return compose(y, mo, d, h, mi, s, frac, offset);
}

qint64 parseSeconds(View t, bool *coarse)
{
    // 1760104536.123 (or whole seconds)
    const char *p = t.data();
    const char *end = p + t.size();
    qint64 secs = 0;
    int n = 0;
    while (p < end && digit(*p) >= 0) {
        secs = secs * 10 + digit(*p);
        if (++n > 12) {
            return -1;
        }
        ++p;
    }
    if (n == 0) {
        return -1;
    }
    qint64 frac = 0;
    *coarse = true;
    if (p < end && *p == '.') {
        ++p;
        frac = fraction(p, end);
        *coarse = false;
    }
    if (p != end || secs > maxSeconds) {
        return -1;
    }
    return secs * usPerSec + frac;
}

inline bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// The end of a JSON string starting after its opening quote; sets `escaped`. nullptr if the
// string does not end on the line.
const char *stringEnd(const char *p, const char *end, bool *escaped)
{
    *escaped = false;
    while (p < end) {
        const char *q = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
        if (q == nullptr) {
            return nullptr;
        }
        // Count the backslashes before the quote.
        const char *b = q;
        while (b > p && b[-1] == '\\') {
            --b;
        }
        if (b != q) {
            *escaped = true;
        }
        if ((q - b) % 2 == 0) {
            return q;
        }
        p = q + 1;
    }
    return nullptr;
}

void appendUtf8(std::string &out, unsigned cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// Unescapes a JSON string body into `out` (appended); false on a bad escape.
bool unescape(View s, std::string &out)
{
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i >= s.size()) {
            return false;
        }
        switch (s[i]) {
        case '"':
            out += '"';
            break;
        case '\\':
            out += '\\';
            break;
        case '/':
            out += '/';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'n':
            out += '\n';
            break;
        case 'r':
            out += '\r';
            break;
        case 't':
            out += '\t';
            break;
        case 'u': {
            if (i + 4 >= s.size()) {
                return false;
            }
            unsigned cp = 0;
            for (size_t k = 1; k <= 4; ++k) {
                const int h = bytes::hexValue(s[i + k]);
                if (h < 0) {
                    return false;
                }
                cp = cp * 16 + unsigned(h);
            }
            i += 4;
            appendUtf8(out, cp);
            break;
        }
        default:
            return false;
        }
    }
    return true;
}

// Skips one JSON value (nested objects and arrays by bracket depth, strings respected).
const char *skipValue(const char *p, const char *end)
{
    int depth = 0;
    while (p < end) {
        const char c = *p;
        if (c == '"') {
            bool esc = false;
            const char *q = stringEnd(p + 1, end, &esc);
            if (q == nullptr) {
                return nullptr;
            }
            p = q + 1;
            if (depth == 0) {
                return p;
            }
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) {
                return p; // the end of the enclosing object
            }
            if (--depth == 0) {
                return p + 1;
            }
        } else if (depth == 0 && (c == ',' || isSpace(c))) {
            return p;
        }
        ++p;
    }
    return depth == 0 ? p : nullptr;
}

} // namespace

constexpr Named<Format> formatNames[] = {
    {Format::Auto, u"auto"},         {Format::NginxCombined, u"nginx-combined"},
    {Format::NginxCustom, u"nginx"}, {Format::Envoy, u"envoy"},
    {Format::Alb, u"alb"},           {Format::Json, u"json"}};

QString formatName(Format f)
{
    return nameIn(formatNames, f);
}

std::optional<Format> formatFromName(const QString &name)
{
    return valueNamed(formatNames, name);
}

qint64 parseTime(TimeKind kind, View text, bool *coarse)
{
    switch (kind) {
    case TimeKind::Local:
        return parseLocal(text, coarse);
    case TimeKind::Iso:
        return parseIso(text, coarse);
    case TimeKind::Msec:
    case TimeKind::Number:
        return parseSeconds(text, coarse);
    case TimeKind::None:
        break;
    }
    return -1;
}

QString LineParser::name() const
{
    return m_format == Format::NginxCustom ? u"nginx log_format"_s : formatName(m_format);
}

Result<LineParser> LineParser::fixed(Format f)
{
    Result<LineParser> p = Error::make(Error::Kind::Invalid, u"not a fixed format"_s);
    switch (f) {
    case Format::NginxCombined:
        p = nginx(QString::fromLatin1(combinedTemplate));
        break;
    case Format::Envoy:
        p = nginx(QString::fromLatin1(envoyTemplate));
        break;
    case Format::Alb:
        p = nginx(QString::fromLatin1(albTemplate));
        if (p) {
            p->m_addrHasPort = true;
            p->m_absoluteTarget = true;
        }
        break;
    case Format::Json:
        return json(defaultJsonFields());
    default:
        return p;
    }
    if (p) {
        p->m_format = f;
    }
    return p;
}

// The nginx variables a line parser reads, the slot each fills and how a time is written
// ($http_<name> aside: a header of its own slot).
constexpr Named<std::pair<Slot, TimeKind>> nginxVariables[] = {
    {{SlotAddr, TimeKind::None}, u"remote_addr"},
    {{SlotUser, TimeKind::None}, u"remote_user"},
    {{SlotTime, TimeKind::Local}, u"time_local"},
    {{SlotTime, TimeKind::Iso}, u"time_iso8601"},
    {{SlotTime, TimeKind::Msec}, u"msec"},
    {{SlotRequest, TimeKind::None}, u"request"},
    {{SlotMethod, TimeKind::None}, u"request_method"},
    {{SlotPath, TimeKind::None}, u"request_uri"},
    {{SlotStatus, TimeKind::None}, u"status"},
    {{SlotXff, TimeKind::None}, u"http_x_forwarded_for"}};

// The roles a JSON line's fields are mapped to (header:<Name> aside).
constexpr Named<Slot> jsonRoles[] = {{SlotTime, u"time"},       {SlotAddr, u"ip"},
                                     {SlotMethod, u"method"},   {SlotPath, u"path"},
                                     {SlotRequest, u"request"}, {SlotStatus, u"status"},
                                     {SlotXff, u"xff"},         {SlotUser, u"user"}};

Result<LineParser> LineParser::nginx(const QString &logFormat)
{
    LineParser p;
    p.m_format = Format::NginxCustom;
    const QByteArray text = logFormat.toUtf8();
    static const QRegularExpression var(u"\\$(?:\\{([A-Za-z0-9_]+)\\}|([A-Za-z0-9_]+))"_s);
    std::string literal;
    qsizetype pos = 0;
    const QString s = QString::fromUtf8(text);
    auto it = var.globalMatch(s);
    int lastVarEnd = -1;
    while (it.hasNext()) {
        const auto m = it.next();
        literal += s.mid(pos, m.capturedStart() - pos).toStdString();
        if (literal.empty() && lastVarEnd >= 0) {
            return Error::make(Error::Kind::Invalid,
                               u"--log-format: $%1 follows another variable with nothing between "
                               "them (column %2): the replay cannot tell where one ends"_s
                                   .arg(m.captured(1) + m.captured(2))
                                   .arg(m.capturedStart() + 1));
        }
        const QString name = (m.captured(1) + m.captured(2)).toLower();
        int slot = -1;
        TimeKind tk = TimeKind::None;
        if (const auto v = valueNamed(nginxVariables, name)) {
            slot = v->first;
            tk = v->second;
        } else if (name.startsWith(u"http_"_s)) {
            const std::string h = normalizedHeader(name.mid(5));
            if (p.m_headerNames.size() < 16) {
                slot = SlotFirstHeader + int(p.m_headerNames.size());
                p.m_headerNames.push_back(h);
                p.m_headerDisplay.push_back(displayHeader(h));
            }
        }
        if (slot >= 0 && p.m_has[slot]) {
            slot = -1; // the first variable of a field wins
        }
        if (slot == SlotTime) {
            p.m_timeKind = tk;
        }
        if (slot >= 0) {
            p.m_has[slot] = true;
        }
        p.m_items.push_back(Item{literal, slot});
        literal.clear();
        pos = m.capturedEnd();
        lastVarEnd = int(pos);
    }
    literal += s.mid(pos).toStdString();
    p.m_items.push_back(Item{literal, -2});
    if (p.m_timeKind == TimeKind::None) {
        return Error::make(Error::Kind::Invalid,
                           u"--log-format: no time variable ($time_local, $time_iso8601 or "
                           "$msec): the replay needs each request's time"_s);
    }
    if (p.m_has[SlotRequest]) {
        p.m_has[SlotMethod] = true;
        p.m_has[SlotPath] = true;
    }
    // Read up to the last variable that gives a field (its terminator is the next literal).
    size_t last = 0;
    for (size_t i = 0; i < p.m_items.size(); ++i) {
        if (p.m_items[i].slot >= 0) {
            last = i;
        }
    }
    p.setLastNeeded(last);
    return p;
}

QList<QPair<QString, QString>> defaultJsonFields()
{
    return {{u"time"_s, u"time"_s},           {u"ip"_s, u"ip"_s},
            {u"method"_s, u"method"_s},       {u"path"_s, u"path"_s},
            {u"request"_s, u"request"_s},     {u"status"_s, u"status"_s},
            {u"xff"_s, u"x_forwarded_for"_s}, {u"user"_s, u"user"_s}};
}

Result<LineParser> LineParser::json(const QList<QPair<QString, QString>> &fields)
{
    LineParser p;
    p.m_format = Format::Json;
    p.m_timeKind = TimeKind::Iso; // decided per value
    p.m_jsonKeys.assign(SlotFirstHeader + 16, std::string());
    QList<QPair<QString, QString>> map = defaultJsonFields();
    for (const auto &f : fields) {
        bool replaced = false;
        for (auto &d : map) {
            if (d.first == f.first) {
                d.second = f.second;
                replaced = true;
            }
        }
        if (!replaced) {
            map.append(f);
        }
    }
    for (const auto &[role, key] : std::as_const(map)) {
        int slot = -1;
        if (const auto named = valueNamed(jsonRoles, role)) {
            slot = *named;
        } else if (role.startsWith(u"header:"_s) && role.size() > 7) {
            const std::string h = normalizedHeader(role.mid(7));
            if (h == "x_forwarded_for") {
                slot = SlotXff;
            } else if (p.m_headerNames.size() < 16) {
                slot = SlotFirstHeader + int(p.m_headerNames.size());
                p.m_headerNames.push_back(h);
                p.m_headerDisplay.push_back(displayHeader(h));
            } else {
                return Error::make(Error::Kind::Invalid,
                                   u"--field %1: at most 16 headers can be mapped"_s.arg(role));
            }
        } else {
            return Error::make(
                Error::Kind::Invalid,
                u"--field %1=%2: unknown role '%1'; expected time, ip, method, "
                "path, request, status, xff, user or header:<Name>"_s.arg(role, key));
        }
        if (key.isEmpty()) {
            return Error::make(Error::Kind::Invalid,
                               u"--field %1=: the key of the JSON object is empty"_s.arg(role));
        }
        p.m_jsonKeys[size_t(slot)] = key.toStdString();
        p.m_has[slot] = true;
    }
    p.m_has[SlotMethod] = p.m_has[SlotMethod] || p.m_has[SlotRequest];
    p.m_has[SlotPath] = p.m_has[SlotPath] || p.m_has[SlotRequest];
    return p;
}

int LineParser::headerSlot(const QString &name) const
{
    const std::string n = normalizedHeader(name);
    if (n == "x_forwarded_for") {
        return m_has[SlotXff] ? SlotXff : -1;
    }
    for (size_t i = 0; i < m_headerNames.size(); ++i) {
        if (m_headerNames[i] == n) {
            return SlotFirstHeader + int(i);
        }
    }
    return -1;
}

bool LineParser::has(int slot) const
{
    return slot >= 0 && slot < SlotFirstHeader + 16 && m_has[slot];
}

QStringList LineParser::loggedHeaders() const
{
    QStringList out;
    if (m_has[SlotXff]) {
        out << u"X-Forwarded-For"_s;
    }
    for (const QString &h : m_headerDisplay) {
        out << h;
    }
    return out;
}

void LineParser::readOnly(const std::vector<int> &slots)
{
    if (m_format == Format::Json) {
        return;
    }
    bool want[SlotFirstHeader + 16] = {};
    for (int s : slots) {
        if (s >= 0 && s < int(std::size(want))) {
            want[s] = true;
        }
    }
    want[SlotTime] = true;
    if (want[SlotMethod] || want[SlotPath]) {
        want[SlotRequest] = true;
    }
    size_t last = 0;
    for (size_t i = 0; i < m_items.size(); ++i) {
        if (m_items[i].slot >= 0 && want[m_items[i].slot]) {
            last = i;
        }
    }
    setLastNeeded(last);
}

void LineParser::setLastNeeded(size_t last)
{
    // The parse stops at item `last`'s terminator, whether the parser reads every field or
    // only the rules' ones: a line is the format's when it starts with it, so text after the
    // last field read is not checked (ALB logs go on after the fields read; nginx's "main"
    // format adds one to combined). A final-text check on the narrow parser alone refused
    // such lines there while the full one took them (tests/fuzz/fuzz_replay).
    m_lastNeeded = last;
}

bool LineParser::parse(View line, Record &r, const char **why) const
{
    if (m_format == Format::Json) {
        for (View &f : r.fields) {
            f = View();
        }
    } else {
        // Derived from the request line when the format does not give them.
        r.fields[SlotMethod] = View();
        r.fields[SlotPath] = View();
    }
    r.status = 0;
    return m_format == Format::Json ? parseJson(line, r, why) : parseTemplate(line, r, why);
}

bool LineParser::parseTemplate(View line, Record &r, const char **why) const
{
    const char *p = line.data();
    const char *end = p + line.size();
    // The first literal starts the line. Every other one is where the value before it ends,
    // found there by the search below: it is stepped over, not compared again.
    const std::string &first = m_items[0].literal;
    if (size_t(end - p) < first.size() || !same(p, first.data(), first.size())) {
        *why = "the line does not have the format's fixed text where expected";
        return false;
    }
    const size_t last = m_lastNeeded;
    for (size_t i = 0; i <= last; ++i) {
        const Item &item = m_items[i];
        p += item.literal.size();
        // The value runs to the next literal (to the end of the line after the last one).
        const std::string &term = m_items[i + 1].literal;
        const char *vend = end;
        if (!term.empty()) {
            const char c = term[0];
            const size_t rest = term.size() - 1;
            const char *q = p;
            vend = nullptr;
            while (q < end) {
                q = static_cast<const char *>(std::memchr(q, c, size_t(end - q)));
                if (q == nullptr) {
                    break;
                }
                if (size_t(end - q) > rest && same(q + 1, term.data() + 1, rest)) {
                    vend = q;
                    break;
                }
                ++q;
            }
            if (vend == nullptr) {
                *why = "the line ends before the format's last field";
                return false;
            }
        }
        if (item.slot >= 0) {
            r.fields[item.slot] = View(p, size_t(vend - p));
        }
        p = vend;
    }
    return finish(r, why);
}

bool LineParser::parseJson(View line, Record &r, const char **why) const
{
    const char *p = line.data();
    const char *end = p + line.size();
    while (p < end && isSpace(*p)) {
        ++p;
    }
    if (p == end || *p != '{') {
        *why = "not a JSON object";
        return false;
    }
    ++p;
    // Unescaped values go to r.scratch, reserved once so that views into it stay valid.
    r.scratch.clear();
    if (r.scratch.capacity() < line.size()) {
        r.scratch.reserve(std::max<size_t>(line.size(), 65536));
    }
    bool numberTime = false;
    for (;;) {
        while (p < end && (isSpace(*p) || *p == ',')) {
            ++p;
        }
        if (p < end && *p == '}') {
            break;
        }
        if (p == end || *p != '"') {
            *why = "a key of the JSON object is not a string";
            return false;
        }
        bool escaped = false;
        const char *ke = stringEnd(p + 1, end, &escaped);
        if (ke == nullptr) {
            *why = "a JSON string does not end on the line";
            return false;
        }
        const View key(p + 1, size_t(ke - p - 1));
        p = ke + 1;
        while (p < end && isSpace(*p)) {
            ++p;
        }
        if (p == end || *p != ':') {
            *why = "a key of the JSON object has no ':' after it";
            return false;
        }
        ++p;
        while (p < end && isSpace(*p)) {
            ++p;
        }
        int slot = -1;
        for (size_t s = 0; s < m_jsonKeys.size(); ++s) {
            if (!m_jsonKeys[s].empty() && key == View(m_jsonKeys[s])) {
                slot = int(s);
                break;
            }
        }
        if (p < end && *p == '"') {
            bool esc = false;
            const char *ve = stringEnd(p + 1, end, &esc);
            if (ve == nullptr) {
                *why = "a JSON string does not end on the line";
                return false;
            }
            if (slot >= 0) {
                View v(p + 1, size_t(ve - p - 1));
                esc = esc || v.find('\\') != View::npos;
                if (esc) {
                    const size_t at = r.scratch.size();
                    if (!unescape(v, r.scratch)) {
                        *why = "a JSON string has a bad escape";
                        return false;
                    }
                    v = View(r.scratch.data() + at, r.scratch.size() - at);
                }
                r.fields[slot] = v;
                if (slot == SlotTime) {
                    numberTime = false;
                }
            }
            p = ve + 1;
        } else {
            const char *ve = skipValue(p, end);
            if (ve == nullptr || ve == p) {
                *why = "a JSON value is malformed";
                return false;
            }
            if (slot >= 0 && *p != '{' && *p != '[' && *p != 'n') {
                r.fields[slot] = View(p, size_t(ve - p));
                if (slot == SlotTime) {
                    numberTime = true;
                }
            }
            p = ve;
        }
    }
    // The time may be a number (seconds), ISO 8601, nginx's time_local or $msec text.
    const View t = r.fields[SlotTime];
    if (t.empty()) {
        *why = "the JSON object has no time field";
        return false;
    }
    bool coarse = false;
    qint64 us = -1;
    if (numberTime) {
        us = parseSeconds(t, &coarse);
    } else {
        us = parseIso(t, &coarse);
        if (us < 0) {
            us = parseLocal(t, &coarse);
        }
        if (us < 0) {
            us = parseSeconds(t, &coarse);
        }
    }
    if (us < 0) {
        *why = "the time is not ISO 8601, [dd/Mon/yyyy:hh:mm:ss +zzzz] or seconds since 1970";
        return false;
    }
    r.timeUs = us;
    r.coarse = coarse;
    r.fields[SlotTime] = View(); // parsed: finish() must not parse it again
    return finish(r, why);
}

bool LineParser::finish(Record &r, const char **why) const
{
    if (const View t = r.fields[SlotTime]; !t.empty()) {
        if (t.size() == r.lastTimeSize && r.lastTimeUs >= 0 &&
            same(t.data(), r.lastTime, t.size())) {
            r.timeUs = r.lastTimeUs; // the same second as the line before
            r.coarse = r.lastCoarse;
        } else {
            bool coarse = false;
            const qint64 us = parseTime(m_timeKind, t, &coarse);
            if (us < 0) {
                *why = m_timeKind == TimeKind::Local
                           ? "the time is not [dd/Mon/yyyy:hh:mm:ss +zzzz]"
                       : m_timeKind == TimeKind::Msec ? "the time is not seconds.milliseconds"
                                                      : "the time is not ISO 8601";
                return false;
            }
            r.timeUs = us;
            r.coarse = coarse;
            if (t.size() <= sizeof r.lastTime) {
                std::memcpy(r.lastTime, t.data(), t.size());
                r.lastTimeSize = t.size();
                r.lastTimeUs = us;
                r.lastCoarse = coarse;
            }
        }
    } else if (m_format != Format::Json) {
        *why = "the line has no time";
        return false;
    }
    const View st = r.fields[SlotStatus];
    if (st.size() == 3 && digit(st[0]) > 0 && digit(st[1]) >= 0 && digit(st[2]) >= 0) {
        r.status = digit(st[0]) * 100 + digit(st[1]) * 10 + digit(st[2]);
    } else if (!st.empty() && st != "-" && m_format != Format::Json) {
        *why = "the status is not a three-digit code";
        return false;
    }
    const View req = r.fields[SlotRequest];
    if (!req.empty() && r.fields[SlotMethod].empty()) {
        const size_t sp = req.find(' ');
        if (sp != View::npos) {
            r.fields[SlotMethod] = req.substr(0, sp);
            View rest = req.substr(sp + 1);
            const size_t sp2 = rest.find(' ');
            r.fields[SlotPath] = sp2 == View::npos ? rest : rest.substr(0, sp2);
        }
    }
    if (m_absoluteTarget) {
        View &path = r.fields[SlotPath];
        const size_t scheme = path.find("://");
        if (scheme != View::npos && scheme < 8) {
            const size_t slash = path.find('/', scheme + 3);
            path = slash == View::npos ? View("/") : path.substr(slash);
        }
    }
    if (m_addrHasPort) {
        View &a = r.fields[SlotAddr];
        const size_t colon = a.rfind(':');
        if (colon != View::npos) {
            a = a.substr(0, colon);
        }
        if (a.size() >= 2 && a.front() == '[' && a.back() == ']') {
            a = a.substr(1, a.size() - 2);
        }
    }
    return true;
}

Result<Format> detect(const std::vector<QByteArray> &firstLines)
{
    std::vector<QByteArray> lines;
    for (const QByteArray &l : firstLines) {
        if (!l.trimmed().isEmpty()) {
            lines.push_back(l);
        }
    }
    if (lines.empty()) {
        return Error::make(Error::Kind::Invalid, u"no line to detect the format from"_s);
    }
    Format best = Format::Auto;
    size_t bestCount = 0;
    for (Format f : {Format::NginxCombined, Format::Envoy, Format::Alb, Format::Json}) {
        Record rec; // each parser its own (a record keeps the fields its format does not give)
        auto p = LineParser::fixed(f);
        if (!p) {
            continue;
        }
        size_t ok = 0;
        for (const QByteArray &l : lines) {
            const char *why = nullptr;
            if (p->parse(View(l.constData(), size_t(l.size())), rec, &why)) {
                ++ok;
            }
        }
        if (ok > bestCount) {
            best = f;
            bestCount = ok;
        }
    }
    if (bestCount * 2 < lines.size() || bestCount == 0) {
        return Error::make(Error::Kind::Invalid,
                           u"the format is none of nginx-combined, envoy, alb, json (tried on the "
                           "first %1 line(s)); give it with --format, or an nginx log_format "
                           "with --log-format; the first line: %2"_s.arg(lines.size())
                               .arg(bytes::printable(lines.front().left(200))));
    }
    return best;
}

} // namespace sluice::replay
