// rules::validate(): the checks of a rule set that do not depend on how it was written down
// (the codecs check types, unknown and missing fields; the editor calls this as the user types).
//
// Decisions (FORMATS.md leaves them open):
//  - key_prefix: Redis keys are binary-safe, so every byte is allowed in a key, spaces
//    included ("my app:" is valid and keys are built with it verbatim). Refused: control
//    characters (C0, DEL, C1: invisible in the console, in logs and in redis-cli, and a
//    newline breaks line-based tools), braces (a '{' in the prefix would become the Redis
//    Cluster hash tag instead of {subject}: every subject of the rule in one slot), invalid
//    UTF-8, more than 128 bytes, and an empty prefix: the keys would be "<id>:{subject}" in
//    the database's root, and the Keys page and the Monitor, which scan "<prefix>*", would
//    list (and offer to delete) every key of the database.
//  - description and route: one line (no control characters), at most 1024 and 256
//    characters: they are shown in tables and written into exports as comments, where a
//    newline would end the comment.
//  - limits of the parameters: Policy::validate (positivity, 2^53 exactness), each parameter
//    checked on its own so that all of them are reported, then together.
#include "adoption.h"
#include "codec.h"
#include "jsonlocator.h"
#include "override.h"

#include "core/common/bytes.h"

#include <QHash>

using namespace Qt::StringLiterals;

namespace sluice::rules {

namespace {

constexpr qsizetype maxIdLength = 64;
constexpr qsizetype maxKeyPrefixBytes = 128;
constexpr qsizetype maxDescriptionLength = 1024;
constexpr qsizetype maxRouteLength = 256;

class Sink
{
public:
    Sink(QList<Diagnostic> &out, const QString &file)
        : m_out(out)
        , m_file(file)
    {}
    // A field of a rule: the path is built only when there is something to say.
    void add(const QString &rulePath, const QString &field, const QString &message)
    {
        add(fieldpath::member(rulePath, field), message);
    }
    void add(const QString &path, const QString &message)
    {
        Diagnostic d;
        d.file = m_file;
        d.path = path;
        d.message = message;
        m_out.append(std::move(d));
    }

private:
    QList<Diagnostic> &m_out;
    const QString &m_file;
};

QString codePointName(char32_t c)
{
    return u"U+%1"_s.arg(QString::number(uint(c), 16).toUpper().rightJustified(4, u'0'));
}

bool isControl(char32_t c)
{
    return c < 0x20 || (c >= 0x7F && c < 0xA0);
}

QString shown(const QString &text)
{
    return bytes::shortened(text);
}

void checkId(const QString &id, const QString &rulePath, Sink &sink)
{
    const QString field = u"id"_s;
    const QString expected =
        u"1 to 64 characters from A-Z, a-z, 0-9, '.', '_' and '-', e.g. hello-per-ip"_s;
    if (id.isEmpty()) {
        sink.add(rulePath, field, u"the id is empty; expected "_s + expected);
        return;
    }
    if (id.size() > maxIdLength) {
        sink.add(rulePath, field,
                 u"'%1' is %2 characters long; expected %3"_s.arg(
                     shown(id), QString::number(id.size()), expected));
        return;
    }
    for (QChar c : id) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'A' && u <= u'Z') || (u >= u'a' && u <= u'z') ||
                        (u >= u'0' && u <= u'9') || u == u'.' || u == u'_' || u == u'-';
        if (!ok) {
            const QString what =
                isControl(u) || c.isSpace() ? codePointName(u) : u"'"_s + c + u"'"_s;
            sink.add(rulePath, field,
                     u"'%1' contains %2; expected %3"_s.arg(shown(id), what, expected));
            return;
        }
    }
}

void checkLine(const QString &text, qsizetype max, const QString &rulePath, const QString &what,
               Sink &sink)
{
    if (text.size() > max) {
        sink.add(rulePath, what,
                 u"the %1 is %2 characters long; at most %3 are allowed"_s.arg(what)
                     .arg(text.size())
                     .arg(max));
    }
    for (QChar c : text) {
        if (isControl(c.unicode())) {
            sink.add(rulePath, what,
                     u"the %1 contains the control character %2; expected one line of "
                     "text"_s.arg(what, codePointName(c.unicode())));
            return;
        }
    }
}

