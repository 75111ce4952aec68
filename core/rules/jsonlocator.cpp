#include "jsonlocator.h"

#include "core/common/bytes.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <numeric>
#include <vector>

using namespace Qt::StringLiterals;

namespace sluice::rules {

namespace fieldpath {

namespace {

bool isIdentifier(const QString &name)
{
    if (name.isEmpty()) {
        return false;
    }
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char16_t c = name.at(i).unicode();
        const bool letter = (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || c == u'_';
        const bool tail = c == u'-' || (c >= u'0' && c <= u'9');
        if (!letter && !(i > 0 && tail)) {
            return false;
        }
    }
    return true;
}

} // namespace

QString member(const QString &parent, const QString &fullName)
{
    // A path goes into messages: a 10 MB field name is shown by its start (two names with the
    // same first 40 characters share a path, and each message still has its line and column).
    const QString name = bytes::shortened(fullName);
    if (isIdentifier(name)) {
        if (parent.isEmpty()) {
            return name;
        }
        QString out;
        out.reserve(parent.size() + 1 + name.size());
        out.append(parent).append(u'.').append(name);
        return out;
    }
    QString quoted = name;
    quoted.replace(u'\\', u"\\\\"_s).replace(u'"', u"\\\""_s);
    return parent + u"[\""_s + quoted + u"\"]"_s;
}

QString element(const QString &parent, qsizetype index)
{
    QString out;
    out.reserve(parent.size() + 8);
    out.append(parent).append(u'[').append(QString::number(index)).append(u']');
    return out;
}

std::optional<QList<Component>> split(const QString &path)
{
    QList<Component> out;
    qsizetype i = 0;
    const qsizetype n = path.size();
    while (i < n) {
        const QChar c = path.at(i);
        if (c == u'[') {
            if (i + 1 < n && path.at(i + 1) == u'"') {
                QString name;
                qsizetype j = i + 2;
                for (; j < n && path.at(j) != u'"'; ++j) {
                    if (path.at(j) == u'\\' && j + 1 < n) {
                        ++j;
                    }
                    name += path.at(j);
                }
                if (j + 1 >= n || path.at(j + 1) != u']') {
                    return std::nullopt;
                }
                out.append({name, -1});
                i = j + 2;
            } else {
                const qsizetype close = path.indexOf(u']', i);
                bool ok = false;
                const qsizetype index =
                    close < 0 ? -1 : path.mid(i + 1, close - i - 1).toLongLong(&ok);
                if (!ok || index < 0) {
                    return std::nullopt;
                }
                out.append({QString(), index});
                i = close + 1;
            }
            continue;
        }
        if (c == u'.') {
            if (out.isEmpty()) {
                return std::nullopt;
            }
            ++i;
        } else if (!out.isEmpty()) {
            return std::nullopt; // a name must follow '.' or start the path
        }
        qsizetype j = i;
        while (j < n && path.at(j) != u'.' && path.at(j) != u'[') {
            ++j;
        }
        if (j == i) {
            return std::nullopt;
        }
        out.append({path.mid(i, j - i), -1});
        i = j;
    }
    return out;
}

QString parent(const QString &path)
{
    const auto parts = split(path);
    if (!parts || parts->isEmpty()) {
        return {};
    }
    QString out;
    for (qsizetype i = 0; i + 1 < parts->size(); ++i) {
        const Component &c = parts->at(i);
        out = c.isIndex() ? element(out, c.index) : member(out, c.name);
    }
    return out;
}

} // namespace fieldpath

int utf8SequenceLength(const char *p, qsizetype available)
{
    const auto b = [p](int i) { return static_cast<unsigned char>(p[i]); };
    const auto cont = [&](int i) { return i < available && (b(i) & 0xC0) == 0x80; };
    const unsigned char c = b(0);
    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        return cont(1) ? 2 : 0;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if (!cont(1) || !cont(2)) {
            return 0;
        }
        if ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F)) {
            return 0; // overlong, or a UTF-16 surrogate
        }
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (!cont(1) || !cont(2) || !cont(3)) {
            return 0;
        }
        if ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F)) {
            return 0;
        }
        return 4;
    }
    return 0;
}

namespace {

qsizetype countCodePoints(const char *p, qsizetype n)
{
    qsizetype count = 0;
    for (qsizetype i = 0; i < n; ++i) {
        count += (static_cast<unsigned char>(p[i]) & 0xC0) != 0x80;
    }
    return count;
}

} // namespace

