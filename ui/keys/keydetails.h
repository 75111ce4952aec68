#pragma once

#include "core/keys/keyinfo.h"
#include "core/keys/keysworker.h"
#include "core/rules/rule.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QScrollArea;

namespace sluice::ui {

class Sparkline;

// The Keys page's details pane for the selected key: what it is (type, TTL), its rule in words
// (Rule::describe()), the state decoded, the verdict with its explanation (KeyInfo::
// explanation(), which spells out the INCR-after-expiry cause), and the raw value as Redis
// holds it (KeysWorker::RawValue, read on selection), and a sparkline of the last minute: how
// much of its limit the key had used at each of the page's once-a-second re-reads since it was
// selected (the console re-reads the key's counter; recorded statistics are per rule, not per
// key). Never a modal. GUI thread.
class KeyDetails : public QWidget
{
    Q_OBJECT
public:
    explicit KeyDetails(QWidget *parent = nullptr);

    // nullopt: nothing selected. `rule` may be null (no rule, or no rules loaded). A new key
    // clears the raw value until setValue() brings it; the same key keeps it (a refresh).
    void setKey(const std::optional<keys::KeyInfo> &info, const Rule *rule);
    void setValue(const keys::KeysWorker::RawValue &value);
    std::optional<QByteArray> key() const;

private:
    QString explanationSheet() const; // the "Why it is flagged" box, from tone.h
    std::optional<keys::KeyInfo> m_info;
    QLabel *m_title;
    QLabel *m_type;
    QLabel *m_ttl;
    QLabel *m_rule;
    QLabel *m_subject;
    QLabel *m_explanationTitle;
    QLabel *m_state;
    QLabel *m_health;
    QLabel *m_historyNote;
    Sparkline *m_history; // used of the limit, last minute, from the 1 s re-reads
    QLabel *m_explanation;
    QLabel *m_rawTitle;
    QPlainTextEdit *m_raw;
    QScrollArea *m_scroll;
    QWidget *m_body;
    QLabel *m_placeholder;
};

} // namespace sluice::ui
