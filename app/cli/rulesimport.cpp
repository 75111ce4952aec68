#include "rulesimport.h"

#include "args.h"

#include "core/rules/envoyformat.h"

#include "core/common/bytes.h"
#include "core/rules/codec.h"

#include <QFile>
#include <QSaveFile>

#include <cstdio>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("rules import");

void writeErr(const QString &line)
{
    const QByteArray b = (line + QLatin1Char('\n')).toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
}

} // namespace

int rulesImport(const Args &args)
{
    const QString usageText = usageOf(QStringLiteral("rules"));
    if (args.positional().size() != 1) {
        return fail(command,
                    QStringLiteral("expected one FILE or DIR (envoy ratelimit's configuration)") +
                        usageText,
                    exitUsage);
    }
    if (!args.has("format")) {
        return fail(command,
                    QStringLiteral("--format is required: envoy-ratelimit (the YAML of "
                                   "envoyproxy/ratelimit)") +
                        usageText,
                    exitUsage);
    }
    if (args.text("format") != QLatin1String("envoy-ratelimit")) {
        return fail(command,
                    QStringLiteral("--format '%1' is unknown; expected envoy-ratelimit")
                            .arg(bytes::printable(args.raw("format"))) +
                        usageText,
                    exitUsage);
    }
    const QString in = QString::fromLocal8Bit(args.positional().first());
    rules::envoy::Config config = rules::envoy::load(in);
    for (const Diagnostic &d : config.errors) {
        writeErr(d.toString());
    }
    if (!config.ok()) {
        return fail(command,
                    QStringLiteral("%1 is not a valid envoy ratelimit configuration (%2 "
                                   "error(s)); nothing was imported")
                        .arg(in)
                        .arg(config.errors.size()),
                    exitUsage);
    }
    for (const Diagnostic &d : config.notes) {
        writeErr(QStringLiteral("sluice-cli %1: not imported: %2").arg(command, d.toString()));
    }
    // envoy ratelimit increments a descriptor's counter for every request, denied ones too,
    // unless its process runs with STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true. The rules
    // keep the deployment's behaviour; envoy's rate limits are fixed windows, which take it.
    const bool stopIncrement = args.has("stop-cache-key-increment-when-overlimit");
    // (rules of an algorithm that cannot count denials: the extension)
    const qsizetype refused = rules::envoy::followEnvoyCounting(config.set, stopIncrement);
    const QString out = args.text("out");
    const bool yaml = out.endsWith(QLatin1String(".yaml")) || out.endsWith(QLatin1String(".yml"));
    const QByteArray bytes = yaml ? rules::toYaml(config.set) : rules::toJson(config.set);
    if (out.isEmpty()) {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    } else {
        QSaveFile f(out);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
            return fail(command, QStringLiteral("cannot write %1: %2").arg(out, f.errorString()),
                        exitRuntime);
        }
    }
    writeErr(
        QStringLiteral("sluice-cli %1: %2 rule(s) from %3 file(s), %4 domain(s)%5; %6")
            .arg(command)
            .arg(config.set.rules.size())
            .arg(config.files.size())
            .arg(config.domains.size())
            .arg(config.notes.isEmpty() ? QString()
                                        : QStringLiteral("; %1 construct(s) not imported (above)")
                                              .arg(config.notes.size()),
                 stopIncrement
                     ? QStringLiteral("count_rejected false: denied requests are not "
                                      "counted, as with "
                                      "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true")
                     : QStringLiteral("count_rejected true: denied requests count, as in "
                                      "envoy ratelimit by default (give "
                                      "--stop-cache-key-increment-when-overlimit if the "
                                      "deployment sets "
                                      "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true)%1")
                           .arg(refused == 0 ? QString()
                                             : QStringLiteral(", except on %1 rule(s) of a "
                                                              "bucket algorithm or GCRA, which "
                                                              "cannot count them")
                                                   .arg(refused))));
    return exitOk;
}

} // namespace sluice::cli
