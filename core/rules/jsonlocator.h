#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace sluice::rules {

// A place in a text: 1-based line and column; columns count Unicode code points, as editors
// do (a tab is one column). Line 0 = unknown.
struct TextPosition
{
    int line = 0;
    int column = 0;
    bool isValid() const { return line > 0; }
    friend bool operator==(const TextPosition &, const TextPosition &) = default;
};

// Field paths as diagnostics print them: "version", "rules[2]", "rules[2].rate"; "" is the
// whole document. A name that is not an identifier ([A-Za-z_][A-Za-z0-9_-]*) is quoted so
// that the path stays unambiguous: rules[0]["my field"], rules[0]["a.b"].
namespace fieldpath {

struct Component
{
    QString name;         // member name (when index < 0)
    qsizetype index = -1; // array index
    bool isIndex() const { return index >= 0; }
};

QString member(const QString &parent, const QString &name);
QString element(const QString &parent, qsizetype index);
// nullopt: not a path this module writes.
std::optional<QList<Component>> split(const QString &path);
// "rules[2].rate" -> "rules[2]" -> "rules" -> "" (and "" -> "").
QString parent(const QString &path);

} // namespace fieldpath

// The length of the UTF-8 sequence at p (1 to 4), or 0 if it is not well-formed UTF-8
// (overlong forms, surrogates and code points above U+10FFFF are not).
int utf8SequenceLength(const char *p, qsizetype available);

// Byte offset in a UTF-8 text -> line and column. O(offset).
TextPosition positionAt(QByteArrayView text, qsizetype offset);
// Several at once, in one pass over the text (O(n + k log k)); same order as `offsets`.
// Offsets past the end give the position just after the last byte.
QList<TextPosition> positionsAt(QByteArrayView text, const QList<qsizetype> &offsets);

namespace detail {

// The names seen in one object, for finding repeated ones: a linear scan while there are few
// (a rule has at most 13 fields), a hash beyond. A QHash per object would cost more than the
// rest of the tokenizer (its first allocation holds 128 entries).
template <typename Key> class SeenKeys
{
public:
    // The offset of the first occurrence of `key`, or -1 after recording it at `offset`.
    qsizetype insert(const Key &key, qsizetype offset)
    {
        if (!m_index.isEmpty()) {
            const auto it = m_index.constFind(key);
            if (it != m_index.constEnd()) {
                return *it;
            }
            m_index.insert(key, offset);
            return -1;
        }
        for (const auto &[k, o] : m_few) {
            if (k == key) {
                return o;
            }
        }
        m_few.append({key, offset});
        if (m_few.size() > 16) {
            for (const auto &[k, o] : m_few) {
                m_index.insert(k, o);
            }
        }
        return -1;
    }

private:
    QList<std::pair<Key, qsizetype>> m_few;
    QHash<Key, qsizetype> m_index;
};

} // namespace detail

// Qt's QJsonDocument says nothing about where a field is, and its parse-error offsets point
// after the offending character at best. JsonLocator is a small single-pass tokenizer over the
// original bytes (iterative: deep nesting does not recurse; O(n), a few ms per MB) that
//  - maps field paths to byte offsets: a member to the opening quote of its name, an array
//    element to its first byte, "" to the document's first value;
//  - finds members that occur twice in one object (QJsonObject silently keeps the last);
//  - finds the first syntax error with its exact offset and a message a user can act on.
// It is as lenient as Qt where Qt is lenient (raw control characters and unknown escapes in
// strings, ".5", "1."), so that it agrees with QJsonDocument on what is an error.
class JsonLocator
{
public:
    explicit JsonLocator(QByteArray json)
        : m_json(std::move(json))
    {}

    struct SyntaxError
    {
        qsizetype offset = 0;
        QString message;
    };
    struct Duplicate
    {
        QString path;         // the member's path: rules[3].limit
        qsizetype offset = 0; // its later occurrence
        qsizetype firstOffset = 0;
    };
    struct Scan
    {
        QHash<QString, qsizetype> offsets; // requested paths that exist -> byte offset
        QList<Duplicate> duplicates;
        std::optional<SyntaxError> syntaxError; // the scan stops at the first one
    };

    // One pass: offsets of `paths` (those that exist), duplicate members of objects at depth
    // <= duplicateDepth (0 = the document object; -1 = do not look), the first syntax error.
    Scan scan(const QStringList &paths, int duplicateDepth = -1) const;

    // Positions of `paths`, one pass for all; a path that does not exist gets the position of
    // its nearest existing ancestor (a missing field points at its object).
    QHash<QString, TextPosition> locate(const QStringList &paths) const;
    TextPosition locate(const QString &path) const;

    TextPosition positionAt(qsizetype offset) const { return rules::positionAt(m_json, offset); }

private:
    QByteArray m_json;
};

} // namespace sluice::rules
