#include "exporter.h"

#include "codec.h"
#include "exportsteps.h"

#include "core/common/names.h"

// The export targets: JSON and YAML are the rule file itself (codec.h); nginx, envoy ratelimit
// and Kong each have a file of their own (export_nginx.cpp, export_envoy.cpp, export_kong.cpp)
// over the steps they share (exportsteps.h).

namespace sluice::rules {

constexpr Named<ExportFormat> formatNames[] = {{ExportFormat::Json, u"json"},
                                               {ExportFormat::Yaml, u"yaml"},
                                               {ExportFormat::Nginx, u"nginx"},
                                               {ExportFormat::Envoy, u"envoy"},
                                               {ExportFormat::Kong, u"kong"}};

std::optional<ExportFormat> exportFormatFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("yml")) {
        return ExportFormat::Yaml;
    }
    return valueNamed(formatNames, n);
}

QString exportFormatName(ExportFormat f)
{
    return nameIn(formatNames, f, u"kong");
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
