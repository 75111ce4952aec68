// The replay's set-up (files, parsers, rules, scopes) and its loop over the files (engine.h).
#include "engine.h"

#include "core/common/bytes.h"
#include "core/rules/rulestore.h"

#include <QFile>

#include <system_error>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {

// A --trust-proxies network: an address alone is its own /32 or /128, host bits are allowed.
std::optional<net::Network> parseTrusted(const QString &text)
{
    const QByteArray t = text.trimmed().toLatin1();
    const qsizetype slash = t.indexOf('/');
    const QByteArray addr = slash < 0 ? t : t.left(slash);
    unsigned char a[16];
    const int size = net::parseAddress(View(addr.constData(), size_t(addr.size())), a);
    if (size == 0) {
        return std::nullopt;
    }
    int bits = size * 8;
    if (slash >= 0) {
        bool ok = false;
        const int maxBits = bits;
        bits = t.mid(slash + 1).toInt(&ok);
        if (!ok || bits < 0 || bits > maxBits) {
            return std::nullopt;
        }
    }
    return net::Network{net::masked(QByteArray(reinterpret_cast<const char *>(a), size), bits),
                        bits};
}

} // namespace

QString sampleOf(View line)
{
    return bytes::printable(QByteArray(line.data(), qsizetype(std::min<size_t>(line.size(), 200))));
}

QString seconds(qint64 us)
{
    return QString::number(double(us) / 1e6, 'f', 3) + u" s"_s;
}

int Engine::scopeIndex(const Scope &s)
{
    const QString label = s.toString();
    for (size_t i = 0; i < m_scopes.size(); ++i) {
        if (m_scopes[i]->label == label) {
            return int(i);
        }
    }
    auto d = std::make_unique<ScopeDef>();
    d->kind = s.kind;
    d->name = s.name;
    d->label = label;
    d->param = s.name.toStdString();
    m_scopes.push_back(std::move(d));
    return int(m_scopes.size() - 1);
}

// What the logs lack for the rule: its route's method and path, its scope's subject.
QStringList Engine::logGaps(const Rule &rule, const std::optional<Route> &route) const
{
    QStringList why;
    for (const FilePlan &fp : m_files) {
        const LineParser &p = fp.parser;
        const QString where = u"the %1 log %2"_s.arg(p.name(), fp.reader->path());
        if (route && !route->all &&
            (!p.has(SlotPath) || (!route->method.empty() && !p.has(SlotMethod)))) {
            why << u"route %1: %2 has no request method and path"_s.arg(rule.route, where);
        }
        switch (rule.scope.kind) {
        case Scope::Kind::Global:
            break;
        case Scope::Kind::Ip:
            if (!p.has(SlotAddr) && !p.has(SlotXff)) {
                why << u"scope ip: %1 has neither the client address nor "
                       "X-Forwarded-For"_s.arg(where);
            }
            break;
        case Scope::Kind::User:
            if (!p.has(SlotUser)) {
                why << u"scope user: %1 does not log the user"_s.arg(where);
            }
            break;
        case Scope::Kind::Header:
            if (p.headerSlot(rule.scope.name) < 0) {
                const QStringList logged = p.loggedHeaders();
                why << u"scope header:%1: %2 does not log that header (%3)"_s.arg(
                    rule.scope.name, where,
                    logged.isEmpty() ? u"it logs no header"_s
                                     : u"it logs "_s + logged.join(u", "_s));
            }
            break;
        case Scope::Kind::Param:
            if (!p.has(SlotPath)) {
                why << u"scope param:%1: %2 has no request path"_s.arg(rule.scope.name, where);
            }
            break;
        }
    }
    return why;
}

void Engine::addRules(const RuleSet &set, const QString &setName, std::vector<RuleReport> &out)
{
    // A staged change's candidates decide beside the rules, in shadow, as a check service
    // reading the store decides them (RuleSet::staged).
    std::vector<Rule> all = set.rules;
    std::vector<QString> stagedOf(all.size());
    for (const Rule &c : set.staged) {
        const QString of = rules::RuleStore::stagedOf(c.id);
        if (!of.isEmpty()) {
            all.push_back(c);
            all.back().shadow = true;
            stagedOf.push_back(of);
        }
    }
    out.reserve(all.size());
    for (size_t i = 0; i < all.size(); ++i) {
        const Rule &rule = all[i];
        RuleReport rep;
        rep.id = rule.id;
        rep.set = setName;
        rep.stagedOf = stagedOf[i];
        rep.overrides = qint64(rule.overrides.size());
        rep.disabled = !rule.enabled;
        rep.description = rule.describe();
        rep.route = rule.route;
        rep.scope = rule.scope.toString();
        rep.shadow = rule.shadow;
        const Policy policy = rule.policy();
        rep.limit = policy.capacity();
        if (algorithm::isWindow(rule.algorithm)) {
            rep.windowUs = rule.windowUs;
        } else {
            // The time the bucket takes to refill its capacity: its window.
            const qint64 count = std::max<qint64>(1, rule.rate.count);
            rep.windowUs = std::max<qint64>(1000, rep.limit * rule.rate.periodUs / count);
        }
        QStringList why;
        if (!rule.enabled) {
            why << u"disabled (\"enabled\": false)"_s;
        }
        const auto route = parseRoute(rule.route);
        if (!route) {
            why << u"route '%1' is not \"[METHOD] /path\""_s.arg(rule.route);
        }
        why << logGaps(rule, route);
        if (!why.isEmpty()) {
            rep.skipped = true;
            why.removeDuplicates();
            rep.skipReason = why.join(u"; "_s);
            out.push_back(rep);
            continue;
        }
        out.push_back(rep);
        RuleRun run;
        run.policy = policy;
        run.algorithm = policy.algorithm;
        run.policy.keyPrefix = m_o.keyPrefix;
        run.scope = scopeIndex(rule.scope);
        run.route = *route;
        run.shadow = rule.shadow;
        run.global = rule.scope.kind == Scope::Kind::Global;
        run.windowUs = rep.windowUs;
        run.stepUs = std::max<qint64>(1, rep.windowUs / kSteps);
        m_runs.push_back(std::move(run));
    }
}

