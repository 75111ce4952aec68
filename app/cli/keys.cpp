#include "keys.h"

#include "args.h"
#include "command.h"
#include "keyrows.h"
#include "keysaudit.h"
#include "keystop.h"
#include "rules.h"

#include "core/common/duration.h"
#include "core/common/plural.h"
#include "core/keys/audit.h"
#include "core/keys/keyfixer.h"
#include "core/keys/keyhealth.h"
#include "core/keys/keyscanner.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cmath>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace sluice::cli {

namespace {

using namespace sluice::keys;

// The exit of a fix run, after its output: the scan's failure, the fix's, or the keys left.
int fixExit(const QString &command, const ScanSummary &summary,
            const std::optional<Error> &fixError, qint64 failedKeys)
{
    std::fflush(stdout);
    if (summary.status == ScanSummary::Status::Failed) {
        return fail(command, summary.error->message, exitRuntime);
    }
    if (fixError) {
        return fail(command, fixError->message, exitRuntime);
    }
    return failedKeys > 0 ? fail(command,
                                 u"%1 could not be fixed (see above)"_s.arg(
                                     sluice::counted(failedKeys, u"key", u"keys")),
                                 exitRuntime)
                          : exitOk;
}

const QString usageText = usageOf(u"keys"_s);

// --scan-budget into the scanner's options; false (and the usage error printed) if bad.
bool applyScanBudget(const Args &args, const QString &command, KeyScanner::Options &options,
                     int *code)
{
    if (args.has("no-backoff")) {
        options.latencyFactor = 0; // no latency probes, no slowing down
    }
    if (!args.has("scan-budget")) {
        return true;
    }
    auto n = integerFlag(args, "scan-budget", 0, 100'000'000);
    if (!n) {
        *code = fail(command, n.error().message + usageText, exitUsage);
        return false;
    }
    options.maxKeysPerSecond = double(*n);
    return true;
}

void writeErr(const QString &line)
{
    const QByteArray b = (line + u'\n').toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
}

void writeOut(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

void writeRows(const std::string &bytes)
{
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
}

// "1 key", "2 keys": counts in sentences.
QString count(qint64 n, const QString &one, const QString &many)
{
    return u"%1 %2"_s.arg(thousands(n), n == 1 ? one : many);
}

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

struct Common
{
    Connection connection;
    std::optional<RuleSet> rules;
    QString rulesOrigin;
    QList<QByteArray> patterns;
};

// --url, then the rules (optional unless `needRules`), then the connection.
std::optional<Common> setUp(const Args &args, const QString &command, bool needRules, int *code)
{
    CommandContext context(command, args, u"keys"_s);
    if (!args.positional().isEmpty()) {
        *code = context.usage(
            u"unexpected argument '%1'"_s.arg(bytes::printable(args.positional().first())));
        return std::nullopt;
    }
    if (const Stop s = context.requireEndpoint({})) {
        *code = *s;
        return std::nullopt;
    }
    if (args.has("match") && args.raw("match").isEmpty()) {
        *code = fail(command, u"--match needs a glob, e.g. 'rate_limit:*'"_s, exitUsage);
        return std::nullopt;
    }
    std::optional<RuleSet> rules;
    QString origin;
    if (needRules || args.has("rules") || args.has("from-redis")) {
        LoadedRules loaded;
        if (const Stop s = context.loadRules(&loaded)) {
            *code = *s;
            return std::nullopt;
        }
        rules = loaded.set;
        origin = loaded.origin;
    }
    auto c = context.connect(code);
    if (!c) {
        return std::nullopt;
    }
    QList<QByteArray> patterns;
    if (args.has("match")) {
        patterns << args.raw("match");
    }
    return Common{std::move(*c), std::move(rules), origin, patterns};
}

QString scanLine(const ScanSummary &s)
{
    const ScanProgress &p = s.progress;
    return u"%1 in %2, %3, %4"_s.arg(
        count(p.keys, u"key"_s, u"keys"_s), count(p.pages, u"SCAN page"_s, u"SCAN pages"_s),
        count(p.roundTrips, u"round trip"_s, u"round trips"_s), formatDurationMs(p.elapsedMs));
}

// What the server offers (redis/serverfeatures.h) and whether the scan's reads touched the keys;
// empty when the scan stopped before it asked.
QString serverLine(const ScanSummary &s)
{
    if (!s.server.known && s.server.unknownWhy.isEmpty()) {
        return {};
    }
    return (s.server.known ? u"server: "_s : u"server features: "_s) + s.server.describe() +
           (s.noTouch ? u"; the scan ran under CLIENT NO-TOUCH: the keys' LRU/LFU is as it was"_s
                      : u"; the scan's reads count as accesses for an LRU/LFU eviction policy"_s);
}

int list(const Args &args)
{
    const QString command = u"keys"_s;
    // --health ID[,ID...]: only the keys judged so (the ids of healthName; the previous
    // release's accepted with a warning).
    QList<Health> only;
    if (args.has("health")) {
        for (const QString &id : args.text("health").split(u',')) {
            bool deprecated = false;
            const auto h = healthFromName(id.trimmed(), &deprecated);
            if (!h) {
                return fail(command,
                            u"--health '%1' is not a key health; the health ids are %2"_s.arg(
                                bytes::printable(id.toUtf8()), healthNames().join(u", "_s)) +
                                usageText,
                            exitUsage);
            }
            if (deprecated) {
                writeErr(u"sluice-cli keys: warning: --health %1 is deprecated: it is now %2 (the "
                         "old id is accepted until the next release)"_s.arg(id.trimmed(),
                                                                            healthName(*h)));
            }
            if (!only.contains(*h)) {
                only << *h;
            }
        }
    }
    int code = exitOk;
    auto setup = setUp(args, command, false, &code);
    if (!setup) {
        return code;
    }
    const bool json = args.has("json");
    const bool onlyNoTtl = args.has("no-ttl");
    KeyScanner scanner(KeyReader(setup->rules));
    KeyScanner::Options options;
    options.patterns = setup->patterns;
    if (int bad = exitOk; !applyScanBudget(args, command, options, &bad)) {
        return bad;
    }
    // The callback only prints: Redis reads the next page meanwhile.
    options.pageNeedsConnection = [] { return false; };

    qint64 shown = 0;
    if (json) {
        writeOut("[");
    } else {
        writeOut((tableRow(u"KEY"_s, u"TYPE"_s, u"TTL"_s, u"RULE"_s, u"SUBJECT"_s, u"HEALTH"_s,
                           u"STATE"_s) +
                  u'\n')
                     .toUtf8());
    }
    std::string out; // a page's rows, one write; the buffer is kept from page to page
    const ScanSummary summary = scanner.run(
        setup->connection, options, [&](const QList<KeyInfo> &page, const ScanProgress &) {
            out.resize(0);
            for (const KeyInfo &k : page) {
                if ((onlyNoTtl && k.pttlMs != -1) ||
                    (!only.isEmpty() && !only.contains(k.health))) {
                    continue;
                }
                if (json) {
                    out += shown == 0 ? "\n" : ",\n";
                    appendKeyJson(out, k);
                } else {
                    appendKeyRow(out, k);
                }
                ++shown;
            }
            writeRows(out);
        });
    if (json) {
        writeOut(shown == 0 ? "]\n" : "\n]\n");
    } else {
        QStringList lines;
        lines << QString();
        QString counted = scanLine(summary);
        if (onlyNoTtl) {
            counted = u"%1, of %2"_s.arg(
                sluice::counted(shown, u"never expires", u"never expire", thousands(shown)),
                counted);
        } else if (!only.isEmpty()) {
            QStringList ids;
            for (Health h : std::as_const(only)) {
                ids << healthName(h);
            }
            counted = u"%1 %2, of %3"_s.arg(thousands(shown), ids.join(u" or "_s), counted);
        }
        lines << counted;
        if (const QString server = serverLine(summary); !server.isEmpty()) {
            lines << server;
        }
        if (!setup->rules) {
            lines << u"no rules given (--rules FILE or --from-redis): keys are judged by their "
                     "TTL only, states are not decoded"_s;
        } else {
            lines << u"rules: %1 from %2"_s.arg(
                count(qint64(setup->rules->rules.size()), u"rule"_s, u"rules"_s),
                setup->rulesOrigin);
        }
        const HealthSummary &h = summary.health;
        if (summary.status != ScanSummary::Status::Completed && h.problems() == 0 &&
            h.unreadable == 0) {
            // Never "all healthy" for a scan that missed a part of the keyspace.
            lines << u"no problem among the keys scanned, but the scan is incomplete (see "
                     "below): the keys it did not reach are not judged"_s;
        } else {
            lines << h.headline();
        }
        if (h.noTtlOwnClock > 0) {
            lines << u"  why: Sluice's own state records its time, so those keys' limits still "
                     "reset (nobody is blocked), but nothing deletes the keys: set their TTL"_s;
        }
        if (h.noTtlBlocking() > 0) {
            lines << u"  why: Sluice's scripts set the TTL in the same step as every write, so "
                     "something else wrote these keys: an INCR after expiry, or an EXPIRE sent in "
                     "a separate round trip that never arrived, leaves a counter without TTL that "
                     "blocks its subject forever once it reaches the limit"_s;
        }
        if (h.ttlExceedsRule > 0) {
            lines << u"  why: a TTL longer than the rule can need: usually seconds passed where "
                     "milliseconds were meant (1000x), or a rule shortened since"_s;
        }
        if (h.fixable() > 0) {
            lines << (setup->rules ? u"  fix: sluice-cli keys fix --url URL %1 sets their TTL "
                                     "from their rule (--dry-run first to see)"_s.arg(
                                         args.has("rules") ? u"--rules FILE"_s : u"--from-redis"_s)
                                   : u"  fix: give the rules (--rules FILE or --from-redis) to "
                                     "`sluice-cli keys fix`, which sets their TTL from the "
                                     "rule"_s);
        }
        if (summary.gone > 0) {
            lines << count(summary.gone, u"key"_s, u"keys"_s) +
                         u" expired or deleted while the scan ran (not listed)"_s;
        }
        writeOut((lines.join(u'\n') + u'\n').toUtf8());
    }
    std::fflush(stdout);
    if (summary.status == ScanSummary::Status::Failed) {
        return fail(command, summary.error->message, exitRuntime);
    }
    return exitOk;
}

// What `keys fix` did to each key, one line per key ("<key>  set TTL 1 min (had none)"), for
// its every form: from the rules (a TTL per key, set or lowered), --match --ttl, --delete.
enum class FixForm { FromRules, SetTtl, Delete };

QByteArray outcomeLines(const QList<KeyFixer::Outcome> &outcomes, FixForm form)
{
    QByteArray out;
    for (const KeyFixer::Outcome &o : outcomes) {
        const bool lower = form == FixForm::FromRules && o.pttlBefore != -1;
        QString what;
        switch (o.status) {
        case KeyFixer::Status::Done:
        case KeyFixer::Status::WouldDo: {
            const bool done = o.status == KeyFixer::Status::Done;
            what = form == FixForm::Delete
                       ? (done ? u"deleted (had no TTL)"_s : u"would delete (has no TTL)"_s)
                   : lower ? (done ? u"lowered TTL %1 -> %2"_s : u"would lower TTL %1 -> %2"_s)
                                 .arg(formatDurationMs(o.pttlBefore), formatDurationMs(o.ttlMs))
                           : (done ? u"set TTL %1 (had none)"_s : u"would set TTL %1 (has none)"_s)
                                 .arg(formatDurationMs(o.ttlMs));
            break;
        }
        case KeyFixer::Status::AlreadyFine:
            what = form == FixForm::FromRules
                       ? u"not touched: its TTL (%1) is within the rule now"_s.arg(
                             formatDurationMs(o.pttlBefore))
                       : u"not touched: it got a TTL meanwhile (%1), never extended"_s.arg(
                             ttlText(o.pttlBefore));
            break;
        case KeyFixer::Status::Gone:
            what = u"gone meanwhile"_s;
            break;
        case KeyFixer::Status::Skipped:
            what = form == FixForm::FromRules
                       ? u"left as it is (%1): %2"_s.arg(healthName(o.health), o.message)
                       : u"left as it is: "_s + o.message;
            break;
        case KeyFixer::Status::Failed:
            what = u"FAILED: "_s + o.message;
            break;
        }
        out += (bytes::printable(o.key) + u"  "_s + what + u'\n').toUtf8();
    }
    return out;
}

qint64 countStatus(const QList<KeyFixer::Outcome> &outcomes, KeyFixer::Status s)
{
    return qint64(std::count_if(outcomes.begin(), outcomes.end(),
                                [&](const KeyFixer::Outcome &o) { return o.status == s; }));
}

int fixCommand(const Args &args)
{
    const QString command = u"keys fix"_s;
    if (args.has("no-ttl")) {
        return fail(command, u"--no-ttl does not apply here"_s + usageText, exitUsage);
    }
    int code = exitOk;
    auto setup = setUp(args, command, true, &code);
    if (!setup) {
        return code;
    }
    const bool json = args.has("json");
    const bool dryRun = args.has("dry-run");
    KeyScanner scanner(KeyReader(setup->rules));
    KeyScanner::Options options;
    options.patterns = setup->patterns;
    if (int bad = exitOk; !applyScanBudget(args, command, options, &bad)) {
        return bad;
    }
    KeyFixer::Options fixOptions;
    fixOptions.dryRun = dryRun;
    const KeyFixer::Sweep sweep =
        KeyFixer::sweep(setup->connection, scanner, options, KeyFixer::Action::SetTtl, fixOptions);
    const ScanSummary &summary = sweep.scan;
    const QList<KeyFixer::Outcome> &outcomes = sweep.fixes.outcomes;
    const std::optional<Error> &fixError = sweep.fixes.error;

    auto countHealth = [&](Health h) {
        return std::count_if(outcomes.begin(), outcomes.end(), [&](const KeyFixer::Outcome &o) {
            return o.status == KeyFixer::Status::Skipped && o.health == h;
        });
    };
    const qint64 done =
        countStatus(outcomes, dryRun ? KeyFixer::Status::WouldDo : KeyFixer::Status::Done);
    const qint64 fine = countStatus(outcomes, KeyFixer::Status::AlreadyFine);
    const qint64 gone = countStatus(outcomes, KeyFixer::Status::Gone);
    const qint64 failed = countStatus(outcomes, KeyFixer::Status::Failed);
    const qint64 orphans = countHealth(Health::Orphan);
    const qint64 wrong = countHealth(Health::WrongType);
    const qint64 unreadable = countHealth(Health::Unreadable);
    const qint64 refused = std::count_if(outcomes.begin(), outcomes.end(), [](const auto &o) {
        return o.health == Health::Unreadable && o.permissionRefused;
    });

    if (json) {
        QJsonArray list;
        for (const KeyFixer::Outcome &o : std::as_const(outcomes)) {
            QJsonObject e{{u"key"_s, bytes::printable(o.key)},
                          {u"rule"_s, orNull(o.ruleId)},
                          {u"health"_s, healthName(o.health)},
                          {u"status"_s, statusName(o.status)},
                          {u"ttl_ms"_s, o.ttlMs > 0 ? QJsonValue(o.ttlMs) : QJsonValue()},
                          {u"ttl_ms_before"_s, o.pttlBefore},
                          {u"ttl_ms_after"_s, o.pttlAfter}};
            if (!o.message.isEmpty()) {
                e.insert(u"message"_s, o.message);
            }
            list.append(e);
        }
        const QJsonObject doc{
            {u"dry_run"_s, dryRun},
            {u"complete"_s, summary.status == ScanSummary::Status::Completed && !fixError},
            {u"scanned"_s, summary.progress.keys},
            {dryRun ? u"would_set_ttl"_s : u"set_ttl"_s, done},
            {u"already_fine"_s, fine},
            {u"gone"_s, gone},
            {u"no_rule"_s, orphans},
            {u"orphans"_s, orphans}, // the previous release's name of no_rule: deprecated
            {u"wrong_type"_s, wrong},
            {u"unreadable"_s, unreadable},
            {u"unreadable_permission"_s, refused},
            {u"failed"_s, failed},
            {u"keys"_s, list}};
        writeOut(QJsonDocument(doc).toJson(QJsonDocument::Compact) + '\n');
    } else {
        QByteArray out = outcomeLines(outcomes, FixForm::FromRules);
        const QString n = count(done, u"key"_s, u"keys"_s);
        QString line = dryRun ? u"dry run, nothing changed: would set the TTL of %1 from their "
                                "rule"_s.arg(n)
                              : u"set the TTL of %1 from their rule"_s.arg(n);
        QStringList extra;
        if (fine > 0) {
            extra << count(fine, u"key"_s, u"keys"_s) +
                         u" got a TTL within the rule meanwhile (not extended)"_s;
        }
        if (gone > 0) {
            extra << count(gone, u"key"_s, u"keys"_s) + u" gone meanwhile"_s;
        }
        if (orphans > 0) {
            extra << (orphans == 1 ? u"1 key with no rule left as it is (no rule to take a TTL "
                                     "from)"_s
                                   : u"%1 keys with no rule left as they are (no rule to take a "
                                     "TTL from)"_s.arg(thousands(orphans)));
        }
        if (wrong > 0) {
            extra << (wrong == 1 ? u"1 key that is not its rule's state left as it is"_s
                                 : u"%1 keys that are not their rule's state left as they "
                                   "are"_s.arg(thousands(wrong)));
        }
        if (unreadable > 0) {
            extra << count(unreadable, u"key"_s, u"keys"_s) +
                         (refused > 0 ? u" that could not be read (%1 refused by the ACL) left as "
                                        "is"_s.arg(thousands(refused))
                                      : u" that could not be read left as is"_s);
        }
        if (failed > 0) {
            extra << count(failed, u"key"_s, u"keys"_s) + u" FAILED"_s;
        }
        if (!extra.isEmpty()) {
            line += u"; "_s + extra.join(u"; "_s);
        }
        out += (line + u"\n"_s + scanLine(summary) + u'\n').toUtf8();
        writeOut(out);
    }
    return fixExit(command, summary, fixError, failed);
}

// ---- keys audit, keys fix --match GLOB --ttl D | --delete ----

// --match GLOB that matched nothing: a usage error (exit 2), said the same way by every
// subcommand.
int nothingMatches(const QString &command, const Args &args)
{
    return fail(command,
                u"--match '%1': no key matches it, so there is nothing to do (check the glob: "
                "SCAN MATCH syntax, e.g. 'rate_limit:*')"_s.arg(args.text("match")),
                exitUsage);
}

int audit(const Args &args)
{
    const QString command = u"keys audit"_s;
    for (const char *bad : {"no-ttl", "health", "dry-run", "ttl", "delete"}) {
        if (args.has(bad)) {
            return fail(command,
                        u"--%1 does not apply to `keys audit`"_s.arg(QLatin1String(bad)) +
                            usageText,
                        exitUsage);
        }
    }
    int code = exitOk;
    auto setup = setUp(args, command, false, &code);
    if (!setup) {
        return code;
    }
    const bool json = args.has("json");
    KeyAuditor::Options options;
    options.scan.patterns = setup->patterns;
    options.rules = setup->rules;
    options.pageUsesConnection = false; // the pages are only written out
    if (int bad = exitOk; !applyScanBudget(args, command, options.scan, &bad)) {
        return bad;
    }
    // Flagged keys shown in the text output, per layout; in JSON every limiter key and suspect.
    constexpr int samplesPerGroup = 10;
    QMap<QString, QList<AuditEntry>> samples;
    QList<AuditEntry> suspects;
    qint64 written = 0;
    bool opened = false;
    const AuditReport report =
        KeyAuditor::run(setup->connection, options, [&](const QList<AuditEntry> &page, auto &) {
            std::string out;
            if (json) {
                out.reserve(size_t(page.size()) * 320); // an entry is about 300 bytes
            }
            for (const AuditEntry &e : page) {
                if (e.health == AuditHealth::Other || e.health == AuditHealth::OtherNoTtl) {
                    continue;
                }
                if (json) {
                    if (!opened) {
                        out += "{\"keys\":[";
                        opened = true;
                    }
                    out += written == 0 ? "\n" : ",\n";
                    appendAuditJson(out, e);
                    ++written;
                } else if (e.health == AuditHealth::Suspect) {
                    if (suspects.size() < 20) {
                        suspects << e;
                    }
                } else if (isFlagged(e.health)) {
                    auto &list = samples[e.layout];
                    if (list.size() < samplesPerGroup) {
                        list << e;
                    }
                }
            }
            if (!out.empty()) {
                writeRows(out);
            }
        });
    const bool failed = report.scan.status == ScanSummary::Status::Failed;
    if (!failed && args.has("match") && report.keys() == 0) {
        return nothingMatches(command, args);
    }
    if (json) {
        QByteArray body = auditJsonTail(report);
        body.remove(0, 1); // the tail's fields continue the object opened with "keys"
        writeOut((opened ? QByteArray(written == 0 ? "]," : "\n],") : QByteArray("{\"keys\":[],")) +
                 body + '\n');
    } else {
        const QStringList lines =
            auditSummary(report, samples, suspects, samplesPerGroup, scanLine(report.scan), failed);
        writeOut((lines.join(u'\n') + u'\n').toUtf8());
    }
    std::fflush(stdout);
    if (failed) {
        return fail(command, report.scan.error->message, exitRuntime);
    }
    return exitOk;
}

// Why `keys fix --match` leaves a key without TTL alone (without --any-key).
QString skipReason(const AuditEntry &e)
{
    switch (e.health) {
    case AuditHealth::OtherNoTtl:
        return u"no known limiter layout (an application key?)"_s;
    case AuditHealth::Suspect:
        return u"named like a limit, but no known limiter layout: %1"_s.arg(e.cause);
    case AuditHealth::Unknown:
    case AuditHealth::LooksLike:
    case AuditHealth::ByDesign:
        return e.cause;
    case AuditHealth::Ok:
        return u"%1 keeps this key without a TTL (normal for it)"_s.arg(e.layout);
    default:
        break;
    }
    return e.cause.isEmpty() ? auditHealthName(e.health) : e.cause;
}

// The most `keys fix --ttl` sets: a counter left for a month is not a fix, it is a second bug.
constexpr qint64 maxFixTtlUs = qint64(30) * duration::usPerDay;

// `keys fix --match GLOB --ttl D | --delete`: the keys without TTL a glob covers, repaired.
// They are judged as `keys audit` judges them: a glob such as '*' covers sessions and
// configuration too, and only a key a known limiter layout recognises (judged never to expire)
// is fixed; the others are listed as skipped, unless --any-key.
class ForeignFix
{
public:
    explicit ForeignFix(const Args &args)
        : m_args(args)
        , m_del(args.has("delete"))
        , m_dryRun(args.has("dry-run"))
        , m_anyKey(args.has("any-key"))
    {}
    int run();

private:
    struct SkippedKey
    {
        QByteArray key;
        AuditHealth health;
        QString why;
    };
    struct Counts
    {
        qint64 done, fine, gone, failed, withTtl;
    };
    static constexpr qsizetype skippedListed = 1000; // in --json; the text shows the first 20

    Stop flags();
    void fixPage(Connection &connection, const QList<AuditEntry> &page);
    void printJson(const ScanSummary &summary, const Counts &n) const;
    void printText(const ScanSummary &summary, const Counts &n) const;

    const QString command = u"keys fix"_s;
    const Args &m_args;
    const bool m_del;
    const bool m_dryRun;
    const bool m_anyKey;
    qint64 m_ttlMs = 0;
    QList<KeyFixer::Outcome> m_outcomes;
    QList<SkippedKey> m_skipped;
    qint64 m_skippedCount = 0;
    std::optional<Error> m_fixError;
    std::atomic<bool> m_stop{false};
};

Stop ForeignFix::flags()
{
    const QString what = m_del ? u"delete"_s : u"ttl"_s;
    if (m_args.has("rules") || m_args.has("from-redis")) {
        return fail(command,
                    u"--%1 with --rules/--from-redis: the rules give the TTL; use one or the "
                    "other"_s.arg(what) +
                        usageText,
                    exitUsage);
    }
    if (m_del && m_args.has("ttl")) {
        return fail(command, u"--ttl and --delete: choose one (set a TTL, or delete)"_s + usageText,
                    exitUsage);
    }
    if (!m_args.has("match")) {
        return fail(command,
                    u"--%1 needs --match GLOB: the keys to repair (see `keys audit`)"_s.arg(what) +
                        usageText,
                    exitUsage);
    }
    if (!m_del) {
        auto us = duration::parseUs(m_args.text("ttl"));
        if (!us || *us < duration::usPerMs || *us > maxFixTtlUs) {
            return fail(
                command,
                u"--ttl '%1': expected a duration from 1ms to 30d, e.g. 1m%2"_s.arg(
                    m_args.text("ttl"), us ? QString() : u" (%1)"_s.arg(us.error().message)),
                exitUsage);
        }
        m_ttlMs = (*us + duration::usPerMs - 1) / duration::usPerMs;
    }
    return std::nullopt;
}

int ForeignFix::run()
{
    if (const Stop s = flags()) {
        return *s;
    }
    int code = exitOk;
    auto setup = setUp(m_args, command, false, &code);
    if (!setup) {
        return code;
    }
    KeyAuditor::Options options;
    options.scan.patterns = setup->patterns;
    if (int bad = exitOk; !applyScanBudget(m_args, command, options.scan, &bad)) {
        return bad;
    }
    options.scan.cancel = &m_stop;
    const AuditReport report = KeyAuditor::run(
        setup->connection, options, [&](const QList<AuditEntry> &page, const ScanProgress &) {
            fixPage(setup->connection, page);
        });
    const ScanSummary &summary = report.scan;
    if (summary.status == ScanSummary::Status::Completed && !m_fixError &&
        summary.progress.keys == 0) {
        return nothingMatches(command, m_args);
    }
    const Counts n{
        countStatus(m_outcomes, m_dryRun ? KeyFixer::Status::WouldDo : KeyFixer::Status::Done),
        countStatus(m_outcomes, KeyFixer::Status::AlreadyFine),
        countStatus(m_outcomes, KeyFixer::Status::Gone),
        countStatus(m_outcomes, KeyFixer::Status::Failed),
        summary.progress.keys - qint64(m_outcomes.size()) - m_skippedCount};
    if (m_args.has("json")) {
        printJson(summary, n);
    } else {
        printText(summary, n);
    }
    return fixExit(command, summary, m_fixError, n.failed);
}

// A page of the audit: its keys without TTL fixed (or skipped), in one KeyFixer run.
void ForeignFix::fixPage(Connection &connection, const QList<AuditEntry> &page)
{
    QList<KeyInfo> todo;
    for (const AuditEntry &e : page) {
        if (e.pttlMs != -1) {
            continue;
        }
        if (!m_anyKey && e.health != AuditHealth::NeverExpires && e.health != AuditHealth::Orphan) {
            ++m_skippedCount;
            if (m_skipped.size() < skippedListed) {
                m_skipped << SkippedKey{e.key, e.health, skipReason(e)};
            }
            continue;
        }
        KeyInfo k;
        k.key = e.key;
        k.type = e.type;
        k.pttlMs = -1;
        k.health = Health::NoTtl;
        k.maxTtlMs = m_ttlMs;
        todo << k;
    }
    if (todo.isEmpty()) {
        return;
    }
    KeyFixer::Options fixOptions;
    fixOptions.dryRun = m_dryRun;
    fixOptions.onlyWithoutTtl = true;
    fixOptions.onlyFlagged = true;
    KeyFixer::Report r = KeyFixer::run(
        connection, todo, m_del ? KeyFixer::Action::Delete : KeyFixer::Action::SetTtl, fixOptions);
    m_outcomes += r.outcomes;
    if (r.error) {
        m_fixError = r.error;
        m_stop = true;
    }
}

void ForeignFix::printJson(const ScanSummary &summary, const Counts &n) const
{
    QJsonArray list;
    for (const KeyFixer::Outcome &o : std::as_const(m_outcomes)) {
        QJsonObject e{{u"key"_s, bytes::printable(o.key)},
                      {u"status"_s, statusName(o.status)},
                      {u"ttl_ms_before"_s, o.pttlBefore},
                      {u"ttl_ms_after"_s, o.pttlAfter}};
        if (!m_del) {
            e.insert(u"ttl_ms"_s, m_ttlMs);
        }
        if (o.status == KeyFixer::Status::Failed) {
            e.insert(u"message"_s, o.message);
        }
        list.append(e);
    }
    QJsonArray skippedList;
    for (const SkippedKey &k : std::as_const(m_skipped)) {
        skippedList.append(QJsonObject{{u"key"_s, bytes::printable(k.key)},
                                       {u"health"_s, auditHealthName(k.health)},
                                       {u"why"_s, k.why}});
    }
    const QJsonObject doc{
        {u"dry_run"_s, m_dryRun},
        {u"action"_s, m_del ? u"delete"_s : u"set_ttl"_s},
        {u"complete"_s, summary.status == ScanSummary::Status::Completed && !m_fixError},
        {u"scanned"_s, summary.progress.keys},
        {u"had_ttl"_s, n.withTtl},
        {m_dryRun ? u"would_do"_s : u"done"_s, n.done},
        {u"got_ttl_meanwhile"_s, n.fine},
        {u"gone"_s, n.gone},
        {u"failed"_s, n.failed},
        {u"keys"_s, list},
        {u"any_key"_s, m_anyKey},
        {u"skipped"_s, m_skippedCount},
        {u"skipped_keys"_s, skippedList}};
    writeOut(QJsonDocument(doc).toJson(QJsonDocument::Compact) + '\n');
}

void ForeignFix::printText(const ScanSummary &summary, const Counts &n) const
{
    QByteArray out = outcomeLines(m_outcomes, m_del ? FixForm::Delete : FixForm::SetTtl);
    const QString keys = count(n.done, u"key"_s, u"keys"_s);
    const QString ttl = formatDurationMs(m_ttlMs);
    QString line =
        m_del ? (m_dryRun ? u"dry run, nothing changed: would delete %1 without TTL"_s.arg(keys)
                          : u"deleted %1 without TTL"_s.arg(keys))
              : (m_dryRun ? u"dry run, nothing changed: would set a TTL of %1 on %2 without "
                            "one"_s.arg(ttl, keys)
                          : u"set a TTL of %1 on %2 that had none"_s.arg(ttl, keys));
    line += u"; %1 already had a TTL (left as it is)"_s.arg(thousands(n.withTtl));
    if (n.fine > 0) {
        line += u"; %1 got a TTL meanwhile (not extended)"_s.arg(thousands(n.fine));
    }
    if (n.gone > 0) {
        line += u"; %1 gone meanwhile"_s.arg(thousands(n.gone));
    }
    if (n.failed > 0) {
        line += u"; %1 FAILED"_s.arg(thousands(n.failed));
    }
    if (m_skippedCount > 0) {
        // Before the total, so that what was left alone cannot be missed.
        QString list =
            u"%1: %2 without TTL left alone: kept so by design by their "
            "library, or no known limiter layout recognises them (application "
            "keys: sessions, configuration?); --any-key includes them%3\n"_s.arg(
                m_dryRun ? u"dry run"_s : u"skipped"_s, count(m_skippedCount, u"key"_s, u"keys"_s),
                m_del ? u" (and deletes them)"_s : QString());
        constexpr qsizetype shown = 20;
        for (qsizetype i = 0; i < std::min(shown, m_skipped.size()); ++i) {
            list +=
                u"  %1  skipped: %2\n"_s.arg(bytes::printable(m_skipped[i].key), m_skipped[i].why);
        }
        if (m_skippedCount > shown) {
            list += u"  ... and %1 more (--json lists the first %2)\n"_s.arg(
                thousands(m_skippedCount - shown), thousands(skippedListed));
        }
        out += list.toUtf8();
    }
    out += (line + u'\n' + scanLine(summary) + u'\n').toUtf8();
    writeOut(out);
}

} // namespace

int keys(const QList<QByteArray> &argv)
{
    const bool isFix = !argv.isEmpty() && argv.first() == "fix";
    const bool isAudit = !argv.isEmpty() && argv.first() == "audit";
    const bool isTop = !argv.isEmpty() && argv.first() == "top";
    const QString command = isFix     ? u"keys fix"_s
                            : isAudit ? u"keys audit"_s
                            : isTop   ? u"keys top"_s
                                      : u"keys"_s;
    auto parsed =
        Args::parse(isFix || isAudit || isTop ? argv.mid(1) : argv, {{"url", true},
                                                                     {"match", true},
                                                                     {"rules", true},
                                                                     {"from-redis", false},
                                                                     {"no-ttl", false},
                                                                     {"health", true},
                                                                     {"dry-run", false},
                                                                     {"scan-budget", true},
                                                                     {"no-backoff", false},
                                                                     {"ttl", true},
                                                                     {"delete", false},
                                                                     {"any-key", false},
                                                                     {"interval", true},
                                                                     {"count", true},
                                                                     {"watch", false},
                                                                     {"json", false}});
    if (!parsed) {
        return fail(command, parsed.error().message + usageText, exitUsage);
    }
    if (isTop) {
        return keysTop(*parsed);
    }
    for (const char *topOnly : {"interval", "count", "watch"}) {
        if (parsed->has(topOnly)) {
            return fail(command,
                        u"--%1 applies to `keys top` only"_s.arg(QLatin1String(topOnly)) +
                            usageText,
                        exitUsage);
        }
    }
    if (parsed->has("any-key") && !(isFix && (parsed->has("ttl") || parsed->has("delete")))) {
        return fail(command,
                    u"--any-key applies to `keys fix --match GLOB --ttl D | --delete` only"_s +
                        usageText,
                    exitUsage);
    }
    if (isAudit) {
        return audit(*parsed);
    }
    for (const char *fixOnly : {"dry-run", "ttl", "delete"}) {
        if (!isFix && parsed->has(fixOnly)) {
            return fail(command,
                        u"--%1 applies to `keys fix` only"_s.arg(QLatin1String(fixOnly)) +
                            usageText,
                        exitUsage);
        }
    }
    if (isFix && parsed->has("health")) {
        return fail(command,
                    u"--health does not apply here: `keys fix` acts on the keys that never "
                    "expire or whose TTL is too long"_s +
                        usageText,
                    exitUsage);
    }
    if (isFix && (parsed->has("ttl") || parsed->has("delete"))) {
        return ForeignFix(*parsed).run();
    }
    return isFix ? fixCommand(*parsed) : list(*parsed);
}

} // namespace sluice::cli
