#include "exporter.h"

#include "codec.h"
#include "exportsteps.h"

// The export targets: JSON and YAML are the rule file itself (codec.h); nginx, envoy ratelimit
// and Kong each have a file of their own (export_nginx.cpp, export_envoy.cpp, export_kong.cpp)
// over the steps they share (exportsteps.h).

namespace sluice::rules {

std::optional<ExportFormat> exportFormatFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("yml")) {
        return ExportFormat::Yaml;
    }
    for (ExportFormat f : {ExportFormat::Json, ExportFormat::Yaml, ExportFormat::Nginx,
                           ExportFormat::Envoy, ExportFormat::Kong}) {
        if (exportFormatName(f) == n) {
            return f;
        }
    }
    return std::nullopt;
}

QString exportFormatName(ExportFormat f)
{
    switch (f) {
    case ExportFormat::Json:
        return QStringLiteral("json");
    case ExportFormat::Yaml:
        return QStringLiteral("yaml");
    case ExportFormat::Nginx:
        return QStringLiteral("nginx");
    case ExportFormat::Envoy:
        return QStringLiteral("envoy");
    case ExportFormat::Kong:
        break;
    }
    return QStringLiteral("kong");
}

Export exportRules(const RuleSet &set, ExportFormat format)
{
    switch (format) {
    case ExportFormat::Json:
        return Export{toJson(set), {}};
    case ExportFormat::Yaml:
        return Export{toYaml(set), {}};
    case ExportFormat::Nginx:
        return exporting::exportNginx(set);
    case ExportFormat::Envoy:
        return exporting::exportEnvoy(set);
    case ExportFormat::Kong:
        break;
    }
    return exporting::exportKong(set);
}

} // namespace sluice::rules
