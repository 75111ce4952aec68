#include "monitorpage.h"

#include "core/rules/rulestore.h"

#include "ui/common/confirm.h"

#include "foreignwatchpanel.h"
#include "limitedmodel.h"
#include "monitorsession.h"
#include "rulechart.h"
#include "rulechartdialog.h"
#include "topsubjectsmodel.h"

#include "ui/common/elidedlabel.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"
#include "ui/common/theme.h"

#include <QComboBox>
#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

// The note under a table: one line, a longer text ends in "…" (its whole text in the tooltip).
ElidedLabel *tableNote(const QString &objectName, QWidget *parent)
{
    auto *note = new ElidedLabel(parent);
    PageHeader::styleNote(note);
    note->setObjectName(objectName);
    return note;
}

} // namespace

MonitorPage::MonitorPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_session(new MonitorSession(connection, this))
{
    setObjectName(QStringLiteral("monitorPage"));
    auto *root = PageHeader::pageLayout(this);
    buildHeader(root);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("monitorSplitter"));
    split->setChildrenCollapsible(false);
    root->addWidget(split, 1);
    split->addWidget(buildCharts(split));
    auto *bottom = new QWidget(split);
    auto *bottomBox = PageHeader::layoutOn<QHBoxLayout>(bottom, 24, {0, 8, 0, 0});
    bottomBox->addLayout(buildLimited(bottom), 3);
    // Beside it, one tab each: the busiest subjects of Sluice's rules, and the limiters Sluice
    // does not run, from their keys (foreignwatchpanel.h; read only while its tab shows). Tabs,
    // not a third pane: at 1100x700 the charts and eight rows of the list fill the height.
    auto *side = new QTabWidget(bottom);
    side->setObjectName(QStringLiteral("monitorSideTabs"));
    side->setDocumentMode(true);
    auto *topTab = new QWidget(side);
    auto *topBox = buildTop(topTab);
    topBox->setContentsMargins(0, 6, 0, 0);
    topTab->setLayout(topBox);
    side->addTab(topTab, tr("Top subjects"));
    m_foreign = new ForeignWatchPanel(connection, 2000, side);
    side->addTab(m_foreign, ForeignWatchPanel::tr("Other limiters"));
    bottomBox->addWidget(side, 2);
    split->addWidget(bottom);
    // One row of charts stays whole at the first-start size (1100x700), more rows scroll; the
    // lists take the rest: at 1100x700 "Limited right now" shows eight rows and more.
    m_chartArea->setMinimumHeight(RuleChart::minimumChartHeight + 4);
    bottom->setMinimumHeight(280);
    // A taller window gives most of its height to the charts (five show at 1920x1080).
    PageHeader::shareSplit(split, 3, 1, {600, 300});
    connectSession();
    rebuildCharts();
    rebuildTopCombo();
    onLimitedChanged();
    onTopChanged();
    updateStatus();
}

