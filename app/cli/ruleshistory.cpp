#include "ruleshistory.h"

#include "args.h"
#include "rules.h"

#include "core/common/bytes.h"
#include "core/keys/changepreview.h"
#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/rules/rulediff.h"
#include "core/rules/rulestore.h"
#include "core/stats/stagecompare.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace sluice::cli {

namespace {

void writeOut(const QString &text)
{
    const QByteArray b = text.toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stdout);
}

void writeJson(const QJsonObject &o)
{
    const QByteArray b = QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    std::fwrite(b.constData(), 1, size_t(b.size()), stdout);
}

void writeErr(const QString &line)
{
    const QByteArray b = (line + QLatin1Char('\n')).toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
}

QString plural(qsizetype n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

// One side of `rules diff`: a rule file, "redis" (the stored rules) or "redis@N".
struct Side
{
    RuleSet set;
    QString label; // as the user wrote it, with the version Redis answered
};

std::optional<Side> loadSide(const Args &args, const QString &command, const QByteArray &spec,
                             std::optional<Connection> &c, int *exitCode)
{
    const QString text = QString::fromLocal8Bit(spec);
    if (spec == "redis" || spec.startsWith("redis@")) {
        std::optional<qint64> version;
        if (spec.startsWith("redis@")) {
            bool ok = false;
            const qint64 n = spec.mid(6).toLongLong(&ok);
            if (!ok || n < 1) {
                *exitCode = fail(command,
                                 QStringLiteral("'%1': expected redis@N with N a stored version "
                                                "(a whole number from 1)")
                                     .arg(bytes::printable(spec)),
                                 exitUsage);
                return std::nullopt;
            }
            version = n;
        }
        if (!c) {
            auto opened = connectFromArgs(args, command, exitCode);
            if (!opened) {
                return std::nullopt;
            }
            c.emplace(std::move(*opened));
        }
        const rules::RuleStore store;
        auto snap = version ? store.pullVersion(*c, *version) : store.pull(*c);
        if (!snap) {
            *exitCode = fail(command, snap.error().message,
                             snap.error().kind == Error::Kind::Invalid ? exitUsage : exitRuntime);
            return std::nullopt;
        }
        return Side{snap->set, QStringLiteral("%1 (Redis at %2, version %3)")
                                   .arg(text, c->endpoint().display())
                                   .arg(snap->version)};
    }
    const rules::Loaded loaded = rules::loadFile(text);
    if (!loaded.ok()) {
        for (const Diagnostic &d : loaded.errors) {
            writeErr(d.toString());
        }
        *exitCode = fail(command,
                         QStringLiteral("%1 is not a valid rule file (%2)")
                             .arg(text, plural(loaded.errors.size(), "error", "errors")),
                         exitUsage);
        return std::nullopt;
    }
    return Side{loaded.set, text};
}

QJsonObject ruleObject(const Rule &r)
{
    return QJsonDocument::fromJson(rules::ruleToJson(r)).object();
}

QJsonObject entryJson(const rules::RuleStore::Entry &e)
{
    QJsonObject o{{QStringLiteral("version"), e.version},
                  {QStringLiteral("time"), e.time},
                  {QStringLiteral("author"), e.author},
                  {QStringLiteral("message"), e.message},
                  {QStringLiteral("added"), QJsonArray::fromStringList(e.added)},
                  {QStringLiteral("changed"), QJsonArray::fromStringList(e.changed)},
                  {QStringLiteral("removed"), QJsonArray::fromStringList(e.removed)},
                  {QStringLiteral("forced"), e.forced},
                  {QStringLiteral("undoable"), e.undoable}};
    o.insert(QStringLiteral("based_on"), e.basedOn ? QJsonValue(*e.basedOn) : QJsonValue());
    o.insert(QStringLiteral("rollback_of"),
             e.rollbackOf ? QJsonValue(*e.rollbackOf) : QJsonValue());
    if (e.stageOp.isEmpty()) {
        o.insert(QStringLiteral("stage"), QJsonValue());
    } else {
        QJsonObject st{{QStringLiteral("op"), e.stageOp}};
        if (e.stageOp == QLatin1String("stage")) {
            st.insert(QStringLiteral("added"), QJsonArray::fromStringList(e.stagedAdded));
            st.insert(QStringLiteral("changed"), QJsonArray::fromStringList(e.stagedChanged));
            st.insert(QStringLiteral("removed"), QJsonArray::fromStringList(e.stagedRemoved));
        } else {
            st.insert(QStringLiteral("of"), e.stageOf ? QJsonValue(*e.stageOf) : QJsonValue());
        }
        o.insert(QStringLiteral("stage"), st);
    }
    return o;
}

QString changesLine(const rules::RuleStore::Entry &e)
{
    QStringList parts;
    auto part = [&](const char *what, const QStringList &ids) {
        if (!ids.isEmpty()) {
            // Ids as the store's history holds them: escaped (a hand-written entry may hold
            // anything).
            parts << QStringLiteral("%1 %2").arg(QLatin1String(what),
                                                 bytes::printable(ids.join(u", "_s)));
        }
    };
    part("added", e.added);
    part("changed", e.changed);
    part("removed", e.removed);
    const QString changes = parts.isEmpty() ? QStringLiteral("no changes") : parts.join(u"; "_s);
    if (e.stageOp == QLatin1String("stage")) {
        rules::RuleStore::Entry staged;
        staged.added = e.stagedAdded;
        staged.changed = e.stagedChanged;
        staged.removed = e.stagedRemoved;
        return QStringLiteral("staged: %1 (in shadow)").arg(changesLine(staged));
    }
    const QString of = e.stageOf ? QStringLiteral("v%1").arg(*e.stageOf) : u"?"_s;
    if (e.stageOp == QLatin1String("promote")) {
        return QStringLiteral("promoted %1: %2").arg(of, changes);
    }
    if (e.stageOp == QLatin1String("discard")) {
        return parts.isEmpty() ? QStringLiteral("discarded the stage of %1").arg(of)
                               : QStringLiteral("%1; discarded the stage of %2").arg(changes, of);
    }
    return changes;
}

QString pushOutcome(const rules::RuleStore::PushResult &r)
{
    rules::RuleStore::Entry e;
    e.added = r.added;
    e.changed = r.changed;
    e.removed = r.removed;
    return changesLine(e);
}

rules::RuleStore::PushOptions optionsFrom(const Args &args)
{
    rules::RuleStore::PushOptions o;
    o.force = args.has("force");
    o.author = args.text("author");
    o.message = args.text("message");
    return o;
}

} // namespace

