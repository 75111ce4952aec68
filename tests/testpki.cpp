#include "testpki.h"

#include <QFile>
#include <QProcess>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sluice::test {

namespace {

bool openssl(const QStringList &args, const QString &dir)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(u"openssl"_s, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning("openssl %s failed: %s", qPrintable(args.join(u' ')),
                 p.readAllStandardError().constData());
        return false;
    }
    return true;
}

bool write(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

bool selfSigned(const QString &name, const QString &dir)
{
    return openssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s,
                    name + u"-key.pem"_s, u"-out"_s, name + u".pem"_s, u"-days"_s, u"30"_s,
                    u"-subj"_s, u"/CN=Sluice test "_s + name},
                   dir);
}

bool request(const QString &name, const QString &cn, const QString &dir)
{
    return openssl({u"req"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s,
                    name + u"-key.pem"_s, u"-out"_s, name + u".csr"_s, u"-subj"_s, u"/CN="_s + cn},
                   dir);
}

bool sign(const QString &name, const QString &ca, const QString &dir, bool serverName)
{
    QStringList args{u"x509"_s,        u"-req"_s,          u"-in"_s,
                     name + u".csr"_s, u"-CA"_s,           ca + u".pem"_s,
                     u"-CAkey"_s,      ca + u"-key.pem"_s, u"-CAcreateserial"_s,
                     u"-out"_s,        name + u".pem"_s,   u"-days"_s,
                     u"30"_s};
    if (serverName) {
        args << u"-extfile"_s << u"server.ext"_s;
    }
    return openssl(args, dir);
}

} // namespace

bool makeTestPki(const QString &dir)
{
    auto path = [&](const QString &f) { return dir + u'/' + f; };
    for (const QString &ca : {u"ca"_s, u"otherca"_s, u"clientca"_s}) {
        if (!selfSigned(ca, dir)) {
            return false;
        }
    }
    if (!write(path(u"server.ext"_s), "subjectAltName=DNS:localhost\n") ||
        !request(u"server"_s, u"localhost"_s, dir) || !sign(u"server"_s, u"ca"_s, dir, true)) {
        return false;
    }
    // expired.pem: `openssl ca` takes explicit dates; `x509 -days` cannot go back in time.
    if (!write(path(u"ca.cnf"_s),
               "[ca]\ndefault_ca=test\n[test]\ndatabase=index.txt\nnew_certs_dir=.\n"
               "serial=serial\ndefault_md=sha256\npolicy=any\ncopy_extensions=copy\n"
               "x509_extensions=ext\n[any]\ncommonName=supplied\n"
               "[ext]\nsubjectAltName=DNS:localhost\n") ||
        !write(path(u"index.txt"_s), "") || !write(path(u"serial"_s), "1000\n") ||
        !openssl({u"ca"_s, u"-batch"_s, u"-config"_s, u"ca.cnf"_s, u"-cert"_s, u"ca.pem"_s,
                  u"-keyfile"_s, u"ca-key.pem"_s, u"-in"_s, u"server.csr"_s, u"-out"_s,
                  u"expired.pem"_s, u"-startdate"_s, u"20200101000000Z"_s, u"-enddate"_s,
                  u"20200102000000Z"_s, u"-notext"_s},
                 dir)) {
        return false;
    }
    return request(u"client"_s, u"sluice-client"_s, dir) &&
           sign(u"client"_s, u"clientca"_s, dir, false) &&
           request(u"stranger"_s, u"sluice-stranger"_s, dir) &&
           sign(u"stranger"_s, u"otherca"_s, dir, false) &&
           openssl({u"ca"_s, u"-batch"_s, u"-config"_s, u"ca.cnf"_s, u"-cert"_s, u"clientca.pem"_s,
                    u"-keyfile"_s, u"clientca-key.pem"_s, u"-in"_s, u"client.csr"_s, u"-out"_s,
                    u"client-expired.pem"_s, u"-startdate"_s, u"20200101000000Z"_s, u"-enddate"_s,
                    u"20200102000000Z"_s, u"-notext"_s},
                   dir) &&
           openssl({u"x509"_s, u"-req"_s, u"-in"_s, u"server.csr"_s, u"-CA"_s, u"otherca.pem"_s,
                    u"-CAkey"_s, u"otherca-key.pem"_s, u"-CAcreateserial"_s, u"-out"_s,
                    u"server-other.pem"_s, u"-days"_s, u"30"_s, u"-extfile"_s, u"server.ext"_s},
                   dir);
}

} // namespace sluice::test
