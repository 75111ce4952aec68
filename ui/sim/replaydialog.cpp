#include "replaydialog.h"

#include "peakchartview.h"
#include "replaysession.h"

#include "core/common/bytes.h"
#include "core/common/duration.h"
#include "core/replay/logreader.h"

#include "ui/common/filedialog.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

QString grouped(qint64 n)
{
    return QLocale().toString(n);
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

QString when(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC).toString(u"yyyy-MM-dd HH:mm:ss"_s);
}

} // namespace

ReplayDialog::ReplayDialog(QWidget *parent)
    : QDialog(parent)
    , m_session(new ReplaySession(this))
{
    setObjectName(u"replayDialog"_s);
    setWindowTitle(tr("Replay a log"));
    resize(1100, 760);
    auto *root = new QVBoxLayout(this);
    buildInputs(root);
    buildActions(root);
    buildResults(root);
    connectSession();
}

ReplayDialog::~ReplayDialog()
{
    // The children's last signals (the log field losing its focus says editingFinished, the
    // table its current cell) come while QWidget destroys them, after this destructor: they
    // must not reach this object's slots any more (UBSan: a call on a destroyed ReplayDialog).
    for (QObject *child : findChildren<QObject *>()) {
        disconnect(child, nullptr, this, nullptr);
    }
}

QHBoxLayout *ReplayDialog::fileRow(QLineEdit **edit, const QString &name,
                                   const QString &placeholder, const QString &title,
                                   const QStringList &filters)
{
    auto *row = new QHBoxLayout;
    *edit = new QLineEdit(this);
    (*edit)->setObjectName(name);
    (*edit)->setPlaceholderText(placeholder);
    auto *browse = PageHeader::button(tr("Browse…"), name + u"Browse"_s, this);
    row->addWidget(*edit, 1);
    row->addWidget(browse);
    QLineEdit *target = *edit;
    connect(browse, &QPushButton::clicked, this, [this, target, title, filters] {
        askForFile(this, u"replayFileDialog"_s, title, QFileInfo(target->text()).path(), filters,
                   {}, [this, target](const QString &path, const QString &) {
                       target->setText(path);
                       detectFormat();
                   });
    });
    return row;
}

// The intro, the logs, the rules and the format.
void ReplayDialog::buildInputs(QVBoxLayout *root)
{
    auto *intro = PageHeader::note(this);
    intro->setText(tr("Your own access logs through a rule file, on the in-process twins of the "
                      "scripts and on the log's own clock: who would have been limited, and "
                      "what limit to choose. Nothing is sent anywhere."));
    root->addWidget(intro);
    auto *form = new QFormLayout;
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
}

// Replay, Cancel, the progress and Export; the session's message under them.
void ReplayDialog::buildActions(QVBoxLayout *root)
{
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
    actions->addWidget(m_start);
    actions->addWidget(m_cancel);
    actions->addWidget(m_progress);
    actions->addStretch(1);
    actions->addWidget(m_export);
    root->addLayout(actions);
    m_banner = new MessageBanner(u"replayBanner"_s, u"replayStatus"_s, this);
    root->addWidget(m_banner);
    connect(m_start, &QPushButton::clicked, this, &ReplayDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &ReplayDialog::cancel);
    connect(m_export, &QPushButton::clicked, this, &ReplayDialog::askExport);
}

// The per-rule table, the charts, the subjects.
void ReplayDialog::buildResults(QVBoxLayout *root)
{
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    m_summary = makeTable({tr("Rule"), tr("Matched"), tr("Admitted"), tr("Denied"),
                           tr("Shadow-denied"), tr("Subjects"), tr("Denied subjects"),
                           tr("429 in the log"), tr("Peak p99"), tr("Note")},
                          u"summaryTable"_s, split);
    split->addWidget(m_summary);
    split->addWidget(buildCharts(split));
    split->addWidget(buildSubjects(split));
    split->setSizes({140, 330, 190});
    root->addWidget(split, 1);
    connect(m_summary, &QTableWidget::currentCellChanged, this,
            [this](int row, int, int, int) { m_session->selectRule(row); });
}

