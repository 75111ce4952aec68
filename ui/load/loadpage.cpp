#include "loadpage.h"

#include "common/messagebanner.h"
#include "common/pageheader.h"
#include "common/tone.h"

#include "connection/connectioncontroller.h"
#include "stats/statsflusher.h"
#include "stats/statsrecorder.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <type_traits>

#include <algorithm>
#include <cmath>

namespace sluice::ui {

namespace {

constexpr int pollMs = 250;
const QColor allowedColor = tone::color(Tone::Good);
const QColor deniedColor = tone::color(Tone::Bad);
const QColor errorColor = tone::text(Tone::Bad);

// "0", "0s", "0ms": a start at zero, which parseUs (positive durations only) refuses.
bool isZero(const QString &text)
{
    static const QRegularExpression zero(QStringLiteral("^0+(\\.0*)?\\s*(us|ms|s|m|h|d)?$"));
    return zero.match(text).hasMatch();
}

// An optional duration field: empty -> nullopt (the default), else the value or an error.
Result<std::optional<qint64>> optionalUs(const QString &raw)
{
    const QString text = raw.trimmed();
    if (text.isEmpty()) {
        return std::optional<qint64>();
    }
    if (isZero(text)) {
        return std::optional<qint64>(0);
    }
    auto us = duration::parseUs(text);
    if (!us) {
        return us.error();
    }
    return std::optional<qint64>(us.value());
}

QString number(qint64 v)
{
    return QLocale().toString(v);
}

// 1, 2, 5, 10, 20, ... at or above v: steps that make round tick labels.
double niceStep(double v)
{
    if (v <= 1) {
        return 1;
    }
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * p >= v) {
            return m * p;
        }
    }
    return 10 * p;
}

// Round ticks from 0 to at least `top`, about four of them.
void fitAxis(QValueAxis *axis, double top)
{
    const double step = niceStep(std::max(top, 1.0) / 4);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(0, std::max(step, std::ceil(top / step) * step));
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
    m_rulesError = fieldError(left, QStringLiteral("rulesError"));
    leftBox->addWidget(m_rulesError);
    leftBox->addSpacing(4);
    leftBox->addWidget(PageHeader::heading(tr("Traffic"), 1.0, left));
    // A grid, not a QFormLayout: Qt 6.4.2's QFormLayout writes past its buffers when rows are
    // hidden (setRowVisible) beside rows whose height depends on their width (the fields'
    // word-wrapped messages): found with valgrind on the Simulation page's identical editor.
    m_form = new QGridLayout;
    m_form->setHorizontalSpacing(12);
    m_form->setVerticalSpacing(6);
    m_form->setColumnStretch(1, 1);
    buildForm(left, m_form);
    leftBox->addLayout(m_form);
    m_plan = PageHeader::note(left);
    m_plan->setObjectName(QStringLiteral("planLabel"));
    leftBox->addWidget(m_plan);
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

    m_poll = new QTimer(this);
    m_poll->setInterval(pollMs);
    connect(m_poll, &QTimer::timeout, this, &LoadPage::poll);
    connect(m_start, &QPushButton::clicked, this, &LoadPage::start);
    connect(m_stop, &QPushButton::clicked, this, &LoadPage::stop);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &LoadPage::onKindChanged);
    for (QLineEdit *e :
         {m_rate, m_fromRate, m_toRate, m_from, m_to, m_at, m_count, m_spread, m_duration}) {
        connect(e, &QLineEdit::textChanged, this, &LoadPage::validate);
        connect(e, &QLineEdit::returnPressed, this, &LoadPage::start);
    }
    for (QSpinBox *s : {m_threads, m_subjects, m_seed}) {
        connect(s, &QSpinBox::valueChanged, this, &LoadPage::validate);
    }
    connect(m_ruleList, &QListWidget::itemChanged, this, &LoadPage::validate);
    connect(m_connection, &ConnectionController::sessionChanged, this, &LoadPage::validate);
    onKindChanged();
    showProgress(m_progress);
}

LoadPage::~LoadPage()
{
    // The generator's destructor cancels and joins (a round trip in flight at most); the
    // flusher's writes what is left.
    m_generator.reset();
    m_flusher.reset();
}

