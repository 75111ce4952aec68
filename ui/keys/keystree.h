#pragma once

#include <QByteArray>
#include <QSet>
#include <QWidget>

class QComboBox;
class QLabel;
class QStandardItem;
class QStandardItemModel;
class QTreeView;

namespace sluice::ui {

class KeysModel;

// The Keys page's tree (CONSOLE.md "Keys: the tree"), beside the flat table and fed by the
// same rows (the KeysModel of the last scan): grouped by rule, or by key prefix (the key's
// parts between ':', a {hash tag} kept whole), with the keys and the flagged keys under each
// node. Rebuilt when the rows change (coalesced), keeping the nodes that were open and the
// one selected. Bounded: at most maxChildren children a node (the rest summed up in one
// "… more" row) and no tree above maxKeys rows (it says so). GUI thread.
class KeysTree : public QWidget
{
    Q_OBJECT
public:
    enum class Grouping { ByRule, ByPrefix };
    static constexpr int maxChildren = 500;
    static constexpr int maxKeys = 200'000;
    enum Role { PathRole = Qt::UserRole + 1, KeyRole, FlaggedRole, CountRole };
    enum Column { NameColumn, KeysColumn, FlaggedColumn, ColumnCount };

    explicit KeysTree(KeysModel *model, QWidget *parent = nullptr);

    void setGrouping(Grouping g);
    Grouping grouping() const { return m_grouping; }
    QStandardItemModel *treeModel() const { return m_tree; }
    QTreeView *view() const { return m_view; }
    // Rebuilds now (the page calls it when a scan ends); rebuildSoon() coalesces.
    void rebuild();
    void rebuildSoon();
    // The key parts a prefix tree splits on: ':' outside {hash tags}.
    static QStringList splitKey(const QString &key);

protected:
    void showEvent(QShowEvent *event) override;

Q_SIGNALS:
    // A key (a leaf) was made current: the page shows its details.
    void keyActivated(const QByteArray &key);

private:
    void collectOpen(QStandardItem *item, QSet<QString> &open) const;
    void restoreOpen(QStandardItem *item, const QSet<QString> &open);

    KeysModel *m_model;
    Grouping m_grouping = Grouping::ByPrefix;
    QComboBox *m_groupBy;
    QLabel *m_note;
    QTreeView *m_view;
    QStandardItemModel *m_tree;
    class QTimer *m_timer;
    bool m_dirty = true;
};

} // namespace sluice::ui
