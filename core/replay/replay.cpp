// The replay engine.
//
//  - Lines are read in blocks (LogReader), parsed into views of their bytes (LineParser); only
//    the subjects of the scopes a matched rule needs are extracted, each hashed once and
//    interned (one table per distinct scope, shared by the rules of that scope): from then on
//    a request is a time, a rule mask, a status and one subject id per scope.
//  - Requests wait in a buffer until the log has moved past them by the reorder window; they
//    are then sorted (by time, then log order), the requests of a whole second (times with
//    second resolution) spread evenly over it, and decided. A request older than what was
//    already decided is late: counted and skipped, never decided out of order. The buffer is
//    bounded (maxPendingRequests: past it the oldest are decided early), and a line far ahead
//    of its file is held until the next lines confirm the jump or make it an outlier.
//  - Several files are read in turn, always the one whose last time is the smallest, a run of
//    lines at a time, so that their merge stays within the reorder window.
//  - Decisions: model::apply on a state per (rule, subject), expiring on the log's clock as
//    LocalModel's keys do (the simulator's twin slots), or batches through a Limiter.
//  - Per (rule, subject): requests, denials (first, last), and for the suggestion a ring of
//    ten steps of window / 10 (the peak: the most requests in any window starting on a step)
//    and the count of the current fixed window (a histogram of window counts over all
//    subjects gives the requests a fixed window of any limit would deny).
#include "replay.h"

#include "logreader.h"

#include "core/common/bytes.h"
#include "core/common/duration.h"
#include "core/limiter/model.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/connection.h"
#include "core/redis/keyspace.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <unordered_map>

#include <arpa/inet.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {

constexpr quint32 kNone = 0xFFFFFFFFu;    // no subject on the line (scope not logged, "-")
constexpr quint32 kTooLong = 0xFFFFFFFEu; // longer than maxSubjectBytes
constexpr quint32 kUnset = 0xFFFFFFFDu;   // not extracted yet
constexpr int kSteps = 10;
constexpr qint64 kCheckEvery = 65536;
// A line more than the reorder window + jumpUs ahead of its file's previous lines is a jump:
// replayed once the next jumpConfirmations lines of the file stay there, an outlier if one
// comes back before.
constexpr qint64 jumpUs = 60'000'000;
constexpr int jumpConfirmations = 2;
constexpr const char *lateReason =
    "earlier than the requests already replayed by more than the reorder window";
constexpr quint64 digestSeed = 14695981039346656037ull;

inline void mix(quint64 &h, qint64 v)
{
    h = (h ^ quint64(v)) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
}

inline quint64 hashBytes(const char *p, size_t n)
{
    quint64 h = 0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull);
    while (n >= 8) {
        quint64 v;
        std::memcpy(&v, p, 8);
        h = (h ^ v) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    quint64 v = 0;
    std::memcpy(&v, p, n);
    h = (h ^ v) * 0x94d049bb133111ebull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h | 1; // 0 marks an empty slot
}

// Subject bytes -> dense ids; the bytes are kept once, in an arena.
class Interner
{
public:
    Interner() { m_table.resize(1024); }
    quint32 intern(View s)
    {
        const quint64 h = hashBytes(s.data(), s.size());
        size_t mask = m_table.size() - 1;
        size_t i = size_t(h) & mask;
        for (;;) {
            Entry &e = m_table[i];
            if (e.hash == 0) {
                break;
            }
            if (e.hash == h && e.len == s.size() &&
                (s.size() <= sizeof e.head ? sameBytes(e.head, s.data(), s.size())
                                           : name(e.id) == s)) {
                return e.id;
            }
            i = (i + 1) & mask;
        }
        const quint32 id = quint32(m_offsets.size() - 1);
        m_arena.insert(m_arena.end(), s.begin(), s.end());
        m_offsets.push_back(m_arena.size());
        Entry &e = m_table[i];
        e.hash = h;
        e.id = id;
        e.len = quint32(std::min<size_t>(s.size(), 0xFFFFFFFFu));
        std::memcpy(e.head, s.data(), std::min(s.size(), sizeof e.head));
        if (++m_count * 2 > m_table.size()) {
            grow();
        }
        return id;
    }
    View name(quint32 id) const
    {
        const size_t b = m_offsets[id];
        return View(m_arena.data() + b, m_offsets[id + 1] - b);
    }
    size_t size() const { return m_count; }

private:
    struct Entry // 32 bytes; a short subject (an IPv4 address) is compared here, not in the arena
    {
        quint64 hash = 0;
        quint32 id = 0;
        quint32 len = 0;
        char head[16] = {};
    };
    void grow()
    {
        std::vector<Entry> t(m_table.size() * 2);
        const size_t mask = t.size() - 1;
        for (const Entry &e : m_table) {
            if (e.hash == 0) {
                continue;
            }
            size_t i = size_t(e.hash) & mask;
            while (t[i].hash != 0) {
                i = (i + 1) & mask;
            }
            t[i] = e;
        }
        m_table.swap(t);
    }
    std::vector<Entry> m_table;
    std::vector<char> m_arena;
    std::vector<size_t> m_offsets{0};
    size_t m_count = 0;
};

struct Cidr
{
    bool v6 = false;
    unsigned char net[16] = {};
    int bits = 0;
};

// An address as 4 or 16 bytes; false if it is none.
bool parseAddress(View text, bool *v6, unsigned char out[16])
{
    char buf[64];
    if (text.empty() || text.size() >= sizeof buf) {
        return false;
    }
    std::memcpy(buf, text.data(), text.size());
    buf[text.size()] = 0;
    if (inet_pton(AF_INET, buf, out) == 1) {
        *v6 = false;
        return true;
    }
    if (inet_pton(AF_INET6, buf, out) == 1) {
        *v6 = true;
        return true;
    }
    return false;
}

std::optional<Cidr> parseCidr(const QString &text)
{
    const QByteArray t = text.trimmed().toLatin1();
    const qsizetype slash = t.indexOf('/');
    const QByteArray addr = slash < 0 ? t : t.left(slash);
    Cidr c;
    if (!parseAddress(View(addr.constData(), size_t(addr.size())), &c.v6, c.net)) {
        return std::nullopt;
    }
    const int maxBits = c.v6 ? 128 : 32;
    c.bits = maxBits;
    if (slash >= 0) {
        bool ok = false;
        c.bits = t.mid(slash + 1).toInt(&ok);
        if (!ok || c.bits < 0 || c.bits > maxBits) {
            return std::nullopt;
        }
    }
    return c;
}

bool inCidr(const Cidr &c, bool v6, const unsigned char a[16])
{
    if (c.v6 != v6) {
        return false;
    }
    const int whole = c.bits / 8;
    if (std::memcmp(c.net, a, size_t(whole)) != 0) {
        return false;
    }
    const int rest = c.bits % 8;
    if (rest == 0) {
        return true;
    }
    const unsigned char mask = static_cast<unsigned char>(0xFF << (8 - rest));
    return (c.net[whole] & mask) == (a[whole] & mask);
}

struct ScopeDef
{
    Scope::Kind kind = Scope::Kind::Global;
    QString name;  // header or parameter name as the rule gives it
    QString label; // Scope::toString()
    std::string param;
    Interner subjects;
};

struct Event
{
    qint64 t = 0;
    quint64 seq = 0;
    quint64 mask = 0;
    quint32 subjOff = 0;
    quint16 status = 0;
    bool coarse = false;
};

