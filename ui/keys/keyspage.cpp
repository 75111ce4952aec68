#include "keyspage.h"

#include "common/messagebanner.h"
#include "common/pageheader.h"
#include "common/tone.h"

#include "healthbanner.h"
#include "keydetails.h"
#include "keypresentation.h"
#include "keysfilterproxy.h"
#include "keysmodel.h"
#include "ttldelegate.h"

#include "connection/connectioncontroller.h"
#include "keys/keyreader.h"

#include <QCheckBox>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sluice::ui {

using keys::Health;
using keys::KeyFixer;
using keys::KeyInfo;
using keys::KeysWorker;
using keys::ScanSummary;

namespace {

// At most this many rows are refreshed every second: a tall window shows fewer.
constexpr int maxVisibleRows = 300;

QString number(qint64 n)
{
    return QLocale().toString(n);
}

QString keysWord(qint64 n)
{
    return n == 1 ? KeysPage::tr("1 key") : KeysPage::tr("%1 keys").arg(number(n));
}

} // namespace

KeysPage::KeysPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
{
    setObjectName(QStringLiteral("keysPage"));
    qRegisterMetaType<KeyInfo>();
    qRegisterMetaType<QList<KeyInfo>>();
    qRegisterMetaType<keys::ScanProgress>();
    qRegisterMetaType<ScanSummary>();
    qRegisterMetaType<KeyFixer::Report>();
    qRegisterMetaType<KeysWorker::RawValue>();

    m_model = new KeysModel(this);
    m_model->setObjectName(QStringLiteral("keysModel"));
    m_proxy = new KeysFilterProxy(m_model, this);
    m_proxy->setObjectName(QStringLiteral("keysProxy"));

    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(24, 20, 24, 20);
    root->setSpacing(6);

    // The header and the actions on the selection.
    auto *pageHeader =
        new PageHeader(tr("Keys"),
                       tr("The limiter keys of the connected Redis: each key's rule, "
                          "subject, state and TTL, and the keys that will never "
                          "expire. Nothing is written unless you fix or delete."),
                       this);
    m_setTtl = new QPushButton(tr("Set TTL from rule…"), this);
    m_setTtl->setObjectName(QStringLiteral("setTtlButton"));
    m_setTtl->setToolTip(tr("Give the selected keys that never expire (or live too long) the "
                            "TTL their rule needs"));
    m_delete = new QPushButton(tr("Delete…"), this);
    m_delete->setObjectName(QStringLiteral("deleteButton"));
    m_delete->setToolTip(tr("Delete the selected keys from Redis"));
    m_rescan = new QPushButton(tr("Scan again"), this);
    m_rescan->setObjectName(QStringLiteral("rescanButton"));
    m_rescan->setToolTip(tr("List the keys again (F5)"));
    pageHeader->addAction(m_setTtl);
    pageHeader->addAction(m_delete);
    pageHeader->addAction(m_rescan);
    root->addWidget(pageHeader);
    root->addSpacing(6);

    m_banner = new HealthBanner(this);
    root->addWidget(m_banner);

    m_message =
        new MessageBanner(QStringLiteral("keysMessageFrame"), QStringLiteral("keysMessage"), this);
    root->addWidget(m_message);

    m_reportBox = new MessageBanner(QStringLiteral("reportBox"), QStringLiteral("fixReport"), this);
    m_reportBox->setDismissible(QStringLiteral("closeReportButton"), true);
    root->addWidget(m_reportBox);

    // Filters and the scan's progress.
    auto *filters = new QHBoxLayout;
    filters->setSpacing(8);
    auto *patternLabel = new QLabel(tr("&Match:"), this);
    m_pattern = new QLineEdit(this);
    m_pattern->setObjectName(QStringLiteral("patternEdit"));
    m_pattern->setToolTip(tr("SCAN MATCH glob(s), separated by spaces; empty: the key prefixes "
                             "of the rules. Press Enter to scan."));
    m_pattern->setClearButtonEnabled(true);
    m_pattern->setMinimumWidth(200);
    patternLabel->setBuddy(m_pattern);
    auto *filterLabel = new QLabel(tr("&Filter:"), this);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("filterEdit"));
    m_filter->setPlaceholderText(tr("key, rule or subject contains…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMinimumWidth(180);
    filterLabel->setBuddy(m_filter);
    m_onlyFlagged = new QCheckBox(tr("Only &flagged"), this);
    m_onlyFlagged->setObjectName(QStringLiteral("onlyFlaggedCheck"));
    m_onlyFlagged->setToolTip(tr("Only keys that never expire, live too long, match no rule or "
                                 "are not their rule's state"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("scanProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setFixedWidth(200);
    m_progress->setVisible(false);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("keyCount"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("cancelScanButton"));
    m_cancel->setVisible(false);
    filters->addWidget(patternLabel);
    filters->addWidget(m_pattern, 2);
    filters->addSpacing(8);
    filters->addWidget(filterLabel);
    filters->addWidget(m_filter, 2);
    filters->addWidget(m_onlyFlagged);
    filters->addStretch(1);
    filters->addWidget(m_count);
    filters->addWidget(m_progress);
    filters->addWidget(m_cancel);
    root->addLayout(filters);

    // The table, the details of the selection below it.
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("keysSplitter"));
    m_splitter->setChildrenCollapsible(false);
    m_view = new QTableView(m_splitter);
    m_view->setObjectName(QStringLiteral("keysTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegateForColumn(KeysModel::TtlColumn, new TtlDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setShowGrid(false);
    m_view->setIconSize(QSize(16, 16));
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // A million rows: fixed row heights, no per-row measuring.
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 10);
    QHeaderView *header = m_view->horizontalHeader();
    // Every column in view without scrolling, at 1280x800 as on a large screen: the key and
    // its state share what the short columns leave (the key elided in the middle), the flag
    // column fits its words in either language.
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(40);
    header->setResizeContentsPrecision(200); // measure a sample, not a million rows
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(KeysModel::KeyColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(KeysModel::StateColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(KeysModel::TypeColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(KeysModel::FlagColumn, QHeaderView::ResizeToContents);
    header->resizeSection(KeysModel::RuleColumn, 120);
    header->resizeSection(KeysModel::SubjectColumn, 120);
    header->resizeSection(KeysModel::TtlColumn, 140);
    // Sorting only when a header is clicked (none at first: the scan's order).
    header->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_view->viewport()->installEventFilter(this);
    m_details = new KeyDetails(m_splitter);
    m_splitter->addWidget(m_view);
    m_splitter->addWidget(m_details);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({500, 190});
    root->addWidget(m_splitter, 1);

    m_visibleTimer = new QTimer(this);
    m_visibleTimer->setSingleShot(true);
    m_visibleTimer->setInterval(80);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    m_ttlTimer = new QTimer(this);
    m_ttlTimer->setInterval(250);

    connect(m_visibleTimer, &QTimer::timeout, this, &KeysPage::updateVisible);
    connect(m_filterTimer, &QTimer::timeout, this, [this] { m_proxy->setText(m_filter->text()); });
    connect(m_ttlTimer, &QTimer::timeout, this, &KeysPage::repaintTtl);
    m_ttlTimer->start();
    connect(m_filter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_pattern, &QLineEdit::returnPressed, this, &KeysPage::refresh);
    connect(m_onlyFlagged, &QCheckBox::toggled, m_proxy, &KeysFilterProxy::setOnlyFlagged);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_worker) {
            m_worker->cancel();
        }
    });
    connect(m_rescan, &QPushButton::clicked, this, &KeysPage::refresh);
    connect(m_setTtl, &QPushButton::clicked, this, [this] { fixSelection(false); });
    connect(m_delete, &QPushButton::clicked, this, [this] { fixSelection(true); });
    connect(m_banner, &HealthBanner::showFlaggedRequested, this,
            [this] { m_onlyFlagged->setChecked(true); });
    connect(m_banner, &HealthBanner::fixAllRequested, this, [this] { fixAll(false); });
    connect(m_banner, &HealthBanner::deleteAllRequested, this, [this] { fixAll(true); });

    auto schedule = [this] { m_visibleTimer->start(); };
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, schedule);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, schedule);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, schedule);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, schedule);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, schedule);
    connect(m_model, &KeysModel::countsChanged, this, &KeysPage::onCountsChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &KeysPage::onCurrentChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &KeysPage::updateActions);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &KeysPage::onCurrentChanged);

    connect(m_connection, &ConnectionController::sessionChanged, this, [this] {
        stopSession(false);
        startSession();
    });
    connect(m_connection, &ConnectionController::stateChanged, this, &KeysPage::onConnectionState);

    updatePatternHint();
    onCountsChanged();
    updateActions();
    startSession();
}