rules::RuleStore::PushOptions pushOptionsFromArgs(const Args &args)
{
    return optionsFrom(args);
}

int rulesHistory(const Args &args)
{
    const QString command = QStringLiteral("rules history");
    if (!args.positional().isEmpty()) {
        return fail(command, QStringLiteral("history takes no file argument") + usageOf(u"rules"_s),
                    exitUsage);
    }
    int code = exitOk;
    auto c = connectFromArgs(args, command, &code);
    if (!c) {
        return code;
    }
    auto h = rules::RuleStore().history(*c);
    if (!h) {
        return fail(command, h.error().message, exitRuntime);
    }
    if (!h->cut.isEmpty()) {
        fail(command, QStringLiteral("warning: %1").arg(h->cut), exitOk);
    }
    if (args.has("json")) {
        QJsonArray entries;
        for (const auto &e : h->entries) {
            entries.append(entryJson(e));
        }
        QJsonArray restorable;
        for (qint64 v : h->restorable) {
            restorable.append(v);
        }
        writeJson(QJsonObject{{QStringLiteral("version"), h->version},
                              {QStringLiteral("restorable"), restorable},
                              {QStringLiteral("entries"), entries}});
        return exitOk;
    }
    if (h->version == 0) {
        writeOut(QStringLiteral("no rules were ever pushed to Redis at %1\n")
                     .arg(c->endpoint().display()));
        return exitOk;
    }
    QString out = QStringLiteral("rules in Redis at %1: version %2 (%3 kept)\n")
                      .arg(c->endpoint().display())
                      .arg(h->version)
                      .arg(plural(h->entries.size(), "change", "changes"));
    // Aligned columns: version, time, author, then what changed and why.
    qsizetype wv = 0, wt = 0, wa = 0;
    // Who and when as the store holds them: escaped, and cut (a hand-written entry may hold
    // anything).
    auto shown = [](const QString &text) {
        return text.isEmpty() ? QStringLiteral("-") : bytes::quoted(text.toUtf8(), 80);
    };
    for (const auto &e : h->entries) {
        wv = std::max(wv, QString::number(e.version).size() + 1);
        wt = std::max(wt, shown(e.time).size());
        wa = std::max(wa, shown(e.author).size());
    }
    for (const auto &e : h->entries) {
        QString line = QStringLiteral("%1  %2  %3  %4")
                           .arg(QStringLiteral("v%1").arg(e.version), -int(wv))
                           .arg(shown(e.time), -int(wt))
                           .arg(shown(e.author), -int(wa))
                           .arg(changesLine(e));
        QStringList notes;
        if (e.rollbackOf) {
            notes << QStringLiteral("rollback to v%1").arg(*e.rollbackOf);
        }
        if (e.forced) {
            notes << QStringLiteral("forced");
        }
        if (!notes.isEmpty()) {
            line += QStringLiteral(" (%1)").arg(notes.join(u", "_s));
        }
        if (!e.message.isEmpty()) {
            line += QStringLiteral("  \"%1\"").arg(bytes::quoted(e.message.toUtf8()));
        }
        out += line + QLatin1Char('\n');
    }
    if (h->restorable.size() == 2) {
        out += QStringLiteral("can be rolled back to: v%1\n").arg(h->restorable.at(1));
    } else if (h->restorable.size() > 2) {
        out += QStringLiteral("can be rolled back to: v%1 down to v%2\n")
                   .arg(h->restorable.at(1))
                   .arg(h->restorable.back());
    } else {
        out += QStringLiteral("no earlier version can be rebuilt\n");
    }
    writeOut(out);
    return exitOk;
}