// Per file: where each scope's subject is on a line.
struct FilePlan
{
    std::unique_ptr<LogReader> reader;
    LineParser parser;
    std::unique_ptr<Record> record; // the parser's own, line after line
    std::vector<int> headerSlot;    // per scope (Header kind)
    qint64 currentUs = std::numeric_limits<qint64>::min();
    // Lines after a jump ahead, waiting for the next ones to confirm it (Engine::readLine).
    std::vector<Event> held;
    std::vector<quint32> heldSubj;
    std::vector<LineNote> heldNotes;
    qint64 nonEmpty = 0;
    qint64 bad = 0;
    bool checked = false; // the 50 % check of the first lines is done
    bool done = false;
};

struct Route
{
    bool all = true;
    std::string method; // empty: any
    std::string prefix;
};

// One (rule, subject), in two cache lines side by side: the twin's state as the fields of its
// stored layout (model.h), its expiry on the log's clock, and the subject's figures for the
// report. A sliding log's entries live apart (RuleRun::logs), the only state of variable size.
// bytesPerRuleSubject (replay.h) is its size.
struct alignas(64) Cell
{
    qint64 f0 = 0, f1 = 0, f2 = 0; // the state's fields, in the order of its model:: struct
    qint64 expiresAtUs = 0;
    qint64 head = 0; // the ring's current step
    qint64 fwIndex = 0;
    qint64 firstUs = 0; // first and last denial
    qint64 lastUs = 0;
    quint32 ring[kSteps] = {};
    quint32 matched = 0;
    quint32 denied = 0;
    quint32 sum = 0;
    quint32 peak = 0;
    quint32 fwCount = 0;
    bool live = false; // the key exists (fixed-size states)
};
static_assert(sizeof(Cell) == bytesPerRuleSubject);

// A cell's fields as the model's State, and back.
inline void loadState(Algorithm a, const Cell &c, model::State &s)
{
    switch (a) {
    case Algorithm::FixedWindow:
        s.emplace<model::FixedWindowState>(model::FixedWindowState{c.f0, c.f1});
        break;
    case Algorithm::SlidingCounter:
        s.emplace<model::SlidingCounterState>(model::SlidingCounterState{c.f0, c.f1, c.f2});
        break;
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket:
        s.emplace<model::BucketState>(model::BucketState{c.f0, c.f1});
        break;
    case Algorithm::Gcra:
        s.emplace<model::GcraState>(model::GcraState{c.f0, c.f1, c.f2});
        break;
    case Algorithm::SlidingLog:
        break;
    }
}

inline void storeState(const model::State &s, Cell &c)
{
    if (const auto *w = std::get_if<model::FixedWindowState>(&s)) {
        c.f0 = w->startUs;
        c.f1 = w->count;
    } else if (const auto *sc = std::get_if<model::SlidingCounterState>(&s)) {
        c.f0 = sc->startUs;
        c.f1 = sc->current;
        c.f2 = sc->previous;
    } else if (const auto *b = std::get_if<model::BucketState>(&s)) {
        c.f0 = b->level;
        c.f1 = b->lastUs;
    } else if (const auto *g = std::get_if<model::GcraState>(&s)) {
        c.f0 = g->tatUs;
        c.f1 = g->remainder;
        c.f2 = g->denominator;
    }
    c.live = s.index() != 0;
}

// A vector in pages of 1,024 that grows a page at a time: no doubling, no copy, so that its
// memory is its elements' (FORMATS.md "replay": bytes per rule and subject).
template <typename T> class Paged
{
public:
    static constexpr size_t shift = 10;
    static constexpr size_t page = size_t(1) << shift;
    size_t size() const { return m_pages.size() << shift; }
    void grow(size_t n)
    {
        while (size() < n) {
            m_pages.push_back(std::make_unique<T[]>(page));
        }
    }
    T &operator[](size_t i) { return m_pages[i >> shift][i & (page - 1)]; }
    const T &operator[](size_t i) const { return m_pages[i >> shift][i & (page - 1)]; }

private:
    std::vector<std::unique_ptr<T[]>> m_pages;
};

struct RuleRun
{
    RuleReport *rep = nullptr;
    Policy policy;
    int scope = 0;
    Route route;
    bool shadow = false;
    bool global = false;
    qint64 windowUs = 1;
    qint64 stepUs = 1;
    Algorithm algorithm = Algorithm::FixedWindow;
    Paged<Cell> cells;
    Paged<model::State> logs; // sliding log: per subject
    Paged<QByteArray> keys;   // Limiter backend: per subject, made on first use
    std::vector<quint64> smallCounts = std::vector<quint64>(1024);
    std::unordered_map<quint32, quint64> bigCounts;
    quint64 digest = digestSeed;
    // The step and window of the time being decided: divisions only when the time crosses one.
    qint64 stepStart = 0, stepEnd = 0, step = 0;
    qint64 windowStart = 0, windowEnd = 0, window = 0;

    void at(qint64 t)
    {
        if (t >= stepEnd || t < stepStart) {
            step = t / stepUs;
            stepStart = step * stepUs;
            stepEnd = stepStart + stepUs;
        }
        if (t >= windowEnd || t < windowStart) {
            window = t / windowUs;
            windowStart = window * windowUs;
            windowEnd = windowStart + windowUs;
        }
    }

    void ensure(quint32 sid, bool withSlots)
    {
        if (sid >= cells.size()) {
            const size_t n = size_t(sid) + 1;
            cells.grow(n);
            if (withSlots) {
                if (algorithm == Algorithm::SlidingLog) {
                    logs.grow(n);
                }
            } else {
                keys.grow(n);
            }
        }
    }
    void closeWindow(quint32 count)
    {
        if (count == 0) {
            return;
        }
        if (count < smallCounts.size()) {
            ++smallCounts[count];
        } else {
            ++bigCounts[count];
        }
    }
};

// One decision waiting for the Limiter's batch.
struct Pending
{
    int rule = 0;
    quint32 sid = 0;
    qint64 t = 0;
    quint16 status = 0;
};

// Requests in decision order, from the reading thread to the deciding one: the events and
// their subject ids (Event::subjOff indexes `subj`).
struct Batch
{
    std::vector<Event> events;
    std::vector<quint32> subj;
};

// A bounded queue of batches (the reader waits while the decider is `depth` batches behind, so
// memory stays bounded) that hands the emptied batches back for reuse: no allocation per batch
// once the first few have grown.
class Handoff
{
public:
    static constexpr size_t depth = 4;

    Batch spare()
    {
        std::lock_guard lock(m_mutex);
        if (m_pool.empty()) {
            return {};
        }
        Batch b = std::move(m_pool.back());
        m_pool.pop_back();
        return b;
    }
    void push(Batch &&b)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_queue.size() < depth; });
        m_queue.push_back(std::move(b));
        m_changed.notify_all();
    }
    // False once closed and drained.
    bool pop(Batch &b)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !m_queue.empty() || m_closed; });
        if (m_queue.empty()) {
            return false;
        }
        b = std::move(m_queue.front());
        m_queue.pop_front();
        m_changed.notify_all();
        return true;
    }
    void recycle(Batch &&b)
    {
        b.events.clear();
        b.subj.clear();
        std::lock_guard lock(m_mutex);
        m_pool.push_back(std::move(b));
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Batch> m_queue;
    std::vector<Batch> m_pool;
    bool m_closed = false;
};

