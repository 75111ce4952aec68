#pragma once

#include "tone.h"

#include <QString>

namespace sluice::ui {

// The one message type of every page session: what the last action or event came to, in a
// tone. Widget-free (sessions keep and emit it, tests read it); MessageBanner::show draws it.
// An empty message (no headline, no detail) means "nothing to say": the banner hides.
struct PageMessage
{
    // How the banner sets the words.
    enum class Form {
        Headline, // the headline in bold after the tone's mark, the detail muted under it
        Plain,    // the headline as plain text, no mark (the detail is ignored)
        Bold,     // the headline as plain text in bold, no mark: the banner's icon is the mark
        Rich,     // the headline is rich text as given (the writer escapes and marks it)
    };

    Tone tone = Tone::Info;
    QString headline;
    QString detail;  // Headline form: the line(s) under the headline
    QString tooltip; // the long version, on the text (a fix's key list)
    Form form = Form::Headline;

    bool isEmpty() const { return headline.isEmpty() && detail.isEmpty(); }
    // Headline and detail as plain text, with the mark: the common shape.
    static PageMessage headlined(Tone t, const QString &headline, const QString &detail = {})
    {
        return {t, headline, detail, {}, Form::Headline};
    }
    static PageMessage plain(Tone t, const QString &text, const QString &tooltip = {})
    {
        return {t, text, {}, tooltip, Form::Plain};
    }
    static PageMessage bold(Tone t, const QString &text) { return {t, text, {}, {}, Form::Bold}; }
    static PageMessage rich(Tone t, const QString &html) { return {t, html, {}, {}, Form::Rich}; }

    bool operator==(const PageMessage &) const = default;
};

} // namespace sluice::ui