int rulesDiff(const Args &args)
{
    const QString command = QStringLiteral("rules diff");
    if (args.positional().size() != 2) {
        return fail(command,
                    QStringLiteral("give two rule sets: FILE, redis or redis@N each") +
                        usageOf(u"rules"_s),
                    exitUsage);
    }
    std::optional<Connection> c;
    int code = exitOk;
    const auto a = loadSide(args, command, args.positional().at(0), c, &code);
    if (!a) {
        return code;
    }
    const auto b = loadSide(args, command, args.positional().at(1), c, &code);
    if (!b) {
        return code;
    }
    const rules::RuleDiff d = rules::diffRules(a->set, b->set);
    if (args.has("json")) {
        QJsonArray added, removed, changed;
        for (const Rule &r : d.added) {
            added.append(
                QJsonObject{{QStringLiteral("id"), r.id}, {QStringLiteral("rule"), ruleObject(r)}});
        }
        for (const Rule &r : d.removed) {
            removed.append(
                QJsonObject{{QStringLiteral("id"), r.id}, {QStringLiteral("rule"), ruleObject(r)}});
        }
        for (const auto &ch : d.changed) {
            QJsonArray fields;
            for (const auto &f : ch.values) {
                fields.append(QJsonObject{
                    {QStringLiteral("field"), f.name},
                    {QStringLiteral("from"), f.from.isNull() ? QJsonValue() : QJsonValue(f.from)},
                    {QStringLiteral("to"), f.to}});
            }
            changed.append(
                QJsonObject{{QStringLiteral("id"), ch.id}, {QStringLiteral("fields"), fields}});
        }
        writeJson(QJsonObject{{QStringLiteral("from"), a->label},
                              {QStringLiteral("to"), b->label},
                              {QStringLiteral("same"), d.isEmpty()},
                              {QStringLiteral("added"), added},
                              {QStringLiteral("removed"), removed},
                              {QStringLiteral("changed"), changed}});
        return exitOk;
    }
    QString out = QStringLiteral("--- %1\n+++ %2\n").arg(a->label, b->label);
    for (const Rule &r : d.added) {
        out += QStringLiteral("+ %1: %2\n").arg(r.id, r.describe());
    }
    for (const auto &ch : d.changed) {
        out += QStringLiteral("~ %1\n").arg(ch.id);
        for (const QString &f : ch.fields) {
            out += QStringLiteral("    %1\n").arg(f);
        }
    }
    for (const Rule &r : d.removed) {
        out += QStringLiteral("- %1: %2\n").arg(r.id, r.describe());
    }
    out += d.isEmpty() ? QStringLiteral("no differences\n")
                       : QStringLiteral("%1 added, %2 changed, %3 removed\n")
                             .arg(d.added.size())
                             .arg(d.changed.size())
                             .arg(d.removed.size());
    writeOut(out);
    return exitOk;
}

