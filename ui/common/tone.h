#pragma once

#include <QColor>
#include <QString>

namespace sluice::ui {

// The console's tones, in one place: every banner, badge, chart mark and status dot takes its
// colour from here, so that "good" is the same green on every page.
enum class Tone { Info, Good, Warning, Bad };

namespace tone {

// The strong colour: a banner's left border, a status dot, a chart's alarm line.
inline QColor color(Tone t)
{
    switch (t) {
    case Tone::Good:
        return QColor(0x2e, 0x9d, 0x4f);
    case Tone::Warning:
        return QColor(0xe0, 0x9a, 0x10);
    case Tone::Bad:
        return QColor(0xc0, 0x39, 0x2b);
    case Tone::Info:
        break;
    }
    return QColor(0x8a, 0x92, 0x9c);
}

// The pale background of a banner in that tone.
inline QColor background(Tone t)
{
    switch (t) {
    case Tone::Good:
        return QColor(0xee, 0xf8, 0xf1);
    case Tone::Warning:
        return QColor(0xfd, 0xf6, 0xe7);
    case Tone::Bad:
        return QColor(0xfb, 0xee, 0xec);
    case Tone::Info:
        break;
    }
    return QColor(0xf3, 0xf5, 0xf7);
}

// Text in that tone on a light background (darker than color(), for contrast).
inline QColor text(Tone t)
{
    switch (t) {
    case Tone::Good:
        return QColor(0x1f, 0x6e, 0x37);
    case Tone::Warning:
        return QColor(0x8a, 0x5a, 0x00);
    case Tone::Bad:
        return QColor(0xb0, 0x3a, 0x2e);
    case Tone::Info:
        break;
    }
    return QColor(0x5f, 0x67, 0x70);
}

// The mark before a headline, so that the tone does not rest on colour alone.
inline QString mark(Tone t)
{
    switch (t) {
    case Tone::Good:
        return QStringLiteral(u"\u2713 ");
    case Tone::Warning:
        return QStringLiteral(u"\u26a0 ");
    case Tone::Bad:
        return QStringLiteral(u"\u2717 ");
    case Tone::Info:
        break;
    }
    return {};
}

// Secondary text: blurbs, notes, units, a banner's detail line.
inline QColor muted()
{
    return QColor(0x5f, 0x67, 0x70);
}

// Body text on a banner's pale background.
inline QColor ink()
{
    return QColor(0x1d, 0x23, 0x29);
}

// "#rrggbb", for style sheets and rich text.
inline QString hex(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

} // namespace tone

} // namespace sluice::ui