QString sampleOf(View line)
{
    return bytes::printable(QByteArray(line.data(), qsizetype(std::min<size_t>(line.size(), 200))));
}

std::optional<Route> parseRoute(const QString &route)
{
    Route r;
    const QString t = route.trimmed();
    if (t.isEmpty()) {
        return r;
    }
    static const QRegularExpression re(u"^(?:([A-Za-z]+)\\s+)?(/\\S*)$"_s);
    const auto m = re.match(t);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    r.all = false;
    r.method = m.captured(1).toUpper().toStdString();
    QString path = m.captured(2);
    if (path.endsWith(u'*')) {
        path.chop(1);
    }
    r.prefix = path.toStdString();
    return r;
}

// `path` without its query.
inline bool routeMatches(const Route &r, View method, View path)
{
    if (r.all) {
        return true;
    }
    if (!r.method.empty()) {
        if (method.size() != r.method.size()) {
            return false;
        }
        for (size_t i = 0; i < method.size(); ++i) {
            const char c = method[i] >= 'a' && method[i] <= 'z' ? char(method[i] - 32) : method[i];
            if (c != r.method[i]) {
                return false;
            }
        }
    }
    return path.size() >= r.prefix.size() &&
           sameBytes(path.data(), r.prefix.data(), r.prefix.size());
}

inline View trim(View v)
{
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) {
        v.remove_prefix(1);
    }
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) {
        v.remove_suffix(1);
    }
    return v;
}

inline bool absent(View v)
{
    return v.empty() || v == "-";
}

View paramOf(View path, const std::string &name)
{
    const size_t q = path.find('?');
    if (q == View::npos) {
        return {};
    }
    View rest = path.substr(q + 1);
    while (!rest.empty()) {
        const size_t amp = rest.find('&');
        const View pair = amp == View::npos ? rest : rest.substr(0, amp);
        const size_t eq = pair.find('=');
        const View key = eq == View::npos ? pair : pair.substr(0, eq);
        if (key == View(name)) {
            return eq == View::npos ? View() : pair.substr(eq + 1);
        }
        if (amp == View::npos) {
            break;
        }
        rest = rest.substr(amp + 1);
    }
    return {};
}

bool inCidrs(View ip, const std::vector<Cidr> &cidrs)
{
    bool v6 = false;
    unsigned char a[16];
    if (cidrs.empty() || !parseAddress(ip, &v6, a)) {
        return false;
    }
    for (const Cidr &c : cidrs) {
        if (inCidr(c, v6, a)) {
            return true;
        }
    }
    return false;
}

QString seconds(qint64 us)
{
    return QString::number(double(us) / 1e6, 'f', 3) + u" s"_s;
}

class Engine
{
public:
    Engine(const Options &o, Report &rep)
        : m_o(o)
        , m_rep(rep)
    {}
    ~Engine() { stopDecider(); }
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;
    Result<void> setUp();
    Result<void> loop();
    void finish();

private:
    Result<void> openFiles();
    int scopeIndex(const Scope &s);
    void addRules(const RuleSet &set, const QString &setName, std::vector<RuleReport> &out);
    bool readLine(int file);
    void push(Event e, const quint32 *subjects);
    void releaseHeld(FilePlan &fp);
    void dropHeld(FilePlan &fp);
    View clientIp(const Record &r, const FilePlan &fp) const;
    quint32 subjectFor(int scope, const Record &r, const FilePlan &fp);
    void capReached(const ScopeDef &s, const FilePlan &fp);
    size_t defaultMaxSubjects() const;
    Result<void> flush(bool all);
    void forceCut(std::vector<Event>::iterator &cut);
    Result<void> decide(const Event *events, size_t n, const quint32 *subj);
    void startDecider();
    void stopDecider();
    Result<void> decideBatch();
    void account(RuleRun &run, Cell &st, int index, quint32 sid, qint64 t, int status,
                 const Decision &d);
    void note(std::vector<LineNote> &to, const FilePlan &fp, const char *why, View line);
    Result<void> periodic();
    void addWarning(const QString &w);
    Result<void> checkFirstLines(FilePlan &fp);
    Result<bool> afterRun(FilePlan &fp);
    // Requests before this are final: decided, or late if they come now. The newest time seen
    // minus the reorder window (whole seconds once a time had whole seconds: such a second is
    // spread once all of it is in).
    qint64 watermark() const
    {
        if (m_maxSeenUs == std::numeric_limits<qint64>::min()) {
            return m_maxSeenUs;
        }
        const qint64 w = m_maxSeenUs - m_o.reorderWindowUs;
        return m_anyCoarse && w >= 0 ? w / 1'000'000 * 1'000'000 : w;
    }

    const Options &m_o;
    Report &m_rep;
    std::vector<FilePlan> m_files;
    std::vector<std::unique_ptr<ScopeDef>> m_scopes;
    std::vector<RuleRun> m_runs;
    std::vector<Cidr> m_cidrs;
    std::vector<quint32> m_lineSubjects; // per scope, for the line being read
    std::vector<Event> m_pending;
    std::vector<quint32> m_subj; // subject ids of the pending events, per scope
    // Two threads (the twins, no per-decision callback): this one reads, parses and orders,
    // m_decider decides and accounts, the batches passing through m_handoff.
    bool m_threaded = false;
    Handoff m_handoff;
    std::thread m_decider;
    size_t m_flushAt = 8192;
    qint64 m_maxSeenUs = std::numeric_limits<qint64>::min();
    bool m_anyCoarse = false;
    quint64 m_seq = 0;
    bool m_first = true;
    qint64 m_bin = 0;
    qint64 m_binStartUs = std::numeric_limits<qint64>::max() / 2;
    // The bounded buffer: requests before m_floorUs were decided early (the buffer was full),
    // the second m_heldSecondUs is decided unspread.
    qint64 m_floorUs = std::numeric_limits<qint64>::min();
    qint64 m_heldSecondUs = std::numeric_limits<qint64>::min();
    size_t m_maxSubjects = 0; // per scope
    bool m_capped = false;
    bool m_unsorted = false; // an event came in earlier than the one before it
    qint64 m_lastPushedUs = std::numeric_limits<qint64>::min();
    std::vector<Pending> m_batch;
    std::vector<Request> m_requests;
    qint64 m_sinceCheck = 0;
    QElapsedTimer m_wall;
    qint64 m_totalBytes = 0;
    int m_currentFile = 0;
};

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

