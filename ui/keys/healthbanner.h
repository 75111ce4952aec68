#pragma once

#include "core/keys/keyhealth.h"

#include "ui/common/messagebanner.h"

class QPushButton;

namespace sluice::ui {

class KeysScanState;

// The Keys page's health banner (CONSOLE.md "Keys"): one line on what is wrong with the keys
// scanned, worst first ("37 limiter keys never expire: once one reaches the limit it blocks its
// subject until someone deletes it."),
// "Why?" for the cause in a few sentences, and the two ways out: show them, fix them all from
// their rules (or delete them). Red when keys never expire, amber for other problems, green
// when all is well. The kit's MessageBanner with its icon, standing buttons and "Why?"; this
// class holds only the words. GUI thread; it only shows counts and forwards clicks.
class HealthBanner : public MessageBanner
{
    Q_OBJECT
public:
    explicit HealthBanner(QWidget *parent = nullptr);

    // `haveRules`: without rules no TTL can be taken from one, so "Fix all" is off (deleting
    // stays possible). `scanning`: counts so far, said so. `state` (the session's model of the
    // last scan): a green "healthy" only from a current scan that saw the whole match; a
    // partial, stale or failed result says so instead.
    void setSummary(const keys::HealthSummary &summary, bool haveRules, bool scanning,
                    const KeysScanState *state = nullptr);

Q_SIGNALS:
    void showFlaggedRequested();
    void fixAllRequested();
    void deleteAllRequested();

private:
    struct Headline
    {
        QString text;
        bool neutral = false; // nothing flagged, but nothing to call healthy either
    };
    // setSummary's steps: the problems in words (worst first), the worst health, the headline,
    // the banner's tone for a health.
    static QStringList problems(const keys::HealthSummary &s);
    static keys::Health worst(const keys::HealthSummary &s);
    static Headline headline(const QStringList &parts, const keys::HealthSummary &s, bool scanning,
                             const KeysScanState *state);
    static Tone toneOf(keys::Health tone);

    QPushButton *m_show;
    QPushButton *m_fix;
    QPushButton *m_delete;
};

} // namespace sluice::ui
