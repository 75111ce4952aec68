#include "topsubjectsmodel.h"

#include "core/common/bytes.h"
#include "ui/common/tone.h"

#include <QColor>
#include <QLocale>

namespace sluice::ui {

TopSubjectsModel::TopSubjectsModel(QObject *parent)
    : RowsModel(parent)
{}

void TopSubjectsModel::setRows(QList<stats::TopSubject> rows)
{
    resetWith([&] { m_rows = std::move(rows); });
}

QVariant TopSubjectsModel::cell(const QModelIndex &index, int role) const
{
    const stats::TopSubject &r = m_rows[index.row()];
    const double share = r.requests > 0 ? 100.0 * double(r.denied) / double(r.requests) : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SubjectColumn:
            return bytes::printable(r.subject);
        case RequestsColumn:
            return QLocale().toString(r.requests);
        case DeniedColumn:
            return QLocale().toString(r.denied);
        case DeniedShareColumn:
            return tr("%1 %").arg(QLocale().toString(share, 'f', share < 10 && share > 0 ? 1 : 0));
        default:
            return {};
        }
    case SortRole:
        switch (index.column()) {
        case SubjectColumn:
            return QString::fromUtf8(r.subject);
        case RequestsColumn:
            return r.requests;
        case DeniedColumn:
            return r.denied;
        case DeniedShareColumn:
            return share;
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        if (index.column() != SubjectColumn) {
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == DeniedShareColumn && share >= 50) {
            return tone::text(Tone::Bad);
        }
        return {};
    default:
        return {};
    }
}

QStringList TopSubjectsModel::titles() const
{
    return {tr("Subject"), tr("Requests"), tr("Denied"), tr("Denied share")};
}

} // namespace sluice::ui
