#include "keyrows.h"

#include "core/common/bytes.h"
#include "core/keys/keyhealth.h"

#include <QByteArrayView>
#include <QLocale>
#include <QStringView>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

using namespace Qt::StringLiterals;

namespace sluice::cli {

namespace {

using namespace sluice::keys;

// Bytes that bytes::printable() keeps as they are: printable ASCII but the backslash. A key made
// of these only (the usual case) is written without building its printable QString.
bool plainAscii(QByteArrayView b)
{
    const char *const bytes = b.data();
    qsizetype i = 0;
#ifdef __SSE2__
    // Sixteen bytes a step (a key, a million keys).
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i tilde = _mm_set1_epi8(0x7e);
    const __m128i backslash = _mm_set1_epi8('\\');
    for (; i + 16 <= b.size(); i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(bytes + i));
        // Signed: a byte of 0x80 and up is below a space too.
        const __m128i bad =
            _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpgt_epi8(v, tilde)),
                         _mm_cmpeq_epi8(v, backslash));
        if (_mm_movemask_epi8(bad) != 0) {
            return false;
        }
    }
#endif
    return std::all_of(bytes + i, bytes + b.size(),
                       [](char c) { return c >= 0x20 && c < 0x7f && c != '\\'; });
}

char hexDigit(unsigned v)
{
    return char(v < 10 ? '0' + v : 'a' + v - 10);
}

// Qt's JSON escapes (qjsonwriter.cpp) of an ASCII unit: the short forms, \u00xx for other
// controls. Returns past what it wrote (6 bytes at most).
char *writeEscapedAscii(char *p, unsigned u)
{
    *p++ = '\\';
    switch (u) {
    case '"':
    case '\\':
        *p++ = char(u);
        return p;
    case '\b':
        *p++ = 'b';
        return p;
    case '\f':
        *p++ = 'f';
        return p;
    case '\n':
        *p++ = 'n';
        return p;
    case '\r':
        *p++ = 'r';
        return p;
    case '\t':
        *p++ = 't';
        return p;
    default:
        for (const char c : {'u', '0', '0', hexDigit(u >> 4), hexDigit(u & 0xf)}) {
            *p++ = c;
        }
        return p;
    }
}

// Whether a UTF-16 unit goes into a JSON string as the one byte it is (no escape, ASCII).
bool plainUnit(char16_t u)
{
    return u >= 0x20 && u < 0x80 && u != '"' && u != '\\';
}

// Writes the run of plainUnit() units `text` starts with (of its `n`) to `to`, as bytes; returns
// its length. Eight units a step where SSE2 is there (x86-64 always): a state, a cause, a layout
// id is printable ASCII, and a million of them go through here.
qsizetype writePlainRun(char *to, const char16_t *text, qsizetype n)
{
    qsizetype i = 0;
#ifdef __SSE2__
    const __m128i nonAsciiBits = _mm_set1_epi16(short(0xff80));
    const __m128i zero = _mm_setzero_si128();
    const __m128i space = _mm_set1_epi16(0x20);
    const __m128i quote = _mm_set1_epi16('"');
    const __m128i backslash = _mm_set1_epi16('\\');
    for (; i + 8 <= n; i += 8) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(text + i));
        const __m128i ascii = _mm_cmpeq_epi16(_mm_and_si128(v, nonAsciiBits), zero);
        // Below a space (signed: a unit of 0x8000 and up is too, and is not ASCII anyway).
        const __m128i bad =
            _mm_or_si128(_mm_or_si128(_mm_cmplt_epi16(v, space), _mm_cmpeq_epi16(v, quote)),
                         _mm_or_si128(_mm_cmpeq_epi16(v, backslash), _mm_cmpeq_epi16(ascii, zero)));
        if (_mm_movemask_epi8(bad) != 0) {
            break;
        }
        _mm_storel_epi64(reinterpret_cast<__m128i *>(to + i), _mm_packus_epi16(v, v));
    }
#endif
    for (; i < n && plainUnit(text[i]); ++i) {
        to[i] = char(text[i]);
    }
    return i;
}

