#include "keystree.h"

#include "keypresentation.h"
#include "keysmodel.h"

#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"
#include "ui/common/tone.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardItemModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace sluice::ui {

namespace {

// A node while the tree is built: children by name, in name order.
struct Node
{
    qint64 keys = 0;
    qint64 flagged = 0;
    QByteArray key; // a leaf: the key
    std::map<QString, std::unique_ptr<Node>> children;
};

QString number(qint64 n)
{
    return QLocale().toString(n);
}

QList<QStandardItem *> itemsOf(const QString &name, const QString &path, const Node &n)
{
    auto *name_ = new QStandardItem(name);
    name_->setData(path, KeysTree::PathRole);
    name_->setData(n.flagged, KeysTree::FlaggedRole);
    name_->setData(n.keys, KeysTree::CountRole);
    name_->setToolTip(n.key.isEmpty() ? path : keypresentation::displayBytes(n.key));
    if (!n.key.isEmpty()) {
        name_->setData(n.key, KeysTree::KeyRole);
    }
    auto *keys = new QStandardItem(number(n.keys));
    keys->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto *flagged = new QStandardItem(n.flagged > 0 ? number(n.flagged) : QString());
    flagged->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (n.flagged > 0) {
        flagged->setForeground(tone::color(Tone::Bad));
        name_->setForeground(tone::color(Tone::Bad));
    }
    const QList<QStandardItem *> row{name_, keys, flagged};
    for (QStandardItem *i : row) {
        i->setEditable(false);
    }
    return row;
}

void addChildren(QStandardItem *parent, const QString &path, const Node &node)
{
    int shown = 0;
    qint64 restKeys = 0;
    qint64 restFlagged = 0;
    // Flagged nodes first among the first maxChildren? Name order reads better; the flagged
    // count column says where to look.
    for (const auto &[name, child] : node.children) {
        if (shown >= KeysTree::maxChildren) {
            restKeys += child->keys;
            restFlagged += child->flagged;
            continue;
        }
        const QString childPath = path.isEmpty() ? name : path + QLatin1Char(':') + name;
        QList<QStandardItem *> row = itemsOf(name, childPath, *child);
        addChildren(row.first(), childPath, *child);
        parent->appendRow(row);
        ++shown;
    }
    if (restKeys > 0) {
        Node rest;
        rest.keys = restKeys;
        rest.flagged = restFlagged;
        QList<QStandardItem *> row =
            itemsOf(KeysTree::tr("… %n more (filter the table to see them)", nullptr,
                                 int(node.children.size()) - shown),
                    path + QStringLiteral(":…"), rest);
        row.first()->setForeground(tone::color(Tone::Info));
        parent->appendRow(row);
    }
}

} // namespace

KeysTree::KeysTree(KeysModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
{
    setObjectName(QStringLiteral("keysTree"));
    auto *box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(4);
    auto *top = new QHBoxLayout;
    auto *label = new QLabel(tr("&Group by:"), this);
    m_groupBy = new QComboBox(this);
    m_groupBy->setObjectName(QStringLiteral("treeGroupCombo"));
    m_groupBy->addItem(tr("key prefix (:)"), int(Grouping::ByPrefix));
    m_groupBy->addItem(tr("rule"), int(Grouping::ByRule));
    label->setBuddy(m_groupBy);
    m_note = PageHeader::note(this);
    m_note->setObjectName(QStringLiteral("treeNote"));
    top->addWidget(label);
    top->addWidget(m_groupBy);
    top->addWidget(m_note, 1);
    box->addLayout(top);
    m_tree = new QStandardItemModel(0, ColumnCount, this);
    m_tree->setHorizontalHeaderLabels({tr("Name"), tr("Keys"), tr("Flagged")});
    m_view = new QTreeView(this);
    m_view->setObjectName(QStringLiteral("keysTreeView"));
    m_view->setModel(m_tree);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setTextElideMode(Qt::ElideMiddle);
    // Sized like the table's: the counts whole, the name takes the rest (elided in the middle,
    // whole in its tooltip).
    fitColumnsToView(m_view, NameColumn, {}, {KeysColumn, FlaggedColumn});
    box->addWidget(m_view, 1);

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(300);
    connect(m_timer, &QTimer::timeout, this, &KeysTree::rebuild);
    connect(m_groupBy, &QComboBox::currentIndexChanged, this,
            [this] { setGrouping(Grouping(m_groupBy->currentData().toInt())); });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
        connect(m_model, signal, this, &KeysTree::rebuildSoon);
    }
    connect(m_model, &QAbstractItemModel::modelReset, this, &KeysTree::rebuildSoon);
    connect(m_model, &KeysModel::countsChanged, this, &KeysTree::rebuildSoon);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) {
                const QByteArray key =
                    current.siblingAtColumn(NameColumn).data(KeyRole).toByteArray();
                if (!key.isEmpty()) {
                    Q_EMIT keyActivated(key);
                }
            });
    rebuild();
}

