#pragma once

#include "rulessession.h"

#include "core/rules/rule.h"
#include "ui/common/confirm.h"
#include "ui/common/messagebanner.h"

#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>

class QFrame;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QVBoxLayout;

namespace sluice::ui {

class ConnectionController;
class HistoryDialog;
class OverridesModel;
class OverridesPanel;
class RuleEditor;
class RulesModel;
class StageBanner;

// The Rules page (CONSOLE.md "Rules"): a view over a RulesSession. The working set in a
// filtered table, the editor beside it, the session's messages in the banner, its import
// errors and export warnings in the problems panel, and the diff dialogs of push and review.
//
// Edits typed in the editor are never dropped silently: selecting another rule (or Add) while
// the editor holds changes asks whether to apply or discard them, or to keep editing. Dialogs
// are opened with open(), never exec(); tests answer through setEditChoiceHook().
class RulesPage : public QWidget
{
    Q_OBJECT
public:
    // What to do with edits the editor holds when the user leaves them.
    enum class EditChoice { Apply, Discard, KeepEditing };
    using EditChoiceHook = std::function<EditChoice(const QString &question)>;
    // What to do with unsaved rules when the user quits, switches server or opens a file.
    enum class UnsavedChoice { Save, Discard, Cancel };
    using UnsavedChoiceHook = std::function<UnsavedChoice(const QString &question)>;

    explicit RulesPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~RulesPage() override;

    RulesSession *session() const { return m_session; }
    // The session's, for the window and the tests.
    bool importFile(const QString &path, QString *error);
    bool exportFile(const QString &path, const QString &format, QStringList *warnings);
    const RuleSet &rules() const { return m_session->rules(); }
    // Rules changed and not saved or pushed, or edits in the editor not applied yet.
    bool hasUnsavedChanges() const;
    // Before something that replaces or leaves the rules (`doing`: "quit", ...): with unsaved
    // changes asks Save, Discard or Cancel, and runs `then` after Save (once written) or
    // Discard; at once without unsaved changes. Cancel, or a Save that wrote nothing, does not.
    void leaveUnsaved(const QString &doing, std::function<void()> then);
    // Answers leaveUnsaved()'s question at once (tests).
    void setUnsavedChoiceHook(UnsavedChoiceHook hook) { m_unsavedChoice = std::move(hook); }
    // Answers Save as…'s file dialog at once with a path (tests); empty: cancelled.
    void setSaveAsHook(std::function<QString()> hook) { m_saveAsHook = std::move(hook); }
    std::optional<qint64> storeVersion() const { return m_session->storeVersion(); }
    void setStoreNamespace(const QByteArray &ns) { m_session->setStoreNamespace(ns); }
    void focusFilter();
    // The replay's *Use this limit*: the rule's limit (a bucket rule's burst) set in the
    // editor and applied to the working set, unsaved (the push preview and staging follow);
    // nothing is written to Redis or the file. False with the reason in `detail` when the rule
    // is gone or the editor holds other edits; else `detail` says what changed.
    bool useLimit(const QString &ruleId, qint64 limit, QString *detail);

    // File > Recent files: the last rule files imported (absolute paths, newest first).
    static constexpr int maxRecentFiles = 10;
    static QStringList recentFiles();
    void clearRecentFiles();
    // Where the first import dialog opens: the sample rules (installed, or the source's), else
    // home. Later ones open in the folder of the last import.
    static QString samplesFolder();
    static QString importFolder();
    // On start: opens the rule set that was being edited when the console last ran, the file
    // it came from (kept as "rules/lastFile"). A rule set from Redis comes back with the
    // connection, except the sandbox's (`sandbox`), which saves nothing: its file is opened.
    // False when there was nothing to reopen (or the file is gone: the banner says so).
    bool reopenAtStart(bool sandbox);

