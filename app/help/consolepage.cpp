// The help of the console (sluice-console): `sluice-console --help` (its QCommandLineParser is
// built from the options here, app/console_main.cpp) and sluice-console(1).
#include "app/help/help.h"

namespace sluice::help {

namespace {

Page makeConsolePage()
{
    Page p;
    p.program = QStringLiteral("sluice-console");
    p.title = QStringLiteral("the desktop console for rate limits kept in Redis");
    p.synopsis = {QStringLiteral("[--lang en|zh_CN]"), QStringLiteral("--help"),
                  QStringLiteral("--version")};
    p.description = QStringLiteral(
        "Sluice is a desktop console for rate limits kept in Redis. Six pages: Connection "
        "(profiles for TCP, TLS, Unix sockets, Sentinel and SSH bastions; read-only profiles), "
        "Rules (edit, validate, import, export to nginx, Envoy and Kong, push to and pull from "
        "Redis), Keys (limiter keys with decoded state, TTL and health; fix the keys that never "
        "expire), Simulation, Monitor (allowed and denied per second per rule) and Load.\n\n"
        "On a first start, with no profile yet, the console starts a sandbox: a private "
        "redis-server on a free loopback port, without persistence, removed on exit (it needs "
        "the redis-server package). Passwords go to the system keyring; where none answers, "
        "each is asked once per session and kept in memory only.\n\n"
        "It needs a graphical display (X11 or Wayland). Without one it says so and exits; "
        "QT_QPA_PLATFORM=offscreen runs it without a screen. sluice-cli(1) does everything "
        "that needs no window.");
    p.optionsHeading = QStringLiteral("OPTIONS");
    p.options = {
        {QStringLiteral("--lang LANGUAGE"),
         QStringLiteral("The language of the console: en or zh_CN (default: the system "
                        "locale).")},
        {QStringLiteral("-h, --help"), QStringLiteral("Show the options and exit.")},
        {QStringLiteral("-v, --version"),
         QStringLiteral("Show the version and the git revision and exit.")},
    };
    p.sections = {
        {QStringLiteral("KEYBOARD"),
         QStringLiteral("Ctrl+1 to Ctrl+6: the pages. Ctrl+F: filter. F5: refresh (and "
                        "reconnect at once). Ctrl+R: run the simulation. Ctrl+E: export. "
                        "Ctrl+O: import rules.")},
        {QStringLiteral("ENVIRONMENT"),
         QStringLiteral("LANG, LANGUAGE: the language when --lang is not given.\n\n"
                        "QT_QPA_PLATFORM: the Qt platform (offscreen: no screen needed).")},
        {QStringLiteral("FILES"),
         QStringLiteral("~/.config/Sluice/Sluice.conf: profiles (addresses, file paths and "
                        "names; never a password), window geometry, the last page.\n\n"
                        "/usr/share/sluice/translations/: the console's translations.\n\n"
                        "/usr/share/sluice/samples/: sample rule files.")},
        {QStringLiteral("SEE ALSO"),
         QStringLiteral(
             "sluice-cli(1), redis-server(1), /usr/share/doc/sluice-redis/USER-GUIDE.md")},
    };
    return p;
}

} // namespace

const Page &consolePage()
{
    static const Page page = makeConsolePage();
    return page;
}

} // namespace sluice::help
