#pragma once

#include "core/keys/keyfixer.h"
#include "core/keys/keyhealth.h"
#include "core/keys/keyinfo.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include <array>
#include <deque>
#include <vector>

namespace sluice::ui {

// The keys of one scan, one row per key (KeyInfo values from the KeysWorker), for the Keys
// page's table. GUI thread. Built for a million rows:
// - append() inserts a whole page with one beginInsertRows (pages come about 10 a second);
// - replace() updates rows in place (the 1 s refresh of the visible rows) and signals each
//   contiguous run of rows once;
// - no per-row QObject or signal; strings that repeat (type, rule id) share one copy;
// - rows live in a deque: growing never copies the rows already there (a vector's doubling
//   moved 300 MB at a million rows, a visible stall).
// Every row remembers when it was read (a monotonic clock, ms), so that the TTL counts down
// between two refreshes: remaining = pttl - (now - readAt).
class KeysModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        KeyColumn,
        TypeColumn,
        RuleColumn,
        SubjectColumn,
        StateColumn,
        TtlColumn,
        FlagColumn,
        NodeColumn, // Redis Cluster: the node the key was read from (the page hides it elsewhere)
        ColumnCount
    };
    enum Role {
        RawKeyRole = Qt::UserRole + 1, // QByteArray: the key's bytes
        HealthRole,                    // int: keys::Health
        PttlRole,                      // qint64: PTTL as read (-1 never, -2 gone, -3 unknown)
        ReadAtRole,                    // qint64: clockMs() when it was read
        MaxTtlRole,                    // qint64: the rule's maxTtlMs, -1 without a rule
        RemainingRole,                 // qint64: the TTL left now (ms), or the PTTL if < 0
    };
    struct Row
    {
        keys::KeyInfo info;
        qint64 readAtMs = 0;
    };

    explicit KeysModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    const Row &row(int r) const { return m_rows[size_t(m_order[size_t(r)])]; }
    const keys::KeyInfo &info(int r) const { return row(r).info; }

    // Sorting happens here, not in a proxy: a permutation of row numbers sorted on sort keys
    // kept in compact arrays beside the rows (the TTL column's: when the key expires, in
    // 250 ms steps, never-expiring keys after every expiring one, then unknown and gone; the
    // flag column's: keypresentation::flagSeverity()), so that a million rows sort in a
    // fraction of a second (tst_keyspage prints the figure) with one layoutChanged.
    // Rows that arrive while sorted go to the end, and a refresh never moves a row under the
    // user's eyes; resort() puts them in place (the page calls it when a scan ends).
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    void resort();
    int sortColumn() const { return m_sortColumn; }
    // Whether the row's key exists and is not ok, from the compact arrays (the proxy's
    // "only flagged" filter runs on a million rows without touching them).
    bool isFlagged(int r) const { return m_severity[size_t(m_order[size_t(r)])] > 0; }
    // The TTL left at `nowMs` (clockMs()): counts down from the PTTL read; never below 0.
    // Negative PTTLs (-1, -2, -3) come back as they are.
    static qint64 remainingMs(const Row &row, qint64 nowMs);
    // When the key expires on clockMs()'s scale; -1 never, -2 gone, -3 unknown.
    static qint64 deadlineMs(const Row &row);
    // A monotonic clock in ms, shared by every model (QElapsedTimer started on first use).
    static qint64 clockMs();

    void clear();
    void append(const QList<keys::KeyInfo> &page);
    // A rescan in place (the page's live rescans keep the selection, the scroll position and
    // the sort: no reset): beginMerge(), then merge() for every page (a key already listed is
    // updated where it stands, a new one appended), then endMerge(): with `dropUnseen` (the
    // scan saw the whole match) the rows it did not list are removed; otherwise they stay.
    // Returns the rows removed.
    void beginMerge();
    void merge(const QList<keys::KeyInfo> &page);
    int endMerge(bool dropUnseen);
    bool isMerging() const { return m_merging; }
    // The rows are those of a scan that is no longer current (Redis stopped answering, or the
    // result is stale): they are drawn grey.
    void setStale(bool stale);
    bool isStale() const { return m_stale; }
    // The model row of `key`; -1 when not listed.
    int rowOfKey(const QByteArray &key) const;
    // New reads of existing rows: (row, info) pairs. A pair whose row no longer holds that key
    // (the rows moved meanwhile) is ignored.
    void replace(QList<QPair<int, keys::KeyInfo>> updates);
    // What a fix did, applied to the rows: a TTL set makes a key ok with its new TTL, a delete
    // removes its row, a key found gone is removed. Returns the rows removed.
    int applyFix(const keys::KeyFixer::Report &report);

    // Counts of the keys in the model (gone keys not counted), kept as rows come and change.
    keys::HealthSummary summary() const;
    qint64 count(keys::Health h) const { return m_counts[size_t(h)]; }
    qint64 flagged() const; // every key that is not ok

    // Makes room for about `rows` rows (a scan's DBSIZE, at most 2,000,000), so that the rows
    // of a long scan arrive without the index being rehashed on the way.
    void reserve(qint64 rows);

Q_SIGNALS:
    void countsChanged();

private:
    void intern(keys::KeyInfo &info);
    void tally(const keys::KeyInfo &info, int sign);
    void removeRowList(QList<int> rows);
    void setSortKeys(size_t storage);

    std::deque<Row> m_rows;         // a deque: a million appends never move the rows already there
    std::vector<int> m_order;       // row -> index in m_rows
    std::vector<qint64> m_ttlKeys;  // by index in m_rows
    std::vector<qint8> m_severity;  // by index in m_rows
    std::vector<quint32> m_seenIn;  // by index in m_rows: the merge generation that listed it
    QHash<QByteArray, int> m_index; // key -> index in m_rows, of the rows listed
    quint32 m_generation = 0;
    bool m_merging = false;
    bool m_stale = false;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::array<qint64, 6> m_counts{};
    qint64 m_limiterKeys = 0;
    qint64 m_keys = 0;
    qint64 m_refused = 0;                  // unreadable keys the ACL refused
    qint64 m_ownClock = 0;                 // no-TTL keys whose state resets by its own clock
    QString m_grant;                       // what to grant for them (the first refusal's)
    QHash<QByteArray, QByteArray> m_types; // interned TYPE strings
    QHash<QString, QString> m_ruleIds;     // interned rule ids
};

} // namespace sluice::ui
