#pragma once

#include <QObject>
#include <QString>

class QTimer;

namespace sluice::stats {
class StatsFlusher;
}

namespace sluice::ui {

// A statistics writer's health for the console's status (a statistics failure is said
// once, also in the console): polls a StatsFlusher's status on the GUI thread (a snapshot under
// its mutex: never blocks on Redis) and emits changed() when writing starts failing and when it
// works again, not once per attempt. The words name the permission to grant when Redis refused
// with NOPERM. Widget-free; the window shows it in the status bar.
class StatsWatch : public QObject
{
    Q_OBJECT
public:
    explicit StatsWatch(QObject *parent = nullptr);

    // The flusher to watch (not owned: the caller calls watch(nullptr) or a new one before it
    // goes); `user`: the Redis user it writes as, named in what to grant.
    void watch(const stats::StatsFlusher *flusher, const QString &user);
    bool failing() const { return m_failing; }
    // One line: "Statistics are not written: grant ACL SETUSER load +zincrby"; empty while
    // they are written.
    QString text() const;
    // The flusher's last error, for a tooltip.
    QString detail() const { return m_error; }
    // Reads the flusher's status now (also every 500 ms by itself).
    void poll();

Q_SIGNALS:
    void changed();

private:
    QTimer *m_timer;
    const stats::StatsFlusher *m_flusher = nullptr;
    QString m_user;
    bool m_failing = false;
    QString m_error;
    QString m_grant;
};

} // namespace sluice::ui
