#pragma once

#include "decision.h"

#include "core/common/bytewriter.h"

#include <QByteArray>
#include <QByteArrayView>

#include <optional>

namespace sluice {

// The one writer of a decision as JSON (FORMATS.md): `sluice-cli check --json` writes the
// decision's fields, the check service's /v1/check body the same object with its own fields
// added. Written directly into a ByteWriter (the service answers every request with it), with
// the names in the order QJsonDocument writes an object (sorted) and its compact form, so the
// bytes are those of QJsonDocument(object).toJson(Compact): tst_decisionjson holds the two
// equal on every shape of decision. Keys and subjects are printed by bytes::printable.
struct DecisionJsonExtras
{
    std::optional<qint64> cost;          // "cost"
    QByteArrayView rule;                 // "rule" (UTF-8), when not empty
    std::optional<bool> shadow;          // "shadow"; true adds "shadow_denied"
    bool shadowDenied = false;           //   the script's own verdict under a shadow rule
    QByteArrayView source;               // "source", when not empty
    const QByteArray *subject = nullptr; // "subject", when set
    bool uncertain = false;              // "uncertain": true, only when set
    // "override": {"action", "match"}, when the decision was made under a per-subject override
    // of the rule: its action (allow, deny, limit) and what it matched ("cidr 10.0.0.0/8").
    QByteArrayView overrideAction;
    QByteArrayView overrideMatch; // UTF-8
};

// {"allowed", ["cost",] "delay_ms", "key", "limit", ["override",] "remaining", "reset_after_ms",
// "retry_after_ms", ["rule", "shadow", "shadow_denied", "source", "subject", "uncertain"]},
// one line, no line end. `allowed` is the answer's (a shadow rule admits what its script
// denied: the caller passes d with allowed set so).
void writeDecisionJson(bytes::ByteWriter &w, const Decision &d, const QByteArray &key,
                       const DecisionJsonExtras &extras = {});
// The same as an array, for the CLI.
QByteArray decisionJson(const Decision &d, const QByteArray &key);

// A JSON string of `utf8`, quoted and escaped as QJsonDocument escapes it (\", \\, \b, \f, \n,
// \r, \t, other control bytes \u00XX); the runs that need no escape in one copy.
void writeJsonString(bytes::ByteWriter &w, QByteArrayView utf8);
// bytes::printable(bytes) as a JSON string: plain ASCII as it is (the common case, without a
// QString on the way).
void writePrintableJson(bytes::ByteWriter &w, const QByteArray &bytes);

} // namespace sluice
