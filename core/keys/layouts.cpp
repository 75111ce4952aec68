#include "layouts.h"
#include "layouts_p.h"

#include "keyinfo.h"
#include "statedecoder.h"

#include "core/common/plural.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

// Whether `text` is ASCII digits only (an empty text is).
bool digitsOnly(QByteArrayView text)
{
    return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The characters a backslash makes literal in the rows' expressions.
bool escapedLiteral(char c)
{
    return c != '\0' && std::strchr(".{}[]()*+?|^$\\/-:_", c) != nullptr;
}

// Past the bracket or parenthesis that closes the one at `i` (a class or a group, nested).
size_t skipGroup(const char *re, size_t i)
{
    const char close = re[i] == '[' ? ']' : ')';
    int depth = 0;
    for (; re[i] != '\0'; ++i) {
        if (re[i] == '\\' && re[i + 1] != '\0') {
            ++i;
        } else if (close == ']' && re[i] == ']' && depth > 0) {
            return i + 1;
        } else if (close == ']' && re[i] == '[') {
            depth = 1;
        } else if (close == ')' && re[i] == '[') {
            i = skipGroup(re, i) - 1;
        } else if (close == ')' && re[i] == '(') {
            ++depth;
        } else if (close == ')' && re[i] == ')' && --depth == 0) {
            return i + 1;
        }
    }
    return i;
}

// The literal text an anchored expression starts with ("rl:" of "rl:.+"): none when it
// starts with anything else, or has a top-level alternation.
QByteArray literalPrefix(const char *re)
{
    if (std::strchr(re, '|') != nullptr) {
        return {};
    }
    QByteArray out;
    for (size_t i = 0; re[i] != '\0';) {
        char literal = 0;
        size_t next = i + 1;
        if (re[i] == '\\' && escapedLiteral(re[i + 1])) {
            literal = re[i + 1];
            next = i + 2;
        } else if (std::strchr(".^$*+?[](){}\\", re[i]) == nullptr) {
            literal = re[i];
        } else {
            break;
        }
        if (re[next] == '?' || re[next] == '*' || re[next] == '{') {
            break; // optional or counted
        }
        out += literal;
        if (re[next] == '+') {
            break;
        }
        i = next;
    }
    return out;
}

// A row's expression as a glob over the key's bytes when it is only literal text, `.*` and `.+`
// (`.` matches any byte: DotMatchesEverythingOption, and a key's Latin-1 QString holds its
// bytes): anyByte, anyRun, or a byte. Empty when the expression has anything else.
constexpr short anyByte = -1;
constexpr short anyRun = -2;
std::vector<short> simpleGlob(const char *re)
{
    std::vector<short> out;
    for (size_t i = 0; re[i] != '\0';) {
        size_t next = i + 1;
        if (re[i] == '.' && (re[i + 1] == '*' || re[i + 1] == '+')) {
            if (re[i + 1] == '+') {
                out.push_back(anyByte);
            }
            out.push_back(anyRun);
            i += 2;
            continue;
        }
        char literal = re[i];
        if (re[i] == '\\' && escapedLiteral(re[i + 1])) {
            literal = re[i + 1];
            next = i + 2;
        } else if (std::strchr(".^$*+?[](){}|\\", re[i]) != nullptr) {
            return {};
        }
        if (re[next] != '\0' && std::strchr("?*+{", re[next]) != nullptr) {
            return {}; // optional, repeated or counted
        }
        out.push_back(short(quint8(literal)));
        i = next;
    }
    return out;
}

// Whether `key` fits a simpleGlob() (the usual glob walk: on a mismatch, the last anyRun
// takes one more byte).
bool globFits(const std::vector<short> &glob, QByteArrayView key)
{
    const size_t m = glob.size();
    const size_t n = size_t(key.size());
    size_t p = 0;
    size_t k = 0;
    size_t runAt = m;
    size_t runFrom = 0;
    while (k < n) {
        if (p < m && (glob[p] == anyByte || glob[p] == short(quint8(key[qsizetype(k)])))) {
            ++p;
            ++k;
        } else if (p < m && glob[p] == anyRun) {
            runAt = p++;
            runFrom = k;
        } else if (runAt != m) {
            p = runAt + 1;
            k = ++runFrom;
        } else {
            return false;
        }
    }
    while (p < m && glob[p] == anyRun) {
        ++p;
    }
    return p == m;
}

// What matching needs of each row, computed once.
struct Compiled
{
    struct Row
    {
        QRegularExpression regex;
        std::string prefix; // the literal text every name fitting it starts with
        // requiredLiterals() of its expression but those inside `prefix` (a name that starts
        // with it holds them)
        std::vector<std::string> literals;
        bool anyName = false;    // no expression: every name fits
        std::vector<short> glob; // simpleGlob() of its expression: no regex run
        QByteArray type;
        bool sluice = false;     // one of Sluice's own rows
        bool leaky = false;      // Sluice's leaky bucket row
        QString sluiceAlgorithm; // its algorithm ("fixed_window"), for Sluice's rows
    };
    std::vector<Row> rows;
    // The rows of each Redis type, in the table's order, by the first byte of a name (256: the
    // empty name): a key is tried against the rows of its type whose prefix (if any) starts
    // with its first byte only.
    using ByFirstByte = std::array<std::vector<size_t>, 257>;
    std::vector<std::pair<QByteArray, ByFirstByte>> byType;
    Compiled()
    {
        for (const Layout &l : layouts()) {
            Row r;
            r.regex = QRegularExpression(
                QRegularExpression::anchoredPattern(QString::fromLatin1(l.keyRegex)),
                QRegularExpression::DotMatchesEverythingOption);
            r.regex.optimize();
            r.prefix = literalPrefix(l.keyRegex).toStdString();
            for (const QByteArray &literal : requiredLiterals(l.keyRegex)) {
                if (r.prefix.find(literal.toStdString()) == std::string::npos) {
                    r.literals.push_back(literal.toStdString());
                }
            }
            r.anyName = l.keyRegex[0] == '\0';
            r.glob = simpleGlob(l.keyRegex);
            r.type = QByteArray(l.type);
            const QLatin1String id(l.id);
            r.sluice = id.startsWith("sluice_"_L1);
            r.sluiceAlgorithm = r.sluice ? QString(id.sliced(7)) : QString();
            r.leaky = r.sluiceAlgorithm == "leaky_bucket"_L1;
            auto same = std::find_if(byType.begin(), byType.end(),
                                     [&](const auto &t) { return t.first == r.type; });
            if (same == byType.end()) {
                same = byType.insert(byType.end(), {r.type, {}});
            }
            for (size_t first = 0; first < same->second.size(); ++first) {
                if (r.prefix.empty() || (first < 256 && quint8(r.prefix[0]) == first)) {
                    same->second[first].push_back(rows.size());
                }
            }
            rows.push_back(std::move(r));
        }
    }
    // The rows a key of `type` named `key` may fit, in the table's order; nullptr: none.
    const std::vector<size_t> *candidates(const QByteArray &type, const QByteArray &key) const
    {
        for (const auto &[t, byFirst] : byType) {
            if (t == type) {
                return &byFirst[key.isEmpty() ? 256 : quint8(key.front())];
            }
        }
        return nullptr;
    }
};

const Compiled &compiled()
{
    static const Compiled c;
    return c;
}

qsizetype indexOf(const Layout &layout)
{
    return &layout - layouts().constData();
}

// Whether `key` holds every literal the row's name needs (no allocation).
bool literalsFit(const Compiled::Row &row, const QByteArray &key)
{
    const std::string_view name(key.constData(), size_t(key.size()));
    if (!name.starts_with(row.prefix)) {
        return false;
    }
    for (const std::string &literal : row.literals) {
        if (name.find(literal) == std::string_view::npos) {
            return false;
        }
    }
    return true;
}

// Whether `key`, whose literals fit, fits the row's expression; `name` is the key as a QString,
// made on first need and kept for the next rows.
bool expressionFits(const Compiled::Row &row, const QByteArray &key, std::optional<QString> &name)
{
    if (row.anyName) {
        return true;
    }
    if (!row.glob.empty()) {
        return globFits(row.glob, key);
    }
    if (!name) {
        name = QString::fromLatin1(key);
    }
    return row.regex.match(*name).hasMatch();
}

// Whether `key` fits the row's name.
bool nameFits(const Compiled::Row &row, const QByteArray &key, std::optional<QString> &name)
{
    return row.anyName || (literalsFit(row, key) && expressionFits(row, key, name));
}

} // namespace

