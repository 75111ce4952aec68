#include "monitorpage.h"

#include "core/rules/rulestore.h"

#include "ui/common/confirm.h"

#include "foreignwatchpanel.h"
#include "limitedmodel.h"
#include "monitorsession.h"
#include "rulechart.h"
#include "topsubjectsmodel.h"

#include "ui/common/elidedlabel.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"
#include "ui/common/theme.h"

#include "core/common/bytes.h"
#include "core/common/duration.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace sluice::ui {

MonitorPage::MonitorPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("monitorPage"));

    auto *root = PageHeader::pageLayout(this);
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

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("monitorSplitter"));
    split->setChildrenCollapsible(false);
    root->addWidget(split, 1);

    // Top: the range, then the small multiples, two a row.
    auto *top = new QWidget(split);
    auto *topBox = PageHeader::layoutOn<QVBoxLayout>(top, 6);
    auto *rangeRow = new QHBoxLayout;
    rangeRow->setSpacing(8);
    auto *rangeLabel = new QLabel(tr("&Range:"), top);
    m_range = new QComboBox(top);
    m_range->setObjectName(QStringLiteral("rangeCombo"));
    m_range->addItem(tr("auto"), 0);
    m_range->setItemData(0,
                         tr("The shortest range that holds every decision recorded since the "
                            "console connected"),
                         Qt::ToolTipRole);
    for (int seconds : MonitorSession::ranges()) {
        m_range->addItem(MonitorSession::rangeText(seconds), seconds);
    }
    m_range->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rangeLabel->setBuddy(m_range);
    m_rangeNote = PageHeader::note(top);
    m_rangeNote->setObjectName(QStringLiteral("rangeNote"));
    m_rangeNote->setWordWrap(true);
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
    split->addWidget(top);

    // Bottom: limited subjects | top subjects.
    auto *bottom = new QWidget(split);
    auto *bottomBox = PageHeader::layoutOn<QHBoxLayout>(bottom, 24, {0, 8, 0, 0});

    auto *limitedPane = new QVBoxLayout;
    limitedPane->setSpacing(6);
    auto *limitedTitle = new QHBoxLayout;
    m_limitedHeading = PageHeader::heading(tr("Limited right now"), 1.0, bottom);
    m_limitedHeading->setObjectName(QStringLiteral("limitedHeading"));
    limitedTitle->addWidget(m_limitedHeading);
    limitedTitle->addStretch(1);
    m_unblock =
        PageHeader::button(tr("&Unblock…"), QStringLiteral("unblockButton"), bottom,
                           tr("Delete the selected subject's limiter state: its next request "
                              "is admitted as if it had never been seen"));
    m_unblock->setEnabled(false);
    m_allow = PageHeader::button(tr("&Allow for 1 h…"), QStringLiteral("allowButton"), bottom,
                                 tr("Store an override in Redis: the rule does not limit the "
                                    "selected subjects for the next hour"));
    m_allow->setEnabled(false);
    m_block = PageHeader::button(tr("&Block…"), QStringLiteral("blockButton"), bottom,
                                 tr("Store an override in Redis: every request of the selected "
                                    "subjects is denied for a time you choose"));
    m_block->setEnabled(false);
    limitedTitle->addWidget(m_allow);
    limitedTitle->addWidget(m_block);
    limitedTitle->addWidget(m_unblock);
    limitedPane->addLayout(limitedTitle);
    m_limited = new LimitedModel(this);
    m_limitedView = makeTableView(QStringLiteral("limitedTable"), m_limited, bottom);
    m_limitedView->setTextElideMode(Qt::ElideMiddle);
    // Allow and Block act on every selected subject; Unblock on one.
    m_limitedView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    QHeaderView *lh = m_limitedView->horizontalHeader();
    lh->setSectionResizeMode(LimitedModel::RuleColumn, QHeaderView::ResizeToContents);
    // Subjects of adopted keys are long (what the glob's * covers): the subject and the state
    // share the width that is left.
    lh->setSectionResizeMode(LimitedModel::SubjectColumn, QHeaderView::Stretch);
    lh->setSectionResizeMode(LimitedModel::TimeLeftColumn, QHeaderView::ResizeToContents);
    lh->setSectionResizeMode(LimitedModel::StateColumn, QHeaderView::Stretch);
    limitedPane->addWidget(m_limitedView, 1);
    m_limitedNote = PageHeader::note(bottom);
    m_limitedNote->setObjectName(QStringLiteral("limitedNote"));
    limitedPane->addWidget(m_limitedNote);
    bottomBox->addLayout(limitedPane, 3);

    auto *topPane = new QVBoxLayout;
    topPane->setSpacing(6);
    auto *topTitle = new QHBoxLayout;
    topTitle->addWidget(PageHeader::heading(tr("Top subjects, last 15 min"), 1.0, bottom));
    topTitle->addStretch(1);
    auto *ruleLabel = new QLabel(tr("R&ule:"), bottom);
    m_topRule = new QComboBox(bottom);
    m_topRule->setObjectName(QStringLiteral("topRuleCombo"));
    m_topRule->setMinimumContentsLength(12);
    m_topRule->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    ruleLabel->setBuddy(m_topRule);
    topTitle->addWidget(ruleLabel);
    topTitle->addWidget(m_topRule);
    topPane->addLayout(topTitle);
    m_top = new TopSubjectsModel(this);
    m_topView = makeTableView(QStringLiteral("topTable"), m_top, bottom);
    m_topView->setTextElideMode(Qt::ElideMiddle);
    QHeaderView *th = m_topView->horizontalHeader();
    th->setSectionResizeMode(TopSubjectsModel::SubjectColumn, QHeaderView::Stretch);
    for (int c = TopSubjectsModel::RequestsColumn; c < TopSubjectsModel::ColumnCount; ++c) {
        th->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    topPane->addWidget(m_topView, 1);
    m_topNote = PageHeader::note(bottom);
    m_topNote->setObjectName(QStringLiteral("topNote"));
    m_topNote->setWordWrap(true);
    topPane->addWidget(m_topNote);
    bottomBox->addLayout(topPane, 2);
    split->addWidget(bottom);
    // Below: the limiters Sluice does not run, from their keys (foreignwatchpanel.h).
    m_foreign = new ForeignWatchPanel(connection, 2000, split);
    m_foreign->setMinimumHeight(120);
    split->addWidget(m_foreign);
    // One row of charts stays whole at the first-start size (1100x700), more rows scroll; the
    // tables take the rest.
    m_chartArea->setMinimumHeight(RuleChart::minimumChartHeight + 4);
    bottom->setMinimumHeight(170);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 1);
    split->setSizes({470, 230, 150});

    m_session = new MonitorSession(connection, this);
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

    rebuildCharts();
    rebuildTopCombo();
    onLimitedChanged();
    onTopChanged();
    updateStatus();
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
            if (m_largeChart && m_largeChart->ruleId() == series.ruleId) {
                m_largeChart->setSeries(series, shown);
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

void MonitorPage::openLarge(const QString &ruleId)
{
    const Rule *rule = m_session->rules().find(ruleId);
    if (!rule) {
        return;
    }
    if (!m_largeDialog) {
        m_largeDialog = new QDialog(this);
        m_largeDialog->setObjectName(QStringLiteral("chartDialog"));
        m_largeDialog->setAttribute(Qt::WA_DeleteOnClose);
        auto *box = new QVBoxLayout(m_largeDialog);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_largeDialog);
        connect(buttons, &QDialogButtonBox::rejected, m_largeDialog, &QDialog::reject);
        box->addWidget(buttons);
        connect(m_largeDialog, &QObject::destroyed, this, [this] {
            m_largeDialog = nullptr;
            m_largeChart = nullptr;
        });
    }
    delete m_largeChart;
    m_largeChart = new RuleChart(*rule, m_largeDialog);
    m_largeChart->setObjectName(QStringLiteral("largeChart"));
    m_largeChart->setLegendShown(true);
    static_cast<QVBoxLayout *>(m_largeDialog->layout())->insertWidget(0, m_largeChart, 1);
    m_largeDialog->setWindowTitle(tr("Monitor: %1").arg(ruleId));
    for (const stats::RuleSeries &series : m_session->snapshot().series) {
        if (series.ruleId == ruleId) {
            m_largeChart->setSeries(series, m_session->shownSeconds());
        }
    }
    // Most of the window, never more than the screen.
    const QSize avail = window()->size();
    m_largeDialog->resize(std::max(640, avail.width() * 4 / 5),
                          std::max(420, avail.height() * 3 / 4));
    m_largeDialog->show();
    m_largeDialog->raise();
}