Result<void> Engine::openFiles()
{
    if (m_o.files.isEmpty()) {
        return Error::make(Error::Kind::Invalid, u"no log file given"_s);
    }
    std::optional<LineParser> given;
    if (m_o.format == Format::NginxCustom || !m_o.logFormat.isEmpty()) {
        auto p = LineParser::nginx(m_o.logFormat);
        if (!p) {
            return p.error();
        }
        given = *p;
    } else if (m_o.format == Format::Json) {
        auto p = LineParser::json(m_o.fields);
        if (!p) {
            return p.error();
        }
        given = *p;
    } else if (m_o.format != Format::Auto) {
        auto p = LineParser::fixed(m_o.format);
        if (!p) {
            return p.error();
        }
        given = *p;
    }
    qint64 nonEmptyTotal = 0;
    for (const QString &path : m_o.files) {
        auto reader = LogReader::open(path, m_o.cancel);
        if (!reader) {
            return reader.error();
        }
        if ((*reader)->cancelled()) {
            m_rep.cancelled = true;
            return {};
        }
        FilePlan fp;
        if (given) {
            fp.parser = *given;
        } else {
            // Detection reads the first lines without consuming them (a pipe is read once).
            const std::vector<QByteArray> first = (*reader)->peekLines(20);
            if ((*reader)->cancelled()) {
                m_rep.cancelled = true;
                return {};
            }
            if (first.empty()) {
                fp.parser = *LineParser::fixed(Format::NginxCombined); // empty: nothing to parse
            } else {
                auto f = detect(first);
                if (!f) {
                    return Error::make(Error::Kind::Invalid, path + u": "_s + f.error().message);
                }
                fp.parser =
                    *(*f == Format::Json ? LineParser::json(m_o.fields) : LineParser::fixed(*f));
            }
        }
        m_totalBytes += (*reader)->size();
        fp.reader = std::move(*reader);
        m_rep.files << path;
        m_rep.formats << fp.parser.name();
        m_files.push_back(std::move(fp));
        (void)nonEmptyTotal;
    }
    if ((m_o.trustProxies > 0 || !m_o.trustedCidrs.isEmpty())) {
        for (const FilePlan &fp : m_files) {
            if (!fp.parser.has(SlotXff)) {
                return Error::make(
                    Error::Kind::Invalid,
                    u"--trust-proxies: the %1 log %2 has no X-Forwarded-For "
                    "(with nginx: add \"$http_x_forwarded_for\" to --log-format)"_s.arg(
                        fp.parser.name(), fp.reader->path()));
            }
        }
    }
    for (const QString &c : m_o.trustedCidrs) {
        const auto net = parseTrusted(c);
        if (!net) {
            return Error::make(Error::Kind::Invalid,
                               u"--trust-proxies: '%1' is not a network (expected e.g. "
                               "10.0.0.0/8 or fd00::/8)"_s.arg(c));
        }
        m_cidrs.push_back(*net);
    }
    return {};
}

