#include "envoyformat.h"

#include "codec.h"
#include "codecinternal.h"
#include "core/common/bytes.h"
#include "core/common/readfile.h"
#include "core/limiter/policy.h"
#include "jsonlocator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <tuple>

namespace sluice::rules::envoy {

namespace {

// A YAML node with where it starts: the little of YAML envoy ratelimit's files use (maps,
// lists, scalars). Anchors and aliases are refused (a file that needs them is not one of
// envoy ratelimit's, and an alias would let a small file stand for a huge one).
struct Node
{
    enum class Type { Null, Scalar, Map, List } type = Type::Null;
    std::string scalar;
    bool plain = true; // a plain scalar (not quoted): may be a number or a boolean
    qsizetype offset = 0;
    std::vector<std::pair<std::unique_ptr<Node>, std::unique_ptr<Node>>> map; // key, value
    std::vector<std::unique_ptr<Node>> list;
};

struct Refusal
{
    QString message;
    qsizetype offset;
};

class TreeReader final : public YAML::EventHandler
{
public:
    std::unique_ptr<Node> root;

    void OnDocumentStart(const YAML::Mark &) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        place(make(Node::Type::Null, mark, anchor));
    }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override
    {
        throw Refusal{QStringLiteral("a YAML alias (*name) is not accepted here"),
                      qsizetype(mark.pos)};
    }
    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override
    {
        auto n = make(Node::Type::Scalar, mark, anchor);
        n->scalar = value;
        n->plain = tag == "?";
        place(std::move(n));
    }
    void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        open(make(Node::Type::List, mark, anchor));
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        open(make(Node::Type::Map, mark, anchor));
    }
    void OnMapEnd() override { close(); }

private:
    struct Open
    {
        Node *node;
        std::unique_ptr<Node> pendingKey; // a map's key waiting for its value
    };
    std::vector<Open> m_stack;
    std::vector<std::unique_ptr<Node>> m_owned; // open collections until placed
    qsizetype m_nodes = 0;

    std::unique_ptr<Node> make(Node::Type type, const YAML::Mark &mark, YAML::anchor_t anchor)
    {
        if (anchor != YAML::NullAnchor) {
            throw Refusal{QStringLiteral("a YAML anchor (&name) is not accepted here"),
                          qsizetype(mark.pos)};
        }
        if (++m_nodes > qsizetype(maxDescriptors) * 20) {
            throw Refusal{QStringLiteral("more than %1 YAML nodes").arg(maxDescriptors * 20),
                          qsizetype(mark.pos)};
        }
        auto n = std::make_unique<Node>();
        n->type = type;
        n->offset = qsizetype(mark.pos);
        return n;
    }
    void place(std::unique_ptr<Node> n)
    {
        if (m_stack.empty()) {
            root = std::move(n);
            return;
        }
        Open &top = m_stack.back();
        if (top.node->type == Node::Type::List) {
            top.node->list.push_back(std::move(n));
        } else if (!top.pendingKey) {
            top.pendingKey = std::move(n);
        } else {
            top.node->map.emplace_back(std::move(top.pendingKey), std::move(n));
        }
    }
    void open(std::unique_ptr<Node> n)
    {
        Node *raw = n.get();
        m_owned.push_back(std::move(n));
        m_stack.push_back(Open{raw, nullptr});
    }
    void close()
    {
        m_stack.pop_back();
        std::unique_ptr<Node> n = std::move(m_owned.back());
        m_owned.pop_back();
        place(std::move(n));
    }
};

const QSet<QString> &validKeys()
{
    // envoy ratelimit's own (it refuses any other), and Sluice's extensions.
    static const QSet<QString> keys{QStringLiteral("domain"),
                                    QStringLiteral("key"),
                                    QStringLiteral("value"),
                                    QStringLiteral("descriptors"),
                                    QStringLiteral("rate_limit"),
                                    QStringLiteral("unit"),
                                    QStringLiteral("requests_per_unit"),
                                    QStringLiteral("unlimited"),
                                    QStringLiteral("shadow_mode"),
                                    QStringLiteral("name"),
                                    QStringLiteral("replaces"),
                                    QStringLiteral("detailed_metric"),
                                    QStringLiteral("algorithm"),
                                    QStringLiteral("burst")};
    return keys;
}

bool isIdChar(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'A' && u <= u'Z') || (u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9') ||
           u == u'_' || u == u'-';
}

