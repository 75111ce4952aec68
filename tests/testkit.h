#pragma once

// The Qt Test skeleton written once: a data table's columns in one line, a checking step as a
// condition, and the check of an expected failure. (A test's Redis keys are removed when its
// application ends: testredis.h.)

#include "core/common/result.h"

#include <QStringList>
#include <QTest>

namespace sluice::test {

// How much more memory a process of this build takes than the bounds the tests assert were set
// for: under AddressSanitizer (dev.sh sanitize builds the tests and the programs they run alike)
// every block carries red zones and freed ones wait in quarantine, about 3 times the RSS. A
// bound times this still catches growth without bound (the attacks it guards grow to GB).
#if defined(__SANITIZE_ADDRESS__)
constexpr qint64 memoryBoundFactor = 3;
#else
constexpr qint64 memoryBoundFactor = 1;
#endif

// QTest::addColumn for each type and name, in order:
//   test::columns<QString, int>("url", "port");
template <typename... T, typename... Name> void columns(const Name &...names)
{
    static_assert(sizeof...(T) == sizeof...(Name), "a name for each column type");
    (QTest::addColumn<T>(names), ...);
}

// Runs a step that checks as it goes (QVERIFY and QCOMPARE return from it on a failure): whether
// the test still passes after it, so that a caller can stop with QVERIFY(test::passed(...)).
template <typename Step> bool passed(Step &&step)
{
    step();
    return !QTest::currentTestFailed();
}

// What is wrong with `r` as a failure of `kind` whose message contains `says`: empty when it is
// one (QVERIFY2(test::failedWith(...).isEmpty(), ...) names what came instead).
template <typename T> QString failedWith(const Result<T> &r, Error::Kind kind, const QString &says)
{
    if (r) {
        return QStringLiteral("it succeeded; expected a failure saying \"%1\"").arg(says);
    }
    if (r.error().kind != kind || !r.error().message.contains(says)) {
        return QStringLiteral("%1 error \"%2\"; expected %3 saying \"%4\"")
            .arg(Error::kindName(r.error().kind), r.error().message, Error::kindName(kind), says);
    }
    return {};
}

// A loaded file's errors (rules::Loaded, scenario::Loaded: any with `errors` of Diagnostic), one
// a line, for a failure message.
template <typename Loaded> QString errorsOf(const Loaded &l)
{
    QStringList lines;
    for (const auto &d : l.errors) {
        lines.append(d.toString());
    }
    return lines.join(u'\n');
}

} // namespace sluice::test
