#include "simulationsession.h"

#include "simulationreport.h"
#include "simulationrunner.h"

#include "ui/connection/connectioncontroller.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::ui {

// The status line's words are the page's (its translation context): they were written there.

SimulationSession::SimulationSession(ConnectionController *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_runner(new SimulationRunner(this))
{
    m_message.form = PageMessage::Form::Plain;
    m_message.headline = QCoreApplication::translate(
        "sluice::ui::SimulationPage", "Choose a preset or edit the scenario, then Run.");
    connect(m_runner, &SimulationRunner::progress, this, [this](qint64 done, qint64 total) {
        if (!m_runner->isRunning() || total <= 0) {
            return;
        }
        setStatus(QCoreApplication::translate("sluice::ui::SimulationPage",
                                              "Deciding: %1 of %2 requests through every rule")
                      .arg(groupedCount(done), groupedCount(total)),
                  false);
        Q_EMIT progressed(done, total);
    });
    connect(m_runner, &SimulationRunner::finished, this, &SimulationSession::onFinished);
    connect(m_runner, &SimulationRunner::failed, this, [this](const QString &message) {
        setStatus(QCoreApplication::translate("sluice::ui::SimulationPage", "The run failed: %1")
                      .arg(message),
                  true);
        Q_EMIT runFailed();
    });
}

SimulationSession::~SimulationSession() = default;

sim::scenario::Loaded SimulationSession::check()
{
    return m_draft.check();
}

bool SimulationSession::setPattern(int row, const PatternDraft &pattern)
{
    if (row < 0 || size_t(row) >= m_draft.patterns.size()) {
        return false;
    }
    m_draft.patterns[size_t(row)] = pattern;
    return true;
}

bool SimulationSession::editRule(int row, const std::function<void(RuleDraft &)> &change)
{
    if (row < 0 || size_t(row) >= m_draft.rules.size()) {
        return false;
    }
    change(m_draft.rules[size_t(row)]);
    return true;
}

bool SimulationSession::setRuleKind(int row, const QString &kind)
{
    return editRule(row, [&](RuleDraft &r) { r.kind = kind; });
}

bool SimulationSession::setRuleValue(int row, const QString &key, const QString &text)
{
    return editRule(row, [&](RuleDraft &r) { r.values.insert(key, text); });
}

bool SimulationSession::loadPreset(const QString &name, QString *error)
{
    return m_draft.load(sim::scenario::preset(name), QString(), error);
}

bool SimulationSession::loadFile(const QString &path, QString *error)
{
    if (!m_draft.load(sim::scenario::loadFile(path), QFileInfo(path).absolutePath(), error)) {
        return false;
    }
    setStatus(QCoreApplication::translate("sluice::ui::SimulationPage", "Loaded %1")
                  .arg(QFileInfo(path).fileName()),
              false);
    return true;
}

bool SimulationSession::save(const QString &path, QString *error)
{
    m_draft.check();
    return m_draft.save(path, error);
}

void SimulationSession::usePageRules()
{
    m_draft.useRules(m_pageRules);
    setStatus(QCoreApplication::translate("sluice::ui::SimulationPage",
                                          "Using the %n rule(s) of the Rules page.", nullptr,
                                          int(m_pageRules.rules.size())),
              false);
}

bool SimulationSession::isRunning() const
{
    return m_runner->isRunning();
}

bool SimulationSession::run(Engine engine)
{
    if (m_runner->isRunning()) {
        return false;
    }
    const sim::scenario::Loaded loaded = m_draft.check();
    if (!loaded.ok()) {
        setStatus(QCoreApplication::translate("sluice::ui::SimulationPage",
                                              "Fix the problems marked in the scenario first."),
                  true);
        return false;
    }
    const sim::Scenario &scenario = loaded.scenario;
    std::optional<Endpoint> redis;
    m_engineProblem.clear();
    if (engine == Engine::Redis) {
        redis = m_connection ? m_connection->endpoint() : std::nullopt;
        if (!redis) {
            m_engineProblem = QCoreApplication::translate(
                "sluice::ui::SimulationPage",
                "Not connected to Redis: connect on the Connection page, or run on the "
                "in-process twins.");
            setStatus(QCoreApplication::translate("sluice::ui::SimulationPage", "Nothing was run."),
                      true);
            return false;
        }
    }
    m_runner->start(scenario, redis);
    Q_EMIT started();
    setStatus(
        QCoreApplication::translate("sluice::ui::SimulationPage", "Generating about %1 requests…")
            .arg(groupedCount(qint64(std::llround(scenario.expectedOffered())))),
        false);
    return true;
}

void SimulationSession::cancel()
{
    if (m_runner->isRunning()) {
        m_runner->cancel();
        setStatus(QCoreApplication::translate("sluice::ui::SimulationPage", "Cancelling…"), false);
    }
}

void SimulationSession::onFinished(const sim::SimResult &result, const sim::Scenario &scenario)
{
    m_lastResult = result;
    m_lastScenario = scenario;
    m_message = PageMessage::plain(result.warning.isEmpty() ? Tone::Info : Tone::Warning,
                                   runSummary(result));
    Q_EMIT runFinished();
    Q_EMIT messageChanged();
}

bool SimulationSession::exportTo(const QString &path, QString *error) const
{
    return exportRun(m_lastResult, m_lastScenario, path, error);
}

void SimulationSession::setStatus(const QString &text, bool problem)
{
    m_message = PageMessage::plain(problem ? Tone::Bad : Tone::Info, text);
    Q_EMIT messageChanged();
}

} // namespace sluice::ui