void MonitorPage::buildHeader(QVBoxLayout *root)
{
    auto *header =
        new PageHeader(tr("Monitor"),
                       tr("Decisions per second per rule, as recorded in Redis by every console, "
                          "CLI and service using it; the subjects limited right now; the busiest "
                          "subjects. Point at a chart for its values, click it to open it large."),
                       this);
    // One line beside the actions that never widens the window: a long "Not updating (why)"
    // ends in "…" with the whole text in its tooltip.
    m_status = new ElidedLabel(this);
    m_status->setObjectName(QStringLiteral("monitorStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    header->addAction(m_status);
    root->addWidget(header);
    m_banner = new MessageBanner(QStringLiteral("messageFrame"), QStringLiteral("message"), this);
    m_banner->setDismissible(QStringLiteral("dismissMessageButton"));
    root->addWidget(m_banner);
    root->addSpacing(6);
}

// The range, then the small multiples, two a row.
QWidget *MonitorPage::buildCharts(QWidget *parent)
{
    auto *top = new QWidget(parent);
    auto *topBox = PageHeader::layoutOn<QVBoxLayout>(top, 6);
    auto *rangeRow = new QHBoxLayout;
    rangeRow->setSpacing(8);
    auto *rangeLabel = new QLabel(tr("&Range:"), top);
    m_range = new QComboBox(top);
    m_range->setObjectName(QStringLiteral("rangeCombo"));
    m_range->addItem(tr("auto"), 0);
    m_range->setItemData(0, tr("The shortest range that holds the latest burst of decisions"),
                         Qt::ToolTipRole);
    for (int seconds : MonitorSession::ranges()) {
        m_range->addItem(MonitorSession::rangeText(seconds), seconds);
    }
    m_range->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rangeLabel->setBuddy(m_range);
    m_rangeNote = PageHeader::note(top);
    m_rangeNote->setObjectName(QStringLiteral("rangeNote"));
    rangeRow->addWidget(rangeLabel);
    rangeRow->addWidget(m_range);
    rangeRow->addSpacing(6);
    rangeRow->addWidget(m_rangeNote, 1);
    topBox->addLayout(rangeRow);
    m_chartArea = new QScrollArea(top);
    m_chartArea->setObjectName(QStringLiteral("chartArea"));
    m_chartArea->setWidgetResizable(true);
    m_chartArea->setFrameShape(QFrame::NoFrame);
    m_chartArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_chartBox = new QWidget(m_chartArea);
    auto *chartOuter = new QVBoxLayout(m_chartBox);
    chartOuter->setContentsMargins(0, 0, 0, 0);
    m_noRules = PageHeader::note(m_chartBox);
    m_noRules->setObjectName(QStringLiteral("noRulesNote"));
    m_noRules->setText(tr("No rules yet. The charts show the rules of the Rules page; load or "
                          "pull a rule set there."));
    chartOuter->addWidget(m_noRules);
    m_chartGrid = new QGridLayout;
    m_chartGrid->setSpacing(10);
    m_chartGrid->setColumnStretch(0, 1);
    m_chartGrid->setColumnStretch(1, 1);
    chartOuter->addLayout(m_chartGrid, 1);
    m_chartArea->setWidget(m_chartBox);
    topBox->addWidget(m_chartArea, 1);
    return top;
}

// "Limited right now": its actions, the list, one line of notes (the whole in its tooltip).
QVBoxLayout *MonitorPage::buildLimited(QWidget *parent)
{
    auto *pane = new QVBoxLayout;
    pane->setSpacing(6);
    auto *title = new QHBoxLayout;
    m_limitedHeading = new ElidedLabel(parent);
    PageHeader::styleHeading(m_limitedHeading, 1.0);
    m_limitedHeading->setObjectName(QStringLiteral("limitedHeading"));
    title->addWidget(m_limitedHeading, 1);
    m_unblock =
        PageHeader::button(tr("&Unblock…"), QStringLiteral("unblockButton"), parent,
                           tr("Delete the selected subject's limiter state: its next request "
                              "is admitted as if it had never been seen"));
    m_allow = PageHeader::button(tr("&Allow for 1 h…"), QStringLiteral("allowButton"), parent,
                                 tr("Store an override in Redis: the rule does not limit the "
                                    "selected subjects for the next hour"));
    m_block = PageHeader::button(tr("&Block…"), QStringLiteral("blockButton"), parent,
                                 tr("Store an override in Redis: every request of the selected "
                                    "subjects is denied for a time you choose"));
    for (QPushButton *b : {m_allow, m_block, m_unblock}) {
        b->setEnabled(false);
        title->addWidget(b);
    }
    pane->addLayout(title);
    m_limited = new LimitedModel(this);
    m_limitedView =
        makeTableView(QStringLiteral("limitedTable"), m_limited, parent, Qt::ElideMiddle);
    // Allow and Block act on every selected subject; Unblock on one.
    m_limitedView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // The order holds while the pointer is on the list (eventFilter).
    m_limitedView->installEventFilter(this);
    // Subjects of adopted keys are long (what the glob's * covers): the subject keeps its
    // width, the state gives way first; every cell's whole text is in its tooltip.
    fitColumnsToView(m_limitedView, LimitedModel::StateColumn, {},
                     {LimitedModel::SubjectColumn, LimitedModel::RuleColumn});
    pane->addWidget(m_limitedView, 1);
    m_limitedNote = tableNote(QStringLiteral("limitedNote"), parent);
    pane->addWidget(m_limitedNote);
    return pane;
}

// The busiest subjects of one rule, or of the busiest rule.
QVBoxLayout *MonitorPage::buildTop(QWidget *parent)
{
    auto *pane = new QVBoxLayout;
    pane->setSpacing(6);
    auto *title = new QHBoxLayout;
    title->addWidget(PageHeader::heading(tr("Top subjects, last 15 min"), 1.0, parent));
    title->addStretch(1);
    auto *ruleLabel = new QLabel(tr("R&ule:"), parent);
    m_topRule = new QComboBox(parent);
    m_topRule->setObjectName(QStringLiteral("topRuleCombo"));
    m_topRule->setMinimumContentsLength(12);
    m_topRule->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    ruleLabel->setBuddy(m_topRule);
    title->addWidget(ruleLabel);
    title->addWidget(m_topRule);
    pane->addLayout(title);
    m_top = new TopSubjectsModel(this);
    m_topView = makeTableView(QStringLiteral("topTable"), m_top, parent, Qt::ElideMiddle);
    QHeaderView *th = m_topView->horizontalHeader();
    th->setSectionResizeMode(TopSubjectsModel::SubjectColumn, QHeaderView::Stretch);
    for (int c = TopSubjectsModel::RequestsColumn; c < TopSubjectsModel::ColumnCount; ++c) {
        th->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    pane->addWidget(m_topView, 1);
    m_topNote = tableNote(QStringLiteral("topNote"), parent);
    pane->addWidget(m_topNote);
    return pane;
}

void MonitorPage::connectSession()
{
    m_session->setPageVisible(false); // until shown
    connect(m_session, &MonitorSession::updated, this, &MonitorPage::onUpdated);
    connect(m_session, &MonitorSession::limitedChanged, this, &MonitorPage::onLimitedChanged);
    connect(m_session, &MonitorSession::topChanged, this, &MonitorPage::onTopChanged);
    connect(m_session, &MonitorSession::statusChanged, this, &MonitorPage::updateStatus);
    connect(m_session, &MonitorSession::unblockingChanged, this, &MonitorPage::updateUnblockButton);
    connect(m_session, &MonitorSession::unblockFinished, this, &MonitorPage::onUnblocked);
    connect(m_session, &MonitorSession::overridingChanged, this, &MonitorPage::updateUnblockButton);
    connect(m_session, &MonitorSession::overrideFinished, this, &MonitorPage::onOverridden);
    connect(m_allow, &QPushButton::clicked, this, &MonitorPage::allowSelected);
    connect(m_block, &QPushButton::clicked, this, &MonitorPage::blockSelected);
    connect(m_unblock, &QPushButton::clicked, this, &MonitorPage::unblockSelected);
    connect(m_limitedView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MonitorPage::updateUnblockButton);
    connect(m_limited, &QAbstractItemModel::modelReset, this, &MonitorPage::updateUnblockButton);
    connect(m_topRule, &QComboBox::currentIndexChanged, this,
            [this] { m_session->setTopRule(m_topRule->currentData().toString()); });
    connect(m_range, &QComboBox::currentIndexChanged, this,
            [this] { m_session->setRange(m_range->currentData().toInt()); });
    connect(m_session, &MonitorSession::rangeChanged, this, &MonitorPage::onUpdated);
    connect(&Theme::instance(), &Theme::changed, this, &MonitorPage::updateStatus);
}

MonitorPage::~MonitorPage() = default;

void MonitorPage::showEvent(QShowEvent *event)
{
    m_session->setPageVisible(true);
    QWidget::showEvent(event);
}

void MonitorPage::hideEvent(QHideEvent *event)
{
    m_session->setPageVisible(false);
    QWidget::hideEvent(event);
}

const RuleSet &MonitorPage::rules() const
{
    return m_session->rules();
}

const MonitorSnapshot &MonitorPage::snapshot() const
{
    return m_session->snapshot();
}

void MonitorPage::setConfirmHook(ConfirmHook hook)
{
    m_confirmHook = std::move(hook);
}

void MonitorPage::setRules(const RuleSet &rules)
{
    m_foreign->setRules(rules);
    m_session->setRules(rules);
    rebuildCharts();
    rebuildTopCombo();
}

void MonitorPage::refresh()
{
    m_session->refresh();
}

void MonitorPage::rebuildTopCombo()
{
    const QSignalBlocker block(m_topRule);
    m_topRule->clear();
    if (!m_session->rules().rules.empty()) {
        m_topRule->addItem(m_session->busiestLabel(), MonitorSnapshot::busiestRule);
        m_topRule->setItemData(0, tr("The rule with the most requests in the last 15 minutes"),
                               Qt::ToolTipRole);
    }
    for (const Rule &r : m_session->rules().rules) {
        m_topRule->addItem(r.id, r.id);
    }
    m_topRule->setCurrentIndex(m_topRule->findData(m_session->topRule()));
}

void MonitorPage::onUpdated()
{
    const MonitorSnapshot &s = m_session->snapshot();
    if (s.readAtMs > 0) {
        const int shown = m_session->shownSeconds();
        for (const stats::RuleSeries &series : s.series) {
            if (RuleChart *c = m_charts.value(series.ruleId)) {
                c->setSeries(series, shown);
            }
            if (m_largeDialog) {
                m_largeDialog->setSeries(series, shown);
            }
        }
    }
    updateRange();
    // The notes read the last scan and the series together.
    updateLimitedHeading();
    Q_EMIT updated();
}

void MonitorPage::updateRange()
{
    if (m_range->count() > 0) {
        m_range->setItemText(
            0, m_session->range() == 0 && m_session->snapshot().readAtMs > 0
                   ? tr("auto (%1)").arg(MonitorSession::rangeText(m_session->shownSeconds()))
                   : tr("auto"));
    }
    const QString note = m_session->rangeNote();
    m_rangeNote->setText(note);
    m_rangeNote->setToolTip(note);
}

RuleChart *MonitorPage::largeChart() const
{
    return m_largeDialog ? m_largeDialog->chart() : nullptr;
}

void MonitorPage::openLarge(const QString &ruleId)
{
    const Rule *rule = m_session->rules().find(ruleId);
    if (!rule) {
        return;
    }
    if (!m_largeDialog) {
        m_largeDialog = new RuleChartDialog(this);
        connect(m_largeDialog, &QObject::destroyed, this, [this] { m_largeDialog = nullptr; });
    }
    m_largeDialog->showRule(*rule);
    for (const stats::RuleSeries &series : m_session->snapshot().series) {
        m_largeDialog->setSeries(series, m_session->shownSeconds());
    }
}

bool MonitorPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_limitedView) {
        if (event->type() == QEvent::Enter) {
            m_limitedHeld = true;
        } else if (event->type() == QEvent::Leave) {
            m_limitedHeld = false;
            if (m_limitedPending) {
                onLimitedChanged();
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void MonitorPage::onLimitedChanged()
{
    m_limited->setStale(m_session->isLimitedStale());
    // While the pointer is on the list its rows stay where they are: a click, a Block or an
    // Unblock aims at the subject under the pointer, never at one that moved there.
    if (m_limitedHeld && m_limited->rowCount() > 0) {
        m_limitedPending = true;
        updateLimitedHeading();
        return;
    }
    m_limitedPending = false;
    // Keep the selection across the swap, by subject: the user may be about to press Block.
    QList<std::pair<QString, QByteArray>> selected;
    for (const QModelIndex &i : m_limitedView->selectionModel()->selectedRows()) {
        const LimitedSubject &r = m_limited->rows().at(i.row());
        selected.append({r.ruleId, r.subject});
    }
    m_limited->setRows(m_session->snapshot().limited);
    QItemSelection again;
    for (const auto &[ruleId, subject] : std::as_const(selected)) {
        const int row = m_limited->rowOf(ruleId, subject);
        if (row >= 0) {
            again.select(m_limited->index(row, 0),
                         m_limited->index(row, LimitedModel::ColumnCount - 1));
        }
    }
    if (!again.isEmpty()) {
        m_limitedView->selectionModel()->select(again, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
    }
    updateLimitedHeading();
}

void MonitorPage::onTopChanged()
{
    m_top->setRows(m_session->topSubjects());
    if (m_topRule->count() > 0 &&
        m_topRule->itemData(0).toString() == MonitorSnapshot::busiestRule) {
        m_topRule->setItemText(0, m_session->busiestLabel());
    }
    updateLimitedHeading();
}

void MonitorPage::rebuildCharts()
{
    // Reuse the charts of rules still there (their points stay until the next read).
    const RuleSet &rules = m_session->rules();
    QHash<QString, RuleChart *> old = std::move(m_charts);
    m_charts.clear();
    while (m_chartGrid->count()) {
        delete m_chartGrid->takeAt(0);
    }
    // A staged change's candidates sit beside the rule they would replace, on its row (the
    // enforced denials on the left, what the candidate would deny on the right); a rule only the
    // candidate has comes after the others.
    std::vector<const Rule *> order;
    std::vector<bool> pairStart;
    for (const Rule &r : rules.rules) {
        const Rule *candidate = nullptr;
        for (const Rule &s : rules.staged) {
            candidate = rules::RuleStore::stagedOf(s.id) == r.id ? &s : candidate;
        }
        order.push_back(&r);
        pairStart.push_back(candidate != nullptr);
        if (candidate) {
            order.push_back(candidate);
            pairStart.push_back(false);
        }
    }
    for (const Rule &s : rules.staged) {
        if (!rules.find(rules::RuleStore::stagedOf(s.id))) {
            order.push_back(&s);
            pairStart.push_back(false);
        }
    }
    int i = 0;
    for (size_t k = 0; k < order.size(); ++k) {
        const Rule &r = *order[k];
        if (pairStart[k] && i % 2 == 1) {
            ++i; // the pair starts a row
        }
        RuleChart *c = old.take(r.id);
        if (!c) {
            c = new RuleChart(r, m_chartBox);
            connect(c, &RuleChart::clicked, this, &MonitorPage::openLarge);
        } else {
            c->setRule(r);
        }
        m_charts.insert(r.id, c);
        // One rule gets the whole width; an odd last one keeps half so that all charts match.
        m_chartGrid->addWidget(c, i / 2, i % 2, 1, order.size() == 1 ? 2 : 1);
        ++i;
    }
    for (RuleChart *c : std::as_const(old)) {
        delete c;
    }
    m_noRules->setVisible(rules.rules.empty());
    const int rows = (i + 1) / 2;
    m_chartBox->setMinimumHeight(rows > 0 ? rows * RuleChart::minimumChartHeight + (rows - 1) * 10
                                          : 0);
}

void MonitorPage::updateStatus()
{
    const PageMessage status = m_session->status();
    const QColor color = status.tone == Tone::Info ? tone::muted() : tone::text(status.tone);
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText, color);
    m_status->setPalette(pal);
    m_status->setText(status.headline);
}

void MonitorPage::updateLimitedHeading()
{
    m_limitedHeading->setText(
        m_limitedPending ? tr("%1 · held while you point at it").arg(m_session->limitedHeading())
                         : m_session->limitedHeading());
    m_limitedNote->setText(m_session->limitedNote());
    const QString topNote = m_session->topNote();
    m_topNote->setText(topNote);
    m_topNote->setVisible(!topNote.isEmpty());
}

void MonitorPage::updateUnblockButton()
{
    const QModelIndexList sel = m_limitedView->selectionModel()->selectedRows();
    // A subject an override denies is blocked whatever its key holds: deleting the key would
    // not unblock it (Allow replaces the override; the Rules page removes it).
    const bool byOverride =
        sel.size() == 1 &&
        m_limited->rows().value(sel.first().row()).overrideAction == Override::Action::Deny;
    m_unblock->setEnabled(!m_session->isUnblocking() && sel.size() == 1 && !byOverride);
    m_unblock->setToolTip(
        byOverride ? tr("An override blocks this subject: deleting its key would not unblock it. "
                        "Allow it, or remove the override on the Rules page")
                   : tr("Delete the selected subject's limiter state: its next request is "
                        "admitted as if it had never been seen"));
    const bool any = !selectedRows().isEmpty() && !m_session->isOverriding();
    m_allow->setEnabled(any);
    m_block->setEnabled(any);
}

} // namespace sluice::ui
