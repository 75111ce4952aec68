#pragma once

#include <QByteArray>
#include <QString>

namespace sluice::bytes {

// Bytes (a key, a subject, a user's argument) as one line of text that a terminal, a JSON
// document and a table cell can carry, by one rule for every face (FORMATS.md): printable
// ASCII as it is, a UTF-8 sequence as it is when it decodes cleanly to a printable character,
// and every other byte, the backslash included, as `\xNN` (two lowercase hex digits). So two
// different byte strings never print the same, and the text never breaks a line.
QString printable(const QByteArray &bytes);

// What a message quotes of a user's text (a rule file's value or field name, a flag's
// argument): at most 40 characters, then "…". Every message that quotes input goes through
// it, so a 10 MB value makes a short message.
QString shortened(const QString &text);

} // namespace sluice::bytes
