// The help cannot drift: `sluice-cli --help`, every `sluice-cli CMD --help`, the
// usage line of a usage error, the man pages and the bash completion that the build installs
// are app/help's rendering of one source; every command sluice-cli dispatches and every flag
// a command accepts (its Args::parse list in app/cli/<command>.cpp) is documented there, and
// nothing is documented that the command does not accept. Also --version of both programs.
#include "runcli.h"

#include "app/help/help.h"
#include "ui/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace sluice;
using namespace sluice::help;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString source(const QString &relative)
{
    return QString::fromUtf8(readFile(QStringLiteral(SLUICE_SOURCE_DIR "/") + relative));
}

// The flags of every Args::parse({...}) list in a source file: {"name", true|false}.
QStringList acceptedFlags(const QString &text)
{
    static const QRegularExpression flag(QStringLiteral("\\{\"([a-z0-9-]+)\",\\s*(true|false)\\}"));
    QStringList out;
    auto it = flag.globalMatch(text);
    while (it.hasNext()) {
        out << QStringLiteral("--") + it.next().captured(1);
    }
    out.removeDuplicates();
    return out;
}

struct Run
{
    int code;
    QByteArray out, err;
};

Run run(const QString &program, const QStringList &args, const QProcessEnvironment &env = {})
{
    QProcess p;
    if (!env.isEmpty()) {
        p.setProcessEnvironment(env);
    }
    p.start(program, args);
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, {}};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

} // namespace

