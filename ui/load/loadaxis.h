#pragma once

#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sluice::ui::loadaxis {

// 1, 2, 5, 10, 20, ... at or above v: steps that make round tick labels.
inline double niceStep(double v)
{
    if (v <= 1) {
        return 1;
    }
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * p >= v) {
            return m * p;
        }
    }
    return 10 * p;
}

// Round ticks from 0 to at least `top`, about four of them.
inline void fitAxis(QValueAxis *axis, double top)
{
    const double step = niceStep(std::max(top, 1.0) / 4);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setRange(0, std::max(step, std::ceil(top / step) * step));
}

} // namespace sluice::ui::loadaxis
