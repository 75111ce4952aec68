#include "rulespage.h"

#include "rulediff.h"
#include "rulediffdialog.h"
#include "ruleeditor.h"
#include "rulesmodel.h"
#include "rulesworker.h"

#include "connection/connectioncontroller.h"
#include "connection/connectionstate.h"

#include "common/messagebanner.h"
#include "common/pageheader.h"

#include "rules/codec.h"
#include "rules/exporter.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

// The export formats: name (exporter.h), file dialog filter, default suffix.
struct Format
{
    const char *name;
    const char *filter;
    const char *suffix;
};
constexpr Format formats[] = {
    {"json", QT_TRANSLATE_NOOP("sluice::ui::RulesPage", "Rule file, JSON (*.json)"), "json"},
    {"yaml", QT_TRANSLATE_NOOP("sluice::ui::RulesPage", "Rule file, YAML (*.yaml *.yml)"), "yaml"},
    {"nginx", QT_TRANSLATE_NOOP("sluice::ui::RulesPage", "nginx include (*.conf)"), "conf"},
    {"envoy", QT_TRANSLATE_NOOP("sluice::ui::RulesPage", "Envoy ratelimit service config (*.yaml)"),
     "yaml"},
    {"kong", QT_TRANSLATE_NOOP("sluice::ui::RulesPage", "Kong rate-limiting plugins (*.json)"),
     "json"},
};

QString endpointKey(const std::optional<Endpoint> &e)
{
    return e ? e->safeUrl() + QLatin1Char('\n') + e->password : QString();
}

} // namespace

