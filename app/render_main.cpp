// sluice-render: draws a simulation's figure (ui/sim/SimulationCharts, the console's charts)
// into PNG and SVG files for `sluice-cli simulate --png/--svg`. A program of its own so that
// sluice-cli, which the systemd unit runs, links Qt Core and Network only: Qt Charts draw
// through Qt Widgets and Gui. sluice-cli runs it from its own folder with the run's outcome in
// a file (core/sim/resultfile.h); it is not meant to be run by hand.
//
//   sluice-render --scenario SPEC --result FILE [--png FILE] [--svg FILE]
#include "core/sim/resultfile.h"
#include "core/sim/scenario.h"
#include "ui/sim/simulationcharts.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QSaveFile>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace {

int fail(const QString &message)
{
    const QByteArray line = (u"sluice-render: "_s + message + u'\n').toLocal8Bit();
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    using namespace sluice;
    // Qt Charts draw through widgets: a QApplication, on the offscreen platform when there is
    // no display to talk to (a server, CI, ssh), so the command works anywhere.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QString scenarioSpec, resultPath, png, svg;
    const QStringList args = QCoreApplication::arguments().mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        QString *into = a == u"--scenario"_s ? &scenarioSpec
                        : a == u"--result"_s ? &resultPath
                        : a == u"--png"_s    ? &png
                        : a == u"--svg"_s    ? &svg
                                             : nullptr;
        if (into == nullptr || i + 1 >= args.size()) {
            return fail(QStringLiteral("unexpected argument '%1'; usage: sluice-render --scenario "
                                       "SPEC --result FILE [--png FILE] [--svg FILE] (run by "
                                       "sluice-cli simulate --png/--svg)")
                            .arg(a));
        }
        *into = args[++i];
    }
    if (scenarioSpec.isEmpty() || resultPath.isEmpty() || (png.isEmpty() && svg.isEmpty())) {
        return fail(QStringLiteral("needs --scenario, --result and --png or --svg (run by "
                                   "sluice-cli simulate --png/--svg)"));
    }
    QFile in(resultPath);
    if (!in.open(QIODevice::ReadOnly)) {
        return fail(QStringLiteral("cannot read %1: %2").arg(resultPath, in.errorString()));
    }
    auto result = sim::decodeResult(in.readAll());
    if (!result) {
        return fail(QStringLiteral("%1: %2").arg(resultPath, result.error().message));
    }
    const sim::scenario::Loaded loaded = sim::scenario::load(scenarioSpec);
    if (!loaded.ok()) {
        return fail(QStringLiteral("%1 is not a valid scenario any more (changed since the run?)")
                        .arg(scenarioSpec));
    }
    ui::SimulationCharts charts;
    charts.setResult(*result, loaded.scenario);
    const QSize size = ui::SimulationCharts::defaultSize(int(result->rules.size()));
    if (!png.isEmpty()) {
        const QImage image = charts.toImage(size);
        QSaveFile f(png);
        if (!f.open(QIODevice::WriteOnly) || !image.save(&f, "PNG") || !f.commit()) {
            return fail(QStringLiteral("cannot write %1: %2").arg(png, f.errorString()));
        }
    }
    if (!svg.isEmpty()) {
        QString error;
        if (!charts.saveSvg(svg, size, &error)) {
            return fail(error);
        }
    }
    return 0;
}