QString idPart(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        out += isIdChar(c) ? c : QLatin1Char('-');
    }
    return out;
}

struct Unit
{
    const char *name;
    qint64 us;
};
// RateLimitResponse.RateLimit.Unit of envoy's API, as envoy ratelimit's files spell them (any
// case). 0 microseconds: a calendar unit, which a fixed duration cannot express.
constexpr Unit units[] = {{"second", duration::usPerSecond},
                          {"minute", duration::usPerMinute},
                          {"hour", duration::usPerHour},
                          {"day", duration::usPerDay},
                          {"week", 7 * duration::usPerDay},
                          {"month", 0},
                          {"year", 0}};

class Reader
{
public:
    Reader(const QByteArray &bytes, const QString &file, Config &config)
        : m_bytes(bytes)
        , m_file(file)
        , m_config(config)
    {}

    void document(const Node &root)
    {
        if (root.type != Node::Type::Map) {
            error(root, QString(),
                  QStringLiteral("expected a map with domain and descriptors (an envoy "
                                 "ratelimit configuration file)"));
            return;
        }
        if (!checkKeys(root, QString())) {
            return;
        }
        const Node *domain = member(root, "domain");
        if (domain == nullptr || domain->type != Node::Type::Scalar || domain->scalar.empty()) {
            error(domain != nullptr ? *domain : root, QStringLiteral("domain"),
                  QStringLiteral("config file cannot have an empty domain; give the domain "
                                 "Envoy's rate limit filter sends"));
            return;
        }
        m_domain = QString::fromStdString(domain->scalar);
        if (m_config.domains.contains(m_domain)) {
            error(*domain, QStringLiteral("domain"),
                  QStringLiteral("duplicate domain '%1': it is in another file already (one "
                                 "file per domain)")
                      .arg(bytes::shortened(m_domain)));
            return;
        }
        m_config.domains << m_domain;
        if (const Node *d = member(root, "descriptors")) {
            descriptors(*d, QStringLiteral("descriptors"), {}, 1);
        }
    }

    // After every file: the cycles through replaces, by name, within each domain.
    static void checkReplaces(Config &config);

    // The lines and columns of what this file added (diagnostics, limits), in one pass over
    // the file: a position each, found on its own, made reading quadratic in the descriptors.
    void placeAll()
    {
        QList<qsizetype> offsets;
        offsets.reserve(m_places.size());
        for (const Place &p : m_places) {
            offsets << p.offset;
        }
        const QList<rules::TextPosition> found = rules::positionsAt(m_bytes, offsets);
        for (qsizetype i = 0; i < m_places.size(); ++i) {
            const Place &p = m_places[i];
            const rules::TextPosition pos = found[i];
            if (p.list == Place::List::Limits) {
                Limit &l = m_config.limits[size_t(p.index)];
                l.line = pos.line;
                l.column = pos.column;
                QStringList described = p.described;
                described.first() += QStringLiteral(":%1)").arg(pos.line);
                m_config.set.rules[size_t(p.index)].description =
                    described.join(QStringLiteral("; "));
                continue;
            }
            Diagnostic &d =
                p.list == Place::List::Errors ? m_config.errors[p.index] : m_config.notes[p.index];
            d.line = pos.line;
            d.column = pos.column;
        }
        m_places.clear();
    }

private:
    const QByteArray &m_bytes;
    QString m_file;
    Config &m_config;
    QString m_domain;
    struct Place
    {
        enum class List { Errors, Notes, Limits } list;
        qsizetype index;
        qsizetype offset;
        QStringList described = {}; // a limit's description, its line to add to the first
    };
    QList<Place> m_places; // filled in by placeAll()
    bool full() const { return m_config.errors.size() >= rules::maxErrors; }

    void add(Place::List list, const Node &n, const QString &path, const QString &message)
    {
        QList<Diagnostic> &to = list == Place::List::Errors ? m_config.errors : m_config.notes;
        if (to.size() >= rules::maxErrors) {
            ++(list == Place::List::Errors ? m_config.moreErrors : m_config.moreNotes);
            return;
        }
        m_places << Place{list, to.size(), n.offset};
        to << Diagnostic{m_file, 0, 0, path, message};
    }
    void error(const Node &n, const QString &path, const QString &message)
    {
        add(Place::List::Errors, n, path, message);
    }
    void note(const Node &n, const QString &path, const QString &message)
    {
        add(Place::List::Notes, n, path, message);
    }