// Denials over time beside the selected rule's peaks, with the limit's shares and
// *Use this limit* under them.
QWidget *ReplayDialog::buildCharts(QWidget *parent)
{
    m_charts = new QWidget(parent);
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
    m_useLimit = PageHeader::button(tr("Use this limit"), u"useLimitButton"_s, m_charts,
                                    tr("Write the limit into the rule on the Rules page, "
                                       "unsaved: review it there, then save, push or stage it"));
    m_useLimit->setEnabled(false);
    auto *sharesRow = new QHBoxLayout;
    sharesRow->addWidget(m_shares, 1);
    sharesRow->addWidget(m_useLimit, 0, Qt::AlignTop);
    peakColumn->addWidget(m_peakView, 1);
    peakColumn->addLayout(sharesRow);
    chartRow->addLayout(peakColumn, 1);
    connect(m_peakView, &PeakChartView::limitDragged, m_session, &ReplaySession::setLimit);
    connect(m_useLimit, &QPushButton::clicked, m_session, &ReplaySession::useLimit);
    return m_charts;
}

// Tabs: the subjects the limit would deny, and those the rule denied most.
QWidget *ReplayDialog::buildSubjects(QWidget *parent)
{
    m_subjectTabs = new QTabWidget(parent);
    m_subjectTabs->setObjectName(u"subjectTabs"_s);
    auto *deny = new QWidget(m_subjectTabs);
    auto *denyColumn = new QVBoxLayout(deny);
    denyColumn->setContentsMargins(0, 4, 0, 0);
    m_denyNote = PageHeader::note(deny);
    m_denyNote->setObjectName(u"wouldDenyNote"_s);
    m_wouldDeny = makeTable({tr("Subject"), tr("Peak"), tr("Requests"), tr("Denied at the limit")},
                            u"wouldDenyTable"_s, deny);
    // The subject takes the width; the counts stay beside it.
    m_wouldDeny->horizontalHeader()->setStretchLastSection(false);
    m_wouldDeny->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    denyColumn->addWidget(m_denyNote);
    denyColumn->addWidget(m_wouldDeny, 1);
    m_subjectTabs->addTab(deny, tr("Denied at the limit"));
    m_top = makeTable({tr("Most denied subject"), tr("Requests"), tr("Denied"), tr("First denial"),
                       tr("Last denial")},
                      u"topTable"_s, m_subjectTabs);
    m_subjectTabs->addTab(m_top, tr("Most denied by the rule"));
    return m_subjectTabs;
}

void ReplayDialog::connectSession()
{
    connect(m_session, &ReplaySession::messageChanged, this, &ReplayDialog::showMessage);
    connect(m_session, &ReplaySession::runningChanged, this, &ReplayDialog::setRunning);
    connect(m_session, &ReplaySession::progressed, this,
            [this](qint64, qint64 bytes, qint64 totalBytes, double) {
                if (totalBytes > 0) {
                    m_progress->setValue(int(std::min<qint64>(1000, bytes * 1000 / totalBytes)));
                }
            });
    connect(m_session, &ReplaySession::finished, this, &ReplayDialog::onFinished);
    connect(m_session, &ReplaySession::selectionChanged, this, &ReplayDialog::showRule);
    connect(m_session, &ReplaySession::limitChanged, this, &ReplayDialog::showLimit);
    showMessage();
}

void ReplayDialog::showMessage()
{
    m_banner->showMessage(m_session->message());
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
    m_session->setPageRules(set);
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
    ReplaySession::Inputs in;
    in.logs = m_logs->text().split(u';', Qt::SkipEmptyParts);
    in.rulesFile = m_rules->text();
    in.format = m_format->currentData().toString();
    in.logFormat = m_logFormat->text();
    m_session->start(in);
}

void ReplayDialog::cancel()
{
    m_session->cancel();
}

bool ReplayDialog::running() const
{
    return m_session->isRunning();
}

const replay::Report &ReplayDialog::report() const
{
    return m_session->report();
}

qint64 ReplayDialog::candidateLimit() const
{
    return m_session->limit();
}

QString ReplayDialog::sharesText() const
{
    return m_session->sharesText();
}

void ReplayDialog::setCandidateLimit(qint64 limit)
{
    m_session->setLimit(limit);
}

void ReplayDialog::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
}

