#include "grpctls.h"

#include <QDir>
#include <QFile>

#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_credentials_options.h>

#include <cerrno>
#include <cstring>

#include <stdlib.h>

namespace sluice::serve {

Result<std::shared_ptr<grpc::ServerCredentials>> grpcServerCredentials(ServerTls *tls)
{
    if (tls == nullptr) {
        return grpc::InsecureServerCredentials();
    }
    QByteArray dir =
        QFile::encodeName(QDir::tempPath() + QStringLiteral("/sluice-grpc-tls-XXXXXX"));
    if (::mkdtemp(dir.data()) == nullptr) {
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("--grpc: cannot make a private directory in %1 for "
                           "the certificate: %2")
                .arg(QDir::tempPath(), QString::fromLocal8Bit(std::strerror(errno))));
    }
    if (auto p = tls->publish(QFile::decodeName(dir)); !p) {
        return Error::make(p.error().kind, QStringLiteral("--grpc: %1").arg(p.error().message));
    }
    const std::string identity = QFile::encodeName(tls->publishedIdentity()).toStdString();
    const std::string ca =
        tls->verifiesClients() ? QFile::encodeName(tls->publishedClientCa()).toStdString() : "";
    // The key and its chain in one file, replaced by one rename: never one without the other.
    auto provider = std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
        identity, identity, ca, 1);
    grpc::experimental::TlsServerCredentialsOptions options(provider);
    options.watch_identity_key_cert_pairs();
    if (tls->verifiesClients()) {
        options.watch_root_certs();
        options.set_cert_request_type(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    } else {
        options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
    }
    return grpc::experimental::TlsServerCredentials(options);
}

} // namespace sluice::serve
