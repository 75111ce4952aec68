#pragma once

#include "core/keys/keyhealth.h"

#include <QFrame>

class QLabel;
class QPushButton;

namespace sluice::ui {

// The Keys page's health banner (CONSOLE.md "Keys"): one line on what is wrong with the keys
// scanned, worst first ("37 limiter keys never expire: each blocks its subject forever."),
// "Why?" for the cause in a few sentences, and the two ways out: show them, fix them all from
// their rules (or delete them). Red when keys never expire, amber for other problems, green
// when all is well. GUI thread; it only shows counts and forwards clicks.
class HealthBanner : public QFrame
{
    Q_OBJECT
public:
    explicit HealthBanner(QWidget *parent = nullptr);

    // `haveRules`: without rules no TTL can be taken from one, so "Fix all" is off (deleting
    // stays possible). `scanning`: counts so far, said so.
    void setSummary(const keys::HealthSummary &summary, bool haveRules, bool scanning);
    void setBusy(bool busy); // a fix runs: the actions wait
    QString text() const;

Q_SIGNALS:
    void showFlaggedRequested();
    void fixAllRequested();
    void deleteAllRequested();

private:
    void toggleWhy();

    QLabel *m_icon;
    QLabel *m_text;
    QLabel *m_why;
    QPushButton *m_whyButton;
    QPushButton *m_show;
    QPushButton *m_fix;
    QPushButton *m_delete;
    bool m_haveRules = false;
    bool m_busy = false;
    keys::HealthSummary m_summary;
};

} // namespace sluice::ui