int rulesRollback(const Args &args)
{
    const QString command = QStringLiteral("rules rollback");
    if (args.positional().size() != 1) {
        return fail(command,
                    QStringLiteral("give the version to roll back to") + usageOf(u"rules"_s),
                    exitUsage);
    }
    bool ok = false;
    const qint64 n = args.positional().first().toLongLong(&ok);
    if (!ok || n < 1) {
        return fail(command,
                    QStringLiteral("'%1' is not a version; expected a whole number from 1 (see "
                                   "rules history)")
                        .arg(bytes::printable(args.positional().first())),
                    exitUsage);
    }
    int code = exitOk;
    auto c = connectFromArgs(args, command, &code);
    if (!c) {
        return code;
    }
    auto r = rules::RuleStore().rollback(*c, n, optionsFrom(args));
    if (!r) {
        return fail(command, r.error().message,
                    r.error().kind == Error::Kind::Invalid ? exitUsage : exitRuntime);
    }
    if (args.has("json")) {
        writeJson(QJsonObject{{QStringLiteral("version"), r->version},
                              {QStringLiteral("rollback_of"), n},
                              {QStringLiteral("added"), QJsonArray::fromStringList(r->added)},
                              {QStringLiteral("changed"), QJsonArray::fromStringList(r->changed)},
                              {QStringLiteral("removed"), QJsonArray::fromStringList(r->removed)}});
    } else if (r->unchanged()) {
        writeOut(QStringLiteral("no change: the rules in Redis at %1 already equal version %2 "
                                "(still version %3)\n")
                     .arg(c->endpoint().display())
                     .arg(n)
                     .arg(r->version));
    } else {
        writeOut(QStringLiteral("rolled back to version %1 as version %2 in Redis at %3: %4\n")
                     .arg(n)
                     .arg(r->version)
                     .arg(c->endpoint().display(), pushOutcome(*r)));
    }
    return exitOk;
}