// The bytes a JSON string of `units` UTF-16 units takes at most: 6 a unit (\u00xx, \uxxxx) and
// the quotes.
size_t jsonRoom(qsizetype units)
{
    return size_t(units) * 6 + 2;
}

// A JSON string of UTF-16 text, as Qt writes it: UTF-8, a lone surrogate as \uxxxx. Writes
// jsonRoom(s.size()) bytes at most; returns past them.
char *writeJsonString(char *p, QStringView s)
{
    *p++ = '"';
    const char16_t *const text = s.utf16();
    for (qsizetype i = 0; i < s.size(); ++i) {
        // A run of printable ASCII that needs no escape, as it is.
        const qsizetype run = writePlainRun(p, text + i, s.size() - i);
        p += run;
        i += run;
        if (i == s.size()) {
            break;
        }
        const char16_t u = text[i];
        if (u < 0x80) {
            p = writeEscapedAscii(p, u); // plainUnit() took the others
        } else if (u < 0x800) {
            *p++ = char(0xc0 | (u >> 6));
            *p++ = char(0x80 | (u & 0x3f));
        } else if (QChar::isHighSurrogate(u) && i + 1 < s.size() &&
                   QChar::isLowSurrogate(s[i + 1].unicode())) {
            const char32_t cp = QChar::surrogateToUcs4(u, s[i + 1].unicode());
            ++i;
            *p++ = char(0xf0 | (cp >> 18));
            *p++ = char(0x80 | ((cp >> 12) & 0x3f));
            *p++ = char(0x80 | ((cp >> 6) & 0x3f));
            *p++ = char(0x80 | (cp & 0x3f));
        } else if (QChar::isSurrogate(u)) {
            for (const char c : {'\\', 'u', hexDigit(u >> 12), hexDigit((u >> 8) & 0xf),
                                 hexDigit((u >> 4) & 0xf), hexDigit(u & 0xf)}) {
                *p++ = c;
            }
        } else {
            *p++ = char(0xe0 | (u >> 12));
            *p++ = char(0x80 | ((u >> 6) & 0x3f));
            *p++ = char(0x80 | (u & 0x3f));
        }
    }
    *p++ = '"';
    return p;
}

// Room made once at the end of a std::string, written through a pointer, cut back to what was
// written when it goes: an entry's members without an append (a capacity check, a call) each.
class Cursor
{
public:
    Cursor(std::string &out, size_t room)
        : m_out(out)
    {
        const size_t at = out.size();
        out.resize(at + room);
        p = out.data() + at;
    }
    ~Cursor() { m_out.resize(size_t(p - m_out.data())); }
    Cursor(const Cursor &) = delete;
    Cursor &operator=(const Cursor &) = delete;

    void put(std::string_view s)
    {
        std::memcpy(p, s.data(), s.size());
        p += s.size();
    }
    void put(char c) { *p++ = c; }
    void integer(qint64 v) { p = std::to_chars(p, p + 20, v).ptr; } // room: 20 bytes
    void string(QStringView s) { p = writeJsonString(p, s); }       // room: jsonRoom()

    char *p;

private:
    std::string &m_out;
};

// The room a JSON string of `b` shown through bytes::printable() takes: the printable text is
// made into `printable` where it differs from the bytes.
size_t printableRoom(const QByteArray &b, QString &printable)
{
    if (plainAscii(b)) {
        return size_t(b.size()) * 2 + 2; // a quote escaped takes two
    }
    printable = bytes::printable(b);
    return jsonRoom(printable.size());
}

// Bytes shown through bytes::printable(), as a JSON string; `printable` from printableRoom().
void writePrintableJson(Cursor &c, const QByteArray &b, const QString &printable)
{
    if (!printable.isNull()) {
        c.string(printable);
        return;
    }
    c.put('"');
    QByteArrayView rest(b);
    for (qsizetype quote = rest.indexOf('"'); quote >= 0; quote = rest.indexOf('"')) {
        c.put(std::string_view(rest.data(), size_t(quote)));
        c.put("\\\"");
        rest = rest.sliced(quote + 1);
    }
    c.put(std::string_view(rest.data(), size_t(rest.size())));
    c.put('"');
}

