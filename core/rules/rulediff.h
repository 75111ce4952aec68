#pragma once

#include "rule.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace sluice::rules {

// What changes from one rule set to another, rule by rule and field by field: the push
// preview ("the store has v7; pushing adds a, changes b's limit 3 -> 5, removes c"), the
// console's history panel and `sluice-cli rules diff`.
struct RuleDiff
{
    struct Field
    {
        QString name; // in the file's spelling: "limit", "window", ...
        QString from; // empty: the field is new (a parameter of the other algorithm family)
        QString to;
    };
    struct Change
    {
        QString id;
        // One line per changed field, in the file's spelling: "limit: 3 → 5".
        QStringList fields;
        // The same, as values (the command line's --json).
        QList<Field> values;
    };
    QList<Rule> added;   // in `to`, not in `from` (by id)
    QList<Rule> removed; // in `from`, not in `to`
    QList<Change> changed;

    bool isEmpty() const { return added.isEmpty() && removed.isEmpty() && changed.isEmpty(); }
};

RuleDiff diffRules(const RuleSet &from, const RuleSet &to);

// The fields of a rule as a rule file writes them (name, value), parameters of the other
// algorithm family left out: what the diff compares.
QList<QPair<QString, QString>> ruleFields(const Rule &rule);

} // namespace sluice::rules