QLabel *LoadPage::fieldError(QWidget *parent, const QString &name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setStyleSheet(QStringLiteral("color: %1;").arg(errorColor.name()));
    l->hide();
    return l;
}

void LoadPage::buildForm(QWidget *parent, QGridLayout *form)
{
    // One row: the label right-aligned in column 0 (none: an empty cell), the field in 1.
    const auto addRow = [form](QWidget *label, auto *field) {
        const int row = form->rowCount();
        if (label) {
            form->addWidget(label, row, 0, Qt::AlignRight | Qt::AlignTop);
        }
        if constexpr (std::is_base_of_v<QLayout, std::remove_pointer_t<decltype(field)>>) {
            form->addLayout(field, row, 1);
        } else {
            form->addWidget(field, row, 1);
        }
    };
    m_kind = new QComboBox(parent);
    m_kind->setObjectName(QStringLiteral("patternCombo"));
    m_kind->addItem(tr("Constant"), int(sim::TrafficPattern::Kind::Constant));
    m_kind->addItem(tr("Burst"), int(sim::TrafficPattern::Kind::Burst));
    m_kind->addItem(tr("Poisson"), int(sim::TrafficPattern::Kind::Poisson));
    m_kind->addItem(tr("Ramp"), int(sim::TrafficPattern::Kind::Ramp));
    auto *kindLabel = new QLabel(tr("&Pattern:"), parent);
    kindLabel->setBuddy(m_kind);
    addRow(kindLabel, m_kind);
    m_kindNote = PageHeader::note(parent);
    m_kindNote->setObjectName(QStringLiteral("patternNote"));
    addRow(nullptr, m_kindNote);

    // Each field: the line edit, and under it the message when the value is wrong.
    auto field = [&](QLineEdit **edit, QLabel **error, const QString &name, const QString &label,
                     const QString &text, const QString &placeholder, const QString &tip) {
        auto *box = new QWidget(parent);
        box->setObjectName(name + QStringLiteral("Row"));
        auto *v = new QVBoxLayout(box);
        v->setContentsMargins(0, 0, 0, 0);
        v->setSpacing(2);
        *edit = new QLineEdit(text, box);
        (*edit)->setObjectName(name + QStringLiteral("Edit"));
        (*edit)->setPlaceholderText(placeholder);
        (*edit)->setToolTip(tip);
        *error = fieldError(box, name + QStringLiteral("Error"));
        v->addWidget(*edit);
        v->addWidget(*error);
        auto *l = new QLabel(label, parent);
        l->setBuddy(*edit);
        // Aligned with the line edit, not with the message under it.
        l->setMinimumHeight((*edit)->sizeHint().height());
        addRow(l, box);
        m_rowLabels.insert(box, l);
    };
    field(&m_rate, &m_rateError, QStringLiteral("rate"), tr("&Rate:"), QStringLiteral("200/s"),
          tr("e.g. 200/s, 5/100ms"), tr("Requests per period: N/s, N/m, N/<duration>"));
    field(&m_fromRate, &m_fromRateError, QStringLiteral("fromRate"), tr("From r&ate:"),
          QStringLiteral("20/s"), tr("e.g. 20/s"), tr("The rate at the start of the ramp"));
    field(&m_toRate, &m_toRateError, QStringLiteral("toRate"), tr("To ra&te:"),
          QStringLiteral("500/s"), tr("e.g. 500/s"), tr("The rate at the end of the ramp"));
    field(&m_count, &m_countError, QStringLiteral("count"), tr("&Count:"), QStringLiteral("500"),
          tr("requests in the burst"), tr("How many requests the burst sends"));
    field(&m_at, &m_atError, QStringLiteral("at"), tr("A&t:"), QStringLiteral("1s"),
          tr("0s: at the start"), tr("When the burst starts, from the start of the run"));
    field(&m_spread, &m_spreadError, QStringLiteral("spread"), tr("S&pread:"), QString(),
          tr("0: all at once"), tr("The burst's requests are spread evenly over this time"));
    field(&m_from, &m_fromError, QStringLiteral("from"), tr("&From:"), QString(),
          tr("0s: the start"), tr("When the pattern starts, from the start of the run"));
    field(&m_to, &m_toError, QStringLiteral("to"), tr("T&o:"), QString(), tr("the end of the run"),
          tr("When the pattern stops"));
    field(&m_duration, &m_durationError, QStringLiteral("duration"), tr("&Duration:"),
          QStringLiteral("10s"), tr("e.g. 10s, 2m"), tr("How long the run lasts"));

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
    auto *numbers = new QHBoxLayout;
    numbers->setSpacing(8);
    auto *threadsLabel = new QLabel(tr("T&hreads:"), parent);
    threadsLabel->setBuddy(m_threads);
    auto *subjectsLabel = new QLabel(tr("S&ubjects:"), parent);
    subjectsLabel->setBuddy(m_subjects);
    auto *seedLabel = new QLabel(tr("S&eed:"), parent);
    seedLabel->setBuddy(m_seed);
    numbers->addWidget(m_threads);
    numbers->addSpacing(4);
    numbers->addWidget(subjectsLabel);
    numbers->addWidget(m_subjects, 1);
    numbers->addSpacing(4);
    numbers->addWidget(seedLabel);
    numbers->addWidget(m_seed);
    threadsLabel->setMinimumHeight(m_threads->sizeHint().height());
    addRow(threadsLabel, numbers);
}

