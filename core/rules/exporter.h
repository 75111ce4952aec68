#pragma once

#include "rule.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sluice::rules {

// A rule set rendered for another system. Rules the target cannot express are left out and
// listed in `skipped`, each with the reason, so the CLI (stderr) and the console can say so.
// Exports never contain passwords or connection details.
struct Export
{
    QByteArray text;
    struct Skipped
    {
        QString ruleId;
        QString reason;
    };
    QList<Skipped> skipped;
};

enum class ExportFormat { Json, Yaml, Nginx, Envoy, Kong };
std::optional<ExportFormat> exportFormatFromName(const QString &name);
QString exportFormatName(ExportFormat f);

// Json and Yaml write the normalized rule file (codec.h) and skip nothing.
// Nginx: one file to include in http {}: limit_req_zone lines, limit_req_status 429, and per
//   rule a comment with the limit_req line for its route's location; leaky_bucket (burst,
//   delay), gcra (burst, nodelay) and token_bucket (the same meter: burst B-1, nodelay).
// Envoy: the ratelimit service YAML: one domain, descriptors for fixed_window rules.
// Kong: rate-limiting plugin configurations (JSON) for fixed windows that map to its periods.
Export exportRules(const RuleSet &set, ExportFormat format);

} // namespace sluice::rules
