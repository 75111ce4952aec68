#include "replaydialog.h"

#include "core/common/bytes.h"
#include "core/common/duration.h"
#include "core/replay/logreader.h"
#include "core/rules/codec.h"

#include "ui/common/filedialog.h"
#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

QString grouped(qint64 n)
{
    return QLocale().toString(n);
}

QString percent(double share)
{
    return QLocale().toString(share * 100.0, 'f', share > 0 && share < 0.001 ? 3 : 1) + u" %"_s;
}

QTableWidget *makeTable(const QStringList &head, const QString &name, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(head.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(head);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void setCell(QTableWidget *t, int row, int column, const QString &text, bool number)
{
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(text);
    item->setTextAlignment(number ? Qt::AlignRight | Qt::AlignVCenter
                                  : Qt::AlignLeft | Qt::AlignVCenter);
    t->setItem(row, column, item);
}

} // namespace

void ReplayWorker::run(replay::Options options, const std::atomic<bool> *cancel)
{
#ifdef Q_OS_LINUX
    // The replay keeps both cores busy for seconds (it reads on this thread and decides on one
    // it starts, which inherits this niceness): below the GUI thread, so that on a loaded
    // machine the scheduler runs the GUI first and the console never waits for a core.
    static thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        setpriority(PRIO_PROCESS, id_t(gettid()), std::min(19, getpriority(PRIO_PROCESS, 0) + 10));
    }
#endif
    QElapsedTimer since;
    since.start();
    QElapsedTimer total;
    total.start();
    options.cancel = cancel;
    options.progress = [&](const replay::Progress &p) {
        if (since.elapsed() < 100) {
            return;
        }
        since.restart();
        const double secs = double(total.nsecsElapsed()) / 1e9;
        Q_EMIT progress(p.lines, p.bytes, p.totalBytes, secs > 0 ? double(p.lines) / secs : 0);
    };
    auto report = replay::run(options);
    if (!report) {
        Q_EMIT failed(report.error().message);
        return;
    }
    Q_EMIT finished(*report);
}

class PeakChartView : public QChartView
{
    Q_OBJECT
public:
    explicit PeakChartView(QWidget *parent)
        : QChartView(new QChart, parent)
    {
        setObjectName(u"peakChart"_s);
        setRenderHint(QPainter::Antialiasing);
        setMinimumHeight(200);
        chart()->legend()->hide();
        chart()->setTitle(tr("Subjects above each peak"));
        m_curve = new QLineSeries(chart());
        m_line = new QLineSeries(chart());
        const auto redLine = [this] {
            QPen pen(tone::color(Tone::Bad));
            pen.setWidth(2);
            m_line->setPen(pen);
        };
        redLine();
        connect(&Theme::instance(), &Theme::changed, this, redLine);
        chart()->addSeries(m_curve);
        chart()->addSeries(m_line);
        m_x = new QLogValueAxis(chart());
        m_x->setBase(10);
        m_x->setLabelFormat(u"%g"_s);
        m_x->setMinorTickCount(8);
        m_y = new QValueAxis(chart());
        m_y->setRange(0, 100);
        m_y->setLabelFormat(u"%d %%"_s);
        chart()->addAxis(m_x, Qt::AlignBottom);
        chart()->addAxis(m_y, Qt::AlignLeft);
        Theme::styleChart(chart());
        for (QLineSeries *s : {m_curve, m_line}) {
            s->attachAxis(m_x);
            s->attachAxis(m_y);
        }
    }