void checkKeyPrefix(const QByteArray &prefix, const QString &rulePath, Sink &sink)
{
    const QString field = u"key_prefix"_s;
    const QString allowed = u"key prefixes may contain any printable character, spaces "
                            "included, and are at most 128 bytes"_s;
    if (prefix.isEmpty()) {
        sink.add(rulePath, field,
                 u"the key prefix is empty: the rule's keys would be mixed with every other "
                 "key of the database, and a scan for them would list the whole database; "
                 "give one such as \"rate_limit:\""_s);
        return;
    }
    if (prefix.size() > maxKeyPrefixBytes) {
        sink.add(rulePath, field,
                 u"the key prefix is %1 bytes long; %2"_s.arg(prefix.size()).arg(allowed));
        return;
    }
    for (qsizetype i = 0; i < prefix.size();) {
        const int len = utf8SequenceLength(prefix.constData() + i, prefix.size() - i);
        if (len == 0) {
            sink.add(rulePath, field, u"the key prefix is not valid UTF-8 (byte %1)"_s.arg(i));
            return;
        }
        const auto lead = static_cast<unsigned char>(prefix[i]);
        const char32_t c =
            len == 1 ? lead : QString::fromUtf8(prefix.constData() + i, len).toUcs4().value(0);
        if (isControl(c)) {
            sink.add(rulePath, field,
                     u"the key prefix contains the control character %1 at byte %2; %3"_s
                         .arg(codePointName(c))
                         .arg(i)
                         .arg(allowed));
            return;
        }
        if (c == U'{' || c == U'}') {
            sink.add(rulePath, field,
                     u"the key prefix contains '%1' at byte %2: braces are reserved for the "
                     "hash tag around the subject (<prefix><id>:{<subject>}); a brace in "
                     "the prefix would put every subject of the rule in one Redis Cluster "
                     "slot"_s.arg(QChar(c))
                         .arg(i));
            return;
        }
        i += len;
    }
}

// Policy::validate names the parameter first ("limit must be ...", "rate count must be ...",
// "limit 1000000 x window 1d is too large ..."): that word gives the field.
void addPolicyError(const QString &message, const QString &rulePath, Sink &sink)
{
    for (const QString &field : {u"limit"_s, u"window"_s, u"rate"_s, u"burst"_s}) {
        if (message.startsWith(field + u' ')) {
            const QString redundant = field + u" must "_s;
            sink.add(rulePath, field,
                     message.startsWith(redundant) ? message.mid(field.size() + 1) : message);
            return;
        }
    }
    sink.add(rulePath, message);
}

void checkParameters(const Rule &rule, const QString &path, Sink &sink)
{
    const Algorithm a = rule.algorithm;
    const QString name = algorithm::name(a);
    const auto notOf = [&](const QString &field) {
        sink.add(
            path, field,
            u"'%1' is not a parameter of %2; %2 takes %3"_s.arg(
                field, name, algorithm::isWindow(a) ? u"limit and window"_s : u"rate and burst"_s));
    };
    const auto check = [&](const Policy &p) {
        const Result<void> r = p.validate();
        if (!r) {
            addPolicyError(r.error().message, path, sink);
        }
        return r.ok();
    };
    bool each = true;
    if (algorithm::isWindow(a)) {
        if (rule.rate != Rate{}) {
            notOf(u"rate"_s);
        }
        if (rule.burst != 0) {
            notOf(u"burst"_s);
        }
        // One parameter at a time, the other neutral, so that every bad one is reported.
        each &= check(Policy::window(Algorithm::FixedWindow, rule.limit, 1));
        each &= check(Policy::window(Algorithm::FixedWindow, 1, rule.windowUs));
    } else {
        if (rule.limit != 0) {
            notOf(u"limit"_s);
        }
        if (rule.windowUs != 0) {
            notOf(u"window"_s);
        }
        each &= check(Policy::bucket(Algorithm::TokenBucket, rule.rate, 1));
        each &= check(Policy::bucket(Algorithm::TokenBucket, Rate{1, 1}, rule.burst));
    }
    if (each) {
        check(rule.policy()); // the bounds that depend on both (exact arithmetic)
    }
}