RulesPage::RulesPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
{
    setObjectName(QStringLiteral("rulesPage"));
    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(24, 20, 24, 20);
    root->setSpacing(6);

    // The header: the title, where the rules stand, the page's actions.
    auto *header = new PageHeader(tr("Rules"), {}, this);
    m_unsavedMark = PageHeader::badge(tr("unsaved changes"), Tone::Warning, this);
    m_unsavedMark->setObjectName(QStringLiteral("unsavedMark"));
    m_unsavedMark->setToolTip(
        tr("The rules here differ from the file or Redis version they came from: push them or "
           "export them to keep them"));
    m_unsavedMark->hide();
    header->addBadge(m_unsavedMark);
    m_import = new QPushButton(tr("&Import…"), this);
    m_import->setObjectName(QStringLiteral("importButton"));
    m_import->setToolTip(tr("Replace the rules here with a JSON or YAML rule file"));
    m_export = new QPushButton(tr("E&xport…"), this);
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Write the rules as a rule file, or for nginx, Envoy or Kong"));
    m_pull = new QPushButton(tr("P&ull"), this);
    m_pull->setObjectName(QStringLiteral("pullButton"));
    m_push = new QPushButton(tr("Pu&sh…"), this);
    m_push->setObjectName(QStringLiteral("pushButton"));
    for (QPushButton *b : {m_import, m_export, m_pull, m_push}) {
        header->addAction(b);
    }
    root->addWidget(header);
    m_stateLabel = header->blurb();
    m_stateLabel->setObjectName(QStringLiteral("storeState"));
    m_stateLabel->setTextFormat(Qt::RichText);
    m_stateLabel->show();
    root->addSpacing(8);

    // The banner: one message answering the last action or telling what Redis did.
    m_banner = new MessageBanner(QStringLiteral("rulesBanner"), QStringLiteral("bannerText"), this);
    m_banner->setDismissible(QStringLiteral("dismissBannerButton"));
    root->addWidget(m_banner);

    // Body: the table on the left, the editor on the right.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    root->addWidget(splitter, 1);

    auto *left = new QWidget(splitter);
    auto *leftBox = new QVBoxLayout(left);
    leftBox->setContentsMargins(0, 0, 12, 0);
    leftBox->setSpacing(6);
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("filterEdit"));
    m_filter->setPlaceholderText(tr("Filter by id, algorithm, limit, scope, route… (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    leftBox->addWidget(m_filter);

    m_model = new RulesModel(this);
    m_model->setObjectName(QStringLiteral("rulesModel"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setSortRole(RulesModel::SortRole);
    m_table = new QTableView(left);
    m_table->setObjectName(QStringLiteral("rulesTable"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the set's order until a header is clicked
    m_table->setAlternatingRowColors(true);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(26);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    leftBox->addWidget(m_table, 1);

    auto *rowButtons = new QHBoxLayout;
    rowButtons->setSpacing(6);
    m_add = new QPushButton(tr("&Add"), left);
    m_add->setObjectName(QStringLiteral("addButton"));
    m_add->setToolTip(tr("A new rule, typed in the editor"));
    m_duplicate = new QPushButton(tr("D&uplicate"), left);
    m_duplicate->setObjectName(QStringLiteral("duplicateButton"));
    m_delete = new QPushButton(tr("&Delete"), left);
    m_delete->setObjectName(QStringLiteral("deleteButton"));
    m_delete->setToolTip(tr("Remove the selected rule here; Redis keeps it until you push"));
    rowButtons->addWidget(m_add);
    rowButtons->addWidget(m_duplicate);
    rowButtons->addWidget(m_delete);
    rowButtons->addStretch(1);
    m_countLabel = PageHeader::note(left);
    m_countLabel->setObjectName(QStringLiteral("countLabel"));
    rowButtons->addWidget(m_countLabel);
    leftBox->addLayout(rowButtons);

    m_editor = new RuleEditor(splitter);
    m_editor->setMinimumWidth(380);
    splitter->addWidget(left);
    splitter->addWidget(m_editor);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({840, 400});

    // Problems: import errors and export warnings, one per line, until dismissed.
    m_problems = new QFrame(this);
    m_problems->setObjectName(QStringLiteral("problemsPanel"));
    m_problems->setFrameShape(QFrame::StyledPanel);
    auto *problemsBox = new QVBoxLayout(m_problems);
    problemsBox->setContentsMargins(10, 6, 10, 6);
    problemsBox->setSpacing(4);
    auto *problemsHead = new QHBoxLayout;
    m_problemsTitle = new QLabel(m_problems);
    m_problemsTitle->setObjectName(QStringLiteral("problemsTitle"));
    m_problemsTitle->setWordWrap(true);
    QFont pf = m_problemsTitle->font();
    pf.setBold(true);
    m_problemsTitle->setFont(pf);
    auto *hideProblems = new QPushButton(tr("Hide"), m_problems);
    hideProblems->setObjectName(QStringLiteral("hideProblemsButton"));
    hideProblems->setFlat(true);
    connect(hideProblems, &QPushButton::clicked, this, &RulesPage::hideProblems);
    problemsHead->addWidget(m_problemsTitle, 1);
    problemsHead->addWidget(hideProblems);
    problemsBox->addLayout(problemsHead);
    m_problemList = new QListWidget(m_problems);
    m_problemList->setObjectName(QStringLiteral("problemList"));
    m_problemList->setMaximumHeight(130);
    m_problemList->setWordWrap(true);
    m_problemList->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    problemsBox->addWidget(m_problemList);
    m_problems->hide();
    root->addSpacing(6);
    root->addWidget(m_problems);

    // The worker: its own thread, its own connection.
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("sluice-rules"));
    m_worker = new RulesWorker;
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &RulesWorker::answered, this, &RulesPage::onAnswered);
    connect(m_worker, &RulesWorker::storeChanged, this, &RulesPage::onStoreChanged);
    connect(m_worker, &RulesWorker::watchError, this, [this](const QString &message) {
        m_watchError = message;
        updateState();
    });
    m_thread->start();

    connect(m_filter, &QLineEdit::textChanged, m_proxy,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(m_filter, &QLineEdit::textChanged, this, &RulesPage::updateState);
    // Selection, not the current index: a click moves the current index before it selects.
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RulesPage::onSelection);
    connect(m_add, &QPushButton::clicked, this, &RulesPage::addRule);
    connect(m_duplicate, &QPushButton::clicked, this, &RulesPage::duplicateRule);
    connect(m_delete, &QPushButton::clicked, this, &RulesPage::deleteRule);
    connect(m_import, &QPushButton::clicked, this, &RulesPage::importRules);
    connect(m_export, &QPushButton::clicked, this, &RulesPage::exportRules);
    connect(m_pull, &QPushButton::clicked, this, &RulesPage::pull);
    connect(m_push, &QPushButton::clicked, this, &RulesPage::push);
    connect(m_editor, &RuleEditor::applied, this, &RulesPage::onApplied);
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_table);
    deleteKey->setContext(Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, &RulesPage::deleteRule);

    connect(m_connection, &ConnectionController::sessionChanged, this, &RulesPage::syncEndpoint);
    connect(m_connection, &ConnectionController::stateChanged, this, &RulesPage::onConnectionState);
    onConnectionState(m_connection->state());
    changed();
}

RulesPage::~RulesPage()
{
    // The worker stops its watcher in its own thread (deleteLater on finished); this waits for
    // at most a command timeout if a pull or push is under way.
    m_thread->quit();
    m_thread->wait();
}

const RuleSet &RulesPage::rules() const
{
    return m_model->set();
}

void RulesPage::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

void RulesPage::setStoreNamespace(const QByteArray &ns)
{
    m_ns = ns;
    m_endpointKey = QStringLiteral("-"); // forces the worker to restart with the namespace
    syncEndpoint();
}

// ---------------------------------------------------------------------------------------------
// The table and the editor

int RulesPage::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : m_proxy->mapToSource(rows.first()).row();
}

void RulesPage::selectRow(int row)
{
    if (row < 0 || row >= m_model->rowCount()) {
        m_table->selectionModel()->clearSelection();
        return;
    }
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) {
        m_filter->clear(); // the filter hides it: show it
        index = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    onSelection();
}

void RulesPage::onSelection()
{
    const int row = selectedRow();
    if (row < 0) {
        if (!m_editor->isNew()) {
            m_editor->clear();
        }
    } else if (m_editor->row() != row || !m_editor->isEditing() || m_editor->isNew()) {
        m_editor->edit(m_model->rule(row), row, m_model->set());
    }
    m_duplicate->setEnabled(row >= 0);
    m_delete->setEnabled(row >= 0);
}

QString RulesPage::uniqueId(const QString &base) const
{
    if (m_model->rowOf(base) < 0) {
        return base;
    }
    for (int i = 2;; ++i) {
        const QString id = QStringLiteral("%1-%2").arg(base.left(60)).arg(i);
        if (m_model->rowOf(id) < 0) {
            return id;
        }
    }
}

void RulesPage::addRule()
{
    Rule rule;
    rule.id = uniqueId(QStringLiteral("new-rule"));
    rule.scope.kind = Scope::Kind::Ip;
    rule.algorithm = Algorithm::FixedWindow;
    rule.limit = 10;
    rule.windowUs = 1'000'000;
    {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->selectionModel()->clearSelection();
    }
    m_editor->edit(rule, -1, m_model->set());
    m_duplicate->setEnabled(false);
    m_delete->setEnabled(false);
    if (auto *id = m_editor->findChild<QLineEdit *>(QStringLiteral("idEdit"))) {
        id->setFocus();
        id->selectAll();
    }
}

void RulesPage::duplicateRule()
{
    const int row = selectedRow();
    if (row < 0) {
        return;
    }
    Rule copy = m_model->rule(row);
    copy.id = uniqueId(copy.id.left(58) + QStringLiteral("-copy"));
    m_model->insertRule(row + 1, copy, tr("unsaved"));
    setUnsaved(true);
    changed();
    selectRow(row + 1);
    say(Tone::Info, tr("Duplicated %1 as %2.").arg(m_model->rule(row).id, copy.id),
        tr("Change what differs in the editor, then Apply."));
}

void RulesPage::deleteRule()
{
    const int row = selectedRow();
    if (row < 0) {
        return;
    }
    const QString id = m_model->rule(row).id;
    m_editor->clear();
    m_model->removeRule(row);
    setUnsaved(true);
    changed();
    selectRow(std::min(row, m_model->rowCount() - 1));
    say(Tone::Info, tr("Deleted %1 here.").arg(id),
        m_storeVersion ? tr("Redis keeps it until you push.") : QString());
}

void RulesPage::onApplied(const Rule &rule, int row)
{
    if (row >= 0 && row < m_model->rowCount()) {
        m_model->replaceRule(row, rule, tr("unsaved"));
    } else {
        row = m_model->rowCount();
        m_model->insertRule(row, rule, tr("unsaved"));
    }
    setUnsaved(true);
    changed();
    m_editor->edit(rule, row, m_model->set());
    selectRow(row);
}

// ---------------------------------------------------------------------------------------------
// Files

bool RulesPage::importFile(const QString &path, QString *error)
{
    const rules::Loaded loaded = rules::loadFile(path);
    const QString name = QFileInfo(path).fileName();
    if (!loaded.ok()) {
        QStringList lines;
        for (const Diagnostic &d : loaded.errors) {
            lines << d.toString();
        }
        const QString summary =
            tr("%1: %n error(s); nothing was imported, the rules here are unchanged.", nullptr,
               int(loaded.errors.size()))
                .arg(name);
        if (error) {
            *error = summary;
        }
        showProblems(tr("Cannot import %1: %n error(s). Nothing was changed.", nullptr,
                        int(loaded.errors.size()))
                         .arg(path),
                     lines, Tone::Bad);
        say(Tone::Bad, tr("%1 is not a valid rule file.").arg(name),
            tr("Every error is listed below with its line and column. Fix the file and import "
               "it again."));
        return false;
    }
    m_editor->clear();
    m_model->reset(loaded.set, tr("file %1").arg(name));
    m_origin = tr("file %1").arg(name);
    setUnsaved(false);
    hideProblems();
    changed();
    selectRow(0);
    say(Tone::Good,
        tr("Imported %n rule(s) from %1.", nullptr, int(loaded.set.rules.size())).arg(name),
        loaded.set.basedOn
            ? tr("The file was pulled from Redis version %1.").arg(*loaded.set.basedOn)
            : QString());
    return true;
}

bool RulesPage::exportFile(const QString &path, const QString &format, QStringList *warnings)
{
    const auto f = rules::exportFormatFromName(format.toLower());
    if (!f) {
        say(Tone::Bad, tr("Unknown export format '%1'.").arg(format),
            tr("Choose json, yaml, nginx, envoy or kong."));
        return false;
    }
    const rules::Export out = rules::exportRules(m_model->set(), *f);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(out.text) != out.text.size() ||
        !file.commit()) {
        say(Tone::Bad, tr("Cannot write %1.").arg(path), file.errorString());
        return false;
    }
    QStringList lines;
    for (const rules::Export::Skipped &s : out.skipped) {
        lines << QStringLiteral("%1: %2").arg(s.ruleId, s.reason);
    }
    if (warnings) {
        *warnings = lines;
    }
    const QString name = QFileInfo(path).fileName();
    const int written = int(m_model->set().rules.size() - size_t(out.skipped.size()));
    if (*f == rules::ExportFormat::Json || *f == rules::ExportFormat::Yaml) {
        m_origin = tr("file %1").arg(name);
        m_model->setAllWhere(m_origin);
        setUnsaved(false);
        updateState();
    }
    if (lines.isEmpty()) {
        hideProblems();
        say(Tone::Good, tr("Exported %n rule(s) to %1 (%2).", nullptr, written)
                            .arg(path, rules::exportFormatName(*f)));
    } else {
        showProblems(
            tr("%1 cannot express %n rule(s); they are not in %2:", nullptr, int(lines.size()))
                .arg(rules::exportFormatName(*f), name),
            lines, Tone::Warning);
        say(Tone::Warning,
            tr("Exported %1 of %2 rules to %3; %n left out.", nullptr, int(lines.size()))
                .arg(written)
                .arg(m_model->set().rules.size())
                .arg(path),
            tr("The list below says why %1 cannot express them.").arg(rules::exportFormatName(*f)));
    }
    return true;
}

