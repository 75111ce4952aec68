#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <cstdio>
#include <mutex>

namespace sluice::serve {

// The log of `sluice-cli serve` (stderr): the lines it has always written ("sluice-cli serve:
// <message>"), or with --log-format json one JSON object per line (FORMATS.md "The JSON log"):
//   {"time":"2026-12-02T01:14:03.123Z","level":"warning","event":"redis_down",
//    "rule":null,"message":"Redis is down, ...","fields":{...}}
// for Loki, Elasticsearch and journald's JSON readers as they are. Any thread: each line is
// written whole, under a lock, and flushed.
class ServeLog
{
public:
    enum class Format { Text, Json };
    enum class Level { Info, Warning, Error };

    explicit ServeLog(Format format = Format::Text, std::FILE *out = stderr)
        : m_format(format)
        , m_out(out)
    {}

    Format format() const { return m_format; }
    void write(Level level, const char *event, const QString &message, const QString &rule = {},
               const QJsonObject &fields = {});

    // The JSON line of one event (without its line feed); `timeMs` unix ms.
    static QByteArray jsonLine(qint64 timeMs, Level level, const char *event,
                               const QString &message, const QString &rule,
                               const QJsonObject &fields);
    // The event and level of a line of the decision pool's log (DecisionPool::Options::log),
    // by what it says: redis_down, redis_up, redis_credentials_refused, redis_memory_full,
    // redis_memory_ok; anything else redis_state.
    static const char *poolEvent(const QString &line, Level *level);

private:
    Format m_format;
    std::FILE *m_out;
    std::mutex m_mutex;
};

} // namespace sluice::serve
