#pragma once

#include "rule.h"

#include "core/common/result.h"

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
// Overrides, where the target can say them: nginx a geo (scope ip) or map (other scopes) in
//   front of limit_req for allow (an empty key) and deny (a variable the location answers 429
//   for); envoy descriptor values (unlimited, 0 per second, or the override's window) for exact
//   subjects; Kong plugins on the consumer (rate-limiting, request-termination 429) for exact
//   subjects of a user-scoped rule. What is left out is listed as "<rule> overrides[j]" in
//   `skipped`: nginx override limits and globs on ip, envoy networks and globs, Kong allow,
//   networks, globs and other scopes; no target expires an override (a comment says when).
Export exportRules(const RuleSet &set, ExportFormat format);

// nginx in front of an upstream, asking the Sluice HTTP check service (`sluice-cli serve`)
// through auth_request ("nginx-auth", `rules export --format nginx-auth`): one file to include
// in http {} with an upstream block for the service and one server that listens on `listen`.
// Per rule with a route, the location of the route's path asks GET /v1/auth?rule=ID (the
// subject from the rule's scope in the Sluice-Subject header) before proxying to `upstream`;
// a denial (403 from the service) becomes 429 with Retry-After, and RateLimit-Policy /
// RateLimit pass through on every answer. Unlike the limit_req export, every nginx shares the
// state in Redis. Skipped: rules without a route, user scope (nginx has no user variable),
// a second rule on a path that already has one (one auth_request per location).
struct NginxAuthOptions
{
    QString service;                         // http://host:port of sluice-cli serve
    QString upstream;                        // http://host:port[/path] of the application to front
    QString listen = QStringLiteral("8080"); // nginx listen: port or address:port
};
// Checks the options: the error names the option and what is expected.
Result<void> validateNginxAuthOptions(const NginxAuthOptions &options);
Export exportNginxAuth(const RuleSet &set, const NginxAuthOptions &options);

} // namespace sluice::rules
