#include "duration.h"

#include "bytes.h"

#include <QRegularExpression>

namespace sluice::duration {

namespace {

struct Unit
{
    const char *name;
    qint64 us;
};
constexpr Unit units[] = {{"us", 1},          {"ms", usPerMs},  {"s", usPerSecond},
                          {"m", usPerMinute}, {"h", usPerHour}, {"d", usPerDay}};

Error invalid(const QString &what)
{
    return Error::make(Error::Kind::Invalid, what);
}

} // namespace

Result<qint64> parseUs(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d*)\\s*(us|ms|s|m|h|d)\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) {
        return invalid(QStringLiteral("'%1' is not a duration; expected an integer and a unit "
                                      "(us, ms, s, m, h, d), e.g. 250ms, 5s, 1m")
                           .arg(bytes::shortened(text)));
    }
    const QString digits = m.captured(1);
    bool ok = true;
    const qint64 n = digits.isEmpty() ? 1 : digits.toLongLong(&ok);
    qint64 unitUs = 1;
    for (const Unit &u : units) {
        if (m.captured(2) == QLatin1String(u.name)) {
            unitUs = u.us;
        }
    }
    if (!ok || n > maxExact / unitUs) {
        return invalid(QStringLiteral("duration '%1' is too long").arg(bytes::shortened(text)));
    }
    if (n <= 0) {
        return invalid(
            QStringLiteral("duration '%1' must be positive").arg(bytes::shortened(text)));
    }
    return n * unitUs;
}

Result<Rate> parseRate(const QString &text)
{
    const qsizetype slash = text.indexOf(QLatin1Char('/'));
    if (slash < 0) {
        return invalid(QStringLiteral("'%1' is not a rate; expected N/<duration>, e.g. 100/s, "
                                      "5/10s, 7/m")
                           .arg(bytes::shortened(text)));
    }
    bool ok = false;
    const QString countText = text.left(slash).trimmed();
    const qint64 count = countText.toLongLong(&ok);
    if (!ok || count <= 0 || count >= maxExact) {
        return invalid(QStringLiteral("rate '%1': the count '%2' must be a positive integer")
                           .arg(bytes::shortened(text), bytes::shortened(countText)));
    }
    auto period = parseUs(text.mid(slash + 1));
    if (!period) {
        return invalid(
            QStringLiteral("rate '%1': %2").arg(bytes::shortened(text), period.error().message));
    }
    return Rate{count, *period};
}

QString formatUs(qint64 us)
{
    for (auto it = std::rbegin(units); it != std::rend(units); ++it) {
        if (us % it->us == 0) {
            return QString::number(us / it->us) + QLatin1String(it->name);
        }
    }
    return QString::number(us) + QStringLiteral("us");
}

QString formatRate(const Rate &rate)
{
    QString period = formatUs(rate.periodUs);
    if (period.size() > 1 && period.startsWith(QLatin1Char('1')) && !period.at(1).isDigit()) {
        period = period.mid(1); // "1s" -> "s": 100/s rather than 100/1s
    }
    return QString::number(rate.count) + QLatin1Char('/') + period;
}

} // namespace sluice::duration
