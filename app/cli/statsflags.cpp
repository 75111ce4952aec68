#include "statsflags.h"

#include <cstdio>

namespace sluice::cli {

void StatsReporter::update(const stats::StatsFlusher::Status &s)
{
    QString message;
    if (!s.redisOk && !m_failing) {
        m_failing = true;
        message = QStringLiteral("statistics are not written: %1 (decisions are not affected; "
                                 "--no-stats turns statistics off)")
                      .arg(s.lastError);
    } else if (s.redisOk && m_failing) {
        m_failing = false;
        message = QStringLiteral("statistics are written again");
    } else {
        return;
    }
    if (m_sink) {
        m_sink(m_failing, message);
    } else {
        std::fprintf(stderr, "sluice-cli %s: %s\n", qPrintable(m_command), qPrintable(message));
    }
}

QJsonObject statsHealthJson(const stats::StatsFlusher &flusher, bool enabled)
{
    if (!enabled) {
        return QJsonObject{{QStringLiteral("enabled"), false}};
    }
    const stats::StatsFlusher::Status s = flusher.status();
    QJsonObject o{{QStringLiteral("enabled"), true},
                  {QStringLiteral("ok"), s.redisOk},
                  {QStringLiteral("backlog"), s.backlog},
                  {QStringLiteral("dropped"), s.dropped},
                  {QStringLiteral("flushes"), s.flushes},
                  {QStringLiteral("skipped_applied"), s.skippedApplied},
                  {QStringLiteral("last_flush_ms"), s.lastFlushMs}};
    if (!s.lastError.isEmpty()) {
        o.insert(QStringLiteral("last_error"), s.lastError);
    }
    return o;
}

} // namespace sluice::cli
