#pragma once

#include "args.h"

#include "app/serve/servelog.h"
#include "app/serve/servertls.h"

#include "core/common/result.h"

#include <QObject>

#include <memory>

namespace sluice::cli {

// serve's --listen-tls-cert FILE, --listen-tls-key FILE and --listen-tls-client-ca FILE (the
// listeners' own; --tls-* are the connection to Redis): none is plain HTTP and gRPC. A usage
// error (Error::Kind::Invalid: one without the other) or a file that does not load (the error
// names it) fails; success without the flags is a null pointer.
Result<std::shared_ptr<serve::ServerTls>> listenTlsFromArgs(const Args &args);

// Reads the certificate again on SIGHUP (reload()) and when its files change (polled every
// second): new connections take the new one, open ones keep theirs; one that does not load
// keeps the one served, and says so in one log line per change.
class TlsReloader : public QObject
{
public:
    TlsReloader(std::shared_ptr<serve::ServerTls> tls, serve::ServeLog &log);
    void reload(const char *why);

private:
    std::shared_ptr<serve::ServerTls> m_tls;
    serve::ServeLog &m_log;
};

} // namespace sluice::cli
