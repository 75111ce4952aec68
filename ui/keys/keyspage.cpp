#include "keyspage.h"

#include "keycolumn.h"

#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/tone.h"

#include "auditpanel.h"
#include "healthbanner.h"
#include "keydetails.h"
#include "keypresentation.h"
#include "keysfilterproxy.h"
#include "keysmodel.h"
#include "keyssession.h"
#include "keystree.h"
#include "scanstate.h"
#include "ttldelegate.h"

#include "core/keys/keyreader.h"
#include "ui/connection/connectioncontroller.h"

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
#include <QStackedWidget>
#include <QStyle>
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
    m_session = new KeysSession(connection, m_model, this);

    auto *root = PageHeader::pageLayout(this);
    buildHeader(root);
    buildFilters(root);
    buildTable();
    buildModes(root);
    connectControls();
    connectSession();

    updatePatternHint();
    updateBanner();
    updateActions();
    m_session->startSession();
    updateCluster();
}

// The header and the actions on the selection, the banners under it.
void KeysPage::buildHeader(QVBoxLayout *root)
{
    auto *pageHeader =
        new PageHeader(tr("Keys"),
                       tr("The limiter keys of the connected Redis: each key's rule, "
                          "subject, state and TTL, and the keys that will never "
                          "expire. Nothing is written unless you fix or delete."),
                       this);
    m_setTtl = PageHeader::button(tr("Set TTL from rule…"), QStringLiteral("setTtlButton"), this,
                                  tr("Give the selected keys that never expire (or live too "
                                     "long) the TTL their rule needs"));
    m_delete = PageHeader::button(tr("Delete…"), QStringLiteral("deleteButton"), this,
                                  tr("Delete the selected keys from Redis"));
    m_rescan = PageHeader::button(tr("Scan again"), QStringLiteral("rescanButton"), this,
                                  tr("List the keys again (F5)"));
    m_auditToggle = PageHeader::button(tr("Audit the whole keyspace"),
                                       QStringLiteral("auditToggleButton"), this,
                                       tr("Find the limiter keys other libraries wrote, in the "
                                          "whole database, and repair the ones that never expire"));
    m_auditToggle->setCheckable(true);
    pageHeader->addAction(m_auditToggle);
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
}

// The filters, the scan's progress and, on a Redis Cluster, its shards.
void KeysPage::buildFilters(QVBoxLayout *root)
{
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
    m_cancel = PageHeader::button(tr("Cancel"), QStringLiteral("cancelScanButton"), this);
    m_cancel->setVisible(false);
    filters->addWidget(patternLabel);
    filters->addWidget(m_pattern, 2);
    filters->addSpacing(8);
    filters->addWidget(filterLabel);
    filters->addWidget(m_filter, 2);
    filters->addWidget(m_onlyFlagged);
    m_treeToggle = PageHeader::button(tr("&Tree"), QStringLiteral("treeToggleButton"), this,
                                      tr("Group the keys by rule or by key prefix (the parts "
                                         "between ':'), with the keys and the flagged keys under "
                                         "each node"));
    m_treeToggle->setCheckable(true);
    filters->addWidget(m_treeToggle);
    root->addLayout(filters);
    // The scan's time, always in view ("scanned 12:04:31, 0.2 s, 217 keys"), and its progress.
    auto *scanRow = new QHBoxLayout;
    scanRow->setSpacing(8);
    m_count->setTextFormat(Qt::PlainText);
    m_count->setMinimumWidth(0);
    m_count->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    scanRow->addWidget(m_count, 1);
    scanRow->addWidget(m_progress);
    scanRow->addWidget(m_cancel);
    root->addLayout(scanRow);

    // Redis Cluster only: which nodes the scan reads, and how far each shard is.
    m_replicas = new QCheckBox(tr("Scan &replicas instead (spares the masters)"), this);
    m_replicas->setObjectName(QStringLiteral("scanReplicasCheck"));
    m_replicas->setToolTip(tr("Read one replica of each shard (READONLY) instead of its "
                              "master; a shard without a replica online is read on its "
                              "master. Fixes always go to the masters."));
    m_nodes = PageHeader::note(this);
    m_nodes->setObjectName(QStringLiteral("nodeProgress"));
    m_nodes->setTextFormat(Qt::PlainText);
    m_nodes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *clusterRow = new QHBoxLayout;
    clusterRow->setSpacing(16);
    clusterRow->addWidget(m_replicas, 0, Qt::AlignTop);
    clusterRow->addWidget(m_nodes, 1);
    root->addLayout(clusterRow);
}

