#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli serve --url URL (--rules FILE | --from-redis) --listen HOST:PORT
//                  [--legacy-headers] [--workers N] [--timeout-ms T]
// Runs the HTTP check service (app/serve) until SIGINT or SIGTERM. Prints one line to stdout
// once listening: "listening on http://HOST:PORT" (the real port when PORT is 0).
int serve(const QList<QByteArray> &argv);

} // namespace sluice::cli
