// Rule files, JSON and YAML: a document read into a tree (a QJsonValue) with the places of its
// fields, and the diagnostics placed at the end (codec.cpp builds the rules from the tree).
#include "codec.h"
#include "codecinternal.h"
#include "diagnostics.h"
#include "jsonlocator.h"

#include "core/common/bytes.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QSet>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <climits>
#include <istream>

using namespace Qt::StringLiterals;

namespace sluice::rules::internal {

using bytes::shortened;

// ---------------------------------------------------------------------------------------------
// Diagnostics: paths first, positions at the end.

Loaded failed(const QString &file, const QString &message, TextPosition pos)
{
    Loaded out;
    out.errors.append(diagnostic(file, {}, message, pos));
    return out;
}

QStringList withAncestors(const QList<Diagnostic> &diags)
{
    QSet<QString> seen;
    QStringList out;
    for (const Diagnostic &d : diags) {
        QString p = d.path;
        while (!seen.contains(p)) {
            seen.insert(p);
            out.append(p);
            if (p.isEmpty()) {
                break;
            }
            p = fieldpath::parent(p);
        }
    }
    return out;
}

// Gives every diagnostic without a position the position of its path, or of its nearest
// ancestor that has one (a missing field points at its object), in one pass over the text.
void place(QList<Diagnostic> &diags, const QHash<QString, qsizetype> &offsets, QByteArrayView text)
{
    QList<qsizetype> wanted;
    QList<qsizetype> which;
    for (qsizetype i = 0; i < diags.size(); ++i) {
        if (diags[i].line > 0) {
            continue;
        }
        QString p = diags[i].path;
        for (;;) {
            const auto it = offsets.constFind(p);
            if (it != offsets.constEnd()) {
                wanted.append(*it);
                which.append(i);
                break;
            }
            if (p.isEmpty()) {
                break;
            }
            p = fieldpath::parent(p);
        }
    }
    const QList<TextPosition> positions = positionsAt(text, wanted);
    for (qsizetype k = 0; k < which.size(); ++k) {
        diags[which[k]].line = positions[k].line;
        diags[which[k]].column = positions[k].column;
    }
    std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic &a, const Diagnostic &b) {
        const auto key = [](const Diagnostic &d) {
            return std::pair(d.line > 0 ? d.line : INT_MAX, d.column);
        };
        return key(a) < key(b);
    });
}

QByteArray withoutBom(const QByteArray &bytes)
{
    return bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes;
}

