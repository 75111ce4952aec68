#pragma once

// The rule codec's internals shared by its files (codecread.cpp: a document read into a tree,
// diagnostics placed; codec.cpp: the rules built from the tree, the entry points;
// codecyaml.cpp: YAML scalar resolution and syntax diagnostics; codecwriter.cpp: the JSON and
// YAML writers). Not part of the codec's interface (codec.h).

#include "core/rules/codec.h"
#include "core/rules/jsonlocator.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <streambuf>
#include <string>

namespace sluice::rules::internal {

struct SecondDocument
{
    qsizetype offset;
};

// Ignores events: to look for a second document (and stop there), or to check the syntax of
// the whole stream.
//
// yaml-cpp 0.7 never consumes a ',' left at the top level after a node with a tag or an anchor
// ("!a ,b", "&x 'q',"): every HandleNextDocument() after it returns true with a document that
// starts at that same ',', forever. A document that starts where the previous one did is that
// loop: StrayComma.
struct StrayComma
{
    qsizetype offset;
};

class IgnoreEvents final : public YAML::EventHandler
{
public:
    explicit IgnoreEvents(bool stopAtDocument)
        : m_stop(stopAtDocument)
    {}
    void OnDocumentStart(const YAML::Mark &mark) override
    {
        if (m_stop) {
            throw SecondDocument{mark.pos};
        }
        if (m_lastStart == mark.pos) {
            throw StrayComma{mark.pos};
        }
        m_lastStart = mark.pos;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark &, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t,
                  const std::string &) override
    {}
    void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {}
    void OnMapEnd() override {}

private:
    bool m_stop;
    qsizetype m_lastStart = -1;
};

// A read-only streambuf over the bytes: yaml-cpp reads an istream, and a copy of a large file
// into a std::string would double the memory.
class BytesBuf final : public std::streambuf
{
public:
    explicit BytesBuf(const QByteArray &bytes)
    {
        char *begin = const_cast<char *>(bytes.constData()); // never written: get area only
        setg(begin, begin, begin + bytes.size());
    }
};

// Plain scalars by the YAML 1.2 core schema (codecyaml.cpp).
QJsonValue resolvePlain(const std::string &s);
// The file's text as YAML allows it (printable Unicode): the first problem, or none.
std::optional<Diagnostic> checkYamlText(const QByteArray &bytes, const QString &file);
// yaml-cpp's exception, and the ',' it leaves behind (StrayComma), as a syntax error.
Diagnostic yamlSyntaxDiagnostic(const YAML::Exception &e, QByteArrayView bytes,
                                const QString &file);
Diagnostic strayCommaDiagnostic(QByteArrayView bytes, qsizetype offset, const QString &file);
// The first syntax error of the whole stream, or none.
std::optional<Diagnostic> yamlSyntaxError(const QByteArray &bytes, const QString &file);

// ---------------------------------------------------------------------------------------------
// Reading a document (codecread.cpp)

enum class Flavor { Json, Yaml };

// A Loaded with one error: the file cannot be read.
Loaded failed(const QString &file, const QString &message, TextPosition pos = {});
// The paths of the diagnostics and all their ancestors, each once (what JsonLocator places).
QStringList withAncestors(const QList<Diagnostic> &diags);
// Gives every diagnostic without a position the position of its path, or of its nearest
// ancestor that has one (a missing field points at its object), in one pass over the text.
void place(QList<Diagnostic> &diags, const QHash<QString, qsizetype> &offsets, QByteArrayView text);
QByteArray withoutBom(const QByteArray &bytes);
bool isBlank(const QByteArray &bytes);

struct JsonTree
{
    QJsonValue root;
    std::optional<Diagnostic> syntaxError;
};
JsonTree readJson(const QByteArray &bytes, const QString &file);
// Duplicate members found by the scanner, with where the first one was.
void addDuplicates(QList<Diagnostic> &diags, const QList<JsonLocator::Duplicate> &duplicates,
                   QByteArrayView text, const QString &file);

// A field repeated in one YAML mapping: where, and where its first was.
struct YamlDuplicate
{
    QString path;
    QString name;
    qsizetype offset;
    qsizetype firstOffset;
};

// A document read into a tree, before the rules are built from it. `failure`: the document
// could not be read (syntax, encoding, ...) and nothing else is set.
struct Document
{
    std::optional<Loaded> failure;
    QJsonValue root;
    // YAML only: paths -> offsets, and repeated fields (JSON finds both when placing errors).
    QHash<QString, qsizetype> offsets;
    QList<YamlDuplicate> duplicates;
};

// `expected` ends the message of a document with no value in it.
Document readDocument(const QByteArray &bytes, const QString &file, Flavor flavor,
                      const QString &expected);
// Adds the repeated fields, then gives every error its position. JSON: repeated fields of the
// document object (0), of the objects in its arrays (2) and below them down to an override's
// limit (5), where a value would be lost.
void finish(Loaded &out, const Document &doc, const QByteArray &bytes, const QString &file,
            Flavor flavor);

} // namespace sluice::rules::internal
