#pragma once

// Certificates for TLS tests, made with the openssl command line in a directory of the test's
// own (tst_transport, tst_connectionpage):
//   ca.pem/ca-key.pem              a CA
//   server.pem/server-key.pem      for DNS:localhost (not for 127.0.0.1), signed by ca
//   expired.pem                    the same key and name, valid one day in 2020, signed by ca
//   otherca.pem                    a CA nobody trusts
//   clientca.pem                   a CA for client certificates
//   client.pem/client-key.pem      signed by clientca
//   stranger.pem/stranger-key.pem  signed by otherca
//   client-expired.pem             client's key and name, valid one day in 2020, by clientca
//   server-other.pem               server's key and name, signed by otherca (a renewal from
//                                  another CA: tst_serve_tls reloads it)

#include <QString>

namespace sluice::test {

// Makes them all in `dir`; false (with a warning naming the openssl step) if any step failed.
bool makeTestPki(const QString &dir);

} // namespace sluice::test