QList<TextPosition> positionsAt(QByteArrayView text, const QList<qsizetype> &offsets)
{
    QList<TextPosition> out(offsets.size());
    std::vector<qsizetype> order(offsets.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](qsizetype a, qsizetype b) { return offsets[a] < offsets[b]; });
    const char *s = text.data();
    const qsizetype n = text.size();
    qsizetype p = 0;
    int line = 1;
    qsizetype column = 0; // code points from the start of the line to p
    for (qsizetype index : order) {
        const qsizetype target = std::clamp<qsizetype>(offsets[index], 0, n);
        while (p < target) {
            const void *nl = std::memchr(s + p, '\n', size_t(target - p));
            if (!nl) {
                column += countCodePoints(s + p, target - p);
                p = target;
                break;
            }
            ++line;
            column = 0;
            p = static_cast<const char *>(nl) - s + 1;
        }
        out[index] = {line, int(column + 1)};
    }
    return out;
}

TextPosition positionAt(QByteArrayView text, qsizetype offset)
{
    return positionsAt(text, {offset}).constFirst();
}

namespace {

struct TrieNode
{
    QHash<QByteArray, int> members;
    QHash<qsizetype, int> elements;
    QString path;
    bool requested = false;
};

class Scanner
{
public:
    Scanner(QByteArrayView text, const QStringList &paths, int duplicateDepth)
        : m_s(text.data())
        , m_n(text.size())
        , m_text(text)
        , m_duplicateDepth(duplicateDepth)
    {
        m_trie.push_back({});
        for (const QString &path : paths) {
            const auto parts = fieldpath::split(path);
            if (!parts) {
                continue;
            }
            int node = 0;
            for (const fieldpath::Component &c : *parts) {
                int next = c.isIndex() ? m_trie[node].elements.value(c.index, -1)
                                       : m_trie[node].members.value(c.name.toUtf8(), -1);
                if (next < 0) {
                    next = int(m_trie.size());
                    m_trie.push_back({});
                    if (c.isIndex()) {
                        m_trie[node].elements.insert(c.index, next);
                    } else {
                        m_trie[node].members.insert(c.name.toUtf8(), next);
                    }
                }
                node = next;
            }
            m_trie[node].requested = true;
            m_trie[node].path = path;
        }
    }

    JsonLocator::Scan run()
    {
        skipSpace();
        if (m_p >= m_n) {
            fail(m_p, u"the document is empty"_s);
            return std::move(m_out);
        }
        if (m_s[m_p] != '{' && m_s[m_p] != '[') {
            fail(m_p, u"expected a JSON object at the top level (a rule set starts with '{')"_s);
            return std::move(m_out);
        }
        m_valueTrie = 0;
        m_valuePath.clear();
        record(0, m_p);
        for (;;) {
            if (!value()) {
                return std::move(m_out);
            }
            if (!m_stack.empty() && m_entered) {
                continue; // a container was opened and positioned on its first value
            }
            if (!afterValue()) {
                return std::move(m_out);
            }
            if (m_stack.empty()) {
                return std::move(m_out);
            }
        }
    }

private:
    struct Frame
    {
        bool object = false;
        int trie = -1;
        qsizetype count = 0;
        qsizetype openOffset = 0;
        qsizetype lastKeyStart = 0; // raw name of the last member, for messages
        qsizetype lastKeyEnd = 0;
        bool trackKeys = false;
        QString path; // when trackKeys or children may track theirs
        detail::SeenKeys<QByteArray> keys;
    };

    void fail(qsizetype offset, QString message)
    {
        m_out.syntaxError = JsonLocator::SyntaxError{offset, std::move(message)};
    }

    void record(int trie, qsizetype offset)
    {
        if (trie >= 0 && m_trie[trie].requested) {
            m_out.offsets.insert(m_trie[trie].path, offset);
        }
    }

    void skipSpace()
    {
        while (m_p < m_n) {
            const char c = m_s[m_p];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            ++m_p;
        }
    }

    QString here(qsizetype offset) const
    {
        const TextPosition pos = positionAt(m_text, offset);
        return u"line %1, column %2"_s.arg(pos.line).arg(pos.column);
    }

    QString shown(qsizetype offset) const
    {
        if (offset >= m_n) {
            return u"the end of the file"_s;
        }
        const int len = std::max(1, utf8SequenceLength(m_s + offset, m_n - offset));
        return u"'"_s + QString::fromUtf8(m_s + offset, len) + u"'"_s;
    }