void RulesPage::importRules()
{
    auto *dialog = new QFileDialog(this, tr("Import rules"), QString(),
                                   tr("Rule files (*.json *.yaml *.yml)"));
    dialog->setObjectName(QStringLiteral("importDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString &path) { importFile(path, nullptr); });
    dialog->open();
}

void RulesPage::exportRules()
{
    QStringList filters;
    for (const Format &f : formats) {
        filters << tr(f.filter);
    }
    auto *dialog = new QFileDialog(this, tr("Export rules"));
    dialog->setObjectName(QStringLiteral("exportDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters(filters);
    dialog->setDefaultSuffix(QLatin1String(formats[0].suffix));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog, filters](const QString &filter) {
        dialog->setDefaultSuffix(
            QLatin1String(formats[std::max<qsizetype>(0, filters.indexOf(filter))].suffix));
    });
    connect(dialog, &QFileDialog::fileSelected, this, [this, dialog, filters](const QString &path) {
        const qsizetype i = std::max<qsizetype>(0, filters.indexOf(dialog->selectedNameFilter()));
        exportFile(path, QLatin1String(formats[i].name), nullptr);
    });
    dialog->open();
}

// ---------------------------------------------------------------------------------------------
// Redis

void RulesPage::syncEndpoint()
{
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    const QString key = endpointKey(endpoint);
    if (key == m_endpointKey) {
        return;
    }
    m_endpointKey = key;
    m_storeVersion.reset();
    m_storeSet = {};
    m_watchError.clear();
    m_autoPullPending = endpoint.has_value();
    m_pullRequest = 0; // answers of the previous session no longer count
    m_pushRequest = 0;
    m_pullPurpose = PullPurpose::None;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, endpoint, ns = m_ns] { w->setEndpoint(endpoint, ns); },
        Qt::QueuedConnection);
    updateState();
}

