#include "tablemodel.h"

#include <QEvent>
#include <QHeaderView>
#include <QHelpEvent>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>

#include <algorithm>

namespace sluice::ui {

QTableView *makeTableView(const QString &objectName, QAbstractItemModel *model, QWidget *parent,
                          Qt::TextElideMode elide)
{
    auto *v = new QTableView(parent);
    v->setObjectName(objectName);
    v->setModel(model);
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setSelectionMode(QAbstractItemView::SingleSelection);
    v->setEditTriggers(QAbstractItemView::NoEditTriggers);
    v->setAlternatingRowColors(true);
    v->setShowGrid(false);
    v->setWordWrap(false);
    v->setTextElideMode(elide);
    v->verticalHeader()->hide();
    v->verticalHeader()->setDefaultSectionSize(24);
    v->horizontalHeader()->setHighlightSections(false);
    v->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return v;
}

namespace {

void fit(QAbstractItemView *view, QHeaderView *header, int fillColumn,
         const QHash<int, int> &maxWidths, const QList<int> &keepWhole)
{
    QAbstractItemModel *model = view->model();
    if (!model) {
        return;
    }
    const int columns = model->columnCount();
    QList<int> want(columns, 0);
    QList<int> floor(columns, 0);
    int total = 0;
    for (int c = 0; c < columns; ++c) {
        if (header->isSectionHidden(c)) {
            continue;
        }
        want[c] = std::max(view->sizeHintForColumn(c), header->sectionSizeHint(c)) + 4;
        if (maxWidths.contains(c)) {
            want[c] = std::min(want[c], maxWidths.value(c));
        }
        floor[c] = std::min(want[c], header->sectionSizeHint(c) + 8);
        total += want[c];
    }
    const int room = view->viewport()->width();
    int titles = 0;
    for (int c = 0; c < columns; ++c) {
        titles += floor[c];
    }
    if (titles > room) {
        // Not even the titles fit: they elide too (the header's tooltip has each whole).
        for (int c = 0; c < columns; ++c) {
            floor[c] = std::min(floor[c], 48);
        }
    }
    if (total > room && fillColumn >= 0 && fillColumn < columns) {
        // The column that takes what is left gives way first.
        const int cut = std::min(want[fillColumn] - floor[fillColumn], total - room);
        want[fillColumn] -= std::max(0, cut);
        total -= std::max(0, cut);
    }
    // The widest column gives first, down to its title; then the other columns' titles elide
    // (to 48 px, whole in the header's tooltip); the columns to keep whole (what a row is read
    // by) give way last.
    QList<int> titleFloor = floor;
    for (int c = 0; c < columns; ++c) {
        if (!keepWhole.contains(c)) {
            titleFloor[c] = std::min(floor[c], 48);
        }
    }
    auto nextToCut = [&](const QList<int> &low) {
        int widest = -1;
        for (const bool kept : {false, true}) {
            for (int c = 0; c < columns; ++c) {
                if (keepWhole.contains(c) == kept && want[c] > low[c] &&
                    (widest < 0 || want[c] > want[widest])) {
                    widest = c;
                }
            }
            if (widest >= 0) {
                return widest;
            }
        }
        return -1;
    };
    while (total > room) {
        bool titlesWhole = false; // a column not kept whole is still wider than its title
        for (int c = 0; c < columns; ++c) {
            titlesWhole = titlesWhole || (!keepWhole.contains(c) && want[c] > floor[c]);
        }
        const QList<int> *low = titlesWhole ? &floor : &titleFloor;
        const int widest = nextToCut(*low);
        if (widest < 0) {
            break;
        }
        const int cut = std::min(want[widest] - (*low)[widest], std::max(1, (total - room) / 2));
        want[widest] -= cut;
        total -= cut;
    }
    if (total < room && fillColumn >= 0 && fillColumn < columns &&
        !header->isSectionHidden(fillColumn)) {
        want[fillColumn] += room - total;
    }
    for (int c = 0; c < columns; ++c) {
        if (!header->isSectionHidden(c)) {
            header->resizeSection(c, want[c]);
        }
    }
}

// Refits its view when the view's viewport is resized.
class ColumnFitter : public QObject
{
public:
    ColumnFitter(QAbstractItemView *view, QHeaderView *header, int fillColumn,
                 QHash<int, int> maxWidths, QList<int> keepWhole)
        : QObject(view)
        , m_view(view)
        , m_fill(fillColumn)
        , m_max(std::move(maxWidths))
        , m_keep(std::move(keepWhole))
        , m_viewport(view->viewport())
        , m_header(header)
        , m_headerViewport(header->viewport())
    {
        m_viewport->installEventFilter(this);
        m_headerViewport->installEventFilter(this);
        // The header's titles have their tooltip here (tests/fitcheck reads it).
        header->setProperty("titleTips", true);
    }
    void refit() { fit(m_view, m_header, m_fill, m_max, m_keep); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        // Compared with the widgets kept at the start, not asked of the view: the viewports'
        // last events come while the view is being destroyed, when its QAbstractScrollArea
        // part is already gone (UBSan: a member call on an object of another type).
        if (watched == m_viewport && event->type() == QEvent::Resize) {
            refit();
        }
        QHeaderView *header = m_header;
        if (watched == m_headerViewport && event->type() == QEvent::ToolTip) {
            // A title narrower than its text: the whole title.
            const auto *help = static_cast<QHelpEvent *>(event);
            const int section = header->logicalIndexAt(help->pos());
            if (section >= 0 && m_view->model()) {
                const QString title =
                    m_view->model()->headerData(section, Qt::Horizontal).toString();
                const QVariant own =
                    m_view->model()->headerData(section, Qt::Horizontal, Qt::ToolTipRole);
                const QString tip = own.isValid() ? own.toString() : title;
                if (!tip.isEmpty()) {
                    QToolTip::showText(help->globalPos(), tip, header);
                    return true;
                }
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QAbstractItemView *m_view;
    int m_fill;
    QHash<int, int> m_max;
    QList<int> m_keep;
    QObject *m_viewport;
    QHeaderView *m_header;
    QObject *m_headerViewport;
};

} // namespace

namespace {

void fitColumns(QAbstractItemView *view, QHeaderView *header, int fillColumn,
                const QHash<int, int> &maxWidths, const QList<int> &keepWhole)
{
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *fitter = new ColumnFitter(view, header, fillColumn, maxWidths, keepWhole);
    QAbstractItemModel *model = view->model();
    QObject::connect(model, &QAbstractItemModel::modelReset, fitter, [fitter] { fitter->refit(); });
    QObject::connect(model, &QAbstractItemModel::layoutChanged, fitter,
                     [fitter] { fitter->refit(); });
    QObject::connect(model, &QAbstractItemModel::rowsInserted, fitter,
                     [fitter] { fitter->refit(); });
    QObject::connect(model, &QAbstractItemModel::dataChanged, fitter,
                     [fitter] { fitter->refit(); });
    fitter->refit();
}

} // namespace

void fitColumnsToView(QTableView *view, int fillColumn, const QHash<int, int> &maxWidths,
                      const QList<int> &keepWhole)
{
    view->setTextElideMode(Qt::ElideRight);
    fitColumns(view, view->horizontalHeader(), fillColumn, maxWidths, keepWhole);
}

void fitColumnsToView(QTreeView *view, int fillColumn, const QHash<int, int> &maxWidths,
                      const QList<int> &keepWhole)
{
    fitColumns(view, view->header(), fillColumn, maxWidths, keepWhole);
}

int TableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : count();
}

int TableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(titles().size());
}

QVariant TableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    return cell(index, role);
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    return titles().value(section);
}

} // namespace sluice::ui