Result<void> Engine::setUp()
{
    m_wall.start();
    m_rep.reorderWindowUs = m_o.reorderWindowUs;
    m_rep.keyPrefix = m_o.keyPrefix;
    if (m_o.reorderWindowUs < 0 || m_o.reorderWindowUs > 3'600'000'000LL) {
        return Error::make(Error::Kind::Invalid, u"--reorder-window: expected 0 to 1h"_s);
    }
    if (auto ok = openFiles(); !ok) {
        return ok.error();
    }
    if (m_rep.cancelled) {
        return {}; // while waiting for a file's first bytes: nothing to replay
    }
    addRules(m_o.rules, u"rules"_s, m_rep.rules);
    if (m_o.against) {
        addRules(*m_o.against, u"against"_s, m_rep.against);
    }
    if (m_runs.size() > size_t(maxRules)) {
        return Error::make(Error::Kind::Invalid,
                           u"%1 rules to replay: at most %2 per run (--rules and --against "
                           "together); split the rule file"_s.arg(m_runs.size())
                               .arg(maxRules));
    }
    if (m_runs.empty()) {
        QStringList why;
        for (const auto *list : {&m_rep.rules, &m_rep.against}) {
            for (const RuleReport &r : *list) {
                why << r.id + u": "_s + r.skipReason;
            }
        }
        return Error::make(Error::Kind::Invalid,
                           why.isEmpty()
                               ? u"the rule file has no rule"_s
                               : u"no rule can be replayed on this log: "_s + why.join(u"; "_s));
    }
    // Rule reports point into m_rep's vectors, which no longer grow.
    size_t k = 0;
    for (auto *list : {&m_rep.rules, &m_rep.against}) {
        for (RuleReport &r : *list) {
            if (!r.skipped) {
                m_runs[k++].rep = &r;
            }
        }
    }
    for (FilePlan &fp : m_files) {
        for (const auto &s : m_scopes) {
            fp.headerSlot.push_back(s->kind == Scope::Kind::Header ? fp.parser.headerSlot(s->name)
                                                                   : -1);
        }
        for (RuleRun &run : m_runs) {
            run.rep->hasStatus = run.rep->hasStatus || fp.parser.has(SlotStatus);
        }
    }
    m_lineSubjects.resize(m_scopes.size());
    m_maxSubjects = m_o.maxSubjects > 0 ? size_t(m_o.maxSubjects) : defaultMaxSubjects();
    m_rep.maxSubjects = qint64(m_maxSubjects);
    // Each file's parser reads the fields the replayed rules need, and no further.
    for (FilePlan &fp : m_files) {
        std::vector<int> need = {SlotStatus, SlotMethod, SlotPath, SlotRequest};
        for (const RuleRun &run : m_runs) {
            switch (m_scopes[size_t(run.scope)]->kind) {
            case Scope::Kind::Ip:
                need.push_back(SlotAddr);
                need.push_back(SlotXff); // the proxies, or a line without the address
                break;
            case Scope::Kind::User:
                need.push_back(SlotUser);
                break;
            case Scope::Kind::Header:
                need.push_back(fp.headerSlot[size_t(run.scope)]);
                break;
            case Scope::Kind::Global:
            case Scope::Kind::Param:
                break;
            }
        }
        fp.parser.readOnly(need);
        fp.record = std::make_unique<Record>();
        fp.record->scratch.reserve(LogReader::maxLineBytes + 16);
    }
    m_pending.reserve(16384);
    m_subj.reserve(16384 * m_scopes.size());
    return {};
}

Result<void> Engine::periodic()
{
    m_sinceCheck = 0;
    if (m_o.progress) {
        qint64 bytes = 0;
        for (const FilePlan &fp : m_files) {
            bytes += fp.reader->offset();
        }
        m_o.progress(Progress{m_rep.lines, bytes, m_totalBytes, m_currentFile});
    }
    if (m_o.wallLimitMs > 0 && m_wall.elapsed() >= m_o.wallLimitMs) {
        return Error::make(
            Error::Kind::Timeout,
            u"the replay has taken %1 of wall-clock time, close to the TTL floor of "
            "its keys (min_ttl_ms %2): state written early could expire before "
            "the run ends; replay a shorter log"_s.arg(seconds(m_wall.nsecsElapsed() / 1000))
                .arg(m_o.minTtlMs));
    }
    return {};
}

// More than half of the first 1,000 lines do not parse: the wrong format, not bad lines.
Result<void> Engine::checkFirstLines(FilePlan &fp)
{
    fp.checked = true;
    if (fp.nonEmpty == 0 || fp.bad * 2 <= fp.nonEmpty) {
        return {};
    }
    const LineNote *first = nullptr;
    for (const LineNote &n : m_rep.badLines) {
        if (n.file == fp.reader->path()) {
            first = &n;
            break;
        }
    }
    return Error::make(
        Error::Kind::Invalid,
        u"%1: %2 of the first %3 line(s) are not in the %4 format; is it another "
        "one (--format, --log-format)? line %5: %6: %7"_s.arg(fp.reader->path())
            .arg(fp.bad)
            .arg(fp.nonEmpty)
            .arg(fp.parser.name())
            .arg(first ? first->line : 0)
            .arg(first ? first->reason : QString(), first ? first->sample : QString()));
}

void Engine::addWarning(const QString &w)
{
    m_rep.warning += (m_rep.warning.isEmpty() ? QString() : u"; "_s) + w;
}

Result<Report> run(const Options &options)
{
    Report report;
    Engine engine(options, report);
    if (auto ok = engine.setUp(); !ok) {
        return ok.error();
    }
    if (auto ok = engine.loop(); !ok) {
        return ok.error();
    }
    engine.finish();
    report.backend = options.limiter == nullptr ? u"local"_s : u"limiter"_s;
    return report;
}

} // namespace sluice::replay