void RulesPage::onConnectionState(const ConnectionState &state)
{
    m_redisUp = state.isUp();
    switch (state.state) {
    case ConnectionState::State::Connected:
        m_redisDown.clear();
        break;
    case ConnectionState::State::Idle:
        m_redisDown = tr("not connected to Redis (choose a server on the Connection page)");
        break;
    case ConnectionState::State::Connecting:
        m_redisDown = tr("connecting to %1…").arg(state.endpoint);
        break;
    case ConnectionState::State::Lost:
        m_redisDown = tr("Redis at %1 is not reachable (%2); the console keeps retrying")
                          .arg(state.endpoint, state.error);
        break;
    case ConnectionState::State::Failed:
        m_redisDown = tr("cannot connect to %1: %2").arg(state.endpoint, state.error);
        break;
    }
    // The endpoint appears once connected (a sandbox starts, a password arrives).
    syncEndpoint();
    updateState();
}

void RulesPage::onStoreChanged(const RuleSet &set, qint64 version)
{
    m_watchError.clear();
    const std::optional<qint64> previous = m_storeVersion;
    m_storeVersion = version;
    m_storeSet = set;
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    if (m_autoPullPending) {
        m_autoPullPending = false;
        if (version > 0 && !set.rules.empty()) {
            if (!m_unsaved) {
                adopt(set, version);
                say(Tone::Info,
                    tr("Loaded %n rule(s) from Redis, version %1.", nullptr, int(set.rules.size()))
                        .arg(version));
                return;
            }
            if (basedOn != version) {
                say(Tone::Warning,
                    tr("Redis has %n rule(s) at version %1; your unsaved changes are kept.",
                       nullptr, int(set.rules.size()))
                        .arg(version),
                    tr("Pull to review the differences, or push to replace them."),
                    {{tr("Pull and review"), QStringLiteral("bannerPullButton"),
                      [this] { requestPull(PullPurpose::Review); }}});
            }
        }
        updateState();
        return;
    }
    updateState();
    if (basedOn && *basedOn == version) {
        return; // our own push, or nothing new
    }
    if (previous && *previous == version) {
        return;
    }
    if (set.rules == m_model->set().rules) {
        m_model->setBasedOn(version); // the same rules: nothing to review
        updateState();
        return;
    }
    const QString editing = basedOn ? tr("you are editing v%1").arg(*basedOn)
                                    : tr("your rules here did not come from Redis");
    say(Tone::Warning, tr("Redis has v%1, %2.").arg(version).arg(editing),
        tr("Someone changed the rules in Redis. Pull to see what changed; a push now would be "
           "refused as a conflict."),
        {{tr("Pull"), QStringLiteral("bannerPullButton"), [this] { pull(); }}});
}