int rulesPushPreview(const Args &args, Connection &c, const RuleSet &candidate)
{
    const QString command = QStringLiteral("rules push");
    keys::PreviewOptions options;
    if (args.has("scan-budget")) {
        auto b = integerFlag(args, "scan-budget", 0, 10'000'000);
        if (!b) {
            return fail(command, b.error().message, exitUsage);
        }
        options.scanBudget = *b;
    }
    auto stored = rules::RuleStore().pull(c);
    if (!stored) {
        return fail(command, stored.error().message, exitRuntime);
    }
    auto preview = keys::previewChange(c, stored->set, candidate, options);
    if (!preview) {
        return fail(command, preview.error().message, exitRuntime);
    }
    const auto kindName = [](keys::RulePreview::Kind k) {
        switch (k) {
        case keys::RulePreview::Kind::Added:
            return QStringLiteral("added");
        case keys::RulePreview::Kind::Removed:
            return QStringLiteral("removed");
        default:
            return QStringLiteral("changed");
        }
    };
    const auto subjects = [](const QList<keys::PreviewSubject> &list) {
        QJsonArray a;
        for (const auto &s : list) {
            a.append(QJsonObject{{QStringLiteral("subject"), bytes::printable(s.subject)},
                                 {QStringLiteral("remaining_before"), s.remainingBefore},
                                 {QStringLiteral("remaining_after"), s.remainingAfter},
                                 {QStringLiteral("retry_after_ms"), s.retryAfterMs}});
        }
        return a;
    };
    if (args.has("json")) {
        QJsonArray rulesOut;
        for (const keys::RulePreview &p : *preview) {
            QJsonArray top;
            for (const QByteArray &s : p.topDeniedSubjects) {
                top.append(bytes::printable(s));
            }
            rulesOut.append(
                QJsonObject{{QStringLiteral("id"), p.id},
                            {QStringLiteral("change"), kindName(p.kind)},
                            {QStringLiteral("fields"), QJsonArray::fromStringList(p.fields)},
                            {QStringLiteral("new_state"), p.newState},
                            {QStringLiteral("live_keys"), p.liveKeys},
                            {QStringLiteral("complete"), p.complete},
                            {QStringLiteral("undecodable"), p.undecodable},
                            {QStringLiteral("denied_now"), p.deniedNow},
                            {QStringLiteral("denied_after"), p.deniedAfter},
                            {QStringLiteral("released"), p.released},
                            {QStringLiteral("newly_denied"), p.newlyDenied},
                            {QStringLiteral("top_released"), subjects(p.topReleased)},
                            {QStringLiteral("top_newly_denied"), subjects(p.topNewlyDenied)},
                            {QStringLiteral("stats_15m"),
                             QJsonObject{{QStringLiteral("allowed"), p.statsAllowed},
                                         {QStringLiteral("denied"), p.statsDenied},
                                         {QStringLiteral("top_denied_subjects"), top}}}});
        }
        writeJson(QJsonObject{{QStringLiteral("stored_version"), stored->version},
                              {QStringLiteral("written"), false},
                              {QStringLiteral("rules"), rulesOut}});
        return exitOk;
    }
    QString out =
        QStringLiteral("preview: pushing %1 over the rules in Redis at %2 (version %3) "
                       "would change %4; nothing was written\n")
            .arg(QString::fromLocal8Bit(args.positional().first()), c.endpoint().display())
            .arg(stored->version)
            .arg(plural(preview->size(), "rule", "rules"));
    const auto list = [](const QList<keys::PreviewSubject> &l) {
        QStringList parts;
        for (const auto &s : l) {
            parts << bytes::printable(s.subject);
        }
        return parts.join(u", "_s);
    };
    for (const keys::RulePreview &p : *preview) {
        const char mark = p.kind == keys::RulePreview::Kind::Added     ? '+'
                          : p.kind == keys::RulePreview::Kind::Removed ? '-'
                                                                       : '~';
        out += QStringLiteral("%1 %2%3\n")
                   .arg(QLatin1Char(mark))
                   .arg(p.id, p.fields.isEmpty() ? QString()
                                                 : QStringLiteral("  ") + p.fields.join(u"; "_s));
        if (p.newState) {
            out += QStringLiteral("    a new state layout or key: every subject starts afresh\n");
        }
        out += QStringLiteral("    %1%2: denied now %3, after %4; %5 released, %6 newly denied\n")
                   .arg(plural(p.liveKeys, "live key", "live keys"),
                        p.complete ? QStringLiteral(" (all read)")
                                   : QStringLiteral(" (the scan stopped at its cap: a part)"))
                   .arg(p.deniedNow)
                   .arg(p.deniedAfter)
                   .arg(p.released)
                   .arg(p.newlyDenied);
        if (p.undecodable > 0) {
            out += QStringLiteral("    %1 whose state the rule's script would rebuild\n")
                       .arg(plural(p.undecodable, "key", "keys"));
        }
        if (!p.topReleased.isEmpty()) {
            out += QStringLiteral("    released: %1\n").arg(list(p.topReleased));
        }
        if (!p.topNewlyDenied.isEmpty()) {
            out += QStringLiteral("    newly denied: %1\n").arg(list(p.topNewlyDenied));
        }
        out += QStringLiteral("    last 15 minutes: %1 allowed, %2 denied\n")
                   .arg(p.statsAllowed)
                   .arg(p.statsDenied);
    }
    if (preview->isEmpty()) {
        out += QStringLiteral("no rule changes\n");
    }
    writeOut(out);
    return exitOk;
}