void ReplayDialog::askExport()
{
    askForFile(this, u"replayExportDialog"_s, tr("Export the replay"), {},
               {tr("PNG image (*.png)"), tr("SVG drawing (*.svg)"), tr("CSV report (*.csv)")},
               u"png"_s, [this](const QString &path, const QString &) {
                   QString error;
                   const bool done = exportTo(path, &error);
                   m_banner->showMessage(
                       done ? PageMessage::plain(Tone::Good, tr("Exported to %1").arg(path))
                            : PageMessage::plain(Tone::Bad, error));
               });
}

void ReplayDialog::onFinished()
{
    fillSummary();
    fillCharts();
    m_export->setEnabled(!m_session->report().rules.empty());
    if (m_session->selectedRule() >= 0) {
        m_summary->setCurrentCell(m_session->selectedRule(), 0);
    }
    Q_EMIT replayFinished();
}

void ReplayDialog::fillSummary()
{
    const QSignalBlocker block(m_summary);
    m_summary->setRowCount(m_session->ruleCount());
    for (int row = 0; row < m_session->ruleCount(); ++row) {
        const replay::RuleReport &r = *m_session->rule(row);
        setCell(m_summary, row, 0, r.id, false);
        // A rule that decided or denied nothing is marked (not by colour alone).
        const QString mark =
            ReplaySession::decidedNothing(r) ? tone::mark(Tone::Warning) : QString();
        setCell(m_summary, row, 9, mark + ReplaySession::noteFor(r), false);
        if (r.skipped) {
            for (int c = 1; c < 9; ++c) {
                setCell(m_summary, row, c, u"–"_s, true);
            }
            continue;
        }
        const qint64 values[] = {r.matched,      r.admitted, r.denied,
                                 r.shadowDenied, r.subjects, r.subjectsDenied};
        for (int c = 0; c < 6; ++c) {
            setCell(m_summary, row, c + 1, grouped(values[c]), true);
        }
        setCell(m_summary, row, 7, r.hasStatus ? grouped(r.log429) : u"–"_s, true);
        setCell(m_summary, row, 8, grouped(r.p99), true);
    }
    m_summary->resizeColumnsToContents();
}

void ReplayDialog::fillCharts()
{
    const replay::Report &report = m_session->report();
    m_timeChart->removeAllSeries();
    m_timeChart->setTitle(tr("Denials per %1").arg(duration::formatUs(report.binUs)));
    qint64 top = 1;
    size_t bins = 1;
    for (int i = 0; i < m_session->ruleCount(); ++i) {
        const replay::RuleReport *r = m_session->rule(i);
        if (r->skipped) {
            continue;
        }
        auto *s = new QLineSeries(m_timeChart);
        s->setName(r->id);
        for (size_t b = 0; b < r->deniedPerBin.size(); ++b) {
            const double t = double((report.firstUs + qint64(b) * report.binUs) / 1000);
            s->append(t, double(r->deniedPerBin[b]));
            top = std::max(top, r->deniedPerBin[b]);
        }
        bins = std::max(bins, r->deniedPerBin.size());
        m_timeChart->addSeries(s);
        s->attachAxis(m_timeX);
        s->attachAxis(m_timeY);
    }
    m_timeX->setRange(QDateTime::fromMSecsSinceEpoch(report.firstUs / 1000, Qt::UTC),
                      QDateTime::fromMSecsSinceEpoch(
                          (report.firstUs + qint64(bins) * report.binUs) / 1000, Qt::UTC));
    m_timeY->setRange(0, double(top) * 1.1);
}

void ReplayDialog::showRule()
{
    const replay::RuleReport *r = m_session->selected();
    m_top->setRowCount(0);
    if (r == nullptr || r->skipped) {
        m_peakView->show(nullptr);
        m_wouldDeny->setRowCount(0);
        m_denyNote->clear();
        m_useLimit->setEnabled(false);
        m_shares->setText(r ? tr("%1 was skipped: %2").arg(r->id, r->skipReason) : QString());
        return;
    }
    m_top->setRowCount(int(r->top.size()));
    for (int i = 0; i < int(r->top.size()); ++i) {
        const replay::DeniedSubject &d = r->top[size_t(i)];
        setCell(m_top, i, 0, bytes::printable(d.subject.left(200)), false);
        setCell(m_top, i, 1, grouped(d.requests), true);
        setCell(m_top, i, 2, grouped(d.denied), true);
        setCell(m_top, i, 3, when(d.firstUs), false);
        setCell(m_top, i, 4, when(d.lastUs), false);
    }
    m_top->resizeColumnsToContents();
    m_top->setColumnWidth(0, std::max(m_top->columnWidth(0), width() / 3));
    m_peakView->show(r);
}

