#include "monitorpage.h"

#include "ui/common/confirm.h"

#include "limitedmodel.h"
#include "monitorworker.h"
#include "rulechart.h"
#include "topsubjectsmodel.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"

#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"

#include <QComboBox>
#include <QDateTime>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include <climits>

namespace sluice::ui {

namespace {

QTableView *table(const QString &name, QWidget *parent)
{
    auto *v = new QTableView(parent);
    v->setObjectName(name);
    v->setSelectionBehavior(QAbstractItemView::SelectRows);
    v->setSelectionMode(QAbstractItemView::SingleSelection);
    v->setAlternatingRowColors(true);
    v->setShowGrid(false);
    v->setWordWrap(false);
    v->setTextElideMode(Qt::ElideMiddle);
    v->verticalHeader()->hide();
    v->verticalHeader()->setDefaultSectionSize(24);
    v->horizontalHeader()->setHighlightSections(false);
    v->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return v;
}

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

MonitorPage::MonitorPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
{
    setObjectName(QStringLiteral("monitorPage"));
    qRegisterMetaType<MonitorSnapshot>();

    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(24, 20, 24, 20);
    root->setSpacing(6);
    auto *header =
        new PageHeader(tr("Monitor"),
                       tr("Decisions per second per rule over the last 15 minutes, as recorded in "
                          "Redis by every console, CLI and service using it; the subjects limited "
                          "right now; the busiest subjects."),
                       this);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("monitorStatus"));
    m_status->setTextFormat(Qt::RichText);
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

    // Top: the small multiples, two a row.
    m_chartArea = new QScrollArea(split);
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
    split->addWidget(m_chartArea);

    // Bottom: limited subjects | top subjects.
    auto *bottom = new QWidget(split);
    auto *bottomBox = new QHBoxLayout(bottom);
    bottomBox->setContentsMargins(0, 8, 0, 0);
    bottomBox->setSpacing(24);

    auto *limitedPane = new QVBoxLayout;
    limitedPane->setSpacing(6);
    auto *limitedTitle = new QHBoxLayout;
    m_limitedHeading = PageHeader::heading(tr("Limited right now"), 1.0, bottom);
    m_limitedHeading->setObjectName(QStringLiteral("limitedHeading"));
    limitedTitle->addWidget(m_limitedHeading);
    limitedTitle->addStretch(1);
    m_unblock = new QPushButton(tr("&Unblock…"), bottom);
    m_unblock->setObjectName(QStringLiteral("unblockButton"));
    m_unblock->setToolTip(tr("Delete the selected subject's limiter state: its next request "
                             "is admitted as if it had never been seen"));
    m_unblock->setEnabled(false);
    limitedTitle->addWidget(m_unblock);
    limitedPane->addLayout(limitedTitle);
    m_limited = new LimitedModel(this);
    m_limitedView = table(QStringLiteral("limitedTable"), bottom);
    m_limitedView->setModel(m_limited);
    QHeaderView *lh = m_limitedView->horizontalHeader();
    lh->setSectionResizeMode(LimitedModel::RuleColumn, QHeaderView::ResizeToContents);
    lh->setSectionResizeMode(LimitedModel::SubjectColumn, QHeaderView::Interactive);
    lh->setSectionResizeMode(LimitedModel::TimeLeftColumn, QHeaderView::ResizeToContents);
    lh->setSectionResizeMode(LimitedModel::StateColumn, QHeaderView::Stretch);
    lh->resizeSection(LimitedModel::SubjectColumn, 130);
    limitedPane->addWidget(m_limitedView, 1);
    m_limitedNote = PageHeader::note(bottom);
    m_limitedNote->setObjectName(QStringLiteral("limitedNote"));
    limitedPane->addWidget(m_limitedNote);
    bottomBox->addLayout(limitedPane, 3);

    auto *topPane = new QVBoxLayout;
    topPane->setSpacing(6);
    auto *topTitle = new QHBoxLayout;
    topTitle->addWidget(PageHeader::heading(tr("Top subjects, last 15 minutes"), 1.0, bottom));
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
    m_topView = table(QStringLiteral("topTable"), bottom);
    m_topView->setModel(m_top);
    QHeaderView *th = m_topView->horizontalHeader();
    th->setSectionResizeMode(TopSubjectsModel::SubjectColumn, QHeaderView::Stretch);
    for (int c = TopSubjectsModel::RequestsColumn; c < TopSubjectsModel::ColumnCount; ++c) {
        th->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    topPane->addWidget(m_topView, 1);
    bottomBox->addLayout(topPane, 2);
    split->addWidget(bottom);
    // Two rows of charts stay whole at 800 px high; the tables take the rest.
    m_chartArea->setMinimumHeight(220);
    bottom->setMinimumHeight(180);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({430, 250});

    // The worker and its thread.
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("monitorWorker"));
    m_worker = new MonitorWorker;
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &MonitorWorker::snapshotReady, this, &MonitorPage::onSnapshot);
    connect(m_worker, &MonitorWorker::unblocked, this, &MonitorPage::onUnblocked);
    m_thread->start();
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->start(); });

    connect(m_unblock, &QPushButton::clicked, this, &MonitorPage::unblockSelected);
    connect(m_limitedView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MonitorPage::updateUnblockButton);
    connect(m_limited, &QAbstractItemModel::modelReset, this, &MonitorPage::updateUnblockButton);
    connect(m_topRule, &QComboBox::currentIndexChanged, this, [this] {
        const QString id = m_topRule->currentData().toString();
        m_top->setRows({});
        QMetaObject::invokeMethod(m_worker, [w = m_worker, id] { w->setTopRule(id); });
    });
    connect(m_connection, &ConnectionController::sessionChanged, this, &MonitorPage::onSession);
    connect(m_connection, &ConnectionController::stateChanged, this,
            &MonitorPage::onConnectionState);

    rebuildCharts();
    updateLimitedHeading();
    onSession();
}

