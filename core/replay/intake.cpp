// The replay's loop over its files, and the lines into its buffer: each parsed, its rules
// found by route, its subjects interned (under the subject cap), a jump ahead held until
// confirmed (engine.h). One file, so that the compiler takes the per-line steps into the loop.
#include "engine.h"

#include <QFile>

#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {

// Whether `ip` is in one of the trusted networks.
bool inNetworks(View ip, const std::vector<net::Network> &networks)
{
    unsigned char a[16];
    const int size = networks.empty() ? 0 : net::parseAddress(ip, a);
    if (size == 0) {
        return false;
    }
    for (const net::Network &n : networks) {
        if (n.contains(a, size)) {
            return true;
        }
    }
    return false;
}

// What one subject costs a rule (FORMATS.md "replay").
qint64 bytesOf(const RuleRun &run)
{
    return qint64(bytesPerRuleSubject) +
           (run.algorithm == Algorithm::SlidingLog ? qint64(bytesPerSlidingLogSubject) : 0);
}

} // namespace

[[gnu::always_inline]] inline View Engine::clientIp(const Record &r, const FilePlan &fp) const
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
            if (!inNetworks(chain[i], m_cidrs)) {
                return chain[i];
            }
        }
        return chain[0];
    }
    return chain[std::max(0, n - 1 - m_o.trustProxies)];
}

[[gnu::always_inline]] inline quint32 Engine::subjectFor(int scope, const Record &r,
                                                         const FilePlan &fp)
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
[[gnu::always_inline]] inline bool Engine::readLine(int file)
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

} // namespace sluice::replay