KeysPage::~KeysPage()
{
    stopSession(true);
}

void KeysPage::setConfirm(Confirm confirm)
{
    m_confirm = std::move(confirm);
}

QString KeysPage::message() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

// --- session and worker -------------------------------------------------------------------

void KeysPage::startSession()
{
    m_model->clear();
    m_visibleRows.clear();
    m_connectionTrouble = false;
    m_scanFailed = false;
    setScanNote({});
    setConnectionNote({});
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    if (!endpoint) {
        setConnectionNote(tr("Not connected: choose a Redis on the Connection page."), Tone::Info);
        updateActions();
        return;
    }
    m_thread = new QThread; // not a child: it may outlive the page by one round trip
    m_thread->setObjectName(QStringLiteral("sluice-keys"));
    m_worker = new KeysWorker(*endpoint, m_rules);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_thread, &QThread::finished, m_thread, &QObject::deleteLater);

    // Signals of a worker that was replaced meanwhile are dropped.
    KeysWorker *w = m_worker;
    connect(w, &KeysWorker::scanStarted, this, [this, w] {
        if (w == m_worker) {
            onScanStarted();
        }
    });
    connect(w, &KeysWorker::pageReady, this,
            [this, w](const QList<KeyInfo> &keys, const keys::ScanProgress &p) {
                if (w == m_worker) {
                    onPage(keys, p);
                }
            });
    connect(w, &KeysWorker::scanFinished, this, [this, w](const ScanSummary &s) {
        if (w == m_worker) {
            onScanFinished(s);
        }
    });
    connect(w, &KeysWorker::refreshed, this, [this, w](const QList<KeyInfo> &keys) {
        if (w == m_worker) {
            onRefreshed(keys);
        }
    });
    connect(w, &KeysWorker::connectionError, this, [this, w](const QString &message) {
        if (w == m_worker) {
            onConnectionError(message);
        }
    });
    connect(w, &KeysWorker::fixFinished, this, [this, w](const KeyFixer::Report &r) {
        if (w == m_worker) {
            onFixFinished(r);
        }
    });
    connect(w, &KeysWorker::valueRead, this, [this, w](const KeysWorker::RawValue &v) {
        if (w == m_worker) {
            m_details->setValue(v);
        }
    });
    m_thread->start();
    QMetaObject::invokeMethod(w, &KeysWorker::startRefreshing, Qt::QueuedConnection);
    startScan();
}