class TestManpage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void overviewIsTheHelp()
    {
        const auto r = test::runCli({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.out), overview(cliPage()));
        for (const Command &c : cliPage().commands) {
            QVERIFY2(r.out.contains("  " + c.name.toUtf8()), qPrintable(c.name));
        }
        // No command: the same overview, on stderr, exit 2.
        const auto none = test::runCli({});
        QCOMPARE(none.exitCode, 2);
        QCOMPARE(QString::fromUtf8(none.err), overview(cliPage()));
    }

    void everyDispatchedCommandHasHelp()
    {
        static const QRegularExpression dispatch(QStringLiteral("cmd == \"([a-z][a-z-]*)\""));
        auto it = dispatch.globalMatch(source(QStringLiteral("app/cli_main.cpp")));
        int n = 0;
        while (it.hasNext()) {
            const QString name = it.next().captured(1);
            if (name == QLatin1String("help") || name == QLatin1String("version")) {
                continue; // help [CMD] and version: the help itself
            }
            QVERIFY2(
                findCommand(cliPage(), name) != nullptr,
                qPrintable(
                    QStringLiteral("sluice-cli %1 has no help in app/help/clipage.cpp").arg(name)));
            ++n;
        }
        QVERIFY(n >= 7);
    }

    void commandHelp_data()
    {
        QTest::addColumn<QString>("name");
        for (const Command &c : cliPage().commands) {
            QTest::newRow(qPrintable(c.name)) << c.name;
        }
    }
    void commandHelp()
    {
        QFETCH(QString, name);
        const Command &c = *findCommand(cliPage(), name);
        const QString expected = help::commandHelp(cliPage(), c);
        // CMD --help, CMD -h and help CMD print the same, exit 0.
        for (const QStringList &args :
             {QStringList{name, QStringLiteral("--help")}, QStringList{name, QStringLiteral("-h")},
              QStringList{QStringLiteral("help"), name}}) {
            const auto r = test::runCli(args);
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(QString::fromUtf8(r.out), expected);
        }
        // A usage error ends with the same synopsis.
        const auto bad = test::runCli({name, QStringLiteral("--no-such-flag")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(QString::fromUtf8(bad.err).contains(usage(cliPage(), name)), bad.err.constData());

        // Every flag the command's source accepts is documented, and every documented flag is
        // accepted.
        const QString file = QStringLiteral("app/cli/%1.cpp").arg(name);
        QVERIFY2(QFile::exists(QStringLiteral(SLUICE_SOURCE_DIR "/") + file), qPrintable(file));
        const QStringList accepted = acceptedFlags(source(file));
        QVERIFY(!accepted.isEmpty());
        QStringList documented = flagsOf(c.options);
        if (c.connects) {
            documented << flagsOf(cliPage().options);
        }
        for (const QString &f : accepted) {
            QVERIFY2(documented.contains(f),
                     qPrintable(QStringLiteral("sluice-cli %1 accepts %2 (%3) but its help in "
                                               "app/help/clipage.cpp does not say it")
                                    .arg(name, f, file)));
        }
        const QStringList connection =
            acceptedFlags(source(QStringLiteral("app/cli/connectflags.cpp"))) +
            QStringList{QStringLiteral("--url")};
        for (const QString &f : flagsOf(c.options)) {
            QVERIFY2(accepted.contains(f) || connection.contains(f),
                     qPrintable(QStringLiteral("the help of sluice-cli %1 documents %2, which %3 "
                                               "does not accept")
                                    .arg(name, f, file)));
        }
    }

    void connectionOptionsAreDocumented()
    {
        const QStringList documented = flagsOf(cliPage().options);
        for (const QString &f : acceptedFlags(source(QStringLiteral("app/cli/connectflags.cpp")))) {
            QVERIFY2(documented.contains(f), qPrintable(f));
        }
    }

    void installedFilesAreTheRendering()
    {
        // What the build wrote for install (app/help/CMakeLists.txt) is the rendering of the
        // same pages: regenerated on every build, compared here byte for byte.
        const QString share = QStringLiteral(SLUICE_BINARY_DIR "/share/");
        const QString version =
            QString::fromUtf8(test::runCli({QStringLiteral("--version")}).out.split(' ').value(1));
        QVERIFY(!version.isEmpty());
        const QString cliMan =
            QString::fromUtf8(readFile(share + QStringLiteral("man/sluice-cli.1")));
        QCOMPARE(cliMan, manPage(cliPage(), version));
        QCOMPARE(QString::fromUtf8(readFile(share + QStringLiteral("man/sluice-console.1"))),
                 manPage(consolePage(), version));
        QCOMPARE(QString::fromUtf8(readFile(share + QStringLiteral("completion/sluice-cli"))),
                 bashCompletion(cliPage()));
        // One subsection per command, every option of it in the page.
        for (const Command &c : cliPage().commands) {
            QVERIFY2(cliMan.contains(QStringLiteral("\n.SS ") + c.name + u'\n'),
                     qPrintable(c.name));
            for (const QString &f : flagsOf(c.options)) {
                QString roffFlag = f;
                roffFlag.replace(QLatin1Char('-'), QStringLiteral("\\-"));
                QVERIFY2(cliMan.contains(roffFlag), qPrintable(f));
            }
        }
        // man itself reads them without a warning.
        if (QFile::exists(QStringLiteral("/usr/bin/man"))) {
            for (const QString &page :
                 {QStringLiteral("sluice-cli.1"), QStringLiteral("sluice-console.1")}) {
                const Run r = run(QStringLiteral("/usr/bin/man"),
                                  {QStringLiteral("--warnings"), QStringLiteral("-E"),
                                   QStringLiteral("UTF-8"), QStringLiteral("-l"),
                                   share + QStringLiteral("man/") + page});
                QCOMPARE(r.code, 0);
                QVERIFY2(r.err.isEmpty(), r.err.constData());
                QVERIFY(r.out.contains("COMMAND") || page == QLatin1String("sluice-console.1"));
            }
        }
    }

    void completion()
    {
        const QString script = QStringLiteral(SLUICE_BINARY_DIR "/share/completion/sluice-cli");
        auto complete = [&](const QString &words, int cword) {
            const Run r = run(QStringLiteral("bash"),
                              {QStringLiteral("-c"),
                               QStringLiteral("source '%1'; COMP_WORDS=(%2); COMP_CWORD=%3; "
                                              "_sluice_cli; echo \"${COMPREPLY[*]}\"")
                                   .arg(script, words)
                                   .arg(cword)});
            return QString::fromUtf8(r.out).trimmed();
        };
        QCOMPARE(complete(QStringLiteral("sluice-cli ch"), 1), QStringLiteral("check"));
        QCOMPARE(complete(QStringLiteral("sluice-cli keys f"), 2), QStringLiteral("fix"));
        QCOMPARE(complete(QStringLiteral("sluice-cli serve --listen-tls-k"), 2),
                 QStringLiteral("--listen-tls-key"));
        QVERIFY(complete(QStringLiteral("sluice-cli check --tls-"), 2)
                    .split(u' ')
                    .contains(QStringLiteral("--tls-ca")));
    }

    void versions()
    {
        static const QRegularExpression line(
            QStringLiteral("^%1 \\d+\\.\\d+\\.\\d+ \\(git ([0-9a-f]{7,}(-dirty)?|unknown)\\)\n$"));
        const auto cli = test::runCli({QStringLiteral("--version")});
        QCOMPARE(cli.exitCode, 0);
        QVERIFY2(QRegularExpression(line.pattern().arg(QStringLiteral("sluice-cli")))
                     .match(QString::fromUtf8(cli.out))
                     .hasMatch(),
                 cli.out.constData());
        const Run console = run(QStringLiteral(SLUICE_CONSOLE), {QStringLiteral("--version")});
        QCOMPARE(console.code, 0);
        QVERIFY2(QRegularExpression(line.pattern().arg(QStringLiteral("Sluice")))
                     .match(QString::fromUtf8(console.out))
                     .hasMatch(),
                 console.out.constData());
    }

    void aboutShowsTheVersion()
    {
        // main() sets the application version from app/version; the About box shows it.
        const QString before = QCoreApplication::applicationVersion();
        QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7 (git 0123456789ab)"));
        QCOMPARE(ui::MainWindow::aboutVersion(),
                 QStringLiteral("Version 9.8.7 (git 0123456789ab)"));
        QCoreApplication::setApplicationVersion(QString());
        QCOMPARE(ui::MainWindow::aboutVersion(), QStringLiteral("Version unknown"));
        QCoreApplication::setApplicationVersion(before);
    }

    void consoleHelpIsThePage()
    {
        const Run r = run(QStringLiteral(SLUICE_CONSOLE), {QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        for (const QString &f : flagsOf(consolePage().options)) {
            QVERIFY2(r.out.contains(f.toUtf8()), qPrintable(f));
        }
        QVERIFY(r.out.contains(consolePage().options.first().text.left(30).toUtf8()));
    }

    void consoleWithoutDisplay()
    {
        // No DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM: a message, exit 1, no core dump.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        const Run none = run(QStringLiteral(SLUICE_CONSOLE), {}, env);
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("no graphical display"), none.err.constData());
        QVERIFY(none.err.contains("QT_QPA_PLATFORM=offscreen"));
        // --version needs no display.
        QCOMPARE(run(QStringLiteral(SLUICE_CONSOLE), {QStringLiteral("--version")}, env).code, 0);
        // A DISPLAY naming no X server: Qt's platform plugin fails; a message, exit 1 (Qt
        // alone would abort with a core dump).
        int display = 900;
        while (QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(display))) {
            ++display;
        }
        env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":%1").arg(display));
        const Run gone = run(QStringLiteral(SLUICE_CONSOLE), {}, env);
        QCOMPARE(gone.code, 1);
        QVERIFY2(gone.err.contains("the graphical display could not be opened"),
                 gone.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestManpage)
#include "tst_manpage.moc"