    // Answers "apply your edits?" at once instead of a message box (tests, embeddings).
    void setEditChoiceHook(EditChoiceHook hook) { m_editChoice = std::move(hook); }
    // Answers the History panel's "roll back?" at once (tests).
    void setHistoryConfirm(ConfirmHook hook) { m_historyConfirm = std::move(hook); }
    // Answers "remove this stored override?" at once (tests).
    void setOverrideConfirm(ConfirmHook hook);
    // Answers Promote's and Discard's question at once (tests).
    void setStageConfirm(ConfirmHook hook);
    // The selected rule's overrides (the rule file's and the stored ones), as listed.
    OverridesModel *overridesModel() const;

protected:
    // The stored overrides change behind the page (the Monitor's Allow and Block, the CLI): the
    // selected rule's are read again whenever the page is shown.
    void showEvent(QShowEvent *event) override;

public Q_SLOTS:
    void importRules(); // File > Import…: a file dialog, then importFile()
    void exportRules(); // File > Export… (Ctrl+E): the export dialog (format, preview, save)
    // File > Save (Ctrl+S): the editor's edits applied, then the rules written back to their
    // file in its format; without a file, Save as…. `then` runs once they are written.
    void save(std::function<void()> then = {});
    void saveAs(std::function<void()> then = {}); // File > Save as… (Ctrl+Shift+S)
    // File > Recent files: `path` opened, after the unsaved-rules question.
    void openFile(const QString &path);
    void pull();
    void push(); // reads the store, shows the diff, pushes on confirmation
    // The History panel (open() on it); tests drive the dialog it returns.
    HistoryDialog *showHistory();

Q_SIGNALS:
    void rulesChanged(const sluice::RuleSet &rules);
    void recentFilesChanged();

private:
    // The constructor's steps: the header with the page's actions, the message and stage
    // banners, the table (with the overrides under it) beside the editor, the problems panel,
    // and the signals between them and the session.
    void buildHeader(QVBoxLayout *root);
    void buildBanners(QVBoxLayout *root);
    void buildBody(QVBoxLayout *root);
    void buildProblems(QVBoxLayout *root);
    void connectSignals();
    // The rules were replaced by Redis's: the next start reopens Redis's, not a file.
    static void rememberRedisSource();
    // A file was imported: first in the recent files, the start's rule set, the next import's
    // folder.
    void remember(const QString &path);
    void addRule();
    void duplicateRule();
    void deleteRule();
    void onSelection();
    void onApplied(const Rule &rule, int row);
    void selectRow(int row);
    int selectedRow() const;
    // Leaving the editor's unapplied edits for `row` (-2: Add): asks, then goes on.
    bool leaveEdits(int row);
    void resolveEdits(EditChoice choice, int row);
    void go(int row);
    // The editor's edits applied (true), or not valid (false, said).
    bool applyEditorEdits();
    void saveTo(const QString &path, RulesSession::SaveOptions options,
                const std::function<void()> &then);

    void showMessage(const PageMessage &message, const QList<RulesSession::Offer> &offers);
    void showProblems(const RulesSession::Problems &problems);
    void showPushPreview(const RulesSession::DiffPrompt &prompt);
    void showReview(const RulesSession::DiffPrompt &prompt);
    void onRulesChanged();
    void updateState();
    void updateActions();

    RulesSession *m_session;
    RulesModel *m_model; // the session's
    QSortFilterProxyModel *m_proxy;
    EditChoiceHook m_editChoice;
    UnsavedChoiceHook m_unsavedChoice;
    std::function<QString()> m_saveAsHook;
    bool m_asking = false;    // a question about the editor's edits is open
    bool m_importing = false; // the set is being replaced by a file, not by Redis

    QLabel *m_stateLabel;
    QLabel *m_unsavedMark;
    QPushButton *m_import;
    QPushButton *m_export;
    QPushButton *m_pull;
    QPushButton *m_push;
    QPushButton *m_history;
    StageBanner *m_stageBanner;
    ConfirmHook m_historyConfirm;
    MessageBanner *m_banner;
    QLineEdit *m_filter;
    QTableView *m_table;
    QLabel *m_countLabel;
    QPushButton *m_add;
    QPushButton *m_duplicate;
    QPushButton *m_delete;
    RuleEditor *m_editor;
    QFrame *m_problems;
    QLabel *m_problemsTitle;
    QListWidget *m_problemList;
    OverridesPanel *m_overrides;
};

} // namespace sluice::ui