    static const Node *keyOf(const Node &map, const char *name)
    {
        for (const auto &[k, v] : map.map) {
            if (k->type == Node::Type::Scalar && k->scalar == name) {
                return k.get();
            }
        }
        return nullptr;
    }

    static const Node *member(const Node &map, const char *name)
    {
        for (const auto &[k, v] : map.map) {
            if (k->type == Node::Type::Scalar && k->scalar == name) {
                return v.get();
            }
        }
        return nullptr;
    }

    // Unknown and repeated keys, as envoy ratelimit refuses them.
    bool checkKeys(const Node &map, const QString &path)
    {
        QSet<QString> seen;
        bool ok = true;
        for (const auto &[k, v] : map.map) {
            const QString name =
                k->type == Node::Type::Scalar ? QString::fromStdString(k->scalar) : QString();
            if (!validKeys().contains(name)) {
                error(*k, path,
                      QStringLiteral("unknown key '%1' (envoy ratelimit knows domain, "
                                     "descriptors, key, value, rate_limit, unit, "
                                     "requests_per_unit, unlimited, name, replaces, shadow_mode, "
                                     "detailed_metric; Sluice adds algorithm and burst)")
                          .arg(bytes::shortened(name)));
                ok = false;
            } else if (seen.contains(name)) {
                error(*k, path, QStringLiteral("'%1' is given twice").arg(bytes::shortened(name)));
                ok = false;
            }
            seen.insert(name);
        }
        return ok;
    }

    std::optional<bool> flag(const Node &map, const char *name, const QString &path)
    {
        const Node *n = member(map, name);
        if (n == nullptr) {
            return false;
        }
        if (n->type == Node::Type::Scalar && n->plain) {
            const QString s = QString::fromStdString(n->scalar).toLower();
            if (s == QLatin1String("true")) {
                return true;
            }
            if (s == QLatin1String("false")) {
                return false;
            }
        }
        error(*n, path + QLatin1Char('.') + QLatin1String(name),
              QStringLiteral("expected true or false"));
        return std::nullopt;
    }

    std::optional<qint64> integer(const Node &n, const QString &path, qint64 max)
    {
        bool ok = n.type == Node::Type::Scalar && n.plain;
        const qint64 v = ok ? QByteArray::fromStdString(n.scalar).toLongLong(&ok) : 0;
        if (!ok || v < 0 || v > max) {
            error(n, path,
                  QStringLiteral("'%1' is not a whole number from 0 to %2")
                      .arg(bytes::shortened(QString::fromStdString(n.scalar)))
                      .arg(max));
            return std::nullopt;
        }
        return v;
    }