MonitorPage::~MonitorPage()
{
    m_worker->cancel();
    m_thread->quit();
    m_thread->wait();
}

void MonitorPage::setConfirmHook(ConfirmHook hook)
{
    m_confirmHook = std::move(hook);
}

void MonitorPage::setRules(const RuleSet &rules)
{
    m_rules = rules;
    rebuildCharts();
    const QString current = m_topRule->currentData().toString();
    {
        const QSignalBlocker block(m_topRule);
        m_topRule->clear();
        if (!m_rules.rules.empty()) {
            m_topRule->addItem(tr("Busiest rule"), MonitorSnapshot::busiestRule);
            m_topRule->setItemData(0, tr("The rule with the most requests in the last 15 minutes"),
                                   Qt::ToolTipRole);
        }
        for (const Rule &r : m_rules.rules) {
            m_topRule->addItem(r.id, r.id);
        }
        const int keep = m_topRule->findData(current);
        m_topRule->setCurrentIndex(keep >= 0 ? keep : (m_topRule->count() ? 0 : -1));
    }
    const QString top = m_topRule->currentData().toString();
    if (top != current) {
        m_top->setRows({});
    }
    QMetaObject::invokeMethod(m_worker, [w = m_worker, rules, top] { w->setRules(rules, top); });
}

void MonitorPage::refresh()
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->refresh(true); });
}

void MonitorPage::onSession()
{
    ++m_session;
    m_snapshot = MonitorSnapshot{};
    m_error.clear();
    m_limited->setRows({});
    m_top->setRows({});
    QMetaObject::invokeMethod(m_worker, [w = m_worker, e = m_connection->endpoint(),
                                         s = m_session] { w->setEndpoint(e, s); });
    updateStatus();
}

void MonitorPage::onConnectionState(const ConnectionState &state)
{
    const bool lost = state.state == ConnectionState::State::Lost ||
                      state.state == ConnectionState::State::Failed;
    if (lost != m_connectionLost) {
        m_connectionLost = lost;
        updateStatus();
    }
}

void MonitorPage::onSnapshot(const MonitorSnapshot &s)
{
    if (s.session != m_session) {
        return; // read for a previous session
    }
    if (!s.ok()) {
        m_error = s.error;
        updateStatus();
        Q_EMIT updated();
        return;
    }
    m_error.clear();
    const bool keepLimited = !s.limitedRead;
    QList<LimitedSubject> oldLimited = m_snapshot.limited;
    m_snapshot = s;
    if (keepLimited) {
        m_snapshot.limited = oldLimited; // keys are scanned every other tick
    }
    for (const stats::RuleSeries &series : s.series) {
        if (RuleChart *c = m_charts.value(series.ruleId)) {
            c->setSeries(series, s.windowSeconds);
        }
    }
    const QString wanted = m_topRule->currentData().toString();
    if (wanted == MonitorSnapshot::busiestRule && s.topBusiest) {
        m_top->setRows(s.top);
        m_topRule->setItemText(0, s.topRuleId.isEmpty() ? tr("Busiest rule")
                                                        : tr("Busiest: %1").arg(s.topRuleId));
    } else if (!s.topBusiest && s.topRuleId == wanted) {
        m_top->setRows(s.top);
    }
    if (s.limitedRead) {
        // Keep the selection across the swap: the user may be about to press Unblock.
        QByteArray selected;
        const QModelIndexList sel = m_limitedView->selectionModel()->selectedRows();
        if (!sel.isEmpty()) {
            selected = sel.first().data(LimitedModel::KeyRole).toByteArray();
        }
        m_limited->setRows(s.limited);
        const int row = selected.isEmpty() ? -1 : m_limited->rowOf(selected);
        if (row >= 0) {
            m_limitedView->selectRow(row);
        }
        updateLimitedHeading();
    }
    updateStatus();
    Q_EMIT updated();
}

