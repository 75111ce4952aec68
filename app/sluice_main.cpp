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

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Sluice"));
    QApplication::setOrganizationName(QStringLiteral("Sluice"));
    QApplication::setWindowIcon(sluice::ui::MainWindow::appIcon());
    quitOnSignals(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Sluice: the console for Redis-backed API rate limits."));
    parser.addHelpOption();
    const QCommandLineOption langOption(
        QStringLiteral("lang"),
        QStringLiteral("Language of the console: en or zh_CN (default: the system locale)."),
        QStringLiteral("language"));
    parser.addOption(langOption);
    parser.process(app); // --help and unknown options exit here
    QString error;
    const QString lang = sluice::ui::Language::choose(parser.value(langOption), &error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "sluice: %s\n", qPrintable(error));
        return 2;
    }
    if (!sluice::ui::Language::install(&app, lang, &error)) {
        std::fprintf(stderr, "sluice: %s; continuing in English\n", qPrintable(error));
    }
    sluice::ui::MainWindow window;
    window.show();
    window.connectAtStart();
    return QApplication::exec();
}