    // Parses the value at m_p. Scalars are consumed; a container is pushed and, unless it is
    // empty, m_p is left on its first value with m_entered set.
    bool value()
    {
        m_entered = false;
        if (m_p >= m_n) {
            return eof();
        }
        const char c = m_s[m_p];
        if (c == '{' || c == '[') {
            Frame f;
            f.object = c == '{';
            f.trie = m_valueTrie;
            f.openOffset = m_p;
            const int depth = int(m_stack.size());
            f.trackKeys = f.object && depth <= m_duplicateDepth;
            if (depth <= m_duplicateDepth) {
                f.path = m_valuePath;
            }
            m_stack.push_back(std::move(f));
            ++m_p;
            skipSpace();
            if (m_p < m_n && m_s[m_p] == (c == '{' ? '}' : ']')) {
                ++m_p;
                m_stack.pop_back();
                return true;
            }
            m_entered = true;
            return c == '{' ? memberHead() : elementHead();
        }
        if (c == '"') {
            return string(nullptr);
        }
        if (c == '-' || c == '.' || (c >= '0' && c <= '9')) {
            return number();
        }
        for (const char *word : {"true", "false", "null"}) {
            const qsizetype len = qsizetype(std::strlen(word));
            if (m_n - m_p >= len && std::memcmp(m_s + m_p, word, size_t(len)) == 0) {
                m_p += len;
                return true;
            }
        }
        if (c == '\'') {
            fail(m_p, u"strings must be in double quotes in JSON, not single quotes"_s);
        } else if (c == '/' || c == '#') {
            fail(m_p, u"comments are not allowed in JSON"_s);
        } else if (c == '}' || c == ']' || c == ',') {
            fail(m_p, u"expected a value before %1"_s.arg(shown(m_p)));
        } else {
            fail(m_p, u"illegal value starting with %1: expected a string in double quotes, a "
                      "number, true, false, null, an object or an array"_s.arg(shown(m_p)));
        }
        return false;
    }

    bool eof()
    {
        if (m_stack.empty()) {
            fail(m_n, u"the file ends where a value is expected (is the file truncated?)"_s);
            return false;
        }
        const Frame &f = m_stack.back();
        fail(m_n, u"the file ends before the %1 opened at %2 is closed with '%3' (is the file "
                  "truncated?)"_s.arg(f.object ? u"object"_s : u"array"_s, here(f.openOffset),
                                      f.object ? u"}"_s : u"]"_s));
        return false;
    }

    // m_p at the opening quote. Consumes the string; decodes it into `decoded` if given.
    bool string(QByteArray *decoded)
    {
        const qsizetype start = m_p;
        ++m_p;
        bool escaped = false;
        for (;;) {
            if (m_p >= m_n) {
                fail(start, u"unterminated string: the file ends before its closing quote (is "
                            "the file truncated?)"_s);
                return false;
            }
            const auto c = static_cast<unsigned char>(m_s[m_p]);
            if (c == '"') {
                ++m_p;
                break;
            }
            if (c == '\\') {
                escaped = true;
                if (m_p + 1 >= m_n) {
                    ++m_p; // reported as unterminated on the next turn
                    continue;
                }
                if (m_s[m_p + 1] == 'u') {
                    for (int i = 2; i < 6; ++i) {
                        if (m_p + i >= m_n ||
                            !std::isxdigit(static_cast<unsigned char>(m_s[m_p + i]))) {
                            fail(m_p, u"invalid escape sequence: \\u must be followed by four "
                                      "hexadecimal digits"_s);
                            return false;
                        }
                    }
                    m_p += 6;
                } else {
                    m_p += 2;
                }
                continue;
            }
            if (c >= 0x80) {
                const int len = utf8SequenceLength(m_s + m_p, m_n - m_p);
                if (len == 0) {
                    fail(m_p, u"invalid UTF-8 (byte 0x%1): rule files are UTF-8 text"_s.arg(
                                  QString::number(c, 16).toUpper()));
                    return false;
                }
                m_p += len;
                continue;
            }
            ++m_p;
        }
        if (decoded) {
            // Without escapes, a view of the text (alive for the whole scan): no copy.
            *decoded = escaped ? unescape(start + 1, m_p - 1)
                               : QByteArray::fromRawData(m_s + start + 1, m_p - 1 - start - 1);
        }
        return true;
    }

