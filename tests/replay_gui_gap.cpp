// The console's responsiveness while Simulation > Replay a log… replays a big log: a timer on
// the GUI thread every 10 ms records the longest interval between two of its ticks (what a user
// would feel as a frozen window), from the click on Replay until the report is shown. A
// measuring tool, not a test: tools/bench-replay-gui.sh runs it and prints the figures.
//
//   replay_gui_gap LOG RULES        (QT_QPA_PLATFORM=offscreen works)
#include "ui/sim/replaydialog.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <ctime>

namespace {

// The GUI thread's own CPU time: a gap with little of it was the scheduler's (the machine is
// shared), one full of it was work done on the GUI thread.
qint64 threadCpuNs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: replay_gui_gap LOG RULES\n");
        return 2;
    }
    sluice::ui::ReplayDialog dialog;
    dialog.resize(1280, 800);
    dialog.show();
    dialog.setLogs({args[1]});
    dialog.setRulesFile(args[2]);

    QElapsedTimer clock;
    qint64 last = 0;
    qint64 lastCpu = 0;
    qint64 maxGapNs = 0;
    qint64 maxCpuNs = 0; // the most GUI-thread CPU time within one gap
    qint64 ticks = 0;
    qint64 over50 = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const qint64 cpu = threadCpuNs();
        const qint64 gap = now - last;
        const qint64 busy = cpu - lastCpu;
        last = now;
        lastCpu = cpu;
        ++ticks;
        maxGapNs = std::max(maxGapNs, gap);
        maxCpuNs = std::max(maxCpuNs, busy);
        if (gap > 50'000'000) {
            ++over50;
            std::fprintf(stderr,
                         "gap of %.1f ms ending at %.2f s (%s), GUI-thread CPU in it %.1f ms\n",
                         double(gap) / 1e6, double(now) / 1e9,
                         dialog.running() ? "replaying" : "report shown", double(busy) / 1e6);
        }
    });
    bool finished = false;
    QObject::connect(&dialog, &sluice::ui::ReplayDialog::replayFinished, [&] {
        finished = true;
        // One more tick after the report is on screen: its filling counts as a gap too.
        QTimer::singleShot(100, &app, &QApplication::quit);
    });
    QTimer::singleShot(0, [&] {
        clock.start();
        last = 0;
        lastCpu = threadCpuNs();
        tick.start();
        dialog.start();
    });
    app.exec();
    const double secs = double(clock.nsecsElapsed()) / 1e9;
    if (!finished || !dialog.report().error.isEmpty() || dialog.report().lines == 0) {
        std::fprintf(stderr, "the replay did not finish with a report\n");
        return 1;
    }
    std::printf("replayed %lld lines in %.2f s (dialog, worker thread); GUI timer every 10 ms: "
                "%lld ticks, longest gap %.1f ms, %lld gap(s) over 50 ms; most GUI-thread CPU "
                "time within one gap %.1f ms\n",
                static_cast<long long>(dialog.report().lines), secs, static_cast<long long>(ticks),
                double(maxGapNs) / 1e6, static_cast<long long>(over50), double(maxCpuNs) / 1e6);
    return 0;
}
