#include "loadpage.h"

#include "keyscope.h"
#include "loadaxis.h"
#include "loadsession.h"

#include "ui/common/fieldform.h"
#include "ui/common/flowlayout.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/patternform.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"

#include <QChart>
#include <QChartView>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <optional>

namespace sluice::ui {

using loadaxis::fitAxis;

namespace {

// Read when used, so that they follow the theme: the lines in the strong tones, the
// counters' figures in the text tones (readable on the page).
QColor allowedColor()
{
    return tone::color(Tone::Good);
}
QColor deniedColor()
{
    return tone::color(Tone::Bad);
}
QColor errorColor()
{
    return tone::text(Tone::Bad);
}

QString number(qint64 v)
{
    return QLocale().toString(v);
}

} // namespace

LoadPage::LoadPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_session(new LoadSession(connection, this))
{
    setObjectName(QStringLiteral("loadPage"));

    auto *root = PageHeader::pageLayout(this);
    root->addWidget(
        new PageHeader(tr("Load generator"),
                       tr("Send real decisions to the connected Redis, following a traffic pattern "
                          "of the simulation lab, from several threads over many subjects. Every "
                          "decision is recorded: watch it on the Monitor page."),
                       this));
    root->addSpacing(12);

    auto *body = new QHBoxLayout;
    body->setSpacing(24);
    root->addLayout(body, 1);

    body->addWidget(buildControls(connection));

    // Right: what happens.
    auto *right = new QVBoxLayout;
    right->setSpacing(10);
    body->addLayout(right, 1);
    right->addWidget(buildCounters());
    auto *barRow = new QHBoxLayout;
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("progressBar"));
    m_bar->setRange(0, 1000);
    m_bar->setValue(0);
    m_bar->setTextVisible(false);
    m_bar->setMaximumHeight(10);
    m_elapsed = new QLabel(this);
    m_elapsed->setObjectName(QStringLiteral("elapsedLabel"));
    m_elapsed->setMinimumWidth(140);
    barRow->addWidget(m_bar, 1);
    barRow->addWidget(m_elapsed);
    right->addLayout(barRow);

    m_banner = new MessageBanner(QStringLiteral("messageFrame"), QStringLiteral("message"), this);
    m_banner->setDismissible(QStringLiteral("dismissMessageButton"));
    right->addWidget(m_banner);

    right->addWidget(buildChart(), 3);

    right->addWidget(PageHeader::heading(tr("Per rule"), 1.0, this));
    buildPerRuleTable();
    // At least three rows tall, and the rules ticked before a run: the chart does not take
    // the whole column.
    right->addWidget(m_perRule, 1);

    connectSession();
    showCheck();
    showProgress();
}

// Left: what to send (the rules, the traffic, the keys, Start and Stop).
QWidget *LoadPage::buildControls(ConnectionController *connection)
{
    auto *left = new QWidget(this);
    left->setFixedWidth(440);
    auto *leftBox = PageHeader::layoutOn<QVBoxLayout>(left, 8);
    leftBox->addWidget(PageHeader::heading(tr("Rules"), 1.0, left));
    m_ruleList = new QListWidget(left);
    m_ruleList->setObjectName(QStringLiteral("ruleList"));
    m_ruleList->setFixedHeight(52);
    m_ruleList->setTextElideMode(Qt::ElideRight);
    m_ruleList->setToolTip(tr("Every request is decided by each rule ticked here"));
    leftBox->addWidget(m_ruleList);
    m_rulesError = PageHeader::note(left, errorColor());
    m_rulesError->setObjectName(QStringLiteral("rulesError"));
    m_rulesError->hide();
    leftBox->addWidget(m_rulesError);
    leftBox->addSpacing(4);
    leftBox->addWidget(PageHeader::heading(tr("Traffic"), 1.0, left));
    buildForm(left);
    leftBox->addWidget(m_patternForm);
    m_plan = PageHeader::note(left);
    m_plan->setObjectName(QStringLiteral("planLabel"));
    leftBox->addWidget(m_plan);
    m_keyScope = new KeyScope(left);
    leftBox->addWidget(m_keyScope);
    const auto throwaway = [this, connection] {
        m_keyScope->setThrowaway(connection &&
                                 connection->currentId() == ProfileStore::sandboxId());
    };
    connect(connection, &ConnectionController::sessionChanged, this, throwaway);
    throwaway();
    auto *actions = new QHBoxLayout;
    m_start = PageHeader::button(tr("&Start"), QStringLiteral("startButton"), left);
    m_start->setDefault(true);
    m_stop = PageHeader::button(tr("S&top"), QStringLiteral("stopButton"), left);
    m_stop->setEnabled(false);
    actions->addStretch(1);
    actions->addWidget(m_stop);
    actions->addWidget(m_start);
    leftBox->addLayout(actions);
    leftBox->addStretch(1);
    return left;
}

