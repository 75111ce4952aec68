#pragma once

#include <QString>
#include <QStringView>

namespace sluice {

// An English count phrase for the engine's and the CLI's own text: "1 request", "3 requests"
// (the console's words go through tr() with %n instead). `number` is how n is written, when it
// is not plain digits ("1,234", "1.5"); the noun is singular when n is exactly one.
inline QString counted(qint64 n, QStringView one, QStringView many, const QString &number = {})
{
    return (number.isEmpty() ? QString::number(n) : number) + u' ' +
           (n == 1 ? one : many).toString();
}

} // namespace sluice