void MonitorPage::rebuildCharts()
{
    // Reuse the charts of rules still there (their points stay until the next read).
    QHash<QString, RuleChart *> old = std::move(m_charts);
    m_charts.clear();
    while (m_chartGrid->count()) {
        delete m_chartGrid->takeAt(0);
    }
    int i = 0;
    for (const Rule &r : m_rules.rules) {
        RuleChart *c = old.take(r.id);
        if (!c) {
            c = new RuleChart(r, m_chartBox);
        } else {
            c->setRule(r);
        }
        m_charts.insert(r.id, c);
        // One rule gets the whole width; an odd last one keeps half so that all charts match.
        m_chartGrid->addWidget(c, i / 2, i % 2, 1, m_rules.rules.size() == 1 ? 2 : 1);
        ++i;
    }
    for (RuleChart *c : std::as_const(old)) {
        delete c;
    }
    m_noRules->setVisible(m_rules.rules.empty());
    const int rows = (i + 1) / 2;
    m_chartBox->setMinimumHeight(rows > 0 ? rows * 190 + (rows - 1) * 10 : 0);
}

void MonitorPage::updateStatus()
{
    const std::optional<Endpoint> e = m_connection->endpoint();
    QString text;
    QColor color = tone::muted();
    if (!e) {
        text = tr("Not connected: choose a server on the Connection page.");
    } else if (m_connectionLost || !m_error.isEmpty()) {
        color = tone::text(Tone::Warning);
        const QString why = m_error.isEmpty() ? tr("the connection is lost") : m_error;
        text = m_snapshot.readAtMs > 0
                   ? tr("\u26a0 Not updating (%1): showing the data read at %2. Retrying every "
                        "second.")
                         .arg(why.toHtmlEscaped(), clock(m_snapshot.readAtMs))
                   : tr("\u26a0 Cannot read yet (%1). Retrying every second.")
                         .arg(why.toHtmlEscaped());
    } else if (m_snapshot.readAtMs > 0) {
        color = tone::text(Tone::Good);
        text = tr("\u25cf Live, read at %1").arg(clock(m_snapshot.readAtMs));
    } else {
        text = tr("Reading…");
    }
    m_status->setText(
        QStringLiteral("<span style=\"color:%1;\">%2</span>").arg(tone::hex(color), text));
}

void MonitorPage::updateLimitedHeading()
{
    const int n = m_limited->rowCount();
    m_limitedHeading->setText(n ? tr("Limited right now (%1)").arg(n) : tr("Limited right now"));
    QString text;
    if (m_snapshot.readAtMs == 0) {
        text = QString();
    } else if (n == 0) {
        text = tr("No subject is denied right now (%n key(s) read).", nullptr,
                  int(std::min<qint64>(m_snapshot.keysScanned, INT_MAX)));
    } else {
        text = tr("Subjects whose next request would be denied, longest wait first.");
    }
    if (m_snapshot.limitedCapped) {
        text += QLatin1Char(' ') + tr("Only the first %1 keys were read: the list may be "
                                      "incomplete.")
                                       .arg(QLocale().toString(m_snapshot.keysScanned));
    }
    m_limitedNote->setText(text);
}

void MonitorPage::updateUnblockButton()
{
    m_unblock->setEnabled(m_limitedView->selectionModel()->hasSelection());
}

void MonitorPage::unblockSelected()
{
    const QModelIndexList sel = m_limitedView->selectionModel()->selectedRows();
    if (sel.isEmpty()) {
        return;
    }
    const int row = sel.first().row();
    const LimitedSubject r = m_limited->rows().value(row);
    const QString question =
        tr("Unblock %1 on rule %2?\n\nThis deletes the key %3: the subject's next request is "
           "admitted as if it had never been seen, and its limit starts over.")
            .arg(QString::fromUtf8(r.subject), r.ruleId, QString::fromUtf8(r.key));
    askToConfirm(
        this, m_confirmHook, tr("Unblock a subject"), question, tr("Unblock"),
        [this, key = r.key] { doUnblock(key); }, QMessageBox::DestructiveRole);
}

void MonitorPage::doUnblock(const QByteArray &key)
{
    m_unblock->setEnabled(false);
    QMetaObject::invokeMethod(m_worker, [w = m_worker, key] { w->unblock(key); });
}

void MonitorPage::onUnblocked(const QByteArray &key, bool existed, const QString &error)
{
    const QString k = QString::fromUtf8(key).toHtmlEscaped();
    if (!error.isEmpty()) {
        m_banner->showRich(
            Tone::Bad,
            tr("<b>\u2717 Could not unblock: %1.</b><br>The key %2 is unchanged; try again when "
               "the connection is back.")
                .arg(error.toHtmlEscaped(), k));
    } else if (existed) {
        m_banner->showRich(
            Tone::Good,
            tr("<b>\u2713 Unblocked.</b> Deleted %1: the subject's next request is admitted.")
                .arg(k));
    } else {
        m_banner->showRich(Tone::Good,
                           tr("<b>\u2713 Nothing to unblock.</b> %1 had expired already.").arg(k));
    }
    updateUnblockButton();
    Q_EMIT unblockFinished(key, error);
}

} // namespace sluice::ui