void KeysTree::setGrouping(Grouping g)
{
    const int i = m_groupBy->findData(int(g));
    if (m_groupBy->currentIndex() != i) {
        m_groupBy->setCurrentIndex(i); // comes back here
        return;
    }
    if (g != m_grouping) {
        m_grouping = g;
        m_tree->clear();
        rebuild();
    }
}

void KeysTree::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty) {
        rebuild();
    }
}

void KeysTree::rebuildSoon()
{
    m_dirty = true;
    if (isVisible() && !m_timer->isActive()) {
        m_timer->start();
    }
}

QStringList KeysTree::splitKey(const QString &key)
{
    QStringList parts;
    QString part;
    int depth = 0;
    for (const QChar c : key) {
        if (c == QLatin1Char('{')) {
            ++depth;
        } else if (c == QLatin1Char('}') && depth > 0) {
            --depth;
        }
        if (c == QLatin1Char(':') && depth == 0) {
            parts << part;
            part.clear();
        } else {
            part += c;
        }
    }
    parts << part;
    return parts;
}

void KeysTree::collectOpen(QStandardItem *item, QSet<QString> &open) const
{
    for (int r = 0; r < item->rowCount(); ++r) {
        QStandardItem *child = item->child(r);
        if (child->hasChildren() && m_view->isExpanded(child->index())) {
            open.insert(child->data(PathRole).toString());
            collectOpen(child, open);
        }
    }
}

void KeysTree::restoreOpen(QStandardItem *item, const QSet<QString> &open)
{
    for (int r = 0; r < item->rowCount(); ++r) {
        QStandardItem *child = item->child(r);
        if (child->hasChildren() && open.contains(child->data(PathRole).toString())) {
            m_view->setExpanded(child->index(), true);
            restoreOpen(child, open);
        }
    }
}

void KeysTree::rebuild()
{
    m_dirty = false;
    const int rows = m_model->rowCount();
    m_tree->setHorizontalHeaderLabels({tr("Name"), tr("Keys"), tr("Flagged")});
    if (rows > maxKeys) {
        m_tree->removeRows(0, m_tree->rowCount());
        m_note->setText(tr("The tree groups up to %1 keys; %2 are listed. Narrow the Match "
                           "field, or use the table.")
                            .arg(number(maxKeys), number(rows)));
        return;
    }
    QSet<QString> open;
    collectOpen(m_tree->invisibleRootItem(), open);
    const QString current =
        m_view->currentIndex().siblingAtColumn(NameColumn).data(PathRole).toString();

    Node root;
    for (int r = 0; r < rows; ++r) {
        const keys::KeyInfo &k = m_model->info(r);
        if (!k.exists()) {
            continue; // a gone key, kept in the table until the next scan
        }
        const bool flagged = k.health != keys::Health::Ok;
        const QString display = keypresentation::displayBytes(k.key);
        QStringList path;
        if (m_grouping == Grouping::ByRule) {
            path << (k.hasRule() ? k.ruleId : tr("(no rule)")) << display;
        } else {
            path = splitKey(display);
            if (path.size() > 1) {
                path.removeLast();
            }
            path << display; // the leaf shows the whole key
        }
        Node *n = &root;
        n->keys += 1;
        n->flagged += flagged ? 1 : 0;
        for (const QString &part : path) {
            std::unique_ptr<Node> &child = n->children[part];
            if (!child) {
                child = std::make_unique<Node>();
            }
            n = child.get();
            n->keys += 1;
            n->flagged += flagged ? 1 : 0;
        }
        n->key = k.key;
    }
    m_tree->removeRows(0, m_tree->rowCount());
    addChildren(m_tree->invisibleRootItem(), QString(), root);
    restoreOpen(m_tree->invisibleRootItem(), open);
    if (open.isEmpty() && m_tree->rowCount() <= 3) {
        // A first look: the top nodes open.
        for (int r = 0; r < m_tree->rowCount(); ++r) {
            m_view->setExpanded(m_tree->index(r, 0), true);
        }
    }
    if (!current.isEmpty()) {
        // The node selected before, found again by its path.
        std::function<QModelIndex(const QModelIndex &)> find = [&](const QModelIndex &parent) {
            for (int r = 0; r < m_tree->rowCount(parent); ++r) {
                const QModelIndex i = m_tree->index(r, 0, parent);
                if (i.data(PathRole).toString() == current) {
                    return i;
                }
                if (current.startsWith(i.data(PathRole).toString())) {
                    if (QModelIndex j = find(i); j.isValid()) {
                        return j;
                    }
                }
            }
            return QModelIndex();
        };
        if (const QModelIndex i = find({}); i.isValid()) {
            const QSignalBlocker block(m_view->selectionModel());
            m_view->setCurrentIndex(i);
        }
    }
    m_note->setText(root.keys == 0 ? tr("No keys listed.")
                                   : tr("%1 keys, %2 flagged, from the last scan")
                                         .arg(number(root.keys), number(root.flagged)));
}

} // namespace sluice::ui