bool isBlank(const QByteArray &bytes)
{
    return std::all_of(bytes.cbegin(), bytes.cend(),
                       [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

// ---------------------------------------------------------------------------------------------
// JSON

JsonTree readJson(const QByteArray &bytes, const QString &file)
{
    JsonTree out;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error == QJsonParseError::NoError) {
        out.root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
        return out;
    }
    // Qt's offsets point after the offending character at best ("unterminated object" for a
    // missing comma): our scanner finds the same error at its first byte, with a better word.
    const JsonLocator::Scan scan = JsonLocator(bytes).scan({});
    qsizetype offset = err.offset;
    QString message = err.errorString();
    if (scan.syntaxError) {
        offset = scan.syntaxError->offset;
        message = scan.syntaxError->message;
    }
    out.syntaxError =
        diagnostic(file, {}, u"JSON syntax error: "_s + message, positionAt(bytes, offset));
    return out;
}

// Duplicate members found by the scanner, with where the first one was.
void addDuplicates(QList<Diagnostic> &diags, const QList<JsonLocator::Duplicate> &duplicates,
                   QByteArrayView text, const QString &file)
{
    QList<qsizetype> offsets;
    for (const JsonLocator::Duplicate &d : duplicates) {
        offsets << d.offset << d.firstOffset;
    }
    const QList<TextPosition> positions = positionsAt(text, offsets);
    for (qsizetype i = 0; i < duplicates.size(); ++i) {
        const TextPosition first = positions[2 * i + 1];
        const QString name = fieldpath::split(duplicates[i].path)
                                 .value_or(QList<fieldpath::Component>{{}})
                                 .constLast()
                                 .name;
        diags.append(diagnostic(file, duplicates[i].path,
                                u"the field '%1' appears twice in one object (first at line %2, "
                                "column %3); remove one of them"_s.arg(shortened(name))
                                    .arg(first.line)
                                    .arg(first.column),
                                positions[2 * i]));
    }
}

// ---------------------------------------------------------------------------------------------
// YAML

namespace {

// A refusal from inside the event handler: unwinds yaml-cpp's parser (which is exception-safe:
// it reports its own errors by throwing).
struct YamlRefusal
{
    qsizetype offset;
    QString message;
    bool checkSyntax = true; // false: say this even if the rest of the stream is malformed
};

const std::string coreTag = "tag:yaml.org,2002:";

class YamlReader final : public YAML::EventHandler
{
public:
    explicit YamlReader(QByteArrayView text)
        : m_text(text)
    {}

    QJsonValue root;
    QHash<QString, qsizetype> offsets; // paths down to rules[i].field -> byte offset
    using Duplicate = YamlDuplicate;
    QList<Duplicate> duplicates;

    void OnDocumentStart(const YAML::Mark &) override {}
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        noAnchor(mark, anchor);
        if (keyExpected()) {
            takeKey(QString(), mark.pos);
            return;
        }
        begin(mark);
        add(QJsonValue(QJsonValue::Null));
    }

    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override
    {
        throw YamlRefusal{mark.pos, aliasMessage()};
    }

    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        noAnchor(mark, anchor);
        checkTerminated(mark.pos);
        if (keyExpected()) {
            takeKey(QString::fromStdString(value), mark.pos);
            return;
        }
        begin(mark);
        add(resolve(mark, tag, value));
    }

    void OnSequenceStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        open(mark, tag, anchor, false);
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        open(mark, tag, anchor, true);
    }
    void OnMapEnd() override { close(); }

private:
    // Paths are kept down to this depth: the document, rules, rules[i], rules[i].field, and
    // the fields of an override and of its limit.
    // rules[i].overrides[j].limit.field: six.
    static constexpr int trackedDepth = 6;

    struct Frame
    {
        bool map = false;
        int depth = 0;
        QString path;
        QJsonObject object;
        QJsonArray array;
        bool haveKey = false;
        QString key;
        qsizetype keyOffset = 0;
        detail::SeenKeys<QString> keyOffsets;
    };

    static QString aliasMessage()
    {
        return u"anchors and aliases (&name, *name) are not supported in rule files; write each "
               "value out"_s;
    }

    void noAnchor(const YAML::Mark &mark, YAML::anchor_t anchor) const
    {
        if (anchor != YAML::NullAnchor) {
            throw YamlRefusal{mark.pos, aliasMessage()};
        }
    }

    bool keyExpected() const
    {
        return !m_stack.empty() && m_stack.back().map && !m_stack.back().haveKey;
    }

    void takeKey(const QString &key, qsizetype offset)
    {
        Frame &f = m_stack.back();
        f.key = key;
        f.keyOffset = offset;
        f.haveKey = true;
    }

    // yaml-cpp 0.7 takes a quoted scalar cut off by the end of the file as complete: a
    // truncated file would load. The mark is on the scalar's properties or its quote.
    void checkTerminated(qsizetype pos) const
    {
        const char *s = m_text.data();
        const qsizetype n = m_text.size();
        qsizetype p = pos;
        while (p < n && (s[p] == '!' || s[p] == '&')) {
            while (p < n && s[p] != ' ' && s[p] != '\t' && s[p] != '\n' && s[p] != '\r') {
                ++p;
            }
            while (p < n && (s[p] == ' ' || s[p] == '\t')) {
                ++p;
            }
        }
        if (p >= n || (s[p] != '"' && s[p] != '\'')) {
            return;
        }
        const char quote = s[p];
        for (qsizetype i = p + 1; i < n; ++i) {
            if (quote == '"' && s[i] == '\\') {
                ++i;
            } else if (s[i] == quote) {
                if (quote == '\'' && i + 1 < n && s[i + 1] == '\'') {
                    ++i; // '' is a quote inside single quotes
                    continue;
                }
                return;
            }
        }
        throw YamlRefusal{p, u"unterminated quoted string: the file ends before its closing "
                             "quote (is the file truncated?)"_s};
    }

    QJsonValue resolve(const YAML::Mark &mark, const std::string &tag, const std::string &value)
    {
        if (tag == "?") {
            return resolvePlain(value);
        }
        if (tag == "!" || tag == coreTag + "str") {
            return QString::fromStdString(value);
        }
        const QJsonValue plain = resolvePlain(value);
        if (tag == coreTag + "int" && plain.isDouble() && plain.toInteger(LLONG_MIN) != LLONG_MIN) {
            return plain;
        }
        if (tag == coreTag + "float" && plain.isDouble()) {
            return plain;
        }
        if (tag == coreTag + "bool" && plain.isBool()) {
            return plain;
        }
        if (tag == coreTag + "null" && plain.isNull()) {
            return plain;
        }
        throw YamlRefusal{mark.pos, tagMessage(tag, value)};
    }

    static QString tagMessage(const std::string &tag, const std::string &value)
    {
        QString shown = QString::fromStdString(tag);
        if (shown.startsWith(QString::fromStdString(coreTag))) {
            shown = u"!!"_s + shown.mid(int(coreTag.size()));
        }
        if (value.empty()) {
            return u"the tag %1 is not supported in rule files; write plain values"_s.arg(
                shortened(shown));
        }
        return u"'%1' is not a valid %2 value; rule files need no tags: write plain values"_s.arg(
            shortened(QString::fromStdString(value)), shortened(shown));
    }

    // A value starts at mark: its path and where it is (a member: its key; an element: itself).
    QString begin(const YAML::Mark &mark)
    {
        if (m_stack.empty()) {
            offsets.insert(QString(), mark.pos);
            return QString();
        }
        const Frame &f = m_stack.back();
        if (!f.map && f.array.size() >= maxListElements) {
            throw YamlRefusal{mark.pos,
                              u"a list of more than %1 elements; a rule or scenario "
                              "file holds at most %1 rules or patterns"_s.arg(maxListElements),
                              false}; // no second pass over what may be 64 MB
        }
        if (f.depth + 1 > trackedDepth) {
            return QString();
        }
        const QString path =
            f.map ? fieldpath::member(f.path, f.key) : fieldpath::element(f.path, f.array.size());
        offsets.insert(path, f.map ? f.keyOffset : qsizetype(mark.pos));
        return path;
    }

    void open(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, bool map)
    {
        noAnchor(mark, anchor);
        if (keyExpected()) {
            throw YamlRefusal{mark.pos,
                              u"a %1 cannot be a field name; field names are plain "
                              "words such as limit"_s.arg(map ? u"mapping"_s : u"list"_s)};
        }
        if (tag != "?" && tag != "!" && tag != coreTag + (map ? "map" : "seq")) {
            throw YamlRefusal{mark.pos, tagMessage(tag, {})};
        }
        Frame f;
        f.map = map;
        f.depth = m_stack.empty() ? 0 : m_stack.back().depth + 1;
        f.path = begin(mark);
        m_stack.push_back(std::move(f));
    }

    void close()
    {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        add(f.map ? QJsonValue(std::move(f.object)) : QJsonValue(std::move(f.array)));
    }

    void add(QJsonValue v)
    {
        if (m_stack.empty()) {
            root = std::move(v);
            return;
        }
        Frame &f = m_stack.back();
        if (!f.map) {
            f.array.append(std::move(v));
            return;
        }
        f.haveKey = false;
        if (f.depth < trackedDepth) {
            const qsizetype first = f.keyOffsets.insert(f.key, f.keyOffset);
            if (first >= 0) {
                duplicates.append({fieldpath::member(f.path, f.key), f.key, f.keyOffset, first});
            }
        }
        f.object.insert(f.key, std::move(v));
    }

    QByteArrayView m_text;
    std::vector<Frame> m_stack;
};

} // namespace

