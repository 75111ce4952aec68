#pragma once

#include "core/common/bytes.h" // bytes::printable: how every command prints bytes
#include "core/common/duration.h"
#include "core/common/result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <initializer_list>

namespace sluice::cli {

constexpr int exitOk = 0;
constexpr int exitRuntime = 1; // Redis unreachable, a failed write, ...
constexpr int exitUsage = 2;   // bad flags or invalid input

struct Flag
{
    const char *name; // without the leading "--"
    bool takesValue;
};

// A deliberately small parser: "--flag value", "--flag=value", booleans, positionals. Values
// stay raw bytes (a subject may be any bytes the shell can pass). Unknown flags, a missing
// value and a repeated flag are usage errors naming the flag.
class Args
{
public:
    static Result<Args> parse(const QList<QByteArray> &argv, std::initializer_list<Flag> flags);

    bool has(const char *name) const { return m_values.contains(QByteArray(name)); }
    QByteArray raw(const char *name) const { return m_values.value(QByteArray(name)); }
    QString text(const char *name) const { return QString::fromLocal8Bit(raw(name)); }
    const QList<QByteArray> &positional() const { return m_positional; }

private:
    QHash<QByteArray, QByteArray> m_values;
    QList<QByteArray> m_positional;
};

// Strict integer from a flag value: the whole text, base 10, within [min, max].
Result<qint64> integerFlag(const Args &args, const char *name, qint64 min, qint64 max);

// The values of --limit N and --window W (a window algorithm), or of --rate R and --burst B
// (the buckets and GCRA), both given: the error names the flag that does not read.
struct LimitValues
{
    qint64 limit = 0;
    qint64 windowUs = 0;
    Rate rate;
    qint64 burst = 0;
    // Into a Policy or an Override, which both hold these four.
    template <class T> void applyTo(T &target) const
    {
        target.limit = limit;
        target.windowUs = windowUs;
        target.rate = rate;
        target.burst = burst;
    }
};
Result<LimitValues> limitValues(const Args &args, bool window);

// "\nusage: sluice-cli <command> ..." from the command's help (app/help/clipage.cpp): what a
// usage error appends to its message.
QString usageOf(const QString &command);

// Prints "sluice-cli <command>: <message>" to stderr and returns the exit code.
int fail(const QString &command, const QString &message, int code);

} // namespace sluice::cli
