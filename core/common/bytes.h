#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace sluice::bytes {

// Bytes (a key, a subject, a user's argument) as one line of text that a terminal, a JSON
// document and a table cell can carry, by one rule for every face (FORMATS.md): printable
// ASCII as it is, a UTF-8 sequence as it is when it decodes cleanly to a printable character,
// and every other byte, the backslash included, as `\xNN` (two lowercase hex digits). So two
// different byte strings never print the same, and the text never breaks a line.
//
// The one escape of Sluice: every value from a file, the store or a client that reaches a text
// log line or a terminal goes through it once. `Keep::Backslash` is for a finished line whose
// values went through it already (the text log, a CLI message): only what would break the line
// or reach the terminal as a control (C0, DEL, C1, invalid UTF-8, U+2028/U+2029) is escaped, so
// an escaped value is not escaped twice.
enum class Keep { Nothing, Backslash };
QString printable(const QByteArray &bytes, Keep keep = Keep::Nothing);
// printable() of a text (its UTF-8).
QString printable(const QString &text, Keep keep = Keep::Nothing);

// What a message quotes of a user's text (a rule file's value or field name, a flag's
// argument): at most 40 characters, then "…". Every message that quotes input goes through
// it, so a 10 MB value makes a short message. Controls in it are escaped as printable() has
// them (after the cut, which counts characters of the text), so a quoted field name never
// breaks a line.
QString shortened(const QString &text);

// What a server (or any other party) sent, as a quote for a message: at most `limit` bytes of
// it, by the rule of printable(), and when it is longer, "…" and its whole length ("ERR
// xxxx… (500000000 bytes)"). Every message that quotes a server's text goes through this, so
// that a hostile reply never makes a hostile message (an error, a log line, a status page).
inline constexpr qsizetype quoteLimit = 200;
QString quoted(QByteArrayView bytes, qsizetype limit = quoteLimit);

// One hex digit's value (either case), or -1: the one reader of %XX and \uXXXX escapes.
constexpr int hexValue(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

} // namespace sluice::bytes
