#pragma once

#include "auditsession.h"

#include "ui/common/confirm.h"

#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace sluice::ui {

class KeysScanState;
class MessageBanner;

// The groups of an audit as horizontal bars: all keys of a layout, its flagged share in the
// warning colour. Paints AuditSession::rows().
class AuditChart : public QWidget
{
    Q_OBJECT
public:
    explicit AuditChart(QWidget *parent = nullptr);
    void setRows(const QList<AuditSession::Row> &rows);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<AuditSession::Row> m_rows;
};

// The Keys page's "Audit the whole keyspace" mode (CONSOLE.md "Keys"): a thin view over an
// AuditSession. Every key of the database read once in a worker, with progress and Cancel;
// the layouts found with their counts and a chart, flagged groups first; the Why of the
// selected group; Fix with a TTL or Delete its keys without TTL, after a confirmation that
// gives the count.
class AuditPanel : public QWidget
{
    Q_OBJECT
public:
    using EndpointSource = std::function<std::optional<Endpoint>()>;
    using RulesSource = std::function<std::optional<RuleSet>()>;
    AuditPanel(EndpointSource endpoint, RulesSource rules, QWidget *parent = nullptr);

    void setConfirm(ConfirmHook confirm) { m_confirm = std::move(confirm); }
    // The Keys page's model of its last scan: the panel says what it saw and when, beside the
    // audit's own result, so that the two are read together (the page rescans after an audit).
    void setScanState(const KeysScanState *state);
    AuditSession *session() const { return m_session; }
    QTableWidget *table() const { return m_table; }

public Q_SLOTS:
    void start();

private:
    void updateBusy();
    void updateKeysLine();
    void showResult();
    void showWhy();
    void fixSelected(bool deleteKeys);
    std::optional<AuditSession::Row> selectedRow() const;

    EndpointSource m_endpoint;
    RulesSource m_rules;
    ConfirmHook m_confirm;
    AuditSession *m_session;
    QList<AuditSession::Row> m_rows;
    bool m_readOnly = false; // the endpoint's: Fix and Delete stay off

    QPushButton *m_start;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_keysLine;
    const KeysScanState *m_scanState = nullptr;
    QLabel *m_summary;
    AuditChart *m_chart;
    QTableWidget *m_table;
    QPlainTextEdit *m_why;
    QLineEdit *m_ttl;
    QPushButton *m_fix;
    QPushButton *m_delete;
    MessageBanner *m_report;
};

} // namespace sluice::ui
