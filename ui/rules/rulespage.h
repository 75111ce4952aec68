#pragma once

#include "common/messagebanner.h"
#include "rules/rule.h"

#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>

class QFrame;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QThread;

namespace sluice::ui {

class ConnectionController;
class RuleEditor;
class RulesModel;
class RulesWorker;
struct ConnectionState;
struct StoreReply;

// The Rules page (CONSOLE.md "Rules"): the working set of rules in a filtered table, the
// editor beside it, import and export of rule files, and push / pull of the Redis rule store.
//
// The working set is the page's own: import, pull and the editor change it; Redis changes
// only on Push (after a diff preview, as one compare-and-set on the store version), files only
// on Export. rulesChanged() follows every change of the working set (it is always valid).
//
// Threading: Redis I/O happens in a RulesWorker on the page's own QThread with its own
// connection to the session's endpoint (ConnectionController::endpoint()); a RuleWatcher there
// reports every new store version, so a change by someone else shows at once. Nothing here
// waits on the network; dialogs are opened with open(), never exec(). Without Redis the page
// keeps working (edit, import, export); push and pull say why they are off.
class RulesPage : public QWidget
{
    Q_OBJECT
public:
    explicit RulesPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~RulesPage() override;

    // Reads a JSON or YAML rule file (by extension) and makes it the working set. An invalid
    // file changes nothing: every error is listed (file:line:col path message) in the problems
    // panel and `error` gets a one-line summary.
    bool importFile(const QString &path, QString *error);
    // Writes the working set as json, yaml, nginx, envoy or kong. `warnings` gets one line per
    // rule the format cannot express ("id: why"); the page lists them too.
    bool exportFile(const QString &path, const QString &format, QStringList *warnings);

    const RuleSet &rules() const;
    bool hasUnsavedChanges() const { return m_unsaved; }
    // The last store version seen (pull, push or the watcher); nullopt: unknown.
    std::optional<qint64> storeVersion() const { return m_storeVersion; }
    void focusFilter();

    // The RuleStore namespace (default "{sluice}:"); tests give their own. Takes effect at
    // once (the worker reconnects).
    void setStoreNamespace(const QByteArray &ns);

public Q_SLOTS:
    void importRules(); // File > Import…: a file dialog, then importFile()
    void exportRules(); // File > Export… (Ctrl+E): a file dialog with the formats
    void pull();
    void push(); // reads the store, shows the diff, pushes on confirmation

Q_SIGNALS:
    void rulesChanged(const sluice::RuleSet &rules);

private:
    enum class PullPurpose { None, Adopt, PushPreview, Review };

    void addRule();
    void duplicateRule();
    void deleteRule();
    void onSelection();
    void onApplied(const Rule &rule, int row);
    void selectRow(int row);
    int selectedRow() const;
    QString uniqueId(const QString &base) const;

    void syncEndpoint();
    void onConnectionState(const ConnectionState &state);
    void onStoreChanged(const RuleSet &set, qint64 version);
    void onAnswered(const StoreReply &reply);
    void requestPull(PullPurpose purpose);
    void sendPush(bool force);
    void adopt(const RuleSet &set, qint64 version);
    void showPushPreview(const StoreReply &reply);
    void showReview(const StoreReply &reply);

    void setUnsaved(bool unsaved);
    void changed(); // the working set changed: state, editor context, rulesChanged()
    void updateState();
    void updateActions();
    void say(Tone tone, const QString &headline, const QString &detail = {},
             const QList<MessageBanner::Action> &actions = {});
    void showProblems(const QString &title, const QStringList &lines, Tone tone);
    void hideProblems();

    ConnectionController *m_connection;
    RulesModel *m_model;
    QSortFilterProxyModel *m_proxy;

    QLabel *m_stateLabel;
    QLabel *m_unsavedMark;
    QPushButton *m_import;
    QPushButton *m_export;
    QPushButton *m_pull;
    QPushButton *m_push;
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

    QThread *m_thread;
    RulesWorker *m_worker; // lives in m_thread
    QByteArray m_ns = "{sluice}:";
    QString m_endpointKey; // the endpoint the worker has (URL + password), to see changes
    bool m_redisUp = false;
    QString m_redisDown;  // why push and pull are off (empty: they are not)
    QString m_watchError; // the watcher's last failure, until it sees a version again

    bool m_unsaved = false;
    QString m_origin; // "file rules.yaml", "Redis v7", "" (nothing loaded yet)
    std::optional<qint64> m_storeVersion;
    RuleSet m_storeSet;             // the store's rules at m_storeVersion
    bool m_autoPullPending = false; // the session's first store version is adopted if clean

    quint64 m_nextRequest = 0;
    quint64 m_pullRequest = 0;
    PullPurpose m_pullPurpose = PullPurpose::None;
    quint64 m_pushRequest = 0;
    bool m_pushForced = false;
};

} // namespace sluice::ui
