#pragma once

class QTableView;

namespace sluice::ui {

class KeysModel;

// The Keys table's columns at the start: every column in view without scrolling, the key and
// its state sharing what the short columns leave, Type and Health as wide as their longest
// word in the language shown, Rule and Subject a usual id's width.
void setUpKeyColumns(QTableView *view, const KeysModel *model);
// The Rule and Subject columns as wide as the first rows need (within bounds), once a session.
void fitRuleAndSubject(QTableView *view, const KeysModel *model);

// The Keys table's Key column sized to its keys within the window: the keys' width (measured
// on the rows in view) while the State column keeps `stateFloor` px, so that on a wide window
// the key is whole and the state gives way first; never narrower than `keyFloor`. A width the
// user dragged is kept (the column is left alone once it differs from the last one set here).
void fitKeyColumn(QTableView *view, int keyColumn, int stateColumn, int keyFloor, int stateFloor);

} // namespace sluice::ui
