#pragma once

#include <QByteArray>

namespace sluice::cli {

// systemd's readiness protocol (sd_notify(3)) without libsystemd: one datagram of
// "KEY=VALUE\n..." lines to the socket named by $NOTIFY_SOCKET (a path, or "@name" for the
// abstract namespace). A no-op outside a Type=notify service (no NOTIFY_SOCKET). Returns
// whether the datagram was sent.
bool sdNotify(const QByteArray &state);

} // namespace sluice::cli
