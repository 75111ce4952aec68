// Rule files, the writers: JSON and YAML (FORMATS.md "Rule file"). Every field, defaults
// included, in a fixed order; see codec.cpp for the decisions. Moved out of codec.cpp as they
// were.
#include "codec.h"
#include "codecinternal.h"
#include "override.h"

#include "core/common/bytes.h"

#include <QByteArray>
#include <QList>
#include <QString>

using namespace Qt::StringLiterals;

namespace sluice::rules {

namespace {

using internal::resolvePlain;

// ---------------------------------------------------------------------------------------------
// Writers

struct Field
{
    QString name;
    enum class Kind { Text, Integer, Flag, Object, List } kind = Kind::Text;
    QString text;
    qint64 integer = 0;
    bool flag = false;
    // Object: written on one line, {"a": 1, "b": "x"}. List: objects, one per line.
    QList<Field> members;
};

Field textField(const QString &name, const QString &text)
{
    return Field{name, Field::Kind::Text, text, 0, false, {}};
}

Field integerField(const QString &name, qint64 value)
{
    return Field{name, Field::Kind::Integer, {}, value, false, {}};
}

Field flagField(const QString &name, bool value)
{
    return Field{name, Field::Kind::Flag, {}, 0, value, {}};
}

// One override as an object: what it matches, what it does, its end, its note.
Field overrideField(const Rule &r, const Override &o)
{
    Field f;
    f.kind = Field::Kind::Object;
    f.members << textField(Override::kindField(o.kind), o.pattern);
    if (o.action == Override::Action::Limit) {
        Field l;
        l.name = u"limit"_s;
        l.kind = Field::Kind::Object;
        if (algorithm::isWindow(r.algorithm)) {
            l.members << integerField(u"limit"_s, o.limit)
                      << textField(u"window"_s, duration::formatUs(o.windowUs));
        } else {
            l.members << textField(u"rate"_s, duration::formatRate(o.rate))
                      << integerField(u"burst"_s, o.burst);
        }
        f.members << l;
    } else {
        f.members << flagField(Override::actionName(o.action), true);
    }
    if (o.expiresUs != 0) {
        f.members << textField(u"expires"_s, formatTimestampUs(o.expiresUs));
    }
    if (o.ttlUs != 0) {
        f.members << textField(u"ttl"_s, duration::formatUs(o.ttlUs));
    }
    if (!o.note.isEmpty()) {
        f.members << textField(u"note"_s, o.note);
    }
    return f;
}

// The order of FORMATS.md, the one every writer uses.
QList<Field> fieldsOf(const Rule &r)
{
    QList<Field> out = {
        textField(u"id"_s, r.id),
        textField(u"description"_s, r.description),
        textField(u"route"_s, r.route),
        textField(u"scope"_s, r.scope.toString()),
        textField(u"algorithm"_s, algorithm::name(r.algorithm)),
    };
    if (algorithm::isWindow(r.algorithm)) {
        out.append(integerField(u"limit"_s, r.limit));
        out.append(textField(u"window"_s, duration::formatUs(r.windowUs)));
    } else {
        out.append(textField(u"rate"_s, duration::formatRate(r.rate)));
        out.append(integerField(u"burst"_s, r.burst));
    }
    out.append(textField(u"key_prefix"_s, QString::fromUtf8(r.keyPrefix)));
    out.append(textField(u"on_redis_error"_s, onRedisErrorName(r.onRedisError)));
    if (r.onChange != OnChange::KeepUsed) { // the default is left out, as files had it
        out.append(textField(u"on_change"_s, QString::fromLatin1(onchange::name(r.onChange))));
    }
    if (r.countRejected) { // the default is left out: files without it read the same
        out.append(flagField(u"count_rejected"_s, true));
    }
    out.append(flagField(u"shadow"_s, r.shadow));
    out.append(flagField(u"enabled"_s, r.enabled));
    if (r.adopt) {
        Field a;
        a.name = u"adopt"_s;
        a.kind = Field::Kind::Object;
        a.members << textField(u"match"_s, QString::fromUtf8(r.adopt->match))
                  << textField(u"layout"_s, r.adopt->layout);
        if (r.adopt->windowUs > 0) {
            a.members << textField(u"window"_s, duration::formatUs(r.adopt->windowUs));
        }
        if (r.adopt->limit > 0) {
            a.members << integerField(u"limit"_s, r.adopt->limit);
        }
        if (!r.adopt->script.isEmpty()) {
            a.members << textField(u"script"_s, r.adopt->script);
        }
        out.append(a);
    }
    if (!r.overrides.empty()) {
        Field list;
        list.name = u"overrides"_s;
        list.kind = Field::Kind::List;
        for (const Override &o : r.overrides) {
            list.members.append(overrideField(r, o));
        }
        out.append(list);
    }
    return out;
}

void appendHex4(QByteArray &out, uint c)
{
    out += "\\u";
    out += QByteArray::number(c, 16).toUpper().rightJustified(4, '0');
}

void appendJsonString(QByteArray &out, const QString &text)
{
    out += '"';
    for (const char ch : text.toUtf8()) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20 || c == 0x7F) {
                appendHex4(out, c);
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

void appendJsonValue(QByteArray &out, const Field &f)
{
    switch (f.kind) {
    case Field::Kind::List:
        out += '[';
        for (qsizetype i = 0; i < f.members.size(); ++i) {
            out += i == 0 ? "" : ", ";
            appendJsonValue(out, f.members[i]);
        }
        out += ']';
        break;
    case Field::Kind::Object:
        out += '{';
        for (qsizetype i = 0; i < f.members.size(); ++i) {
            out += i == 0 ? "" : ", ";
            appendJsonString(out, f.members[i].name);
            out += ": ";
            appendJsonValue(out, f.members[i]);
        }
        out += '}';
        break;
    case Field::Kind::Text:
        appendJsonString(out, f.text);
        break;
    case Field::Kind::Integer:
        out += QByteArray::number(f.integer);
        break;
    case Field::Kind::Flag:
        out += f.flag ? "true" : "false";
        break;
    }
}

// Whether YAML reads `text` unquoted back as the same string, by the 1.2 core schema and, to be
// kind to other tools, without YAML 1.1 booleans, numbers with '_' or timestamps.
bool yamlPlainSafe(const QString &text)
{
    if (text.isEmpty() || text.front() == u' ' || text.back() == u' ') {
        return false;
    }
    const char16_t first = text.front().unicode();
    if (first == u'-' || first == u'.' || first == u'+') {
        return false; // "- x" is a list item; numbers; ".inf"
    }
    // A digit followed only by characters of YAML 1.1 numbers, times and dates ("1_000",
    // "1e3", "12:30", "2024-01-01"): quoted.
    bool numberish = first >= u'0' && first <= u'9';
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const char16_t u = c.unicode();
        // ':' only inside a word ("header:X-Api-Key"): ": " and a final ':' end a key.
        const bool colon = u == u':' && i + 1 < text.size() && text.at(i + 1) != u' ';
        const bool ascii = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') ||
                           (u >= u'0' && u <= u'9') || u == u' ' || u == u'_' || u == u'.' ||
                           u == u'/' || u == u'-' || u == u'+' || u == u'(' || u == u')' || colon;
        const bool other = u >= 0xA0 && c.isLetterOrNumber();
        if (!ascii && !other) {
            return false;
        }
        if (!((u >= u'0' && u <= u'9') || u == u'_' || u == u'.' || u == u'-' || u == u'+' ||
              u == u':' || u == u'e' || u == u'E' || u == u'x' || u == u'o' || u == u'b')) {
            numberish = false;
        }
    }
    if (numberish) {
        return false;
    }
    const std::string s = text.toStdString();
    if (!resolvePlain(s).isString()) {
        return false;
    }
    static const QStringList yaml11 = {u"y"_s, u"n"_s, u"yes"_s, u"no"_s, u"on"_s, u"off"_s};
    return !yaml11.contains(text.toLower());
}

void appendYamlString(QByteArray &out, const QString &text)
{
    if (yamlPlainSafe(text)) {
        out += text.toUtf8();
        return;
    }
    out += '"';
    const QList<uint> codePoints = text.toUcs4();
    for (const uint c : codePoints) {
        switch (c) {
        case '"':
            out += "\\\"";
            continue;
        case '\\':
            out += "\\\\";
            continue;
        case '\n':
            out += "\\n";
            continue;
        case '\t':
            out += "\\t";
            continue;
        case '\r':
            out += "\\r";
            continue;
        default:
            break;
        }
        // Not printable in YAML, or a line break in YAML 1.1 (NEL, LS, PS), or a BOM.
        if (c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0x2028 || c == 0x2029 || c == 0xFEFF ||
            c == 0xFFFE || c == 0xFFFF || (c >= 0xD800 && c < 0xE000)) {
            appendHex4(out, c >= 0xD800 && c < 0xE000 ? 0xFFFD : c);
            continue;
        }
        const char32_t one = char32_t(c);
        out += QString::fromUcs4(&one, 1).toUtf8();
    }
    out += '"';
}

void appendYamlValue(QByteArray &out, const Field &f)
{
    switch (f.kind) {
    case Field::Kind::List:
    case Field::Kind::Object:
    case Field::Kind::Integer:
    case Field::Kind::Flag:
        // As JSON writes it, which YAML reads alike: integers, true and false, and a flow
        // mapping with JSON strings (valid YAML double-quoted scalars) on one line.
        appendJsonValue(out, f);
        break;
    case Field::Kind::Text:
        appendYamlString(out, f.text);
        break;
    }
}

QByteArray ruleJson(const Rule &rule, const char *indent)
{
    const bool compact = indent == nullptr;
    QByteArray out = compact ? "{" : "{\n";
    const QList<Field> fields = fieldsOf(rule);
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (!compact) {
            out += indent;
            out += "  ";
        }
        appendJsonString(out, fields[i].name);
        out += compact ? ":" : ": ";
        if (!compact && fields[i].kind == Field::Kind::List) {
            // One element per line, a level deeper than the rule's fields.
            out += "[\n";
            for (qsizetype j = 0; j < fields[i].members.size(); ++j) {
                out += indent;
                out += "    ";
                appendJsonValue(out, fields[i].members[j]);
                out += j + 1 < fields[i].members.size() ? ",\n" : "\n";
            }
            out += indent;
            out += "  ]";
        } else {
            appendJsonValue(out, fields[i]);
        }
        if (i + 1 < fields.size()) {
            out += ',';
        }
        if (!compact) {
            out += '\n';
        }
    }
    if (!compact) {
        out += indent;
    }
    out += '}';
    return out;
}

} // namespace

