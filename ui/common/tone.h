#pragma once

#include <QColor>
#include <QString>

#include <algorithm>
#include <cmath>

namespace sluice::ui {

// The console's tones, in one place: every banner, badge, chart mark and status dot takes its
// colour from here, so that "good" is the same green on every page. Each colour has a light
// and a dark variant; Theme (theme.h) says which one is in use, and widgets that keep a colour
// (style sheets, charts) take it again on Theme::changed.
enum class Tone { Info, Good, Warning, Bad };

namespace tone {

// The dark variants are in use (Theme sets it; the figures' PNGs are drawn light unless told).
inline bool &darkFlag()
{
    static bool dark = false;
    return dark;
}
inline bool isDark()
{
    return darkFlag();
}
// The light or the dark variant.
inline QColor pick(QRgb light, QRgb dark)
{
    return QColor::fromRgb(isDark() ? dark : light);
}

// One tone's colours, each a light and a dark variant, and its mark.
struct ToneStyle
{
    QRgb color[2];
    QRgb background[2];
    QRgb text[2];
    const char16_t *mark;
};

// In the order of Tone.
inline const ToneStyle &style(Tone t)
{
    static constexpr ToneStyle styles[] = {
        {{0x8a929c, 0x8a929c}, {0xf3f5f7, 0x262b32}, {0x5f6770, 0xa9b1ba}, u""},
        {{0x2e9d4f, 0x4cc26e}, {0xeef8f1, 0x1b2e22}, {0x1f6e37, 0x7fd699}, u"\u2713 "},
        {{0xe09a10, 0xf0b43c}, {0xfdf6e7, 0x352b17}, {0x8a5a00, 0xf3c46b}, u"\u26a0 "},
        {{0xc0392b, 0xe8655a}, {0xfbeeec, 0x3a201d}, {0xb03a2e, 0xf08a80}, u"\u2717 "},
    };
    return styles[int(t)];
}

// The strong colour: a banner's left border, a status dot, a chart's alarm line.
inline QColor color(Tone t)
{
    return pick(style(t).color[0], style(t).color[1]);
}

// The pale background of a banner in that tone.
inline QColor background(Tone t)
{
    return pick(style(t).background[0], style(t).background[1]);
}

// Text in that tone on the window's background (darker than color() on light, lighter on
// dark, for contrast).
inline QColor text(Tone t)
{
    return pick(style(t).text[0], style(t).text[1]);
}

// The mark before a headline, so that the tone does not rest on colour alone (none for Info).
inline QString mark(Tone t)
{
    const char16_t *m = style(t).mark;
    return *m ? QString::fromUtf16(m) : QString();
}

// Secondary text: blurbs, notes, units, a banner's detail line.
inline QColor muted()
{
    return pick(0x5f6770, 0xa0a8b2);
}

// Body text on a banner's pale background.
inline QColor ink()
{
    return pick(0x1d2329, 0xe6e9ee);
}

// A chart's or a figure's background.
inline QColor surface()
{
    return pick(0xffffff, 0x1b1f24);
}

// A chart's grid lines.
inline QColor grid()
{
    return pick(0xe6e9ed, 0x343a42);
}

// A chart's axis line, a frame around a panel.
inline QColor line()
{
    return pick(0xc8cdd3, 0x4a515a);
}

// A boxed panel's background (a preview, a code block) and its border.
inline QColor panel()
{
    return pick(0xf5f7f9, 0x252a31);
}
inline QColor border()
{
    return pick(0xdde2e7, 0x3a4049);
}

// The track a bar runs in (a TTL bar's empty part).
inline QColor track()
{
    return pick(0xe4e7eb, 0x333941);
}

// Something that is no longer there (a gone key, an empty bar).
inline QColor faint()
{
    return pick(0x9aa0a6, 0x79818a);
}

// The console's blue: a selection, a neutral series, a bar.
inline QColor accent()
{
    return pick(0x3b6fb6, 0x5b8fd6);
}

// A third kind beside good and bad: a shadow rule, a key of the wrong type.
inline QColor violet()
{
    return pick(0x6b4fa8, 0xb09af0);
}

// The status bar when the connection is lost (Warning) or gone (Bad): a strong fill that is
// seen from across the room, and the text on it. Other tones: the window's own.
inline QColor barFill(Tone t)
{
    return t == Tone::Bad ? pick(0xf3c4bd, 0x6a2621) : pick(0xf6c453, 0x6a5114);
}
inline QColor barText(Tone t)
{
    return t == Tone::Bad ? pick(0x4a0f08, 0xffd9d3) : pick(0x2b2100, 0xffe9b0);
}

// The navigation column, dark in both themes: its background, the row under the pointer, its
// text, and the selected row (the accent, with white text).
inline QColor navBackground()
{
    return pick(0x262a31, 0x15181c);
}
inline QColor navHover()
{
    return pick(0x323843, 0x262b32);
}
inline QColor navText()
{
    return pick(0xd8dde6, 0xd8dde6);
}
inline QColor navSelected()
{
    return pick(0x2f5f9e, 0x2f5f9e);
}

// A selected row's background in every view (white text on it reads at 6.5:1).
inline QColor selection()
{
    return navSelected();
}

// The n-th of the charts' series colours (one per rule), readable on surface().
inline QColor series(int n)
{
    static constexpr QRgb light[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x59a14f, 0x76b7b2,
                                     0xb07aa1, 0xedc948, 0x9c755f, 0xff9da7};
    static constexpr QRgb dark[] = {0x6f9bd1, 0xf5a04d, 0xee7678, 0x79c06e, 0x8fd0ca,
                                    0xc99bbd, 0xf2d66a, 0xbf9a84, 0xffb3bb};
    const int i = ((n % 9) + 9) % 9;
    return pick(light[i], dark[i]);
}

// The contrast of two colours, 1 to 21 (WCAG 2's relative luminance): text needs 4.5.
inline double contrast(const QColor &a, const QColor &b)
{
    const auto luminance = [](const QColor &c) {
        const auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
               0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// "#rrggbb", for style sheets and rich text.
inline QString hex(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

} // namespace tone

} // namespace sluice::ui
