#include "resultfile.h"

#include <QDataStream>
#include <QIODevice>

namespace sluice::sim {

namespace {

constexpr quint32 magic = 0x534c5246; // "SLRF"
constexpr quint32 version = 1;

QDataStream &operator<<(QDataStream &s, const AdoptedRun &a)
{
    return s << a.rule << a.layout << a.script << a.limit << a.windowUs << a.lostTtlAtUs;
}

QDataStream &operator>>(QDataStream &s, AdoptedRun &a)
{
    return s >> a.rule >> a.layout >> a.script >> a.limit >> a.windowUs >> a.lostTtlAtUs;
}

QDataStream &operator<<(QDataStream &s, const RuleResult &r)
{
    s << r.rule << qint32(r.algorithm) << r.offered << r.admitted << r.rejected
      << r.maxAdmittedInWindow << r.maxAdmittedWindowStartUs << r.maxReleasedInWindow
      << r.maxReleasedWindowStartUs << r.peakAdmittedPerBin << r.meanDelayMs << r.maxDelayMs
      << r.adopted.has_value();
    if (r.adopted) {
        s << *r.adopted;
    }
    return s;
}

QDataStream &operator>>(QDataStream &s, RuleResult &r)
{
    qint32 algorithm = 0;
    bool adopted = false;
    s >> r.rule >> algorithm >> r.offered >> r.admitted >> r.rejected >> r.maxAdmittedInWindow >>
        r.maxAdmittedWindowStartUs >> r.maxReleasedInWindow >> r.maxReleasedWindowStartUs >>
        r.peakAdmittedPerBin >> r.meanDelayMs >> r.maxDelayMs >> adopted;
    r.algorithm = Algorithm(algorithm);
    if (adopted) {
        AdoptedRun a;
        s >> a;
        r.adopted = a;
    }
    return s;
}

} // namespace

QByteArray encodeResult(const SimResult &r)
{
    QByteArray out;
    QDataStream s(&out, QIODevice::WriteOnly);
    s.setVersion(QDataStream::Qt_6_4);
    s << magic << version << r.scenario << r.backend << r.binUs << r.measureWindowUs
      << quint64(r.rules.size());
    for (const RuleResult &rule : r.rules) {
        s << rule;
    }
    s << quint64(r.series.size());
    for (const auto &bins : r.series) {
        s << quint64(bins.size());
        for (const SeriesBin &b : bins) {
            s << b.offered << b.admitted << b.rejected << b.released;
        }
    }
    s << r.processed << r.total << r.cancelled << r.digest << r.wallSeconds << r.keyPrefix
      << r.warning;
    return out;
}

Result<SimResult> decodeResult(const QByteArray &bytes)
{
    QDataStream s(bytes);
    s.setVersion(QDataStream::Qt_6_4);
    quint32 m = 0, v = 0;
    s >> m >> v;
    if (m != magic) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("not a simulation result file"));
    }
    if (v != version) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("a simulation result file of version %1, this "
                                          "renderer reads version %2 (a renderer of another "
                                          "build?)")
                               .arg(v)
                               .arg(version));
    }
    SimResult r;
    quint64 rules = 0;
    s >> r.scenario >> r.backend >> r.binUs >> r.measureWindowUs >> rules;
    // Bounded by the bytes there are: a short or damaged file cannot make us allocate.
    if (s.status() != QDataStream::Ok || rules > quint64(bytes.size())) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("the result file is cut short"));
    }
    r.rules.resize(size_t(rules));
    for (RuleResult &rule : r.rules) {
        s >> rule;
    }
    quint64 series = 0;
    s >> series;
    if (s.status() != QDataStream::Ok || series > quint64(bytes.size())) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("the result file is cut short"));
    }
    r.series.resize(size_t(series));
    for (auto &bins : r.series) {
        quint64 n = 0;
        s >> n;
        if (s.status() != QDataStream::Ok || n > quint64(bytes.size()) / 32) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("the result file is cut short"));
        }
        bins.resize(size_t(n));
        for (SeriesBin &b : bins) {
            s >> b.offered >> b.admitted >> b.rejected >> b.released;
        }
    }
    s >> r.processed >> r.total >> r.cancelled >> r.digest >> r.wallSeconds >> r.keyPrefix >>
        r.warning;
    if (s.status() != QDataStream::Ok) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("the result file is cut short"));
    }
    return r;
}

} // namespace sluice::sim