QByteArray toJson(const RuleSet &set)
{
    QByteArray out = "{\n  \"version\": " + QByteArray::number(set.version) + ",\n";
    if (set.basedOn) {
        out += "  \"based_on\": " + QByteArray::number(*set.basedOn) + ",\n";
    }
    if (set.rules.empty()) {
        return out + "  \"rules\": []\n}\n";
    }
    out += "  \"rules\": [\n";
    for (size_t i = 0; i < set.rules.size(); ++i) {
        out += "    ";
        out += ruleJson(set.rules[i], "    ");
        out += i + 1 < set.rules.size() ? ",\n" : "\n";
    }
    return out + "  ]\n}\n";
}

QByteArray toYaml(const RuleSet &set)
{
    QByteArray out = "version: " + QByteArray::number(set.version) + '\n';
    if (set.basedOn) {
        out += "based_on: " + QByteArray::number(*set.basedOn) + '\n';
    }
    if (set.rules.empty()) {
        return out + "rules: []\n";
    }
    out += "rules:\n";
    for (const Rule &rule : set.rules) {
        const QList<Field> fields = fieldsOf(rule);
        for (qsizetype i = 0; i < fields.size(); ++i) {
            out += i == 0 ? "  - " : "    ";
            out += fields[i].name.toUtf8();
            if (fields[i].kind == Field::Kind::List) {
                // A block list of flow mappings: one override per line.
                out += ":\n";
                for (const Field &element : fields[i].members) {
                    out += "      - ";
                    appendYamlValue(out, element);
                    out += '\n';
                }
                continue;
            }
            out += ": ";
            appendYamlValue(out, fields[i]);
            out += '\n';
        }
    }
    return out;
}

QByteArray overrideToJson(const Rule &rule, const Override &o)
{
    QByteArray out;
    appendJsonValue(out, overrideField(rule, o));
    return out;
}

QByteArray ruleToJson(const Rule &rule)
{
    return ruleJson(rule, nullptr);
}

} // namespace sluice::rules