    void show(const replay::RuleReport *rule)
    {
        m_curve->clear();
        m_rule = rule;
        if (rule == nullptr || rule->peaks.empty()) {
            m_line->clear();
            return;
        }
        chart()->setTitle(tr("Subjects whose peak in %1 is above the limit")
                              .arg(duration::formatUs(rule->windowUs)));
        // A step curve: the share of subjects whose peak is above x.
        QList<QPointF> points;
        const double n = double(rule->peaks.size());
        size_t i = 0;
        while (i < rule->peaks.size()) {
            const quint32 v = rule->peaks[i];
            size_t j = i;
            while (j < rule->peaks.size() && rule->peaks[j] == v) {
                ++j;
            }
            const double before = 100.0 * (n - double(i)) / n;
            const double after = 100.0 * (n - double(j)) / n;
            points << QPointF(std::max(1.0, double(v) - 0.5), before)
                   << QPointF(double(v) + 0.5, after);
            i = j;
        }
        m_curve->replace(points);
        m_x->setRange(0.5, std::max(10.0, double(rule->peaks.back()) * 2));
    }
    void setLimit(qint64 limit)
    {
        m_line->replace({QPointF(double(limit) + 0.5, 0), QPointF(double(limit) + 0.5, 100)});
    }

Q_SIGNALS:
    void limitDragged(qint64 limit);

protected:
    void mousePressEvent(QMouseEvent *e) override { drag(e); }
    void mouseMoveEvent(QMouseEvent *e) override
    {
        if (e->buttons() & Qt::LeftButton) {
            drag(e);
        }
    }

private:
    void drag(QMouseEvent *e)
    {
        if (m_rule == nullptr || m_rule->peaks.empty()) {
            return;
        }
        const QPointF value = chart()->mapToValue(e->position(), m_curve);
        const qint64 limit = std::max<qint64>(1, qint64(std::floor(value.x())));
        Q_EMIT limitDragged(limit);
    }

    QLineSeries *m_curve;
    QLineSeries *m_line;
    QLogValueAxis *m_x;
    QValueAxis *m_y;
    const replay::RuleReport *m_rule = nullptr;
};

