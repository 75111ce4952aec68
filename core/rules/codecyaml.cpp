// Rule files, YAML: scalar resolution by the YAML 1.2 core schema, and syntax diagnostics (the
// text YAML allows, yaml-cpp's errors in our words). Moved out of codec.cpp as they were.
#include "codecinternal.h"
#include "diagnostics.h"
#include "jsonlocator.h"

#include <QJsonValue>

#include <algorithm>
#include <cctype>
#include <climits>
#include <istream>

using namespace Qt::StringLiterals;

namespace sluice::rules::internal {

namespace {

bool allDigits(const std::string &s, size_t from, bool (*digit)(char))
{
    return from < s.size() && std::all_of(s.begin() + qsizetype(from), s.end(), digit);
}
bool isDec(char c)
{
    return c >= '0' && c <= '9';
}
bool isOct(char c)
{
    return c >= '0' && c <= '7';
}
bool isHex(char c)
{
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

std::optional<qint64> yamlInteger(const std::string &s, bool *overflow)
{
    *overflow = false;
    bool ok = false;
    qint64 v = 0;
    const QByteArray b = QByteArray::fromStdString(s);
    const size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (allDigits(s, sign, isDec)) {
        v = b.toLongLong(&ok, 10);
        *overflow = !ok;
    } else if (s.size() > 2 && s[0] == '0' && s[1] == 'o' && allDigits(s, 2, isOct)) {
        v = b.mid(2).toLongLong(&ok, 8);
        *overflow = !ok;
    } else if (s.size() > 2 && s[0] == '0' && s[1] == 'x' && allDigits(s, 2, isHex)) {
        v = b.mid(2).toLongLong(&ok, 16);
        *overflow = !ok;
    }
    return ok ? std::optional(v) : std::nullopt;
}

// [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
bool isYamlFloat(const std::string &s)
{
    size_t i = 0;
    const size_t n = s.size();
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        ++i;
    }
    size_t digits = 0;
    while (i < n && isDec(s[i])) {
        ++i;
        ++digits;
    }
    if (i < n && s[i] == '.') {
        ++i;
        while (i < n && isDec(s[i])) {
            ++i;
            ++digits;
        }
    }
    if (digits == 0) {
        return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '-' || s[i] == '+')) {
            ++i;
        }
        if (!allDigits(s, i, isDec)) {
            return false;
        }
        i = n;
    }
    return i == n;
}

bool isOneOf(const std::string &s, std::initializer_list<const char *> words)
{
    return std::any_of(words.begin(), words.end(), [&](const char *w) { return s == w; });
}

} // namespace

// Plain scalars by the YAML 1.2 core schema. Infinity and NaN have no JSON value: they stay
// strings (and are then reported as such).
QJsonValue resolvePlain(const std::string &s)
{
    if (s.empty() || isOneOf(s, {"~", "null", "Null", "NULL"})) {
        return QJsonValue(QJsonValue::Null);
    }
    if (isOneOf(s, {"true", "True", "TRUE"})) {
        return true;
    }
    if (isOneOf(s, {"false", "False", "FALSE"})) {
        return false;
    }
    bool overflow = false;
    if (const auto i = yamlInteger(s, &overflow)) {
        return QJsonValue(*i);
    }
    if (overflow || isYamlFloat(s)) {
        return QByteArray::fromStdString(s).toDouble();
    }
    return QString::fromStdString(s);
}

// YAML streams are printable Unicode: tabs and line breaks, nothing else below U+0020.
std::optional<Diagnostic> checkYamlText(const QByteArray &bytes, const QString &file)
{
    const char *s = bytes.constData();
    const qsizetype n = bytes.size();
    for (qsizetype p = 0; p < n;) {
        const auto c = static_cast<unsigned char>(s[p]);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
                return diagnostic(file, {},
                                  u"the control character U+%1 is not allowed in a YAML file"_s.arg(
                                      QString::number(c, 16).toUpper().rightJustified(4, u'0')),
                                  positionAt(bytes, p));
            }
            ++p;
            continue;
        }
        const int len = utf8SequenceLength(s + p, n - p);
        if (len == 0) {
            return diagnostic(file, {},
                              u"invalid UTF-8 (byte 0x%1): rule files are UTF-8 text"_s.arg(
                                  QString::number(c, 16).toUpper()),
                              positionAt(bytes, p));
        }
        p += len;
    }
    return std::nullopt;
}

QString yamlHint(const std::string &message)
{
    if (message == "end of map not found" || message == "end of sequence not found") {
        return u"; check the indentation of this line"_s;
    }
    if (message == "illegal map value") {
        return u"; a value that contains ': ' must be quoted"_s;
    }
    return {};
}

Diagnostic yamlSyntaxDiagnostic(const YAML::Exception &e, QByteArrayView bytes, const QString &file)
{
    const TextPosition pos =
        e.mark.is_null() ? TextPosition{} : positionAt(bytes, qsizetype(e.mark.pos));
    // yaml-cpp's guard against deep nesting says only "bad file".
    if (const auto *deep = dynamic_cast<const YAML::DeepRecursion *>(&e)) {
        return diagnostic(
            file, {},
            u"YAML syntax error: nested more than %1 levels deep here (the "
            "parser's limit); a rule file needs four (rules, a rule, adopt, a "
            "value): look for a run of [ or { or of indented '- ' items"_s.arg(deep->depth() - 1),
            pos);
    }
    return diagnostic(
        file, {}, u"YAML syntax error: "_s + QString::fromStdString(e.msg) + yamlHint(e.msg), pos);
}

Diagnostic strayCommaDiagnostic(QByteArrayView bytes, qsizetype offset, const QString &file)
{
    return diagnostic(file, {},
                      u"YAML syntax error: unexpected ',' (a ',' separates the items of a "
                      "[...] or {...} list; quote a text that contains one)"_s,
                      positionAt(bytes, offset));
}

std::optional<Diagnostic> yamlSyntaxError(const QByteArray &bytes, const QString &file)
{
    try {
        BytesBuf buffer(bytes);
        std::istream in(&buffer);
        YAML::Parser parser(in);
        IgnoreEvents ignore(false);
        while (parser.HandleNextDocument(ignore)) {
        }
    } catch (const YAML::Exception &e) {
        return yamlSyntaxDiagnostic(e, bytes, file);
    } catch (const StrayComma &stray) {
        return strayCommaDiagnostic(bytes, stray.offset, file);
    } catch (const std::exception &) {
    }
    return std::nullopt;
}

} // namespace sluice::rules::internal
