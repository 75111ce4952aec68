#pragma once

#include "core/rules/rule.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sluice::ui {

class DurationField;

// The Rules page's "Add override…": an override of one rule stored in Redis (OverrideStore)
// for a subject or a network that need not be limited right now (a partner to let through, an
// abuser to stop before it comes back): what it matches (a subject, or a network in CIDR
// form), allow or deny, for how long (between 1 s and 30 days, default 1 h) and a note.
// Add emits addRequested with the override; the page stores it through its session.
class AddOverrideDialog : public QDialog
{
    Q_OBJECT
public:
    AddOverrideDialog(const Rule &rule, QWidget *parent = nullptr);

    // The override the fields describe now (its ttlUs set; the store turns it into an end).
    Override override() const;

Q_SIGNALS:
    void addRequested(const QString &ruleId, const sluice::Override &o);

private:
    void check();

    QString m_ruleId;
    QComboBox *m_kind;
    QLineEdit *m_pattern;
    QComboBox *m_action;
    DurationField *m_duration;
    QLineEdit *m_note;
    QLabel *m_error;
    QPushButton *m_ok;
};

} // namespace sluice::ui