void KeysPage::stopSession(bool wait)
{
    if (!m_worker) {
        return;
    }
    KeysWorker *w = m_worker;
    QThread *t = m_thread;
    m_worker = nullptr;
    m_thread = nullptr;
    m_pendingScans = 0;
    m_fixing = false;
    m_banner->setBusy(false);
    w->cancel();
    w->setVisibleKeys({});
    QMetaObject::invokeMethod(w, &KeysWorker::stopRefreshing, Qt::QueuedConnection);
    t->quit(); // after the slot running now (a scan stops within one round trip)
    if (wait) {
        // Closing: the worker must be gone before the process is; it stops within one round
        // trip (a few seconds at worst if the server does not answer).
        // The worker is deleted as its thread finishes (finished -> deleteLater, run by the
        // finishing thread), the thread object here.
        t->wait();
        delete t;
    }
    m_progress->setVisible(false);
    m_cancel->setVisible(false);
}

QList<QByteArray> KeysPage::patterns() const
{
    QList<QByteArray> out;
    const QStringList parts = m_pattern->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &p : parts) {
        out << p.toUtf8();
    }
    return out;
}

void KeysPage::updatePatternHint()
{
    const keys::KeyReader reader(m_rules);
    QStringList globs;
    for (const QByteArray &p : reader.defaultPatterns()) {
        globs << keypresentation::displayBytes(p);
    }
    m_pattern->setPlaceholderText(globs.join(QLatin1Char(' ')));
}

