#pragma once

#include "keys/keyinfo.h"

#include <QColor>
#include <QIcon>
#include <QString>

// How the Keys page shows a key's bytes, its TTL and its verdict. Pure functions of values,
// GUI thread (icons are pixmaps).
namespace sluice::ui::keypresentation {

// Key bytes as one line of text: printable ASCII and valid UTF-8 as they are, "\n", "\r",
// "\t" and "\\" escaped, every other byte as \xNN. Nothing is lost: two different keys never
// look the same.
QString displayBytes(const QByteArray &bytes);

// A TTL for a table cell, live: "0.8 s", "42 s", "3 min 12 s", "2 h 5 min", "3 d 4 h".
QString ttlText(qint64 ms);

// The flag of a verdict: words, colour and icon (never colour alone): red "never expires"
// with an infinity sign, amber "TTL too long" with a warning triangle, grey "no rule" with a
// question mark, purple "wrong type" with a cross, green "ok" with a tick.
QString flagText(keys::Health health);
QColor flagColor(keys::Health health);
QIcon flagIcon(keys::Health health);
// Worst first, for sorting the flag column: wrong type, never expires, too long, no rule, ok.
int flagSeverity(keys::Health health);

} // namespace sluice::ui::keypresentation
