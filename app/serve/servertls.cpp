#include "servertls.h"

#include "core/common/bytes.h"

#include <QFile>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <sys/stat.h>

namespace sluice::serve {

namespace {

// Bytes a certificate or key file may have: far above any real chain, and a bound on what a
// wrong path (a log, a device) makes us read.
constexpr qint64 maxPemBytes = 1 << 20;

struct BioFree
{
    void operator()(BIO *b) const { BIO_free(b); }
};
struct X509Free
{
    void operator()(X509 *x) const { X509_free(x); }
};
struct KeyFree
{
    void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

// OpenSSL's queued errors as one printable line (and the queue emptied).
QString sslErrors()
{
    QString all;
    while (const unsigned long e = ERR_get_error()) {
        char text[256];
        ERR_error_string_n(e, text, sizeof text);
        if (!all.isEmpty()) {
            all += QStringLiteral("; ");
        }
        all += QString::fromLatin1(text);
    }
    return all.isEmpty() ? QStringLiteral("no PEM data") : all;
}

Error invalid(const QString &what, const QString &path, const QString &why)
{
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("%1 %2: %3").arg(what, bytes::printable(path.toUtf8()), why));
}

Result<QByteArray> readPem(const QString &what, const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return invalid(what, path, QStringLiteral("cannot be read (%1)").arg(f.errorString()));
    }
    QByteArray data = f.read(maxPemBytes + 1);
    if (data.size() > maxPemBytes) {
        return invalid(what, path, QStringLiteral("larger than %1 bytes").arg(maxPemBytes));
    }
    return data;
}

// Every certificate of a PEM file, in order; none is an error.
Result<std::vector<X509Ptr>> parseCerts(const QString &what, const QString &path,
                                        const QByteArray &pem)
{
    ERR_clear_error();
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    std::vector<X509Ptr> certs;
    while (X509 *x = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
        certs.emplace_back(x);
    }
    const unsigned long last = ERR_peek_last_error();
    if (certs.empty() ||
        (ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) != PEM_R_NO_START_LINE)) {
        return invalid(what, path, QStringLiteral("not a PEM certificate (%1)").arg(sslErrors()));
    }
    ERR_clear_error();
    return certs;
}

// readPem, then parseCerts.
Result<std::vector<X509Ptr>> readCerts(const QString &what, const QString &path)
{
    auto pem = readPem(what, path);
    if (!pem) {
        return pem.error();
    }
    return parseCerts(what, path, *pem);
}

// What markHttp2() sets on a connection: its ALPN answer is "h2".
int http2Marker = 0;

// ALPN: a connection of the gRPC port (markHttp2) speaks h2, every other one HTTP/1.1; a
// client that offers neither gets no ALPN answer (curl without ALPN, s_client).
int selectProtocol(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                   const unsigned char *in, unsigned int inlen, void *)
{
    static const unsigned char h2[] = {2, 'h', '2'};
    static const unsigned char http11[] = {8, 'h', 't', 't', 'p', '/', '1', '.', '1'};
    const bool wantH2 = SSL_get_app_data(ssl) == &http2Marker;
    const unsigned char *ours = wantH2 ? h2 : http11;
    const unsigned int oursLen = wantH2 ? sizeof h2 : sizeof http11;
    unsigned char *chosen = nullptr;
    if (SSL_select_next_proto(&chosen, outlen, ours, oursLen, in, inlen) !=
        OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = chosen;
    return SSL_TLSEXT_ERR_OK;
}

} // namespace

struct ServerTls::Loaded
{
    std::shared_ptr<SSL_CTX> ctx;
};

ServerTls::ServerTls(Files files)
    : m_files(std::move(files))
{}

ServerTls::~ServerTls() = default;

Result<std::shared_ptr<ServerTls>> ServerTls::load(const Files &files)
{
    std::shared_ptr<ServerTls> tls(new ServerTls(files));
    tls->m_stamp = tls->stamp();
    auto loaded = read(files);
    if (!loaded) {
        return loaded.error();
    }
    tls->m_ctx = loaded->ctx;
    return tls;
}