    void descriptors(const Node &list, const QString &path,
                     const QList<QPair<QString, QString>> &parent, int depth)
    {
        if (list.type == Node::Type::Null) {
            return;
        }
        if (list.type != Node::Type::List) {
            error(list, path, QStringLiteral("expected a list of descriptors"));
            return;
        }
        if (depth > maxDepth) {
            error(list, path, QStringLiteral("descriptors nested more than %1 deep").arg(maxDepth));
            return;
        }
        QHash<QString, qsizetype> seen; // composite key -> its offset
        for (size_t i = 0; i < list.list.size(); ++i) {
            const Node &d = *list.list[i];
            const QString dpath = QStringLiteral("%1[%2]").arg(path).arg(i);
            if (d.type != Node::Type::Map) {
                error(d, dpath, QStringLiteral("expected a descriptor (a map with key)"));
                continue;
            }
            if (++m_descriptors > maxDescriptors) {
                error(d, dpath, QStringLiteral("more than %1 descriptors").arg(maxDescriptors));
                return;
            }
            if (!checkKeys(d, dpath)) {
                continue;
            }
            const Node *key = member(d, "key");
            if (key == nullptr || key->type != Node::Type::Scalar || key->scalar.empty()) {
                error(key != nullptr ? *key : d, dpath + QStringLiteral(".key"),
                      QStringLiteral("descriptor has an empty key"));
                continue;
            }
            const Node *value = member(d, "value");
            if (value != nullptr && value->type != Node::Type::Scalar &&
                value->type != Node::Type::Null) {
                error(*value, dpath + QStringLiteral(".value"), QStringLiteral("expected a text"));
                continue;
            }
            const QString k = QString::fromStdString(key->scalar);
            const QString v = value != nullptr ? QString::fromStdString(value->scalar) : QString();
            const QString composite = v.isEmpty() ? k : k + QLatin1Char('_') + v;
            if (const auto it = seen.constFind(composite); it != seen.constEnd()) {
                if (full()) {
                    ++m_config.moreErrors;
                    continue;
                }
                const rules::TextPosition first = rules::positionAt(m_bytes, *it);
                error(d, dpath,
                      QStringLiteral("duplicate descriptor composite key '%1' (first at line %2, "
                                     "column %3)")
                          .arg(bytes::shortened(m_domain + QLatin1Char('.') + composite))
                          .arg(first.line)
                          .arg(first.column));
                continue;
            }
            seen.insert(composite, d.offset);
            QList<QPair<QString, QString>> here = parent;
            here.append({k, v});
            const bool wildcard = v.endsWith(QLatin1Char('*'));
            if (wildcard) {
                note(*value, dpath + QStringLiteral(".value"),
                     QStringLiteral("the wildcard value '%1' (a prefix match) cannot be "
                                    "expressed: Sluice matches descriptor values exactly; this "
                                    "descriptor and those under it are left out")
                         .arg(bytes::shortened(v)));
                continue;
            }
            if (const Node *rl = member(d, "rate_limit")) {
                rateLimit(d, *rl, dpath, here);
            } else {
                for (const char *onlyWithLimit : {"shadow_mode", "detailed_metric"}) {
                    if (member(d, onlyWithLimit) != nullptr) {
                        flag(d, onlyWithLimit, dpath);
                    }
                }
            }
            if (const Node *sub = member(d, "descriptors")) {
                descriptors(*sub, dpath + QStringLiteral(".descriptors"), here, depth + 1);
            }
        }
    }

    // One rate_limit: read, checked as envoy ratelimit checks it, noted where Sluice cannot
    // say it, and added as a rule.
    void rateLimit(const Node &d, const Node &rl, const QString &dpath,
                   const QList<QPair<QString, QString>> &path)
    {
        const QString rpath = dpath + QStringLiteral(".rate_limit");
        if (rl.type != Node::Type::Map) {
            error(rl, rpath, QStringLiteral("expected a map with unit and requests_per_unit"));
            return;
        }
        if (!checkKeys(rl, rpath)) {
            return;
        }
        const auto unlimited = flag(rl, "unlimited", rpath);
        const auto shadow = flag(d, "shadow_mode", dpath);
        const auto detailed = flag(d, "detailed_metric", dpath);
        if (!unlimited || !shadow || !detailed) {
            return;
        }
        Limit limit;
        limit.domain = m_domain;
        limit.path = path;
        limit.unlimited = *unlimited;
        limit.file = m_file;
        if (const Node *name = member(rl, "name")) {
            limit.name = QString::fromStdString(name->scalar);
        }
        if (!readReplaces(rl, rpath, limit)) {
            return;
        }
        const auto params = readParameters(rl, rpath, limit.unlimited);
        if (!params || !expressible(d, rl, dpath, rpath, limit, *params, *detailed)) {
            return;
        }
        Rule rule = ruleFor(path, limit.unlimited, *params);
        rule.shadow = *shadow;
        addLimit(d, rl, rpath, std::move(rule), std::move(limit));
    }

    // rate_limit.replaces: a list of {name: ...}, none empty, none the limit's own name.
    bool readReplaces(const Node &rl, const QString &rpath, Limit &limit)
    {
        const Node *replaces = member(rl, "replaces");
        if (replaces == nullptr) {
            return true;
        }
        if (replaces->type != Node::Type::List) {
            error(*replaces, rpath + QStringLiteral(".replaces"),
                  QStringLiteral("expected a list of {name: ...}"));
            return false;
        }
        for (size_t i = 0; i < replaces->list.size(); ++i) {
            const Node &r = *replaces->list[i];
            const QString p = QStringLiteral("%1.replaces[%2]").arg(rpath).arg(i);
            const Node *n = r.type == Node::Type::Map ? member(r, "name") : nullptr;
            if (r.type == Node::Type::Map && !checkKeys(r, p)) {
                return false;
            }
            if (n == nullptr || n->type != Node::Type::Scalar || n->scalar.empty()) {
                error(r, p, QStringLiteral("should not have an empty replaces entry"));
                return false;
            }
            const QString target = QString::fromStdString(n->scalar);
            if (target == limit.name) {
                error(*n, p + QStringLiteral(".name"),
                      QStringLiteral("replaces should not contain the name of the same "
                                     "descriptor ('%1')")
                          .arg(bytes::shortened(target)));
                return false;
            }
            limit.replaces << target;
        }
        return true;
    }

