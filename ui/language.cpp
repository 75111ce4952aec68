#include "language.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QLoggingCategory>
#include <QTranslator>

namespace sluice::ui {

namespace {
// QT_LOGGING_RULES=sluice.language.info=true says which file each translation came from.
Q_LOGGING_CATEGORY(lcLanguage, "sluice.language", QtWarningMsg)
} // namespace

namespace {

// Maps what a user types or a locale says to one of available(), or an empty string.
QString normalize(const QString &name)
{
    const QString n = name.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (n == QLatin1String("en") || n.startsWith(QLatin1String("en_")) || n == QLatin1String("c") ||
        n == QLatin1String("posix")) {
        return QStringLiteral("en");
    }
    // Simplified Chinese: zh, zh_CN, zh_SG, zh_Hans...; zh_TW / zh_HK / zh_Hant are Traditional,
    // which we do not ship: they fall back to English rather than show the wrong script.
    if (n == QLatin1String("zh") || n == QLatin1String("zh_cn") || n == QLatin1String("zh_sg") ||
        n.startsWith(QLatin1String("zh_hans"))) {
        return QStringLiteral("zh_CN");
    }
    return {};
}

} // namespace

QStringList Language::available()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString Language::choose(const QString &requested, QString *error)
{
    if (!requested.isEmpty()) {
        const QString lang = normalize(requested);
        if (lang.isEmpty() && error) {
            *error = QStringLiteral("--lang: unknown language '%1'; expected one of: %2")
                         .arg(requested, available().join(QStringLiteral(", ")));
        }
        return lang;
    }
    const QStringList ui = QLocale::system().uiLanguages();
    for (const QString &l : ui) {
        const QString lang = normalize(l);
        if (!lang.isEmpty()) {
            return lang;
        }
    }
    return QStringLiteral("en");
}

bool Language::install(QCoreApplication *app, const QString &language, QString *error)
{
    // The translators of an earlier call go first: installing "en" after "zh_CN" used to stack
    // English's few plural forms on the Chinese, so every other string stayed Chinese.
    const QString mark = QStringLiteral("sluice-translation");
    for (QTranslator *old : app->findChildren<QTranslator *>(mark, Qt::FindDirectChildrenOnly)) {
        QCoreApplication::removeTranslator(old);
        delete old;
    }
    auto *own = new QTranslator(app);
    own->setObjectName(mark);
    // An installed console reads <prefix>/share/sluice/translations/sluice_<lang>.qm beside
    // <prefix>/bin/sluice-console (the package's /usr/share/sluice/translations), so that a
    // translation can be updated without a rebuild; a build tree uses the copy embedded at build
    // time.
    QString file = QCoreApplication::applicationDirPath() +
                   QStringLiteral("/../share/sluice/translations/sluice_%1.qm").arg(language);
    if (!QFileInfo::exists(file)) {
        file = QStringLiteral(":/i18n/sluice_%1.qm").arg(language);
    }
    qCInfo(lcLanguage, "translation %s", qPrintable(QFileInfo(file).absoluteFilePath()));
    if (!own->load(file)) {
        delete own;
        if (error) {
            *error = QStringLiteral("the translation %1 is missing from this build").arg(file);
        }
        return false;
    }
    QCoreApplication::installTranslator(own);
    if (language == QLatin1String("en")) {
        return true; // the source strings, with the plural forms of sluice_en.qm
    }
    // Qt's own strings (OK/Cancel, file dialogs): optional, from qt6-translations-l10n.
    auto *qt = new QTranslator(app);
    qt->setObjectName(mark);
    if (qt->load(QLocale(language), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
    } else {
        delete qt;
    }
    return true;
}

} // namespace sluice::ui
