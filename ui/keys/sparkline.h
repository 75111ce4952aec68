#pragma once

#include <QWidget>

#include <deque>

namespace sluice::ui {

// A small line of the last minute of one number (the Keys details: how much of its limit a
// key had used, read once a second while its details are open). Points older than the span
// fall off; the y axis runs from 0 to `ceiling` (the limit), so a full key touches the top.
// GUI thread; paints only, no I/O.
class Sparkline : public QWidget
{
    Q_OBJECT
public:
    explicit Sparkline(QWidget *parent = nullptr);

    // `atUs`: the time of the reading (server TIME, us); readings must not go back in time
    // (an older one is ignored). `ceiling` <= 0: scaled to the largest value.
    void add(qint64 atUs, double value, double ceiling);
    void clear();
    qsizetype size() const { return qsizetype(m_points.size()); }
    // How far back the line reaches, in seconds.
    static constexpr qint64 spanS = 60;

    QSize sizeHint() const override { return {240, 36}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Point
    {
        qint64 atUs;
        double value;
    };
    std::deque<Point> m_points;
    double m_ceiling = 0;
};

} // namespace sluice::ui
