#include "keyhealth.h"

#include "core/limiter/model.h"
#include "core/redis/errors.h"

#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sluice::keys {

qint64 maxStateUs(const Rule &rule)
{
    switch (rule.algorithm) {
    case Algorithm::FixedWindow:
    case Algorithm::SlidingLog:
        return rule.windowUs;
    case Algorithm::SlidingCounter:
        return 2 * rule.windowUs;
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket: {
        // ceil(B x P / c): B tokens of P ticks at c ticks per us (B x P < 2^53 by validation).
        const model::ReducedRate r = model::reduce(rule.rate);
        return model::ceilDiv(rule.burst * r.p, r.c);
    }
    case Algorithm::Gcra: {
        const model::ReducedRate r = model::reduce(rule.rate);
        return model::ceilDiv((rule.burst + 1) * r.p, r.c);
    }
    }
    return 0;
}

qint64 maxTtlMs(const Rule &rule)
{
    return std::max(model::usToMsCeil(maxStateUs(rule)), qint64(1));
}

Health classify(qint64 pttlMs, const Rule *rule, bool haveRules, bool stateReadable)
{
    if (rule == nullptr) {
        if (haveRules) {
            return Health::Orphan;
        }
        return pttlMs == -1 ? Health::NoTtl : Health::Ok;
    }
    if (!stateReadable) {
        return Health::WrongType;
    }
    if (pttlMs == -1) {
        return Health::NoTtl;
    }
    if (pttlMs > maxTtlMs(*rule) + ttlSlackMs) {
        return Health::TtlExceedsRule;
    }
    return Health::Ok;
}

void HealthSummary::add(const KeyInfo &info)
{
    if (!info.exists()) {
        return;
    }
    ++keys;
    if (info.health != Health::Orphan) {
        ++limiterKeys;
    }
    switch (info.health) {
    case Health::Ok:
        ++ok;
        break;
    case Health::NoTtl:
        ++noTtl;
        if (info.resetsByOwnClock()) {
            ++noTtlOwnClock;
        }
        break;
    case Health::TtlExceedsRule:
        ++ttlExceedsRule;
        break;
    case Health::Orphan:
        ++orphans;
        break;
    case Health::WrongType:
        ++wrongType;
        break;
    case Health::Unreadable:
        ++unreadable;
        if (info.state.permissionRefused) {
            ++refused;
            if (grant.isEmpty()) {
                grant = redis::grantOf(info.state.problem);
            }
        }
        break;
    }
}

void HealthSummary::remove(const KeyInfo &info)
{
    HealthSummary one;
    one.add(info);
    keys -= one.keys;
    limiterKeys -= one.limiterKeys;
    ok -= one.ok;
    noTtl -= one.noTtl;
    noTtlOwnClock -= one.noTtlOwnClock;
    ttlExceedsRule -= one.ttlExceedsRule;
    orphans -= one.orphans;
    wrongType -= one.wrongType;
    unreadable -= one.unreadable;
}

void HealthSummary::add(const HealthSummary &o)
{
    keys += o.keys;
    limiterKeys += o.limiterKeys;
    ok += o.ok;
    noTtl += o.noTtl;
    noTtlOwnClock += o.noTtlOwnClock;
    ttlExceedsRule += o.ttlExceedsRule;
    orphans += o.orphans;
    wrongType += o.wrongType;
    unreadable += o.unreadable;
    refused += o.refused;
    if (grant.isEmpty()) {
        grant = o.grant;
    }
}

QString HealthSummary::headline() const
{
    const QLocale en(QLocale::English);
    auto n = [&](qint64 v) { return en.toString(v); };
    QStringList parts;
    const qint64 blocking = noTtlBlocking();
    if (blocking > 0) {
        parts << (blocking == 1 ? u"1 limiter key never expires: once it reaches the limit it "
                                  "blocks its subject until someone deletes it"_s
                                : u"%1 limiter keys never expire: once one reaches the limit it "
                                  "blocks its subject until someone deletes it"_s.arg(n(blocking)));
    }
    if (noTtlOwnClock > 0) {
        parts << (noTtlOwnClock == 1
                      ? u"1 limiter key never expires: its state records its own time, so its "
                        "limit still resets, and its subject's next admitted request sets a TTL "
                        "again"_s
                      : u"%1 limiter keys never expire: their state records its own time, so "
                        "their limits still reset, and each subject's next admitted request sets "
                        "a TTL again"_s.arg(n(noTtlOwnClock)));
    }
    if (ttlExceedsRule > 0) {
        parts << (ttlExceedsRule == 1 ? u"1 key has a TTL longer than its rule can need"_s
                                      : u"%1 keys have a TTL longer than their rule can need"_s.arg(
                                            n(ttlExceedsRule)));
    }
    if (wrongType > 0) {
        parts << (wrongType == 1 ? u"1 key is not its rule's state"_s
                                 : u"%1 keys are not their rule's state"_s.arg(n(wrongType)));
    }
    if (orphans > 0) {
        parts << (orphans == 1 ? u"1 key matches no rule"_s
                               : u"%1 keys match no rule"_s.arg(n(orphans)));
    }
    if (refused > 0) {
        QString part = refused == 1 ? u"1 key is unreadable (permission): its health is unknown"_s
                                    : u"%1 keys are unreadable (permission): their health is "
                                      "unknown"_s.arg(n(refused));
        if (!grant.isEmpty()) {
            part += u"; grant: %1"_s.arg(grant);
        }
        parts << part;
    }
    if (const qint64 other = unreadable - refused; other > 0) {
        parts << (other == 1 ? u"1 key is unreadable (a read error): its health is unknown"_s
                             : u"%1 keys are unreadable (read errors): their health is "
                               "unknown"_s.arg(n(other)));
    }
    if (parts.isEmpty()) {
        if (limiterKeys == 0) {
            return u"no limiter keys"_s;
        }
        return limiterKeys == 1 ? u"the limiter key is healthy"_s
                                : u"all %1 limiter keys are healthy"_s.arg(n(limiterKeys));
    }
    return parts.join(u"; "_s);
}

} // namespace sluice::keys