ReplayDialog::ReplayDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"replayDialog"_s);
    setWindowTitle(tr("Replay a log"));
    resize(1100, 760);
    auto *root = new QVBoxLayout(this);

    auto *intro = PageHeader::note(this);
    intro->setText(tr("Your own access logs through a rule file, on the in-process twins of the "
                      "scripts and on the log's own clock: who would have been limited, and "
                      "what limit to choose. Nothing is sent anywhere."));
    root->addWidget(intro);

    auto *form = new QFormLayout;
    const auto fileRow = [&](QLineEdit **edit, const QString &name, const QString &placeholder,
                             const QString &title, const QStringList &filters) {
        auto *row = new QHBoxLayout;
        *edit = new QLineEdit(this);
        (*edit)->setObjectName(name);
        (*edit)->setPlaceholderText(placeholder);
        auto *browse = PageHeader::button(tr("Browse…"), name + u"Browse"_s, this);
        row->addWidget(*edit, 1);
        row->addWidget(browse);
        QLineEdit *target = *edit;
        connect(browse, &QPushButton::clicked, this, [this, target, title, filters] {
            askForFile(this, u"replayFileDialog"_s, title, QFileInfo(target->text()).path(),
                       filters, {}, [this, target](const QString &path, const QString &) {
                           target->setText(path);
                           detectFormat();
                       });
        });
        return row;
    };
    form->addRow(tr("Logs:"),
                 fileRow(&m_logs, u"logsEdit"_s, tr("access.log; several files separated by ;"),
                         tr("Choose an access log"),
                         {tr("Access logs (*.log *.gz *.txt *.json)"), tr("All files (*)")}));
    form->addRow(tr("Rules:"),
                 fileRow(&m_rules, u"rulesEdit"_s, tr("rules.json"), tr("Choose a rule file"),
                         {tr("Rule files (*.json *.yaml *.yml)")}));
    auto *formatRow = new QHBoxLayout;
    m_format = new QComboBox(this);
    m_format->setObjectName(u"formatCombo"_s);
    m_format->addItem(tr("Detect"), u"auto"_s);
    m_format->addItem(u"nginx combined"_s, u"nginx-combined"_s);
    m_format->addItem(tr("nginx log_format…"), u"nginx"_s);
    m_format->addItem(u"Envoy"_s, u"envoy"_s);
    m_format->addItem(u"AWS ALB"_s, u"alb"_s);
    m_format->addItem(tr("JSON lines"), u"json"_s);
    m_detected = PageHeader::note(this);
    m_detected->setObjectName(u"detectedLabel"_s);
    m_logFormat = new QLineEdit(this);
    m_logFormat->setObjectName(u"logFormatEdit"_s);
    m_logFormat->setPlaceholderText(
        u"$remote_addr - $remote_user [$time_local] \"$request\" $status"_s);
    m_logFormat->setEnabled(false);
    formatRow->addWidget(m_format);
    formatRow->addWidget(m_logFormat, 1);
    formatRow->addWidget(m_detected);
    form->addRow(tr("Format:"), formatRow);
    root->addLayout(form);
    connect(m_format, &QComboBox::currentIndexChanged, this,
            [this] { m_logFormat->setEnabled(m_format->currentData().toString() == u"nginx"_s); });
    connect(m_logs, &QLineEdit::editingFinished, this, &ReplayDialog::detectFormat);

    auto *actions = new QHBoxLayout;
    m_start = PageHeader::button(tr("Replay"), u"replayButton"_s, this);
    m_start->setDefault(true);
    m_cancel = PageHeader::button(tr("Cancel"), u"cancelReplayButton"_s, this);
    m_cancel->setEnabled(false);
    m_export = PageHeader::button(tr("Export…"), u"exportReplayButton"_s, this,
                                  tr("Save the charts as PNG or SVG, or the report as CSV"));
    m_export->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"replayProgress"_s);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    m_status = PageHeader::note(this);
    m_status->setObjectName(u"replayStatus"_s);
    m_status->setText(tr("Choose the logs and a rule file, then Replay."));
    actions->addWidget(m_start);
    actions->addWidget(m_cancel);
    actions->addWidget(m_progress);
    actions->addWidget(m_status, 1);
    actions->addWidget(m_export);
    root->addLayout(actions);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    m_summary = makeTable({tr("Rule"), tr("Matched"), tr("Admitted"), tr("Denied"),
                           tr("Shadow-denied"), tr("Subjects"), tr("Denied subjects"),
                           tr("429 in the log"), tr("Peak p99"), tr("Note")},
                          u"summaryTable"_s, split);
    split->addWidget(m_summary);

    m_charts = new QWidget(split);
    m_charts->setObjectName(u"replayCharts"_s);
    auto *chartRow = new QHBoxLayout(m_charts);
    chartRow->setContentsMargins(0, 0, 0, 0);
    m_timeChart = new QChart;
    m_timeChart->setTitle(tr("Denials over time"));
    m_timeView = new QChartView(m_timeChart, m_charts);
    m_timeView->setObjectName(u"timeChart"_s);
    m_timeView->setRenderHint(QPainter::Antialiasing);
    m_timeView->setMinimumHeight(200);
    m_timeX = new QDateTimeAxis(m_timeChart);
    m_timeX->setFormat(u"HH:mm"_s);
    m_timeY = new QValueAxis(m_timeChart);
    m_timeY->setLabelFormat(u"%d"_s);
    m_timeChart->addAxis(m_timeX, Qt::AlignBottom);
    m_timeChart->addAxis(m_timeY, Qt::AlignLeft);
    Theme::styleChart(m_timeChart);
    chartRow->addWidget(m_timeView, 1);
    auto *peakColumn = new QVBoxLayout;
    m_peakView = new PeakChartView(m_charts);
    m_shares = new QLabel(m_charts);
    m_shares->setObjectName(u"sharesLabel"_s);
    m_shares->setWordWrap(true);
    m_shares->setMinimumHeight(m_shares->fontMetrics().lineSpacing() * 3);
    m_shares->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_shares->setText(tr("Select a rule, then drag the red line to try a limit."));
    peakColumn->addWidget(m_peakView, 1);
    peakColumn->addWidget(m_shares);
    chartRow->addLayout(peakColumn, 1);
    split->addWidget(m_charts);

    m_top = makeTable({tr("Most denied subject"), tr("Requests"), tr("Denied"), tr("First denial"),
                       tr("Last denial")},
                      u"topTable"_s, split);
    split->addWidget(m_top);
    split->setSizes({150, 360, 150});
    root->addWidget(split, 1);

    connect(m_start, &QPushButton::clicked, this, &ReplayDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &ReplayDialog::cancel);
    connect(m_export, &QPushButton::clicked, this, [this] {
        askForFile(this, u"replayExportDialog"_s, tr("Export the replay"), {},
                   {tr("PNG image (*.png)"), tr("SVG drawing (*.svg)"), tr("CSV report (*.csv)")},
                   u"png"_s, [this](const QString &path, const QString &) {
                       QString error;
                       const bool done = exportTo(path, &error);
                       setStatus(done ? tr("Exported to %1").arg(path) : error, !done);
                   });
    });
    connect(m_summary, &QTableWidget::currentCellChanged, this,
            [this](int row, int, int, int) { showRule(row); });
    connect(m_peakView, &PeakChartView::limitDragged, this, &ReplayDialog::setCandidateLimit);
    connect(m_worker.get(), &ReplayWorker::progress, this, &ReplayDialog::onProgress);
    connect(m_worker.get(), &ReplayWorker::finished, this, &ReplayDialog::onFinished);
    connect(m_worker.get(), &ReplayWorker::failed, this, &ReplayDialog::onFailed);
}

