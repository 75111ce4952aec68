#include "foreignwatchpanel.h"

#include "foreignwatchmodel.h"

#include "ui/common/elidedlabel.h"
#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"
#include "ui/connection/connectioncontroller.h"

#include "core/keys/audit.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace sluice::ui {

ForeignWatchPanel::ForeignWatchPanel(ConnectionController *connection, int intervalMs,
                                     QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_worker(QStringLiteral("sluice-foreignwatch"), intervalMs)
{
    setObjectName(QStringLiteral("foreignWatchPanel"));
    qRegisterMetaType<keys::WatchReport>();
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 6, {0, 8, 0, 0});
    auto *title = new QHBoxLayout;
    auto *heading = PageHeader::heading(tr("Other limiters"), 1.0, this);
    heading->setObjectName(QStringLiteral("foreignWatchHeading"));
    heading->setToolTip(
        tr("Limiters Sluice does not run (a Spring aspect, a Node middleware, a gateway), read "
           "from their keys alone, never written: the subjects at or near their limit, the "
           "busiest, and the requests their counters admitted between two samples. A counter's "
           "limit comes from an adopt block of the rules; Spring Cloud Gateway's tokens and "
           "block keys say theirs."));
    title->addWidget(heading);
    title->addSpacing(12);
    m_status = new ElidedLabel(this);
    m_status->setObjectName(QStringLiteral("foreignWatchStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    title->addWidget(m_status, 1);
    box->addLayout(title);
    m_model = new ForeignWatchModel(this);
    m_view = makeTableView(QStringLiteral("foreignWatchTable"), m_model, this, Qt::ElideMiddle);
    fitColumnsToView(m_view, ForeignWatchModel::KeyColumn, {}, {ForeignWatchModel::LevelColumn});
    box->addWidget(m_view, 1);
    m_empty = PageHeader::note(this);
    m_empty->setObjectName(QStringLiteral("foreignWatchNote"));
    m_empty->setText(tr("No other limiter's keys whose limit is known. Give a counter its limit "
                        "with an adopt block in the rules; Spring Cloud Gateway's tokens and "
                        "block keys (@nestjs/throttler, Rack::Attack) say theirs."));
    box->addWidget(m_empty);

    connect(m_worker.get(), &ForeignWatchWorker::reportReady, this, &ForeignWatchPanel::onReport);
    m_worker.post([](ForeignWatchWorker *w) { w->start(); });
    connect(m_connection, &ConnectionController::sessionChanged, this,
            &ForeignWatchPanel::onSession);
    onSession();
    m_status->setText(tr("waiting for two samples…"));
}

ForeignWatchPanel::~ForeignWatchPanel()
{
    m_worker.get()->cancel();
}

QString ForeignWatchPanel::statusText() const
{
    return m_status->text();
}

void ForeignWatchPanel::setRules(const RuleSet &rules)
{
    m_worker.post([a = keys::adoptionsOf(rules)](ForeignWatchWorker *w) { w->setAdoptions(a); });
}

void ForeignWatchPanel::showEvent(QShowEvent *event)
{
    m_worker.post([](ForeignWatchWorker *w) { w->setActive(true); });
    QWidget::showEvent(event);
}

void ForeignWatchPanel::hideEvent(QHideEvent *event)
{
    m_worker.post([](ForeignWatchWorker *w) { w->setActive(false); });
    QWidget::hideEvent(event);
}

void ForeignWatchPanel::onSession()
{
    ++m_generation;
    m_model->setReport({});
    m_status->setText(m_connection->endpoint() ? tr("waiting for two samples…")
                                               : tr("not connected"));
    m_worker.post([e = m_connection->endpoint(), g = m_generation, b = m_connection->scanBudget()](
                      ForeignWatchWorker *w) { w->setEndpoint(e, g, b); });
}

void ForeignWatchPanel::onReport(quint64 session, const keys::WatchReport &report,
                                 const QString &error)
{
    if (session != m_generation) {
        return; // read for a previous connection
    }
    if (!error.isEmpty()) {
        m_status->setText(tr("Not updating: %1").arg(error));
        Q_EMIT updated();
        return;
    }
    m_model->setReport(report);
    const qint64 watched = report.watched;
    const double admitted = report.admittedPerS();
    // The resolution in the user's language ("sampled every 2 s"), to a tenth of a second.
    const double seconds = std::round(double(report.intervalMs) / 100.0) / 10.0;
    const QString resolution =
        tr("sampled every %1 s")
            .arg(QLocale().toString(seconds, 'f', seconds == std::floor(seconds) ? 0 : 1));
    QString status =
        tr("%1 · %2 limited, %3 near, of %4 keys · admitted %5/s")
            .arg(resolution, QLocale().toString(report.limited()),
                 QLocale().toString(report.near()), QLocale().toString(watched),
                 admitted < 0 ? QStringLiteral("–") : QLocale().toString(admitted, 'f', 1));
    if (report.truncated) {
        status += tr(" · only the first %1 keys (the cap)").arg(QLocale().toString(watched));
    }
    m_status->setText(status);
    m_empty->setVisible(watched == 0);
    Q_EMIT updated();
}

} // namespace sluice::ui
