#include "servelog.h"

#include <QDateTime>
#include <QJsonDocument>

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

void ServeLog::write(Level level, const char *event, const QString &message, const QString &rule,
                     const QJsonObject &fields)
{
    QByteArray line;
    if (m_format == Format::Json) {
        line = jsonLine(QDateTime::currentMSecsSinceEpoch(), level, event, message, rule, fields);
    } else {
        line = (QStringLiteral("sluice-cli serve: ") + message).toLocal8Bit();
    }
    line += '\n';
    std::lock_guard l(m_mutex);
    std::fwrite(line.constData(), 1, size_t(line.size()), m_out);
    std::fflush(m_out);
}

} // namespace sluice::serve