void RulesPage::requestPull(PullPurpose purpose)
{
    if (!m_redisUp) {
        say(Tone::Warning, tr("Cannot pull now: %1.").arg(m_redisDown));
        return;
    }
    m_pullRequest = ++m_nextRequest;
    m_pullPurpose = purpose;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id = m_pullRequest] { w->pull(id); }, Qt::QueuedConnection);
    updateActions();
}

void RulesPage::pull()
{
    // Unsaved changes are never dropped silently: the review says what a pull would replace.
    requestPull(m_unsaved ? PullPurpose::Review : PullPurpose::Adopt);
}

void RulesPage::push()
{
    if (!m_redisUp) {
        say(Tone::Warning, tr("Cannot push now: %1.").arg(m_redisDown),
            tr("Your rules stay here; push when Redis is back."));
        return;
    }
    if (const QList<Diagnostic> errors = rules::validate(m_model->set()); !errors.isEmpty()) {
        QStringList lines;
        for (const Diagnostic &d : errors) {
            lines << d.toString();
        }
        showProblems(tr("The rules are not valid; nothing was pushed:"), lines, Tone::Bad);
        return;
    }
    requestPull(PullPurpose::PushPreview);
}

void RulesPage::sendPush(bool force)
{
    m_pushRequest = ++m_nextRequest;
    m_pushForced = force;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id = m_pushRequest, set = m_model->set(), force] {
            w->push(id, set, force);
        },
        Qt::QueuedConnection);
    say(Tone::Info, force ? tr("Pushing (force)…") : tr("Pushing…"));
    updateActions();
}

