#pragma once

// Which rules take a request (a rule's route: "[METHOD] /path prefix"), and the fields of a
// request line a scope reads its subject from (a query parameter, a list's trimmed item).

#include "logformat.h"

#include <QString>

#include <optional>
#include <string>

namespace sluice::replay {

struct Route
{
    bool all = true;
    std::string method; // empty: any
    std::string prefix;
};

// A rule's route, or nullopt if it is not "[METHOD] /path" (a trailing '*' is the prefix's).
std::optional<Route> parseRoute(const QString &route);

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

// The value of query parameter `name` in `path` (empty if it is not there).
View paramOf(View path, const std::string &name);

} // namespace sluice::replay
