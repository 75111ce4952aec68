#include "auditpanel.h"

#include "keypresentation.h"
#include "scanstate.h"

#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/tone.h"

#include "core/common/duration.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

constexpr int chartRows = 8; // the chart shows the first groups (flagged first)

enum Column { LayoutColumn, KeysColumn, FlaggedColumn, NeverColumn, LongerColumn, UnknownColumn };

} // namespace

AuditChart::AuditChart(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("auditChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void AuditChart::setRows(const QList<AuditSession::Row> &rows)
{
    m_rows = rows.mid(0, chartRows);
    updateGeometry();
    update();
}

QSize AuditChart::sizeHint() const
{
    const int line = fontMetrics().height() + 8;
    return {320, int(std::max<qsizetype>(m_rows.size(), 1)) * line + 8};
}

void AuditChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height() + 8;
    if (m_rows.isEmpty()) {
        p.setPen(tone::text(Tone::Info));
        p.drawText(rect(), Qt::AlignCenter, tr("No audit yet"));
        return;
    }
    int labelWidth = 0;
    qint64 most = 1;
    for (const auto &r : m_rows) {
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(r.title));
        most = std::max(most, r.keys);
    }
    labelWidth = std::min(labelWidth + 12, width() / 3);
    const int numberWidth = fm.horizontalAdvance(QLocale().toString(most)) + 12;
    const int barSpace = std::max(width() - labelWidth - numberWidth - 4, 20);
    int y = 4;
    for (const auto &r : m_rows) {
        const QRect label(0, y, labelWidth - 8, line);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(label, Qt::AlignVCenter | Qt::AlignRight,
                   fm.elidedText(r.title, Qt::ElideMiddle, label.width()));
        // Bars on a square-root scale: 30 keys stay visible beside 1,000,000.
        auto widthOf = [&](qint64 n) {
            return n <= 0 ? 0 : std::max(2, int(barSpace * std::sqrt(double(n) / double(most))));
        };
        const QRect whole(labelWidth, y + 4, widthOf(r.keys), line - 8);
        p.fillRect(whole, tone::background(Tone::Info).darker(108));
        if (r.flagged > 0) {
            p.fillRect(QRect(whole.topLeft(), QSize(widthOf(r.flagged), whole.height())),
                       tone::color(Tone::Warning));
        }
        p.setPen(tone::text(r.flagged > 0 ? Tone::Warning : Tone::Info));
        p.drawText(QRect(whole.right() + 6, y, numberWidth + 40, line), Qt::AlignVCenter,
                   QLocale().toString(r.keys));
        y += line;
    }
}

