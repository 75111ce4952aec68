#pragma once

#include "core/stats/statsflusher.h"

#include <QJsonObject>
#include <QString>

namespace sluice::cli {

// A statistics failure is reported once (issue 11): one line on stderr when the writer starts
// failing, one when it writes again; never a line per attempt. `serve`, `check`, `load`.
class StatsReporter
{
public:
    explicit StatsReporter(QString command)
        : m_command(std::move(command))
    {}
    // Call with the flusher's status from time to time (and once at the end).
    void update(const stats::StatsFlusher::Status &s);

private:
    QString m_command;
    bool m_failing = false;
};

// The "stats" object of serve's /healthz: {"enabled","ok","last_error","backlog","dropped",
// "flushes","last_flush_ms"}.
QJsonObject statsHealthJson(const stats::StatsFlusher &flusher, bool enabled);

} // namespace sluice::cli