Result<ServerTls::Loaded> ServerTls::read(const Files &files)
{
    auto chain = readCerts(QStringLiteral("the certificate"), files.cert);
    if (!chain) {
        return chain.error();
    }
    auto keyPem = readPem(QStringLiteral("the key"), files.key);
    if (!keyPem) {
        return keyPem.error();
    }
    ERR_clear_error();
    BioPtr keyBio(BIO_new_mem_buf(keyPem->constData(), int(keyPem->size())));
    // No passphrase callback: an encrypted key fails here instead of asking on a terminal.
    KeyPtr key(PEM_read_bio_PrivateKey(
        keyBio.get(), nullptr, [](char *, int, int, void *) { return -1; }, nullptr));
    if (!key) {
        return invalid(QStringLiteral("the key"), files.key,
                       QStringLiteral("not an unencrypted PEM private key (%1)").arg(sslErrors()));
    }
    std::shared_ptr<SSL_CTX> ctx(SSL_CTX_new(TLS_server_method()), SSL_CTX_free);
    SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);
    SSL_CTX_set_options(ctx.get(), SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    SSL_CTX_set_mode(ctx.get(), SSL_MODE_ENABLE_PARTIAL_WRITE |
                                    SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_alpn_select_cb(ctx.get(), &selectProtocol, nullptr);
    bool ok = SSL_CTX_use_certificate(ctx.get(), chain->front().get()) == 1;
    for (size_t i = 1; ok && i < chain->size(); ++i) {
        ok = SSL_CTX_add1_chain_cert(ctx.get(), (*chain)[i].get()) == 1;
    }
    if (!ok) {
        return invalid(QStringLiteral("the certificate"), files.cert, sslErrors());
    }
    if (SSL_CTX_use_PrivateKey(ctx.get(), key.get()) != 1 ||
        SSL_CTX_check_private_key(ctx.get()) != 1) {
        return invalid(QStringLiteral("the key"), files.key,
                       QStringLiteral("not the key of %1 (%2)")
                           .arg(bytes::printable(files.cert.toUtf8()), sslErrors()));
    }
    Loaded out;
    if (!files.clientCa.isEmpty()) {
        auto cas = readCerts(QStringLiteral("the client CA"), files.clientCa);
        if (!cas) {
            return cas.error();
        }
        X509_STORE *store = SSL_CTX_get_cert_store(ctx.get());
        STACK_OF(X509_NAME) *names = sk_X509_NAME_new_null();
        for (const X509Ptr &x : *cas) {
            X509_STORE_add_cert(store, x.get());
            sk_X509_NAME_push(names, X509_NAME_dup(X509_get_subject_name(x.get())));
        }
        SSL_CTX_set_client_CA_list(ctx.get(), names);
        SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    out.ctx = std::move(ctx);
    return out;
}

Result<void> ServerTls::reload()
{
    const Stamp now = stamp();
    auto loaded = read(m_files);
    std::lock_guard l(m_mutex);
    m_stamp = now;
    if (!loaded) {
        return loaded.error();
    }
    m_ctx = loaded->ctx;
    return {};
}

ServerTls::Stamp ServerTls::stamp() const
{
    Stamp s{};
    const QString paths[] = {m_files.cert, m_files.key, m_files.clientCa};
    for (int i = 0; i < 3; ++i) {
        struct stat st
        {};
        if (!paths[i].isEmpty() && ::stat(QFile::encodeName(paths[i]).constData(), &st) == 0) {
            s[size_t(3 * i)] = qint64(st.st_ino);
            s[size_t(3 * i + 1)] = qint64(st.st_size);
            s[size_t(3 * i + 2)] = qint64(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
        }
    }
    return s;
}

bool ServerTls::changedOnDisk() const
{
    const Stamp now = stamp();
    std::lock_guard l(m_mutex);
    return now != m_stamp;
}

std::shared_ptr<SSL_CTX> ServerTls::context() const
{
    std::lock_guard l(m_mutex);
    return m_ctx;
}

void markHttp2(SSL *ssl)
{
    SSL_set_app_data(ssl, &http2Marker);
}

} // namespace sluice::serve
