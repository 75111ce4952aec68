#pragma once

#include <QByteArray>
#include <QSortFilterProxyModel>

namespace sluice::ui {

class KeysModel;

// The Keys table's filters over a KeysModel: "only flagged" (every key that is not ok) and a
// text that the key, its rule or its subject must contain, read from the model's rows
// directly (no QVariant per row). Sorting is the model's (KeysModel::sort(), a permutation on
// compact sort keys): a header click is passed down, since QSortFilterProxyModel's own sort
// took seconds on a million rows. A filter change rebuilds the mapping in one layoutChanged
// (not one rowsRemoved per interval, which the view pays for with its whole length). GUI
// thread.
class KeysFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit KeysFilterProxy(KeysModel *model, QObject *parent = nullptr);

    void setOnlyFlagged(bool on);
    bool onlyFlagged() const { return m_onlyFlagged; }
    // Case-sensitive on the bytes of the key, case-insensitive on rule and subject text.
    void setText(const QString &text);
    QString text() const { return m_text; }

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    KeysModel *m_model;
    bool m_onlyFlagged = false;
    QString m_text;
    QByteArray m_textBytes; // m_text as UTF-8, matched against the raw key bytes
};

} // namespace sluice::ui
