#include "scenariodraft.h"

#include "ui/rules/rulefields.h"
#include "ui/rules/rulesmodel.h"

#include "core/common/duration.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace sluice::ui {

QStringList RuleDraft::keys(const QString &algorithm)
{
    const auto a = algorithm::fromName(algorithm);
    if (a && !algorithm::isWindow(*a)) {
        return {u"id"_s, u"scope"_s, u"rate"_s, u"burst"_s};
    }
    return {u"id"_s, u"scope"_s, u"limit"_s, u"window"_s};
}

RuleDraft RuleDraft::from(const Rule &rule)
{
    RuleDraft r;
    r.kind = algorithm::name(rule.algorithm);
    r.values.insert(u"id"_s, rule.id);
    r.values.insert(u"scope"_s, rule.scope.toString());
    if (!rule.description.isEmpty()) {
        r.values.insert(u"description"_s, rule.description);
    }
    if (!rule.route.isEmpty()) {
        r.values.insert(u"route"_s, rule.route);
    }
    if (algorithm::isWindow(rule.algorithm)) {
        r.values.insert(u"limit"_s, QString::number(rule.limit));
        r.values.insert(u"window"_s, timeText(rule.windowUs));
    } else {
        r.values.insert(u"rate"_s, duration::formatRate(rule.rate));
        r.values.insert(u"burst"_s, QString::number(rule.burst));
    }
    r.countRejected = rule.countRejected;
    if (const auto &a = rule.adopt) {
        r.keyPrefix = QString::fromUtf8(rule.keyPrefix);
        r.adopt.insert(u"match"_s, QString::fromUtf8(a->match));
        r.adopt.insert(u"layout"_s, a->layout);
        if (a->windowUs > 0) {
            r.adopt.insert(u"window"_s, duration::formatUs(a->windowUs));
        }
        if (a->limit > 0) {
            r.adopt.insert(u"limit"_s, double(a->limit));
        }
        if (!a->script.isEmpty()) {
            r.adopt.insert(u"script"_s, a->script);
        }
    }
    return r;
}

QString RuleDraft::summary() const
{
    const auto a = algorithm::fromName(kind);
    const QString params =
        a && !algorithm::isWindow(*a)
            ? tr("%1, burst %2").arg(values.value(u"rate"_s), values.value(u"burst"_s))
            : tr("%1 per %2").arg(values.value(u"limit"_s), values.value(u"window"_s));
    // The Rules page's words: "fixed window", "per IP address".
    const QString line = tr("%1 · %2 %3, %4")
                             .arg(values.value(u"id"_s), a ? RulesModel::algorithmText(*a) : kind,
                                  params, RuleFields::scopeWords(values.value(u"scope"_s)));
    return adopt.isEmpty() ? line
                           : tr("%1 + adopted %2").arg(line, adopt.value(u"layout"_s).toString());
}

QStringList ScenarioDraft::topKeys()
{
    return {u"name"_s, u"duration"_s, u"bin"_s, u"measure_window"_s, u"subjects"_s, u"seed"_s};
}

void ScenarioDraft::setScenario(const sim::Scenario &s, const QString &dir)
{
    baseDir = dir;
    top.clear();
    top.insert(u"name"_s, s.name);
    top.insert(u"description"_s, s.description);
    top.insert(u"duration"_s, timeText(s.durationUs));
    top.insert(u"bin"_s, timeText(s.binUs));
    top.insert(u"measure_window"_s, timeText(s.measureWindowUs));
    top.insert(u"subjects"_s, QString::number(s.subjects));
    top.insert(u"seed"_s, QString::number(s.seed));
    patterns.clear();
    for (const sim::TrafficPattern &p : s.traffic) {
        patterns.push_back(PatternDraft::from(p));
    }
    rules.clear();
    for (const Rule &rule : s.rules) {
        rules.push_back(RuleDraft::from(rule));
    }
}

bool ScenarioDraft::load(const sim::scenario::Loaded &loaded, const QString &dir, QString *error)
{
    if (!loaded.ok()) {
        if (error) {
            QStringList lines;
            for (const Diagnostic &d : loaded.errors) {
                lines << d.toString();
            }
            *error = lines.join(u'\n');
        }
        return false;
    }
    setScenario(loaded.scenario, dir);
    return true;
}

bool ScenarioDraft::save(const QString &path, QString *error) const
{
    const auto fail = [error](const QString &message) {
        if (error) {
            *error = message;
        }
        return false;
    };
    const qsizetype problems = problemCount;
    if (problems > 0) {
        return fail(tr("The scenario has %n problem(s), marked beside their fields; it was not "
                       "saved.",
                       nullptr, int(problems)));
    }
    if (!path.endsWith(u".json"_s, Qt::CaseInsensitive)) {
        return fail(tr("%1: scenarios are saved as JSON; give the file a .json name").arg(path));
    }
    QSaveFile f(path);
    const QByteArray bytes = documentJson();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        return fail(tr("Cannot write %1: %2").arg(path, f.errorString()));
    }
    return true;
}