// The table, the details of the selection below it.
void KeysPage::buildTable()
{
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
    setUpKeyColumns(m_view, m_model);
    m_view->setColumnHidden(KeysModel::NodeColumn, true); // shown on a Redis Cluster
    // Sorting only when a header is clicked (none at first: the scan's order).
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);
    m_viewport = m_view->viewport();
    m_viewport->installEventFilter(this);
    m_details = new KeyDetails(m_splitter);
    // The table or the tree (the same rows), the details below either.
    m_views = new QStackedWidget(m_splitter);
    m_views->setObjectName(QStringLiteral("keysViews"));
    m_tree = new KeysTree(m_model, m_views);
    m_views->addWidget(m_view);
    m_views->addWidget(m_tree);
    m_splitter->addWidget(m_views);
    m_splitter->addWidget(m_details);
    PageHeader::shareSplit(m_splitter, 3, 1, {500, 190});
}

// The audit mode in place of the table (its button down), the timers.
void KeysPage::buildModes(QVBoxLayout *root)
{
    // The audit mode (auditpanel.h) in place of the table, while its button is down.
    m_audit = new AuditPanel([connection = m_connection] { return connection->endpoint(); },
                             [this] { return m_session->rules(); }, this);
    m_audit->setScanState(m_session->scanState());
    // An audit (or its fix) looked at Redis now: the table does too, so that the two agree.
    connect(m_audit->session(), &AuditSession::finished, this,
            [this] { m_session->startScan(KeysSession::ScanKind::Live); });
    connect(m_audit->session(), &AuditSession::fixFinished, this,
            [this] { m_session->startScan(KeysSession::ScanKind::Live); });
    auto *modes = new QStackedWidget(this);
    modes->setObjectName(QStringLiteral("keysModes"));
    modes->addWidget(m_splitter);
    modes->addWidget(m_audit);
    root->addWidget(modes, 1);
    connect(m_auditToggle, &QPushButton::toggled, this, [this, modes](bool on) {
        modes->setCurrentWidget(on ? static_cast<QWidget *>(m_audit) : m_splitter);
        if (on && !m_audit->session()->result() && !m_audit->session()->isRunning()) {
            m_audit->start();
        }
    });

    m_visibleTimer = new QTimer(this);
    m_visibleTimer->setSingleShot(true);
    m_visibleTimer->setInterval(80);
    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    m_ttlTimer = new QTimer(this);
    m_ttlTimer->setInterval(250);
}

// The page's own controls: filters, buttons, the view's scrolling and selection.
void KeysPage::connectControls()
{
    connect(m_visibleTimer, &QTimer::timeout, this, &KeysPage::updateVisible);
    connect(m_filterTimer, &QTimer::timeout, this, [this] { m_proxy->setText(m_filter->text()); });
    connect(m_ttlTimer, &QTimer::timeout, this, &KeysPage::repaintTtl);
    m_ttlTimer->start();
    connect(m_filter, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_pattern, &QLineEdit::returnPressed, this, &KeysPage::refresh);
    connect(m_onlyFlagged, &QCheckBox::toggled, m_proxy, &KeysFilterProxy::setOnlyFlagged);
    connect(m_cancel, &QPushButton::clicked, m_session, &KeysSession::cancel);
    connect(m_replicas, &QCheckBox::toggled, m_session, &KeysSession::setScanReplicas);
    connect(m_session, &KeysSession::nodesChanged, this, &KeysPage::updateCluster);
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
    connect(m_model, &KeysModel::countsChanged, this, &KeysPage::updateBanner);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &KeysPage::onCurrentChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &KeysPage::updateActions);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &KeysPage::onCurrentChanged);

    connect(m_treeToggle, &QPushButton::toggled, this, &KeysPage::setTreeShown);
    connect(m_tree, &KeysTree::keyActivated, this, &KeysPage::selectKey);
}

// The session's news.
void KeysPage::connectSession()
{
    connect(m_session, &KeysSession::busyChanged, this, &KeysPage::updateBusy);
    connect(m_session, &KeysSession::countTextChanged, this, &KeysPage::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &KeysPage::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &KeysPage::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &KeysPage::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &KeysPage::updateCount);
    connect(m_session->scanState(), &KeysScanState::changed, this, [this] {
        updateCount();
        updateBanner();
    });
    connect(m_session, &KeysSession::messageChanged, this,
            [this] { m_message->showMessage(m_session->message()); });
    connect(m_session, &KeysSession::scanFinished, this, [this](const ScanSummary &summary) {
        if (!m_columnsFitted && m_model->rowCount() > 0) {
            // Once a session, from the first rows; the key is fitKeyColumn's from now on.
            m_columnsFitted = true;
            fitRuleAndSubject(m_view, m_model);
        }
        updateVisible();
        bringFlaggedIntoView();
        if (m_tree->isVisible()) {
            m_tree->rebuild();
        }
        Q_EMIT scanFinished(summary);
    });
    connect(m_session, &KeysSession::selectedRefreshed, this,
            [this](const KeyInfo &k) { m_details->setKey(k, m_session->ruleOf(k)); });
    connect(m_session, &KeysSession::valueRead, m_details, &KeyDetails::setValue);
    connect(m_session, &KeysSession::healthChanged, this, &KeysPage::healthChanged);
    connect(m_session, &KeysSession::fixFinished, this, [this](const KeyFixer::Report &report) {
        m_reportBox->showMessage(KeysSession::describe(report));
        m_visibleTimer->start();
        Q_EMIT fixFinished(report);
    });
}

