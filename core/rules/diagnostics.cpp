#include "diagnostics.h"

#include "core/common/bytes.h"

#include <QList>

#include <algorithm>
#include <climits>

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

QString didYouMean(const QString &name, const QStringList &allowed)
{
    const auto squash = [](QString s) {
        return s.toLower().remove(u'_').remove(u'-').remove(u' ');
    };
    const auto phrase = [](const QString &a) {
        return QStringLiteral(" (did you mean '%1'?)").arg(a);
    };
    for (const QString &a : allowed) {
        if (squash(a) == squash(name)) {
            return phrase(a);
        }
    }
    const QString lower = name.left(64).toLower();
    QString best;
    qsizetype bestDistance = 3;
    for (const QString &a : allowed) {
        const qsizetype d = editDistance(lower, a.toLower());
        if (d < bestDistance) {
            best = a;
            bestDistance = d;
        }
    }
    return best.isEmpty() ? QString() : phrase(best);
}

QString objectWord(bool yaml)
{
    return yaml ? QStringLiteral("a mapping") : QStringLiteral("an object");
}

QString arrayWord(bool yaml)
{
    return yaml ? QStringLiteral("a list") : QStringLiteral("an array");
}

QString describeValue(const QJsonValue &v, bool yaml)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const qint64 i = v.toInteger(LLONG_MIN);
        return QStringLiteral("the number ") +
               (i != LLONG_MIN ? QString::number(i) : QString::number(v.toDouble()));
    }
    case QJsonValue::String:
        return QStringLiteral("the string \"%1\"").arg(bytes::shortened(v.toString()));
    case QJsonValue::Array:
        return arrayWord(yaml);
    case QJsonValue::Object:
        return objectWord(yaml);
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

} // namespace sluice::rules
