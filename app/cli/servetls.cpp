#include "servetls.h"

#include "core/common/bytes.h"

#include <QJsonObject>
#include <QTimer>

namespace sluice::cli {

Result<std::shared_ptr<serve::ServerTls>> listenTlsFromArgs(const Args &args)
{
    const bool cert = args.has("listen-tls-cert");
    const bool key = args.has("listen-tls-key");
    if (!cert && !key && !args.has("listen-tls-client-ca")) {
        return std::shared_ptr<serve::ServerTls>();
    }
    if (cert != key) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--listen-tls-cert FILE and --listen-tls-key FILE go "
                                          "together (the listeners' certificate and its key)"));
    }
    if (!cert) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--listen-tls-client-ca FILE needs --listen-tls-cert "
                                          "FILE and --listen-tls-key FILE (client certificates "
                                          "are asked for over TLS only)"));
    }
    auto tls = serve::ServerTls::load({args.text("listen-tls-cert"), args.text("listen-tls-key"),
                                       args.text("listen-tls-client-ca")});
    if (!tls) {
        return Error::make(Error::Kind::Io, tls.error().message);
    }
    return *tls;
}

TlsReloader::TlsReloader(std::shared_ptr<serve::ServerTls> tls, serve::ServeLog &log)
    : m_tls(std::move(tls))
    , m_log(log)
{
    auto *poll = new QTimer(this);
    connect(poll, &QTimer::timeout, this, [this] {
        if (m_tls->changedOnDisk()) {
            reload("changed");
        }
    });
    poll->start(1000);
}

void TlsReloader::reload(const char *why)
{
    using Level = serve::ServeLog::Level;
    const QJsonObject fields{{QStringLiteral("file"), m_tls->files().cert},
                             {QStringLiteral("key"), m_tls->files().key}};
    if (auto r = m_tls->reload(); !r) {
        m_log.write(Level::Error, "tls_reload_failed",
                    QStringLiteral("%1: the TLS certificate was not reloaded (%2); still serving "
                                   "the one loaded before")
                        .arg(QLatin1String(why), r.error().message),
                    {}, fields);
        return;
    }
    m_log.write(Level::Info, "tls_reloaded",
                QStringLiteral("%1: reloaded the TLS certificate %2 (new connections take it)")
                    .arg(QLatin1String(why), bytes::printable(m_tls->files().cert.toUtf8())),
                {}, fields);
}

} // namespace sluice::cli
