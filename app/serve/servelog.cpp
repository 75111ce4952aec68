#include "servelog.h"

#include "core/common/bytes.h"

#include <QDateTime>
#include <QJsonDocument>

#include <algorithm>

namespace sluice::serve {

namespace {

QString levelName(ServeLog::Level level)
{
    switch (level) {
    case ServeLog::Level::Info:
        break;
    case ServeLog::Level::Warning:
        return QStringLiteral("warning");
    case ServeLog::Level::Error:
        return QStringLiteral("error");
    }
    return QStringLiteral("info");
}

} // namespace

QByteArray ServeLog::jsonLine(qint64 timeMs, Level level, const char *event, const QString &message,
                              const QString &rule, const QJsonObject &fields)
{
    // QJsonDocument writes the keys sorted: event, fields, level, message, rule, time.
    QJsonObject o{
        {QStringLiteral("time"),
         QDateTime::fromMSecsSinceEpoch(timeMs, Qt::UTC).toString(Qt::ISODateWithMs)},
        {QStringLiteral("level"), levelName(level)},
        {QStringLiteral("event"), QString::fromLatin1(event)},
        {QStringLiteral("rule"), rule.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(rule)},
        {QStringLiteral("message"), message},
        {QStringLiteral("fields"), fields},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

const char *ServeLog::poolEvent(const QString &line, Level *level)
{
    struct Known
    {
        const char *prefix;
        const char *event;
        Level level;
    };
    static const Known known[] = {
        {"Redis is down", "redis_down", Level::Warning},
        {"Redis refused the credentials", "redis_credentials_refused", Level::Error},
        {"Redis is up again", "redis_up", Level::Info},
        {"Redis is out of memory", "redis_memory_full", Level::Warning},
        {"Redis accepts writes again", "redis_memory_ok", Level::Info},
    };
    for (const Known &k : known) {
        if (line.startsWith(QLatin1String(k.prefix))) {
            *level = k.level;
            return k.event;
        }
    }
    *level = Level::Warning;
    return "redis_state";
}

bool ServeLog::takeStateToken(qint64 nowMs)
{
    if (m_stateAtMs != 0) {
        m_stateTokens = std::min<double>(stateBurst, m_stateTokens + double(nowMs - m_stateAtMs) /
                                                                         double(stateRefillMs));
    }
    m_stateAtMs = nowMs;
    if (m_stateTokens < 1) {
        return false;
    }
    m_stateTokens -= 1;
    return true;
}

void ServeLog::writeState(Level level, const char *event, const QString &message)
{
    QString line = message;
    {
        std::lock_guard l(m_stateMutex);
        if (!takeStateToken(QDateTime::currentMSecsSinceEpoch())) {
            ++m_held;
            m_heldLevel = level;
            m_heldEvent = event;
            m_heldMessage = message;
            return;
        }
        if (m_held > 0) {
            line += QStringLiteral(" (%1 earlier change(s) of state not logged: more than %2 "
                                   "a minute)")
                        .arg(m_held)
                        .arg(60'000 / stateRefillMs);
            m_held = 0;
        }
    }
    write(level, event, line);
}

void ServeLog::flushHeld()
{
    Level level;
    const char *event;
    QString message;
    qint64 held;
    {
        std::lock_guard l(m_stateMutex);
        if (m_held == 0 || !takeStateToken(QDateTime::currentMSecsSinceEpoch())) {
            return;
        }
        level = m_heldLevel;
        event = m_heldEvent;
        message = m_heldMessage;
        held = m_held;
        m_held = 0;
    }
    write(level, event,
          QStringLiteral("%1 (the last of %2 change(s) of state not logged: more than %3 a "
                         "minute)")
              .arg(message)
              .arg(held)
              .arg(60'000 / stateRefillMs));
}

void ServeLog::write(Level level, const char *event, const QString &message, const QString &rule,
                     const QJsonObject &fields)
{
    QByteArray line;
    if (m_format == Format::Json) {
        line = jsonLine(QDateTime::currentMSecsSinceEpoch(), level, event, message, rule, fields);
    } else {
        // The values in it were escaped where they were quoted (bytes::printable); a control
        // that reached it anyway is escaped here, so a line is never broken or forged.
        line = (QStringLiteral("sluice-cli serve: ") +
                bytes::printable(message, bytes::Keep::Backslash))
                   .toUtf8();
    }
    line += '\n';
    std::lock_guard l(m_mutex);
    std::fwrite(line.constData(), 1, size_t(line.size()), m_out);
    std::fflush(m_out);
}

} // namespace sluice::serve
