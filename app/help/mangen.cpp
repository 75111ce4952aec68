// sluice-mangen: writes what app/help renders for packaging (a build tool, not installed):
//   sluice-mangen man sluice-cli|sluice-console     the man page on stdout
//   sluice-mangen completion                bash completion for sluice-cli on stdout
#include "app/help/help.h"
#include "app/version/version.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    using namespace sluice::help;
    QString out;
    if (argc == 3 && std::strcmp(argv[1], "man") == 0 && std::strcmp(argv[2], "sluice-cli") == 0) {
        out = manPage(cliPage(), sluice::version::number());
    } else if (argc == 3 && std::strcmp(argv[1], "man") == 0 &&
               std::strcmp(argv[2], "sluice-console") == 0) {
        out = manPage(consolePage(), sluice::version::number());
    } else if (argc == 2 && std::strcmp(argv[1], "completion") == 0) {
        out = bashCompletion(cliPage());
    } else {
        std::fputs("usage: sluice-mangen man sluice-cli|sluice-console | completion\n", stderr);
        return 2;
    }
    const QByteArray bytes = out.toUtf8();
    return std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout) == size_t(bytes.size())
               ? 0
               : 1;
}