void RulesPage::onAnswered(const StoreReply &reply)
{
    if (reply.op == StoreReply::Op::Pull) {
        if (reply.request != m_pullRequest) {
            return;
        }
        const PullPurpose purpose = m_pullPurpose;
        m_pullRequest = 0;
        m_pullPurpose = PullPurpose::None;
        updateActions();
        if (!reply.ok) {
            say(Tone::Bad, tr("Cannot read the rules from Redis."), reply.error);
            return;
        }
        m_storeVersion = reply.version;
        m_storeSet = reply.set;
        switch (purpose) {
        case PullPurpose::Adopt:
            adopt(reply.set, reply.version);
            say(Tone::Good, reply.version == 0 ? tr("Redis has no rules yet; the table is empty.")
                                               : tr("Pulled %n rule(s) from Redis, version %1.",
                                                    nullptr, int(reply.set.rules.size()))
                                                     .arg(reply.version));
            break;
        case PullPurpose::PushPreview:
            showPushPreview(reply);
            break;
        case PullPurpose::Review:
            showReview(reply);
            break;
        case PullPurpose::None:
            break;
        }
        updateState();
        return;
    }

    if (reply.request != m_pushRequest) {
        return;
    }
    m_pushRequest = 0;
    updateActions();
    if (reply.ok) {
        m_storeVersion = reply.version;
        m_storeSet = m_model->set();
        m_storeSet.basedOn = reply.version;
        m_model->setBasedOn(reply.version);
        m_origin = tr("Redis v%1").arg(reply.version);
        m_model->setAllWhere(m_origin);
        setUnsaved(false);
        changed();
        QStringList what;
        if (!reply.added.isEmpty()) {
            what << tr("added %1").arg(reply.added.join(QStringLiteral(", ")));
        }
        if (!reply.changed.isEmpty()) {
            what << tr("changed %1").arg(reply.changed.join(QStringLiteral(", ")));
        }
        if (!reply.removed.isEmpty()) {
            what << tr("removed %1").arg(reply.removed.join(QStringLiteral(", ")));
        }
        say(Tone::Good,
            what.isEmpty() ? tr("Redis already has these rules (version %1).").arg(reply.version)
                           : tr("Pushed version %1 to Redis%2.")
                                 .arg(reply.version)
                                 .arg(reply.forced ? tr(" (forced)") : QString()),
            what.join(QStringLiteral("; ")));
        return;
    }
    if (reply.conflict) {
        const std::optional<qint64> basedOn = m_model->set().basedOn;
        // The core words it for the command line; here the choices are the buttons beside it.
        QString detail = reply.error;
        detail.replace(QStringLiteral("Pull, merge and push again, or push with --force to "
                                      "overwrite. "),
                       QString());
        say(Tone::Bad,
            basedOn ? tr("Conflict: Redis moved on since version %1, nothing was overwritten.")
                          .arg(*basedOn)
                    : tr("Conflict: Redis has rules these did not come from, nothing was "
                         "overwritten."),
            detail,
            {{tr("Pull and review"), QStringLiteral("pullReviewButton"),
              [this] { requestPull(PullPurpose::Review); }},
             {tr("Push anyway (force)"), QStringLiteral("forcePushButton"),
              [this] { sendPush(true); }}});
        return;
    }
    say(Tone::Bad, tr("The push failed; Redis is unchanged."), reply.error);
}