void LoadPage::onKindChanged()
{
    using Kind = sim::TrafficPattern::Kind;
    const auto kind = Kind(m_kind->currentData().toInt());
    const bool rate = kind == Kind::Constant || kind == Kind::Poisson;
    const bool ramp = kind == Kind::Ramp;
    const bool burst = kind == Kind::Burst;
    auto row = [&](QLineEdit *e, bool visible) {
        // A grid row whose widgets are all hidden takes no space.
        e->parentWidget()->setVisible(visible);
        if (QLabel *l = m_rowLabels.value(e->parentWidget())) {
            l->setVisible(visible);
        }
    };
    row(m_rate, rate);
    row(m_fromRate, ramp);
    row(m_toRate, ramp);
    row(m_count, burst);
    row(m_at, burst);
    row(m_spread, burst);
    row(m_from, !burst);
    row(m_to, !burst);
    switch (kind) {
    case Kind::Constant:
        m_kindNote->setText(tr("Evenly spaced requests at the rate, between From and To."));
        break;
    case Kind::Burst:
        m_kindNote->setText(tr("Count requests at once at At, or spread evenly over Spread."));
        break;
    case Kind::Poisson:
        m_kindNote->setText(tr("The rate on average, with random (exponential) gaps: real "
                               "clients."));
        break;
    case Kind::Ramp:
        m_kindNote->setText(tr("The rate grows (or falls) linearly from one value to the other "
                               "between From and To."));
        break;
    default:
        break;
    }
    validate();
}