// `expected` ends the message of a document with no value in it.
Document readDocument(const QByteArray &bytes, const QString &file, Flavor flavor,
                      const QString &expected)
{
    Document doc;
    if (isBlank(bytes)) {
        doc.failure = failed(file, (bytes.isEmpty() ? u"the file is empty"_s
                                                    : u"the file contains only whitespace"_s) +
                                       u"; expected "_s + expected);
        return doc;
    }
    if (flavor == Flavor::Json) {
        JsonTree tree = readJson(bytes, file);
        if (tree.syntaxError) {
            doc.failure = Loaded{};
            doc.failure->errors.append(*tree.syntaxError);
        }
        doc.root = std::move(tree.root);
        return doc;
    }
    if (auto bad = checkYamlText(bytes, file)) {
        doc.failure = Loaded{};
        doc.failure->errors.append(*bad);
        return doc;
    }
    YamlReader reader(bytes);
    try {
        BytesBuf buffer(bytes);
        std::istream in(&buffer);
        YAML::Parser parser(in);
        if (!parser.HandleNextDocument(reader)) {
            doc.failure = failed(file, u"the file contains no YAML document (only comments and "
                                       "whitespace); expected "_s +
                                           expected);
            return doc;
        }
        IgnoreEvents probe(true);
        parser.HandleNextDocument(probe);
    } catch (const SecondDocument &second) {
        if (second.offset >= 0 && second.offset < bytes.size() && bytes[second.offset] == ',') {
            // Not a document: the ',' yaml-cpp leaves behind (StrayComma).
            doc.failure = Loaded{};
            doc.failure->errors.append(strayCommaDiagnostic(bytes, second.offset, file));
            return doc;
        }
        doc.failure = failed(file,
                             u"the file holds more than one YAML document; a rule file is one "
                             "document (remove the '---' that starts the second one, or split the "
                             "file)"_s,
                             positionAt(bytes, second.offset));
        return doc;
    } catch (const YamlRefusal &refusal) {
        // A syntax error anywhere says more than what we refused on the way (yaml-cpp reports
        // an unclosed "[1, 2" as a list in the place of a field name before it sees the end).
        if (auto syntax = refusal.checkSyntax ? yamlSyntaxError(bytes, file) : std::nullopt) {
            doc.failure = failed(file, syntax->message, {syntax->line, syntax->column});
        } else {
            doc.failure = failed(file, refusal.message, positionAt(bytes, refusal.offset));
        }
        return doc;
    } catch (const YAML::Exception &e) {
        doc.failure = Loaded{};
        doc.failure->errors.append(yamlSyntaxDiagnostic(e, bytes, file));
        return doc;
    } catch (const std::exception &e) {
        doc.failure =
            failed(file, u"the YAML parser failed: "_s + QString::fromLocal8Bit(e.what()));
        return doc;
    }
    doc.root = std::move(reader.root);
    doc.offsets = std::move(reader.offsets);
    doc.duplicates = std::move(reader.duplicates);
    return doc;
}

