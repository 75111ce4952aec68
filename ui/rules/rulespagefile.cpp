// The Rules page and its rule file (CONSOLE.md "Rules", "Remembered work"): File > Save and
// Save as…, the question asked before unsaved rules are left (quit, another server, another
// file), the recent files and the rule set reopened at start.
#include "rulespage.h"

#include "ruleeditor.h"
#include "rulessession.h"

#include "ui/common/filedialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSettings>
#include <QStandardPaths>

namespace sluice::ui {

namespace {

const QString recentKey = QStringLiteral("rules/recentFiles");
const QString sourceKey = QStringLiteral("rules/source"); // "file" or "redis"
const QString lastFileKey = QStringLiteral("rules/lastFile");
const QString importDirKey = QStringLiteral("rules/importDir");

} // namespace

bool RulesPage::hasUnsavedChanges() const
{
    return m_session->hasUnsavedChanges() || (m_editor->isEditing() && m_editor->isModified());
}

bool RulesPage::applyEditorEdits()
{
    if (!m_editor->isEditing() || !m_editor->isModified()) {
        return true;
    }
    if (!m_editor->currentRule()) {
        m_banner->showMessage(
            PageMessage::headlined(Tone::Bad,
                                   tr("Nothing was saved: the rule in the editor is not "
                                      "valid yet."),
                                   tr("Fix the fields marked in red, or revert them, then save "
                                      "again.")));
        return false;
    }
    m_editor->apply();
    return true;
}

void RulesPage::save(std::function<void()> then)
{
    if (!applyEditorEdits()) {
        return;
    }
    const QString path = m_session->filePath();
    if (path.isEmpty()) {
        saveAs(std::move(then));
        return;
    }
    saveTo(path, {}, then);
}

void RulesPage::saveAs(std::function<void()> then)
{
    if (!applyEditorEdits()) {
        return;
    }
    auto chosen = [this, then](const QString &path, const QString &) { saveTo(path, {}, then); };
    if (m_saveAsHook) {
        const QString path = m_saveAsHook();
        if (!path.isEmpty()) {
            chosen(path, QString());
        }
        return;
    }
    const QString current = m_session->filePath();
    const bool yaml = RulesFile::isYaml(current);
    const QStringList filters = {tr("JSON rule file (*.json)"),
                                 tr("YAML rule file (*.yaml *.yml)")};
    QFileDialog *dialog =
        askForFile(this, QStringLiteral("saveAsDialog"), tr("Save rules as"),
                   current.isEmpty() ? importFolder() + QStringLiteral("/rules.json") : current,
                   filters, yaml ? QStringLiteral("yaml") : QStringLiteral("json"), chosen);
    dialog->selectNameFilter(filters.value(yaml ? 1 : 0));
}

void RulesPage::saveTo(const QString &path, RulesSession::SaveOptions options,
                       const std::function<void()> &then)
{
    if (m_session->saveFile(path, options) != RulesSession::SaveResult::Saved) {
        return; // the banner says why; the rules stay here
    }
    remember(path);
    if (then) {
        then();
    }
}

void RulesPage::leaveUnsaved(const QString &doing, std::function<void()> then)
{
    if (!hasUnsavedChanges()) {
        then();
        return;
    }
    const QString file = m_session->filePath();
    const QString question =
        doing + QStringLiteral("\n\n") +
        (file.isEmpty()
             ? tr("The rules here have changes that are in no file and not pushed to Redis. "
                  "Save them to a file first?")
             : tr("The rules here have changes that are not saved to %1. Save them first?")
                   .arg(QFileInfo(file).fileName()));
    const auto resolve = [this, then](UnsavedChoice choice) {
        switch (choice) {
        case UnsavedChoice::Save:
            save(then);
            break;
        case UnsavedChoice::Discard:
            if (m_editor->isEditing() && m_editor->isModified()) {
                m_editor->revert();
            }
            m_session->discardChanges();
            then();
            break;
        case UnsavedChoice::Cancel:
            break;
        }
    };
    if (m_unsavedChoice) {
        resolve(m_unsavedChoice(question));
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unsaved rules"), question,
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("unsavedRulesBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *saveButton = box->addButton(tr("&Save"), QMessageBox::AcceptRole);
    QPushButton *discard = box->addButton(tr("&Discard"), QMessageBox::DestructiveRole);
    QPushButton *cancel = box->addButton(tr("Cancel"), QMessageBox::RejectRole);
    box->setDefaultButton(saveButton);
    box->setEscapeButton(cancel);
    connect(box, &QMessageBox::finished, this, [box, saveButton, discard, resolve] {
        const QAbstractButton *b = box->clickedButton();
        resolve(b == saveButton ? UnsavedChoice::Save
                : b == discard  ? UnsavedChoice::Discard
                                : UnsavedChoice::Cancel);
    });
    box->open();
}

void RulesPage::openFile(const QString &path)
{
    leaveUnsaved(tr("You are opening %1.").arg(QFileInfo(path).fileName()),
                 [this, path] { importFile(path, nullptr); });
}

// ---------------------------------------------------------------------------------------------
// Files

QString RulesPage::samplesFolder()
{
    // Installed: <prefix>/share/sluice/samples beside <prefix>/bin; else the XDG data dirs;
    // in a build tree, the source's resources/samples.
    QStringList candidates{QCoreApplication::applicationDirPath() +
                           QStringLiteral("/../share/sluice/samples")};
    const QStringList data = QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation);
    for (const QString &d : data) {
        candidates << d + QStringLiteral("/sluice/samples");
    }
    candidates << QStringLiteral("/usr/share/sluice/samples");
#ifdef SLUICE_SOURCE_SAMPLES
    candidates << QStringLiteral(SLUICE_SOURCE_SAMPLES);
#endif
    for (const QString &c : std::as_const(candidates)) {
        if (QFileInfo(c + QStringLiteral("/rules.json")).isFile()) {
            return QDir::cleanPath(c);
        }
    }
    return QDir::homePath();
}

QString RulesPage::importFolder()
{
    const QString dir = QSettings().value(importDirKey).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : samplesFolder();
}

QStringList RulesPage::recentFiles()
{
    QStringList files = QSettings().value(recentKey).toStringList();
    files.removeAll(QString());
    return files.mid(0, maxRecentFiles);
}

void RulesPage::clearRecentFiles()
{
    QSettings().remove(recentKey);
    Q_EMIT recentFilesChanged();
}

void RulesPage::remember(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = recentFiles();
    files.removeAll(absolute);
    files.prepend(absolute);
    QSettings settings;
    settings.setValue(recentKey, QStringList(files.mid(0, maxRecentFiles)));
    settings.setValue(sourceKey, QStringLiteral("file"));
    settings.setValue(lastFileKey, absolute);
    settings.setValue(importDirKey, QFileInfo(absolute).absolutePath());
    Q_EMIT recentFilesChanged();
}

bool RulesPage::reopenAtStart(bool sandbox)
{
    const QSettings settings;
    const QString source = settings.value(sourceKey).toString();
    const QString file = settings.value(lastFileKey).toString();
    // The rules of a Redis come back with the connection (the session pulls them), except
    // the sandbox's: it saves nothing, so the file they came from is opened again.
    if (file.isEmpty() || (source == QLatin1String("redis") && !sandbox)) {
        return false;
    }
    if (!QFileInfo(file).isFile()) {
        m_banner->showMessage(
            PageMessage::headlined(Tone::Warning, tr("The last rule file, %1, is gone.").arg(file),
                                   tr("Import another one, or pick one in File > Recent files.")));
        return false;
    }
    QString error;
    const QScopedValueRollback importing(m_importing, true);
    if (!m_session->reopenFile(file, &error)) {
        return false;
    }
    remember(file);
    return true;
}

void RulesPage::importRules()
{
    leaveUnsaved(tr("You are opening another rule file."), [this] {
        askForFile(this, QStringLiteral("importDialog"), tr("Import rules"), importFolder(),
                   {tr("Rule files (*.json *.yaml *.yml)")}, QString(),
                   [this](const QString &path, const QString &) { importFile(path, nullptr); });
    });
}

void RulesPage::rememberRedisSource()
{
    QSettings().setValue(sourceKey, QStringLiteral("redis"));
}

} // namespace sluice::ui
