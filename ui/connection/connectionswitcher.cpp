#include "connectionswitcher.h"

#include "connectioncontroller.h"
#include "profilestore.h"

#include <QAction>
#include <QActionGroup>
#include <QDateTime>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QToolButton>

namespace sluice::ui {

namespace {

QString lastKey(const QString &id)
{
    return QStringLiteral("connection/last/") + id;
}

} // namespace

ConnectionSwitcher::ConnectionSwitcher(ConnectionController *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
{
    connect(connection, &ConnectionController::stateChanged, this, &ConnectionSwitcher::onState);
}

QString ConnectionSwitcher::lastState(const QString &id)
{
    return QSettings().value(lastKey(id)).toString();
}

void ConnectionSwitcher::onState(const ConnectionState &state)
{
    const QString id = m_connection->currentId();
    if (id.isEmpty()) {
        return;
    }
    const QString time =
        QLocale().toString(QDateTime::currentDateTime(), QStringLiteral("MMM d HH:mm"));
    QString last;
    switch (state.state) {
    case ConnectionState::State::Connected:
        last = tr("connected %1").arg(time);
        break;
    case ConnectionState::State::Failed:
        last = tr("failed %1: %2").arg(time, state.error);
        break;
    case ConnectionState::State::Lost:
        last = tr("lost %1: %2").arg(time, state.error);
        break;
    case ConnectionState::State::Idle:
    case ConnectionState::State::Connecting:
        return;
    }
    QSettings().setValue(lastKey(id), last);
}

QToolButton *ConnectionSwitcher::makeButton(QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(QStringLiteral("connectionSwitcher"));
    button->setText(tr("Switch ▾"));
    button->setToolTip(tr("Connect to another server: the sandbox or a saved profile"));
    button->setAutoRaise(true);
    button->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(button);
    menu->setObjectName(QStringLiteral("connectionSwitcherMenu"));
    connect(menu, &QMenu::aboutToShow, this, [this, menu] { fill(menu); });
    button->setMenu(menu);
    return button;
}

void ConnectionSwitcher::fill(QMenu *menu)
{
    menu->clear();
    menu->setToolTipsVisible(true);
    auto *group = new QActionGroup(menu);
    const QString current = m_connection->currentId();
    const auto add = [&](const QString &id, const QString &name, const QString &where) {
        const QString last = lastState(id);
        QAction *a =
            menu->addAction(last.isEmpty() ? name : QStringLiteral("%1\t%2").arg(name, last));
        a->setObjectName(QStringLiteral("switchTo-") + id);
        a->setData(id);
        a->setCheckable(true);
        a->setChecked(id == current);
        a->setToolTip(where);
        a->setStatusTip(where);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, id] {
            if (id == m_connection->currentId() && m_connection->state().isUp()) {
                return;
            }
            if (id == ProfileStore::sandboxId()) {
                m_connection->connectToSandbox();
            } else {
                m_connection->connectTo(id);
            }
        });
    };
    add(ProfileStore::sandboxId(), tr("Sandbox"), tr("A private, empty Redis on this machine"));
    const QList<ConnectionProfile> profiles = m_connection->store()->profiles();
    for (const ConnectionProfile &p : profiles) {
        add(p.id, p.readOnly ? tr("%1 (read-only)").arg(p.name) : p.name, p.endpoint({}).display());
    }
    if (profiles.isEmpty()) {
        QAction *none =
            menu->addAction(tr("No saved profiles yet: add one on the Connection page"));
        none->setEnabled(false);
    }
}

} // namespace sluice::ui