void appendJsonString(std::string &out, QStringView s)
{
    Cursor(out, jsonRoom(s.size())).string(s);
}

void appendPrintableJson(std::string &out, const QByteArray &b)
{
    QString printable;
    Cursor c(out, printableRoom(b, printable));
    writePrintableJson(c, b, printable);
}

void appendInteger(std::string &out, qint64 v)
{
    Cursor(out, 20).integer(v);
}

// A double as Qt's JSON writer formats it: a whole number below 2^64 in fixed notation, any
// other in the shortest 'g' form; not finite: null.
void appendDouble(std::string &out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    const double a = std::abs(v);
    const bool whole = a < 18446744073709551616.0 && a == std::floor(a);
    out += QByteArray::number(v, whole ? 'f' : 'g', QLocale::FloatingPointShortest).toStdString();
}

// The members of one object, written in Qt's order (QJsonObject keeps them sorted by name).
class Members
{
public:
    void null(const char *name) { add(name).kind = Kind::Null; }
    void integer(const char *name, qint64 v)
    {
        Member &m = add(name);
        m.kind = Kind::Integer;
        m.integer = v;
    }
    void number(const char *name, double v)
    {
        Member &m = add(name);
        m.kind = Kind::Double;
        m.number = v;
    }
    // `v` must outlive write().
    void string(const char *name, QStringView v)
    {
        Member &m = add(name);
        m.kind = Kind::String;
        m.text = v;
    }
    void printable(const char *name, const QByteArray &v)
    {
        Member &m = add(name);
        m.kind = Kind::Printable;
        m.bytes = &v;
    }
    void json(const char *name, std::string_view v) // already JSON (an object)
    {
        Member &m = add(name);
        m.kind = Kind::Json;
        m.json = v;
    }
    void write(std::string &out)
    {
        std::sort(m_members.begin(), m_members.begin() + m_size,
                  [](const Member &a, const Member &b) { return std::strcmp(a.name, b.name) < 0; });
        out += '{';
        for (size_t i = 0; i < m_size; ++i) {
            const Member &m = m_members[i];
            if (i > 0) {
                out += ',';
            }
            out += '"';
            out += m.name;
            out += "\":";
            switch (m.kind) {
            case Kind::Null:
                out += "null";
                break;
            case Kind::Integer:
                appendInteger(out, m.integer);
                break;
            case Kind::Double:
                appendDouble(out, m.number);
                break;
            case Kind::String:
                appendJsonString(out, m.text);
                break;
            case Kind::Printable:
                appendPrintableJson(out, *m.bytes);
                break;
            case Kind::Json:
                out.append(m.json.data(), size_t(m.json.size()));
                break;
            }
        }
        out += '}';
    }

private:
    enum class Kind { Null, Integer, Double, String, Printable, Json };
    struct Member
    {
        const char *name = "";
        Kind kind = Kind::Null;
        qint64 integer = 0;
        double number = 0;
        QStringView text;
        const QByteArray *bytes = nullptr;
        std::string_view json;
    };
    Member &add(const char *name)
    {
        Member &m = m_members[m_size++]; // at most 10 in a row, 16 room
        m.name = name;
        return m;
    }
    std::array<Member, 16> m_members;
    size_t m_size = 0;
};