    // Escapes as Qt decodes them (unknown escapes stand for the character itself).
    QByteArray unescape(qsizetype from, qsizetype to) const
    {
        QString out;
        qsizetype i = from;
        while (i < to) {
            if (m_s[i] != '\\') {
                const qsizetype next = std::find(m_s + i, m_s + to, '\\') - m_s;
                out += QString::fromUtf8(m_s + i, next - i);
                i = next;
                continue;
            }
            const char e = m_s[i + 1];
            i += 2;
            switch (e) {
            case 'b':
                out += u'\b';
                break;
            case 'f':
                out += u'\f';
                break;
            case 'n':
                out += u'\n';
                break;
            case 'r':
                out += u'\r';
                break;
            case 't':
                out += u'\t';
                break;
            case 'u':
                out += QChar(char16_t(QByteArray(m_s + i, 4).toUShort(nullptr, 16)));
                i += 4;
                break;
            default:
                out += QLatin1Char(e);
            }
        }
        return out.toUtf8();
    }

    bool number()
    {
        const qsizetype start = m_p;
        if (m_s[m_p] == '-') {
            ++m_p;
        }
        const qsizetype digits = m_p;
        while (m_p < m_n && m_s[m_p] >= '0' && m_s[m_p] <= '9') {
            ++m_p;
        }
        const qsizetype intDigits = m_p - digits;
        if (intDigits > 1 && m_s[digits] == '0') {
            fail(digits, u"numbers may not start with 0 (write 7, not 07)"_s);
            return false;
        }
        qsizetype fracDigits = 0;
        if (m_p < m_n && m_s[m_p] == '.') {
            ++m_p;
            const qsizetype f = m_p;
            while (m_p < m_n && m_s[m_p] >= '0' && m_s[m_p] <= '9') {
                ++m_p;
            }
            fracDigits = m_p - f;
        }
        if (intDigits == 0 && fracDigits == 0) {
            fail(start, u"illegal number: a number needs digits"_s);
            return false;
        }
        if (m_p < m_n && (m_s[m_p] == 'e' || m_s[m_p] == 'E')) {
            ++m_p;
            if (m_p < m_n && (m_s[m_p] == '+' || m_s[m_p] == '-')) {
                ++m_p;
            }
            const qsizetype e = m_p;
            while (m_p < m_n && m_s[m_p] >= '0' && m_s[m_p] <= '9') {
                ++m_p;
            }
            if (m_p == e) {
                fail(start, u"illegal number: the exponent has no digits"_s);
                return false;
            }
        }
        return true;
    }

    // In an object, m_p after '{' or ',' and spaces: reads `"name":` and positions m_p on the
    // member's value.
    bool memberHead()
    {
        Frame &f = m_stack.back();
        if (m_p >= m_n) {
            return eof();
        }
        if (m_s[m_p] != '"') {
            if (m_s[m_p] == '}') {
                fail(m_p, u"a field is expected after ',' (trailing commas are not allowed in "
                          "JSON)"_s);
            } else if (m_s[m_p] == '\'') {
                fail(m_p, u"field names must be in double quotes in JSON, not single quotes"_s);
            } else if (m_s[m_p] == '/' || m_s[m_p] == '#') {
                fail(m_p, u"comments are not allowed in JSON"_s);
            } else {
                fail(m_p, u"expected a field name in double quotes, got %1"_s.arg(shown(m_p)));
            }
            return false;
        }
        const qsizetype keyOffset = m_p;
        const bool trieHasMembers = f.trie >= 0 && !m_trie[f.trie].members.isEmpty();
        const bool childTracksPath = int(m_stack.size()) <= m_duplicateDepth;
        const bool needName = trieHasMembers || f.trackKeys || childTracksPath;
        QByteArray name;
        if (!string(needName ? &name : nullptr)) {
            return false;
        }
        f.lastKeyStart = keyOffset + 1;
        f.lastKeyEnd = m_p - 1;
        skipSpace();
        if (m_p >= m_n) {
            return eof();
        }
        if (m_s[m_p] != ':') {
            fail(m_p,
                 u"expected ':' after the field name %1, got %2"_s.arg(
                     QString::fromUtf8(m_s + keyOffset, f.lastKeyEnd + 1 - keyOffset), shown(m_p)));
            return false;
        }
        ++m_p;
        skipSpace();
        if (f.trackKeys) {
            const qsizetype first = f.keys.insert(name, keyOffset);
            if (first >= 0) {
                m_out.duplicates.append(
                    {fieldpath::member(f.path, QString::fromUtf8(name)), keyOffset, first});
            }
        }
        m_valueTrie = trieHasMembers ? m_trie[f.trie].members.value(name, -1) : -1;
        record(m_valueTrie, keyOffset);
        if (childTracksPath) {
            m_valuePath = fieldpath::member(f.path, QString::fromUtf8(name));
        }
        ++f.count;
        return true;
    }