    // What a rate_limit says of its rate: the unit, requests_per_unit, and Sluice's extensions
    // algorithm and burst.
    struct Parameters
    {
        const Node *unitNode = nullptr;
        QString unitName;
        const Unit *unit = nullptr; // null: unlimited
        qint64 perUnit = 0;
        Algorithm algorithm = Algorithm::FixedWindow;
        qint64 burst = 0;
    };

    std::optional<Parameters> readParameters(const Node &rl, const QString &rpath, bool unlimited)
    {
        Parameters p;
        p.unitNode = member(rl, "unit");
        p.unitName = p.unitNode != nullptr ? QString::fromStdString(p.unitNode->scalar).toLower()
                                           : QString();
        for (const Unit &u : units) {
            p.unit = p.unitName == QLatin1String(u.name) ? &u : p.unit;
        }
        if (unlimited) {
            if (p.unit != nullptr) {
                error(*p.unitNode, rpath + QStringLiteral(".unit"),
                      QStringLiteral("should not specify a rate limit unit when unlimited"));
                return std::nullopt;
            }
        } else if (p.unit == nullptr) {
            error(p.unitNode != nullptr ? *p.unitNode : rl, rpath + QStringLiteral(".unit"),
                  QStringLiteral("invalid rate limit unit '%1'; expected second, minute, hour, "
                                 "day, week, month or year")
                      .arg(bytes::shortened(p.unitName)));
            return std::nullopt;
        }
        if (const Node *n = member(rl, "requests_per_unit")) {
            const auto v = integer(*n, rpath + QStringLiteral(".requests_per_unit"), 4294967295);
            if (!v) {
                return std::nullopt;
            }
            p.perUnit = *v;
        }
        if (const Node *a = member(rl, "algorithm")) {
            const auto found = algorithm::fromName(QString::fromStdString(a->scalar));
            if (!found) {
                error(*a, rpath + QStringLiteral(".algorithm"),
                      QStringLiteral("unknown algorithm '%1'; expected fixed_window, "
                                     "sliding_log, sliding_counter, token_bucket, leaky_bucket "
                                     "or gcra")
                          .arg(bytes::shortened(QString::fromStdString(a->scalar))));
                return std::nullopt;
            }
            p.algorithm = *found;
        }
        p.burst = p.perUnit;
        if (const Node *b = member(rl, "burst")) {
            if (algorithm::isWindow(p.algorithm)) {
                error(*b, rpath + QStringLiteral(".burst"),
                      QStringLiteral("burst applies to token_bucket, leaky_bucket and gcra, not "
                                     "to %1")
                          .arg(algorithm::name(p.algorithm)));
                return std::nullopt;
            }
            const auto v = integer(*b, rpath + QStringLiteral(".burst"), 4294967295);
            if (!v) {
                return std::nullopt;
            }
            p.burst = *v;
        }
        return p;
    }

    // Notes what Sluice cannot say: detailed_metric and replaces (imported without them), a
    // calendar unit and requests_per_unit 0 (the rate_limit left out: false).
    bool expressible(const Node &d, const Node &rl, const QString &dpath, const QString &rpath,
                     const Limit &limit, const Parameters &p, bool detailed)
    {
        if (detailed) {
            note(*member(d, "detailed_metric"), dpath + QStringLiteral(".detailed_metric"),
                 QStringLiteral("detailed_metric cannot be expressed: Sluice's metrics never "
                                "carry a descriptor value (their series are bounded by the "
                                "rules); the rule counts under its descriptor path"));
        }
        if (!limit.replaces.isEmpty()) {
            note(*member(rl, "replaces"), rpath + QStringLiteral(".replaces"),
                 QStringLiteral("replaces cannot be expressed in a Sluice rule (each rule "
                                "decides on its own); imported without it"));
        }
        if (!limit.unlimited && p.unit->us == 0) {
            note(*p.unitNode, rpath + QStringLiteral(".unit"),
                 QStringLiteral("the calendar unit '%1' cannot be expressed (Sluice's windows "
                                "are fixed durations); this rate_limit is left out")
                     .arg(bytes::shortened(p.unitName)));
            return false;
        }
        if (!limit.unlimited && p.perUnit == 0) {
            const Node *n = member(rl, "requests_per_unit");
            note(n != nullptr ? *n : rl, rpath + QStringLiteral(".requests_per_unit"),
                 QStringLiteral("requests_per_unit 0 (every request over the limit) cannot be "
                                "expressed: a Sluice limit is at least 1; this rate_limit is "
                                "left out"));
            return false;
        }
        return true;
    }

