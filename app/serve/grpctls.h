#pragma once

#include "servertls.h"

#include "core/common/result.h"

#include <grpcpp/security/server_credentials.h>

#include <memory>

namespace sluice::serve {

// The credentials of serve --grpc: insecure without `tls`; with it, TLS (1.2 or newer, gRPC's
// own floor) with tls's certificate, and client certificates required and verified when tls
// has a client CA. gRPC reads the certificate from tls->publish()'s private copy (a directory
// made here under $TMPDIR, mode 0700, removed with `tls`) through its file watcher, which looks
// every second: a reload that ServerTls accepted reaches new gRPC handshakes within it; one it
// refused never reaches gRPC.
Result<std::shared_ptr<grpc::ServerCredentials>> grpcServerCredentials(ServerTls *tls);

} // namespace sluice::serve
