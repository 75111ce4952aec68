#pragma once

#include "core/keys/audit.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

// What `sluice-cli keys audit` says after its keys: the summary by layout, as JSON and as text
// (FORMATS.md `keys audit`).
namespace sluice::cli {

// The JSON object the output ends with ({"complete":...,"groups":[...],...}); its first byte
// is the '{' the caller leaves out when it continues the object its "keys" array opened.
QByteArray auditJsonTail(const keys::AuditReport &report);

// The text summary, a line each: the table by layout, samples of each layout's flagged keys
// (at most samplesPerGroup, in `samples`), the suspects, the other keys, `scanLine`, and what
// to do next (or why nothing flagged is not the whole truth when the scan `failed`).
QStringList auditSummary(const keys::AuditReport &report,
                         const QMap<QString, QList<keys::AuditEntry>> &samples,
                         const QList<keys::AuditEntry> &suspects, int samplesPerGroup,
                         const QString &scanLine, bool failed);

} // namespace sluice::cli
