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

    // A change of Redis's state (the decision pool's log), bounded: at most stateBurst lines at
    // once and one per stateRefillMs after, so that a flapping server (a CLIENT KILL loop)
    // cannot flood the log. A line held back is counted; the last one held is written (with
    // the count) by the next line let through or by flushHeld(), which serve calls every
    // second, so the log always ends on the state as it is.
    static constexpr int stateBurst = 10;
    static constexpr qint64 stateRefillMs = 6000;
    void writeState(Level level, const char *event, const QString &message);
    void flushHeld();

    // The JSON line of one event (without its line feed); `timeMs` unix ms.
    static QByteArray jsonLine(qint64 timeMs, Level level, const char *event,
                               const QString &message, const QString &rule,
                               const QJsonObject &fields);
    // The event and level of a line of the decision pool's log (DecisionPool::Options::log),
    // by what it says: redis_down, redis_up, redis_credentials_refused, redis_memory_full,
    // redis_memory_ok; anything else redis_state.
    static const char *poolEvent(const QString &line, Level *level);

private:
    // Under m_stateMutex: the state lines' bucket, and the last line held back.
    bool takeStateToken(qint64 nowMs);

    Format m_format;
    std::FILE *m_out;
    std::mutex m_mutex;
    std::mutex m_stateMutex;
    double m_stateTokens = stateBurst;
    qint64 m_stateAtMs = 0;
    qint64 m_held = 0; // lines held back since the last one written
    Level m_heldLevel = Level::Info;
    const char *m_heldEvent = nullptr;
    QString m_heldMessage;
};

} // namespace sluice::serve
