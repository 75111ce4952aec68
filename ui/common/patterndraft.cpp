#include "patterndraft.h"

#include "core/common/duration.h"
#include "core/sim/scenario.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace sluice::ui {

QStringList PatternDraft::keys(const QString &kind)
{
    if (kind == u"constant"_s || kind == u"poisson"_s) {
        return {u"rate"_s, u"from"_s, u"to"_s, u"subject"_s};
    }
    if (kind == u"burst"_s) {
        return {u"at"_s, u"count"_s, u"spread"_s, u"subject"_s};
    }
    if (kind == u"ramp"_s) {
        return {u"from_rate"_s, u"to_rate"_s, u"from"_s, u"to"_s, u"subject"_s};
    }
    if (kind == u"replay"_s) {
        return {u"file"_s, u"from"_s, u"to"_s};
    }
    return {};
}

QString PatternDraft::kindTitle(const QString &kind)
{
    const QHash<QString, QString> titles{{u"constant"_s, tr("Constant")},
                                         {u"burst"_s, tr("Burst")},
                                         {u"poisson"_s, tr("Poisson")},
                                         {u"ramp"_s, tr("Ramp")},
                                         {u"replay"_s, tr("Replay")}};
    return titles.value(kind, kind);
}

QString PatternDraft::kindNote(const QString &kind)
{
    const QHash<QString, QString> notes{
        {u"constant"_s, tr("Evenly spaced requests at the rate, between From and To.")},
        {u"burst"_s, tr("Count requests at once at At, or spread evenly over Spread.")},
        {u"poisson"_s, tr("The rate on average, with random (exponential) gaps: real clients.")},
        {u"ramp"_s, tr("The rate grows (or falls) linearly from one value to the other between "
                       "From and To.")},
        {u"replay"_s, tr("The requests of a recorded trace, at their times.")}};
    return notes.value(kind);
}

QString timeText(qint64 us)
{
    return us == 0 ? u"0s"_s : duration::formatUs(us);
}

void putField(QJsonObject &o, const QString &key, const QString &raw)
{
    const QString text = raw.trimmed();
    if (text.isEmpty()) {
        return;
    }
    static const QStringList integers{u"count"_s, u"seed"_s, u"subjects"_s, u"limit"_s, u"burst"_s};
    if (integers.contains(key)) {
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        if (ok) {
            o.insert(key, n);
            return;
        }
    }
    o.insert(key, text);
}

void addError(FieldErrors &errors, const QString &key, const QString &message)
{
    QString &slot = errors[key];
    slot = slot.isEmpty() ? message : slot + u'\n' + message;
}

PatternDraft PatternDraft::from(const sim::TrafficPattern &p)
{
    PatternDraft d;
    d.kind = sim::TrafficPattern::kindName(p.kind);
    using K = sim::TrafficPattern::Kind;
    auto &v = d.values;
    switch (p.kind) {
    case K::Constant:
    case K::Poisson:
        v.insert(u"rate"_s, duration::formatRate(p.rate));
        break;
    case K::Burst:
        v.insert(u"at"_s, timeText(p.atUs));
        v.insert(u"count"_s, QString::number(p.count));
        if (p.spreadUs > 0) {
            v.insert(u"spread"_s, timeText(p.spreadUs));
        }
        break;
    case K::Ramp:
        v.insert(u"from_rate"_s, duration::formatRate(p.fromRate));
        v.insert(u"to_rate"_s, duration::formatRate(p.toRate));
        break;
    case K::Replay:
        v.insert(u"file"_s, p.file);
        break;
    }
    if (p.kind != K::Burst) {
        if (p.fromUs > 0) {
            v.insert(u"from"_s, timeText(p.fromUs));
        }
        if (p.toUs) {
            v.insert(u"to"_s, timeText(*p.toUs));
        }
    }
    if (!p.subject.isEmpty() && p.kind != K::Replay) {
        v.insert(u"subject"_s, QString::fromUtf8(p.subject));
    }
    return d;
}

QJsonObject PatternDraft::toJson() const
{
    QJsonObject o;
    o.insert(u"pattern"_s, kind);
    for (const QString &key : keys()) {
        putField(o, key, values.value(key));
    }
    return o;
}

QString PatternDraft::summary() const
{
    const auto v = [this](const char *key) { return values.value(QString::fromLatin1(key)); };
    QString text;
    if (kind == u"constant"_s || kind == u"poisson"_s) {
        text = tr("%1 %2").arg(kind, v("rate"));
    } else if (kind == u"burst"_s) {
        text = tr("burst of %1 at %2").arg(v("count"), v("at"));
        if (!v("spread").isEmpty()) {
            text += tr(" over %1").arg(v("spread"));
        }
    } else if (kind == u"ramp"_s) {
        text = tr("ramp %1 → %2").arg(v("from_rate"), v("to_rate"));
    } else {
        text = tr("replay %1").arg(v("file"));
    }
    if (kind != u"burst"_s && (!v("from").isEmpty() || !v("to").isEmpty())) {
        text += tr(", %1 to %2")
                    .arg(v("from").isEmpty() ? tr("start") : v("from"),
                         v("to").isEmpty() ? tr("end") : v("to"));
    }
    return text;
}

QString CheckedPattern::firstProblem() const
{
    if (!other.isEmpty()) {
        return other.first();
    }
    for (const QString &key : {u"duration"_s, u"subjects"_s, u"seed"_s}) {
        if (errors.contains(key)) {
            return errors.value(key);
        }
    }
    return errors.isEmpty() ? QString() : errors.cbegin().value();
}

CheckedPattern checkAlone(const PatternDraft &draft, const QString &durationText, qint64 subjects,
                          quint64 seed)
{
    // A scenario of this pattern alone, and a stand-in rule (the reader wants one; the rules
    // a run decides with are checked where they are chosen).
    QJsonObject root;
    putField(root, u"duration"_s, durationText);
    root.insert(u"subjects"_s, subjects);
    root.insert(u"seed"_s, qint64(seed));
    root.insert(u"traffic"_s, QJsonArray{draft.toJson()});
    root.insert(u"rules"_s, QJsonArray{QJsonObject{{u"id"_s, u"stand-in"_s},
                                                   {u"algorithm"_s, u"fixed_window"_s},
                                                   {u"scope"_s, u"global"_s},
                                                   {u"limit"_s, 1},
                                                   {u"window"_s, u"1s"_s}}});
    const sim::scenario::Loaded loaded =
        sim::scenario::parseJson(QJsonDocument(root).toJson(QJsonDocument::Compact), QString());
    CheckedPattern out;
    static const QRegularExpression field(QStringLiteral("^traffic\\[0\\]\\.([A-Za-z_]+)"));
    const QStringList keys = draft.keys();
    for (const Diagnostic &d : loaded.errors) {
        const auto m = field.match(d.path);
        if (m.hasMatch() && keys.contains(m.captured(1))) {
            addError(out.errors, m.captured(1), d.message);
        } else if (d.path == u"duration"_s || d.path == u"subjects"_s || d.path == u"seed"_s) {
            addError(out.errors, d.path, d.message);
        } else {
            out.other << d.message;
        }
    }
    if (loaded.ok() && loaded.scenario.traffic.size() == 1) {
        out.pattern = loaded.scenario.traffic.front();
        out.durationUs = loaded.scenario.durationUs;
    }
    return out;
}

} // namespace sluice::ui
