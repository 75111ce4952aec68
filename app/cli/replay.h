#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli replay LOG... --rules FILE [--against FILE2] [--format F] [--log-format S]
//   [--field ROLE=KEY]... [--trust-proxies N|CIDR,...] [--reorder-window D] [--candidate N]...
//   [--backend local|redis] [--url URL] [--max-subjects N] [--csv FILE] [--json] (FORMATS.md
//   "replay"): real access logs through the rules, who would have been limited and what limit to
//   choose.
int replay(const QList<QByteArray> &argv);

} // namespace sluice::cli
