#pragma once

#include "core/keys/keyinfo.h"

#include <QColor>
#include <QIcon>
#include <QString>

// How the Keys page shows a key's bytes, its TTL and its verdict. Pure functions of values,
// GUI thread (icons are pixmaps).
namespace sluice::ui::keypresentation {

// Key bytes as one line of text: bytes::printable (core/common/bytes.h), the rule the CLI and
// the service print keys by, so a key reads the same on every face.
QString displayBytes(const QByteArray &bytes);

// A TTL for a table cell, live: "0.8 s", "42 s", "3 min 12 s", "2 h 5 min", "3 d 4 h".
QString ttlText(qint64 ms);

// The flag of a verdict: words, colour and icon (never colour alone): red "never expires"
// with an infinity sign, amber "TTL too long" with a warning triangle, grey "no rule" with a
// question mark, purple "wrong type" with a cross, green "ok" with a tick.
QString flagText(keys::Health health);
// The same words as a column title ("Never expires", "TTL too long", "Wrong type"): the
// audit's columns say what the Keys page's flags and the CLI's health ids say.
QString flagTitle(keys::Health health);
QColor flagColor(keys::Health health);
QIcon flagIcon(keys::Health health);
// Worst first, for sorting the flag column: wrong type, never expires, too long, no rule, ok.
int flagSeverity(keys::Health health);

} // namespace sluice::ui::keypresentation
