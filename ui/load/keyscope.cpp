#include "keyscope.h"

#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>

namespace sluice::ui {

KeyScope::KeyScope(QWidget *parent)
    : QWidget(parent)
{
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 2);
    m_real = new QCheckBox(tr("Decide on the rules' real keys"), this);
    m_real->setObjectName(QStringLiteral("realKeysCheck"));
    m_real->setToolTip(tr("Off: the run counts under keys of its own, removed at the end. On: "
                          "it counts against the quotas of real subjects."));
    box->addWidget(m_real);
    m_note = PageHeader::note(this);
    m_note->setObjectName(QStringLiteral("keyScopeNote"));
    box->addWidget(m_note);
    connect(m_real, &QCheckBox::toggled, this, &KeyScope::update);
    connect(m_real, &QCheckBox::toggled, this, &KeyScope::toggled);
    connect(&Theme::instance(), &Theme::changed, this, &KeyScope::update); // the note's colour
    update();
}

void KeyScope::setThrowaway(bool throwaway)
{
    m_throwaway = throwaway;
    update();
}

void KeyScope::update()
{
    QString text;
    if (realKeys()) {
        text = tr("\u26a0 The run uses the rules' own key prefixes: subjects 10.0.0.1, … count "
                  "against the same keys as real traffic. The Monitor's Limited right now and "
                  "the Keys page show them.");
        if (m_throwaway) {
            text += QLatin1Char(' ') + tr("On the sandbox no confirmation is asked.");
        }
    } else {
        text = tr("The run uses keys of its own (sluice:load:<run>:…), removed when it ends: real "
                  "subjects' quotas are untouched. The Monitor charts the run, but its Limited "
                  "right now and the Keys page do not read these keys: tick the box to watch "
                  "the subjects it limits there.");
    }
    m_note->setText(text);
    m_note->setToolTip(text);
    m_note->setStyleSheet(
        QStringLiteral("color: %1;")
            .arg(tone::hex(realKeys() ? tone::text(Tone::Warning) : tone::muted())));
}

bool KeyScope::realKeys() const
{
    return m_real->isChecked();
}

void KeyScope::confirmThen(QWidget *parent, const ConfirmHook &hook, std::function<void()> go) const
{
    if (!realKeys() || m_throwaway) {
        go();
        return;
    }
    askToConfirm(parent, hook, tr("Load"),
                 tr("Run the load on the rules' real keys? Its requests count against the same "
                    "quotas as real traffic, and the keys are not removed afterwards."),
                 tr("Use the real keys"), std::move(go), QMessageBox::DestructiveRole);
}

} // namespace sluice::ui
