#include "connectionstatus.h"

#include "ui/common/elidedlabel.h"

#include "ui/common/tone.h"

#include <QHBoxLayout>
#include <QLabel>

namespace sluice::ui {

namespace {

const QString separator = QStringLiteral(u" \u00b7 ");

QString colorOf(ConnectionStatus::Tone tone)
{
    switch (tone) {
    case ConnectionStatus::Tone::Good:
        return tone::hex(tone::color(Tone::Good));
    case ConnectionStatus::Tone::Warning:
        return tone::hex(tone::text(Tone::Warning));
    case ConnectionStatus::Tone::Bad:
        return tone::hex(tone::color(Tone::Bad));
    default:
        return tone::hex(tone::muted()); // readable on the window (a grey dot was not)
    }
}

} // namespace

ConnectionStatus::ConnectionStatus(QWidget *parent)
    : QWidget(parent)
    , m_dot(new QLabel(QStringLiteral(u"\u25cf"), this))
    , m_text(new ElidedLabel(this))
{
    setObjectName(QStringLiteral("connectionStatus"));
    m_dot->setObjectName(QStringLiteral("connectionDot"));
    m_text->setObjectName(QStringLiteral("connectionText"));
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse); // copy the address at 3 a.m.
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->setSpacing(6);
    layout->addWidget(m_dot);
    layout->addWidget(m_text, 1);
    setState(ConnectionState{});
}

QString ConnectionStatus::text() const
{
    return m_text->text();
}

ConnectionStatus::Tone ConnectionStatus::toneOf(const ConnectionState &s)
{
    switch (s.state) {
    case ConnectionState::State::Connected:
        return s.error.isEmpty() ? Tone::Good : Tone::Warning;
    case ConnectionState::State::Lost:
        return Tone::Warning;
    case ConnectionState::State::Failed:
        return Tone::Bad;
    default:
        return Tone::Info;
    }
}

QString ConnectionStatus::describe(const ConnectionState &s)
{
    if (s.state == ConnectionState::State::Idle) {
        return tr("Not connected");
    }
    if (s.state == ConnectionState::State::Connecting) {
        return tr("Connecting to %1 (%2)…").arg(s.label, s.endpoint);
    }
    QStringList parts;
    parts << s.label + QLatin1Char(' ') + s.endpoint;
    if (s.readOnly) {
        parts << tr("read-only");
    }
    if (!s.redisVersion.isEmpty()) {
        parts << tr("Redis %1").arg(s.redisVersion);
    }
    switch (s.state) {
    case ConnectionState::State::Connected:
        parts << formatRtt(s.rttMs);
        if (!s.error.isEmpty()) {
            parts << s.error;
        }
        break;
    case ConnectionState::State::Lost:
        parts << (s.redisVersion.isEmpty() ? s.error : tr("connection lost: %1").arg(s.error));
        parts << (s.retryInSeconds > 0 ? tr("reconnecting in %1 s").arg(s.retryInSeconds)
                                       : tr("reconnecting now…"));
        break;
    case ConnectionState::State::Failed:
        parts << tr("cannot connect: %1").arg(s.error);
        parts << tr("see Connection (Ctrl+1)");
        break;
    default:
        break;
    }
    return parts.join(separator);
}

void ConnectionStatus::setState(const ConnectionState &state)
{
    m_tone = toneOf(state);
    m_dot->setStyleSheet(QStringLiteral("color: %1;").arg(colorOf(m_tone)));
    m_text->setText(describe(state));
    QStringList tip;
    if (!state.hint.isEmpty()) {
        tip << state.hint;
    }
    if (!state.detail.isEmpty()) {
        tip << state.detail;
    }
    setToolTip(tip.join(QLatin1Char('\n')));
    // A long line (a profile's long name, an error) ends in "…": the tooltip has it all.
    m_text->setOwnToolTip(tip.isEmpty() ? QString()
                                        : m_text->text() + QStringLiteral("\n\n") +
                                              tip.join(QLatin1Char('\n')));
}

} // namespace sluice::ui
