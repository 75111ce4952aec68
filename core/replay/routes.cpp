#include "routes.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace sluice::replay {

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

} // namespace sluice::replay
