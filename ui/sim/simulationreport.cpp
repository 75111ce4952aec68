#include "simulationreport.h"

#include "simulationcharts.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QLocale>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace sluice::ui {

bool exportRun(const sim::SimResult &result, const sim::Scenario &scenario, const QString &path,
               QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error) {
            *error = message;
        }
        return false;
    };
    if (result.rules.empty()) {
        return fail(
            QCoreApplication::translate("sluice::ui::SimulationPage",
                                        "Run a simulation first: there is nothing to export yet."));
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"csv"_s) {
        QSaveFile f(path);
        const QByteArray bytes = sim::report::csv(result);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
            return fail(
                QCoreApplication::translate("sluice::ui::SimulationPage", "Cannot write %1: %2")
                    .arg(path, f.errorString()));
        }
        return true;
    }
    if (suffix != u"png"_s && suffix != u"svg"_s) {
        return fail(QCoreApplication::translate("sluice::ui::SimulationPage",
                                                "%1: export to .png, .svg or .csv")
                        .arg(path));
    }
    SimulationCharts figure;
    figure.setResult(result, scenario);
    const QSize size = SimulationCharts::defaultSize(figure.rowCount());
    if (suffix == u"png"_s) {
        return figure.toImage(size).save(path, "PNG")
                   ? true
                   : fail(QCoreApplication::translate("sluice::ui::SimulationPage",
                                                      "Cannot write %1")
                              .arg(path));
    }
    QString message;
    return figure.saveSvg(path, size, &message) ? true : fail(message);
}

QString groupedCount(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

QString runSummary(const sim::SimResult &result)
{
    QString text;
    if (result.cancelled) {
        text = QCoreApplication::translate("sluice::ui::SimulationPage",
                                           "Cancelled after %1 of %2 requests; the charts show "
                                           "what was decided until then.")
                   .arg(groupedCount(result.processed), groupedCount(result.total));
        if (result.backend == u"redis"_s && result.warning.isEmpty()) {
            text += u" "_s + QCoreApplication::translate("sluice::ui::SimulationPage",
                                                         "The run's keys were removed from Redis.");
        }
    } else {
        const QString where =
            result.backend == u"redis"_s
                ? QCoreApplication::translate("sluice::ui::SimulationPage", "the scripts in Redis")
                : QCoreApplication::translate("sluice::ui::SimulationPage", "the in-process twins");
        text = QCoreApplication::translate("sluice::ui::SimulationPage",
                                           "%1 requests through %n rule(s) on %2 in %3 s.", nullptr,
                                           int(result.rules.size()))
                   .arg(groupedCount(result.processed), where)
                   .arg(result.wallSeconds, 0, 'f', 2);
    }
    if (!result.warning.isEmpty()) {
        text += u" "_s + result.warning;
    }
    return text;
}

} // namespace sluice::ui