ReplayDialog::~ReplayDialog()
{
    // The worker thread is joined by m_worker's destructor: stop the run first.
    m_cancelFlag.store(true);
    // The children's last signals (the log field losing its focus says editingFinished, the
    // table its current cell) come while QWidget destroys them, after this destructor: they
    // must not reach this object's slots any more (UBSan: a call on a destroyed ReplayDialog).
    for (QObject *child : findChildren<QObject *>()) {
        disconnect(child, nullptr, this, nullptr);
    }
}

void ReplayDialog::setLogs(const QStringList &paths)
{
    m_logs->setText(paths.join(u"; "_s));
    detectFormat();
}

void ReplayDialog::setRulesFile(const QString &path)
{
    m_rules->setText(path);
}

void ReplayDialog::setPageRules(const RuleSet &set)
{
    m_pageRules = set;
    m_rules->setPlaceholderText(
        set.rules.empty()
            ? tr("rules.json")
            : tr("the Rules page's %n rule(s), or choose a file", nullptr, int(set.rules.size())));
}

void ReplayDialog::detectFormat()
{
    const QString first = m_logs->text().split(u';', Qt::SkipEmptyParts).value(0).trimmed();
    if (first.isEmpty()) {
        m_detected->clear();
        return;
    }
    // The first 20 lines of one file: at most the reader's first block, read here. A FIFO or a
    // device is not read on this thread (it may never answer, or never end a line).
    if (QFileInfo fi(first); fi.exists() && !fi.isFile() && !fi.isDir()) {
        m_detected->setText(tr("format not recognised: choose it"));
        return;
    }
    auto reader = replay::LogReader::open(first);
    if (!reader) {
        m_detected->setText(reader.error().message);
        return;
    }
    const auto f = replay::detect((*reader)->peekLines(20));
    if (!f) {
        m_detected->setText(tr("format not recognised: choose it"));
        return;
    }
    const int index = m_format->findData(replay::formatName(*f));
    if (m_format->currentData().toString() == u"auto"_s && index >= 0) {
        m_detected->setText(tr("detected: %1").arg(m_format->itemText(index)));
    }
}

void ReplayDialog::start()
{
    if (m_running) {
        return;
    }
    replay::Options o;
    for (const QString &p : m_logs->text().split(u';', Qt::SkipEmptyParts)) {
        if (!p.trimmed().isEmpty()) {
            o.files << p.trimmed();
        }
    }
    if (o.files.isEmpty()) {
        setStatus(tr("Choose at least one log file."), true);
        return;
    }
    const QString rulesFile = m_rules->text().trimmed();
    const rules::Loaded loaded = rulesFile.isEmpty() && !m_pageRules.rules.empty()
                                     ? rules::Loaded{m_pageRules, {}}
                                     : rules::loadFile(rulesFile);
    if (!loaded.ok()) {
        setStatus(loaded.errors.isEmpty() ? tr("Choose a rule file.")
                                          : loaded.errors.first().toString(),
                  true);
        return;
    }
    o.rules = loaded.set;
    o.format = *replay::formatFromName(m_format->currentData().toString());
    if (o.format == replay::Format::NginxCustom) {
        o.logFormat = m_logFormat->text();
    }
    m_cancelFlag.store(false);
    setRunning(true);
    setStatus(tr("Replaying…"), false);
    const std::atomic<bool> *flag = &m_cancelFlag;
    m_worker.post([o, flag](ReplayWorker *w) { w->run(o, flag); });
}

void ReplayDialog::cancel()
{
    m_cancelFlag.store(true);
    setStatus(tr("Cancelling…"), false);
}

void ReplayDialog::setRunning(bool running)
{
    m_running = running;
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
}

void ReplayDialog::setStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText, problem ? tone::color(Tone::Bad) : tone::muted());
    m_status->setPalette(pal);
}

void ReplayDialog::onProgress(qint64 lines, qint64 bytes, qint64 totalBytes, double perSecond)
{
    if (totalBytes > 0) {
        m_progress->setValue(int(std::min<qint64>(1000, bytes * 1000 / totalBytes)));
    }
    setStatus(tr("%1 lines, %2 lines/s").arg(grouped(lines), grouped(qint64(perSecond))), false);
}

