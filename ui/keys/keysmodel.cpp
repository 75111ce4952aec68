#include "keysmodel.h"

#include "keypresentation.h"

#include "core/redis/errors.h"
#include "ui/common/tone.h"

#include <QElapsedTimer>
#include <QSet>
#include <QThreadPool>

#include <algorithm>
#include <limits>

namespace sluice::ui {

using keys::Health;
using keys::KeyInfo;

KeysModel::KeysModel(QObject *parent)
    : QAbstractTableModel(parent)
{}

qint64 KeysModel::clockMs()
{
    static const QElapsedTimer timer = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return timer.elapsed();
}

qint64 KeysModel::remainingMs(const Row &row, qint64 nowMs)
{
    const qint64 pttl = row.info.pttlMs;
    if (pttl < 0) {
        return pttl;
    }
    return std::max<qint64>(0, pttl - (nowMs - row.readAtMs));
}

qint64 KeysModel::deadlineMs(const Row &row)
{
    const qint64 pttl = row.info.pttlMs;
    return pttl < 0 ? pttl : row.readAtMs + pttl;
}

int KeysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_order.size());
}

int KeysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    // In column order.
    const QStringList titles{tr("Key"),   tr("Type"), tr("Rule"),   tr("Subject"),
                             tr("State"), tr("TTL"),  tr("Health"), tr("Node")};
    static_assert(ColumnCount == 8, "a title for every column");
    return section >= 0 && section < titles.size() ? QVariant(titles[section]) : QVariant();
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Row &r = row(index.row());
    const KeyInfo &k = r.info;
    switch (role) {
    case RawKeyRole:
        return k.key;
    case HealthRole:
        return int(k.health);
    case PttlRole:
        return k.pttlMs;
    case ReadAtRole:
        return r.readAtMs;
    case MaxTtlRole:
        return k.maxTtlMs;
    case RemainingRole:
        return remainingMs(r, clockMs());
    default:
        break;
    }
    const int column = index.column();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case KeyColumn:
            return keypresentation::displayBytes(k.key);
        case TypeColumn:
            return k.exists() ? QString::fromLatin1(k.type) : tr("gone");
        case RuleColumn:
            if (k.hasRule() && k.override) {
                //: A key written under a per-subject override limit of the rule
                return tr("%1 (override)").arg(k.ruleId);
            }
            return k.hasRule() ? k.ruleId : QStringLiteral("—");
        case SubjectColumn:
            return k.hasRule() ? keypresentation::displayBytes(k.subject) : QStringLiteral("—");
        case StateColumn:
            if (k.hasRule() && k.state.kind == keys::KeyState::Kind::Unreadable &&
                k.state.permissionRefused) {
                // The whole reason (with what to grant) is the tooltip and the banner's: a cell
                // elided mid-sentence said neither.
                return tr("no permission to read (NOPERM)");
            }
            return k.hasRule() ? k.state.describe() : QStringLiteral("—");
        case TtlColumn: {
            const qint64 left = remainingMs(r, clockMs());
            if (left == -1) {
                return tr("∞ never");
            }
            if (left == -2) {
                return tr("gone");
            }
            if (left < 0) {
                return tr("unknown");
            }
            return keypresentation::ttlText(left);
        }
        case FlagColumn:
            return k.exists() ? keypresentation::flagText(k.health) : QString();
        case NodeColumn:
            return k.node;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        // Every cell has its whole text in a tooltip: a narrow column elides, never hides.
        switch (column) {
        case StateColumn:
            return k.hasRule() ? k.state.describe() : data(index, Qt::DisplayRole);
        case FlagColumn:
            if (!k.exists()) {
                return {};
            }
            return k.health == Health::Ok ? QVariant(keypresentation::flagText(k.health))
                                          : QVariant(keypresentation::flagText(k.health) +
                                                     QStringLiteral(": ") + k.explanation());
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (column == FlagColumn && k.exists()) {
        if (role == Qt::DecorationRole) {
            return keypresentation::flagIcon(k.health);
        }
        if (role == Qt::ForegroundRole && !m_stale) {
            return keypresentation::flagColor(k.health);
        }
    }
    if (role == Qt::ForegroundRole && (!k.exists() || m_stale)) {
        // A gone key, kept until the next scan; every row of a result that is not current.
        return tone::faint();
    }
    if (role == Qt::TextAlignmentRole && column == TtlColumn) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

void KeysModel::clear()
{
    beginResetModel();
    if (m_rows.size() > 10'000) {
        // A million rows take 50 to 90 ms to free (a few heap blocks each: the key, the
        // subject, the state), which stalled the GUI thread at every rescan of a big keyspace:
        // they are freed in the pool's thread. Nothing else refers to them (the strings they
        // share with the model, the interned types, count their owners atomically). The task
        // alone owns them, so they are never released here last.
        auto *old = new std::deque<Row>(std::move(m_rows));
        QThreadPool::globalInstance()->start([old] { delete old; });
    }
    m_rows = {};
    m_order.clear();
    m_order.shrink_to_fit();
    m_ttlKeys.clear();
    m_ttlKeys.shrink_to_fit();
    m_severity.clear();
    m_severity.shrink_to_fit();
    m_seenIn.clear();
    m_seenIn.shrink_to_fit();
    m_index.clear();
    m_index.squeeze();
    m_counts = {};
    m_limiterKeys = 0;
    m_keys = 0;
    m_refused = 0;
    m_ownClock = 0;
    m_grant.clear();
    endResetModel();
    Q_EMIT countsChanged();
}

void KeysModel::intern(KeyInfo &info)
{
    auto t = m_types.constFind(info.type);
    if (t == m_types.constEnd()) {
        t = m_types.insert(info.type, info.type);
    }
    info.type = *t;
    if (!info.ruleId.isEmpty()) {
        auto r = m_ruleIds.constFind(info.ruleId);
        if (r == m_ruleIds.constEnd()) {
            r = m_ruleIds.insert(info.ruleId, info.ruleId);
        }
        info.ruleId = *r;
    }
}

void KeysModel::tally(const KeyInfo &info, int sign)
{
    if (!info.exists()) {
        return;
    }
    m_keys += sign;
    if (info.health != Health::Orphan) {
        m_limiterKeys += sign;
    }
    m_counts[size_t(info.health)] += sign;
    if (info.resetsByOwnClock()) {
        m_ownClock += sign;
    }
    if (info.health == Health::Unreadable && info.state.permissionRefused) {
        m_refused += sign;
        if (m_grant.isEmpty() && sign > 0) {
            m_grant = redis::grantOf(info.state.problem);
        }
    }
}

void KeysModel::append(const QList<KeyInfo> &page)
{
    if (page.isEmpty()) {
        return;
    }
    const qint64 now = clockMs();
    const int first = int(m_order.size());
    beginInsertRows({}, first, first + int(page.size()) - 1);
    for (const KeyInfo &k : page) {
        Row r{k, now};
        intern(r.info);
        tally(r.info, +1);
        m_order.push_back(int(m_rows.size()));
        m_index.insert(r.info.key, int(m_rows.size()));
        m_rows.push_back(std::move(r));
        m_ttlKeys.push_back(0);
        m_severity.push_back(0);
        m_seenIn.push_back(m_generation);
        setSortKeys(m_rows.size() - 1);
    }
    endInsertRows();
    Q_EMIT countsChanged();
}

void KeysModel::reserve(qint64 rows)
{
    // Room made once: a hash of 524,288 keys rehashed in the GUI thread took 270 ms. Bounded,
    // as DBSIZE is the server's word: past it the rows grow as they come.
    const size_t n = size_t(std::clamp<qint64>(rows, 0, 2'000'000));
    if (n <= m_order.size()) {
        return;
    }
    m_order.reserve(n);
    m_ttlKeys.reserve(n);
    m_severity.reserve(n);
    m_seenIn.reserve(n);
    m_index.reserve(qsizetype(n));
}

void KeysModel::beginMerge()
{
    ++m_generation;
    m_merging = true;
    // What to grant is the newest scan's word (its first refusal), as when every scan started
    // from an empty table: a scan before the rules arrived named "<prefix>".
    m_grant.clear();
}

void KeysModel::merge(const QList<KeyInfo> &page)
{
    if (page.isEmpty()) {
        return;
    }
    const qint64 now = clockMs();
    QList<KeyInfo> fresh;
    bool changed = false;
    for (const KeyInfo &k : page) {
        const auto at = m_index.constFind(k.key);
        if (at == m_index.constEnd()) {
            fresh << k;
            continue;
        }
        // Updated where it stands: no row moves under the user's eyes (resort() at the end).
        const size_t storage = size_t(*at);
        Row &r = m_rows[storage];
        tally(r.info, -1);
        r.info = k;
        intern(r.info);
        r.readAtMs = now;
        tally(r.info, +1);
        setSortKeys(storage);
        m_seenIn[storage] = m_generation;
        changed = true;
    }
    if (changed && !m_order.empty()) {
        // One signal for the rows updated: the views repaint what they show.
        Q_EMIT dataChanged(index(0, 0), index(int(m_order.size()) - 1, ColumnCount - 1));
    }
    if (!fresh.isEmpty()) {
        append(fresh); // counts changed said there
    } else if (changed) {
        Q_EMIT countsChanged();
    }
}

int KeysModel::endMerge(bool dropUnseen)
{
    m_merging = false;
    if (!dropUnseen) {
        return 0;
    }
    QList<int> unseen;
    for (size_t r = 0; r < m_order.size(); ++r) {
        if (m_seenIn[size_t(m_order[r])] != m_generation) {
            unseen << int(r);
        }
    }
    const int n = int(unseen.size());
    if (n > 0) {
        removeRowList(std::move(unseen));
        Q_EMIT countsChanged();
    }
    return n;
}

void KeysModel::setStale(bool stale)
{
    if (stale == m_stale) {
        return;
    }
    m_stale = stale;
    if (!m_order.empty()) {
        Q_EMIT dataChanged(index(0, 0), index(int(m_order.size()) - 1, ColumnCount - 1),
                           {Qt::ForegroundRole});
    }
}

int KeysModel::rowOfKey(const QByteArray &key) const
{
    const auto at = m_index.constFind(key);
    if (at == m_index.constEnd()) {
        return -1;
    }
    const auto it = std::find(m_order.begin(), m_order.end(), *at);
    return it == m_order.end() ? -1 : int(it - m_order.begin());
}

void KeysModel::replace(QList<QPair<int, KeyInfo>> updates)
{
    std::sort(updates.begin(), updates.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    const qint64 now = clockMs();
    bool changed = false;
    int runStart = -1;
    int runEnd = -1;
    auto flush = [&] {
        if (runStart >= 0) {
            Q_EMIT dataChanged(index(runStart, 0), index(runEnd, ColumnCount - 1));
        }
        runStart = runEnd = -1;
    };
    for (auto &[at, info] : updates) {
        if (at < 0 || at >= int(m_order.size()) || row(at).info.key != info.key) {
            continue;
        }
        const size_t storage = size_t(m_order[size_t(at)]);
        Row &r = m_rows[storage];
        tally(r.info, -1);
        intern(info);
        if (info.node.isEmpty()) {
            info.node = r.info.node; // the refresher reads through the cluster client
        }
        r.info = std::move(info);
        r.readAtMs = now;
        tally(r.info, +1);
        setSortKeys(storage);
        changed = true;
        if (at != runEnd + 1) {
            flush();
            runStart = at;
        }
        runEnd = at;
    }
    flush();
    if (changed) {
        Q_EMIT countsChanged();
    }
}

int KeysModel::applyFix(const keys::KeyFixer::Report &report)
{
    QHash<QByteArray, const keys::KeyFixer::Outcome *> byKey;
    for (const auto &o : report.outcomes) {
        byKey.insert(o.key, &o);
    }
    if (byKey.isEmpty()) {
        return 0;
    }
    const qint64 now = clockMs();
    QList<int> removed;
    int low = -1;
    int high = -1;
    for (size_t i = 0; i < m_order.size(); ++i) {
        Row &r = m_rows[size_t(m_order[i])];
        const auto *o = byKey.value(r.info.key);
        if (o == nullptr || report.dryRun) {
            continue;
        }
        using S = keys::KeyFixer::Status;
        const bool gone = o->status == S::Gone ||
                          (o->status == S::Done && report.action == keys::KeyFixer::Action::Delete);
        if (gone) {
            removed << int(i);
            continue;
        }
        if (o->status == S::Done || o->status == S::AlreadyFine) {
            tally(r.info, -1);
            r.info.pttlMs = o->pttlAfter >= 0 ? o->pttlAfter : o->ttlMs;
            r.info.health = Health::Ok;
            r.readAtMs = now;
            tally(r.info, +1);
            setSortKeys(size_t(m_order[i]));
            low = low < 0 ? int(i) : low;
            high = int(i);
        }
    }
    if (low >= 0) {
        Q_EMIT dataChanged(index(low, 0), index(high, ColumnCount - 1));
    }
    const int n = int(removed.size());
    removeRowList(std::move(removed));
    Q_EMIT countsChanged();
    return n;
}

void KeysModel::removeRowList(QList<int> rows)
{
    // Contiguous runs from the end, one beginRemoveRows each.
    std::sort(rows.begin(), rows.end());
    qsizetype i = rows.size() - 1;
    while (i >= 0) {
        qsizetype j = i;
        while (j > 0 && rows[j - 1] == rows[j] - 1) {
            --j;
        }
        const int first = rows[j];
        const int last = rows[i];
        beginRemoveRows({}, first, last);
        for (int r = first; r <= last; ++r) {
            // The row's storage stays (a tombstone until the next clear()); only the order
            // forgets it, so that no index into the storage moves.
            Row &dead = m_rows[size_t(m_order[size_t(r)])];
            tally(dead.info, -1);
            m_index.remove(dead.info.key);
            dead.info = KeyInfo();
        }
        m_order.erase(m_order.begin() + first, m_order.begin() + last + 1);
        endRemoveRows();
        i = j - 1;
    }
}

void KeysModel::sort(int column, Qt::SortOrder order)
{
    m_sortColumn = column;
    m_sortOrder = order;
    resort();
}

void KeysModel::resort()
{
    if (m_sortColumn < 0 || m_sortColumn >= ColumnCount || m_order.size() < 2) {
        return;
    }
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const std::vector<int> before = m_order;
    auto less = [this](int a, int b) -> bool {
        // The compact keys first: no row is touched for them.
        switch (m_sortColumn) {
        case TtlColumn:
            return m_ttlKeys[size_t(a)] < m_ttlKeys[size_t(b)];
        case FlagColumn:
            return m_severity[size_t(a)] < m_severity[size_t(b)];
        default:
            break;
        }
        const KeyInfo &x = m_rows[size_t(a)].info;
        const KeyInfo &y = m_rows[size_t(b)].info;
        switch (m_sortColumn) {
        case KeyColumn:
            return x.key < y.key;
        case TypeColumn:
            return x.type < y.type;
        case RuleColumn:
            return x.ruleId < y.ruleId;
        case SubjectColumn:
            return x.subject < y.subject;
        case NodeColumn:
            return x.node < y.node;
        case StateColumn:
            // By kind, then by what is left (least first: the fullest states first).
            return x.state.kind != y.state.kind ? x.state.kind < y.state.kind
                                                : x.state.remaining < y.state.remaining;
        default:
            return a < b;
        }
    };
    if (m_sortColumn == TtlColumn || m_sortColumn == FlagColumn) {
        // (key, row) pairs side by side: the sort streams through 16 MB instead of looking up
        // two arrays at random for every comparison.
        std::vector<std::pair<qint64, int>> keyed(m_order.size());
        for (size_t i = 0; i < m_order.size(); ++i) {
            const auto s = size_t(m_order[i]);
            keyed[i] = {m_sortColumn == TtlColumn ? m_ttlKeys[s] : qint64(m_severity[s]),
                        m_order[i]};
        }
        const bool up = m_sortOrder == Qt::AscendingOrder;
        std::stable_sort(keyed.begin(), keyed.end(), [up](const auto &a, const auto &b) {
            return up ? a.first < b.first : b.first < a.first;
        });
        for (size_t i = 0; i < keyed.size(); ++i) {
            m_order[i] = keyed[i].second;
        }
    } else if (m_sortOrder == Qt::AscendingOrder) {
        std::stable_sort(m_order.begin(), m_order.end(), less);
    } else {
        std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) { return less(b, a); });
    }
    // Persistent indexes (the selection, the proxy's) follow their rows.
    const QModelIndexList from = persistentIndexList();
    if (!from.isEmpty()) {
        std::vector<int> rowOf(m_rows.size(), -1);
        for (size_t r = 0; r < m_order.size(); ++r) {
            rowOf[size_t(m_order[r])] = int(r);
        }
        QModelIndexList to;
        to.reserve(from.size());
        for (const QModelIndex &i : from) {
            to << index(rowOf[size_t(before[size_t(i.row())])], i.column());
        }
        changePersistentIndexList(from, to);
    }
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void KeysModel::setSortKeys(size_t storage)
{
    const Row &row = m_rows[storage];
    const size_t r = storage;
    const qint64 d = deadlineMs(row);
    constexpr qint64 top = std::numeric_limits<qint64>::max();
    // Deadlines in 250 ms steps: two reads of the same TTL do not reorder rows every second.
    m_ttlKeys[r] = d >= 0 ? d / 250 : d == -1 ? top - 2 : d == -3 ? top - 1 : top;
    // Gone keys count as ok here: they are neither flagged nor worth sorting up.
    m_severity[r] = row.info.exists() ? qint8(keypresentation::flagSeverity(row.info.health)) : 0;
}

keys::HealthSummary KeysModel::summary() const
{
    keys::HealthSummary s;
    s.keys = m_keys;
    s.limiterKeys = m_limiterKeys;
    s.ok = m_counts[size_t(Health::Ok)];
    s.noTtl = m_counts[size_t(Health::NoTtl)];
    s.noTtlOwnClock = m_ownClock;
    s.ttlExceedsRule = m_counts[size_t(Health::TtlExceedsRule)];
    s.orphans = m_counts[size_t(Health::Orphan)];
    s.wrongType = m_counts[size_t(Health::WrongType)];
    s.unreadable = m_counts[size_t(Health::Unreadable)];
    s.refused = m_refused;
    s.grant = m_refused > 0 ? m_grant : QString();
    return s;
}

qint64 KeysModel::flagged() const
{
    return m_keys - m_counts[size_t(Health::Ok)];
}

} // namespace sluice::ui