AuditPanel::AuditPanel(EndpointSource endpoint, RulesSource rules, QWidget *parent)
    : QWidget(parent)
    , m_endpoint(std::move(endpoint))
    , m_rules(std::move(rules))
    , m_session(new AuditSession(this))
{
    setObjectName(QStringLiteral("auditPanel"));
    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);
    root->setSpacing(6);

    auto *intro = new QLabel(
        tr("Every key of the database, read once within the scan budget, and recognised by the "
           "layout of the library that wrote it (Spring and RedisTemplate counters, "
           "rate-limiter-flexible, express-rate-limit, Redisson, Spring Cloud Gateway, "
           "Bucket4j, redis-cell, Kong, Envoy, sliding logs, Sluice). Application keys are only "
           "counted."),
        this);
    intro->setWordWrap(true);
    root->addWidget(intro);

    auto *bar = new QHBoxLayout;
    m_start = PageHeader::button(tr("Audit now"), QStringLiteral("auditStartButton"), this);
    m_cancel = PageHeader::button(tr("Cancel"), QStringLiteral("auditCancelButton"), this);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("auditProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setFixedWidth(200);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("auditStatus"));
    bar->addWidget(m_start);
    bar->addWidget(m_cancel);
    bar->addWidget(m_progress);
    bar->addWidget(m_status, 1);
    root->addLayout(bar);

    m_keysLine = new QLabel(this);
    m_keysLine->setObjectName(QStringLiteral("auditKeysLine"));
    m_keysLine->setWordWrap(true);
    m_keysLine->setVisible(false);
    root->addWidget(m_keysLine);

    m_report =
        new MessageBanner(QStringLiteral("auditReportBox"), QStringLiteral("auditReport"), this);
    m_report->setDismissible(QStringLiteral("closeAuditReportButton"), true);
    root->addWidget(m_report);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setChildrenCollapsible(false);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget(0, 6, left);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setHorizontalHeaderLabels({tr("Layout"), tr("Keys"), tr("Flagged"),
                                        keypresentation::flagTitle(keys::Health::NoTtl),
                                        keypresentation::flagTitle(keys::Health::TtlExceedsRule),
                                        keypresentation::flagTitle(keys::Health::WrongType)});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->setShowGrid(false);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(LayoutColumn, QHeaderView::Stretch);
    for (int c = KeysColumn; c <= UnknownColumn; ++c) {
        m_table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    leftLayout->addWidget(m_table, 3);
    m_chart = new AuditChart(left);
    leftLayout->addWidget(m_chart, 0);
    m_summary = new QLabel(left);
    m_summary->setObjectName(QStringLiteral("auditSummary"));
    m_summary->setWordWrap(true);
    leftLayout->addWidget(m_summary);

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(new QLabel(tr("Why"), right));
    m_why = new QPlainTextEdit(right);
    m_why->setObjectName(QStringLiteral("auditWhy"));
    m_why->setReadOnly(true);
    rightLayout->addWidget(m_why, 1);
    auto *fixBar = new QHBoxLayout;
    auto *ttlLabel = new QLabel(tr("&TTL:"), right);
    m_ttl = new QLineEdit(QStringLiteral("1m"), right);
    m_ttl->setObjectName(QStringLiteral("auditTtlEdit"));
    m_ttl->setToolTip(tr("The TTL to set on the group's keys that have none, e.g. 60s, 1m, 1h "
                         "(at most 30d)"));
    m_ttl->setMaximumWidth(90);
    ttlLabel->setBuddy(m_ttl);
    m_fix = PageHeader::button(tr("Fix with TTL…"), QStringLiteral("auditFixButton"), right);
    m_delete = PageHeader::button(tr("Delete…"), QStringLiteral("auditDeleteButton"), right);
    fixBar->addWidget(ttlLabel);
    fixBar->addWidget(m_ttl);
    fixBar->addWidget(m_fix);
    fixBar->addWidget(m_delete);
    fixBar->addStretch(1);
    rightLayout->addLayout(fixBar);
    split->addWidget(left);
    split->addWidget(right);
    PageHeader::shareSplit(split, 3, 2);
    root->addWidget(split, 1);

    connect(m_start, &QPushButton::clicked, this, &AuditPanel::start);
    connect(m_cancel, &QPushButton::clicked, m_session, &AuditSession::cancel);
    connect(m_session, &AuditSession::busyChanged, this, &AuditPanel::updateBusy);
    connect(m_session, &AuditSession::progressChanged, this, &AuditPanel::updateBusy);
    connect(m_session, &AuditSession::finished, this, &AuditPanel::showResult);
    connect(m_session, &AuditSession::fixFinished, this,
            [this] { m_report->showMessage(m_session->lastFix()); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &AuditPanel::showWhy);
    connect(m_fix, &QPushButton::clicked, this, [this] { fixSelected(false); });
    connect(m_delete, &QPushButton::clicked, this, [this] { fixSelected(true); });
    m_report->hide();
    updateBusy();
}

void AuditPanel::start()
{
    const std::optional<Endpoint> endpoint = m_endpoint ? m_endpoint() : std::nullopt;
    if (!endpoint) {
        m_report->showMessage(
            PageMessage::plain(Tone::Warning, tr("Not connected: connect to a Redis first")));
        return;
    }
    m_report->hide();
    m_session->start(*endpoint, m_rules ? m_rules() : std::nullopt);
}

void AuditPanel::setScanState(const KeysScanState *state)
{
    m_scanState = state;
    connect(state, &KeysScanState::changed, this, &AuditPanel::updateKeysLine);
    updateKeysLine();
}

void AuditPanel::updateKeysLine()
{
    const KeysScanState *s = m_scanState;
    if (!s || !s->hasResult()) {
        m_keysLine->setVisible(false);
        return;
    }
    const QLocale locale;
    QString what;
    if (s->neverExpiring() > 0) {
        what = tr("%1 flagged, %2 never expire")
                   .arg(locale.toString(s->flagged()), locale.toString(s->neverExpiring()));
    } else if (s->flagged() > 0) {
        what = tr("%1 flagged").arg(locale.toString(s->flagged()));
    } else if (s->mayShowHealthy()) {
        what = tr("all healthy");
    } else {
        what = tr("nothing flagged among the keys listed");
    }
    m_keysLine->setText(tr("The Keys table (your rules' keys): %1; %2.").arg(what, s->scanLine()));
    m_keysLine->setVisible(true);
}

void AuditPanel::updateBusy()
{
    const bool busy = m_session->isRunning() || m_session->isFixing();
    m_start->setEnabled(!busy);
    m_cancel->setVisible(busy);
    m_progress->setVisible(m_session->isRunning());
    m_progress->setValue(int(m_session->fraction() * 1000));
    m_status->setText(m_session->statusText());
    const auto row = selectedRow();
    const std::optional<Endpoint> endpoint = m_endpoint ? m_endpoint() : std::nullopt;
    m_readOnly = endpoint && endpoint->readOnly;
    const bool canFix = !busy && !m_readOnly && row && row->withoutTtl > 0;
    m_fix->setEnabled(canFix);
    m_delete->setEnabled(canFix);
    const QString why = m_readOnly ? tr("Read-only connection: nothing is written")
                                   : tr("Acts on the selected group's keys that have no TTL");
    m_fix->setToolTip(why);
    m_delete->setToolTip(why);
}

void AuditPanel::showResult()
{
    m_rows = m_session->rows();
    m_table->setRowCount(int(m_rows.size()));
    const QLocale locale;
    for (int i = 0; i < m_rows.size(); ++i) {
        const AuditSession::Row &r = m_rows[i];
        auto *name = new QTableWidgetItem(r.title);
        name->setToolTip(r.library);
        if (r.flagged > 0) {
            name->setForeground(tone::text(Tone::Warning));
        }
        m_table->setItem(i, LayoutColumn, name);
        const qint64 values[] = {r.keys, r.flagged, r.neverExpires, r.ttlExceedsWindow, r.unknown};
        for (int c = KeysColumn; c <= UnknownColumn; ++c) {
            auto *item = new QTableWidgetItem(locale.toString(values[c - KeysColumn]));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, c, item);
        }
    }
    m_chart->setRows(m_rows);
    m_summary->setText(m_session->summaryText());
    if (!m_rows.isEmpty()) {
        m_table->selectRow(0);
    }
    showWhy();
    updateBusy();
}

std::optional<AuditSession::Row> AuditPanel::selectedRow() const
{
    const auto selected = m_table->selectionModel()->selectedRows();
    if (selected.isEmpty() || selected.first().row() >= m_rows.size()) {
        return std::nullopt;
    }
    return m_rows[selected.first().row()];
}

void AuditPanel::showWhy()
{
    const auto row = selectedRow();
    m_why->setPlainText(row ? row->why : QString());
    updateBusy();
}

void AuditPanel::fixSelected(bool deleteKeys)
{
    const auto row = selectedRow();
    if (!row) {
        return;
    }
    qint64 ttlMs = 0;
    if (!deleteKeys) {
        auto us = duration::parseUs(m_ttl->text().trimmed());
        if (!us) {
            m_report->showMessage(
                PageMessage::plain(Tone::Warning, tr("TTL: %1").arg(us.error().message)));
            return;
        }
        ttlMs = (*us + 999) / 1000;
    }
    QString nothing;
    const auto question = m_session->fixQuestion(*row, ttlMs, deleteKeys, &nothing);
    if (!question) {
        m_report->showMessage(PageMessage::plain(Tone::Info, nothing));
        return;
    }
    askToConfirm(this, m_confirm, deleteKeys ? tr("Delete keys") : tr("Set a TTL"), *question,
                 deleteKeys ? tr("Delete") : tr("Set TTL"),
                 [this, r = *row, ttlMs, deleteKeys] { m_session->fix(r, ttlMs, deleteKeys); });
}

} // namespace sluice::ui