void ReplayDialog::onFailed(const QString &message)
{
    setRunning(false);
    setStatus(message, true);
    Q_EMIT replayFinished();
}

void ReplayDialog::onFinished(const replay::Report &report)
{
    setRunning(false);
    m_report = report;
    m_replayed.clear();
    for (const replay::RuleReport &r : m_report.rules) {
        m_replayed.push_back(&r);
    }
    m_summary->setRowCount(int(m_replayed.size()));
    for (int row = 0; row < int(m_replayed.size()); ++row) {
        const replay::RuleReport &r = *m_replayed[size_t(row)];
        setCell(m_summary, row, 0, r.id, false);
        if (r.skipped) {
            for (int c = 1; c < 9; ++c) {
                setCell(m_summary, row, c, u"–"_s, true);
            }
            setCell(m_summary, row, 9, tr("skipped: %1").arg(r.skipReason), false);
            continue;
        }
        setCell(m_summary, row, 1, grouped(r.matched), true);
        setCell(m_summary, row, 2, grouped(r.admitted), true);
        setCell(m_summary, row, 3, grouped(r.denied), true);
        setCell(m_summary, row, 4, grouped(r.shadowDenied), true);
        setCell(m_summary, row, 5, grouped(r.subjects), true);
        setCell(m_summary, row, 6, grouped(r.subjectsDenied), true);
        setCell(m_summary, row, 7, r.hasStatus ? grouped(r.log429) : u"–"_s, true);
        setCell(m_summary, row, 8, grouped(r.p99), true);
        setCell(m_summary, row, 9, r.description, false);
    }
    m_summary->resizeColumnsToContents();
    fillCharts();
    QString text = tr("%1 lines, %2 unparsed, %3 late; %4 s")
                       .arg(grouped(report.lines), grouped(report.unparsed), grouped(report.late))
                       .arg(QLocale().toString(report.wallSeconds, 'f', 2));
    if (report.spread) {
        text += tr("; whole seconds spread evenly");
    }
    if (report.outliers > 0) {
        text += tr("; %1 outliers, not replayed").arg(grouped(report.outliers));
    }
    if (!report.warning.isEmpty()) {
        text += u"; "_s + report.warning;
    }
    if (report.cancelled) {
        text = tr("Cancelled: ") + text;
    }
    if (!report.error.isEmpty()) {
        text += u"; "_s + report.error;
    }
    setStatus(text, report.cancelled || !report.error.isEmpty());
    m_export->setEnabled(true);
    for (int row = 0; row < int(m_replayed.size()); ++row) {
        if (!m_replayed[size_t(row)]->skipped) {
            m_summary->setCurrentCell(row, 0);
            break;
        }
    }
    Q_EMIT replayFinished();
}

void ReplayDialog::fillCharts()
{
    m_timeChart->removeAllSeries();
    auto *x = m_timeX;
    auto *y = m_timeY;
    m_timeChart->setTitle(tr("Denials per %1").arg(duration::formatUs(m_report.binUs)));
    qint64 top = 1;
    size_t bins = 1;
    for (const replay::RuleReport *r : m_replayed) {
        if (r->skipped) {
            continue;
        }
        auto *s = new QLineSeries(m_timeChart);
        s->setName(r->id);
        for (size_t i = 0; i < r->deniedPerBin.size(); ++i) {
            const double t = double((m_report.firstUs + qint64(i) * m_report.binUs) / 1000);
            s->append(t, double(r->deniedPerBin[i]));
            top = std::max(top, r->deniedPerBin[i]);
        }
        bins = std::max(bins, r->deniedPerBin.size());
        m_timeChart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    x->setRange(QDateTime::fromMSecsSinceEpoch(m_report.firstUs / 1000, Qt::UTC),
                QDateTime::fromMSecsSinceEpoch(
                    (m_report.firstUs + qint64(bins) * m_report.binUs) / 1000, Qt::UTC));
    y->setRange(0, double(top) * 1.1);
}

int ReplayDialog::selectedRule() const
{
    const int row = m_summary->currentRow();
    return row >= 0 && row < int(m_replayed.size()) ? row : -1;
}

const replay::RuleReport *ReplayDialog::rule(int index) const
{
    return index >= 0 && index < int(m_replayed.size()) ? m_replayed[size_t(index)] : nullptr;
}

void ReplayDialog::showRule(int row)
{
    const replay::RuleReport *r = rule(row);
    m_top->setRowCount(0);
    if (r == nullptr || r->skipped) {
        m_peakView->show(nullptr);
        m_shares->setText(r ? tr("%1 was skipped: %2").arg(r->id, r->skipReason) : QString());
        return;
    }
    m_top->setRowCount(int(r->top.size()));
    const auto when = [](qint64 us) {
        return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC)
            .toString(u"yyyy-MM-dd HH:mm:ss"_s);
    };
    for (int i = 0; i < int(r->top.size()); ++i) {
        const replay::DeniedSubject &d = r->top[size_t(i)];
        setCell(m_top, i, 0, bytes::printable(d.subject.left(200)), false);
        setCell(m_top, i, 1, grouped(d.requests), true);
        setCell(m_top, i, 2, grouped(d.denied), true);
        setCell(m_top, i, 3, when(d.firstUs), false);
        setCell(m_top, i, 4, when(d.lastUs), false);
    }
    m_top->resizeColumnsToContents();
    m_peakView->show(r);
    setCandidateLimit(r->limit);
}

