#pragma once

#include "ui/common/confirm.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;

namespace sluice::ui {

// Which keys a load run decides on (issue 11: destructive actions stay inside limiter keys):
// (LoadSession::setRealKeys) by default keys of its own under a run-scoped prefix
// (load::runScopedPrefix(), removed at the end), so that real subjects' quotas are untouched;
// ticked, the rules' real keys, which only an explicit confirmation reaches.
class KeyScope : public QWidget
{
    Q_OBJECT
public:
    explicit KeyScope(QWidget *parent = nullptr);

    bool realKeys() const;
    // Runs `go` at once for the run's own keys; for the real keys after the user confirms.
    void confirmThen(QWidget *parent, const ConfirmHook &hook, std::function<void()> go) const;

Q_SIGNALS:
    void toggled(bool realKeys);

private:
    QCheckBox *m_real;
    QLabel *m_note;
};

} // namespace sluice::ui
