// Redis URLs (Endpoint::parse). The password of a URL never appears in an error, nor in what
// is displayed: every input is tried as is and with a known password spliced in.
#include "core/redis/endpoint.h"

#include <QUrl>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace sluice;

namespace {

void check(const QString &url, const QString &secret)
{
    const Result<Endpoint> e = Endpoint::parse(url);
    // Only where the secret is the URL's password (not, say, text in a unix:// query).
    if (secret.isEmpty() || QUrl(url).password() != secret) {
        return;
    }
    if (!e) {
        if (e.error().message.contains(secret)) {
            std::abort();
        }
    } else if (e->display().contains(secret) || e->safeUrl().contains(secret)) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    check(text, {});
    const QString secret = QStringLiteral("Zq9SecretPw7");
    check(QStringLiteral("redis://user:") + secret + QStringLiteral("@") + text, secret);
    check(QStringLiteral("rediss://:") + secret + QStringLiteral("@") + text, secret);
    check(text + QStringLiteral("://u:") + secret + QStringLiteral("@h"), secret);
    return 0;
}
