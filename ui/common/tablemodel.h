#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QStringList>

class QTableView;
class QTreeView;

namespace sluice::ui {

// The console's data table over `model`, named `objectName`: whole rows selected one at a time,
// read-only, alternating rows without a grid, one line a row (24 px) elided at `elide` (the
// middle for keys and subjects, whose ends tell them apart), no row numbers, headers
// left-aligned. Pages set their columns' sizes.
QTableView *makeTableView(const QString &objectName, QAbstractItemModel *model, QWidget *parent,
                          Qt::TextElideMode elide = Qt::ElideRight);

// Keeps every column of `view` in view, none reached by scrolling sideways: each column gets
// its contents' width (its title's at least, `maxWidths[column]` at most); when they do not all
// fit, `fillColumn` gives way first, then the widest, never below their title, and their cells
// elide (the model's tooltip has the whole text); `fillColumn` takes what is left. The `keepWhole`
// columns (what names a row: a rule's id) give way only after every other column is down to its
// title. Again on every resize and whenever the rows change.
void fitColumnsToView(QTableView *view, int fillColumn, const QHash<int, int> &maxWidths = {},
                      const QList<int> &keepWhole = {});
// The same for a tree's columns (the Keys tree).
void fitColumnsToView(QTreeView *view, int fillColumn, const QHash<int, int> &maxWidths = {},
                      const QList<int> &keepWhole = {});

// What the console's read-only tables share (the Monitor's, the Simulation's metrics, the
// Rules table): a flat table of count() rows and titles().size() columns, an index checked once
// before cell() answers it, the titles as the horizontal header, and whole snapshots swapped in
// between begin/endResetModel (heaptrack's resetData). A subclass says only what a cell shows.
// GUI thread.
class TableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const final;
    int columnCount(const QModelIndex &parent = {}) const final;
    // cell() of a valid index of this table; nothing for any other.
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const final;
    // The titles (Qt::DisplayRole, horizontal); the default otherwise.
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    virtual int count() const = 0;
    // The columns' titles in the user's language, in column order.
    virtual QStringList titles() const = 0;
    virtual QVariant cell(const QModelIndex &index, int role) const = 0;
    // Runs `swap` (which replaces the rows) between begin/endResetModel.
    template <typename Swap> void resetWith(Swap swap)
    {
        beginResetModel();
        swap();
        endResetModel();
    }
};

// A TableModel over a list of rows, one row of the table each (the Monitor's lists, the
// cluster's nodes): count() is the list's size and rows() reads it. The subclass swaps a whole
// list into m_rows inside resetWith() and says what a cell shows of m_rows[row].
template <typename Row> class RowsModel : public TableModel
{
public:
    using TableModel::TableModel;

    const QList<Row> &rows() const { return m_rows; }

protected:
    int count() const final { return int(m_rows.size()); }

    QList<Row> m_rows;
};

} // namespace sluice::ui
