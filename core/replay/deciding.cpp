// The replay's buffer in time order (a whole second's requests spread over it), decided on the
// twins (here or on the deciding thread, through handoff.h) or in batches through a Limiter,
// and accounted per (rule, subject) (engine.h).
#include "engine.h"

#include "core/common/duration.h"
#include "core/limiter/limiter.h"

#include <algorithm>
#include <system_error>

using namespace Qt::StringLiterals;

namespace sluice::replay {

// The requests of each whole second among the first n, spread evenly over it, in log order;
// whether there was one.
bool Engine::spreadSeconds(size_t n)
{
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
    return spread;
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
        const bool spread = spreadSeconds(n);
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

// Denials per bin, from the first request; the bins widen to stay at most maxBins.
void Engine::countDenialBin(RuleReport &rep, qint64 t)
{
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
            run.closeWindow(sid, st);
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
        countDenialBin(rep, t);
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

} // namespace sluice::replay
