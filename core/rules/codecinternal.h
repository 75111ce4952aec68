#pragma once

// The rule codec's internals shared by its files (codec.cpp: reading and building;
// codecyaml.cpp: YAML scalar resolution and syntax diagnostics; codecwriter.cpp: the JSON and
// YAML writers). Not part of the codec's interface (codec.h).

#include "core/rules/rule.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonValue>
#include <QString>

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

} // namespace sluice::rules::internal
