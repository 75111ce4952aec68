#pragma once

#include "core/keys/audit.h"
#include "core/keys/keyinfo.h"

#include <QByteArray>
#include <QString>

#include <string>

// The rows of `sluice-cli keys`, appended to a page's output buffer: no QJsonObject, QJsonDocument
// or QString row per key (a million keys print in a fraction of the scan's time).
namespace sluice::cli {

// One key as a --json array element, byte for byte what
// QJsonDocument(object).toJson(QJsonDocument::Compact) writes for the same object (FORMATS.md
// `keys`): members in Qt's order (sorted by name), Qt's escapes and number formats.
// tst_cli_keys compares every row with Qt's own writing of it.
void appendKeyJson(std::string &out, const keys::KeyInfo &k);

// One `keys audit --json` entry (FORMATS.md), byte for byte what QJsonDocument writes for the
// same object, members sorted by name: the audit of a million keys is not spent building
// QJsonObjects.
void appendAuditJson(std::string &out, const keys::AuditEntry &e);

// One row of the text table, and its newline.
void appendKeyRow(std::string &out, const keys::KeyInfo &k);
// The table's columns for any cells (the header): key, type, ttl, rule, subject, health, state.
QString tableRow(const QString &key, const QString &type, const QString &ttl, const QString &rule,
                 const QString &subject, const QString &health, const QString &state);

// `s` and spaces up to `width`, or one space if it is that long: a column of the tables.
QString padded(const QString &s, int width);

// 1,234,567: a count as the tables show it.
QString thousands(qint64 v);

// "never", "?" (not read) or the duration.
QString ttlText(qint64 pttl);

} // namespace sluice::cli
