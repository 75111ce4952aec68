#pragma once

#include "core/rules/rule.h"
#include "core/sim/trafficpattern.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace sluice::ui {

using FieldErrors = QHash<QString, QString>; // field key -> its message(s), one a line

// One traffic pattern as typed (FORMATS.md "Scenario file"): its kind and the fields' texts,
// keyed by their names in the file ("rate", "from_rate", "at", ...). Widget-free: the
// Simulation page keeps a list of them, the Load page one; PatternForm shows one.
struct PatternDraft
{
    Q_DECLARE_TR_FUNCTIONS(PatternDraft)
public:
    QString kind = QStringLiteral("constant");
    QHash<QString, QString> values;

    // The fields a kind takes, in the editor's order.
    static QStringList keys(const QString &kind);
    QStringList keys() const { return keys(kind); }
    // The kind's name in the user's language ("Constant").
    static QString kindTitle(const QString &kind);
    // What the kind does, in a sentence.
    static QString kindNote(const QString &kind);

    static PatternDraft from(const sim::TrafficPattern &p);
    // The pattern as a scenario file writes it (the fields of its kind that are filled).
    QJsonObject toJson() const;
    // "constant 10/s, 1s to end", for a list.
    QString summary() const;
};

// One pattern alone in a scenario of `durationText`, checked by the scenario reader (so the
// messages are the file's): the pattern when all is well, else the messages by field (the
// pattern's keys and "duration", "subjects", "seed"), and those of no field.
struct CheckedPattern
{
    std::optional<sim::TrafficPattern> pattern;
    qint64 durationUs = 0;
    FieldErrors errors;
    QStringList other;
    bool ok() const { return pattern.has_value(); }
    // The first problem in words.
    QString firstProblem() const;
};
CheckedPattern checkAlone(const PatternDraft &draft, const QString &durationText,
                          qint64 subjects = 1, quint64 seed = 1);

// A field of the draft into a scenario object: trimmed, left out when empty, a whole number
// where the file wants one (when it reads as one; otherwise the text, which the reader then
// names as wrong).
void putField(QJsonObject &o, const QString &key, const QString &raw);
// FORMATS.md's spelling of a time, 0 included ("0s", not "0d").
QString timeText(qint64 us);
// Adds a message to a field's (one a line).
void addError(FieldErrors &errors, const QString &key, const QString &message);

} // namespace sluice::ui