void Engine::addRules(const RuleSet &set, const QString &setName, std::vector<RuleReport> &out)
{
    out.reserve(set.rules.size());
    for (const Rule &rule : set.rules) {
        RuleReport rep;
        rep.id = rule.id;
        rep.set = setName;
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
        const auto net = parseCidr(c);
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

View Engine::clientIp(const Record &r, const FilePlan &fp) const
{
    const View addr = r.fields[SlotAddr];
    const bool hasAddr = fp.parser.has(SlotAddr) && !absent(addr);
    const View xff = r.fields[SlotXff];
    if ((m_o.trustProxies == 0 && m_cidrs.empty() && hasAddr) || absent(xff)) {
        return hasAddr ? addr : View();
    }
    // The chain: the X-Forwarded-For hops, then the peer address (the last proxy).
    View chain[33];
    int n = 0;
    View rest = xff;
    while (!rest.empty() && n < 32) {
        const size_t c = rest.find(',');
        const View hop = trim(c == View::npos ? rest : rest.substr(0, c));
        if (!hop.empty()) {
            chain[n++] = hop;
        }
        if (c == View::npos) {
            break;
        }
        rest = rest.substr(c + 1);
    }
    if (hasAddr) {
        chain[n++] = addr;
    }
    if (n == 0) {
        return {};
    }
    if (!m_cidrs.empty()) {
        for (int i = n - 1; i >= 0; --i) {
            if (!inCidrs(chain[i], m_cidrs)) {
                return chain[i];
            }
        }
        return chain[0];
    }
    return chain[std::max(0, n - 1 - m_o.trustProxies)];
}

quint32 Engine::subjectFor(int scope, const Record &r, const FilePlan &fp)
{
    ScopeDef &s = *m_scopes[size_t(scope)];
    View v;
    switch (s.kind) {
    case Scope::Kind::Global:
        v = "global";
        break;
    case Scope::Kind::Ip:
        v = clientIp(r, fp);
        break;
    case Scope::Kind::User:
        v = r.fields[SlotUser];
        break;
    case Scope::Kind::Header: {
        const int slot = fp.headerSlot[size_t(scope)];
        v = slot >= 0 ? r.fields[slot] : View();
        break;
    }
    case Scope::Kind::Param:
        v = paramOf(r.fields[SlotPath], s.param);
        break;
    }
    if (absent(v)) {
        return kNone;
    }
    if (v.size() > maxSubjectBytes) {
        return kTooLong;
    }
    const size_t before = s.subjects.size();
    const quint32 id = s.subjects.intern(v);
    if (s.subjects.size() > before && s.subjects.size() > m_maxSubjects && !m_capped) {
        capReached(s, fp);
    }
    return id;
}

// What one subject costs a rule (FORMATS.md "replay").
qint64 bytesOf(const RuleRun &run)
{
    return qint64(bytesPerRuleSubject) +
           (run.algorithm == Algorithm::SlidingLog ? qint64(bytesPerSlidingLogSubject) : 0);
}

// One subject more than --max-subjects: the run stops here, the report covers the lines before.
void Engine::capReached(const ScopeDef &s, const FilePlan &fp)
{
    m_capped = true;
    qint64 rules = 0;
    qint64 perSubject = qint64(bytesPerSubject);
    for (const RuleRun &run : m_runs) {
        if (m_scopes[size_t(run.scope)].get() == &s) {
            ++rules;
            perSubject += bytesOf(run);
        }
    }
    m_rep.error =
        u"more than %1 distinct subjects for scope %2 (--max-subjects %1): with %3 rule(s) of "
        "that scope at %4 bytes per rule and subject and about %5 per subject (%6 per sliding "
        "log rule and subject), they take about "
        "%7 MiB, and the log has more; the replay stopped at line %8 of %9 and the report covers "
        "the lines before; raise --max-subjects if the memory is there, or replay fewer rules "
        "or a shorter log"_s.arg(m_maxSubjects)
            .arg(s.label)
            .arg(rules)
            .arg(bytesPerRuleSubject)
            .arg(bytesPerSubject)
            .arg(bytesPerSlidingLogSubject)
            .arg(qint64(m_maxSubjects) * perSubject / (1024 * 1024))
            .arg(fp.reader->lineNumber())
            .arg(fp.reader->path());
}

// Half the memory there is (the physical memory, or the cgroup's limit if lower), shared by
// the scopes as their rules need it.
size_t Engine::defaultMaxSubjects() const
{
    qint64 memory = qint64(::sysconf(_SC_PHYS_PAGES)) * qint64(::sysconf(_SC_PAGESIZE));
    QFile limit(u"/sys/fs/cgroup/memory.max"_s);
    if (limit.open(QIODevice::ReadOnly)) {
        bool ok = false;
        const qint64 l = limit.readAll().trimmed().toLongLong(&ok);
        if (ok && l > 0) {
            memory = memory > 0 ? std::min(memory, l) : l;
        }
    }
    if (memory <= 0) {
        memory = qint64(8) << 30;
    }
    qint64 perSubject = 0; // every scope with as many subjects
    for (size_t i = 0; i < m_scopes.size(); ++i) {
        perSubject += qint64(bytesPerSubject);
        for (const RuleRun &run : m_runs) {
            perSubject += run.scope == int(i) ? bytesOf(run) : 0;
        }
    }
    return size_t(
        std::clamp<qint64>(memory / 2 / std::max<qint64>(1, perSubject), 10'000, 0x7FFFFFFF));
}

void Engine::note(std::vector<LineNote> &to, const FilePlan &fp, const char *why, View line)
{
    if (to.size() < size_t(maxBadLinesShown)) {
        to.push_back(LineNote{fp.reader->path(), fp.reader->lineNumber(), QString::fromLatin1(why),
                              sampleOf(line)});
    }
}

// Reads one line of a file into the pending buffer; false at the end of the file.
bool Engine::readLine(int file)
{
    FilePlan &fp = m_files[size_t(file)];
    View line;
    bool tooLong = false;
    if (!fp.reader->next(line, tooLong)) {
        releaseHeld(fp); // the file ends after a jump: nothing contradicts it
        fp.done = true;
        return false;
    }
    ++m_rep.lines;
    ++m_sinceCheck;
    if (line.empty()) {
        return true;
    }
    ++fp.nonEmpty;
    const char *why = nullptr;
    if (tooLong) {
        ++m_rep.tooLong;
        ++m_rep.unparsed;
        ++fp.bad;
        note(m_rep.badLines, fp, "the line is longer than 64 KiB", line);
        return true;
    }
    Record &r = *fp.record;
    if (!fp.parser.parse(line, r, &why)) {
        ++m_rep.unparsed;
        ++fp.bad;
        note(m_rep.badLines, fp, why, line);
        return true;
    }
    ++m_rep.parsed;
    // A line far ahead of its file's previous ones is held until the lines after it confirm the
    // jump; lines back at the earlier time make it an outlier instead (outlierAhead).
    bool hold = false;
    if (!fp.held.empty()) {
        if (r.timeUs < fp.held.front().t - m_o.reorderWindowUs) {
            dropHeld(fp);
        } else {
            hold = true;
        }
    } else if (fp.currentUs != std::numeric_limits<qint64>::min() &&
               r.timeUs > fp.currentUs + m_o.reorderWindowUs + jumpUs) {
        hold = true;
    }
    if (!hold) {
        fp.currentUs = std::max(fp.currentUs, r.timeUs);
        if (r.timeUs < std::max(watermark(), m_floorUs)) {
            ++m_rep.late;
            note(m_rep.lateLines, fp, lateReason, line);
            return true;
        }
    }
    // The rules whose route takes the request.
    const View method = r.fields[SlotMethod];
    View path = r.fields[SlotPath];
    if (const size_t q = path.find('?'); q != View::npos) {
        path = path.substr(0, q);
    }
    quint64 mask = 0;
    for (size_t i = 0; i < m_runs.size(); ++i) {
        if (routeMatches(m_runs[i].route, method, path)) {
            mask |= quint64(1) << i;
        }
    }
    if (mask == 0 && !hold) {
        ++m_rep.unmatched;
        return true;
    }
    std::fill(m_lineSubjects.begin(), m_lineSubjects.end(), kUnset);
    for (quint64 m = mask; m != 0; m &= m - 1) {
        const int scope = m_runs[size_t(__builtin_ctzll(m))].scope;
        quint32 &sid = m_lineSubjects[size_t(scope)];
        if (sid == kUnset) {
            sid = subjectFor(scope, r, fp);
        }
    }
    Event e;
    e.t = r.timeUs;
    e.seq = m_seq++;
    e.mask = mask;
    e.status = quint16(r.status);
    e.coarse = r.coarse;
    if (hold) {
        fp.held.push_back(e);
        fp.heldSubj.insert(fp.heldSubj.end(), m_lineSubjects.begin(), m_lineSubjects.end());
        fp.heldNotes.push_back(LineNote{
            fp.reader->path(),
            fp.reader->lineNumber(),
            {},
            m_rep.outlierLines.size() < size_t(maxBadLinesShown) ? sampleOf(line) : QString()});
        if (fp.held.size() > size_t(jumpConfirmations)) {
            releaseHeld(fp);
        }
        return true;
    }
    push(e, m_lineSubjects.data());
    return true;
}

// Inlined: readLine calls it for every request line.
[[gnu::always_inline]] inline void Engine::push(Event e, const quint32 *subjects)
{
    e.subjOff = quint32(m_subj.size());
    m_anyCoarse = m_anyCoarse || e.coarse;
    if (m_scopes.size() == 1) {
        m_subj.push_back(subjects[0]); // the common case: a range insert costs five times more
    } else {
        m_subj.insert(m_subj.end(), subjects, subjects + m_scopes.size());
    }
    m_pending.push_back(e);
    m_unsorted = m_unsorted || e.t < m_lastPushedUs;
    m_lastPushedUs = e.t;
    m_maxSeenUs = std::max(m_maxSeenUs, e.t);
}

// The jump is confirmed (or the file ended): the held lines go on as any other.
void Engine::releaseHeld(FilePlan &fp)
{
    for (size_t i = 0; i < fp.held.size(); ++i) {
        const Event &e = fp.held[i];
        fp.currentUs = std::max(fp.currentUs, e.t);
        if (e.t < std::max(watermark(), m_floorUs)) {
            ++m_rep.late; // another file's lines went past it meanwhile
            if (m_rep.lateLines.size() < size_t(maxBadLinesShown)) {
                LineNote n = fp.heldNotes[i];
                n.reason = QString::fromLatin1(lateReason);
                m_rep.lateLines.push_back(std::move(n));
            }
        } else if (e.mask == 0) {
            ++m_rep.unmatched;
        } else {
            push(e, fp.heldSubj.data() + i * m_scopes.size());
        }
    }
    fp.held.clear();
    fp.heldSubj.clear();
    fp.heldNotes.clear();
}

// A line came back to the time before the jump: the held lines were the outliers.
void Engine::dropHeld(FilePlan &fp)
{
    m_rep.outliers += qint64(fp.held.size());
    for (LineNote &n : fp.heldNotes) {
        if (m_rep.outlierLines.size() < size_t(maxBadLinesShown)) {
            n.reason =
                u"later than the lines around it by more than the reorder window + 1 minute: "
                "not replayed"_s;
            m_rep.outlierLines.push_back(std::move(n));
        }
    }
    fp.held.clear();
    fp.heldSubj.clear();
    fp.heldNotes.clear();
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

Result<void> Engine::loop()
{
    const int threads =
        m_o.threads > 0 ? m_o.threads : (std::thread::hardware_concurrency() > 1 ? 2 : 1);
    if (threads > 1 && m_o.limiter == nullptr && !m_o.onDecision) {
        startDecider();
    }
    for (;;) {
        if (m_rep.cancelled || (m_o.cancel != nullptr && m_o.cancel->load())) {
            m_rep.cancelled = true;
            break;
        }
        // The file whose last time is the smallest goes next, a run of lines at a time.
        int best = -1;
        for (size_t i = 0; i < m_files.size(); ++i) {
            if (!m_files[i].done &&
                (best < 0 || m_files[i].currentUs < m_files[size_t(best)].currentUs)) {
                best = int(i);
            }
        }
        if (best < 0) {
            break;
        }
        qint64 next = std::numeric_limits<qint64>::max();
        for (size_t i = 0; i < m_files.size(); ++i) {
            if (int(i) != best && !m_files[i].done) {
                next = std::min(next, m_files[i].currentUs);
            }
        }
        m_currentFile = best;
        FilePlan &fp = m_files[size_t(best)];
        for (int k = 0; k < 4096; ++k) {
            if (!readLine(best) || m_capped) {
                break;
            }
            if (!fp.checked && fp.nonEmpty >= 1000) {
                if (auto ok = checkFirstLines(fp); !ok) {
                    return ok;
                }
            }
            if (fp.currentUs > next) {
                break;
            }
        }
        auto go = afterRun(fp);
        if (!go) {
            return go.error();
        }
        if (!*go) {
            break;
        }
        if (m_pending.size() >= m_flushAt) {
            if (auto ok = flush(false); !ok) {
                return ok;
            }
        }
        if (m_sinceCheck >= kCheckEvery) {
            if (auto ok = periodic(); !ok) {
                return ok;
            }
        }
    }
    if (!m_rep.cancelled && (m_rep.lines == 0 || m_rep.parsed + m_rep.unparsed == 0)) {
        if (!m_rep.error.isEmpty()) {
            // Damaged before its first line: the file's fault, not the command's.
            return Error::make(Error::Kind::Io, m_rep.error);
        }
        return Error::make(
            Error::Kind::Invalid,
            u"the log is empty: %1 hold(s) no request line"_s.arg(m_rep.files.join(u", "_s)));
    }
    for (FilePlan &fp : m_files) {
        releaseHeld(fp); // a run stopped early: what was held is the reader's last lines
    }
    if (auto ok = flush(true); !ok) {
        return ok;
    }
    stopDecider(); // every batch decided
    if (m_rep.decidedEarly > 0) {
        addWarning(
            u"more than %1 requests waited to be put in time order (the reorder window of a busy "
            "log, or a second with whole-second times holding more): %2 were decided before the "
            "reorder window had passed them%3"_s.arg(maxPendingRequests)
                .arg(m_rep.decidedEarly)
                .arg(m_rep.secondsNotSpread > 0
                         ? u", and %1 second(s) were decided at their start, not spread"_s.arg(
                               m_rep.secondsNotSpread)
                         : QString()));
    }
    return periodic();
}

// After a run of lines of one file: its first lines checked, its end's error and warning
// taken; false when the run stops here (cancelled, the subject cap).
Result<bool> Engine::afterRun(FilePlan &fp)
{
    if (!fp.checked && fp.done && !fp.reader->cancelled()) {
        if (auto ok = checkFirstLines(fp); !ok) {
            return ok.error();
        }
    }
    if (fp.done && fp.reader->error() && m_rep.error.isEmpty()) {
        m_rep.error = fp.reader->error()->message;
    }
    if (fp.done && !fp.reader->warning().isEmpty()) {
        addWarning(fp.reader->warning());
    }
    if (fp.reader->cancelled()) {
        m_rep.cancelled = true;
    }
    return !m_rep.cancelled && !m_capped;
}

void Engine::addWarning(const QString &w)
{
    m_rep.warning += (m_rep.warning.isEmpty() ? QString() : u"; "_s) + w;
}

Result<void> Engine::flush(bool all)
{
    if (m_pending.empty()) {
        return {};
    }
    const auto before = [](const Event &a, const Event &b) {
        return a.t < b.t || (a.t == b.t && a.seq < b.seq);
    };
    bool sorted = false; // the events moved: their subjects are no longer in their order
    if (m_unsorted) {
        std::sort(m_pending.begin(), m_pending.end(), before);
        m_unsorted = false;
        sorted = true;
    }
    const qint64 upTo = all ? std::numeric_limits<qint64>::max() : watermark();
    auto cut = std::lower_bound(m_pending.begin(), m_pending.end(), upTo,
                                [](const Event &e, qint64 t) { return e.t < t; });
    if (!all && m_pending.end() - cut > qint64(maxPendingRequests / 2)) {
        forceCut(cut);
    }
    const size_t n = size_t(cut - m_pending.begin());
    if (n > 0) {
        // The requests of one whole second, spread evenly over it, in log order.
        bool spread = false;
        for (size_t i = 0; i < n;) {
            if (!m_pending[i].coarse || m_pending[i].t == m_heldSecondUs) {
                ++i; // exact, or a second beyond the buffer: at its start, in log order
                continue;
            }
            size_t j = i;
            const qint64 s = m_pending[i].t;
            while (j < n && m_pending[j].coarse && m_pending[j].t == s) {
                ++j;
            }
            // t_k = s + (2k + 1) * 500,000 / count, k = 0..count-1, stepped without a division.
            const qint64 count = qint64(j - i);
            const qint64 whole = 1'000'000 / count;
            const qint64 rest = 1'000'000 % count;
            qint64 num = 500'000 % count;
            qint64 t = s + 500'000 / count;
            for (size_t k = i; k < j; ++k) {
                m_pending[k].t = t;
                t += whole;
                num += rest;
                if (num >= count) {
                    num -= count;
                    ++t;
                }
            }
            spread = true;
            i = j;
        }
        if (spread) {
            m_rep.spread = true;
            if (!std::is_sorted(m_pending.begin(), cut, before)) {
                std::sort(m_pending.begin(), cut, before);
                sorted = true;
            }
        }
        if (m_threaded) {
            Batch b = m_handoff.spare();
            b.events.assign(m_pending.begin(), cut);
            if (!sorted) {
                // In log order their subjects are the head of m_subj, offsets and all.
                const size_t off0 = n < m_pending.size() ? m_pending[n].subjOff : m_subj.size();
                b.subj.assign(m_subj.begin(), m_subj.begin() + qint64(off0));
            } else {
                b.subj.reserve(n * m_scopes.size());
                for (Event &e : b.events) {
                    const quint32 off = e.subjOff;
                    e.subjOff = quint32(b.subj.size());
                    b.subj.insert(b.subj.end(), m_subj.begin() + off,
                                  m_subj.begin() + off + qint64(m_scopes.size()));
                }
            }
            m_handoff.push(std::move(b));
        } else if (auto ok = decide(m_pending.data(), n, m_subj.data()); !ok) {
            return ok;
        }
    }
    // Keep the rest, with their subjects compacted. Unsorted, the rest's subjects are the tail
    // of m_subj already, in order.
    const size_t scopes = m_scopes.size();
    if (!sorted) {
        const size_t off0 = n < m_pending.size() ? m_pending[n].subjOff : m_subj.size();
        m_subj.erase(m_subj.begin(), m_subj.begin() + qint64(off0));
        for (size_t i = n; i < m_pending.size(); ++i) {
            m_pending[i].subjOff -= quint32(off0);
        }
    } else {
        std::vector<quint32> subj;
        subj.reserve((m_pending.size() - n) * scopes + 16);
        for (size_t i = n; i < m_pending.size(); ++i) {
            Event &e = m_pending[i];
            const quint32 off = e.subjOff;
            e.subjOff = quint32(subj.size());
            subj.insert(subj.end(), m_subj.begin() + off, m_subj.begin() + off + qint64(scopes));
        }
        m_subj.swap(subj);
    }
    m_pending.erase(m_pending.begin(), cut);
    m_lastPushedUs = m_pending.empty() ? std::numeric_limits<qint64>::min() : m_pending.back().t;
    // What stays (the reorder window's requests) is moved to the front at every flush: flush
    // when it is a small part of the buffer.
    m_flushAt = std::min(maxPendingRequests, std::max<size_t>(32768, m_pending.size() * 4));
    return {};
}

// More requests wait than the buffer holds (a second of a busy log, a reorder window of many
// seconds): the oldest are decided now, the newest half of the buffer kept. A line older than
// those decided is late from now on; a second with whole-second times cut here is not spread:
// its requests, these and those still to come, are decided at its start, in log order.
void Engine::forceCut(std::vector<Event>::iterator &cut)
{
    cut = m_pending.end() - qint64(maxPendingRequests / 2);
    const Event &last = *(cut - 1);
    if (last.coarse && last.t != m_heldSecondUs) {
        m_heldSecondUs = last.t;
        ++m_rep.secondsNotSpread;
    }
    m_floorUs = std::max(m_floorUs, last.t);
    m_rep.decidedEarly += cut - m_pending.begin();
}

void Engine::account(RuleRun &run, Cell &st, int index, quint32 sid, qint64 t, int status,
                     const Decision &d)
{
    RuleReport &rep = *run.rep;
    if (m_first) {
        m_first = false;
        m_rep.firstUs = t;
    }
    m_rep.lastUs = t;
    ++rep.decided;
    run.at(t);
    const qint64 step = run.step;
    const qint64 window = run.window;
    if (st.matched == 0) {
        ++rep.subjects;
        st.head = step;
        st.fwIndex = window;
    } else {
        if (step > st.head) {
            const qint64 delta = step - st.head;
            if (delta >= kSteps) {
                std::fill(std::begin(st.ring), std::end(st.ring), 0u);
                st.sum = 0;
            } else {
                for (qint64 k = 1; k <= delta; ++k) {
                    quint32 &c = st.ring[(st.head + k) % kSteps];
                    st.sum -= c;
                    c = 0;
                }
            }
            st.head = step;
        }
        if (window != st.fwIndex) {
            run.closeWindow(st.fwCount);
            st.fwCount = 0;
            st.fwIndex = window;
        }
    }
    ++st.matched;
    ++st.ring[step % kSteps];
    ++st.sum;
    st.peak = std::max(st.peak, st.sum);
    ++st.fwCount;

    mix(run.digest, d.allowed ? 1 : 0);
    mix(run.digest, d.remaining);
    mix(run.digest, d.retryAfterMs);
    mix(run.digest, d.resetAfterMs);
    mix(run.digest, d.delayMs);
    if (status == 429) {
        ++rep.log429;
    }
    if (d.allowed) {
        ++rep.admitted;
    } else {
        if (run.shadow) {
            ++rep.shadowDenied;
        } else {
            ++rep.denied;
        }
        if (st.denied == 0) {
            ++rep.subjectsDenied;
            st.firstUs = t;
        }
        ++st.denied;
        st.lastUs = t;
        if (status == 429) {
            ++rep.log429Denied;
        } else if (status != 0) {
            ++rep.deniedNot429;
        }
        // Denials per bin, from the first request; the bins widen to stay at most maxBins.
        qint64 bin = 0;
        if (t >= m_binStartUs && t < m_binStartUs + m_rep.binUs) {
            bin = m_bin;
        } else {
            bin = (t - m_rep.firstUs) / m_rep.binUs;
        }
        while (bin >= qint64(maxBins)) {
            m_rep.binUs *= 2;
            for (RuleRun &r : m_runs) {
                std::vector<qint64> &b = r.rep->deniedPerBin;
                for (size_t i = 0; i < b.size(); ++i) {
                    if (i % 2 == 0) {
                        b[i / 2] = b[i];
                    } else {
                        b[i / 2] += b[i];
                    }
                }
                b.resize((b.size() + 1) / 2);
            }
            bin = (t - m_rep.firstUs) / m_rep.binUs;
        }
        m_bin = bin;
        m_binStartUs = m_rep.firstUs + bin * m_rep.binUs;
        if (bin >= qint64(rep.deniedPerBin.size())) {
            rep.deniedPerBin.resize(size_t(bin) + 1);
        }
        ++rep.deniedPerBin[size_t(bin)];
    }
    if (m_o.onDecision) {
        m_o.onDecision(index, t, m_scopes[size_t(run.scope)]->subjects.name(sid), d);
    }
}

void Engine::startDecider()
{
    try {
        m_decider = std::thread([this] {
            Batch b;
            while (m_handoff.pop(b)) {
                (void)decide(b.events.data(), b.events.size(), b.subj.data()); // local: no error
                m_handoff.recycle(std::move(b));
            }
        });
        m_threaded = true;
    } catch (const std::system_error &) {
        m_threaded = false; // no thread to be had: everything on this one
    }
}

void Engine::stopDecider()
{
    if (m_decider.joinable()) {
        m_handoff.close();
        m_decider.join();
    }
}

Result<void> Engine::decide(const Event *events, size_t n, const quint32 *subjects)
{
    const bool local = m_o.limiter == nullptr;
    if (!local && m_rep.cancelled) {
        return {}; // nothing more goes to the Limiter (its round trips are not waited for)
    }
    for (size_t i = 0; i < n; ++i) {
        const Event &e = events[i];
        const quint32 *subj = subjects + e.subjOff;
        // Subjects come in any order: fetch a later request's state now, so that its cache
        // misses overlap this decision.
        if (local && i + 6 < n) {
            const Event &ahead = events[i + 6];
            const quint32 *as = subjects + ahead.subjOff;
            for (quint64 m = ahead.mask; m != 0; m &= m - 1) {
                const RuleRun &run = m_runs[size_t(__builtin_ctzll(m))];
                const quint32 sid = as[run.scope];
                if (sid < run.cells.size()) {
                    const char *c = reinterpret_cast<const char *>(&run.cells[sid]);
                    __builtin_prefetch(c);
                    __builtin_prefetch(c + 64);
                }
            }
        }
        for (quint64 m = e.mask; m != 0; m &= m - 1) {
            const int index = __builtin_ctzll(m);
            RuleRun &run = m_runs[size_t(index)];
            ++run.rep->matched;
            const quint32 sid = subj[run.scope];
            if (sid == kNone) {
                ++run.rep->noSubject;
                continue;
            }
            if (sid == kTooLong) {
                ++run.rep->subjectTooLong;
                continue;
            }
            run.ensure(sid, local);
            if (local) {
                Cell &cell = run.cells[sid];
                const qint64 now = e.t;
                model::Outcome o;
                if (run.algorithm == Algorithm::SlidingLog) {
                    model::State &state = run.logs[sid];
                    if (cell.expiresAtUs <= now) {
                        // The key expired. An empty log decides a request of cost 1 exactly as
                        // an absent key does (both admit it and write the one entry: the
                        // scripts' limit is at least 1), and keeps its allocation.
                        if (auto *log = std::get_if<model::SlidingLogState>(&state)) {
                            log->entries.clear();
                        }
                    }
                    o = model::apply(run.policy, state, 1, now, m_o.minTtlMs);
                } else {
                    model::State state;
                    if (cell.live && cell.expiresAtUs > now) {
                        loadState(run.algorithm, cell, state);
                    } // else: the key expired, or never was
                    o = model::apply(run.policy, state, 1, now, m_o.minTtlMs);
                    storeState(state, cell);
                }
                if (o.wrote && o.ttlMs > 0) {
                    cell.expiresAtUs = now + o.ttlMs * duration::usPerMs;
                }
                account(run, cell, index, sid, now, e.status, o.decision);
            } else {
                m_batch.push_back(Pending{index, sid, e.t, e.status});
                if (m_batch.size() >= size_t(std::max(1, m_o.batch))) {
                    if (auto ok = decideBatch(); !ok) {
                        return ok;
                    }
                    if (m_o.cancel != nullptr && m_o.cancel->load(std::memory_order_relaxed)) {
                        m_rep.cancelled = true; // between round trips: within one of them
                        m_batch.clear();
                        return {};
                    }
                }
            }
        }
    }
    if (!local) {
        return decideBatch();
    }
    return {};
}

Result<void> Engine::decideBatch()
{
    if (m_batch.empty()) {
        return {};
    }
    m_requests.resize(m_batch.size());
    for (size_t i = 0; i < m_batch.size(); ++i) {
        const Pending &p = m_batch[i];
        RuleRun &run = m_runs[size_t(p.rule)];
        QByteArray &key = run.keys[p.sid];
        if (key.isEmpty()) {
            const View s = m_scopes[size_t(run.scope)]->subjects.name(p.sid);
            key = run.policy.keyFor(QByteArray(s.data(), qsizetype(s.size())));
        }
        Request &q = m_requests[i];
        q.policy = &run.policy;
        q.key = key;
        q.cost = 1;
        q.nowUs = p.t;
        q.minTtlMs = m_o.minTtlMs;
    }
    auto decided =
        m_o.limiter->decideBatch(std::span<const Request>(m_requests.data(), m_batch.size()));
    if (!decided) {
        return Error::make(decided.error().kind,
                           u"at %1 in the log: %2"_s.arg(QString::number(m_batch.front().t),
                                                         decided.error().message));
    }
    for (size_t i = 0; i < m_batch.size(); ++i) {
        const Result<Decision> &d = (*decided)[i];
        const Pending &p = m_batch[i];
        if (!d) {
            return Error::make(d.error().kind, u"rule %1: %2"_s.arg(m_runs[size_t(p.rule)].rep->id,
                                                                    d.error().message));
        }
        RuleRun &run = m_runs[size_t(p.rule)];
        account(run, run.cells[p.sid], p.rule, p.sid, p.t, p.status, *d);
    }
    m_batch.clear();
    return {};
}

qint64 quantile(const std::vector<quint32> &sorted, double q)
{
    if (sorted.empty()) {
        return 0;
    }
    // Nearest rank.
    size_t rank = size_t(std::ceil(q * double(sorted.size())));
    rank = std::clamp<size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

void Engine::finish()
{
    for (RuleRun &run : m_runs) {
        RuleReport &rep = *run.rep;
        rep.digest = run.digest;
        std::vector<size_t> denied;
        rep.peaks.reserve(size_t(rep.subjects));
        for (size_t sid = 0; sid < run.cells.size(); ++sid) {
            const Cell &st = run.cells[sid];
            if (st.matched == 0) {
                continue;
            }
            run.closeWindow(st.fwCount);
            rep.peaks.push_back(st.peak);
            if (st.denied > 0) {
                denied.push_back(sid);
            }
        }
        std::sort(rep.peaks.begin(), rep.peaks.end());
        const auto moreDenied = [&](size_t a, size_t b) {
            const Cell &x = run.cells[a];
            const Cell &y = run.cells[b];
            return x.denied != y.denied ? x.denied > y.denied : x.firstUs < y.firstUs;
        };
        const size_t top = std::min<size_t>(denied.size(), maxTopSubjects);
        std::partial_sort(denied.begin(), denied.begin() + qint64(top), denied.end(), moreDenied);
        for (size_t i = 0; i < top; ++i) {
            const Cell &st = run.cells[denied[i]];
            const View name = m_scopes[size_t(run.scope)]->subjects.name(quint32(denied[i]));
            rep.top.push_back(DeniedSubject{QByteArray(name.data(), qsizetype(name.size())),
                                            st.matched, st.denied, st.firstUs, st.lastUs});
        }
        for (size_t c = 1; c < run.smallCounts.size(); ++c) {
            if (run.smallCounts[c] > 0) {
                rep.windowCounts.emplace_back(quint32(c), run.smallCounts[c]);
            }
        }
        std::vector<std::pair<quint32, quint64>> big(run.bigCounts.begin(), run.bigCounts.end());
        std::sort(big.begin(), big.end());
        rep.windowCounts.insert(rep.windowCounts.end(), big.begin(), big.end());
        rep.p50 = quantile(rep.peaks, 0.5);
        rep.p90 = quantile(rep.peaks, 0.9);
        rep.p99 = quantile(rep.peaks, 0.99);
        rep.p999 = quantile(rep.peaks, 0.999);
        rep.max = rep.peaks.empty() ? 0 : rep.peaks.back();
        const auto add = [&](qint64 limit, const QString &source) {
            for (const Candidate &c : rep.candidates) {
                if (c.limit == limit) {
                    return;
                }
            }
            Candidate c = rep.shares(limit);
            c.source = source;
            rep.candidates.push_back(c);
        };
        add(rep.limit, u"rule"_s);
        for (qint64 l : m_o.candidates) {
            add(l, u"given"_s);
        }
        add(std::max<qint64>(1, rep.p90), u"p90"_s);
        add(std::max<qint64>(1, rep.p99), u"p99"_s);
        add(std::max<qint64>(1, rep.p999), u"p99.9"_s);
        std::sort(rep.candidates.begin(), rep.candidates.end(),
                  [](const Candidate &a, const Candidate &b) { return a.limit < b.limit; });
    }
    // Side by side: subjects denied under one set and not the other.
    if (m_o.against) {
        for (const RuleReport &a : m_rep.rules) {
            const RuleReport *b = nullptr;
            for (const RuleReport &x : m_rep.against) {
                if (x.id == a.id) {
                    b = &x;
                }
            }
            if (b == nullptr) {
                continue;
            }
            Comparison c;
            c.rule = a.id;
            const RuleRun *ra = nullptr;
            const RuleRun *rb = nullptr;
            for (const RuleRun &r : m_runs) {
                if (r.rep == &a) {
                    ra = &r;
                }
                if (r.rep == b) {
                    rb = &r;
                }
            }
            if (ra == nullptr || rb == nullptr) {
                c.comparable = false;
                c.why = u"skipped in one of the sets"_s;
            } else if (ra->scope != rb->scope) {
                c.comparable = false;
                c.why = u"the scopes differ (%1, %2)"_s.arg(a.scope, b->scope);
            } else {
                std::vector<std::pair<quint32, quint32>> onlyA, onlyB; // (denied, sid)
                const size_t n = std::max(ra->cells.size(), rb->cells.size());
                for (size_t sid = 0; sid < n; ++sid) {
                    const quint32 da = sid < ra->cells.size() ? ra->cells[sid].denied : 0;
                    const quint32 db = sid < rb->cells.size() ? rb->cells[sid].denied : 0;
                    if (da > 0 && db > 0) {
                        ++c.both;
                    } else if (da > 0) {
                        onlyA.emplace_back(da, quint32(sid));
                    } else if (db > 0) {
                        onlyB.emplace_back(db, quint32(sid));
                    }
                }
                c.onlyRules = qint64(onlyA.size());
                c.onlyAgainst = qint64(onlyB.size());
                const Interner &names = m_scopes[size_t(ra->scope)]->subjects;
                for (auto *list : {&onlyA, &onlyB}) {
                    std::sort(list->begin(), list->end(), [](const auto &x, const auto &y) {
                        return x.first != y.first ? x.first > y.first : x.second < y.second;
                    });
                    QList<QByteArray> &to =
                        list == &onlyA ? c.onlyRulesExamples : c.onlyAgainstExamples;
                    for (size_t i = 0; i < std::min<size_t>(10, list->size()); ++i) {
                        const View s = names.name((*list)[i].second);
                        to << QByteArray(s.data(), qsizetype(s.size()));
                    }
                }
            }
            m_rep.comparisons.push_back(c);
        }
    }
    m_rep.wallSeconds = double(m_wall.nsecsElapsed()) / 1e9;
}

} // namespace

Candidate RuleReport::shares(qint64 candidateLimit) const
{
    Candidate c;
    c.limit = candidateLimit;
    const auto above = std::upper_bound(
        peaks.begin(), peaks.end(), quint32(std::clamp<qint64>(candidateLimit, 0, 0xFFFFFFFFLL)));
    c.subjects = qint64(peaks.end() - above);
    c.subjectShare = peaks.empty() ? 0 : double(c.subjects) / double(peaks.size());
    qint64 denied = 0;
    qint64 total = 0;
    for (const auto &[count, windows] : windowCounts) {
        total += qint64(count) * qint64(windows);
        if (qint64(count) > candidateLimit) {
            denied += (qint64(count) - candidateLimit) * qint64(windows);
        }
    }
    c.requests = denied;
    c.requestShare = total > 0 ? double(denied) / double(total) : 0;
    return c;
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

Result<Report> runOnRedis(Options options, const Endpoint &endpoint)
{
    auto connection = Connection::open(endpoint);
    if (!connection) {
        return connection.error();
    }
    options.keyPrefix =
        "sluice:replay:" +
        QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0') +
        ':';
    if (options.minTtlMs == 0) {
        options.minTtlMs = 3'600'000;
    }
    if (options.wallLimitMs == 0) {
        options.wallLimitMs = options.minTtlMs * 9 / 10;
    }
    RedisLimiter limiter(std::move(*connection));
    options.limiter = &limiter;
    Result<Report> result = run(options);
    Connection &c = limiter.connection();
    Result<qint64> deleted = Error::make(Error::Kind::Io, u"the connection is lost"_s);
    if (!c.isBroken() || c.reconnect()) {
        deleted = redis::deleteByPrefix(c, options.keyPrefix);
    }
    const QString leftBehind =
        deleted ? QString()
                : u"could not remove the run's keys %1* (%2); they expire within %3 s"_s
                      .arg(QString::fromUtf8(options.keyPrefix), deleted.error().message)
                      .arg(options.minTtlMs / 1000);
    if (!result) {
        if (leftBehind.isEmpty()) {
            return result;
        }
        return Error::make(result.error().kind, result.error().message + u"; "_s + leftBehind);
    }
    result->backend = u"redis"_s;
    result->keyPrefix = options.keyPrefix;
    result->warning = leftBehind;
    return result;
}

} // namespace sluice::replay