void KeysPage::updateCluster()
{
    if (!m_session->hasSession()) {
        m_columnsFitted = false; // the next session's first rows fit the key column again
    }
    const bool cluster = m_session->isCluster();
    m_view->setColumnHidden(KeysModel::NodeColumn, !cluster);
    m_replicas->setVisible(cluster);
    QStringList lines;
    if (!m_session->nodeScans().isEmpty()) {
        lines << m_session->nodesHeading();
    }
    for (const keys::NodeScan &n : m_session->nodeScans()) {
        lines << KeysSession::describeNode(n);
    }
    m_nodes->setText(lines.join(QLatin1Char('\n')));
    m_nodes->setVisible(cluster && !lines.isEmpty());
}

KeysPage::~KeysPage()
{
    // The session's worker stops (and is waited for) while the widgets it reports to exist,
    // and reports nothing more to them.
    disconnect(m_session, nullptr, this, nullptr);
    delete m_session;
}

void KeysPage::setConfirm(ConfirmHook confirm)
{
    m_confirm = std::move(confirm);
}

bool KeysPage::isScanning() const
{
    return m_session->isScanning();
}

bool KeysPage::isFixing() const
{
    return m_session->isFixing();
}

QString KeysPage::message() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

void KeysPage::updatePatternHint()
{
    m_pattern->setPlaceholderText(m_session->defaultPatterns());
}

void KeysPage::setRules(const RuleSet &rules)
{
    m_session->setPatterns(patterns());
    m_session->setRules(rules);
    updatePatternHint();
    updateBanner();
}

void KeysPage::refresh()
{
    m_session->setPatterns(patterns());
    m_session->refresh(); // the whole match, not capped as the live rescans are
}

void KeysPage::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
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

void KeysPage::updateBusy()
{
    const bool scanning = m_session->isScanning();
    const bool fixing = m_session->isFixing();
    m_progress->setVisible(scanning || fixing);
    m_cancel->setVisible(scanning || fixing);
    m_banner->setBusy(fixing);
    updateCluster();
    updateCount();
    if (fixing) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("fixing…"));
        m_reportBox->hide();
    } else if (scanning && m_session->scanFraction() < 0) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("starting…"));
    } else if (scanning) {
        const double f = m_session->scanFraction();
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(f * 1000));
        m_progress->setFormat(f > 0 ? tr("%1% of the keyspace").arg(int(f * 100))
                                    : tr("scanning…"));
    }
    updateBanner();
    updateActions();
}

void KeysPage::updateBanner()
{
    // The session's model of the last scan, as the badge and the status bar read it.
    const KeysScanState *state = m_session->scanState();
    m_banner->setSummary(state->health(), m_session->rules().has_value(), m_session->isScanning(),
                         state);
    m_banner->setVisible(m_session->hasSession() || m_model->rowCount() > 0);
}

KeysScanState *KeysPage::scanState() const
{
    return m_session->scanState();
}

void KeysPage::updateCount()
{
    const KeysScanState *state = m_session->scanState();
    QStringList parts;
    const qint64 all = m_model->rowCount();
    const qint64 shown = m_proxy->rowCount();
    if (m_session->isScanning()) {
        parts << m_session->countText();
        if (state->hasResult()) {
            parts << tr("last %1").arg(state->scanLine());
        }
    } else {
        if (shown != all) {
            parts << tr("%1 of %2 keys shown")
                         .arg(QLocale().toString(shown), QLocale().toString(all));
        }
        parts << state->scanLine();
        if (state->hasResult()) {
            parts << (state->interval() > 0 ? tr("rescans every %1 s").arg(state->interval() / 1000)
                                            : tr("automatic rescans off (F5 scans again)"));
        }
    }
    parts.removeAll(QString());
    const QString text = parts.join(QStringLiteral(" · "));
    m_count->setText(text);
    m_count->setToolTip(text);
}

void KeysPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_session->pageShown(); // current whenever it is looked at
}

void KeysPage::setTreeShown(bool tree)
{
    if (m_treeToggle->isChecked() != tree) {
        m_treeToggle->setChecked(tree); // comes back here
        return;
    }
    m_views->setCurrentWidget(tree ? static_cast<QWidget *>(m_tree) : m_view);
}

bool KeysPage::isTreeShown() const
{
    return m_views->currentWidget() == m_tree;
}

void KeysPage::selectKey(const QByteArray &key)
{
    const int row = m_model->rowOfKey(key);
    if (row < 0) {
        return;
    }
    const QModelIndex i = m_proxy->mapFromSource(m_model->index(row, 0));
    if (i.isValid()) {
        m_view->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
        m_view->scrollTo(i);
    } else {
        // Filtered out of the table: the details show it all the same.
        const KeyInfo &k = m_model->info(row);
        m_details->setKey(k, m_session->ruleOf(k));
        m_session->setSelectedKey(k.key);
    }
}

} // namespace sluice::ui
