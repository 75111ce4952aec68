// The replay's figures once every request is decided: per rule the peaks, their quantiles, the
// most denied subjects and the candidate limits; the two rule sets side by side (engine.h).
#include "engine.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {

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

} // namespace

void Engine::finish()
{
    for (RuleRun &run : m_runs) {
        finishRule(run);
    }
    if (m_o.against) {
        compareSets();
    }
    m_rep.wallSeconds = double(m_wall.nsecsElapsed()) / 1e9;
}

// A rule's figures: its peaks and their quantiles, the most denied subjects, the window
// counts and the candidate limits.
void Engine::finishRule(RuleRun &run)
{
    RuleReport &rep = *run.rep;
    rep.digest = run.digest;
    std::vector<size_t> denied;
    rep.peaks.reserve(size_t(rep.subjects));
    for (size_t sid = 0; sid < run.cells.size(); ++sid) {
        const Cell &st = run.cells[sid];
        if (st.matched == 0) {
            continue;
        }
        run.closeWindow(quint32(sid), st);
        rep.peaks.push_back(st.peak);
        if (st.denied > 0) {
            denied.push_back(sid);
        }
    }
    std::sort(rep.peaks.begin(), rep.peaks.end());
    keepHeavy(run);
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
        rep.top.push_back(DeniedSubject{QByteArray(name.data(), qsizetype(name.size())), st.matched,
                                        st.denied, st.firstUs, st.lastUs});
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

// The highest peaks, named, with their requests and window counts.
void Engine::keepHeavy(RuleRun &run)
{
    RuleReport &rep = *run.rep;
    rep.heavyDropped = run.heavy.dropped();
    const Interner &names = m_scopes[size_t(run.scope)]->subjects;
    for (const PeakTop::Entry &e : run.heavy.entries()) {
        HeavySubject h;
        const View name = names.name(e.sid);
        h.subject = QByteArray(name.data(), qsizetype(name.size()));
        h.peak = e.peak;
        h.requests = run.cells[e.sid].matched;
        h.windows.assign(e.windows.begin(), e.windows.begin() + e.kept);
        std::sort(h.windows.begin(), h.windows.end(), std::greater<>());
        h.floor = e.floor;
        rep.heavy.push_back(std::move(h));
    }
    run.heavy = PeakTop(0);
}

// Side by side: subjects denied under one set and not the other.
void Engine::compareSets()
{
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

} // namespace sluice::replay

namespace sluice::replay {

WouldDeny RuleReport::wouldDeny(qint64 candidateLimit, int count) const
{
    WouldDeny w;
    w.above = shares(candidateLimit).subjects;
    qint64 keptAbove = 0;
    for (const HeavySubject &h : heavy) {
        if (h.peak <= candidateLimit) {
            continue;
        }
        ++keptAbove;
        WouldDeny::Subject s{h.subject, h.peak, h.requests, 0};
        for (const auto &[c, n] : h.windows) {
            s.denied += std::max<qint64>(0, qint64(c) - candidateLimit) * qint64(n);
        }
        if (h.floor > candidateLimit) {
            w.approximate = true;
        }
        w.subjects.push_back(std::move(s));
    }
    w.approximate = w.approximate || keptAbove < w.above;
    std::stable_sort(w.subjects.begin(), w.subjects.end(),
                     [](const WouldDeny::Subject &a, const WouldDeny::Subject &b) {
                         return a.denied != b.denied ? a.denied > b.denied : a.peak > b.peak;
                     });
    if (w.subjects.size() > size_t(std::max(0, count))) {
        w.subjects.resize(size_t(std::max(0, count)));
    }
    return w;
}

} // namespace sluice::replay
