#include "simulationworker.h"

#include "core/sim/redisrun.h"
#include "core/sim/simulator.h"

#include <QElapsedTimer>

namespace sluice::ui {

void SimulationWorker::run(const sim::Scenario &scenario, const std::optional<Endpoint> &redis,
                           const std::atomic<bool> *cancel)
{
    auto simulator = sim::Simulator::create(scenario);
    if (!simulator) {
        Q_EMIT failed(simulator.error().message);
        return;
    }
    sim::RunOptions options;
    options.cancel = cancel;
    QElapsedTimer throttle;
    throttle.start();
    options.progress = [this, &throttle](const sim::Progress &p) {
        if (throttle.elapsed() < 50 && p.done < p.total) {
            return;
        }
        throttle.restart();
        Q_EMIT progress(p.done, p.total);
    };
    auto result =
        redis ? sim::runOnRedis(*simulator, *redis, options) : simulator->runLocal(options);
    if (result) {
        Q_EMIT ran(*result);
    } else {
        Q_EMIT failed(result.error().message);
    }
}

} // namespace sluice::ui