    // In an array, m_p on an element's first byte.
    bool elementHead()
    {
        Frame &f = m_stack.back();
        const qsizetype index = f.count++;
        m_valueTrie = f.trie >= 0 ? m_trie[f.trie].elements.value(index, -1) : -1;
        record(m_valueTrie, m_p);
        if (int(m_stack.size()) <= m_duplicateDepth) {
            m_valuePath = fieldpath::element(f.path, index);
        }
        return true;
    }

    // After a complete value: separators and closing brackets, until the next value starts
    // (true, m_stack not empty) or the document ends (true, m_stack empty).
    bool afterValue()
    {
        for (;;) {
            skipSpace();
            if (m_stack.empty()) {
                if (m_p < m_n) {
                    fail(m_p, u"unexpected %1 after the end of the document"_s.arg(shown(m_p)));
                    return false;
                }
                return true;
            }
            if (m_p >= m_n) {
                return eof();
            }
            Frame &f = m_stack.back();
            const char c = m_s[m_p];
            if (c == ',') {
                ++m_p;
                skipSpace();
                if (f.object) {
                    return memberHead();
                }
                if (m_p < m_n && m_s[m_p] == ']') {
                    fail(m_p, u"a value is expected after ',' (trailing commas are not allowed "
                              "in JSON)"_s);
                    return false;
                }
                return elementHead();
            }
            if (c == (f.object ? '}' : ']')) {
                ++m_p;
                m_stack.pop_back();
                continue;
            }
            if (f.object) {
                const QString field =
                    QString::fromUtf8(m_s + f.lastKeyStart, f.lastKeyEnd - f.lastKeyStart);
                fail(m_p,
                     u"expected ',' or '}' after the value of \"%1\", got %2%3"_s.arg(
                         field, shown(m_p), c == '"' ? u" (is a comma missing?)"_s : QString()));
            } else {
                fail(m_p, u"expected ',' or ']' after element %1 of the array, got %2"_s.arg(
                              QString::number(f.count - 1), shown(m_p)));
            }
            return false;
        }
    }

    const char *m_s;
    qsizetype m_n;
    QByteArrayView m_text;
    int m_duplicateDepth;
    qsizetype m_p = 0;
    std::vector<TrieNode> m_trie;
    std::vector<Frame> m_stack;
    int m_valueTrie = -1;
    QString m_valuePath;
    bool m_entered = false;
    JsonLocator::Scan m_out;
};

} // namespace

JsonLocator::Scan JsonLocator::scan(const QStringList &paths, int duplicateDepth) const
{
    return Scanner(m_json, paths, duplicateDepth).run();
}

QHash<QString, TextPosition> JsonLocator::locate(const QStringList &paths) const
{
    // Ask for every ancestor too, so that a missing field falls back to its object.
    QStringList all;
    for (const QString &path : paths) {
        QString p = path;
        for (;;) {
            all.append(p);
            if (p.isEmpty()) {
                break;
            }
            p = fieldpath::parent(p);
        }
    }
    all.removeDuplicates();
    const Scan s = scan(all);
    QList<qsizetype> offsets;
    QStringList found;
    for (auto it = s.offsets.cbegin(); it != s.offsets.cend(); ++it) {
        found.append(it.key());
        offsets.append(it.value());
    }
    const QList<TextPosition> positions = positionsAt(m_json, offsets);
    QHash<QString, TextPosition> byPath;
    for (qsizetype i = 0; i < found.size(); ++i) {
        byPath.insert(found[i], positions[i]);
    }
    QHash<QString, TextPosition> out;
    for (const QString &path : paths) {
        QString p = path;
        for (;;) {
            const auto it = byPath.constFind(p);
            if (it != byPath.constEnd()) {
                out.insert(path, *it);
                break;
            }
            if (p.isEmpty()) {
                out.insert(path, TextPosition{});
                break;
            }
            p = fieldpath::parent(p);
        }
    }
    return out;
}

TextPosition JsonLocator::locate(const QString &path) const
{
    return locate(QStringList{path}).value(path);
}

} // namespace sluice::rules
