// The replay engine (run(), replay.h).
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
//
// Its rooms: engine.cpp sets a run up; intake.cpp drives it, reading lines into the buffer
// (subjects, held jumps, the subject cap); deciding.cpp orders the buffer and decides it
// (handoff.h between the two threads), findings.cpp makes the report's figures; interner.h,
// routes.h and state.h are the tables they share.
#pragma once

#include "handoff.h"
#include "interner.h"
#include "logreader.h"
#include "replay.h"
#include "routes.h"
#include "state.h"

#include "core/common/network.h"

#include <QElapsedTimer>

#include <limits>
#include <memory>
#include <thread>
#include <vector>

namespace sluice::replay {

constexpr quint32 kNone = 0xFFFFFFFFu;    // no subject on the line (scope not logged, "-")
constexpr quint32 kTooLong = 0xFFFFFFFEu; // longer than maxSubjectBytes
constexpr quint32 kUnset = 0xFFFFFFFDu;   // not extracted yet
constexpr qint64 kCheckEvery = 65536;
// A line more than the reorder window + jumpUs ahead of its file's previous lines is a jump:
// replayed once the next jumpConfirmations lines of the file stay there, an outlier if one
// comes back before.
constexpr qint64 jumpUs = 60'000'000;
constexpr int jumpConfirmations = 2;
constexpr const char *lateReason =
    "earlier than the requests already replayed by more than the reorder window";

struct ScopeDef
{
    Scope::Kind kind = Scope::Kind::Global;
    QString name;  // header or parameter name as the rule gives it
    QString label; // Scope::toString()
    std::string param;
    Interner subjects;
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

// A line as a note's sample: at most 200 bytes, printable.
QString sampleOf(View line);
// "1.500 s".
QString seconds(qint64 us);

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
    // engine.cpp: the run's set-up and its checks
    Result<void> openFiles();
    int scopeIndex(const Scope &s);
    QStringList logGaps(const Rule &rule, const std::optional<Route> &route) const;
    void addRules(const RuleSet &set, const QString &setName, std::vector<RuleReport> &out);
    Result<void> periodic();
    void addWarning(const QString &w);
    Result<void> checkFirstLines(FilePlan &fp);
    Result<bool> afterRun(FilePlan &fp);
    // intake.cpp: the loop, lines into the buffer
    bool readLine(int file);
    void push(Event e, const quint32 *subjects);
    void releaseHeld(FilePlan &fp);
    void dropHeld(FilePlan &fp);
    View clientIp(const Record &r, const FilePlan &fp) const;
    quint32 subjectFor(int scope, const Record &r, const FilePlan &fp);
    void capReached(const ScopeDef &s, const FilePlan &fp);
    size_t defaultMaxSubjects() const;
    void note(std::vector<LineNote> &to, const FilePlan &fp, const char *why, View line);
    // findings.cpp: the report's figures
    void finishRule(RuleRun &run);
    void keepHeavy(RuleRun &run);
    void compareSets();
    // deciding.cpp: the buffer in time order, decided
    Result<void> flush(bool all);
    bool spreadSeconds(size_t n);
    void countDenialBin(RuleReport &rep, qint64 t);
    void forceCut(std::vector<Event>::iterator &cut);
    Result<void> decide(const Event *events, size_t n, const quint32 *subj);
    void startDecider();
    void stopDecider();
    Result<void> decideBatch();
    void account(RuleRun &run, Cell &st, int index, quint32 sid, qint64 t, int status,
                 const Decision &d);
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
    std::vector<net::Network> m_cidrs;   // --trust-proxies
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

} // namespace sluice::replay