    Rule ruleFor(const QList<QPair<QString, QString>> &path, bool unlimited, const Parameters &p)
    {
        Rule rule;
        const QString id = ruleIdOf(m_domain, path);
        if (unlimited) {
            // Not limited: a disabled rule answers "not limited" and never touches Redis.
            rule = Rule::window(id, Algorithm::FixedWindow, 1, duration::usPerSecond);
            rule.enabled = false;
        } else if (algorithm::isWindow(p.algorithm)) {
            rule = Rule::window(id, p.algorithm, p.perUnit, p.unit->us);
        } else {
            rule = Rule::bucket(id, p.algorithm, Rate{p.perUnit, p.unit->us}, p.burst);
        }
        rule.scope = scopeOf(path);
        return rule;
    }

    // The rule and its limit into the configuration, unless another descriptor has its id.
    void addLimit(const Node &d, const Node &rl, const QString &rpath, Rule rule, Limit limit)
    {
        // Its place, the rate_limit key's, is found by placeAll().
        const qsizetype place = keyOf(d, "rate_limit")->offset;
        QStringList described;
        described << QStringLiteral("envoy ratelimit %1 (%2")
                         .arg(descriptorText(m_domain, limit.path), QFileInfo(m_file).fileName());
        if (!limit.name.isEmpty()) {
            described << QStringLiteral("name %1").arg(limit.name);
        }
        if (limit.unlimited) {
            described << QStringLiteral("unlimited");
        }
        const QString &id = rule.id;
        if (const auto it = m_config.ruleIndex.constFind(id); it != m_config.ruleIndex.cend()) {
            if (full()) {
                ++m_config.moreErrors;
                return;
            }
            const Limit &other = m_config.limits[*it];
            const bool here = other.line == 0; // this file's: placed when it is read
            const rules::TextPosition at =
                here ? rules::positionAt(m_bytes, m_limitOffsets.value(*it))
                     : rules::TextPosition{other.line, other.column};
            error(rl, rpath,
                  QStringLiteral("the rule id '%1' of this descriptor is also that of the "
                                 "descriptor at %2:%3:%4 (characters a rule id cannot hold "
                                 "are written '-')")
                      .arg(bytes::shortened(id), other.file)
                      .arg(at.line)
                      .arg(at.column));
            return;
        }
        m_config.ruleIndex.insert(id, m_config.limits.size());
        m_limitOffsets.insert(m_config.limits.size(), place);
        m_places << Place{Place::List::Limits, qsizetype(m_config.limits.size()), place, described};
        m_config.set.rules.push_back(std::move(rule));
        m_config.limits.push_back(std::move(limit));
    }

    static QString descriptorText(const QString &domain, const QList<QPair<QString, QString>> &path)
    {
        QStringList parts{domain};
        for (const auto &[k, v] : path) {
            parts << (v.isEmpty() ? k : k + QLatin1Char('=') + v);
        }
        return parts.join(QLatin1Char(' '));
    }

    // Informational (the subject is what the caller sends): remote_address is the client's IP.
    static Scope scopeOf(const QList<QPair<QString, QString>> &path)
    {
        for (const auto &[k, v] : path) {
            if (v.isEmpty() && k == QLatin1String("remote_address")) {
                return Scope{Scope::Kind::Ip, {}};
            }
        }
        return Scope{};
    }

    int m_descriptors = 0;
    QHash<size_t, qsizetype> m_limitOffsets; // this file's limits: index -> rate_limit offset
};