// An adoption: a known layout that holds a count in a window, a glob under the rule's
// key_prefix (the keys it names must be the rule's to watch and fix), a window and a limit
// (its own or the rule's).
void checkAdopt(const Rule &rule, const QString &path, Sink &sink)
{
    if (!rule.adopt) {
        return;
    }
    const Adopt &a = *rule.adopt;
    const QString at = fieldpath::member(path, u"adopt"_s);
    const adoption::LayoutId *layout = adoption::findLayoutId(a.layout);
    if (!a.layout.isEmpty() && (layout == nullptr || !layout->adoptable)) {
        sink.add(at, u"layout"_s,
                 u"%1 layout '%2'; expected one of %3 (the layouts whose state is a count in a "
                 "window)"_s.arg(layout == nullptr ? u"unknown"_s : u"cannot adopt the"_s, a.layout,
                                 adoption::adoptableIds()));
    }
    if (!a.script.isEmpty()) {
        if (!adoption::scriptFromName(a.script)) {
            sink.add(at, u"script"_s,
                     u"unknown counter script '%1'; expected one of %2"_s.arg(
                         a.script, adoption::scriptNames()));
        } else if (layout != nullptr && layout->adoptable && !layout->script) {
            sink.add(at, u"script"_s,
                     u"the layout %1 is not a counter: a script applies to the counter layouts "
                     "only"_s.arg(a.layout));
        }
    }
    if (a.match.isEmpty()) {
        sink.add(at, u"match"_s, u"expected a glob of the keys, e.g. rate_limit:*-hello"_s);
    } else {
        // The literal start of the glob, up to its first glob character.
        qsizetype literal = 0;
        while (literal < a.match.size() && !QByteArray("*?[\\").contains(a.match[literal])) {
            ++literal;
        }
        if (!rule.keyPrefix.isEmpty() && !a.match.left(literal).startsWith(rule.keyPrefix)) {
            sink.add(at, u"match"_s,
                     u"'%1' contradicts the rule's key_prefix '%2': the adopted keys must start "
                     "with it (set key_prefix to the other limiter's prefix)"_s.arg(
                         QString::fromUtf8(a.match), QString::fromUtf8(rule.keyPrefix)));
        }
    }
    if (rule.adoptWindowUs() <= 0) {
        sink.add(at, u"window"_s,
                 u"the adopted limiter's window is needed (the rule, %1, has none), e.g. "
                 "1m"_s.arg(algorithm::name(rule.algorithm)));
    } else if (rule.adoptWindowUs() > 30 * duration::usPerDay) {
        sink.add(at, u"window"_s, u"at most 30d, got %1"_s.arg(duration::formatUs(a.windowUs)));
    }
    if (rule.adoptLimit() <= 0) {
        sink.add(at, u"limit"_s,
                 u"the adopted limiter's limit is needed (the rule, %1, has none), e.g. "
                 "100"_s.arg(algorithm::name(rule.algorithm)));
    }
}

} // namespace

QList<Diagnostic> validateRule(const Rule &rule, const QString &path, const QString &file)
{
    QList<Diagnostic> out;
    Sink sink(out, file);
    checkId(rule.id, path, sink);
    checkLine(rule.description, maxDescriptionLength, path, u"description"_s, sink);
    checkLine(rule.route, maxRouteLength, path, u"route"_s, sink);
    const Result<Scope> scope = Scope::parse(rule.scope.toString());
    if (!scope) {
        sink.add(path, u"scope"_s, scope.error().message);
    } else if (*scope != rule.scope) {
        sink.add(path, u"scope"_s,
                 u"scope %1 takes no name (got '%2')"_s.arg(shown(rule.scope.toString()),
                                                            shown(rule.scope.name)));
    }
    checkParameters(rule, path, sink);
    if (rule.countRejected && !algorithm::countsRejected(rule.algorithm)) {
        sink.add(path, u"count_rejected"_s,
                 u"rule '%1': %2"_s.arg(shown(rule.id),
                                        algorithm::countRejectedRefusal(rule.algorithm)));
    }
    checkKeyPrefix(rule.keyPrefix, path, sink);
    checkAdopt(rule, path, sink);
    out += validateOverrides(rule, path, file);
    return out;
}

QList<Diagnostic> validate(const RuleSet &set, const QString &file)
{
    QList<Diagnostic> out;
    Sink sink(out, file);
    if (set.version != 1) {
        sink.add(u"version"_s,
                 u"unsupported format version %1; this Sluice reads version 1"_s.arg(set.version));
    }
    if (set.basedOn && *set.basedOn < 0) {
        sink.add(u"based_on"_s, u"expected an integer >= 0 (the rule store version the set was "
                                "pulled from), got %1"_s.arg(*set.basedOn));
    }
    QHash<QString, qsizetype> firstIndex;
    firstIndex.reserve(qsizetype(set.rules.size()));
    for (qsizetype i = 0; i < qsizetype(set.rules.size()); ++i) {
        const Rule &rule = set.rules[size_t(i)];
        const QString path = fieldpath::element(u"rules"_s, i);
        out += validateRule(rule, path, file);
        if (rule.id.isEmpty()) {
            continue;
        }
        const auto first = firstIndex.constFind(rule.id);
        if (first != firstIndex.constEnd()) {
            sink.add(path, u"id"_s,
                     u"duplicate id '%1': rules[%2] and rules[%3] both use it; ids must be "
                     "unique"_s.arg(rule.id, QString::number(*first), QString::number(i)));
        } else {
            firstIndex.insert(rule.id, i);
        }
    }
    return out;
}

} // namespace sluice::rules