std::optional<sim::TrafficPattern> LoadPage::pattern(QString *error) const
{
    using Kind = sim::TrafficPattern::Kind;
    sim::TrafficPattern p;
    p.kind = Kind(m_kind->currentData().toInt());
    bool ok = true;
    auto fail = [&](QLabel *label, const QString &message) {
        label->setText(message);
        label->show();
        if (ok && error) {
            *error = message;
        }
        ok = false;
    };
    for (QLabel *l : {m_rateError, m_fromRateError, m_toRateError, m_fromError, m_toError,
                      m_atError, m_countError, m_spreadError, m_durationError}) {
        l->hide();
        l->clear();
    }
    qint64 durationUs = 0;
    if (auto d = duration::parseUs(m_duration->text().trimmed())) {
        durationUs = d.value();
    } else {
        fail(m_durationError, tr("Duration: %1").arg(d.error().message));
    }
    auto rate = [&](QLineEdit *e, QLabel *label, const QString &name, Rate *out) {
        auto r = duration::parseRate(e->text().trimmed());
        if (!r) {
            fail(label, tr("%1: %2").arg(name, r.error().message));
            return;
        }
        *out = r.value();
    };
    auto span = [&](QLineEdit *e, QLabel *label, const QString &name) -> std::optional<qint64> {
        auto v = optionalUs(e->text());
        if (!v) {
            fail(label, tr("%1: %2").arg(name, v.error().message));
            return std::nullopt;
        }
        return v.value();
    };
    switch (p.kind) {
    case Kind::Constant:
    case Kind::Poisson:
    case Kind::Ramp: {
        if (p.kind == Kind::Ramp) {
            rate(m_fromRate, m_fromRateError, tr("From rate"), &p.fromRate);
            rate(m_toRate, m_toRateError, tr("To rate"), &p.toRate);
        } else {
            rate(m_rate, m_rateError, tr("Rate"), &p.rate);
        }
        const auto from = span(m_from, m_fromError, tr("From"));
        const auto to = span(m_to, m_toError, tr("To"));
        p.fromUs = from.value_or(0);
        p.toUs = to;
        if (durationUs > 0 && p.fromUs >= durationUs) {
            fail(m_fromError, tr("From must be before the end of the run (%1).")
                                  .arg(duration::formatUs(durationUs)));
        }
        if (durationUs > 0 && p.toUs && *p.toUs > durationUs) {
            fail(m_toError, tr("To must be at most the duration (%1); leave it empty for the "
                               "end of the run.")
                                .arg(duration::formatUs(durationUs)));
        }
        if (p.toUs && *p.toUs <= p.fromUs) {
            fail(m_toError, tr("To must come after From."));
        }
        break;
    }
    case Kind::Burst: {
        bool isNumber = false;
        const qint64 count = m_count->text().trimmed().toLongLong(&isNumber);
        if (!isNumber || count < 1) {
            fail(m_countError, tr("Count: a whole number of requests, 1 or more."));
        } else if (count > sim::maxOffered) {
            fail(m_countError, tr("Count: at most %1 requests.").arg(number(sim::maxOffered)));
        }
        p.count = count;
        const auto at = span(m_at, m_atError, tr("At"));
        const auto spread = span(m_spread, m_spreadError, tr("Spread"));
        p.atUs = at.value_or(0);
        p.spreadUs = spread.value_or(0);
        if (durationUs > 0 && p.atUs >= durationUs) {
            fail(m_atError, tr("At must be before the end of the run (%1).")
                                .arg(duration::formatUs(durationUs)));
        } else if (durationUs > 0 && p.atUs + p.spreadUs > durationUs) {
            fail(m_spreadError,
                 tr("The burst must end by the end of the run: At + Spread is "
                    "%1, the run lasts %2.")
                     .arg(duration::formatUs(p.atUs + p.spreadUs), duration::formatUs(durationUs)));
        }
        break;
    }
    default:
        break;
    }
    if (ok && durationUs > 0 && p.expectedCount(durationUs) > double(sim::maxOffered)) {
        fail(p.kind == Kind::Burst  ? m_countError
             : p.kind == Kind::Ramp ? m_toRateError
                                    : m_rateError,
             tr("That is %1 requests; a run sends at most %2.")
                 .arg(number(qint64(p.expectedCount(durationUs))), number(sim::maxOffered)));
    }
    if (!ok) {
        return std::nullopt;
    }
    return p;
}

Result<load::LoadOptions> LoadPage::options() const
{
    QString error;
    const auto p = pattern(&error);
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
    if (!p) {
        return Error::make(Error::Kind::Invalid, error);
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
    o.pattern = *p;
    o.durationUs = duration::parseUs(m_duration->text().trimmed()).value();
    o.threads = m_threads->value();
    o.subjects = m_subjects->value();
    o.seed = quint64(m_seed->value());
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
        m_banner->showRich(
            Tone::Good,
            tr("<b>\u2713 Finished:</b> %1 decisions in %2 s, %3 allowed, %4 denied. The "
               "Monitor page shows them.")
                .arg(number(p.sent), QLocale().toString(p.elapsedS, 'f', 1), number(p.allowed),
                     number(p.denied + p.shadowDenied)));
    }
    validate();
    Q_EMIT finished(p);
}

void LoadPage::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    m_ruleList->setEnabled(!running);
    for (QWidget *w : std::initializer_list<QWidget *>{m_kind, m_rate, m_fromRate, m_toRate, m_from,
                                                       m_to, m_at, m_count, m_spread, m_duration,
                                                       m_threads, m_subjects, m_seed}) {
        w->setEnabled(!running);
    }
    m_start->setText(running ? tr("Running…") : tr("&Start"));
}

} // namespace sluice::ui
