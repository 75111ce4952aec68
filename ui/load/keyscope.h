#pragma once

#include "ui/common/confirm.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;

namespace sluice::ui {

// Which keys a load run decides on (destructive actions stay inside limiter keys):
// (LoadSession::setRealKeys) by default keys of its own under a run-scoped prefix
// (load::runScopedPrefix(), removed at the end), so that real subjects' quotas are untouched;
// ticked, the rules' real keys, which only an explicit confirmation reaches (none on the
// throwaway sandbox). The note says what each choice means for the Monitor and the Keys page.
class KeyScope : public QWidget
{
    Q_OBJECT
public:
    explicit KeyScope(QWidget *parent = nullptr);

    bool realKeys() const;
    // Connected to the throwaway sandbox: the real keys need no confirmation there.
    void setThrowaway(bool throwaway);
    bool isThrowaway() const { return m_throwaway; }
    // Runs `go` at once for the run's own keys (or on the sandbox); for the real keys after
    // the user confirms.
    void confirmThen(QWidget *parent, const ConfirmHook &hook, std::function<void()> go) const;

Q_SIGNALS:
    void toggled(bool realKeys);

private:
    QCheckBox *m_real;
    QLabel *m_note;
    bool m_throwaway = false;
    void update();
};

} // namespace sluice::ui