// The counters flow: a figure that grows (12,000,000) or a caption in another language
// moves the next counter to a second line instead of widening the window.
QWidget *LoadPage::buildCounters()
{
    auto *countersBox = new QWidget(this);
    countersBox->setObjectName(QStringLiteral("loadCounters"));
    auto *counters = new FlowLayout(countersBox, 28);
    counters->setContentsMargins(0, 0, 0, 0);
    auto counter = [&](const QString &name, const QString &caption, std::optional<Tone> t) {
        auto *box = new QWidget(countersBox);
        auto *v = PageHeader::layoutOn<QVBoxLayout>(box, 0);
        auto *value = new QLabel(QStringLiteral("0"), box);
        value->setObjectName(name);
        QFont f = value->font();
        f.setPointSizeF(f.pointSizeF() * 2.0);
        f.setBold(true);
        value->setFont(f);
        if (t) {
            Theme::followStyleSheet(
                value, [t] { return QStringLiteral("color: %1;").arg(tone::hex(tone::text(*t))); });
        }
        auto *label = PageHeader::note(box);
        label->setWordWrap(false);
        label->setText(caption);
        v->addWidget(value);
        v->addWidget(label);
        counters->addWidget(box);
        return value;
    };
    m_sent = counter(QStringLiteral("sentValue"), tr("decisions sent"), std::nullopt);
    m_allowed = counter(QStringLiteral("allowedValue"), tr("allowed"), Tone::Good);
    m_denied = counter(QStringLiteral("deniedValue"), tr("denied"), Tone::Bad);
    m_errors = counter(QStringLiteral("errorsValue"), tr("errors"), std::nullopt);
    m_rateValue = counter(QStringLiteral("rateValue"), tr("decisions / s"), std::nullopt);
    return countersBox;
}

