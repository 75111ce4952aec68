#pragma once

// A CheckService in the test's own process (for the tests that link the service): its options
// for the fixture's Redis, and a service that follows a RuleStore.

#include "app/serve/checkservice.h"
#include "core/rules/rulestore.h"
#include "testredis.h"

#include <QHostAddress>
#include <QSignalSpy>

namespace sluice::test {

// A service's options with the fixture's Redis, the rest as they default.
inline serve::CheckService::Options onFixtureRedis()
{
    serve::CheckService::Options o;
    o.endpoint = redisEndpoint();
    return o;
}

// `service` following `store`: its first rules read from Redis, then listening on a loopback
// port of its choosing (service.port()). False when either did not happen (10 s at the most).
inline bool followAndListen(serve::CheckService &service, const rules::RuleStore &store)
{
    QSignalSpy changed(&service, &serve::CheckService::rulesChanged);
    service.watchRuleStore(store);
    return changed.wait(10000) && service.listen(QHostAddress::LocalHost, 0).ok();
}

} // namespace sluice::test