namespace {

QJsonObject countsJson(const stats::Counts &k)
{
    return QJsonObject{{QStringLiteral("allowed"), k.allowed},
                       {QStringLiteral("denied"), k.denied},
                       {QStringLiteral("shadow_denied"), k.shadowDenied}};
}

// A step's outcome (stage, promote, discard) as one line or JSON.
int stepOutcome(const Args &args, const QString &text, const rules::RuleStore::PushResult &r)
{
    if (args.has("json")) {
        QJsonObject o{{QStringLiteral("version"), r.version},
                      {QStringLiteral("added"), QJsonArray::fromStringList(r.added)},
                      {QStringLiteral("changed"), QJsonArray::fromStringList(r.changed)},
                      {QStringLiteral("removed"), QJsonArray::fromStringList(r.removed)}};
        o.insert(QStringLiteral("discarded_stage"),
                 r.discardedStage ? QJsonValue(*r.discardedStage) : QJsonValue());
        writeJson(o);
    } else {
        writeOut(text + QLatin1Char('\n'));
    }
    return exitOk;
}

int storeFailure(const QString &command, const Error &e)
{
    return fail(command, e.message, e.kind == Error::Kind::Invalid ? exitUsage : exitRuntime);
}

} // namespace

int rulesStagePush(const Args &args, Connection &c, const RuleSet &candidate)
{
    auto r = rules::RuleStore().stage(c, candidate, optionsFrom(args));
    if (!r) {
        return storeFailure(QStringLiteral("rules push"), r.error());
    }
    return stepOutcome(args,
                       QStringLiteral("staged as version %1 in Redis at %2: %3; the enforced "
                                      "rules are unchanged, the candidate runs in shadow beside "
                                      "them (rules staged shows both; rules promote | rules "
                                      "discard)")
                           .arg(r->version)
                           .arg(c.endpoint().display(), pushOutcome(*r)),
                       *r);
}

int rulesPromote(const Args &args, bool promote)
{
    const QString command = promote ? u"rules promote"_s : u"rules discard"_s;
    if (!args.positional().isEmpty()) {
        return fail(command,
                    QStringLiteral("%1 takes no argument: it acts on the staged change")
                            .arg(promote ? u"promote"_s : u"discard"_s) +
                        usageOf(u"rules"_s),
                    exitUsage);
    }
    int code = exitOk;
    auto c = connectFromArgs(args, command, &code);
    if (!c) {
        return code;
    }
    const rules::RuleStore store;
    auto r = promote ? store.promote(*c, optionsFrom(args)) : store.discard(*c, optionsFrom(args));
    if (!r) {
        return storeFailure(command, r.error());
    }
    const QString text =
        promote ? QStringLiteral("promoted the staged change as version %1 in Redis at %2: %3")
                      .arg(r->version)
                      .arg(c->endpoint().display(), pushOutcome(*r))
                : QStringLiteral("discarded the change staged at version %1; version %2 in "
                                 "Redis at %3 enforces the same rules as before")
                      .arg(r->discardedStage.value_or(0))
                      .arg(r->version)
                      .arg(c->endpoint().display());
    return stepOutcome(args, text, *r);
}