void RulesPage::adopt(const RuleSet &set, qint64 version)
{
    RuleSet copy = set;
    copy.basedOn = version;
    m_editor->clear();
    m_origin = version > 0 ? tr("Redis v%1").arg(version) : QString();
    m_model->reset(std::move(copy), m_origin);
    setUnsaved(false);
    changed();
    selectRow(0);
}

void RulesPage::showPushPreview(const StoreReply &reply)
{
    const RuleDiff diff = diffRules(reply.set, m_model->set());
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    const QString headline =
        reply.version == 0
            ? tr("Redis has no rules yet. Pushing stores your %n rule(s) as version 1:", nullptr,
                 int(m_model->set().rules.size()))
            : tr("Redis is at version %1. Pushing your %n rule(s) makes version %2:", nullptr,
                 int(m_model->set().rules.size()))
                  .arg(reply.version)
                  .arg(reply.version + 1);
    QString note;
    if (diff.isEmpty()) {
        note = tr("Redis already has exactly these rules: there is nothing to push.");
    } else if (reply.version > 0 && basedOn != reply.version) {
        note = basedOn ? tr("Your rules are based on version %1: Redis changed since, so the "
                            "push will be refused as a conflict unless you force it.")
                             .arg(*basedOn)
                       : tr("Your rules did not come from Redis: the push will be refused as a "
                            "conflict unless you force it.");
    } else {
        note = tr("The push is one atomic step: every app reading the store sees all of it or "
                  "none.");
    }
    const int unchanged =
        int(m_model->set().rules.size()) - int(diff.added.size()) - int(diff.changed.size());
    auto *dialog = new RuleDiffDialog(RuleDiffDialog::Mode::Push, diff, headline, note,
                                      reply.version, unchanged, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this](int result) {
        if (result == RuleDiffDialog::Push) {
            sendPush(false);
        }
    });
    dialog->open();
}

void RulesPage::showReview(const StoreReply &reply)
{
    const RuleDiff diff = diffRules(reply.set, m_model->set());
    if (diff.isEmpty()) {
        adopt(reply.set, reply.version);
        say(Tone::Good, tr("Your rules are the same as Redis version %1.").arg(reply.version));
        return;
    }
    const QString headline =
        tr("Redis is at version %1. Your rules differ from it as follows (what a push would "
           "change):")
            .arg(reply.version);
    const QString note =
        tr("Keep mine: your rules stay and count as based on version %1, so the next push "
           "replaces exactly what is listed. Use Redis: your changes are dropped.")
            .arg(reply.version);
    const int unchanged =
        int(m_model->set().rules.size()) - int(diff.added.size()) - int(diff.changed.size());
    auto *dialog = new RuleDiffDialog(RuleDiffDialog::Mode::Review, diff, headline, note,
                                      reply.version, unchanged, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const qint64 version = reply.version;
    const RuleSet store = reply.set;
    connect(dialog, &QDialog::finished, this, [this, version, store](int result) {
        if (result == RuleDiffDialog::UseRedis) {
            adopt(store, version);
            say(Tone::Good, tr("Now editing Redis version %1.").arg(version));
        } else if (result == RuleDiffDialog::KeepMine) {
            m_model->setBasedOn(version);
            setUnsaved(true);
            changed();
            say(Tone::Info, tr("Your rules now count as based on version %1.").arg(version),
                tr("Push to replace what the review listed."));
        }
    });
    dialog->open();
}

// ---------------------------------------------------------------------------------------------
// State

void RulesPage::setUnsaved(bool unsaved)
{
    m_unsaved = unsaved;
    m_unsavedMark->setVisible(unsaved);
}

void RulesPage::changed()
{
    // Columns fit their contents, within reason: a long route or scope is elided, not allowed
    // to push the others out of view.
    m_table->resizeColumnsToContents();
    for (int c = 0; c < RulesModel::ColumnCount - 1; ++c) {
        const int most = c == RulesModel::LimitColumn ? 175 : 135;
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c) + 4, most));
    }
    if (m_editor->isEditing()) {
        m_editor->setContext(m_editor->row(), m_model->set());
    }
    updateState();
    Q_EMIT rulesChanged(m_model->set());
}

