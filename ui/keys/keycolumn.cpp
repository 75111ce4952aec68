#include "keycolumn.h"

#include <QHeaderView>
#include <QTableView>
#include <QVariant>

#include <algorithm>

namespace sluice::ui {

void fitKeyColumn(QTableView *view, int keyColumn, int stateColumn, int keyFloor, int stateFloor)
{
    QHeaderView *header = view->horizontalHeader();
    const QVariant last = view->property("fittedKeyWidth");
    if (last.isValid() && last.toInt() != header->sectionSize(keyColumn)) {
        return; // dragged by the user
    }
    int others = 0;
    for (int c = 0; c < header->count(); ++c) {
        if (c != keyColumn && c != stateColumn && !view->isColumnHidden(c)) {
            others += header->sectionSize(c);
        }
    }
    const int room = view->viewport()->width() - others - stateFloor;
    const int want = std::max(static_cast<QAbstractItemView *>(view)->sizeHintForColumn(keyColumn),
                              header->sectionSizeHint(keyColumn)) +
                     12;
    const int width = std::max(keyFloor, std::min(want, room));
    header->resizeSection(keyColumn, width);
    view->setProperty("fittedKeyWidth", width);
}

} // namespace sluice::ui