void Reader::checkReplaces(Config &config)
{
    // name -> the limits of that name, per domain; a cycle is a path of replaces back to its
    // start.
    for (const QString &domain : config.domains) {
        QHash<QString, QList<size_t>> byName;
        for (size_t i = 0; i < config.limits.size(); ++i) {
            const Limit &l = config.limits[i];
            if (l.domain == domain && !l.name.isEmpty()) {
                byName[l.name].append(i);
            }
        }
        // Depth-first over the names: 0 unseen, 1 on the stack, 2 done.
        QHash<QString, int> state;
        QStringList stack;
        std::function<bool(const QString &)> visit = [&](const QString &name) -> bool {
            state[name] = 1;
            stack << name;
            for (const size_t i : byName.value(name)) {
                for (const QString &target : config.limits[i].replaces) {
                    if (state.value(target) == 1) {
                        const Limit &l = config.limits[i];
                        QStringList cycle = stack.mid(stack.indexOf(target));
                        cycle << target;
                        config.errors << Diagnostic{
                            l.file, l.line, l.column, QStringLiteral("rate_limit.replaces"),
                            QStringLiteral("a cycle through replaces: %1 (each replaces the "
                                           "next; none would apply)")
                                .arg(cycle.join(QStringLiteral(" -> ")))};
                        return false;
                    }
                    if (state.value(target) == 0 && byName.contains(target) && !visit(target)) {
                        return false;
                    }
                }
            }
            stack.removeLast();
            state[name] = 2;
            return true;
        };
        // From the names in the order of the files: the same cycle is named the same way.
        for (const Limit &l : config.limits) {
            if (l.domain == domain && !l.name.isEmpty() && state.value(l.name) == 0 &&
                !visit(l.name)) {
                break;
            }
        }
    }
}

} // namespace

QString ruleIdPart(const QString &key, const QString &value)
{
    return idPart(value.isEmpty() ? key : key + QLatin1Char('_') + value);
}

qsizetype followEnvoyCounting(RuleSet &set, bool stopIncrement)
{
    qsizetype cannot = 0;
    for (Rule &r : set.rules) {
        r.countRejected = !stopIncrement && algorithm::countsRejected(r.algorithm);
        cannot += !stopIncrement && !r.countRejected ? 1 : 0;
    }
    return cannot;
}

void appendIdPart(std::string &out, std::string_view text)
{
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '-') {
            out += ch;
        } else if (c < 0x80 || (c >= 0xc0 && c < 0xf0)) {
            out += '-'; // ASCII, or the lead byte of a 2- or 3-byte character
        } else if (c >= 0xf0) {
            out += "--"; // a 4-byte character: a surrogate pair in UTF-16
        }                // (continuation bytes: nothing)
    }
}

QString ruleIdOf(const QString &domain, const QList<QPair<QString, QString>> &path)
{
    QStringList parts{idPart(domain)};
    for (const auto &[k, v] : path) {
        parts << idPart(v.isEmpty() ? k : k + QLatin1Char('_') + v);
    }
    return parts.join(QLatin1Char('.'));
}

void parse(const QByteArray &yaml, const QString &file, Config &config)
{
    config.files << file;
    auto fail = [&](const QString &message, qsizetype offset) {
        const rules::TextPosition p =
            offset >= 0 ? rules::positionAt(yaml, offset) : rules::TextPosition{};
        config.errors << Diagnostic{file, p.line, p.column, QString(), message};
    };
    // UTF-8 text (yaml-cpp reads bytes as they come).
    for (qsizetype p = 0; p < yaml.size();) {
        const auto c = uchar(yaml[p]);
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
                fail(QStringLiteral("the control character U+%1 is not allowed in a YAML file")
                         .arg(QString::number(c, 16).toUpper().rightJustified(4, QLatin1Char('0'))),
                     p);
                return;
            }
            ++p;
            continue;
        }
        const int len = rules::utf8SequenceLength(yaml.constData() + p, yaml.size() - p);
        if (len == 0) {
            fail(QStringLiteral("invalid UTF-8 (byte 0x%1): the file must be UTF-8 text")
                     .arg(QString::number(c, 16).toUpper()),
                 p);
            return;
        }
        p += len;
    }
    TreeReader tree;
    std::optional<qsizetype> second; // where a second document starts
    try {
        internal::BytesBuf buffer(yaml);
        std::istream in(&buffer);
        YAML::Parser parser(in);
        if (!parser.HandleNextDocument(tree)) {
            fail(QStringLiteral("the file holds no YAML document; expected domain and "
                                "descriptors"),
                 -1);
            return;
        }
        try {
            internal::IgnoreEvents next(true); // stops at the start of a document
            parser.HandleNextDocument(next);
        } catch (const internal::SecondDocument &d) {
            second = d.offset;
        }
    } catch (const Refusal &r) {
        fail(r.message, r.offset);
        return;
    } catch (const YAML::Exception &e) {
        fail(QStringLiteral("YAML syntax error: %1").arg(QString::fromStdString(e.msg)),
             e.mark.is_null() ? -1 : qsizetype(e.mark.pos));
        return;
    } catch (const std::exception &e) {
        fail(QStringLiteral("the YAML parser failed: %1").arg(QString::fromLocal8Bit(e.what())),
             -1);
        return;
    }
    if (!tree.root) {
        fail(QStringLiteral("the file holds no YAML document; expected domain and descriptors"),
             -1);
        return;
    }
    Reader reader(yaml, file, config);
    reader.document(*tree.root);
    reader.placeAll();
    if (second) {
        // envoy ratelimit reads the first document of a file and ignores the rest, unsaid.
        const rules::TextPosition p = rules::positionAt(yaml, *second);
        config.notes << Diagnostic{file, p.line, p.column, QString(),
                                   QStringLiteral("a second YAML document (after ---) is "
                                                  "ignored, as envoy ratelimit ignores it: one "
                                                  "document per file; put another domain in a "
                                                  "file of its own")};
    }
}