int ScenarioDraft::addPattern()
{
    PatternDraft p;
    p.values.insert(u"rate"_s, u"10/s"_s);
    patterns.push_back(p);
    return int(patterns.size()) - 1;
}

int ScenarioDraft::addRule()
{
    RuleDraft r;
    r.values.insert(u"id"_s, u"rule-%1"_s.arg(rules.size() + 1));
    r.values.insert(u"scope"_s, u"ip"_s);
    r.values.insert(u"limit"_s, u"10"_s);
    r.values.insert(u"window"_s, u"1s"_s);
    rules.push_back(r);
    return int(rules.size()) - 1;
}

int ScenarioDraft::removePattern(int index)
{
    if (index < 0 || size_t(index) >= patterns.size()) {
        return index;
    }
    patterns.erase(patterns.begin() + index);
    return std::min(index, int(patterns.size()) - 1);
}

int ScenarioDraft::removeRule(int index)
{
    if (index < 0 || size_t(index) >= rules.size()) {
        return index;
    }
    rules.erase(rules.begin() + index);
    return std::min(index, int(rules.size()) - 1);
}

void ScenarioDraft::useRules(const RuleSet &set)
{
    rules.clear();
    for (const Rule &rule : set.rules) {
        RuleDraft r = RuleDraft::from(rule);
        r.values.remove(u"description"_s);
        r.values.remove(u"route"_s);
        rules.push_back(r);
    }
}

QByteArray ScenarioDraft::documentJson() const
{
    QJsonObject root;
    for (const QString &key : {u"name"_s, u"description"_s, u"duration"_s, u"seed"_s, u"bin"_s,
                               u"measure_window"_s, u"subjects"_s}) {
        putField(root, key, top.value(key));
    }
    QJsonArray traffic;
    for (const PatternDraft &p : patterns) {
        traffic.append(p.toJson());
    }
    root.insert(u"traffic"_s, traffic);
    QJsonArray list;
    for (const RuleDraft &r : rules) {
        QJsonObject o;
        for (const QString &key : {u"id"_s, u"description"_s, u"route"_s, u"scope"_s}) {
            putField(o, key, r.values.value(key));
        }
        o.insert(u"algorithm"_s, r.kind);
        for (const QString &key : r.keys().mid(2)) {
            putField(o, key, r.values.value(key));
        }
        const auto a = algorithm::fromName(r.kind);
        if (r.countRejected && a && algorithm::countsRejected(*a)) {
            o.insert(u"count_rejected"_s, true);
        }
        if (!r.adopt.isEmpty()) {
            o.insert(u"key_prefix"_s, r.keyPrefix);
            o.insert(u"adopt"_s, r.adopt);
        }
        list.append(o);
    }
    root.insert(u"rules"_s, list);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

sim::scenario::Loaded ScenarioDraft::check()
{
    sim::scenario::Loaded loaded = sim::scenario::parseJson(documentJson(), QString(), baseDir);
    topErrors.clear();
    patternErrors.assign(patterns.size(), {});
    ruleErrors.assign(rules.size(), {});
    trafficProblems.clear();
    ruleProblems.clear();
    problemCount = loaded.errors.size();
    QStringList other;
    static const QRegularExpression itemPath(
        QStringLiteral("^(traffic|rules)\\[(\\d+)\\](?:\\.([A-Za-z_]+))?"));
    const QStringList topFields = topKeys();
    for (const Diagnostic &d : loaded.errors) {
        const auto m = itemPath.match(d.path);
        if (m.hasMatch()) {
            const bool isTraffic = m.captured(1) == u"traffic"_s;
            const size_t index = size_t(m.captured(2).toLongLong());
            const QString field = m.captured(3);
            bool known = false;
            if (isTraffic && index < patterns.size()) {
                known = patterns[index].keys().contains(field);
            } else if (!isTraffic && index < rules.size()) {
                known = rules[index].keys().contains(field);
            }
            if (known) {
                addError((isTraffic ? patternErrors : ruleErrors)[index], field, d.message);
            } else {
                (isTraffic ? trafficProblems : ruleProblems)
                    << (isTraffic ? tr("Pattern %1: %2") : tr("Rule %1: %2"))
                           .arg(index + 1)
                           .arg(d.message);
            }
        } else if (d.path == u"traffic"_s) {
            trafficProblems << d.message;
        } else if (d.path == u"rules"_s) {
            ruleProblems << d.message;
        } else if (topFields.contains(d.path)) {
            addError(topErrors, d.path, d.message);
        } else {
            other << (d.path.isEmpty() ? d.message : d.path + u": "_s + d.message);
        }
    }
    ruleProblems << other;
    return loaded;
}

} // namespace sluice::ui
