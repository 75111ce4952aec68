#include "args.h"

#include "connectflags.h"

#include "app/help/help.h"

#include <cstdio>
#include <cstring>

namespace sluice::cli {

Result<Args> Args::parse(const QList<QByteArray> &argv, std::initializer_list<Flag> flags)
{
    Args out;
    bool takesUrl = false;
    for (const Flag &f : flags) {
        takesUrl = takesUrl || std::strcmp(f.name, "url") == 0;
    }
    auto spec = [&](const QByteArray &name) -> const Flag * {
        for (const Flag &f : flags) {
            if (name == f.name) {
                return &f;
            }
        }
        // Every command that reaches Redis takes the same connection flags.
        if (takesUrl) {
            for (const Flag &f : connectionFlags()) {
                if (name == f.name) {
                    return &f;
                }
            }
        }
        return nullptr;
    };
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QByteArray &a = argv[i];
        if (!a.startsWith("--") || a == "--") {
            out.m_positional << a;
            continue;
        }
        QByteArray name = a.mid(2);
        std::optional<QByteArray> inlineValue;
        if (const qsizetype eq = name.indexOf('='); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        const Flag *f = spec(name);
        if (f == nullptr) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("unknown option --%1").arg(QString::fromUtf8(name)));
        }
        // --url again: one more seed of a Redis Cluster (Endpoint::parseAll); one per line.
        const bool moreSeeds = name == "url" && out.m_values.contains(name);
        if (out.m_values.contains(name) && !moreSeeds) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--%1 is given twice").arg(QString::fromUtf8(name)));
        }
        QByteArray value;
        if (f->takesValue) {
            if (inlineValue) {
                value = *inlineValue;
            } else if (i + 1 < argv.size()) {
                value = argv[++i];
            } else {
                return Error::make(
                    Error::Kind::Invalid,
                    QStringLiteral("--%1 needs a value").arg(QString::fromUtf8(name)));
            }
        } else if (inlineValue) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--%1 takes no value").arg(QString::fromUtf8(name)));
        }
        out.m_values.insert(name, moreSeeds ? out.m_values.value(name) + '\n' + value : value);
    }
    return out;
}

Result<qint64> integerFlag(const Args &args, const char *name, qint64 min, qint64 max)
{
    const QByteArray raw = args.raw(name);
    bool ok = false;
    const qint64 v = raw.toLongLong(&ok);
    // toLongLong accepts surrounding spaces and a '+': be stricter, digits only.
    bool digits = !raw.isEmpty();
    for (qsizetype i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (!((c >= '0' && c <= '9') || (i == 0 && c == '-' && raw.size() > 1))) {
            digits = false;
        }
    }
    const QString shown =
        bytes::printable(raw.left(40)) + (raw.size() > 40 ? QStringLiteral("...") : QString());
    if (!ok || !digits) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("--%1 must be an integer, got '%2'").arg(QLatin1String(name), shown));
    }
    if (v < min || v > max) {
        const QString range = max >= (qint64(1) << 53) - 1
                                  ? QStringLiteral(">= %1").arg(min)
                                  : QStringLiteral("between %1 and %2").arg(min).arg(max);
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--%1 must be an integer %2, got %3")
                               .arg(QLatin1String(name), range, shown));
    }
    return v;
}

Result<LimitValues> limitValues(const Args &args, bool window)
{
    LimitValues v;
    if (window) {
        auto limit = integerFlag(args, "limit", 1, duration::maxExact - 1);
        if (!limit) {
            return limit.error();
        }
        auto w = duration::parseUs(args.text("window"));
        if (!w) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("--window: %1").arg(w.error().message));
        }
        v.limit = *limit;
        v.windowUs = *w;
        return v;
    }
    auto rate = duration::parseRate(args.text("rate"));
    if (!rate) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--rate: %1").arg(rate.error().message));
    }
    auto burst = integerFlag(args, "burst", 1, duration::maxExact - 1);
    if (!burst) {
        return burst.error();
    }
    v.rate = *rate;
    v.burst = *burst;
    return v;
}

QString usageOf(const QString &command)
{
    return u'\n' + help::usage(help::cliPage(), command);
}

int fail(const QString &command, const QString &message, int code)
{
    const QByteArray line =
        (QStringLiteral("sluice-cli %1: %2\n").arg(command, message)).toLocal8Bit();
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    return code;
}

} // namespace sluice::cli
