#include "limitedmodel.h"

#include "core/common/bytes.h"
#include "ui/common/tone.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <limits>

namespace sluice::ui {

LimitedModel::LimitedModel(QObject *parent)
    : RowsModel(parent)
{}

void LimitedModel::setRows(QList<LimitedSubject> rows)
{
    // Longest wait first: the subjects blocked the longest are the ones someone calls about.
    std::stable_sort(
        rows.begin(), rows.end(), [](const LimitedSubject &a, const LimitedSubject &b) {
            const qint64 wa = a.retryInMs < 0 ? std::numeric_limits<qint64>::max() : a.retryInMs;
            const qint64 wb = b.retryInMs < 0 ? std::numeric_limits<qint64>::max() : b.retryInMs;
            if (wa != wb) {
                return wa > wb;
            }
            return a.key < b.key;
        });
    resetWith([&] { m_rows = std::move(rows); });
}

int LimitedModel::rowOf(const QByteArray &key) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].key == key) {
            return i;
        }
    }
    return -1;
}

int LimitedModel::rowOf(const QString &ruleId, const QByteArray &subject) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].ruleId == ruleId && m_rows[i].subject == subject) {
            return i;
        }
    }
    return -1;
}

void LimitedModel::setStale(bool stale)
{
    if (stale != m_stale) {
        m_stale = stale;
        if (!m_rows.isEmpty()) {
            Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1),
                               {Qt::ForegroundRole});
        }
    }
}

QVariant LimitedModel::cell(const QModelIndex &index, int role) const
{
    const LimitedSubject &r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RuleColumn:
            return r.adoptedAs.isEmpty() ? r.ruleId : tr("%1 (adopted)").arg(r.ruleId);
        case SubjectColumn:
            return bytes::printable(r.subject);
        case TimeLeftColumn:
            if (r.overrideAction) {
                return overrideTag(r);
            }
            if (r.neverExpires()) {
                return r.limited ? tr("\u26a0 never (no TTL)") : tr("\u26a0 no TTL, admits");
            }
            return r.retryInMs < 0 ? tr("never (cost above the limit)")
                                   : keys::formatDurationMs(r.retryInMs);
        case StateColumn:
            return r.state;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (r.overrideAction) {
            const QString from = r.overrideStored ? tr("stored in Redis") : tr("in the rule file");
            QString text = tr("Key %1\n%2\nAn override of rule %3 (%4, %5) decides for this "
                              "subject: %6.")
                               .arg(bytes::printable(r.key), r.state, r.ruleId, r.overrideMatch,
                                    from, overrideTag(r));
            if (!r.overrideNote.isEmpty()) {
                text += QLatin1Char('\n') + tr("Note: %1").arg(r.overrideNote);
            }
            return text;
        }
        if (r.neverExpires()) {
            return tr("Key %1\n%2\nThis key of another limiter (rule %3 adopts it as %4) never "
                      "expires: nothing will ever reset it, and once at its limit it denies "
                      "forever. Fix it on the Keys page (a TTL of its window), or Unblock.")
                .arg(bytes::printable(r.key), r.state, r.ruleId, r.adoptedAs);
        }
        if (!r.adoptedAs.isEmpty()) {
            return tr("Key %1\n%2\nA key of another limiter: rule %3 adopts it as %4.")
                .arg(bytes::printable(r.key), r.state, r.ruleId, r.adoptedAs);
        }
        return tr("Key %1\n%2").arg(bytes::printable(r.key), r.state);
    case Qt::TextAlignmentRole:
        if (index.column() == TimeLeftColumn) {
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case Qt::ForegroundRole:
        if (m_stale) {
            return tone::muted();
        }
        if (index.column() == TimeLeftColumn) {
            if (r.overrideAction && *r.overrideAction != Override::Action::Deny) {
                return tone::text(Tone::Good);
            }
            return tone::text(r.limited ? Tone::Bad : Tone::Warning);
        }
        return {};
    case KeyRole:
        return r.key;
    case RetryInMsRole:
        return r.retryInMs;
    default:
        return {};
    }
}

QString LimitedModel::endText(qint64 ms)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms);
    return at.date() == QDate::currentDate()
               ? at.toString(QStringLiteral("HH:mm"))
               : QLocale().toString(at, QStringLiteral("MMM d HH:mm"));
}

QString LimitedModel::overrideTag(const LimitedSubject &row)
{
    if (!row.overrideAction) {
        return {};
    }
    const QString end = row.overrideEndMs > 0 ? endText(row.overrideEndMs) : QString();
    switch (*row.overrideAction) {
    case Override::Action::Allow:
        return end.isEmpty() ? tr("allowed (no end)") : tr("allowed until %1").arg(end);
    case Override::Action::Deny:
        return end.isEmpty() ? tr("blocked (no end)") : tr("blocked until %1").arg(end);
    case Override::Action::Limit:
        return tr("own limit: %1").arg(row.overrideLimit);
    }
    return {};
}

QStringList LimitedModel::titles() const
{
    return {tr("Rule"), tr("Subject"), tr("Time left"), tr("State")};
}

} // namespace sluice::ui