void ReplayDialog::setCandidateLimit(qint64 limit)
{
    const replay::RuleReport *r = rule(selectedRule());
    if (r == nullptr || r->skipped) {
        return;
    }
    m_limit = std::max<qint64>(1, limit);
    m_peakView->setLimit(m_limit);
    m_shares->setText(sharesText());
}

QString ReplayDialog::sharesText() const
{
    const replay::RuleReport *r = rule(selectedRule());
    if (r == nullptr || r->skipped) {
        return {};
    }
    const replay::Candidate c = r->shares(m_limit);
    return tr("Limit %1 per %2%3: %4 of subjects (%5), %6 of requests (%7). Peaks: p50 %8, p90 "
              "%9, p99 %10, max %11.")
        .arg(grouped(m_limit), duration::formatUs(r->windowUs),
             m_limit == r->limit ? tr(" (the rule's)") : QString(), percent(c.subjectShare),
             grouped(c.subjects), percent(c.requestShare), grouped(c.requests), grouped(r->p50),
             grouped(r->p90))
        .arg(grouped(r->p99), grouped(r->max));
}

bool ReplayDialog::exportTo(const QString &path, QString *error) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (m_report.rules.empty()) {
        *error = tr("Replay a log first: there is nothing to export yet.");
        return false;
    }
    if (suffix == u"csv"_s) {
        // The per-rule report, then the denials over time.
        QByteArray csv = "set,rule,matched,admitted,denied,shadow_denied,subjects,subjects_denied,"
                         "log_429,peak_p50,peak_p90,peak_p99,peak_p99_9,peak_max,skipped\n";
        for (const auto *list : {&m_report.rules, &m_report.against}) {
            for (const replay::RuleReport &r : *list) {
                csv += r.set.toUtf8() + ',' + r.id.toUtf8();
                for (qint64 v : {r.matched, r.admitted, r.denied, r.shadowDenied, r.subjects,
                                 r.subjectsDenied, r.log429, r.p50, r.p90, r.p99, r.p999, r.max}) {
                    csv += ',' + QByteArray::number(v);
                }
                csv += r.skipped ? ",yes\n" : ",no\n";
            }
        }
        csv += '\n' + replay::deniedCsv(m_report);
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size() || !f.commit()) {
            *error = tr("Cannot write %1: %2").arg(path, f.errorString());
            return false;
        }
        return true;
    }
    if (suffix == u"png"_s) {
        const QPixmap pixmap = m_charts->grab();
        if (!pixmap.save(path, "PNG")) {
            *error = tr("Cannot write %1").arg(path);
            return false;
        }
        return true;
    }
    if (suffix == u"svg"_s) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(m_charts->size());
        svg.setViewBox(QRect(QPoint(0, 0), m_charts->size()));
        svg.setTitle(tr("Replay of %1").arg(m_report.files.join(u", "_s)));
        QPainter painter;
        if (!painter.begin(&svg)) {
            *error = tr("Cannot write %1").arg(path);
            return false;
        }
        m_charts->render(&painter);
        painter.end();
        return QFileInfo(path).size() > 0;
    }
    *error = tr("%1: export to .png, .svg or .csv").arg(path);
    return false;
}

} // namespace sluice::ui

#include "replaydialog.moc"
