#include "diagnostics.h"

#include <QList>

#include <algorithm>

namespace sluice::rules {

Diagnostic diagnostic(const QString &file, const QString &path, const QString &message,
                      TextPosition pos)
{
    Diagnostic d;
    d.file = file;
    d.line = pos.line;
    d.column = pos.column;
    d.path = path;
    d.message = message;
    return d;
}

qsizetype editDistance(const QString &a, const QString &b)
{
    QList<qsizetype> row(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (qsizetype i = 1; i <= a.size(); ++i) {
        qsizetype diagonal = row[0];
        row[0] = i;
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const qsizetype up = row[j];
            row[j] = std::min(
                {row[j] + 1, row[j - 1] + 1, diagonal + (a.at(i - 1) == b.at(j - 1) ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

} // namespace sluice::rules