namespace {

// The first rules::maxErrors of `list`, then "... and N more" for the rest and `more`.
void cap(QList<Diagnostic> &list, qsizetype more, const QString &what)
{
    more += std::max<qsizetype>(list.size() - rules::maxErrors, 0);
    if (more == 0) {
        return;
    }
    if (list.size() > rules::maxErrors) {
        list.resize(rules::maxErrors);
    }
    list << Diagnostic{QString(), 0, 0, QString(),
                       QStringLiteral("... and %1 more %2; the first %3 are shown")
                           .arg(more)
                           .arg(what)
                           .arg(rules::maxErrors)};
}

} // namespace

Config load(const QString &fileOrDirectory)
{
    Config config;
    QStringList files;
    const QFileInfo info(fileOrDirectory);
    if (info.isDir()) {
        const QDir dir(fileOrDirectory);
        for (const QString &name :
             dir.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")},
                           QDir::Files | QDir::Readable, QDir::Name)) {
            files << dir.filePath(name);
        }
        if (files.isEmpty()) {
            config.errors << Diagnostic{fileOrDirectory, 0, 0, QString(),
                                        QStringLiteral("the directory holds no .yaml or .yml "
                                                       "file")};
            return config;
        }
    } else {
        files << fileOrDirectory;
    }
    for (const QString &path : files) {
        auto bytes = sluice::files::readRegular(path, maxFileBytes);
        if (!bytes) {
            config.errors << Diagnostic{path, 0, 0, QString(), bytes.error().message};
            continue;
        }
        parse(*bytes, path, config);
    }
    if (config.ok()) {
        Reader::checkReplaces(config);
    }
    auto byPlace = [](const Diagnostic &a, const Diagnostic &b) {
        return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
    };
    std::stable_sort(config.errors.begin(), config.errors.end(), byPlace);
    std::stable_sort(config.notes.begin(), config.notes.end(), byPlace);
    if (config.ok()) {
        // What a rule needs besides (the id's length, the parameters' bounds), at the place of
        // its rate_limit.
        for (Diagnostic d : rules::validate(config.set)) {
            static const QRegularExpression index(QStringLiteral("^rules\\[(\\d+)\\]"));
            const auto m = index.match(d.path);
            if (m.hasMatch()) {
                const Limit &l = config.limits[m.captured(1).toULongLong()];
                d.file = l.file;
                d.line = l.line;
                d.column = l.column;
                d.path = QStringLiteral("rate_limit (rule %1)")
                             .arg(config.set.rules[m.captured(1).toULongLong()].id);
            }
            config.errors << d;
        }
    }
    cap(config.errors, config.moreErrors, QStringLiteral("error(s)"));
    cap(config.notes, config.moreNotes, QStringLiteral("note(s)"));
    config.moreErrors = 0; // said in the last error; ok() stays false through it
    config.moreNotes = 0;
    return config;
}

} // namespace sluice::rules::envoy
