#include "loadpage.h"

#include "keyscope.h"
#include "loadaxis.h"

#include "ui/common/fieldform.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/patternform.h"
#include "ui/common/statswatch.h"
#include "ui/common/tone.h"

#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"
#include "ui/connection/connectioncontroller.h"

#include <QChart>
#include <QChartView>
#include <QFrame>
#include <QGridLayout>
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
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sluice::ui {

using loadaxis::fitAxis;

namespace {

constexpr int pollMs = 250;
const QColor allowedColor = tone::color(Tone::Good);
const QColor deniedColor = tone::color(Tone::Bad);
const QColor errorColor = tone::text(Tone::Bad);

QString number(qint64 v)
{
    return QLocale().toString(v);
}

QString endpointId(const Endpoint &e)
{
    return e.safeUrl() + QLatin1Char('\n') + e.password;
}

} // namespace

LoadPage::LoadPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
{
    setObjectName(QStringLiteral("loadPage"));
    qRegisterMetaType<load::LoadProgress>();

    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(24, 20, 24, 20);
    root->setSpacing(6);
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

    // Left: what to send.
    auto *left = new QWidget(this);
    left->setFixedWidth(440);
    auto *leftBox = new QVBoxLayout(left);
    leftBox->setContentsMargins(0, 0, 0, 0);
    leftBox->setSpacing(8);
    leftBox->addWidget(PageHeader::heading(tr("Rules"), 1.0, left));
    m_ruleList = new QListWidget(left);
    m_ruleList->setObjectName(QStringLiteral("ruleList"));
    m_ruleList->setFixedHeight(52);
    m_ruleList->setTextElideMode(Qt::ElideRight);
    m_ruleList->setToolTip(tr("Every request is decided by each rule ticked here"));
    leftBox->addWidget(m_ruleList);
    m_rulesError = PageHeader::note(left, errorColor);
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
    auto *actions = new QHBoxLayout;
    m_start = new QPushButton(tr("&Start"), left);
    m_start->setObjectName(QStringLiteral("startButton"));
    m_start->setDefault(true);
    m_stop = new QPushButton(tr("S&top"), left);
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setEnabled(false);
    actions->addStretch(1);
    actions->addWidget(m_stop);
    actions->addWidget(m_start);
    leftBox->addLayout(actions);
    leftBox->addStretch(1);
    body->addWidget(left);

    // Right: what happens.
    auto *right = new QVBoxLayout;
    right->setSpacing(10);
    body->addLayout(right, 1);
    auto *counters = new QGridLayout;
    counters->setHorizontalSpacing(28);
    counters->setVerticalSpacing(0);
    auto counter = [&](int column, const QString &name, const QString &caption,
                       const QColor &color) {
        auto *value = new QLabel(QStringLiteral("0"), this);
        value->setObjectName(name);
        QFont f = value->font();
        f.setPointSizeF(f.pointSizeF() * 2.0);
        f.setBold(true);
        value->setFont(f);
        if (color.isValid()) {
            value->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
        }
        auto *label = PageHeader::note(this);
        label->setText(caption);
        counters->addWidget(value, 0, column);
        counters->addWidget(label, 1, column);
        return value;
    };
    m_sent = counter(0, QStringLiteral("sentValue"), tr("decisions sent"), QColor());
    m_allowed = counter(1, QStringLiteral("allowedValue"), tr("allowed"), allowedColor);
    m_denied = counter(2, QStringLiteral("deniedValue"), tr("denied"), deniedColor);
    m_errors = counter(3, QStringLiteral("errorsValue"), tr("errors"), QColor());
    m_rateValue = counter(4, QStringLiteral("rateValue"), tr("decisions / s"), QColor());
    counters->setColumnStretch(5, 1);
    right->addLayout(counters);
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

    m_chart = new QChart;
    m_chart->setTitle(tr("Decisions per second"));
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_allowedSeries = new QLineSeries(m_chart);
    m_allowedSeries->setName(tr("allowed"));
    m_allowedSeries->setPen(QPen(allowedColor, 2));
    m_deniedSeries = new QLineSeries(m_chart);
    m_deniedSeries->setName(tr("denied"));
    m_deniedSeries->setPen(QPen(deniedColor, 2));
    m_chart->addSeries(m_allowedSeries);
    m_chart->addSeries(m_deniedSeries);
    m_x = new QValueAxis(m_chart);
    m_x->setTitleText(tr("seconds since the start"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    fitAxis(m_x, 10);
    m_y = new QValueAxis(m_chart);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    fitAxis(m_y, 10);
    for (QValueAxis *a : {m_x, m_y}) {
        a->setGridLineColor(QColor(0xe6, 0xe9, 0xed));
        a->setLabelsColor(tone::muted());
    }
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    for (QLineSeries *s : {m_allowedSeries, m_deniedSeries}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    auto *view = new QChartView(m_chart, this);
    view->setObjectName(QStringLiteral("loadChart"));
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    right->addWidget(view, 1);

    right->addWidget(PageHeader::heading(tr("Per rule"), 1.0, this));
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
    right->addWidget(m_perRule);

    m_statsWatch = new StatsWatch(this);
    m_poll = new QTimer(this);
    m_poll->setInterval(pollMs);
    connect(m_poll, &QTimer::timeout, this, &LoadPage::poll);
    connect(m_start, &QPushButton::clicked, this, &LoadPage::start);
    connect(m_stop, &QPushButton::clicked, this, &LoadPage::stop);
    connect(m_patternForm, &PatternForm::changed, this, &LoadPage::validate);
    connect(m_patternForm, &PatternForm::submitted, this, &LoadPage::start);
    for (QSpinBox *s : {m_threads, m_subjects, m_seed}) {
        connect(s, &QSpinBox::valueChanged, this, &LoadPage::validate);
    }
    connect(m_ruleList, &QListWidget::itemChanged, this, &LoadPage::validate);
    connect(m_connection, &ConnectionController::sessionChanged, this, &LoadPage::validate);
    validate();
    showProgress(m_progress);
}

LoadPage::~LoadPage()
{
    // The generator's destructor cancels and joins (a round trip in flight at most); the
    // flusher's writes what is left.
    m_generator.reset();
    m_statsWatch->watch(nullptr, {});
    m_flusher.reset();
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
    PatternDraft first;
    first.values = {{QStringLiteral("rate"), QStringLiteral("200/s")},
                    {QStringLiteral("from_rate"), QStringLiteral("20/s")},
                    {QStringLiteral("to_rate"), QStringLiteral("500/s")},
                    {QStringLiteral("count"), QStringLiteral("500")},
                    {QStringLiteral("at"), QStringLiteral("1s")},
                    {QStringLiteral("duration"), QStringLiteral("10s")}};
    m_patternForm->setDraft(first);

    m_threads = new QSpinBox(parent);
    m_threads->setObjectName(QStringLiteral("threadsSpin"));
    m_threads->setRange(1, load::maxThreads);
    m_threads->setValue(4);
    m_threads->setToolTip(tr("Threads sending, each with its own connection"));
    m_subjects = new QSpinBox(parent);
    m_subjects->setObjectName(QStringLiteral("subjectsSpin"));
    m_subjects->setRange(1, int(sim::maxSubjects));
    m_subjects->setValue(100);
    m_subjects->setGroupSeparatorShown(true);
    m_subjects->setToolTip(tr("Clients, named like addresses: 10.0.0.1, 10.0.0.2, ... Each "
                              "request picks one at random"));
    m_seed = new QSpinBox(parent);
    m_seed->setObjectName(QStringLiteral("seedSpin"));
    m_seed->setRange(1, 999999);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("The same seed draws the same subjects and Poisson gaps"));
    auto *numbers = new QWidget(parent);
    auto *row = new QHBoxLayout(numbers);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(8);
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

CheckedPattern LoadPage::checked() const
{
    const CheckedPattern c = checkAlone(
        m_patternForm->draft(), m_patternForm->draft().values.value(QStringLiteral("duration")),
        m_subjects->value(), quint64(m_seed->value()));
    m_patternForm->setErrors(c.errors);
    return c;
}

Result<load::LoadOptions> LoadPage::options() const
{
    const CheckedPattern p = checked();
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    QStringList ids;
    for (int i = 0; i < m_ruleList->count(); ++i) {
        if (m_ruleList->item(i)->checkState() == Qt::Checked) {
            ids << m_ruleList->item(i)->data(Qt::UserRole).toString();
        }
    }
    QString rulesProblem;
    if (m_rules.rules.empty()) {
        rulesProblem = tr("No rules yet: load or pull a rule set on the Rules page.");
    } else if (ids.isEmpty()) {
        rulesProblem = tr("Tick at least one rule.");
    }
    m_rulesError->setText(rulesProblem);
    m_rulesError->setHidden(rulesProblem.isEmpty());
    if (!p.ok()) {
        return Error::make(Error::Kind::Invalid, p.firstProblem());
    }
    if (!rulesProblem.isEmpty()) {
        return Error::make(Error::Kind::Invalid, rulesProblem);
    }
    if (!endpoint) {
        return Error::make(Error::Kind::Invalid,
                           tr("Not connected: choose a server on the Connection page."));
    }
    load::LoadOptions o;
    o.endpoint = *endpoint;
    o.rules = m_rules;
    o.ruleIds = ids;
    o.pattern = *p.pattern;
    o.durationUs = p.durationUs;
    o.threads = m_threads->value();
    o.subjects = m_subjects->value();
    o.seed = quint64(m_seed->value());
    o.keyPrefixOverride = m_keyScope->prefixOverride();
    return o;
}

void LoadPage::validate()
{
    if (isRunning()) {
        return;
    }
    auto o = options();
    m_start->setEnabled(o.ok());
    if (!o) {
        m_plan->setText(QString());
        return;
    }
    const double requests = o->pattern.expectedCount(o->durationUs);
    const qsizetype rules = o->ruleIds.size();
    const qint64 n = qint64(std::llround(requests));
    const QString count = o->pattern.kind == sim::TrafficPattern::Kind::Poisson
                              ? tr("About %1 requests").arg(number(n))
                              : tr("%1 requests").arg(number(n));
    const QString subjects =
        o->subjects == 1 ? tr("one subject") : tr("%1 subjects").arg(number(o->subjects));
    m_plan->setText(rules == 1 ? tr("%1 over %2 from %3, each decided by one rule.")
                                     .arg(count, duration::formatUs(o->durationUs), subjects)
                               : tr("%1 over %2 from %3, each decided by %4 rules: %5 "
                                    "decisions.")
                                     .arg(count, duration::formatUs(o->durationUs), subjects,
                                          number(rules), number(n * rules)));
}

void LoadPage::setRules(const RuleSet &rules)
{
    QSet<QString> unchecked;
    for (int i = 0; i < m_ruleList->count(); ++i) {
        if (m_ruleList->item(i)->checkState() != Qt::Checked) {
            unchecked.insert(m_ruleList->item(i)->data(Qt::UserRole).toString());
        }
    }
    const bool first = m_ruleList->count() == 0;
    m_rules = rules;
    m_ruleList->setFixedHeight(
        std::clamp(int(m_rules.rules.size()) * 22 + 8, 52, 140)); // its rules, no more
    const QSignalBlocker block(m_ruleList);
    m_ruleList->clear();
    for (const Rule &r : m_rules.rules) {
        auto *item = new QListWidgetItem(
            tr("%1 — %2%3").arg(r.id, r.describe(), r.shadow ? tr(" (shadow)") : QString()),
            m_ruleList);
        item->setData(Qt::UserRole, r.id);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        const bool on = first ? r.enabled : !unchecked.contains(r.id) && r.enabled;
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        if (!r.enabled) {
            item->setToolTip(tr("Disabled: the engine does not apply it; tick it to load it "
                                "anyway"));
        }
    }
    validate();
}

bool LoadPage::isRunning() const
{
    return m_generator && m_poll->isActive();
}

void LoadPage::start()
{
    if (!isRunning()) {
        m_keyScope->confirmThen(this, m_confirm, [this] { startNow(); });
    }
}

void LoadPage::startNow()
{
    if (isRunning()) {
        return;
    }
    auto o = options();
    if (!o) {
        m_banner->showRich(
            Tone::Bad, tr("<b>\u2717 Cannot start:</b> %1").arg(o.error().message.toHtmlEscaped()));
        return;
    }
    // The statistics: one recorder for the page, and a flusher per server.
    if (!m_recorder) {
        m_recorder = std::make_unique<stats::StatsRecorder>();
    }
    if (!m_flusher || m_flusherEndpoint != endpointId(o->endpoint)) {
        m_flusher.reset(); // writes what the last server was owed
        m_flusher = std::make_unique<stats::StatsFlusher>(o->endpoint, m_recorder.get());
        m_flusherEndpoint = endpointId(o->endpoint);
        m_flusher->start();
        m_statsWatch->watch(m_flusher.get(), o->endpoint.user); // a failure in the status bar
    }
    o->recorder = m_recorder.get();
    m_generator.reset();
    auto generator = std::make_unique<load::LoadGenerator>(o.value());
    if (auto r = generator->start(); !r) {
        m_banner->showRich(
            Tone::Bad, tr("<b>\u2717 Cannot start:</b> %1").arg(r.error().message.toHtmlEscaped()));
        return;
    }
    m_generator = std::move(generator);
    m_progress = load::LoadProgress{};
    m_progress.durationS = double(o->durationUs) / 1e6;
    m_lastAllowed = m_lastDenied = 0;
    m_lastElapsed = 0;
    m_chartTop = 10;
    m_allowedSeries->clear();
    m_deniedSeries->clear();
    fitAxis(m_x, m_progress.durationS);
    fitAxis(m_y, m_chartTop);
    m_perRule->setRowCount(0);
    m_banner->hide();
    setRunning(true);
    m_poll->start();
    showProgress(m_progress);
    Q_EMIT started();
}

void LoadPage::stop()
{
    if (m_generator) {
        m_generator->cancel(); // returns at once; the next poll sees the run end
    }
}

void LoadPage::poll()
{
    if (!m_generator) {
        return;
    }
    const load::LoadProgress p = m_generator->progress();
    // Decisions per second since the last poll, for the chart.
    const double dt = p.elapsedS - m_lastElapsed;
    if (dt > 0.05) {
        const double a = double(p.allowed - m_lastAllowed) / dt;
        const double d = double(p.denied - m_lastDenied) / dt;
        m_allowedSeries->append(p.elapsedS, a);
        m_deniedSeries->append(p.elapsedS, d);
        m_chartTop = std::max({m_chartTop, a * 1.05, d * 1.05});
        fitAxis(m_y, m_chartTop);
        m_lastAllowed = p.allowed;
        m_lastDenied = p.denied;
        m_lastElapsed = p.elapsedS;
    }
    if (p.durationS > 0) {
        fitAxis(m_x, p.durationS);
    }
    m_progress = p;
    showProgress(p);
    if (p.finished) {
        finish();
    }
}

void LoadPage::showProgress(const load::LoadProgress &p)
{
    m_sent->setText(number(p.sent));
    m_allowed->setText(number(p.allowed));
    m_denied->setText(number(p.denied + p.shadowDenied));
    m_denied->setToolTip(p.shadowDenied ? tr("%1 enforced, %2 by shadow rules (let through)")
                                              .arg(number(p.denied), number(p.shadowDenied))
                                        : QString());
    m_errors->setText(number(p.errors));
    m_errors->setStyleSheet(p.errors ? QStringLiteral("color: %1;").arg(errorColor.name())
                                     : QString());
    m_errors->setToolTip(p.lastError);
    m_rateValue->setText(number(qint64(std::llround(p.ratePerS))));
    const double total = p.durationS > 0 ? p.durationS : 0;
    m_bar->setValue(total > 0 ? int(std::min(1.0, p.elapsedS / total) * 1000) : 0);
    m_elapsed->setText(total > 0 ? tr("%1 s of %2 s")
                                       .arg(QLocale().toString(std::min(p.elapsedS, total), 'f', 1),
                                            QLocale().toString(total, 'f', 0))
                                 : QString());
    m_perRule->setRowCount(int(p.rules.size()));
    // As tall as its rows (a few): the chart above gets the rest.
    m_perRule->setFixedHeight(m_perRule->horizontalHeader()->sizeHint().height() +
                              24 * int(std::clamp<qsizetype>(p.rules.size(), 1, 5)) + 4);
    for (int i = 0; i < p.rules.size(); ++i) {
        const load::RuleProgress &r = p.rules[i];
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

void LoadPage::finish()
{
    m_poll->stop();
    setRunning(false);
    if (m_flusher) {
        m_flusher->flushSoon(); // the Monitor page sees the last second without waiting
    }
    const load::LoadProgress &p = m_progress;
    if (!p.error.isEmpty()) {
        m_banner->showRich(Tone::Bad,
                           tr("<b>\u2717 The run failed:</b> %1").arg(p.error.toHtmlEscaped()));
    } else if (p.cancelled) {
        m_banner->showRich(Tone::Warning,
                           tr("<b>Stopped</b> after %1 s: %2 decisions, %3 allowed, %4 denied.")
                               .arg(QLocale().toString(p.elapsedS, 'f', 1), number(p.sent),
                                    number(p.allowed), number(p.denied + p.shadowDenied)));
    } else if (p.errors > 0) {
        m_banner->showRich(Tone::Warning, tr("<b>\u26a0 Finished with %1 errors:</b> %2")
                                              .arg(number(p.errors), p.lastError.toHtmlEscaped()));
    } else {
        // "The Monitor page shows them" only while their statistics are written; the keys it
        // could not remove are said (they expire by their TTL).
        m_statsWatch->poll();
        const bool unsaid = m_statsWatch->failing() || !p.cleanupError.isEmpty();
        QString text = tr("<b>\u2713 Finished:</b> %1 decisions in %2 s, %3 allowed, %4 denied.")
                           .arg(number(p.sent), QLocale().toString(p.elapsedS, 'f', 1),
                                number(p.allowed), number(p.denied + p.shadowDenied));
        text += QLatin1Char(' ') + (m_statsWatch->failing()
                                        ? m_statsWatch->text().toHtmlEscaped() + QLatin1Char('.')
                                        : tr("The Monitor page shows them."));
        if (!p.cleanupError.isEmpty()) {
            text +=
                QLatin1Char(' ') +
                tr("The run's keys stay until their TTL: %1.").arg(p.cleanupError.toHtmlEscaped());
        }
        m_banner->showRich(unsaid ? Tone::Warning : Tone::Good, text);
    }
    validate();
    Q_EMIT finished(p);
}

void LoadPage::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_ruleList->setEnabled(!running);
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_patternForm, m_threads, m_subjects, m_seed}) {
        w->setEnabled(!running);
    }
    m_start->setText(running ? tr("Running…") : tr("&Start"));
}

} // namespace sluice::ui