int rulesStaged(const Args &args)
{
    const QString command = QStringLiteral("rules staged");
    if (!args.positional().isEmpty()) {
        return fail(command, QStringLiteral("staged takes no argument") + usageOf(u"rules"_s),
                    exitUsage);
    }
    int code = exitOk;
    auto c = connectFromArgs(args, command, &code);
    if (!c) {
        return code;
    }
    auto st = rules::RuleStore().staged(*c);
    if (!st) {
        return fail(command, st.error().message, exitRuntime);
    }
    if (!*st) {
        if (args.has("json")) {
            writeJson(QJsonObject{{QStringLiteral("staged"), QJsonValue()}});
        } else {
            writeOut(
                QStringLiteral("nothing is staged in Redis at %1\n").arg(c->endpoint().display()));
        }
        return exitOk;
    }
    const rules::RuleStore::Stage &stage = **st;
    constexpr int seconds = 15 * 60;
    auto report = stats::compareStage(*c, stage, seconds);
    if (!report) {
        return fail(command, report.error().message, exitRuntime);
    }
    if (args.has("json")) {
        QJsonArray rulesOut;
        for (const stats::StagedRuleReport &r : report->rules) {
            QJsonArray top;
            for (const stats::TopSubject &t : r.candidateDenied) {
                top.append(QJsonObject{{QStringLiteral("subject"), bytes::printable(t.subject)},
                                       {QStringLiteral("requests"), t.requests},
                                       {QStringLiteral("would_deny"), t.denied}});
            }
            rulesOut.append(QJsonObject{{QStringLiteral("id"), r.id},
                                        {QStringLiteral("change"), r.change},
                                        {QStringLiteral("enforced"), countsJson(r.enforced)},
                                        {QStringLiteral("candidate"), countsJson(r.candidate)},
                                        {QStringLiteral("top_would_deny"), top}});
        }
        writeJson(QJsonObject{
            {QStringLiteral("staged"), QJsonObject{{QStringLiteral("version"), stage.version},
                                                   {QStringLiteral("based_on"), stage.basedOn},
                                                   {QStringLiteral("time"), stage.time},
                                                   {QStringLiteral("author"), stage.author},
                                                   {QStringLiteral("message"), stage.message}}},
            {QStringLiteral("seconds"), report->seconds},
            {QStringLiteral("rules"), rulesOut}});
        return exitOk;
    }
    QString out =
        QStringLiteral("staged at version %1 (over version %2) by %3 at %4%5\n")
            .arg(stage.version)
            .arg(stage.basedOn)
            .arg(stage.author.isEmpty() ? u"-"_s : bytes::quoted(stage.author.toUtf8()),
                 stage.time.isEmpty() ? u"-"_s : bytes::quoted(stage.time.toUtf8()),
                 stage.message.isEmpty()
                     ? QString()
                     : QStringLiteral(": \"%1\"").arg(bytes::quoted(stage.message.toUtf8())));
    out += QStringLiteral("last 15 minutes, the enforced rule beside its candidate (in shadow):\n");
    for (const stats::StagedRuleReport &r : report->rules) {
        const char mark = r.change == QLatin1String("added")     ? '+'
                          : r.change == QLatin1String("removed") ? '-'
                                                                 : '~';
        out += QStringLiteral("%1 %2\n").arg(QLatin1Char(mark)).arg(r.id);
        if (r.change != QLatin1String("added")) {
            out += QStringLiteral("    enforced:  %1 requests, %2 denied\n")
                       .arg(r.enforced.total())
                       .arg(r.enforced.denied + r.enforced.shadowDenied);
        }
        if (r.change == QLatin1String("removed")) {
            out += QStringLiteral("    candidate: removes the rule (would deny none)\n");
            continue;
        }
        out += QStringLiteral("    candidate: %1 requests, %2 would be denied\n")
                   .arg(r.candidate.total())
                   .arg(r.candidate.shadowDenied);
        QStringList top;
        for (const stats::TopSubject &t : r.candidateDenied) {
            top << QStringLiteral("%1 (%2)").arg(bytes::printable(t.subject)).arg(t.denied);
        }
        if (!top.isEmpty()) {
            out += QStringLiteral("    would deny: %1\n").arg(top.join(u", "_s));
        }
    }
    writeOut(out);
    return exitOk;
}

} // namespace sluice::cli
