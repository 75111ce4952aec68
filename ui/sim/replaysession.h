#pragma once

#include "core/replay/replay.h"

#include "ui/common/pagemessage.h"
#include "ui/common/workerthread.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <vector>

namespace sluice::ui {

// Runs replay::run in its own thread (the GUI thread never waits on a log): progress at most
// ten times a second, the report or the error at the end. The report's figures, the subjects
// each rule's limits would deny among them, are made there.
class ReplayWorker : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    void run(replay::Options options, const std::atomic<bool> *cancel);

Q_SIGNALS:
    void progress(qint64 lines, qint64 bytes, qint64 totalBytes, double linesPerSecond);
    void finished(const sluice::replay::Report &report);
    void failed(const QString &message);
};

// The replay dialog's controller, widget-free (CONSOLE.md "Replay a log"): the inputs, the run
// on a WorkerThread with progress and cancel, the report, the rule chosen and the candidate
// limit on it with what it would deny (the shares, and the subjects by name), the note on each
// rule that decided nothing, and *Use this limit* (useLimitRequested: the Rules page writes it
// into the rule, unsaved). Its message is the page sessions' one type. GUI thread.
class ReplaySession : public QObject
{
    Q_OBJECT
public:
    struct Inputs
    {
        QStringList logs;
        QString rulesFile; // empty: the Rules page's rules
        QString format = QStringLiteral("auto");
        QString logFormat; // format "nginx"
    };

    explicit ReplaySession(QObject *parent = nullptr);
    ~ReplaySession() override;

    // The Rules page's rules, replayed when no rule file is given.
    void setPageRules(const RuleSet &set) { m_pageRules = set; }
    const RuleSet &pageRules() const { return m_pageRules; }

    // False (message() says why) when an input is wrong or a run is going.
    bool start(const Inputs &inputs);
    void cancel();
    bool isRunning() const { return m_running; }

    const replay::Report &report() const { return m_report; }
    // The replayed rules in the summary's order (the report's `rules`).
    int ruleCount() const { return int(m_replayed.size()); }
    const replay::RuleReport *rule(int index) const;
    // Why a rule decided nothing or denied nothing, with the lines per reason; else its
    // description.
    static QString noteFor(const replay::RuleReport &rule);
    static bool decidedNothing(const replay::RuleReport &rule);

    // The rule whose peaks and limit are shown (-1: none); choosing one puts its own limit.
    void selectRule(int index);
    int selectedRule() const { return m_selected; }
    const replay::RuleReport *selected() const { return rule(m_selected); }
    void setLimit(qint64 limit);
    qint64 limit() const { return m_limit; }
    // What the limit would deny on the selected rule: the shares, and the subjects by name.
    QString sharesText() const;
    replay::WouldDeny wouldDeny() const;

    // *Use this limit*: the rule in the Rules page it writes into (a staged candidate's
    // enforced rule), empty with the reason in `why` when it cannot.
    QString limitTarget(QString *why = nullptr) const;
    // Asks the Rules page to write the limit (useLimitRequested); false when it cannot.
    bool useLimit();
    // The Rules page's answer: written (the rule is edited, unsaved) or why not.
    void limitUsed(bool written, const QString &detail);

    PageMessage message() const { return m_message; }

Q_SIGNALS:
    void messageChanged();
    void runningChanged(bool running);
    void progressed(qint64 lines, qint64 bytes, qint64 totalBytes, double linesPerSecond);
    void finished();
    void selectionChanged();
    void limitChanged();
    void useLimitRequested(const QString &ruleId, qint64 limit);

private:
    void say(const PageMessage &message);
    void setRunning(bool running);
    void onFinished(const replay::Report &report);
    QString summary(const replay::Report &report) const;

    RuleSet m_pageRules;
    bool m_fromPage = false; // the last run replayed the Rules page's rules
    std::atomic<bool> m_cancelFlag{false};
    WorkerThread<ReplayWorker> m_worker{QStringLiteral("sluice-replay")};
    replay::Report m_report;
    std::vector<const replay::RuleReport *> m_replayed;
    int m_selected = -1;
    qint64 m_limit = 0;
    bool m_running = false;
    PageMessage m_message;
};

} // namespace sluice::ui
