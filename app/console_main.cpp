#include "app/help/help.h"
#include "app/version/version.h"
#include "ui/language.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int signalPipe[2] = {-1, -1};

// SIGTERM (a logout, `kill`), SIGINT (Ctrl+C in a terminal) and SIGHUP end the event loop
// instead of the process, so that the window saves its settings and the sandbox stops and
// removes its directory. The handler only writes a byte; the event loop does the rest.
void quitOnSignals(QApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signalPipe) != 0) {
        return;
    }
    auto *notifier = new QSocketNotifier(signalPipe[1], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [] {
        char c = 0;
        (void)::read(signalPipe[1], &c, 1);
        QApplication::quit();
    });
    struct sigaction sa = {};
    sa.sa_handler = [](int) {
        const char c = 1;
        (void)::write(signalPipe[0], &c, 1);
    };
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
        ::sigaction(sig, &sa, nullptr);
    }
}

const char noDisplay[] =
    "sluice-console: no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set.\n"
    "  The console needs a desktop session (X11 or Wayland); over SSH use ssh -X, or run it\n"
    "  with QT_QPA_PLATFORM=offscreen to check it without a screen. Everything that needs no\n"
    "  window is in sluice-cli (sluice-cli --help).\n";

bool asksOnlyForText(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v") {
            return true;
        }
    }
    return false;
}

// Qt ends the process with abort() (a core dump) when its platform plugin cannot start, e.g.
// DISPLAY names an X server that is not there. While the QApplication is made, that fatal
// message becomes a clear one and exit status 1.
void platformFailure(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    std::fprintf(stderr, "sluice-console: %s\n", qPrintable(message));
    if (type == QtFatalMsg) {
        std::fprintf(stderr,
                     "sluice-console: the graphical display could not be opened (DISPLAY=%s, "
                     "WAYLAND_DISPLAY=%s).\n  Check that the desktop session is running, or "
                     "run with QT_QPA_PLATFORM=offscreen; sluice-cli needs no display.\n",
                     qgetenv("DISPLAY").constData(), qgetenv("WAYLAND_DISPLAY").constData());
        std::fflush(stderr);
        ::_exit(1);
    }
}

} // namespace

int main(int argc, char **argv)
{
    const bool displayGiven = !qEnvironmentVariableIsEmpty("DISPLAY") ||
                              !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
                              !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
    if (!displayGiven) {
        if (!asksOnlyForText(argc, argv)) {
            std::fputs(noDisplay, stderr);
            return 1;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen"); // --help and --version need no screen
    }
    const QtMessageHandler previous = qInstallMessageHandler(platformFailure);
    QApplication app(argc, argv);
    qInstallMessageHandler(previous);
    QApplication::setApplicationVersion(
        QStringLiteral("%1 (git %2)").arg(sluice::version::number(), sluice::version::revision()));
    QApplication::setApplicationName(QStringLiteral("Sluice"));
    QApplication::setOrganizationName(QStringLiteral("Sluice"));
    QApplication::setWindowIcon(sluice::ui::MainWindow::appIcon());
    // The desktop entry's name: Wayland shells match the window to it (its icon and name).
    QGuiApplication::setDesktopFileName(QStringLiteral("org.sluice.Sluice"));
    quitOnSignals(app);

    // The options and their words come from app/help/consolepage.cpp, as sluice-console(1) does.
    const sluice::help::Page &page = sluice::help::consolePage();
    QCommandLineParser parser;
    parser.setApplicationDescription(page.description.section(QStringLiteral("\n\n"), 0, 0));
    parser.addHelpOption();
    parser.addVersionOption();
    const sluice::help::Option &langHelp = page.options.first();
    const QCommandLineOption langOption(QStringLiteral("lang"), langHelp.text,
                                        langHelp.names.section(QLatin1Char(' '), 1));
    parser.addOption(langOption);
    parser.process(app); // --help and unknown options exit here
    QString error;
    const QString lang = sluice::ui::Language::choose(parser.value(langOption), &error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "sluice-console: %s\n", qPrintable(error));
        return 2;
    }
    if (!sluice::ui::Language::install(&app, lang, &error)) {
        std::fprintf(stderr, "sluice-console: %s; continuing in English\n", qPrintable(error));
    }
    sluice::ui::MainWindow window;
    window.show();
    window.connectAtStart();
    return QApplication::exec();
}
