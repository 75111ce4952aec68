#pragma once

#include "core/stats/statsflusher.h"

#include <QJsonObject>
#include <QString>

#include <functional>

namespace sluice::cli {

// A statistics failure is reported once: one line on stderr when the writer starts
// failing, one when it writes again; never a line per attempt. `serve`, `check`, `load`.
class StatsReporter
{
public:
    explicit StatsReporter(QString command)
        : m_command(std::move(command))
    {}
    // Call with the flusher's status from time to time (and once at the end).
    void update(const stats::StatsFlusher::Status &s);
    // Where the lines go instead of stderr (serve --log-format json); `failing` says which.
    void setSink(std::function<void(bool failing, const QString &message)> sink)
    {
        m_sink = std::move(sink);
    }

private:
    QString m_command;
    std::function<void(bool failing, const QString &message)> m_sink;
    bool m_failing = false;
};

// The "stats" object of serve's /healthz: {"enabled","ok","last_error","backlog","dropped",
// "flushes","last_flush_ms"}.
QJsonObject statsHealthJson(const stats::StatsFlusher &flusher, bool enabled);

} // namespace sluice::cli
