#include "exportsteps.h"

#include <QRegularExpression>
#include <QSet>

#include <numeric>
#include <optional>
#include <variant>

// nginx, both forms: limit_req (exportNginx, `rules export --format nginx`) and auth_request in
// front of the check service (exportNginxAuth, `--format nginx-auth`).
//
// nginx limit_req is one meter: per key an "excess" e (in requests) that drains at the rate;
// a request computes e' = max(0, e - rate x dt + 1) (a new key starts at e' = 0), is rejected
// when e' > burst (rejections change nothing), and is delayed by e' / rate unless nodelay.
// Sluice's algorithms map onto it exactly where the state is the same meter:
//   gcra(rate, burst b):          e = (TAT - now) / T - 1 after an admission; admit iff
//                                 (TAT - now) / T <= b  ==  nginx "burst=b nodelay".
//   token_bucket(rate, cap B):    tokens = B - (TAT - now) / T: GCRA with burst B - 1, so
//                                 nginx "burst=B-1 nodelay".
//   leaky_bucket(rate, cap B):    queue level L = e + 1 after an admission; admit iff
//                                 drained L + 1 <= B, delay = drained L / rate: nginx
//                                 "burst=B-1" without nodelay (delay= defaults to 0, so every
//                                 excess request waits e' / rate, exactly our delay_ms).
// The windows (fixed, sliding log, sliding counter) count N per W; no rate + burst reproduces
// that, so they are skipped. nginx rates are integer r/s or r/m (kept internally in 1/1000
// r/s): a rate is written as r/s when that is a whole number, else as r/m when that is; any
// other rate (7/9s, 1/h) is skipped rather than silently rounded. A whole r/m that is not a
// multiple of 3 is written as is, with a comment, because nginx itself rounds it down to
// 1/1000 r/s (10r/m runs as 0.166 r/s): that is what the nginx user would write for it.