void RulesPage::updateState()
{
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    m_countLabel->setText(shown == total ? tr("%n rule(s)", nullptr, total)
                                         : tr("%1 of %n rule(s) shown", nullptr, total).arg(shown));

    QStringList parts;
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    if (!m_origin.isEmpty()) {
        parts << tr("From %1").arg(m_origin.toHtmlEscaped());
    } else if (total == 0) {
        parts << tr("No rules yet: import a file, pull from Redis or add one");
    }
    if (basedOn && !m_origin.startsWith(tr("Redis v%1").arg(*basedOn))) {
        parts << tr("based on Redis v%1").arg(*basedOn);
    }
    const QString warn = tone::hex(tone::text(Tone::Warning));
    if (!m_redisDown.isEmpty()) {
        parts << QStringLiteral("<span style=\"color:%1;\">%2</span>")
                     .arg(warn, tr("push and pull are off: %1").arg(m_redisDown).toHtmlEscaped());
    } else if (!m_watchError.isEmpty()) {
        parts << QStringLiteral("<span style=\"color:%1;\">%2</span>")
                     .arg(warn, tr("not watching Redis: %1").arg(m_watchError).toHtmlEscaped());
    } else if (m_storeVersion) {
        const bool behind = basedOn ? *basedOn < *m_storeVersion : *m_storeVersion > 0;
        const QString text = *m_storeVersion == 0 ? tr("Redis has no rules yet")
                                                  : tr("Redis is at v%1").arg(*m_storeVersion);
        parts << (behind ? QStringLiteral("<span style=\"color:%1;\"><b>%2</b></span>")
                               .arg(warn, text.toHtmlEscaped())
                         : text.toHtmlEscaped());
    }
    m_stateLabel->setText(parts.join(QStringLiteral(" · ")));
    updateActions();
}

void RulesPage::updateActions()
{
    const bool busy = m_pullRequest != 0 || m_pushRequest != 0;
    const bool up = m_redisUp && m_redisDown.isEmpty();
    m_push->setEnabled(up && !busy);
    m_pull->setEnabled(up && !busy);
    const QString off = tr("Off: %1. Editing, import and export keep working.").arg(m_redisDown);
    m_push->setToolTip(up ? tr("Store these rules in Redis, after a preview of what changes")
                          : off);
    m_pull->setToolTip(up ? tr("Load the rules kept in Redis (unsaved changes are reviewed "
                               "first)")
                          : off);
    m_export->setEnabled(true);
    const int row = selectedRow();
    m_duplicate->setEnabled(row >= 0);
    m_delete->setEnabled(row >= 0);
}

void RulesPage::say(Tone tone, const QString &headline, const QString &detail,
                    const QList<MessageBanner::Action> &actions)
{
    m_banner->showMessage(tone, headline, detail, actions);
}

void RulesPage::showProblems(const QString &title, const QStringList &lines, Tone tone)
{
    m_problemsTitle->setText(title);
    m_problemsTitle->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(tone::text(tone))));
    m_problemList->clear();
    m_problemList->addItems(lines);
    m_problems->show();
}

void RulesPage::hideProblems()
{
    m_problems->hide();
    m_problemList->clear();
}

} // namespace sluice::ui