void appendStateJson(std::string &out, const KeyState &s, const QString &kind, const QString &text)
{
    Members o;
    o.string("algorithm", kind);
    o.string("text", text);
    const double level = std::floor(s.level * 1000.0) / 1000.0; // 3 decimals, rounded down
    switch (s.kind) {
    case KeyState::Kind::None:
        break;
    case KeyState::Kind::Unreadable:
        o.string("problem", s.problem);
        o.integer("value_size", s.valueBytes);
        break;
    case KeyState::Kind::FixedWindow:
        o.integer("count", s.count);
        o.integer("window_start_us", s.startUs);
        break;
    case KeyState::Kind::SlidingLog:
        o.integer("count", s.count);
        o.integer("entries", s.entries);
        o.integer("next_free_ms", s.nextFreeMs);
        break;
    case KeyState::Kind::SlidingCounter:
        o.integer("count", s.count);
        o.integer("previous", s.previous);
        o.number("weighted", level);
        break;
    case KeyState::Kind::TokenBucket:
        o.number("tokens", level);
        break;
    case KeyState::Kind::LeakyBucket:
        o.number("queue", level);
        o.integer("delay_ms", s.delayMs);
        break;
    case KeyState::Kind::Gcra:
        o.integer("available", s.remaining);
        o.integer("tat_us", s.startUs);
        break;
    }
    // Every limiter state has a limit and a reset; all but GCRA's say "remaining" (GCRA's is
    // "available"). The order is the writer's (sorted), not this one.
    if (s.kind != KeyState::Kind::None && s.kind != KeyState::Kind::Unreadable) {
        o.integer("limit", s.limit);
        o.integer("reset_ms", s.resetMs);
        if (s.kind != KeyState::Kind::Gcra) {
            o.integer("remaining", s.remaining);
        }
    }
    if (s.kind != KeyState::Kind::None) {
        o.integer("at_us", s.atUs);
    }
    o.write(out);
}

// UTF-8 of `s`, then spaces up to `width` UTF-16 units, or one space if it has that many (as
// QString::leftJustified counts).
void appendPadded(std::string &out, QStringView s, qsizetype width)
{
    if (std::all_of(s.begin(), s.end(), [](QChar c) { return c.unicode() < 0x80; })) {
        for (const QChar c : s) {
            out += char(c.unicode());
        }
    } else {
        const QByteArray utf8 = s.toUtf8();
        out.append(utf8.constData(), size_t(utf8.size()));
    }
    out.append(size_t(s.size() >= width ? 1 : width - s.size()), ' ');
}

void appendPaddedPrintable(std::string &out, const QByteArray &b, qsizetype width)
{
    if (!plainAscii(b)) {
        appendPadded(out, bytes::printable(b), width);
        return;
    }
    out.append(b.constData(), size_t(b.size()));
    out.append(size_t(b.size() >= width ? 1 : width - b.size()), ' ');
}

void appendPaddedLatin1(std::string &out, const QByteArray &b, qsizetype width)
{
    if (!plainAscii(b)) {
        appendPadded(out, QString::fromLatin1(b), width);
        return;
    }
    out.append(b.constData(), size_t(b.size()));
    out.append(size_t(b.size() >= width ? 1 : width - b.size()), ' ');
}

} // namespace

QString ttlText(qint64 pttl)
{
    if (pttl == -1) {
        return u"never"_s;
    }
    if (pttl < 0) {
        return u"?"_s;
    }
    return formatDurationMs(pttl);
}

void appendAuditJson(std::string &out, const AuditEntry &e)
{
    const QString health = auditHealthName(e.health);
    const QStringView texts[] = {e.cause,   health,   e.layout, e.looksLike,
                                 e.lostTtl, e.ruleId, e.state};
    QString printableKey;
    size_t room = printableRoom(e.key, printableKey) + jsonRoom(e.type.size()) + 256;
    for (const QStringView t : texts) {
        room += jsonRoom(t.size());
    }
    // The members in Qt's order, their names sized at compile time, written in one room.
    using namespace std::string_view_literals;
    Cursor c(out, room);
    auto text = [&](std::string_view member, QStringView v) {
        c.put(member);
        if (v.isEmpty()) {
            c.put("null"sv);
        } else {
            c.string(v);
        }
    };
    auto positive = [&](std::string_view member, qint64 v) {
        c.put(member);
        if (v > 0) {
            c.integer(v);
        } else {
            c.put("null"sv);
        }
    };
    text("{\"cause\":"sv, e.cause);
    text(",\"health\":"sv, health);
    c.put(",\"key\":"sv);
    writePrintableJson(c, e.key, printableKey);
    text(",\"layout\":"sv, e.layout);
    positive(",\"limit\":"sv, e.limit);
    text(",\"looks_like\":"sv, e.looksLike);
    text(",\"lost_ttl\":"sv, e.lostTtl);
    text(",\"rule\":"sv, e.ruleId);
    text(",\"state\":"sv, e.state);
    c.put(",\"ttl_ms\":"sv);
    c.integer(e.pttlMs);
    c.put(",\"type\":"sv);
    if (plainAscii(e.type) && !e.type.contains('"')) {
        c.put('"');
        c.put(std::string_view(e.type.constData(), size_t(e.type.size())));
        c.put('"');
    } else {
        c.string(QString::fromLatin1(e.type));
    }
    positive(",\"window_ms\":"sv, e.windowMs);
    c.put('}');
}

