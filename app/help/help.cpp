#include "app/help/help.h"

#include <QRegularExpression>

namespace sluice::help {

namespace {

constexpr int width = 79;

// Paragraphs separated by an empty line; a paragraph whose lines start with two spaces is an
// example and is kept as it is.
QStringList paragraphs(const QString &text)
{
    return text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts);
}

bool isExample(const QString &paragraph)
{
    return paragraph.startsWith(QStringLiteral("  "));
}

// Fills the words of `text` into lines of at most `width` columns, each starting with
// `indent` spaces (the first with `first` columns taken already when first >= 0).
QString fill(const QString &text, int indent)
{
    const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QString out;
    QString line;
    for (const QString &w : words) {
        if (!line.isEmpty() && indent + line.size() + 1 + w.size() > width) {
            out += QString(indent, QLatin1Char(' ')) + line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + w;
    }
    if (!line.isEmpty()) {
        out += QString(indent, QLatin1Char(' ')) + line + QLatin1Char('\n');
    }
    return out;
}

QString textBlock(const QString &text, int indent)
{
    QStringList out;
    for (const QString &p : paragraphs(text)) {
        if (isExample(p)) {
            QString kept;
            for (const QString &l : p.split(QLatin1Char('\n'))) {
                kept += QString(indent, QLatin1Char(' ')) + l + QLatin1Char('\n');
            }
            out << kept;
        } else {
            out << fill(p, indent);
        }
    }
    return out.join(QLatin1Char('\n'));
}

QString optionsText(const QList<Option> &options)
{
    QString out;
    for (const Option &o : options) {
        out += QStringLiteral("  ") + o.names + QLatin1Char('\n') + fill(o.text, 6);
    }
    return out;
}

QString synopsisText(const QString &program, const QStringList &forms, const QString &lead)
{
    QString out;
    for (qsizetype i = 0; i < forms.size(); ++i) {
        const QString head = i == 0 ? lead : QString(lead.size(), QLatin1Char(' '));
        out += head + program + QLatin1Char(' ') + forms[i] + QLatin1Char('\n');
    }
    return out;
}

// troff: a backslash, a hyphen (else typeset as a hyphen, not a minus: breaks copy and
// paste of flags), a leading dot or quote (else read as a request).
QString roff(const QString &text)
{
    QString s = text;
    s.replace(QLatin1Char('\\'), QStringLiteral("\\e"));
    s.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    QStringList lines = s.split(QLatin1Char('\n'));
    for (QString &l : lines) {
        if (l.startsWith(QLatin1Char('.')) || l.startsWith(QLatin1Char('\''))) {
            l.prepend(QStringLiteral("\\&"));
        }
    }
    return lines.join(QLatin1Char('\n'));
}

// Filled text may break after a slash or a comma (long URLs), never inside a flag.
QString breakable(const QString &roffText)
{
    QString s = roffText;
    s.replace(QLatin1Char('/'), QStringLiteral("/\\:"));
    s.replace(QLatin1Char(','), QStringLiteral(",\\:"));
    return s;
}

QString roffParagraphs(const QString &text)
{
    QString out;
    for (const QString &p : paragraphs(text)) {
        if (isExample(p)) {
            out += QStringLiteral(".PP\n.nf\n.RS 4\n") + roff(p) + QStringLiteral("\n.RE\n.fi\n");
        } else {
            out += QStringLiteral(".PP\n") + breakable(roff(p.simplified())) + QLatin1Char('\n');
        }
    }
    return out;
}

QString roffOptions(const QList<Option> &options)
{
    QString out;
    for (const Option &o : options) {
        out += QStringLiteral(".TP\n.B ") + roff(o.names) + QLatin1Char('\n') +
               breakable(roff(o.text.simplified())) + QLatin1Char('\n');
    }
    return out;
}

QString roffSynopsis(const QString &program, const QStringList &forms)
{
    QString out;
    for (const QString &f : forms) {
        out += QStringLiteral(".PP\n.nf\n\\fB") + roff(program) + QStringLiteral("\\fR ") +
               roff(f) + QStringLiteral("\n.fi\n");
    }
    return out;
}

} // namespace

const Command *findCommand(const Page &page, const QString &name)
{
    for (const Command &c : page.commands) {
        if (c.name == name) {
            return &c;
        }
    }
    return nullptr;
}

QString overview(const Page &page)
{
    QString out = synopsisText(page.program, page.synopsis, QStringLiteral("usage: "));
    out += QLatin1Char('\n') + textBlock(page.description, 0);
    if (!page.commands.isEmpty()) {
        out += QStringLiteral("\ncommands:\n");
        for (const Command &c : page.commands) {
            out += QStringLiteral("  %1").arg(c.name, -10) + c.summary + QLatin1Char('\n');
        }
        out += QStringLiteral("\n'%1 COMMAND --help' shows a command's options; "
                              "'man %1' has them all.\n")
                   .arg(page.program);
    }
    if (!page.options.isEmpty()) {
        out += QLatin1Char('\n') + page.optionsHeading.toLower() + QStringLiteral(":\n") +
               optionsText(page.options);
    }
    for (const Section &s : page.sections) {
        out +=
            QLatin1Char('\n') + s.heading.toLower() + QStringLiteral(":\n") + textBlock(s.text, 2);
    }
    return out;
}

QString commandHelp(const Page &page, const Command &command)
{
    QString out = synopsisText(page.program, command.synopsis, QStringLiteral("usage: "));
    out += QLatin1Char('\n') + textBlock(command.description, 0);
    if (!command.options.isEmpty()) {
        out += QStringLiteral("\noptions:\n") + optionsText(command.options);
    }
    if (command.connects) {
        out += QLatin1Char('\n') + page.optionsHeading.toLower() + QStringLiteral(":\n") +
               optionsText(page.options);
    }
    return out;
}

QString usage(const Page &page, const QString &command)
{
    const Command *c = findCommand(page, command);
    if (c == nullptr) {
        return {};
    }
    return synopsisText(page.program, c->synopsis, QStringLiteral("usage: ")).chopped(1);
}

QString manPage(const Page &page, const QString &version)
{
    QString out = QStringLiteral(".\\\" Generated from app/help (%1 --help's source); do not "
                                 "edit.\n")
                      .arg(page.program);
    out += QStringLiteral(".TH %1 1 \"\" \"Sluice %2\" \"User Commands\"\n")
               .arg(page.program.toUpper(), version);
    out += QStringLiteral(".SH NAME\n") + roff(page.program) + QStringLiteral(" \\- ") +
           roff(page.title) +
           QStringLiteral("\n.\\\" URLs and flags are not to be hyphenated\n.nh\n.ad l\n");
    out += QStringLiteral(".SH SYNOPSIS\n") + roffSynopsis(page.program, page.synopsis);
    out += QStringLiteral(".SH DESCRIPTION\n") + roffParagraphs(page.description);
    if (!page.options.isEmpty()) {
        out += QStringLiteral(".SH ") + page.optionsHeading + QLatin1Char('\n') +
               roffOptions(page.options);
    }
    if (!page.commands.isEmpty()) {
        out += QStringLiteral(".SH COMMANDS\n");
        for (const Command &c : page.commands) {
            out += QStringLiteral(".SS ") + roff(c.name) + QLatin1Char('\n') +
                   roffSynopsis(page.program, c.synopsis) + roffParagraphs(c.description) +
                   roffOptions(c.options);
            if (c.connects) {
                out += QStringLiteral(".PP\nand the ") + roff(page.optionsHeading.toLower()) +
                       QStringLiteral(" above.\n");
            }
        }
    }
    for (const Section &s : page.sections) {
        out += QStringLiteral(".SH ") + s.heading + QLatin1Char('\n') + roffParagraphs(s.text);
    }
    return out;
}

QStringList flagsOf(const QList<Option> &options)
{
    static const QRegularExpression flag(QStringLiteral("(?<![\\w-])(--?[a-z][a-z0-9-]*)"));
    QStringList out;
    for (const Option &o : options) {
        auto it = flag.globalMatch(o.names);
        while (it.hasNext()) {
            const QString f = it.next().captured(1);
            if (!out.contains(f)) {
                out << f;
            }
        }
    }
    return out;
}

QString bashCompletion(const Page &page)
{
    // Flags whose value is a file: complete file names after them.
    QStringList fileFlags;
    auto collectFileFlags = [&](const QList<Option> &options) {
        static const QRegularExpression fileArg(
            QStringLiteral("(--[a-z0-9-]+)[ =](FILE|F|SCENARIO|DIR)\\b"));
        for (const Option &o : options) {
            auto it = fileArg.globalMatch(o.names);
            while (it.hasNext()) {
                const QString f = it.next().captured(1);
                if (!fileFlags.contains(f)) {
                    fileFlags << f;
                }
            }
        }
    };
    collectFileFlags(page.options);
    QString fn = QStringLiteral("_") + page.program;
    fn.replace(QLatin1Char('-'), QLatin1Char('_'));
    QString out = QStringLiteral("# bash completion for %1. Generated from app/help (the source "
                                 "of %1 --help); do not edit.\n")
                      .arg(page.program);
    out += fn + QStringLiteral("()\n{\n    local cur prev cmd\n"
                               "    cur=${COMP_WORDS[COMP_CWORD]}\n"
                               "    prev=${COMP_WORDS[COMP_CWORD-1]}\n"
                               "    cmd=${COMP_WORDS[1]}\n");
    QStringList names;
    for (const Command &c : page.commands) {
        names << c.name;
        collectFileFlags(c.options);
    }
    out += QStringLiteral("    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
                          "        COMPREPLY=($(compgen -W \"%1 help --help --version\" -- "
                          "\"$cur\"))\n        return\n    fi\n")
               .arg(names.join(QLatin1Char(' ')));
    out += QStringLiteral("    case $prev in\n        %1)\n"
                          "            COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                          "            return\n            ;;\n    esac\n")
               .arg(fileFlags.join(QLatin1Char('|')));
    const QString connection = flagsOf(page.options).join(QLatin1Char(' '));
    out += QStringLiteral("    local flags subs\n    case $cmd in\n");
    for (const Command &c : page.commands) {
        QStringList flags = flagsOf(c.options);
        flags << QStringLiteral("--help");
        out += QStringLiteral("        %1) flags=\"%2%3\" subs=\"%4\" ;;\n")
                   .arg(c.name, flags.join(QLatin1Char(' ')),
                        c.connects ? QLatin1Char(' ') + connection : QString(),
                        c.subcommands.join(QLatin1Char(' ')));
    }
    out +=
        QStringLiteral("        help) flags=\"\" subs=\"%1\" ;;\n        *) return ;;\n    esac\n")
            .arg(names.join(QLatin1Char(' ')));
    out += QStringLiteral("    if [[ $cur == -* ]]; then\n"
                          "        COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\"))\n"
                          "    elif [ \"$COMP_CWORD\" -eq 2 ] && [ -n \"$subs\" ]; then\n"
                          "        COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
                          "    else\n"
                          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
                          "    fi\n}\n");
    out += QStringLiteral("complete -o filenames -F %1 %2\n").arg(fn, page.program);
    return out;
}

} // namespace sluice::help
