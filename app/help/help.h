#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// One source for every help text of both programs: `sluice-cli --help`, `sluice-cli CMD
// --help`, the usage line of a usage error, `sluice-console --help`, the man pages sluice-cli(1)
// and sluice-console(1), and the bash completion are all rendered from the Pages below
// (clipage.cpp, consolepage.cpp), so that none of them can say something the others do not.
namespace sluice::help {

struct Option
{
    QString names; // "--url URL", "--tls-cert FILE --tls-key FILE", "--json"
    QString text;  // one paragraph
};

struct Command
{
    QString name;            // "check"
    QString summary;         // one line, for the command list
    QStringList synopsis;    // one entry per form, each without the program name
    QStringList subcommands; // "fix" (keys), "validate", ... (rules): for the completion
    QString description;     // paragraphs separated by an empty line
    QList<Option> options;
    bool connects = false; // takes --url and so the connection options
};

struct Section
{
    QString heading; // "EXIT STATUS"
    QString text;    // paragraphs separated by an empty line; lines starting with "  " are kept
                     // as they are (an example)
};

struct Page
{
    QString program;      // "sluice-cli"
    QString title;        // what follows "program - " in NAME
    QStringList synopsis; // without the program name
    QString description;
    QString optionsHeading; // "CONNECTION OPTIONS" (every command with --url), or "OPTIONS"
    QList<Option> options;
    QList<Command> commands;
    QList<Section> sections; // after the commands: EXIT STATUS, ENVIRONMENT, FILES, SEE ALSO
};

const Page &cliPage();     // sluice-cli
const Page &consolePage(); // sluice

const Command *findCommand(const Page &page, const QString &name);

// `sluice-cli --help`: synopsis, the commands with their summaries, where to read more.
QString overview(const Page &page);
// `sluice-cli CMD --help`: the command's synopsis, description and options (plus the
// connection options when it connects).
QString commandHelp(const Page &page, const Command &command);
// "usage: sluice-cli check ...\n       sluice-cli check ..." without a final newline: what a
// usage error appends after its message. Empty for an unknown command.
QString usage(const Page &page, const QString &command);
// The whole page as troff (man(7)): NAME, SYNOPSIS, DESCRIPTION, the options, one subsection
// per command, then the page's sections.
QString manPage(const Page &page, const QString &version);
// A bash completion script for the page's program: commands, subcommands, each command's
// flags (and the connection flags where it connects), file names after flags taking FILE.
QString bashCompletion(const Page &page);
// The flags ("--url", "--json") that `names` of the options mention.
QStringList flagsOf(const QList<Option> &options);

} // namespace sluice::help
