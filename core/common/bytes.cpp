#include "bytes.h"

#include <algorithm>

namespace sluice::bytes {

namespace {

// The length of the UTF-8 sequence a lead byte announces; 0 for a byte that leads none.
int sequenceLength(unsigned char c)
{
    return c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
}

// The code point of the `len` bytes at `p`, or -1 when they are not one well-formed sequence
// (continuation bytes, no overlong form, no surrogate, at most U+10FFFF).
char32_t decode(const unsigned char *p, int len)
{
    char32_t cp = p[0] & (0x7f >> len);
    for (int k = 1; k < len; ++k) {
        if ((p[k] & 0xc0) != 0x80) {
            return char32_t(-1);
        }
        cp = (cp << 6) | (p[k] & 0x3f);
    }
    static constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) {
        return char32_t(-1);
    }
    return cp;
}

// Printable and on the line: Qt counts U+2028 and U+2029 (line and paragraph separators) as
// printable, but they break a line in a terminal or an editor.
bool shown(char32_t cp)
{
    const QChar::Category c = QChar::category(cp);
    return QChar::isPrint(cp) && c != QChar::Separator_Line && c != QChar::Separator_Paragraph;
}

} // namespace

QString printable(const QByteArray &bytes, Keep keep)
{
    const bool keepBackslash = keep == Keep::Backslash;
    QString out;
    out.reserve(bytes.size());
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.constData());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = data[i];
        if (c >= 0x20 && c < 0x7f && (c != '\\' || keepBackslash)) {
            out += QLatin1Char(char(c));
            ++i;
            continue;
        }
        const int len = sequenceLength(c);
        if (len > 0 && i + len <= n) {
            const char32_t cp = decode(data + i, len);
            if (cp != char32_t(-1) && shown(cp)) {
                out += QString::fromUcs4(&cp, 1);
                i += len;
                continue;
            }
        }
        out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
        ++i;
    }
    return out;
}

QString printable(const QString &text, Keep keep)
{
    return printable(text.toUtf8(), keep);
}

QString shortened(const QString &text)
{
    constexpr qsizetype max = 40;
    if (text.size() <= max) {
        return printable(text, Keep::Backslash);
    }
    // Never half of a surrogate pair.
    const qsizetype cut = text.at(max - 1).isHighSurrogate() ? max - 1 : max;
    return printable(text.left(cut), Keep::Backslash) + QChar(0x2026);
}

QString quoted(QByteArrayView bytes, qsizetype limit)
{
    limit = std::max<qsizetype>(limit, 0);
    if (bytes.size() <= limit) {
        return printable(bytes.toByteArray());
    }
    // Cut before a UTF-8 sequence that would not fit whole, rather than through it.
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
    qsizetype cut = limit;
    for (qsizetype back = 1; back <= 3 && back <= limit; ++back) {
        const unsigned char c = data[limit - back];
        if (const int len = sequenceLength(c); len > 0) {
            if (len > back) {
                cut = limit - back;
            }
            break;
        }
        if ((c & 0xc0) != 0x80) {
            break; // not inside a sequence
        }
    }
    return printable(bytes.first(cut).toByteArray()) +
           QStringLiteral("\u2026 (%1 bytes)").arg(bytes.size());
}

} // namespace sluice::bytes