// The limit moved (or the rule changed): the red line, the shares, the subjects it denies.
void ReplayDialog::showLimit()
{
    const replay::RuleReport *r = m_session->selected();
    if (r == nullptr || r->skipped) {
        return;
    }
    const qint64 limit = m_session->limit();
    m_peakView->setLimit(limit);
    m_shares->setText(m_session->sharesText());
    const replay::WouldDeny w = m_session->wouldDeny();
    m_wouldDeny->setRowCount(int(w.subjects.size()));
    for (int i = 0; i < int(w.subjects.size()); ++i) {
        const replay::WouldDeny::Subject &s = w.subjects[size_t(i)];
        setCell(m_wouldDeny, i, 0, bytes::printable(s.subject.left(200)), false);
        setCell(m_wouldDeny, i, 1, grouped(s.peak), true);
        setCell(m_wouldDeny, i, 2, grouped(s.requests), true);
        setCell(m_wouldDeny, i, 3, (w.approximate ? u"≈ "_s : QString()) + grouped(s.denied), true);
    }
    for (int c = 1; c < m_wouldDeny->columnCount(); ++c) {
        m_wouldDeny->resizeColumnToContents(c);
    }
    QString note = w.above == 0
                       ? tr("A limit of %1 denies no subject.").arg(grouped(limit))
                       : tr("A limit of %1 denies %n subject(s); the most denied:", nullptr,
                            int(std::min<qint64>(w.above, INT_MAX)))
                             .arg(grouped(limit));
    if (w.approximate) {
        note += u" "_s + tr("Approximate (≈): the replay keeps the %1 highest peaks of each rule, "
                            "and more subjects than that are above this limit.")
                             .arg(grouped(qint64(replay::heavyBudget)));
    }
    m_denyNote->setText(note);
    m_subjectTabs->setTabText(0, tr("Denied at %1").arg(grouped(limit)));
    QString why;
    const bool can = !m_session->limitTarget(&why).isEmpty();
    m_useLimit->setEnabled(can);
    m_useLimit->setToolTip(can ? tr("Write %1 into rule %2 on the Rules page, unsaved: review "
                                    "it there, then save, push or stage it")
                                     .arg(grouped(limit), m_session->limitTarget())
                               : why);
}

bool ReplayDialog::exportCsv(const QString &path, QString *error) const
{
    // The per-rule report, then the denials over time.
    const replay::Report &report = m_session->report();
    QByteArray csv = "set,rule,matched,admitted,denied,shadow_denied,subjects,subjects_denied,"
                     "log_429,peak_p50,peak_p90,peak_p99,peak_p99_9,peak_max,skipped\n";
    for (const auto *list : {&report.rules, &report.against}) {
        for (const replay::RuleReport &r : *list) {
            csv += r.set.toUtf8() + ',' + r.id.toUtf8();
            for (qint64 v : {r.matched, r.admitted, r.denied, r.shadowDenied, r.subjects,
                             r.subjectsDenied, r.log429, r.p50, r.p90, r.p99, r.p999, r.max}) {
                csv += ',' + QByteArray::number(v);
            }
            csv += r.skipped ? ",yes\n" : ",no\n";
        }
    }
    csv += '\n' + replay::deniedCsv(report);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size() || !f.commit()) {
        *error = tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

bool ReplayDialog::exportTo(const QString &path, QString *error) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (m_session->report().rules.empty()) {
        *error = tr("Replay a log first: there is nothing to export yet.");
        return false;
    }
    if (suffix == u"csv"_s) {
        return exportCsv(path, error);
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
        svg.setTitle(tr("Replay of %1").arg(m_session->report().files.join(u", "_s)));
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