QWidget *LoadPage::buildChart()
{
    m_chart = new QChart;
    m_chart->setTitle(tr("Decisions per second"));
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_allowedSeries = new QLineSeries(m_chart);
    m_allowedSeries->setName(tr("allowed"));
    m_allowedSeries->setPen(QPen(allowedColor(), 2));
    m_deniedSeries = new QLineSeries(m_chart);
    m_deniedSeries->setName(tr("denied"));
    m_deniedSeries->setPen(QPen(deniedColor(), 2));
    m_chart->addSeries(m_allowedSeries);
    m_chart->addSeries(m_deniedSeries);
    m_x = new QValueAxis(m_chart);
    m_x->setTitleText(tr("seconds since the start"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    fitAxis(m_x, 10);
    m_y = new QValueAxis(m_chart);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    fitAxis(m_y, 10);
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    Theme::styleChart(m_chart); // the axes' and the background's colours, in both themes
    for (QLineSeries *s : {m_allowedSeries, m_deniedSeries}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    auto *view = new QChartView(m_chart, this);
    view->setObjectName(QStringLiteral("loadChart"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(200);
    return view;
}

void LoadPage::buildPerRuleTable()
{
    m_perRule = new QTableWidget(0, 5, this);
    m_perRule->setObjectName(QStringLiteral("perRuleTable"));
    m_perRule->setHorizontalHeaderLabels(
        {tr("Rule"), tr("Allowed"), tr("Denied"), tr("Shadow-denied"), tr("Errors")});
    m_perRule->verticalHeader()->hide();
    m_perRule->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_perRule->setSelectionMode(QAbstractItemView::NoSelection);
    m_perRule->setShowGrid(false);
    m_perRule->setAlternatingRowColors(true);
    m_perRule->verticalHeader()->setDefaultSectionSize(24);
    m_perRule->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_perRule->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    for (int c = 1; c < 5; ++c) {
        m_perRule->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
}

void LoadPage::connectSession()
{
    connect(m_start, &QPushButton::clicked, this, &LoadPage::start);
    connect(m_stop, &QPushButton::clicked, m_session, &LoadSession::stop);
    connect(m_patternForm, &PatternForm::changed, this,
            [this] { m_session->setDraft(m_patternForm->draft()); });
    connect(m_patternForm, &PatternForm::submitted, this, &LoadPage::start);
    connect(m_threads, &QSpinBox::valueChanged, m_session, &LoadSession::setThreads);
    connect(m_subjects, &QSpinBox::valueChanged, m_session,
            [this](int v) { m_session->setSubjects(v); });
    connect(m_seed, &QSpinBox::valueChanged, m_session,
            [this](int v) { m_session->setSeed(quint64(v)); });
    connect(m_keyScope, &KeyScope::toggled, m_session, &LoadSession::setRealKeys);
    connect(m_ruleList, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        m_session->setTicked(item->data(Qt::UserRole).toString(),
                             item->checkState() == Qt::Checked);
    });
    connect(m_session, &LoadSession::changed, this, &LoadPage::showCheck);
    connect(m_session, &LoadSession::rulesChanged, this, &LoadPage::showRules);
    // The Per rule table lists the rules ticked until a run has counters.
    const auto between = [this] {
        if (!isRunning()) {
            showProgress();
        }
    };
    connect(m_session, &LoadSession::changed, this, between);
    connect(m_session, &LoadSession::rulesChanged, this, between);
    connect(m_session, &LoadSession::started, this, &LoadPage::onStarted);
    connect(m_session, &LoadSession::progressed, this, &LoadPage::showProgress);
    connect(m_session, &LoadSession::messageChanged, this,
            [this] { m_banner->showMessage(m_session->message()); });
    connect(m_session, &LoadSession::started, this, &LoadPage::started);
    connect(m_session, &LoadSession::finished, this, &LoadPage::finished);
}

void LoadPage::buildForm(QWidget *parent)
{
    m_patternForm = new PatternForm(QStringLiteral("load."),
                                    {QStringLiteral("constant"), QStringLiteral("burst"),
                                     QStringLiteral("poisson"), QStringLiteral("ramp")},
                                    parent);
    FieldForm *form = m_patternForm->fields();
    form->addField(QStringLiteral("duration"), tr("&Duration"), tr("e.g. 10s, 2m"),
                   tr("How long the run lasts"));
    m_patternForm->setDraft(m_session->draft());

    m_threads = new QSpinBox(parent);
    m_threads->setObjectName(QStringLiteral("threadsSpin"));
    m_threads->setRange(1, load::maxThreads);
    m_threads->setValue(m_session->threads());
    m_threads->setToolTip(tr("Threads sending, each with its own connection"));
    m_subjects = new QSpinBox(parent);
    m_subjects->setObjectName(QStringLiteral("subjectsSpin"));
    m_subjects->setRange(1, int(sim::maxSubjects));
    m_subjects->setValue(int(m_session->subjects()));
    m_subjects->setGroupSeparatorShown(true);
    m_subjects->setToolTip(tr("Clients, named like addresses: 10.0.0.1, 10.0.0.2, ... Each "
                              "request picks one at random"));
    m_seed = new QSpinBox(parent);
    m_seed->setObjectName(QStringLiteral("seedSpin"));
    m_seed->setRange(1, 999999);
    m_seed->setValue(int(m_session->seed()));
    m_seed->setToolTip(tr("The same seed draws the same subjects and Poisson gaps"));
    auto *numbers = new QWidget(parent);
    auto *row = PageHeader::layoutOn<QHBoxLayout>(numbers, 8);
    auto *subjectsLabel = new QLabel(tr("S&ubjects:"), numbers);
    subjectsLabel->setBuddy(m_subjects);
    auto *seedLabel = new QLabel(tr("S&eed:"), numbers);
    seedLabel->setBuddy(m_seed);
    row->addWidget(m_threads);
    row->addSpacing(4);
    row->addWidget(subjectsLabel);
    row->addWidget(m_subjects, 1);
    row->addSpacing(4);
    row->addWidget(seedLabel);
    row->addWidget(m_seed);
    form->addRow(tr("T&hreads"), numbers, m_threads);
}

LoadPage::~LoadPage() = default;

bool LoadPage::isRunning() const
{
    return m_session->isRunning();
}

StatsWatch *LoadPage::statsWatch() const
{
    return m_session->statsWatch();
}

const load::LoadProgress &LoadPage::progress() const
{
    return m_session->progress();
}

void LoadPage::setRules(const RuleSet &rules)
{
    m_session->setRules(rules);
}

void LoadPage::start()
{
    if (!isRunning()) {
        m_keyScope->confirmThen(this, m_confirm, [this] { m_session->start(); });
    }
}

void LoadPage::stop()
{
    m_session->stop();
}

void LoadPage::showRules()
{
    const RuleSet &rules = m_session->rules();
    m_ruleList->setFixedHeight(
        std::clamp(int(rules.rules.size()) * 22 + 8, 52, 140)); // its rules, no more
    const QSignalBlocker block(m_ruleList);
    m_ruleList->clear();
    for (const Rule &r : rules.rules) {
        auto *item = new QListWidgetItem(
            tr("%1 — %2%3").arg(r.id, r.describe(), r.shadow ? tr(" (shadow)") : QString()),
            m_ruleList);
        item->setData(Qt::UserRole, r.id);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(m_session->isTicked(r.id) ? Qt::Checked : Qt::Unchecked);
        if (!r.enabled) {
            item->setToolTip(tr("Disabled: the engine does not apply it; tick it to load it "
                                "anyway"));
        }
    }
}

void LoadPage::showCheck()
{
    const bool running = m_session->isRunning();
    m_patternForm->setErrors(m_session->checked().errors);
    const QString rulesProblem = m_session->rulesProblem();
    m_rulesError->setText(rulesProblem);
    m_rulesError->setHidden(rulesProblem.isEmpty());
    m_plan->setText(m_session->plan());
    m_start->setEnabled(!running && m_session->canStart());
    m_stop->setEnabled(running);
    for (QWidget *w : std::initializer_list<QWidget *>{m_ruleList, m_patternForm, m_threads,
                                                       m_subjects, m_seed, m_keyScope}) {
        w->setEnabled(!running);
    }
    m_start->setText(running ? tr("Running…") : tr("&Start"));
}

void LoadPage::onStarted()
{
    m_allowedSeries->clear();
    m_deniedSeries->clear();
    fitAxis(m_x, m_session->progress().durationS);
    fitAxis(m_y, m_session->rateTop());
}

void LoadPage::showProgress()
{
    const load::LoadProgress &p = m_session->progress();
    // The chart: the points that came since the last poll.
    const QList<LoadSession::RatePoint> &rates = m_session->rates();
    for (qsizetype i = m_allowedSeries->count(); i < rates.size(); ++i) {
        m_allowedSeries->append(rates[i].elapsedS, rates[i].allowed);
        m_deniedSeries->append(rates[i].elapsedS, rates[i].denied);
    }
    fitAxis(m_y, m_session->rateTop());
    if (p.durationS > 0) {
        fitAxis(m_x, p.durationS);
    }
    m_sent->setText(number(p.sent));
    m_allowed->setText(number(p.allowed));
    m_denied->setText(number(p.denied + p.shadowDenied));
    m_denied->setToolTip(p.shadowDenied ? tr("%1 enforced, %2 by shadow rules (let through)")
                                              .arg(number(p.denied), number(p.shadowDenied))
                                        : QString());
    m_errors->setText(number(p.errors));
    m_errors->setStyleSheet(p.errors ? QStringLiteral("color: %1;").arg(tone::hex(errorColor()))
                                     : QString());
    m_errors->setToolTip(p.lastError);
    m_rateValue->setText(number(qint64(std::llround(p.ratePerS))));
    const double total = p.durationS > 0 ? p.durationS : 0;
    m_bar->setValue(total > 0 ? int(std::min(1.0, p.elapsedS / total) * 1000) : 0);
    m_elapsed->setText(total > 0 ? tr("%1 s of %2 s")
                                       .arg(QLocale().toString(std::min(p.elapsedS, total), 'f', 1),
                                            QLocale().toString(total, 'f', 0))
                                 : QString());
    // Between runs, when the rules ticked are not the last run's: those rules, at zero.
    QList<load::RuleProgress> rows = p.rules;
    if (!m_session->isRunning()) {
        QList<load::RuleProgress> ticked;
        for (const Rule &r : m_session->rules().rules) {
            if (m_session->isTicked(r.id)) {
                load::RuleProgress zero;
                zero.ruleId = r.id;
                ticked << zero;
            }
        }
        const bool same = std::equal(rows.begin(), rows.end(), ticked.begin(), ticked.end(),
                                     [](const load::RuleProgress &a, const load::RuleProgress &b) {
                                         return a.ruleId == b.ruleId;
                                     });
        if (!same) {
            rows = ticked;
        }
    }
    m_perRule->setRowCount(int(rows.size()));
    // Three to eight rows tall; the chart takes what is left, and the table the rest of its
    // share when there are more rules.
    const int header = m_perRule->horizontalHeader()->sizeHint().height();
    m_perRule->setMinimumHeight(header + 24 * int(std::clamp<qsizetype>(rows.size(), 3, 8)) + 4);
    m_perRule->setMaximumHeight(header + 24 * int(std::max<qsizetype>(rows.size(), 3)) + 4);
    for (int i = 0; i < rows.size(); ++i) {
        const load::RuleProgress &r = rows[i];
        const QStringList cells{r.ruleId, number(r.allowed), number(r.denied),
                                number(r.shadowDenied), number(r.errors)};
        for (int c = 0; c < cells.size(); ++c) {
            QTableWidgetItem *item = m_perRule->item(i, c);
            if (!item) {
                item = new QTableWidgetItem;
                m_perRule->setItem(i, c, item);
            }
            item->setText(cells[c]);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter
                                          : Qt::AlignRight | Qt::AlignVCenter);
        }
    }
}

} // namespace sluice::ui
