#include "connectionstate.h"

#include <QCoreApplication>
#include <QLocale>

namespace sluice::ui {

QString formatRtt(double ms)
{
    const QLocale locale;
    if (ms < 0) {
        return QCoreApplication::translate("sluice::ui::ConnectionState", "- ms");
    }
    if (ms < 0.05) {
        return QCoreApplication::translate("sluice::ui::ConnectionState", "< %1 ms")
            .arg(locale.toString(0.1, 'f', 1));
    }
    const QString number = ms < 10 ? locale.toString(ms, 'f', 1) : locale.toString(qRound(ms));
    return QCoreApplication::translate("sluice::ui::ConnectionState", "%1 ms").arg(number);
}

} // namespace sluice::ui
