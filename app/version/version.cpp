#include "app/version/version.h"

#include "sluice_revision.h" // generated at build time (tools/cmake/gitrevision.cmake)

namespace sluice::version {

QString number()
{
    return QStringLiteral(SLUICE_VERSION);
}

QString revision()
{
    return QStringLiteral(SLUICE_GIT_REVISION);
}

QString line(const QString &program)
{
    return QStringLiteral("%1 %2 (git %3)").arg(program, number(), revision());
}

} // namespace sluice::version
