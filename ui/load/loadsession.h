#pragma once

#include "core/load/loadgenerator.h"
#include "core/rules/rule.h"

#include "ui/common/pagemessage.h"
#include "ui/common/patterndraft.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

#include <memory>

class QTimer;

namespace sluice::stats {
class StatsFlusher;
class StatsRecorder;
} // namespace sluice::stats

namespace sluice::ui {

class ConnectionController;
class StatsWatch;

// The Load page's controller, widget-free (CONSOLE.md "Load"): what a run is made of (the rules
// ticked, one traffic pattern and its duration as typed, threads, subjects, seed, whether it
// decides on the rules' real keys), checked as it changes by the scenario reader (so the
// messages are a scenario file's, by field); the run itself (a load::LoadGenerator on threads of
// its own, polled four times a second: progress() is a snapshot under a mutex and never
// blocks); decisions per second between polls for the chart; the statistics (one
// StatsRecorder, one StatsFlusher per server, so that the Monitor page sees the traffic); and
// the outcome in words. The real keys need the user's yes: the view asks before start().
class LoadSession : public QObject
{
    Q_OBJECT
public:
    explicit LoadSession(ConnectionController *connection, QObject *parent = nullptr);
    ~LoadSession() override;

    // The form. Every setter checks again and emits changed().
    const RuleSet &rules() const { return m_rules; }
    // The rules to choose from: the first set ticks its enabled rules; later ones keep what
    // the user unticked (and tick new enabled rules).
    void setRules(const RuleSet &rules);
    bool isTicked(const QString &ruleId) const;
    void setTicked(const QString &ruleId, bool ticked);
    // The ticked rules' ids, in the set's order.
    QStringList tickedIds() const;
    // The pattern; its "duration" value is the run's length.
    const PatternDraft &draft() const { return m_draft; }
    void setDraft(const PatternDraft &draft) { change(m_draft, draft); }
    int threads() const { return m_threads; }
    void setThreads(int threads) { change(m_threads, threads); }
    qint64 subjects() const { return m_subjects; }
    void setSubjects(qint64 subjects) { change(m_subjects, subjects); }
    quint64 seed() const { return m_seed; }
    void setSeed(quint64 seed) { change(m_seed, seed); }
    bool realKeys() const { return m_realKeys; }
    void setRealKeys(bool real) { change(m_realKeys, real); }

    // The check: messages by field (the pattern's keys, "duration"), the rules' problem (no
    // rules, none ticked; empty when fine), the options of a run or the first problem in
    // words, and the plan in a sentence (empty while something is wrong).
    const CheckedPattern &checked() const { return m_checked; }
    QString rulesProblem() const;
    Result<load::LoadOptions> options() const;
    QString plan() const;
    bool canStart() const { return !isRunning() && options().ok(); }

    // The run.
    bool isRunning() const { return m_generator != nullptr; }
    // The last progress (the final one after finished()).
    const load::LoadProgress &progress() const { return m_progress; }
    // Decisions per second between polls, since the start.
    struct RatePoint
    {
        double elapsedS = 0;
        double allowed = 0;
        double denied = 0;
    };
    const QList<RatePoint> &rates() const { return m_rates; }
    // The highest rate so far (at least 10), for the chart's scale.
    double rateTop() const { return m_rateTop; }

    // What the last start or run came to, in rich text (empty: nothing to say).
    const PageMessage &message() const { return m_message; }
    // Whether the statistics of the runs are written (the window's status bar says so).
    StatsWatch *statsWatch() const { return m_statsWatch; }

public Q_SLOTS:
    // Starts a run now; false (and message() says why) when it cannot. No question asked here.
    bool start();
    // Returns at once; the next poll sees the run end.
    void stop();

Q_SIGNALS:
    // The form or its check changed.
    void changed();
    // The rules to choose from changed (the list is rebuilt).
    void rulesChanged();
    void started();
    // A poll: progress() and rates() hold more.
    void progressed();
    // The run is over (by itself, stopped, or failed): the final counters.
    void finished(const sluice::load::LoadProgress &progress);
    void messageChanged();

private:
    // Sets a field of the form and checks again.
    template <typename T> void change(T &field, const T &value)
    {
        field = value;
        check();
    }
    void check();
    void poll();
    void finish();
    void say(Tone tone, const QString &html);

    ConnectionController *m_connection;
    RuleSet m_rules;
    QSet<QString> m_unticked;
    PatternDraft m_draft;
    int m_threads = 4;
    qint64 m_subjects = 100;
    quint64 m_seed = 1;
    bool m_realKeys = false;
    CheckedPattern m_checked;

    std::unique_ptr<stats::StatsRecorder> m_recorder;
    std::unique_ptr<stats::StatsFlusher> m_flusher;
    QString m_flusherEndpoint; // safeUrl + password of the flusher's endpoint
    std::unique_ptr<load::LoadGenerator> m_generator;
    load::LoadProgress m_progress;
    QList<RatePoint> m_rates;
    double m_rateTop = 10;
    qint64 m_lastAllowed = 0;
    qint64 m_lastDenied = 0;
    double m_lastElapsed = 0;
    QTimer *m_poll;
    StatsWatch *m_statsWatch;

    PageMessage m_message;
};

} // namespace sluice::ui
