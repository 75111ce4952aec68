#include "healthbanner.h"

#include "ui/common/tone.h"

#include "keypresentation.h"
#include "scanstate.h"

#include <QLocale>
#include <QPushButton>

namespace sluice::ui {

using keys::Health;

HealthBanner::HealthBanner(QWidget *parent)
    : MessageBanner(QStringLiteral("healthBanner"), QStringLiteral("bannerText"), parent)
{
    setExplanation(
        tr("Why?"), QStringLiteral("whyButton"), QStringLiteral("bannerWhy"),
        tr("A limiter key must carry a TTL: the limit is \"N per window\", and when the window "
           "is over Redis deletes the key. A key without TTL is never deleted, so once its "
           "counter reaches the limit its subject is refused until someone deletes the key: a "
           "limit turned into a permanent block. The usual cause is an INCR that arrived just "
           "after the key "
           "expired (it creates a new counter without TTL), or an EXPIRE sent in a separate "
           "round trip that never arrived (a crash, a reconnect). Sluice's scripts write the "
           "TTL in the same step as the counter, so these keys come from elsewhere. \"Fix all "
           "from rules\" sets each key's TTL to the most its rule can need, and only if it "
           "still has none (or a longer one) at that instant."));
    m_show = addButton(tr("Show them"), QStringLiteral("showFlaggedButton"));
    m_show->setToolTip(tr("Show only the keys that are not ok"));
    m_fix = addButton(tr("Fix all from rules…"), QStringLiteral("fixAllButton"), true);
    m_delete = addButton(tr("Delete all flagged…"), QStringLiteral("deleteAllButton"), true);
    m_delete->setToolTip(tr("Delete every key that never expires or lives longer than its rule "
                            "needs; the next request of its subject starts afresh"));
    connect(m_show, &QPushButton::clicked, this, &HealthBanner::showFlaggedRequested);
    connect(m_fix, &QPushButton::clicked, this, &HealthBanner::fixAllRequested);
    connect(m_delete, &QPushButton::clicked, this, &HealthBanner::deleteAllRequested);
    setSummary({}, false, false);
}

QStringList HealthBanner::problems(const keys::HealthSummary &s)
{
    const QLocale locale;
    auto n = [&](qint64 v) { return locale.toString(v); };
    QStringList parts;
    if (const qint64 blocking = s.noTtlBlocking(); blocking > 0) {
        parts << (blocking == 1
                      ? tr("1 limiter key never expires: once it reaches the limit it blocks "
                           "its subject until someone deletes it.")
                      : tr("%1 limiter keys never expire: once one reaches the limit it blocks "
                           "its subject until someone deletes it.")
                            .arg(n(blocking)));
    }
    if (s.noTtlOwnClock > 0) {
        // Sluice's own state records its time: the limit resets, only the key stays.
        parts << (s.noTtlOwnClock == 1
                      ? tr("1 limiter key never expires: its state records its own time, so its "
                           "limit still resets, and its subject's next admitted request sets a TTL "
                           "again.")
                      : tr("%1 limiter keys never expire: their state records its own time, so "
                           "their limits still reset, and each subject's next admitted request "
                           "sets a TTL again.")
                            .arg(n(s.noTtlOwnClock)));
    }
    if (s.ttlExceedsRule > 0) {
        parts << (s.ttlExceedsRule == 1 ? tr("1 key has a TTL longer than its rule can need.")
                                        : tr("%1 keys have a TTL longer than their rule can need.")
                                              .arg(n(s.ttlExceedsRule)));
    }
    if (s.wrongType > 0) {
        parts << (s.wrongType == 1 ? tr("1 key is not its rule's state.")
                                   : tr("%1 keys are not their rule's state.").arg(n(s.wrongType)));
    }
    if (s.orphans > 0) {
        parts << (s.orphans == 1 ? tr("1 key matches no rule.")
                                 : tr("%1 keys match no rule.").arg(n(s.orphans)));
    }
    // Keys the user may not read: their health is unknown, and the banner says what to grant
    // instead of counting them healthy (or leaving them out).
    if (s.refused > 0) {
        QString part = s.refused == 1 ? tr("1 key could not be read: the Redis user may not "
                                           "read it (NOPERM), so its health is unknown.")
                                      : tr("%1 keys could not be read: the Redis user may not "
                                           "read them (NOPERM), so their health is unknown.")
                                            .arg(n(s.refused));
        if (!s.grant.isEmpty()) {
            part += QLatin1Char(' ') + tr("Grant: %1").arg(s.grant);
        }
        parts << part;
    }
    if (const qint64 other = s.unreadable - s.refused; other > 0) {
        parts << (other == 1
                      ? tr("1 key could not be read, so its health is unknown.")
                      : tr("%1 keys could not be read, so their health is unknown.").arg(n(other)));
    }
    return parts;
}

Health HealthBanner::worst(const keys::HealthSummary &s)
{
    Health tone = Health::Ok;
    if (s.noTtlBlocking() > 0) {
        tone = Health::NoTtl;
    } else if (s.noTtl > 0 || s.ttlExceedsRule > 0 || s.wrongType > 0) {
        tone = Health::TtlExceedsRule;
    } else if (s.unreadable > 0) {
        tone = Health::Unreadable;
    } else if (s.orphans > 0) {
        tone = Health::Orphan;
    }
    return tone;
}

// The words: the problems, or why nothing is called healthy yet (`neutral`), or healthy.
HealthBanner::Headline HealthBanner::headline(const QStringList &parts,
                                              const keys::HealthSummary &s, bool scanning,
                                              const KeysScanState *state)
{
    const QLocale locale;
    auto n = [&](qint64 v) { return locale.toString(v); };
    QString text;
    // A green word needs a scan that is current and saw the whole match (scanstate.h).
    const bool mayBeGreen = !state || state->mayShowHealthy();
    bool neutral = false; // nothing flagged, but nothing to call healthy either
    if (parts.isEmpty()) {
        if (mayBeGreen) {
            text = s.limiterKeys == 0 ? tr("No limiter keys found.")
                   : s.limiterKeys == 1
                       ? tr("The limiter key is healthy.")
                       : tr("All %1 limiter keys are healthy.").arg(n(s.limiterKeys));
        } else if (!state->hasResult()) {
            text = scanning ? tr("Listing the keys…") : tr("The keys have not been listed yet.");
            neutral = true;
        } else if (!state->isComplete()) {
            text = (state->stoppedAtCap()
                        ? tr("No problem among the %1 keys listed, but the scan stopped at the "
                             "scan budget after %2 % of the keyspace: the rest is not checked. "
                             "Scan again (F5) to read all of it.")
                        : tr("No problem among the %1 keys listed, but the scan covered only "
                             "%2 % of the keyspace: the rest is not checked. Scan again (F5) to "
                             "read all of it."))
                       .arg(n(state->keysScanned()))
                       .arg(int(state->fraction() * 100));
            neutral = true;
        } else {
            text = s.limiterKeys == 0
                       ? tr("No limiter keys were found at %1.")
                             .arg(state->finishedAt().toLocalTime().toString(
                                 QStringLiteral("HH:mm:ss")))
                       : tr("The %1 limiter keys were healthy at %2.")
                             .arg(n(s.limiterKeys), state->finishedAt().toLocalTime().toString(
                                                        QStringLiteral("HH:mm:ss")));
            neutral = true;
        }
    } else {
        text = parts.join(QLatin1Char(' '));
        if (state && state->hasResult() && !state->isComplete()) {
            text += QLatin1Char(' ') + tr("Only %1 % of the keyspace was scanned: the rest is not "
                                          "checked.")
                                           .arg(int(state->fraction() * 100));
        }
    }
    if (state) {
        const QString why = state->notCurrentText();
        if (!why.isEmpty()) {
            text = why + QLatin1Char(' ') + text;
            neutral = neutral || parts.isEmpty();
        }
    }
    if (scanning && (!state || state->hasResult())) {
        text += QLatin1Char(' ') + tr("(scan in progress)");
    }
    return {text, neutral};
}

Tone HealthBanner::toneOf(Health tone)
{
    Tone bannerTone = Tone::Good;
    switch (tone) {
    case Health::NoTtl:
        bannerTone = Tone::Bad;
        break;
    case Health::TtlExceedsRule:
    case Health::WrongType:
        bannerTone = Tone::Warning;
        break;
    case Health::Unreadable: // nothing is known of them: not a green "healthy"
        bannerTone = Tone::Warning;
        break;
    case Health::Orphan:
        bannerTone = Tone::Info;
        break;
    case Health::Ok:
        break;
    }
    return bannerTone;
}

void HealthBanner::setSummary(const keys::HealthSummary &s, bool haveRules, bool scanning,
                              const KeysScanState *state)
{
    const QStringList parts = problems(s);
    Health tone = worst(s);
    const auto [text, neutral] = headline(parts, s, scanning, state);
    Tone bannerTone = toneOf(tone);
    if (neutral) {
        // Not known to be healthy: never green. A failure since the last scan is a warning.
        bannerTone = state && !state->failure().isEmpty() ? Tone::Warning : Tone::Info;
        tone = Health::Unreadable;
    }
    showMessage(PageMessage::bold(bannerTone, text));
    setIcon(keypresentation::flagIcon(tone).pixmap(20, 20));
    const bool fixable = s.fixable() > 0;
    setExplanationAvailable(s.noTtl > 0 || s.ttlExceedsRule > 0);
    m_show->setVisible(s.problems() + s.unreadable > 0);
    m_fix->setVisible(fixable);
    m_delete->setVisible(fixable);
    setButtonEnabled(m_fix, haveRules);
    m_fix->setToolTip(haveRules ? tr("Set the TTL of every key that never expires or lives too "
                                     "long to the most its rule can need")
                                : tr("Needs the rules (Rules page): the TTL is taken from "
                                     "each key's rule"));
}

} // namespace sluice::ui