namespace sluice::rules {

namespace exporting {

namespace {

constexpr qint64 maxNginxNumber = 1000000000; // rates and bursts: far inside nginx's integers

struct NginxRate
{
    QString text; // "10r/s", "42r/m"
    QString note; // non-empty when nginx itself rounds the rate
};

// The rate as nginx writes it, exactly, or the reason it cannot be.
std::variant<NginxRate, QString> nginxRate(const Rate &rate)
{
    const qint64 g = std::gcd(rate.count, rate.periodUs);
    const qint64 c = rate.count / g; // the rate is c per p microseconds, in lowest terms
    const qint64 p = rate.periodUs / g;
    const QString spelled = duration::formatRate(rate);
    // c per p as a whole count per `unitUs` (its spelling `unit`), or the reason it is too high;
    // nothing when it is no whole count.
    const auto whole = [&](qint64 unitUs,
                           const char *unit) -> std::optional<std::variant<qint64, QString>> {
        if (unitUs % p != 0) {
            return std::nullopt;
        }
        const qint64 factor = unitUs / p;
        if (c > maxNginxNumber / factor) {
            return QStringLiteral("rate %1 is above %2 r/%3, more than nginx counts reliably")
                .arg(spelled)
                .arg(maxNginxNumber)
                .arg(QLatin1String(unit));
        }
        return c * factor;
    };
    if (const auto perSecond = whole(duration::usPerSecond, "s")) {
        if (const QString *why = std::get_if<QString>(&*perSecond)) {
            return *why;
        }
        return NginxRate{QStringLiteral("%1r/s").arg(std::get<qint64>(*perSecond)), {}};
    }
    if (const auto perMinute = whole(duration::usPerMinute, "m")) {
        if (const QString *why = std::get_if<QString>(&*perMinute)) {
            return *why;
        }
        const qint64 m = std::get<qint64>(*perMinute);
        NginxRate out{QStringLiteral("%1r/m").arg(m), {}};
        if (m % 3 != 0) {
            // nginx: ctx->rate = rate * 1000 / 60, in 1/1000 r/s, rounded down.
            const qint64 milli = m * 1000 / 60;
            out.note = QStringLiteral("nginx keeps rates in 1/1000 r/s: %1r/m runs as %2.%3 r/s, "
                                      "slightly below %1/m")
                           .arg(m)
                           .arg(milli / 1000)
                           .arg(milli % 1000, 3, 10, QLatin1Char('0'));
        }
        return out;
    }
    // Below 1/m, or a whole number of neither r/s nor r/m.
    if (c <= (p - 1) / duration::usPerMinute) { // c x 60s < p: less than one per minute
        return QStringLiteral("rate %1 is slower than 1 request per minute, the slowest rate "
                              "nginx can write (integer r/s or r/m)")
            .arg(spelled);
    }
    return QStringLiteral("rate %1 is not a whole number of requests per second or per minute; "
                          "nginx rates are integer r/s or r/m and rounding would change the rule")
        .arg(spelled);
}

QString zoneName(const QString &id, QSet<QString> &taken)
{
    QString base = QStringLiteral("sluice_");
    for (QChar ch : id) {
        const bool ok = (ch >= QLatin1Char('a') && ch <= QLatin1Char('z')) ||
                        (ch >= QLatin1Char('A') && ch <= QLatin1Char('Z')) ||
                        (ch >= QLatin1Char('0') && ch <= QLatin1Char('9')) ||
                        ch == QLatin1Char('_');
        base += ok ? ch : QLatin1Char('_');
    }
    QString name = base;
    for (int n = 2; taken.contains(name); ++n) {
        name = base + QLatin1Char('_') + QString::number(n); // "a.b" and "a-b" both sanitize to a_b
    }
    taken.insert(name);
    return name;
}

// How an nginx export names a rule's subject, for both forms: limit_req (exportNginx) keys a
// shared-memory zone with it, auth_request (exportNginxAuth) sends it to the check service in
// the Sluice-Subject header. The differences are the use's, on purpose:
// - ip: limit_req keys by $binary_remote_addr (4 or 16 bytes per zone entry, what the nginx
//   documentation uses); a header carries text, so auth_request sends $remote_addr;
// - global: limit_req's constant key is the zone's name (the caller knows it: `variable` is
//   empty); auth_request sends "global", the subject Sluice itself uses;
// - header and param: what happens without a value is said in the terms of each use, and the
//   service stores what nginx sends, so auth_request says that $arg_ is still percent-encoded.
// `skip` is set (and nothing else) when nginx cannot name the subject.
enum class NginxUse { LimitReq, AuthRequest };
struct NginxSubject
{
    QString variable;
    QStringList notes;
    QString skip;
};

NginxSubject nginxSubject(const Scope &scope, NginxUse use)
{
    static const QRegularExpression headerName(QStringLiteral("^[A-Za-z0-9_-]+$"));
    static const QRegularExpression paramName(QStringLiteral("^[A-Za-z0-9_]+$"));
    const bool limitReq = use == NginxUse::LimitReq;
    NginxSubject out;
    switch (scope.kind) {
    case Scope::Kind::Global:
        out.variable = limitReq ? QString() : QStringLiteral("\"global\"");
        out.notes << (limitReq ? QStringLiteral("Scope global: one state for every request (a "
                                                "constant key).")
                               : QStringLiteral("Scope global: one state for every request."));
        break;
    case Scope::Kind::Ip:
        out.variable =
            limitReq ? QStringLiteral("$binary_remote_addr") : QStringLiteral("$remote_addr");
        out.notes << QStringLiteral("Scope ip: the client address as nginx sees it (behind a "
                                    "proxy, configure the realip module).");
        break;
    case Scope::Kind::User:
        out.skip = QStringLiteral("scope user: nginx has no variable for the authenticated user "
                                  "($remote_user is HTTP Basic auth only; requests without it "
                                  "would not be limited at all); use a header:<Name> scope with "
                                  "the header that carries the user");
        break;
    case Scope::Kind::Header:
        if (!headerName.match(scope.name).hasMatch()) {
            out.skip = QStringLiteral("scope header:%1: nginx variables can only name headers "
                                      "made of letters, digits, '-' and '_'")
                           .arg(scope.name);
            break;
        }
        out.variable = QStringLiteral("$http_") +
                       scope.name.toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
        out.notes << QStringLiteral("Scope header:%1: requests without the header are not "
                                    "limited (%2).")
                         .arg(scope.name, limitReq
                                              ? QStringLiteral("nginx does not account an empty "
                                                               "key")
                                              : QStringLiteral("the service gets no subject"));
        if (scope.name.contains(QLatin1Char('_'))) {
            out.notes << QStringLiteral("The header name has '_': nginx drops such headers "
                                        "unless underscores_in_headers is on.");
        }
        break;
    case Scope::Kind::Param:
        if (!paramName.match(scope.name).hasMatch()) {
            out.skip = QStringLiteral("scope param:%1: nginx $arg_ variables can only name query "
                                      "parameters made of letters, digits and '_'")
                           .arg(scope.name);
            break;
        }
        out.variable = QStringLiteral("$arg_") + scope.name;
        out.notes << (limitReq ? QStringLiteral("Scope param:%1: requests without the parameter "
                                                "are not limited (nginx does not account an "
                                                "empty key).")
                                     .arg(scope.name)
                               : QStringLiteral("Scope param:%1: the value as the client wrote "
                                                "it (still percent-encoded); requests without "
                                                "it are not limited.")
                                     .arg(scope.name));
        break;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// auth_request in front of the HTTP check service

bool isServiceUrl(const QString &url)
{
    static const QRegularExpression re(
        QStringLiteral("^http://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]):[0-9]{1,5}/?$"));
    return re.match(url).hasMatch();
}

bool isUpstreamUrl(const QString &url)
{
    static const QRegularExpression re(QStringLiteral(
        "^https?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?(/[A-Za-z0-9._~/%-]*)?$"));
    return re.match(url).hasMatch();
}

bool isListen(const QString &listen)
{
    static const QRegularExpression re(
        QStringLiteral("^(([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]):)?[0-9]{1,5}$"));
    return re.match(listen).hasMatch();
}

// The path of a route ("GET /hello" or "/hello"), if it is one nginx can take as a location
// prefix as it is; else empty.
QString routePath(const QString &route)
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*(?:[A-Z]+\\s+)?(/[A-Za-z0-9._~/%!$&'()*+,:=@-]*)\\s*$"));
    const auto m = re.match(route);
    return m.hasMatch() ? m.captured(1) : QString();
}

// One rule as a limit_req zone: what it needs once it is known nginx can say it.
struct NginxZone
{
    const Rule &rule;
    NginxSubject subject;
    NginxRate rate;
    qint64 burst = 0; // nginx's burst=
    QString zone;
    QString key; // the zone's key: the subject's variable, the zone's name, or the override map
};

// The rule as a zone, or the reason it cannot be one (the first that applies).
std::variant<NginxZone, QString> nginxZone(const Rule &r, QSet<QString> &zones)
{
    if (QString why = commonSkipReason(r); !why.isEmpty()) {
        return why;
    }
    if (algorithm::isWindow(r.algorithm)) {
        return QStringLiteral("%1: nginx limit_req is a rate with a burst allowance (a leaky "
                              "bucket); it cannot count %2 requests per %3")
            .arg(algorithm::name(r.algorithm))
            .arg(r.limit)
            .arg(duration::formatUs(r.windowUs));
    }
    NginxSubject subject = nginxSubject(r.scope, NginxUse::LimitReq);
    if (!subject.skip.isEmpty()) {
        return subject.skip;
    }
    const auto rate = nginxRate(r.rate);
    if (const QString *why = std::get_if<QString>(&rate)) {
        return *why;
    }
    const qint64 burst = r.algorithm == Algorithm::Gcra ? r.burst : r.burst - 1;
    if (burst > maxNginxNumber) {
        return QStringLiteral("burst %1 is above %2, more than nginx counts reliably")
            .arg(r.burst)
            .arg(maxNginxNumber);
    }
    NginxZone z{r, std::move(subject), std::get<NginxRate>(rate), burst, zoneName(r.id, zones), {}};
    z.key = r.scope.kind == Scope::Kind::Global ? QLatin1Char('"') + z.zone + QLatin1Char('"')
                                                : z.subject.variable;
    return z;
}

// The overrides' entries, allowed and denied: a geo entry (scope ip: addresses and networks)
// or a map entry (the other scopes: exact values and globs as regular expressions). What
// nginx cannot say is listed in `skipped`.
struct NginxOverrideLines
{
    QStringList allow;
    QStringList deny;
};

NginxOverrideLines nginxOverrideLines(const Rule &r, QList<Skipped> &skipped)
{
    NginxOverrideLines out;
    const bool ipScope = r.scope.kind == Scope::Kind::Ip;
    for (size_t j = 0; j < r.overrides.size(); ++j) {
        const Override &o = r.overrides[j];
        if (o.action == Override::Action::Limit) {
            skipOverride(skipped, r, j,
                         QStringLiteral("an override limit would need a zone of its own and a "
                                        "second limit_req that the others skip; left out"));
            continue;
        }
        if (r.scope.kind == Scope::Kind::Global) {
            continue; // validation: a global rule's subject is constant
        }
        QString entry;
        if (ipScope) {
            if (o.kind == Override::Kind::Glob) {
                skipOverride(skipped, r, j,
                             QStringLiteral("nginx geo matches addresses and networks, not "
                                            "globs; left out"));
                continue;
            }
            entry = o.pattern;
        } else if (o.kind == Override::Kind::Glob) {
            entry = QStringLiteral("\"~") + globRegex(o.pattern) + QLatin1Char('"');
        } else {
            entry = QLatin1Char('"') +
                    QString(o.pattern).replace(QLatin1Char('"'), QStringLiteral("\\\"")) +
                    QLatin1Char('"');
        }
        // geo values are literal (no variables): there, an allowed address is marked 1 and a
        // map turns the mark into the key.
        const bool emptyKey = o.action == Override::Action::Allow && !ipScope;
        (o.action == Override::Action::Allow ? out.allow : out.deny)
            << QStringLiteral("    %1 %2;")
                       .arg(entry, emptyKey ? QStringLiteral("\"\"") : QStringLiteral("1")) +
                   (expiryNote(o).isEmpty() ? QString() : QStringLiteral("  #") + expiryNote(o));
    }
    return out;
}

// Overrides: allow and deny through a geo or a map in front of limit_req. An allowed subject
// gets an empty key (nginx does not account it: `z.key` becomes the map's variable); a denied
// one sets `denyVar`, a variable the location answers 429 for. Returns the blocks.
QString nginxOverrideBlocks(NginxZone &z, const NginxOverrideLines &lines, QString &denyVar)
{
    const bool ipScope = z.rule.scope.kind == Scope::Kind::Ip;
    const QString source = ipScope ? QStringLiteral("$remote_addr") : z.subject.variable;
    QString blocks;
    if (!lines.allow.isEmpty()) {
        const QString var = QStringLiteral("$sluice_key_") + z.zone;
        if (ipScope) {
            const QString mark = QStringLiteral("$sluice_allow_") + z.zone;
            blocks += QStringLiteral("geo %1 {\n    default 0;\n").arg(mark) +
                      lines.allow.join(QLatin1Char('\n')) + QStringLiteral("\n}\n") +
                      QStringLiteral("map %1 %2 {\n    1 \"\";\n    default %3;\n}\n")
                          .arg(mark, var, z.key);
        } else {
            blocks += QStringLiteral("map %1 %2 {\n    default %3;\n").arg(source, var, z.key) +
                      lines.allow.join(QLatin1Char('\n')) + QStringLiteral("\n}\n");
        }
        z.key = var;
    }
    if (!lines.deny.isEmpty()) {
        denyVar = QStringLiteral("$sluice_deny_") + z.zone;
        blocks += (ipScope ? QStringLiteral("geo %1 {\n").arg(denyVar)
                           : QStringLiteral("map %1 %2 {\n").arg(source, denyVar)) +
                  QStringLiteral("    default 0;\n") + lines.deny.join(QLatin1Char('\n')) +
                  QStringLiteral("\n}\n");
    }
    return blocks;
}

// How the algorithm maps onto limit_req's one meter, for the rule's comment.
QString nginxAlgorithmNote(const Rule &r, qint64 burst)
{
    switch (r.algorithm) {
    case Algorithm::Gcra:
        return QStringLiteral("gcra burst %1 = nginx burst=%1 nodelay: %2 requests at once, "
                              "then one per 1/rate; rejected beyond that.")
            .arg(r.burst)
            .arg(r.burst + 1);
    case Algorithm::TokenBucket:
        return QStringLiteral("token_bucket capacity %1 = the GCRA meter with burst %2 = nginx "
                              "burst=%2 nodelay: %1 requests at once, then the rate.")
            .arg(r.burst)
            .arg(burst);
    default: // LeakyBucket
        if (burst == 0) {
            return QStringLiteral("leaky_bucket capacity 1 = nginx without burst: one request at "
                                  "a time, at the rate; rejected beyond that.");
        }
        return QStringLiteral("leaky_bucket capacity %1 = nginx burst=%2 without nodelay: %1 "
                              "requests in the queue (the one released now and %2 waiting), "
                              "each delayed until the queue drains at the rate; rejected "
                              "beyond that.")
            .arg(r.burst)
            .arg(burst);
    }
}

// "limit_req zone=Z burst=B nodelay;" as the location writes it.
QString nginxLimitReq(const NginxZone &z)
{
    QString line = QStringLiteral("limit_req zone=") + z.zone;
    if (z.burst > 0) {
        line += QStringLiteral(" burst=%1").arg(z.burst);
    }
    if (z.rule.algorithm != Algorithm::LeakyBucket && z.burst > 0) {
        line += QStringLiteral(" nodelay");
    }
    return line + QLatin1Char(';');
}

// One rule: its comment, its override blocks, its limit_req_zone, and the lines its location
// takes.
QString nginxRuleText(NginxZone &z, const NginxOverrideLines &lines)
{
    const Rule &r = z.rule;
    QString denyVar;
    const QString overrideBlocks = nginxOverrideBlocks(z, lines, denyVar);
    QStringList notes = z.subject.notes;
    notes.prepend(nginxAlgorithmNote(r, z.burst));
    if (!z.rate.note.isEmpty()) {
        notes << z.rate.note + QLatin1Char('.');
    }
    const bool global = r.scope.kind == Scope::Kind::Global;
    if (!global) {
        notes << QStringLiteral("Zone 10m: about 80,000 subjects (128-byte states); when it is "
                                "full nginx evicts the least recently used.");
    }
    QStringList comment{ruleSummary(r)};
    if (const QString d = oneLine(r.description); !d.isEmpty()) {
        comment << d;
    }
    comment << notes;
    QString text = QLatin1Char('\n') + commentBlock(comment) + overrideBlocks;
    text +=
        QStringLiteral("limit_req_zone %1 zone=%2:%3 rate=%4;\n")
            .arg(z.key, z.zone, global ? QStringLiteral("1m") : QStringLiteral("10m"), z.rate.text);
    QStringList usage{QStringLiteral("In the location of %1:").arg(routeText(r))};
    if (!denyVar.isEmpty()) {
        usage << QStringLiteral("  if (%1) { return 429; }").arg(denyVar);
    }
    usage << QStringLiteral("  ") + nginxLimitReq(z);
    if (r.shadow) {
        usage << QStringLiteral("  limit_req_dry_run on;")
              << QStringLiteral("(shadow: decide and record in $limit_req_status, never "
                                "delay or reject; dry run covers every limit_req of that "
                                "location)");
    }
    return text + commentBlock(usage);
}

} // namespace

Export exportNginx(const RuleSet &set)
{
    Export out;
    QSet<QString> zones;
    QString body;
    for (const Rule &r : set.rules) {
        auto zone = nginxZone(r, zones);
        if (const QString *why = std::get_if<QString>(&zone)) {
            out.skipped.append({r.id, *why});
            continue;
        }
        skipOnChange(out.skipped, r, QStringLiteral("nginx"));
        const NginxOverrideLines lines = nginxOverrideLines(r, out.skipped);
        body += nginxRuleText(std::get<NginxZone>(zone), lines);
    }
    QStringList head =
        banner(set, QStringLiteral("nginx"), QStringLiteral("nginx limit_req zones"));
    head << QString()
         << QStringLiteral("Include this file in the http {} block. For each rule, put the "
                           "limit_req line shown")
         << QStringLiteral("below its zone in the location of the rule's route. Every nginx "
                           "instance counts on its own:")
         << QStringLiteral("there is no shared state as in Redis.");
    QString text = commentBlock(head);
    text += skippedLines(out.skipped, QStringLiteral("nginx limit_req cannot express them"));
    text += QStringLiteral("\nlimit_req_status 429;\n");
    text += body;
    out.text = text.toUtf8();
    return out;
}

} // namespace exporting

using namespace exporting;

Result<void> validateNginxAuthOptions(const NginxAuthOptions &o)
{
    auto invalid = [](const QString &m) { return Error::make(Error::Kind::Invalid, m); };
    if (!isServiceUrl(o.service)) {
        return invalid(QStringLiteral("--service '%1': expected http://HOST:PORT of sluice-cli "
                                      "serve, e.g. http://127.0.0.1:9090")
                           .arg(oneLine(o.service)));
    }
    if (!isUpstreamUrl(o.upstream)) {
        return invalid(QStringLiteral("--upstream '%1': expected http(s)://HOST[:PORT][/path] of "
                                      "the application nginx fronts, e.g. http://127.0.0.1:3000")
                           .arg(oneLine(o.upstream)));
    }
    if (!isListen(o.listen)) {
        return invalid(QStringLiteral("--listen '%1': expected PORT or ADDRESS:PORT for nginx, "
                                      "e.g. 8080 or 127.0.0.1:8080")
                           .arg(oneLine(o.listen)));
    }
    return {};
}

Export exportNginxAuth(const RuleSet &set, const NginxAuthOptions &options)
{
    Export out;
    QString service = options.service;
    if (service.endsWith(QLatin1Char('/'))) {
        service.chop(1);
    }
    const QString serviceHost = service.mid(int(qstrlen("http://")));
    QMap<QString, QString> pathOwner; // path -> rule id
    QString body;
    for (const Rule &r : set.rules) {
        auto skip = [&](const QString &reason) { out.skipped.append({r.id, reason}); };
        if (QString why = commonSkipReason(r); !why.isEmpty()) {
            skip(why);
            continue;
        }
        const QString path = routePath(r.route);
        if (path.isEmpty()) {
            skip(r.route.trimmed().isEmpty()
                     ? QStringLiteral("no route: nginx needs the path to guard (\"route\": "
                                      "\"GET /path\")")
                     : QStringLiteral("route '%1' is not \"[METHOD] /path\" with characters "
                                      "an nginx location takes as they are")
                           .arg(oneLine(r.route)));
            continue;
        }
        if (pathOwner.contains(path)) {
            skip(QStringLiteral("path %1 is guarded by rule '%2' already: nginx runs one "
                                "auth_request per location")
                     .arg(path, pathOwner.value(path)));
            continue;
        }
        const NginxSubject named = nginxSubject(r.scope, NginxUse::AuthRequest);
        if (!named.skip.isEmpty()) {
            skip(named.skip);
            continue;
        }
        const QString &subject = named.variable;
        pathOwner.insert(path, r.id);
        QStringList lines{ruleSummary(r)};
        if (const QString d = oneLine(r.description); !d.isEmpty()) {
            lines << d;
        }
        lines << named.notes;
        if (r.route.trimmed().contains(QLatin1Char(' '))) {
            lines << QStringLiteral("The location guards every method of %1.").arg(path);
        }
        if (r.shadow) {
            lines << QStringLiteral("Shadow rule: the service decides and records, and always "
                                    "admits (Sluice-Decision: shadow-denied).");
        }
        body += QLatin1Char('\n');
        for (const QString &l : commentBlock(lines).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            body += QStringLiteral("    ") + l + QLatin1Char('\n');
        }
        body += QStringLiteral(
                    "    location = /_sluice/%1 {\n"
                    "        internal;\n"
                    "        proxy_pass http://sluice_check_service/v1/auth?rule=%1;\n"
                    "        proxy_pass_request_body off;\n"
                    "        proxy_pass_request_headers off;\n"
                    "        proxy_set_header Content-Length \"\";\n"
                    "        proxy_set_header Sluice-Subject %2;\n"
                    "        proxy_http_version 1.1;\n"
                    "        proxy_set_header Connection \"\";\n"
                    "    }\n"
                    "    location %3 {\n"
                    "        auth_request /_sluice/%1;\n"
                    "        auth_request_set $sluice_retry_after $upstream_http_retry_after;\n"
                    "        auth_request_set $sluice_ratelimit_policy "
                    "$upstream_http_ratelimit_policy;\n"
                    "        auth_request_set $sluice_ratelimit $upstream_http_ratelimit;\n"
                    "        error_page 403 = @sluice_rate_limited;\n"
                    "        add_header RateLimit-Policy $sluice_ratelimit_policy always;\n"
                    "        add_header RateLimit $sluice_ratelimit always;\n"
                    "        proxy_pass %4;\n"
                    "    }\n")
                    .arg(r.id, subject, path, options.upstream);
    }

    QStringList head = banner(set, QStringLiteral("nginx-auth"),
                              QStringLiteral("nginx in front of an upstream, asking the Sluice "
                                             "HTTP check service"));
    head << QString()
         << QStringLiteral("Include this file in the http {} block. Its server listens on %1, "
                           "asks the service")
                .arg(options.listen)
         << QStringLiteral("(sluice-cli serve) at %1 before each request of a rule's route "
                           "(auth_request),")
                .arg(service)
         << QStringLiteral("and proxies admitted requests to %1. Denied requests get 429 with "
                           "Retry-After;")
                .arg(options.upstream)
         << QStringLiteral("admitted ones carry RateLimit-Policy and RateLimit. Every nginx "
                           "shares the state in Redis")
         << QStringLiteral("through the service. If the service cannot be reached, nginx "
                           "answers 500 (auth_request")
         << QStringLiteral("fails closed); the service itself applies each rule's "
                           "on_redis_error when Redis is down.");
    QString text = commentBlock(head);
    text += skippedLines(out.skipped, QStringLiteral("no location to guard"));
    text += QStringLiteral("\nupstream sluice_check_service {\n"
                           "    server %1;\n"
                           "    keepalive 16;\n"
                           "}\n\n"
                           "server {\n"
                           "    listen %2;\n\n"
                           "    # The service answers auth_request with 403 when it denies: the "
                           "client gets 429.\n"
                           "    location @sluice_rate_limited {\n"
                           "        default_type application/json;\n"
                           "        add_header Retry-After $sluice_retry_after always;\n"
                           "        add_header RateLimit-Policy $sluice_ratelimit_policy always;\n"
                           "        add_header RateLimit $sluice_ratelimit always;\n"
                           "        return 429 '{\"status\":429,\"error\":\"rate_limited\","
                           "\"message\":\"too many requests; retry after Retry-After "
                           "seconds\"}\\n';\n"
                           "    }\n")
                .arg(serviceHost, options.listen);
    text += body;
    text += QStringLiteral("}\n");
    out.text = text.toUtf8();
    return out;
}

} // namespace sluice::rules
