#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace sluice::ui {

// The console's languages: English (the source strings) and Simplified Chinese
// (resources/translations/sluice_zh_CN.ts, compiled by lrelease at build time into
// ":/i18n/sluice_zh_CN.qm"). Qt's own dialogs (buttons, file dialogs) follow when Debian's
// qt6-translations-l10n is installed.
class Language
{
public:
    // "en", "zh_CN".
    static QStringList available();
    // The language to use: `requested` ("zh_CN", "zh", "en", "C", case-insensitive) when it is
    // not empty, else the system locale's UI languages; English when nothing matches.
    // *error names an unknown `requested` value (the caller reports it and exits 2).
    static QString choose(const QString &requested, QString *error);
    // Installs the translators for `language` into the application, in place of those an
    // earlier call installed. English installs only its plural forms ("1 key" / "2 keys" for
    // the "%n key(s)" strings).
    // Returns false (and says why in *error) when a translation file is missing.
    static bool install(QCoreApplication *app, const QString &language, QString *error);
};

} // namespace sluice::ui