void appendKeyJson(std::string &out, const KeyInfo &k)
{
    // The state object first, into a buffer kept from row to row.
    thread_local std::string state;
    const bool hasState = k.state.kind != KeyState::Kind::None;
    QString text;
    if (hasState) {
        state.clear();
        text = k.state.describe();
        appendStateJson(state, k.state, kindName(k.state.kind), text);
    }
    Members o;
    const QString health = healthName(k.health);
    QString cause;
    if (k.health != Health::Ok) {
        cause = k.explanation();
        o.string("cause", cause);
    }
    o.printable("key", k.key);
    const QString type = QString::fromLatin1(k.type);
    o.string("type", type);
    o.integer("ttl_ms", k.pttlMs);
    if (k.ruleId.isEmpty()) {
        o.null("rule");
    } else {
        o.string("rule", k.ruleId);
    }
    if (k.hasRule()) {
        o.printable("subject", k.subject);
    } else {
        o.null("subject");
    }
    static const QString overrideWord = QStringLiteral("override");
    if (k.override) {
        o.string("limited_by", overrideWord); // an override limit's key, not the rule's own
    }
    o.string("health", health);
    if (k.maxTtlMs > 0) {
        o.integer("max_ttl_ms", k.maxTtlMs);
    } else {
        o.null("max_ttl_ms");
    }
    if (hasState) {
        o.json("state", state);
    } else {
        o.null("state");
    }
    o.write(out);
}

QString padded(const QString &s, int width)
{
    return s.size() >= width ? s + u' ' : s.leftJustified(width);
}

QString tableRow(const QString &key, const QString &type, const QString &ttl, const QString &rule,
                 const QString &subject, const QString &health, const QString &state)
{
    return padded(key, 44) + u' ' + padded(type, 7) + padded(ttl, 11) + padded(rule, 18) +
           padded(subject, 20) + padded(health, 17) + state;
}

void appendKeyRow(std::string &out, const KeyInfo &k)
{
    // The columns of tableRow(), written in place.
    appendPaddedPrintable(out, k.key, 44);
    out += ' ';
    appendPaddedLatin1(out, k.type, 7);
    if (k.pttlMs >= 0) {
        char ttl[32];
        const int n = formatDurationMs(k.pttlMs, ttl);
        out.append(ttl, size_t(n));
        out.append(size_t(n >= 11 ? 1 : 11 - n), ' ');
    } else {
        appendPadded(out, ttlText(k.pttlMs), 11);
    }
    if (k.hasRule()) {
        appendPadded(out, k.ruleId, 18);
        appendPaddedPrintable(out, k.subject, 20);
    } else {
        appendPadded(out, u"-", 18);
        appendPadded(out, u"-", 20);
    }
    appendPadded(out, healthName(k.health), 17);
    if (k.state.kind != KeyState::Kind::None) {
        appendPadded(
            out, (k.override ? QStringLiteral("override: ") : QString()) + k.state.describe(), 0);
        out.pop_back(); // the last column is not padded
    }
    out += '\n';
}

QString thousands(qint64 v)
{
    return QLocale(QLocale::English).toString(v);
}

} // namespace sluice::cli
