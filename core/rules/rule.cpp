#include "rule.h"

#include "core/common/bytes.h"
#include "core/common/names.h"

#include <cstring>

using namespace Qt::StringLiterals;

namespace sluice {

namespace {

// Header and parameter names are at most this long: far beyond any real one, and small
// enough that a pasted blob is caught.
constexpr qsizetype maxScopeName = 128;

const QString expectedScopes = u"expected global, ip, user, header:<Name> (e.g. header:X-Api-Key) "
                               "or param:<name> (e.g. param:api_key)"_s;

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

// RFC 7230 section 3.2.6: token = 1*tchar.
bool isTchar(char16_t c)
{
    if ((c >= u'0' && c <= u'9') || (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z')) {
        return true;
    }
    return c > 0 && c < 0x80 && std::strchr("!#$%&'*+-.^_`|~", char(c)) != nullptr;
}

QString charName(QChar c)
{
    if (c.unicode() < 0x20 || c.unicode() == 0x7F || c.isSpace()) {
        return u"U+%1"_s.arg(QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0'));
    }
    return u"'"_s + c + u"'"_s;
}

// A scope's name present and not too long: what is wrong (`needs` when it is empty), or nothing.
std::optional<Error> missingOrLong(const QString &name, const QString &needs, const QString &noun)
{
    if (name.isEmpty()) {
        return invalid(needs);
    }
    if (name.size() > maxScopeName) {
        return invalid(u"%1 is %2 characters long; at most %3 are allowed"_s.arg(noun)
                           .arg(name.size())
                           .arg(maxScopeName));
    }
    return std::nullopt;
}

Result<QString> checkHeaderName(const QString &name)
{
    if (auto problem = missingOrLong(
            name, u"'header:' needs a header name, e.g. header:X-Api-Key"_s, u"header name"_s)) {
        return *problem;
    }
    for (QChar c : name) {
        if (!isTchar(c.unicode())) {
            return invalid(
                u"'%1' is not an HTTP header name: %2 is not allowed (RFC 7230 token: "
                "letters, digits and ! # $ % & ' * + - . ^ _ ` | ~)"_s.arg(name, charName(c)));
        }
    }
    return name;
}

Result<QString> checkParamName(const QString &name)
{
    if (auto problem =
            missingOrLong(name, u"'param:' needs a query parameter name, e.g. param:api_key"_s,
                          u"parameter name"_s)) {
        return *problem;
    }
    for (QChar c : name) {
        const bool control = c.unicode() < 0x20 || (c.unicode() >= 0x7F && c.unicode() < 0xA0);
        if (control || c.isSpace() || c == u'&' || c == u'=' || c == u'#' || c == u'?') {
            return invalid(u"'%1' is not a query parameter name: %2 is not allowed (no spaces, "
                           "control characters, &, =, # or ?)"_s.arg(name, charName(c)));
        }
    }
    return name;
}

} // namespace

Result<Scope> Scope::parse(const QString &text)
{
    Scope s;
    for (Kind k : {Kind::Global, Kind::Ip, Kind::User}) {
        if (text == Scope{k, {}}.toString()) {
            s.kind = k;
            return s;
        }
    }
    const bool header = text.startsWith(u"header:"_s);
    if (header || text.startsWith(u"param:"_s)) {
        auto name = header ? checkHeaderName(text.mid(7)) : checkParamName(text.mid(6));
        if (!name) {
            return name.error();
        }
        s.kind = header ? Kind::Header : Kind::Param;
        s.name = *name;
        return s;
    }
    if (text.isEmpty()) {
        return invalid(u"the scope is empty; "_s + expectedScopes);
    }
    // Scopes are lowercase: say so when that is the only problem ("IP", "Header:X-Api-Key").
    const qsizetype colon = text.indexOf(u':');
    const QString kind = colon < 0 ? text : text.left(colon);
    const QString lowered = kind.toLower() + (colon < 0 ? QString() : text.mid(colon));
    if (lowered != text && parse(lowered)) {
        return invalid(u"'%1' is not a scope; did you mean '%2'? (scope kinds are lowercase)"_s.arg(
            bytes::shortened(text), bytes::shortened(lowered)));
    }
    return invalid(u"'%1' is not a scope; "_s.arg(bytes::shortened(text)) + expectedScopes);
}

QString Scope::toString() const
{
    static constexpr Named<Kind> prefixes[] = {{Kind::Global, u"global"},
                                               {Kind::Ip, u"ip"},
                                               {Kind::User, u"user"},
                                               {Kind::Header, u"header:"},
                                               {Kind::Param, u"param:"}};
    const QString prefix = nameIn(prefixes, kind, u"param:");
    const bool named = kind != Kind::Global && kind != Kind::Ip && kind != Kind::User;
    return named ? prefix + name : prefix;
}

constexpr Named<OnRedisError> onRedisErrorNames[] = {{OnRedisError::Allow, u"allow"},
                                                     {OnRedisError::Deny, u"deny"},
                                                     {OnRedisError::Local, u"local"}};

QString onRedisErrorName(OnRedisError e)
{
    return nameIn(onRedisErrorNames, e, u"local");
}

std::optional<OnRedisError> onRedisErrorFromName(const QString &name)
{
    return valueNamed(onRedisErrorNames, name);
}

Rule Rule::window(QString id, Algorithm a, qint64 limit, qint64 windowUs, Scope scope,
                  QByteArray keyPrefix)
{
    Rule r;
    r.id = std::move(id);
    r.scope = std::move(scope);
    r.algorithm = a;
    r.limit = limit;
    r.windowUs = windowUs;
    r.keyPrefix = std::move(keyPrefix);
    return r;
}

Rule Rule::bucket(QString id, Algorithm a, Rate rate, qint64 burst, Scope scope,
                  QByteArray keyPrefix)
{
    Rule r;
    r.id = std::move(id);
    r.scope = std::move(scope);
    r.algorithm = a;
    r.rate = rate;
    r.burst = burst;
    r.keyPrefix = std::move(keyPrefix);
    return r;
}

Policy Rule::policy() const
{
    // Only the parameters of the algorithm: a stray value of the other family (an invalid
    // rule) must not reach a script's ARGV.
    Policy p = algorithm::isWindow(algorithm) ? Policy::window(algorithm, limit, windowUs, id)
                                              : Policy::bucket(algorithm, rate, burst, id);
    p.id = id; // even when empty: the engine never invents an id for a rule
    p.keyPrefix = keyPrefix;
    p.onChange = onChange;
    // Only where the algorithm runs it (an invalid rule must not reach a script's ARGV).
    p.countRejected = countRejected && algorithm::countsRejected(algorithm);
    return p;
}

QString Rule::describe() const
{
    QString where;
    switch (scope.kind) {
    case Scope::Kind::Global:
        where = u"global"_s;
        break;
    case Scope::Kind::Ip:
        where = u"per IP"_s;
        break;
    case Scope::Kind::User:
        where = u"per user"_s;
        break;
    case Scope::Kind::Header:
        where = u"per header "_s + scope.name;
        break;
    case Scope::Kind::Param:
        where = u"per param "_s + scope.name;
        break;
    }
    // "3 per 5s per IP" reads as one phrase; "100/s, burst 200, global" needs the comma.
    const bool phrase = algorithm::isWindow(algorithm) && scope.kind != Scope::Kind::Global;
    return policy().describe() + (phrase ? u" "_s : u", "_s) + where;
}

// Among `rules`, then among `staged` (whose ids end "@staged", so never one of `rules`).
const Rule *RuleSet::find(const QString &id) const
{
    for (const auto *list : {&rules, &staged}) {
        for (const Rule &r : *list) {
            if (r.id == id) {
                return &r;
            }
        }
    }
    return nullptr;
}

QString Diagnostic::toString() const
{
    QString out;
    if (!file.isEmpty()) {
        out += file + u':';
    }
    if (line > 0) {
        out += QString::number(line) + u':';
        if (column > 0) {
            out += QString::number(column) + u':';
        }
    }
    if (!out.isEmpty()) {
        out += u' ';
    }
    if (!path.isEmpty()) {
        // A path names fields as the file spells them: cut and escaped (a 10 MB field name
        // with a line feed in it makes a short line).
        out += bytes::quoted(path.toUtf8()) + u": "_s;
    }
    // Values in it were escaped where they were quoted; a control that reached it anyway is
    // escaped here, so a diagnostic is always one line.
    return out + bytes::printable(message, bytes::Keep::Backslash);
}

} // namespace sluice
