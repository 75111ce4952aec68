#pragma once

class QTableView;

namespace sluice::ui {

// The Keys table's Key column sized to its keys within the window: the keys' width (measured
// on the rows in view) while the State column keeps `stateFloor` px, so that on a wide window
// the key is whole and the state gives way first; never narrower than `keyFloor`. A width the
// user dragged is kept (the column is left alone once it differs from the last one set here).
void fitKeyColumn(QTableView *view, int keyColumn, int stateColumn, int keyFloor, int stateFloor);

} // namespace sluice::ui
