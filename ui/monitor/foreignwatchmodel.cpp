#include "foreignwatchmodel.h"

#include "core/common/bytes.h"
#include "core/keys/keyinfo.h"
#include "ui/common/tone.h"

#include <QLocale>

namespace sluice::ui {

using keys::WatchChange;
using keys::WatchedSubject;
using keys::WatchLevel;

namespace {

QString perSecond(double v, bool lowerBound)
{
    if (v < 0) {
        return QStringLiteral("–");
    }
    const QString n = QLocale().toString(v, 'f', 1);
    return lowerBound ? QStringLiteral("≥ ") + n : n;
}

} // namespace

ForeignWatchModel::ForeignWatchModel(QObject *parent)
    : RowsModel(parent)
{}

void ForeignWatchModel::setReport(const keys::WatchReport &report, int maxRows)
{
    resetWith([&] {
        m_rows.clear();
        for (const WatchedSubject &s : report.subjects) {
            if (s.change == WatchChange::Expired || m_rows.size() >= maxRows) {
                break;
            }
            m_rows << s;
        }
    });
}

QString ForeignWatchModel::changeWords(WatchChange c)
{
    switch (c) {
    case WatchChange::Steady:
        return tr("the same window in both");
    case WatchChange::New:
        return tr("the key appeared between them: all it counted");
    case WatchChange::Reset:
        return tr("the window restarted between them: at least these");
    case WatchChange::Expired:
        break;
    }
    return tr("the key expired since");
}

QString ForeignWatchModel::levelWords(const WatchedSubject &s)
{
    if (s.now.blockKey) {
        return tr("blocked");
    }
    switch (s.level) {
    case WatchLevel::Over:
        return tr("over its limit");
    case WatchLevel::At:
        return s.now.tokens ? tr("no token left") : tr("at its limit");
    case WatchLevel::Near:
        return tr("near its limit");
    case WatchLevel::Under:
        break;
    }
    return tr("under");
}

QVariant ForeignWatchModel::cell(const QModelIndex &index, int role) const
{
    const WatchedSubject &s = m_rows[index.row()];
    const keys::WatchedKey &k = s.now;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case LevelColumn:
            return levelWords(s);
        case KeyColumn:
            return bytes::printable(k.key);
        case LayoutColumn:
            return QString(k.layout);
        case NowColumn:
            if (k.blockKey) {
                return k.pttlMs >= 0 ? tr("for %1").arg(keys::formatDurationMs(k.pttlMs))
                                     : tr("no end");
            }
            if (k.tokens) {
                return tr("%1 tokens").arg(keys::formatAmount(*k.tokens));
            }
            return k.count ? QStringLiteral("%1 / %2").arg(QLocale().toString(*k.count),
                                                           QLocale().toString(k.limit))
                           : QString();
        case AdmittedColumn:
            return perSecond(s.admittedPerS, s.lowerBound);
        case CountedColumn:
            return perSecond(s.countedPerS, s.lowerBound);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return tr("Key %1 (%2%3)\n%4. Admitted and counted per second: the growth of its "
                  "counter between the two samples; %5.")
            .arg(bytes::printable(k.key), QString(k.layout),
                 k.ruleId.isEmpty() ? QString() : tr(", adopted by rule %1").arg(k.ruleId),
                 levelWords(s), changeWords(s.change));
    case Qt::TextAlignmentRole:
        if (index.column() == AdmittedColumn || index.column() == CountedColumn) {
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == LevelColumn &&
            (s.level == WatchLevel::Over || s.level == WatchLevel::At)) {
            return tone::text(Tone::Bad);
        }
        if (index.column() == LevelColumn && s.level == WatchLevel::Near) {
            return tone::text(Tone::Warning);
        }
        return {};
    default:
        return {};
    }
}

QStringList ForeignWatchModel::titles() const
{
    return {tr("Level"),       tr("Key"),        tr("Layout"),
            tr("Now / limit"), tr("Admitted/s"), tr("Counted/s")};
}

} // namespace sluice::ui