namespace layoutdetail {

std::optional<qint64> wholeNumber(QByteArrayView text)
{
    if (text.isEmpty() || text.size() > 20) {
        return std::nullopt;
    }
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (!(ch >= '0' && ch <= '9') && !(i == 0 && ch == '-' && text.size() > 1)) {
            return std::nullopt;
        }
    }
    if (text.size() <= 18) {
        // At most 18 digits (or 17 and a sign) never overflow: read here, as toLongLong would.
        const bool negative = text.front() == '-';
        qint64 v = 0;
        for (qsizetype i = negative ? 1 : 0; i < text.size(); ++i) {
            v = v * 10 + (text[i] - '0');
        }
        return negative ? -v : v;
    }
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

std::optional<double> number(QByteArrayView text)
{
    if (text.isEmpty() || text.size() > 40) {
        return std::nullopt;
    }
    if (text.size() <= 15 && digitsOnly(text)) {
        // Below 10^15 < 2^53: the double is exact, as toDouble reads it (the usual timestamp,
        // counter or score).
        qint64 v = 0;
        for (const char ch : text) {
            v = v * 10 + (ch - '0');
        }
        return double(v);
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The string value, whole (nullopt when it is longer than what was read).
std::optional<QByteArray> wholeString(const ForeignRead &r)
{
    if (r.type != "string" || r.strlen != r.head.size()) {
        return std::nullopt;
    }
    return r.head;
}

// What the value shapes ask of one read, worked out once for all the rows tried (matchLayout
// tries a few dozen): the whole string, and it read as a whole number and as a number.
class ValueFacts
{
public:
    explicit ValueFacts(const ForeignRead &r)
        : m_r(r)
    {}
    const std::optional<QByteArray> &whole()
    {
        if (!m_whole) {
            m_whole = wholeString(m_r);
        }
        return *m_whole;
    }
    std::optional<qint64> integer()
    {
        if (!m_integer) {
            m_integer = whole() ? wholeNumber(*whole()) : std::nullopt;
        }
        return *m_integer;
    }
    std::optional<double> decimal()
    {
        if (!m_decimal) {
            m_decimal = whole() ? number(*whole()) : std::nullopt;
        }
        return *m_decimal;
    }

private:
    const ForeignRead &m_r;
    std::optional<std::optional<QByteArray>> m_whole;
    std::optional<std::optional<qint64>> m_integer;
    std::optional<std::optional<double>> m_decimal;
};

// A number read as a timestamp in s, ms, us or ns: us since the epoch, when it is within ten
// years before `nowUs` and a day after.
std::optional<qint64> timestampUs(double v, qint64 nowUs)
{
    constexpr double tenYearsUs = 10.0 * 365 * 86400 * 1e6;
    constexpr double dayUs = 86400 * 1e6;
    for (double scale : {1e6, 1e3, 1.0, 1e-3}) {
        const double us = v * scale;
        if (us >= double(nowUs) - tenYearsUs && us <= double(nowUs) + dayUs) {
            return qint64(us);
        }
    }
    return std::nullopt;
}

// The leading number of a zset member ("1700000000123", "1700000000123-7f3a").
std::optional<double> leadingNumber(const QByteArray &member)
{
    qsizetype n = 0;
    while (n < member.size() && n < 20 &&
           ((member[n] >= '0' && member[n] <= '9') || member[n] == '.')) {
        ++n;
    }
    return n == 0 ? std::nullopt : number(QByteArrayView(member).first(n));
}

// The timestamp (us) of a zset end's score.
std::optional<qint64> scoreUs(const std::optional<std::pair<QByteArray, QByteArray>> &end,
                              qint64 nowUs)
{
    auto s = end ? number(end->second) : std::nullopt;
    return s ? timestampUs(*s, nowUs) : std::nullopt;
}

// The timestamp (us) a zset end's member starts with.
std::optional<qint64> memberUs(const std::optional<std::pair<QByteArray, QByteArray>> &end,
                               qint64 nowUs)
{
    auto m = end ? leadingNumber(end->first) : std::nullopt;
    return m ? timestampUs(*m, nowUs) : std::nullopt;
}

// The timestamp (us) of one end of a zset: its score, else its member.
std::optional<qint64> endUs(const std::optional<std::pair<QByteArray, QByteArray>> &end,
                            qint64 nowUs)
{
    if (auto t = scoreUs(end, nowUs)) {
        return t;
    }
    return memberUs(end, nowUs);
}

// A sliding-window log's end: the member starts with a timestamp, the score is one, and the
// two are within a day of each other (ZADD key <now> <now>[-<rand>]). Client ids scored by
// their last-seen time fail the first test.
bool logEnd(const std::optional<std::pair<QByteArray, QByteArray>> &end, qint64 nowUs)
{
    constexpr qint64 dayUs = qint64(86400) * 1'000'000;
    const auto m = memberUs(end, nowUs);
    const auto s = scoreUs(end, nowUs);
    return m && s && std::abs(*m - *s) <= dayUs;
}

bool hasFields(const ForeignRead &r, std::initializer_list<const char *> names, qint64 exact)
{
    // Sluice's own hashes may carry one more field, v: the rule version (lua/README.md).
    const bool versioned = r.hlen == exact + 1 && r.field("v");
    if (r.type != "hash" || (exact > 0 && r.hlen != exact && !versioned)) {
        return false;
    }
    for (const char *n : names) {
        if (!r.field(QByteArrayView(n))) {
            return false;
        }
    }
    return true;
}

// Kong's EXPIRATION table (kong/plugins/rate-limiting/expiration.lua) and python limits'
// granularities: a period's length in s (-1: not a period). A month is 30 days there.
qint64 periodSeconds(const QByteArray &name)
{
    static const QList<std::pair<QByteArray, qint64>> periods = {
        {"second", 1},  {"minute", 60},     {"hour", 3600},
        {"day", 86400}, {"month", 2592000}, {"year", 31536000}};
    for (const auto &[n, s] : periods) {
        if (name == n) {
            return s;
        }
    }
    return -1;
}

QString ago(qint64 us)
{
    return formatDurationMs(std::max<qint64>(us, 0) / 1000);
}

QString withTtl(QString text, qint64 pttlMs, LostTtl lost)
{
    if (pttlMs == -1) {
        switch (lost) {
        case LostTtl::BlocksSubject:
            return text += u", never resets (no TTL)";
        case LostTtl::HealsOnNextRequest:
            return text += u", no TTL (the next request sets one)";
        case LostTtl::IdleKeyKept:
            return text += u", no TTL (kept while idle)";
        case LostTtl::OrphanedByWindowInName:
            return text += u", no TTL (kept after its window)";
        }
    }
    if (pttlMs >= 0) {
        // Appended in place: a state a key, a million keys.
        char duration[32];
        const int n = formatDurationMs(pttlMs, duration);
        text += u", resets in ";
        text += QLatin1StringView(duration, n);
    }
    return text;
}

} // namespace layoutdetail

using namespace layoutdetail;

std::vector<QByteArray> requiredLiterals(const char *re)
{
    for (size_t i = 0; re[i] != '\0';) {
        if (re[i] == '|') {
            return {};
        }
        i = re[i] == '[' || re[i] == '(' ? skipGroup(re, i) : i + (re[i] == '\\' ? 2 : 1);
    }
    std::vector<QByteArray> out;
    QByteArray run;
    const auto endRun = [&] {
        if (!run.isEmpty()) {
            out.push_back(run);
        }
        run.clear();
    };
    for (size_t i = 0; re[i] != '\0';) {
        char literal = 0;
        if (re[i] == '\\' && escapedLiteral(re[i + 1])) {
            literal = re[i + 1];
            i += 2;
        } else if (re[i] == '[' || re[i] == '(') {
            endRun();
            i = skipGroup(re, i);
            continue;
        } else if (re[i] == '{') { // a quantifier: {n} or {n,m}
            endRun();
            while (re[i] != '\0' && re[i] != '}') {
                ++i;
            }
            i += re[i] == '}' ? 1 : 0;
            continue;
        } else if (re[i] == '\\' || std::strchr(".^$*+?", re[i]) != nullptr) {
            endRun(); // a class (\s, \d), any character, an anchor, a quantifier
            i += re[i] == '\\' && re[i + 1] != '\0' ? 2 : 1;
            continue;
        } else {
            literal = re[i++];
        }
        if (re[i] == '?' || re[i] == '*' || re[i] == '{') {
            endRun(); // optional or counted: not required as it is
            continue;
        }
        run += literal;
        if (re[i] == '+') {
            endRun();
        }
    }
    endRun();
    return out;
}

std::optional<QByteArray> ForeignRead::field(QByteArrayView name) const
{
    for (const auto &f : fields) {
        if (f.first == name) {
            return f.second;
        }
    }
    return std::nullopt;
}

const Layout *findLayout(const QString &id)
{
    for (const Layout &l : layouts()) {
        if (id == QLatin1String(l.id)) {
            return &l;
        }
    }
    return nullptr;
}

const QString &idOf(const Layout &layout)
{
    static const std::vector<QString> ids = [] {
        std::vector<QString> out;
        for (const Layout &l : layouts()) {
            out.push_back(QString::fromLatin1(l.id));
        }
        return out;
    }();
    return ids[size_t(indexOf(layout))];
}

QString layoutIds(bool adoptableOnly)
{
    QStringList ids;
    for (const Layout &l : layouts()) {
        if (!adoptableOnly || l.adoptable) {
            ids << QString::fromLatin1(l.id);
        }
    }
    return ids.join(u", "_s);
}

bool keyFits(const Layout &layout, const QByteArray &key)
{
    std::optional<QString> name;
    return nameFits(compiled().rows[size_t(indexOf(layout))], key, name);
}

namespace {

// Whether the value has the row's shape, its type known to be the row's.
bool valueFits(const Layout &layout, const ForeignRead &r, ValueFacts &facts)
{
    switch (layout.value) {
    case ValueShape::Integer:
        return facts.integer().has_value();
    case ValueShape::Number:
        return facts.decimal().has_value();
    case ValueShape::CellTat: {
        auto n = facts.integer();
        // redis-cell always sets a TTL; its TAT is near now, at most a (long) burst ahead.
        constexpr qint64 hourNs = qint64(3600) * 1'000'000'000;
        const qint64 nowNs = r.nowUs * 1000;
        return n && r.pttlMs >= 0 && *n > nowNs - hourNs && *n < nowNs + 24 * 30 * hourNs;
    }
    case ValueShape::RateTat: {
        // Within a day before now and a month after (a long burst), in s since 2017.
        auto n = facts.decimal();
        const double nowS = double(r.nowUs) / 1e6 - double(rateEpochS);
        return n && *n > nowS - 86400 && *n < nowS + 30 * 86400;
    }
    case ValueShape::Binary:
        // A serialized bucket is small (its configuration and a few numbers): a huge string
        // that happens to start with zero bytes is not one.
        return r.strlen >= 16 && r.strlen <= 64 * 1024 && r.head.size() >= 3 && r.head[0] == '\0' &&
               r.head[1] == '\0' && r.head[2] == '\0';
    case ValueShape::TimestampLog:
        return r.zcard > 0 && logEnd(r.newest, r.nowUs) && (!r.oldest || logEnd(r.oldest, r.nowUs));
    case ValueShape::TimestampScores:
        return r.zcard > 0 && scoreUs(r.newest, r.nowUs).has_value();
    case ValueShape::TimestampList:
        return r.zcard > 0 && scoreUs(r.newest, r.nowUs).has_value() &&
               scoreUs(r.oldest, r.nowUs).has_value();
    case ValueShape::DurationHash:
        return hasFields(r, {"start", "end", "count"}, 3) && !r.field("v");
    case ValueShape::RedissonConfig:
        return hasFields(r, {"rate", "interval", "type"}, 0);
    case ValueShape::SluiceFixed:
        return hasFields(r, {"s", "c"}, 2);
    case ValueShape::SluiceCounter:
        return hasFields(r, {"s", "c", "p"}, 3);
    case ValueShape::SluiceBucket:
        return hasFields(r, {"l", "t"}, 2);
    case ValueShape::SluiceLog:
        return true;
    case ValueShape::SluiceGcra: {
        static const QRegularExpression gcra(
            u"^[0-9]{1,19}(\\+[0-9]{1,19}/[0-9]{1,19})?(@[a-z]{2}(:[0-9]{1,19}){2,3})?$"_s);
        const auto &v = facts.whole();
        if (!v || v->isEmpty() || v->front() < '0' || v->front() > '9') {
            return false;
        }
        // "<tat_us>" alone (the usual value) fits the expression's first part: not run.
        return (v->size() <= 19 && digitsOnly(*v)) ||
               gcra.match(QString::fromLatin1(*v)).hasMatch();
    }
    }
    return false;
}

} // namespace

bool shapeFits(const Layout &layout, const ForeignRead &r)
{
    ValueFacts facts(r);
    return r.type == layout.type && valueFits(layout, r, facts);
}

const Layout *matchLayout(const ForeignRead &read, const QString &sluiceAlgorithm)
{
    const QList<Layout> &all = layouts();
    const Compiled &c = compiled();
    const std::vector<size_t> *ofType = c.candidates(read.type, read.key);
    if (ofType == nullptr) {
        return nullptr;
    }
    std::optional<QString> name;
    ValueFacts facts(read);
    for (const size_t i : *ofType) {
        const Compiled::Row &row = c.rows[i];
        const Layout &l = all[qsizetype(i)];
        if (!literalsFit(row, read.key)) {
            continue;
        }
        if (row.sluice) {
            // With a rule, only its algorithm's row; without, a leaky bucket cannot be told
            // from a token bucket (same fields): the token bucket's row says so.
            if (sluiceAlgorithm.isEmpty() ? row.leaky : row.sluiceAlgorithm != sluiceAlgorithm) {
                continue;
            }
        }
        // The name's literals first (no allocation), then the value's shape (each fact worked
        // out once), then the expression.
        if (valueFits(l, read, facts) && expressionFits(row, read.key, name)) {
            return &l;
        }
    }
    return nullptr;
}

const Layout *matchByName(const QByteArray &key)
{
    const QList<Layout> &all = layouts();
    const std::vector<Compiled::Row> &rows = compiled().rows;
    std::optional<QString> name;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (all[qsizetype(i)].byName && nameFits(rows[i], key, name)) {
            return &all[qsizetype(i)];
        }
    }
    return nullptr;
}

const char *typeByName(const QByteArray &key)
{
    const QList<Layout> &all = layouts();
    const std::vector<Compiled::Row> &rows = compiled().rows;
    const char *type = nullptr;
    std::optional<QString> name;
    for (size_t i = 0; i < rows.size(); ++i) {
        const Compiled::Row &row = rows[i];
        if (row.anyName || !nameFits(row, key, name)) {
            continue;
        }
        const char *t = all[qsizetype(i)].type;
        if (type != nullptr && std::strcmp(type, t) != 0) {
            return nullptr;
        }
        type = t;
    }
    return type;
}

QString limitFromName(LimitFrom l)
{
    switch (l) {
    case LimitFrom::Adoption:
        return u"adoption"_s;
    case LimitFrom::TokensLeft:
        return u"in_key"_s;
    case LimitFrom::BlockKey:
        return u"block_key"_s;
    case LimitFrom::SluiceRule:
        return u"rule"_s;
    case LimitFrom::Unknown:
        break;
    }
    return u"unknown"_s;
}

LimitFrom limitFrom(const Layout &layout)
{
    if (layout.limit) {
        return *layout.limit;
    }
    if (layout.decoder == Decoder::Sluice) {
        return LimitFrom::SluiceRule;
    }
    return layout.adoptable ? LimitFrom::Adoption : LimitFrom::Unknown;
}

QString lostTtlName(LostTtl l)
{
    switch (l) {
    case LostTtl::BlocksSubject:
        return u"blocks_subject"_s;
    case LostTtl::IdleKeyKept:
        return u"idle_key_kept"_s;
    case LostTtl::HealsOnNextRequest:
        return u"heals_on_next_request"_s;
    case LostTtl::OrphanedByWindowInName:
        return u"orphaned_by_window_in_name"_s;
    }
    return {};
}

int severity(LostTtl l)
{
    switch (l) {
    case LostTtl::BlocksSubject:
        return 3;
    case LostTtl::IdleKeyKept:
        return 2;
    case LostTtl::HealsOnNextRequest:
        return 1;
    case LostTtl::OrphanedByWindowInName:
        return 0;
    }
    return 0;
}

QString lostTtlWords(LostTtl l)
{
    switch (l) {
    case LostTtl::BlocksSubject:
        return u"it keeps counting and never resets: once at its limit it denies its subject "
               "until someone deletes it"_s;
    case LostTtl::IdleKeyKept:
        return u"nobody is blocked (the state keeps its own clock, or each request trims it), "
               "but the key of an idle subject stays forever"_s;
    case LostTtl::HealsOnNextRequest:
        return u"the library sets a TTL again on the subject's next request, so nobody is "
               "blocked; only an idle subject's key stays forever"_s;
    case LostTtl::OrphanedByWindowInName:
        return u"its name holds its window, so the next window is another key: nobody is "
               "blocked, but this one stays forever as dead weight"_s;
    }
    return {};
}

QString lostTtlWords(const Layout &layout)
{
    if (layout.decoder == Decoder::Flag && layout.lostTtl == LostTtl::BlocksSubject) {
        return u"the block never ends: it denies its subject until someone deletes it"_s;
    }
    return lostTtlWords(layout.lostTtl);
}

std::optional<qint64> windowEndUs(const Layout &layout, const QByteArray &key)
{
    constexpr qint64 usPerS = 1'000'000;
    switch (layout.window) {
    case WindowFrom::KongPeriod: {
        // ...:<period start, ms>:<period>. The longest month and year, so that the end is
        // never placed too early.
        const QList<QByteArray> parts = key.split(':');
        if (parts.size() < 3) {
            return std::nullopt;
        }
        const QByteArray &period = parts.last();
        const qint64 s = period == "month"  ? 31 * 86400
                         : period == "year" ? 366 * 86400
                                            : periodSeconds(period);
        auto startMs = wholeNumber(parts[parts.size() - 2]);
        if (s <= 0 || !startMs || *startMs < 0) {
            return std::nullopt;
        }
        return *startMs * 1000 + s * usPerS;
    }
    case WindowFrom::EnvoyUnit: {
        // <window start, s>: the window is at most the largest unit the start is a multiple of.
        bool ok = false;
        const qint64 start = key.mid(key.lastIndexOf('_') + 1).toLongLong(&ok);
        if (!ok || start <= 0) {
            return std::nullopt;
        }
        qint64 unit = 1;
        for (qint64 u : {86400, 3600, 60}) {
            if (start % u == 0) {
                unit = u;
                break;
            }
        }
        return (start + unit) * usPerS;
    }
    default:
        return std::nullopt;
    }
}

qint64 knownWindowMs(const Layout &layout, const ForeignRead &read)
{
    switch (layout.window) {
    case WindowFrom::Unknown:
    case WindowFrom::SluiceRule:
        return -1;
    case WindowFrom::KongPeriod: {
        const qsizetype at = read.key.lastIndexOf(':');
        const qint64 s = periodSeconds(read.key.mid(at + 1));
        return s > 0 ? s * 1000 : -1;
    }
    case WindowFrom::EnvoyUnit: {
        // The window start is now / unit * unit: a multiple of the unit, so the largest unit
        // it is a multiple of bounds the window from above (never a false flag).
        const qsizetype at = read.key.lastIndexOf('_');
        bool ok = false;
        const qint64 start = read.key.mid(at + 1).toLongLong(&ok);
        if (!ok) {
            return -1;
        }
        for (qint64 unit : {86400, 3600, 60}) {
            if (start % unit == 0) {
                return unit * 1000;
            }
        }
        return 1000;
    }
    case WindowFrom::LimitsName: {
        // .../<amount>/<multiples>/<granularity>: the window is multiples x granularity.
        const QList<QByteArray> parts = read.key.split('/');
        const qint64 unit = parts.size() >= 3 ? periodSeconds(parts.last()) : -1;
        auto multiples = parts.size() >= 3 ? wholeNumber(parts[parts.size() - 2]) : std::nullopt;
        return unit > 0 && multiples && *multiples > 0 ? unit * *multiples * 1000 : -1;
    }
    case WindowFrom::RedissonField: {
        auto v = read.field("interval");
        auto n = v ? wholeNumber(*v) : std::nullopt;
        return n && *n > 0 ? *n : -1;
    }
    }
    return -1;
}

std::optional<qint64> counterValue(const Layout &layout, const ForeignRead &read)
{
    if (layout.decoder != Decoder::Counter && layout.decoder != Decoder::Points &&
        layout.decoder != Decoder::RedissonValue) {
        return std::nullopt;
    }
    auto v = wholeString(read);
    return v ? wholeNumber(*v) : std::nullopt;
}

} // namespace sluice::keys