void KeysPage::startScan()
{
    if (!m_worker) {
        return;
    }
    m_worker->cancel(); // a scan running stops; this one is queued behind it
    ++m_pendingScans;
    m_scanFailed = false;
    setScanNote({});
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("starting…"));
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    const QList<QByteArray> globs = patterns();
    KeysWorker *w = m_worker;
    QMetaObject::invokeMethod(
        w, [w, globs] { w->scan(globs); }, Qt::QueuedConnection);
    onCountsChanged();
}

void KeysPage::setRules(const RuleSet &rules)
{
    m_rules = rules;
    updatePatternHint();
    if (m_worker) {
        KeysWorker *w = m_worker;
        QMetaObject::invokeMethod(
            w, [w, rules] { w->setRules(rules); }, Qt::QueuedConnection);
        startScan();
    }
    onCountsChanged();
}

void KeysPage::refresh()
{
    if (!m_worker) {
        startSession();
        return;
    }
    startScan();
}

void KeysPage::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

// --- worker signals -------------------------------------------------------------------------

void KeysPage::onScanStarted()
{
    // The table is cleared when the scan really starts: pages of a scan cancelled just before
    // arrive first and must not mix with this one's.
    m_model->clear();
    m_visibleRows.clear();
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(tr("scanning…"));
}

void KeysPage::onPage(const QList<KeyInfo> &keys, const keys::ScanProgress &p)
{
    m_model->append(keys);
    if (m_pendingScans > 0) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(p.fraction * 1000));
        m_progress->setFormat(tr("%1% of the keyspace").arg(int(p.fraction * 100)));
        m_count->setText(tr("%1 so far").arg(keysWord(m_model->rowCount())));
    }
    if (m_connectionTrouble) {
        m_connectionTrouble = false;
        setConnectionNote({}); // the worker got through again
    }
}

void KeysPage::onScanFinished(const ScanSummary &summary)
{
    if (m_pendingScans > 0) {
        --m_pendingScans;
    }
    if (m_pendingScans > 0) {
        return; // a newer scan is queued: this one was cancelled for it
    }
    m_progress->setVisible(false);
    m_cancel->setVisible(m_fixing);
    m_model->resort(); // rows that came while sorted were put at the end
    const qint64 n = m_model->rowCount();
    const qint64 ms = summary.progress.elapsedMs;
    const QString took = ms < 1000 ? tr("%1 ms").arg(ms) : keypresentation::ttlText(ms);
    switch (summary.status) {
    case ScanSummary::Status::Completed:
        m_count->setText(tr("%1 · scanned in %2").arg(keysWord(n), took));
        break;
    case ScanSummary::Status::Cancelled:
        m_count->setText(tr("%1 · scan cancelled").arg(keysWord(n)));
        break;
    case ScanSummary::Status::Failed: {
        m_scanFailed = true;
        m_count->setText(tr("%1 · scan stopped").arg(keysWord(n)));
        const QString why = summary.error ? summary.error->message : tr("unknown error");
        if (summary.serverRestarted) {
            setScanNote(tr("Redis restarted during the scan, so the scan stopped after %1: the "
                           "keyspace it was walking is gone. The keys listed are kept; their "
                           "rows update as they are read again. Scan again (F5) for the keys "
                           "Redis holds now.")
                            .arg(keysWord(n)),
                        Tone::Warning);
        } else if (n > 0) {
            // The scanner's message says where it stopped and that the keys listed stay.
            setScanNote(tr("The scan stopped: %1").arg(why), Tone::Warning);
        } else {
            setScanNote(
                tr("Could not list the keys: %1. Trying again when Redis answers.").arg(why),
                Tone::Bad);
        }
        break;
    }
    }
    onCountsChanged();
    updateVisible();
    Q_EMIT scanFinished(summary);
}

void KeysPage::onRefreshed(const QList<KeyInfo> &keys)
{
    QList<QPair<int, KeyInfo>> updates;
    updates.reserve(keys.size());
    const std::optional<QByteArray> selected = m_details->key();
    for (const KeyInfo &k : keys) {
        const int row = m_visibleRows.value(k.key, -1);
        if (row >= 0) {
            updates.append({row, k});
        }
        if (selected && *selected == k.key) {
            m_details->setKey(k, ruleOf(k));
            if (m_worker) {
                m_worker->requestValue(k.key); // the counter may have moved
            }
        }
    }
    m_model->replace(std::move(updates));
    if (m_connectionTrouble) {
        m_connectionTrouble = false;
        setConnectionNote({});
    }
    // Nothing was listed before the connection went: list now.
    if (m_scanFailed && m_model->rowCount() == 0 && m_pendingScans == 0) {
        startScan();
    }
}

