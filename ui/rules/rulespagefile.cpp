// The Rules page and its rule file (CONSOLE.md "Rules", "Remembered work"): File > Save and
// Save as…, and the question asked before unsaved rules are left (quit, another server,
// another file).
#include "ruleeditor.h"
#include "rulespage.h"

#include "ui/common/filedialog.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace sluice::ui {

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
        m_banner->showMessage(Tone::Bad,
                              tr("Nothing was saved: the rule in the editor is not "
                                 "valid yet."),
                              tr("Fix the fields marked in red, or revert them, then save "
                                 "again."));
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

} // namespace sluice::ui
