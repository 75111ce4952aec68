#pragma once

// What the export targets share (exporter.h renders through them): the comment lines and the
// rule summaries every target with comments writes, the checks every foreign target makes
// first, how a left-out rule or override is listed, and the calendar windows envoy ratelimit
// and Kong count. One file per target beside it: export_nginx.cpp (limit_req and
// auth_request), export_envoy.cpp, export_kong.cpp; exporter.cpp picks the target.
//
// The exporters never see an Endpoint: a rule set holds no connection details, so no export
// can leak a password or a redis:// URL.

#include "exporter.h"
#include "rule.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace sluice::rules::exporting {

using Skipped = Export::Skipped;

// One line of free text for a comment: control characters (a newline would end the comment
// and start a directive) become spaces.
QString oneLine(const QString &text);

QString scopeText(const Scope &s);

// "fixed_window 3 per 5s", "leaky_bucket 10/s capacity 50", "gcra 10/s burst 5"
QString paramsText(const Rule &r);

// "hello-per-ip: fixed_window 3 per 5s, scope ip, route GET /hello"
QString ruleSummary(const Rule &r);

QString routeText(const Rule &r);

// The comment lines every export with comments starts with: generator and rule file version.
QStringList banner(const RuleSet &set, const QString &format, const QString &target);

QString commentBlock(const QStringList &lines);

// Checks shared by every foreign target. Returns the reason to skip, or empty. A set read from
// a file is valid already; a set built in code may not be, and an invalid rule is never
// rendered (a newline in a description would end a comment and start a directive).
QString commonSkipReason(const Rule &r);

QString skippedLines(const QList<Skipped> &skipped, const QString &what);

// An override left out of an export: listed under "<rule> overrides[j]" with why.
void skipOverride(QList<Skipped> &skipped, const Rule &r, size_t j, const QString &why);

// A rule's on_change other than keep_used, left out of a target that meets a new limit with
// its running counters as they are (what keep_used does): listed under "<rule> on_change".
void skipOnChange(QList<Skipped> &skipped, const Rule &r, const QString &target);

// "; it expires at T: the target has no expiry, remove it then" for a comment, or "".
QString expiryNote(const Override &o);

// A glob of "match" as a PCRE anchored at both ends, for nginx map's ~ entries.
QString globRegex(const QString &glob);

// envoyproxy/ratelimit and Kong: calendar windows.
// They/ratelimit and Kong's rate-limiting count calendar-aligned fixed windows of one
// second, minute, hour or day. Our fixed window starts with its first admitted request; the
// number admitted per window is the same, where the window starts differs (said in a comment
// where the format has comments). Only fixed_window rules with exactly such a window export.
const char *unitFor(qint64 windowUs);

// The reason a rule cannot be one calendar window of `target`, or empty.
QString windowSkipReason(const Rule &r, const QString &target);

// The targets (exporter.cpp exportRules picks one).
Export exportNginx(const RuleSet &set);
Export exportEnvoy(const RuleSet &set);
Export exportKong(const RuleSet &set);

} // namespace sluice::rules::exporting