void KeysPage::onConnectionError(const QString &message)
{
    m_connectionTrouble = true;
    setConnectionNote(tr("Connection to Redis lost (%1). The table shows the keys as last read; "
                         "it updates again by itself when Redis answers.")
                          .arg(message));
}

void KeysPage::onConnectionState(const ConnectionState &state)
{
    using S = ConnectionState::State;
    if (!m_worker) {
        // The controller names its endpoint after sessionChanged (when it opens): start then.
        if (m_connection->endpoint() && state.state != S::Idle) {
            startSession();
        }
        return;
    }
    if (state.state == S::Lost || state.state == S::Failed) {
        onConnectionError(state.error.isEmpty() ? tr("no answer") : state.error);
    } else if (state.state == S::Connected && m_connectionTrouble) {
        m_connectionTrouble = false;
        setConnectionNote({});
        if (m_scanFailed && m_model->rowCount() == 0 && m_pendingScans == 0) {
            startScan();
        } else if (m_worker) {
            QMetaObject::invokeMethod(m_worker, &KeysWorker::refreshVisible, Qt::QueuedConnection);
        }
    }
}

void KeysPage::onCountsChanged()
{
    const keys::HealthSummary s = m_model->summary();
    m_banner->setSummary(s, m_rules.has_value(), m_pendingScans > 0);
    m_banner->setVisible(m_worker != nullptr || m_model->rowCount() > 0);
    const qint64 never = s.noTtl;
    const qint64 flagged = m_model->flagged();
    if (never != m_lastNeverExpiring || flagged != m_lastFlagged) {
        m_lastNeverExpiring = never;
        m_lastFlagged = flagged;
        Q_EMIT healthChanged(never, flagged);
    }
}

// --- the view -------------------------------------------------------------------------------

bool KeysPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        m_visibleTimer->start();
    }
    return QWidget::eventFilter(watched, event);
}

void KeysPage::updateVisible()
{
    m_visibleRows.clear();
    QList<QByteArray> keys;
    const int rows = m_proxy->rowCount();
    if (rows > 0) {
        int top = m_view->rowAt(0);
        int bottom = m_view->rowAt(m_view->viewport()->height() - 1);
        top = std::max(top, 0);
        bottom = bottom < 0 ? rows - 1 : bottom;
        bottom = std::min(bottom, top + maxVisibleRows - 1);
        keys.reserve(bottom - top + 2);
        for (int r = top; r <= bottom; ++r) {
            const int source = m_proxy->mapToSource(m_proxy->index(r, 0)).row();
            const QByteArray &key = m_model->info(source).key;
            keys << key;
            m_visibleRows.insert(key, source);
        }
    }
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (current.isValid()) {
        const int source = m_proxy->mapToSource(current).row();
        const QByteArray &key = m_model->info(source).key;
        if (!m_visibleRows.contains(key)) {
            keys << key;
            m_visibleRows.insert(key, source);
        }
    }
    if (m_worker) {
        m_worker->setVisibleKeys(keys);
    }
}

void KeysPage::repaintTtl()
{
    if (!isVisible() || m_proxy->rowCount() == 0) {
        return;
    }
    const int x = m_view->columnViewportPosition(KeysModel::TtlColumn);
    const int w = m_view->columnWidth(KeysModel::TtlColumn);
    m_view->viewport()->update(QRect(x, 0, w, m_view->viewport()->height()));
}

const Rule *KeysPage::ruleOf(const KeyInfo &info) const
{
    if (!m_rules || !info.hasRule()) {
        return nullptr;
    }
    return m_rules->find(info.ruleId);
}

void KeysPage::onCurrentChanged()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid()) {
        m_details->setKey(std::nullopt, nullptr);
        return;
    }
    const KeyInfo &k = m_model->info(m_proxy->mapToSource(current).row());
    m_details->setKey(k, ruleOf(k));
    if (m_worker) {
        m_worker->requestValue(k.key);
    }
    m_visibleTimer->start();
}

QList<KeyInfo> KeysPage::selectedKeys() const
{
    QList<KeyInfo> out;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    out.reserve(rows.size());
    for (const QModelIndex &i : rows) {
        out << m_model->info(m_proxy->mapToSource(i).row());
    }
    return out;
}