// Adds the repeated fields, then gives every error its position. JSON: repeated fields of the
// document object (0), of the objects in its arrays (2) and below them down to an override's
// limit (5), where a value would be lost.
void finish(Loaded &out, const Document &doc, const QByteArray &bytes, const QString &file,
            Flavor flavor)
{
    if (flavor == Flavor::Json) {
        const JsonLocator::Scan scan = JsonLocator(bytes).scan(withAncestors(out.errors), 5);
        addDuplicates(out.errors, scan.duplicates, bytes, file);
        place(out.errors, scan.offsets, bytes);
        return;
    }
    QList<qsizetype> offsets;
    for (const auto &d : doc.duplicates) {
        offsets << d.offset << d.firstOffset;
    }
    const QList<TextPosition> positions = positionsAt(bytes, offsets);
    for (qsizetype i = 0; i < doc.duplicates.size(); ++i) {
        const TextPosition first = positions[2 * i + 1];
        out.errors.append(diagnostic(
            file, doc.duplicates[i].path,
            u"the field '%1' appears twice in one mapping (first at line %2, column %3); "
            "remove one of them"_s.arg(shortened(doc.duplicates[i].name))
                .arg(first.line)
                .arg(first.column),
            positions[2 * i]));
    }
    place(out.errors, doc.offsets, bytes);
}

} // namespace sluice::rules::internal
