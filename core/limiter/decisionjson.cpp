#include "decisionjson.h"

#include "core/common/bytes.h"

#include <cstdio>

namespace sluice {

namespace {

void writeField(bytes::ByteWriter &w, QByteArrayView name, qint64 value)
{
    w.put(",\"").put(name).put("\":").number(value);
}

void writeField(bytes::ByteWriter &w, QByteArrayView name, bool value)
{
    w.put(",\"").put(name).put(value ? QByteArrayView("\":true") : QByteArrayView("\":false"));
}

} // namespace

void writeJsonString(bytes::ByteWriter &w, QByteArrayView utf8)
{
    w.put('"');
    qsizetype run = 0; // start of the bytes not yet written
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        if (c != '"' && c != '\\' && uchar(c) >= 0x20) {
            continue;
        }
        w.put(utf8.sliced(run, i - run));
        switch (c) {
        case '"':
        case '\\':
            w.put('\\').put(c);
            break;
        case '\b':
            w.put("\\b");
            break;
        case '\f':
            w.put("\\f");
            break;
        case '\n':
            w.put("\\n");
            break;
        case '\r':
            w.put("\\r");
            break;
        case '\t':
            w.put("\\t");
            break;
        default: {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", unsigned(uchar(c)));
            w.put(QByteArrayView(esc, 6));
        }
        }
        run = i + 1;
    }
    w.put(utf8.sliced(run)).put('"');
}

void writePrintableJson(bytes::ByteWriter &w, const QByteArray &bytes)
{
    for (const char c : bytes) {
        if (uchar(c) < 0x20 || uchar(c) >= 0x7f || c == '\\') {
            writeJsonString(w, bytes::printable(bytes).toUtf8());
            return;
        }
    }
    writeJsonString(w, bytes);
}

void writeDecisionJson(bytes::ByteWriter &w, const Decision &d, const QByteArray &key,
                       const DecisionJsonExtras &x)
{
    w.put(d.allowed ? QByteArrayView("{\"allowed\":true") : QByteArrayView("{\"allowed\":false"));
    if (x.cost) {
        writeField(w, "cost", *x.cost);
    }
    writeField(w, "delay_ms", d.delayMs);
    w.put(",\"key\":");
    writePrintableJson(w, key);
    writeField(w, "limit", d.limit);
    if (!x.overrideAction.isEmpty()) {
        w.put(",\"override\":{\"action\":");
        writeJsonString(w, x.overrideAction);
        w.put(",\"match\":");
        writeJsonString(w, x.overrideMatch);
        w.put('}');
    }
    writeField(w, "remaining", d.remaining);
    writeField(w, "reset_after_ms", d.resetAfterMs);
    writeField(w, "retry_after_ms", d.retryAfterMs);
    if (!x.rule.isEmpty()) {
        w.put(",\"rule\":");
        writeJsonString(w, x.rule);
    }
    if (x.shadow) {
        writeField(w, "shadow", *x.shadow);
        if (*x.shadow) {
            writeField(w, "shadow_denied", x.shadowDenied);
        }
    }
    if (!x.source.isEmpty()) {
        w.put(",\"source\":\"").put(x.source).put('"');
    }
    if (x.subject != nullptr) {
        w.put(",\"subject\":");
        writePrintableJson(w, *x.subject);
    }
    if (x.uncertain) {
        writeField(w, "uncertain", true);
    }
    w.put('}');
}

QByteArray decisionJson(const Decision &d, const QByteArray &key)
{
    QByteArray out;
    {
        bytes::ByteWriter w(out, 160 + key.size());
        writeDecisionJson(w, d, key);
    }
    return out;
}

} // namespace sluice