void KeysPage::updateActions()
{
    const bool any = m_view->selectionModel()->hasSelection();
    const bool can = m_worker != nullptr && !m_fixing;
    m_setTtl->setEnabled(can && any);
    m_delete->setEnabled(can && any);
    m_rescan->setEnabled(m_connection->endpoint().has_value());
}

// --- fixes ----------------------------------------------------------------------------------

void KeysPage::ask(const QString &question, const QString &yes, std::function<void()> then)
{
    if (m_confirm) {
        if (m_confirm(question)) {
            then();
        }
        return;
    }
    // Window-modal, answered through a signal: no nested event loop.
    auto *box =
        new QMessageBox(QMessageBox::Question, tr("Keys"), question, QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *ok = box->addButton(yes, QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::buttonClicked, this,
            [ok, then = std::move(then)](QAbstractButton *b) {
                if (b == ok) {
                    then();
                }
            });
    box->open();
}

void KeysPage::beginFix()
{
    m_fixing = true;
    m_banner->setBusy(true);
    m_reportBox->hide();
    m_progress->setRange(0, 0);
    m_progress->setFormat(tr("fixing…"));
    m_progress->setVisible(true);
    m_cancel->setVisible(true);
    updateActions();
}

void KeysPage::fixSelection(bool deleteKeys)
{
    if (!m_worker || m_fixing) {
        return;
    }
    const QList<KeyInfo> keys = selectedKeys();
    if (keys.isEmpty()) {
        return;
    }
    const qint64 n = keys.size();
    qint64 fixable = 0;
    for (const KeyInfo &k : keys) {
        fixable += keys::isFixable(k.health) ? 1 : 0;
    }
    QString question;
    if (deleteKeys) {
        question =
            tr("Delete %1 from Redis? Their subjects start afresh on their next "
               "request. This cannot be undone.")
                .arg(n == 1 ? tr("the selected key") : tr("the %1 selected keys").arg(number(n)));
    } else {
        if (fixable == 0) {
            showReport(n == 1 ? tr("The selected key needs no TTL from its rule: it is not "
                                   "flagged as never expiring or living too long.")
                              : tr("None of the %1 selected keys needs a TTL from its rule: none "
                                   "is flagged as never expiring or living too long.")
                                    .arg(number(n)),
                       Tone::Info);
            return;
        }
        question = fixable == n
                       ? tr("Set the TTL from their rule on %1?")
                             .arg(n == 1 ? tr("the selected key")
                                         : tr("the %1 selected keys").arg(number(n)))
                       : tr("Set the TTL from their rule on %1 of the %2 selected keys (those that "
                            "never expire or live too long)? The others are left as they are.")
                             .arg(number(fixable), number(n));
        question += QLatin1Char(' ') + tr("A key that got a TTL within its rule meanwhile is "
                                          "left alone.");
    }
    KeysWorker *w = m_worker;
    ask(question, deleteKeys ? tr("Delete") : tr("Set TTL"), [this, w, keys, deleteKeys] {
        if (w != m_worker) {
            return;
        }
        beginFix();
        QMetaObject::invokeMethod(
            w, [w, keys, deleteKeys] { w->fix(keys, deleteKeys, false); }, Qt::QueuedConnection);
    });
}

void KeysPage::fixAll(bool deleteKeys)
{
    if (!m_worker || m_fixing) {
        return;
    }
    const keys::HealthSummary s = m_model->summary();
    const qint64 n = s.fixable();
    if (n == 0) {
        return;
    }
    const QString what = n == 1
                             ? tr("the 1 key that never expires or lives too long")
                             : tr("the %1 keys that never expire or live too long").arg(number(n));
    QStringList globs;
    for (const QByteArray &p : patterns()) {
        globs << keypresentation::displayBytes(p);
    }
    const QString where =
        globs.isEmpty() ? m_pattern->placeholderText() : globs.join(QLatin1Char(' '));
    const QString question =
        deleteKeys
            ? tr("Delete %1? Sluice lists %2 again and deletes each key that is still flagged "
                 "at that instant. This cannot be undone.")
                  .arg(what, where)
            : tr("Set the TTL from their rule on %1? Sluice lists %2 again and fixes each key "
                 "that is still flagged at that instant; a key that got a TTL meanwhile is left "
                 "alone.")
                  .arg(what, where);
    const QList<QByteArray> globsBytes = patterns();
    KeysWorker *w = m_worker;
    ask(question, deleteKeys ? tr("Delete all") : tr("Fix all"), [this, w, globsBytes, deleteKeys] {
        if (w != m_worker) {
            return;
        }
        beginFix();
        QMetaObject::invokeMethod(
            w, [w, globsBytes, deleteKeys] { w->fixAllFlagged(globsBytes, deleteKeys, false); },
            Qt::QueuedConnection);
    });
}

void KeysPage::onFixFinished(const KeyFixer::Report &report)
{
    m_fixing = false;
    m_banner->setBusy(false);
    if (m_pendingScans == 0) {
        m_progress->setVisible(false);
        m_cancel->setVisible(false);
    }
    m_model->applyFix(report);
    updateActions();

    using S = KeyFixer::Status;
    const qint64 done = report.count(S::Done);
    const qint64 fine = report.count(S::AlreadyFine);
    const qint64 gone = report.count(S::Gone);
    const qint64 skipped = report.count(S::Skipped);
    const qint64 failed = report.count(S::Failed);
    const bool del = report.action == KeyFixer::Action::Delete;
    QStringList parts;
    if (report.cancelled) {
        parts << tr("Cancelled.");
    }
    parts << (del ? tr("Deleted %1.").arg(keysWord(done))
                  : tr("TTL set on %1.").arg(keysWord(done)));
    if (fine > 0) {
        parts << tr("%1 already had a TTL within their rule (left alone).").arg(keysWord(fine));
    }
    if (gone > 0) {
        parts << tr("%1 had gone meanwhile.").arg(keysWord(gone));
    }
    if (skipped > 0) {
        parts << tr("%1 skipped (no rule to take a TTL from, or not the rule's state).")
                     .arg(keysWord(skipped));
    }
    QString firstFailure;
    QStringList lines;
    for (const auto &o : report.outcomes) {
        if (o.status == S::Failed && firstFailure.isEmpty()) {
            firstFailure = o.message;
        }
        if (lines.size() < 25) {
            lines << QStringLiteral("%1  %2  %3")
                         .arg(keys::statusName(o.status), keypresentation::displayBytes(o.key),
                              o.ttlMs > 0 && o.status == S::Done && !del
                                  ? keypresentation::ttlText(o.ttlMs)
                                  : o.message);
        }
    }
    if (failed > 0) {
        parts << tr("%1 failed: %2.").arg(keysWord(failed), firstFailure);
    }
    if (report.error) {
        parts << tr("Stopped: %1. The changes made before it stand.").arg(report.error->message);
    }
    const Tone tone = (failed > 0 || report.error) ? Tone::Warning
                      : report.cancelled           ? Tone::Info
                                                   : Tone::Good;
    showReport(parts.join(QLatin1Char(' ')), tone, lines.join(QLatin1Char('\n')));
    m_visibleTimer->start();
    if (m_worker) {
        QMetaObject::invokeMethod(m_worker, &KeysWorker::refreshVisible, Qt::QueuedConnection);
    }
    Q_EMIT fixFinished(report);
}

// --- messages -------------------------------------------------------------------------------

void KeysPage::setConnectionNote(const QString &text, Tone tone)
{
    m_connectionNote = text;
    m_connectionTone = tone;
    updateMessage();
}

void KeysPage::setScanNote(const QString &text, Tone tone)
{
    m_scanNote = text;
    m_scanTone = tone;
    updateMessage();
}

void KeysPage::updateMessage()
{
    QStringList parts;
    Tone tone = Tone::Info;
    if (!m_connectionNote.isEmpty()) {
        parts << m_connectionNote;
        tone = std::max(tone, m_connectionTone);
    }
    if (!m_scanNote.isEmpty()) {
        parts << m_scanNote;
        tone = std::max(tone, m_scanTone);
    }
    if (parts.isEmpty()) {
        m_message->hide();
        return;
    }
    m_message->showPlain(tone, parts.join(QLatin1Char('\n')));
}

void KeysPage::showReport(const QString &text, Tone tone, const QString &details)
{
    m_reportBox->showPlain(tone, text, details);
}

} // namespace sluice::ui