void MonitorPage::onLimitedChanged()
{
    // Keep the selection across the swap: the user may be about to press Unblock.
    QList<QByteArray> selected;
    for (const QModelIndex &i : m_limitedView->selectionModel()->selectedRows()) {
        selected << i.data(LimitedModel::KeyRole).toByteArray();
    }
    m_limited->setRows(m_session->snapshot().limited);
    QItemSelection again;
    for (const QByteArray &key : std::as_const(selected)) {
        const int row = m_limited->rowOf(key);
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
    const Tone t = m_session->statusTone();
    const QColor color = t == Tone::Info ? tone::muted() : tone::text(t);
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText, color);
    m_status->setPalette(pal);
    m_status->setText(m_session->statusText());
}

void MonitorPage::updateLimitedHeading()
{
    m_limitedHeading->setText(m_session->limitedHeading());
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

QList<LimitedSubject> MonitorPage::selectedRows() const
{
    QList<LimitedSubject> out;
    for (const QModelIndex &i : m_limitedView->selectionModel()->selectedRows()) {
        const LimitedSubject r = m_limited->rows().value(i.row());
        if (r.adoptedAs.isEmpty() && !r.subject.isEmpty()) {
            out << r;
        }
    }
    return out;
}

namespace {

QList<OverrideTarget> targetsOf(const QList<LimitedSubject> &rows)
{
    QList<OverrideTarget> out;
    for (const LimitedSubject &r : rows) {
        const OverrideTarget t{r.ruleId, r.subject};
        if (!out.contains(t)) {
            out << t;
        }
    }
    return out;
}

} // namespace

void MonitorPage::allowSelected()
{
    const QList<OverrideTarget> targets = targetsOf(selectedRows());
    if (targets.isEmpty()) {
        return;
    }
    askToConfirm(this, m_confirmHook, tr("Allow for one hour"),
                 MonitorSession::allowQuestion(targets), tr("Allow for 1 h"), [this, targets] {
                     m_session->storeOverrides(targets, Override::Action::Allow,
                                               MonitorSession::allowTtlUs);
                 });
}

void MonitorPage::blockSelected()
{
    const QList<OverrideTarget> targets = targetsOf(selectedRows());
    if (targets.isEmpty() || m_blockDialog) {
        return;
    }
    auto *d = new QDialog(this);
    m_blockDialog = d;
    d->setObjectName(QStringLiteral("blockDialog"));
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->setWindowTitle(tr("Block"));
    connect(d, &QObject::destroyed, this, [this] { m_blockDialog = nullptr; });
    auto *box = new QVBoxLayout(d);
    QStringList who;
    for (const OverrideTarget &t : targets.mid(0, 5)) {
        who << tr("%1 on rule %2").arg(bytes::printable(t.subject), t.ruleId);
    }
    if (targets.size() > 5) {
        who << tr("and %n more", nullptr, int(targets.size() - 5));
    }
    auto *what = new QLabel(tr("Deny every request of %1 for the time below: an override "
                               "stored in Redis, which the rule's key does not change and which "
                               "ends by itself.")
                                .arg(who.join(QStringLiteral(", "))),
                            d);
    what->setWordWrap(true);
    what->setMinimumWidth(420);
    box->addWidget(what);
    auto *form = new QFormLayout;
    auto *duration = new QLineEdit(duration::formatUs(MonitorSession::defaultBlockUs), d);
    duration->setObjectName(QStringLiteral("blockDurationEdit"));
    duration->setPlaceholderText(tr("e.g. 30m, 1h, 1d"));
    auto *note = new QLineEdit(d);
    note->setObjectName(QStringLiteral("blockNoteEdit"));
    note->setPlaceholderText(tr("why, for the next on-call (optional)"));
    form->addRow(tr("Block &for:"), duration);
    form->addRow(tr("&Note:"), note);
    box->addLayout(form);
    auto *error = PageHeader::note(d, tone::text(Tone::Bad));
    error->setObjectName(QStringLiteral("blockDurationError"));
    error->setWordWrap(true);
    box->addWidget(error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, d);
    QPushButton *ok = buttons->addButton(tr("Block"), QDialogButtonBox::AcceptRole);
    ok->setObjectName(QStringLiteral("blockConfirmButton"));
    box->addWidget(buttons);
    // At most 30 days: a block is a stop-gap, not a rule; a longer one belongs in the rule file.
    constexpr qint64 longest = 30LL * 24 * 3600 * 1'000'000;
    const auto check = [duration, error, ok] {
        auto us = duration::parseUs(duration->text().trimmed());
        QString why;
        if (!us) {
            why = us.error().message;
        } else if (*us < 1'000'000 || *us > longest) {
            why = tr("Give a time between 1s and 30d.");
        }
        error->setText(why);
        error->setVisible(!why.isEmpty());
        ok->setEnabled(why.isEmpty());
    };
    connect(duration, &QLineEdit::textChanged, d, check);
    check();
    connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, d, [this, d, duration, note, targets] {
        auto us = duration::parseUs(duration->text().trimmed());
        if (!us) {
            return;
        }
        m_session->storeOverrides(targets, Override::Action::Deny, *us, note->text().trimmed());
        d->accept();
    });
    d->open();
}

void MonitorPage::onOverridden(const QList<OverrideResult> &results)
{
    const MonitorSession::Outcome o = MonitorSession::describeOverrides(results);
    m_banner->showRich(o.tone, o.text);
    updateUnblockButton();
    Q_EMIT overrideFinished(results);
}

void MonitorPage::unblockSelected()
{
    const QModelIndexList sel = m_limitedView->selectionModel()->selectedRows();
    if (sel.size() != 1) {
        return;
    }
    const LimitedSubject r = m_limited->rows().value(sel.first().row());
    askToConfirm(
        this, m_confirmHook, tr("Unblock a subject"), MonitorSession::unblockQuestion(r),
        tr("Unblock"), [this, key = r.key] { m_session->unblock(key); },
        QMessageBox::DestructiveRole);
}

void MonitorPage::onUnblocked(const QByteArray &key, bool existed, const QString &error)
{
    const MonitorSession::Outcome o = MonitorSession::describeUnblock(key, existed, error);
    m_banner->showRich(o.tone, o.text);
    updateUnblockButton();
    Q_EMIT unblockFinished(key, error);
}

} // namespace sluice::ui
