#pragma once

// What the tests of other libraries' limiter keys share (tst_real_limiters,
// tst_debian_limiters): `keys audit --json` and `keys fix --dry-run --json` on the fixture's
// Redis, an entry's verdict checked, a TTL taken away and the verdict checked again, and a
// library's driver script run.

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sluice::test {

// `keys audit --json --match MATCH` on the fixture's Redis: key -> its entry (empty, with a
// warning, when the command failed).
QMap<QString, QJsonObject> auditKeys(const QByteArray &match);
// `keys fix --match MATCH --ttl 1h --dry-run --json`: the keys it would touch.
QStringList wouldFix(const QByteArray &match);
// The entry's layout, health and lost-TTL id. QTest checks: a failure ends this function
// (callers test QTest::currentTestFailed() when they go on).
void expectEntry(const QJsonObject &e, const QString &layout, const QString &health,
                 const QString &lostTtl);
// The key's entry as the library wrote it (ok, its state starting with `state`), then with its
// TTL taken away (PERSIST): `after`, with the layout's lost-TTL id both times. Returns the
// second entry; empty when a check failed.
QJsonObject auditThenPersist(const QByteArray &key, const QString &layout, const QString &lostTtl,
                             const QString &state,
                             const QString &after = QStringLiteral("never_expires"));
// auditThenPersist for a layout whose lost TTL blocks its subject: the cause says so, and
// `keys fix` would give the key a TTL. False when a check failed.
bool persistBlockingKey(const QByteArray &key, const QString &layout, const QString &state);
// Runs `program args` (a library's driver) with `env` (the test's own when empty): the one JSON
// object it printed; empty, with its stderr as a warning, when it failed or took over 60 s.
QJsonObject runDriver(const QString &program, const QStringList &args,
                      const QProcessEnvironment &env = {});

} // namespace sluice::test
