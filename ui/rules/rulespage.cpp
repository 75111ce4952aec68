#include "rulespage.h"

#include "exportdialog.h"
#include "historydialog.h"
#include "overridesmodel.h"
#include "rulediff.h"
#include "rulediffdialog.h"
#include "ruleeditor.h"
#include "rulesmodel.h"
#include "rulessession.h"

#include "ui/common/confirm.h"
#include "ui/common/filedialog.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"

#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSettings>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

const QString recentKey = QStringLiteral("rules/recentFiles");
const QString sourceKey = QStringLiteral("rules/source"); // "file" or "redis"
const QString lastFileKey = QStringLiteral("rules/lastFile");
const QString importDirKey = QStringLiteral("rules/importDir");

} // namespace

RulesPage::RulesPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_session(new RulesSession(connection, this))
    , m_model(m_session->model())
{
    setObjectName(QStringLiteral("rulesPage"));
    auto *root = PageHeader::pageLayout(this);

    // The header: the title, where the rules stand, the page's actions.
    auto *header = new PageHeader(tr("Rules"), {}, this);
    m_unsavedMark = PageHeader::badge(tr("unsaved changes"), Tone::Warning, this);
    m_unsavedMark->setObjectName(QStringLiteral("unsavedMark"));
    m_unsavedMark->setToolTip(
        tr("The rules here differ from the file or Redis version they came from: push them or "
           "export them to keep them"));
    m_unsavedMark->hide();
    header->addBadge(m_unsavedMark);
    m_import = PageHeader::button(tr("&Import…"), QStringLiteral("importButton"), this,
                                  tr("Replace the rules here with a JSON or YAML rule file"));
    m_export =
        PageHeader::button(tr("E&xport…"), QStringLiteral("exportButton"), this,
                           tr("Write the rules as a rule file, or for nginx, Envoy or Kong"));
    m_pull = PageHeader::button(tr("P&ull"), QStringLiteral("pullButton"), this);
    m_push = PageHeader::button(tr("Pu&sh…"), QStringLiteral("pushButton"), this);
    m_history = PageHeader::button(tr("&History…"), QStringLiteral("historyButton"), this,
                                   tr("The versions stored in Redis: who changed what, the "
                                      "diff, and a rollback"));
    for (QPushButton *b : {m_import, m_export, m_pull, m_push, m_history}) {
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
    // A staged change, while there is one: what it is, and its two ways out.
    m_stageBanner =
        new MessageBanner(QStringLiteral("stageBanner"), QStringLiteral("stageText"), this);
    m_promote = m_stageBanner->addButton(tr("&Promote"), QStringLiteral("promoteButton"), true);
    m_promote->setToolTip(tr("Enforce the staged rules: a new version in the history"));
    m_discardStage =
        m_stageBanner->addButton(tr("Disc&ard"), QStringLiteral("discardStageButton"), true);
    m_discardStage->setToolTip(tr("Drop the staged rules; the enforced ones stay as they are"));
    connect(m_promote, &QPushButton::clicked, m_session, &RulesSession::promote);
    connect(m_discardStage, &QPushButton::clicked, m_session, &RulesSession::discard);
    m_stageBanner->hide();
    root->addWidget(m_stageBanner);

    // Body: the table on the left, the editor on the right.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    root->addWidget(splitter, 1);

    auto *left = new QWidget(splitter);
    auto *leftBox = PageHeader::layoutOn<QVBoxLayout>(left, 6, {0, 0, 12, 0});
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("filterEdit"));
    m_filter->setPlaceholderText(tr("Filter by id, algorithm, limit, scope, route… (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    leftBox->addWidget(m_filter);

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setSortRole(RulesModel::SortRole);
    m_table = makeTableView(QStringLiteral("rulesTable"), m_proxy, left);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the set's order until a header is clicked
    m_table->verticalHeader()->setDefaultSectionSize(26);
    // Every column in view without scrolling, at 1280x800 as on a large screen: the short
    // columns fit their contents, the route takes what is left (elided, whole in its tooltip),
    // and where the rule stands ("file /a/long/path.json") is capped in onRulesChanged().
    // At the first-start size there is not room for every column's contents: the view's width
    // is shared, widest first, and the cells elide with their tooltip
    // (where the rules stand, "file /a/long/path.json", at most 150 px).
    fitColumnsToView(m_table, RulesModel::RouteColumn, {{RulesModel::WhereColumn, 150}},
                     {RulesModel::IdColumn});
    // The table above, the selected rule's overrides below (the splitter keeps both).
    auto *leftSplit = new QSplitter(Qt::Vertical, left);
    leftSplit->setObjectName(QStringLiteral("rulesLeftSplitter"));
    leftSplit->setChildrenCollapsible(false);
    leftSplit->addWidget(m_table);
    auto *overridesPane = new QWidget(leftSplit);
    auto *overridesBox = PageHeader::layoutOn<QVBoxLayout>(overridesPane, 4, {0, 6, 0, 0});
    auto *overridesTitle = new QHBoxLayout;
    m_overridesHeading = PageHeader::heading(tr("Overrides"), 1.0, overridesPane);
    m_overridesHeading->setObjectName(QStringLiteral("overridesHeading"));
    m_removeOverride = PageHeader::button(
        tr("&Remove override…"), QStringLiteral("removeOverrideButton"), overridesPane,
        tr("Remove the selected override from Redis: the rule decides for its subjects again"));
    m_removeOverride->setEnabled(false);
    m_addOverride = PageHeader::button(
        tr("Add override…"), QStringLiteral("addOverrideButton"), overridesPane,
        tr("Store an override of the selected rule in Redis: allow or deny a subject or a "
           "network for a time, whether it is limited right now or not"));
    overridesTitle->addWidget(m_overridesHeading);
    overridesTitle->addStretch(1);
    overridesTitle->addWidget(m_addOverride);
    overridesTitle->addWidget(m_removeOverride);
    overridesBox->addLayout(overridesTitle);
    m_overrides = new OverridesModel(this);
    m_overridesView = makeTableView(QStringLiteral("overridesTable"), m_overrides, overridesPane);
    m_overridesView->setTextElideMode(Qt::ElideMiddle);
    fitColumnsToView(m_overridesView, OverridesModel::NoteColumn, {},
                     {OverridesModel::MatchColumn});
    overridesBox->addWidget(m_overridesView, 1);
    m_overridesNote = PageHeader::note(overridesPane);
    m_overridesNote->setObjectName(QStringLiteral("overridesNote"));
    m_overridesNote->setWordWrap(true);
    overridesBox->addWidget(m_overridesNote);
    leftSplit->addWidget(overridesPane);
    leftSplit->setStretchFactor(0, 3);
    leftSplit->setStretchFactor(1, 1);
    overridesPane->setMinimumHeight(130);
    leftBox->addWidget(leftSplit, 1);

    auto *rowButtons = new QHBoxLayout;
    rowButtons->setSpacing(6);
    m_add = PageHeader::button(tr("&Add"), QStringLiteral("addButton"), left,
                               tr("A new rule, typed in the editor"));
    m_duplicate = PageHeader::button(tr("D&uplicate"), QStringLiteral("duplicateButton"), left);
    m_delete =
        PageHeader::button(tr("&Delete"), QStringLiteral("deleteButton"), left,
                           tr("Remove the selected rule here; Redis keeps it until you push"));
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
    auto *problemsBox = PageHeader::layoutOn<QVBoxLayout>(m_problems, 4, {10, 6, 10, 6});
    auto *problemsHead = new QHBoxLayout;
    m_problemsTitle = new QLabel(m_problems);
    m_problemsTitle->setObjectName(QStringLiteral("problemsTitle"));
    m_problemsTitle->setWordWrap(true);
    QFont pf = m_problemsTitle->font();
    pf.setBold(true);
    m_problemsTitle->setFont(pf);
    auto *hideProblems =
        PageHeader::button(tr("Hide"), QStringLiteral("hideProblemsButton"), m_problems);
    hideProblems->setFlat(true);
    connect(hideProblems, &QPushButton::clicked, this, [this] { showProblems({}); });
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
    connect(m_history, &QPushButton::clicked, this, &RulesPage::showHistory);
    connect(m_editor, &RuleEditor::applied, this, &RulesPage::onApplied);
    connect(m_session, &RulesSession::overridesChanged, this, &RulesPage::updateOverrides);
    connect(m_overridesView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RulesPage::updateRemoveOverride);
    connect(m_removeOverride, &QPushButton::clicked, this, &RulesPage::removeSelectedOverride);
    connect(m_addOverride, &QPushButton::clicked, this, &RulesPage::addOverride);
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_table);
    deleteKey->setContext(Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, &RulesPage::deleteRule);

    // The session: its answers, and the whole set replaced under the editor.
    connect(m_session, &RulesSession::message, this, &RulesPage::showMessage);
    connect(m_session, &RulesSession::problems, this, &RulesPage::showProblems);
    connect(m_session, &RulesSession::stateChanged, this, &RulesPage::updateState);
    connect(m_session, &RulesSession::rulesChanged, this, &RulesPage::onRulesChanged);
    connect(m_session, &RulesSession::pushPreviewReady, this, &RulesPage::showPushPreview);
    connect(m_session, &RulesSession::reviewReady, this, &RulesPage::showReview);
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, m_editor, &RuleEditor::clear);
    connect(m_session, &RulesSession::replaced, this, [this] {
        selectRow(0);
        // Replaced by Redis's rules (a pull), not by a file: the start reopens Redis's.
        if (!m_importing) {
            QSettings().setValue(sourceKey, QStringLiteral("redis"));
        }
    });
    onRulesChanged();
}

RulesPage::~RulesPage() = default;

bool RulesPage::importFile(const QString &path, QString *error)
{
    const QScopedValueRollback importing(m_importing, true);
    if (!m_session->importFile(path, error)) {
        return false;
    }
    remember(path);
    return true;
}

bool RulesPage::exportFile(const QString &path, const QString &format, QStringList *warnings)
{
    return m_session->exportFile(path, format, warnings);
}

void RulesPage::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
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
    if (row != m_editor->row() && !leaveEdits(row)) {
        return;
    }
    go(row);
}

void RulesPage::go(int row)
{
    if (row < 0) {
        if (!m_editor->isNew()) {
            m_editor->clear();
        }
    } else if (m_editor->row() != row || !m_editor->isEditing() || m_editor->isNew()) {
        m_editor->edit(m_model->rule(row), row, m_model->set());
    }
    m_duplicate->setEnabled(row >= 0);
    m_delete->setEnabled(row >= 0);
    const QString id = row >= 0 ? m_model->rule(row).id : QString();
    if (id != m_session->overridesRule() || row < 0) {
        m_session->loadOverrides(id);
    }
    updateOverrides();
}

void RulesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_session->overridesRule().isEmpty()) {
        m_session->loadOverrides(m_session->overridesRule());
    }
}

void RulesPage::updateOverrides()
{
    const Rule *rule = m_session->rules().find(m_session->overridesRule());
    const QModelIndexList sel = m_overridesView->selectionModel()->selectedRows();
    const OverridesModel::Row current =
        sel.isEmpty() ? OverridesModel::Row{} : m_overrides->rows().value(sel.first().row());
    if (!rule) {
        m_overrides->setRows(Rule{}, {});
        m_overridesHeading->setText(tr("Overrides"));
        m_overridesNote->setText(tr("Select a rule to see its per-subject overrides."));
        m_removeOverride->setEnabled(false);
        return;
    }
    m_overrides->setRows(*rule, m_session->storedOverrides());
    // Keep the selected override across a new read.
    for (int i = 0; i < m_overrides->rows().size() && !sel.isEmpty(); ++i) {
        const OverridesModel::Row &r = m_overrides->rows()[i];
        if (r.stored == current.stored && r.override.kind == current.override.kind &&
            r.override.pattern == current.override.pattern) {
            m_overridesView->selectRow(i);
            break;
        }
    }
    const qsizetype stored = m_session->storedOverrides().size();
    const qsizetype inFile = qsizetype(rule->overrides.size());
    m_overridesHeading->setText(tr("Overrides of %1 (%2)").arg(rule->id).arg(stored + inFile));
    QString note;
    if (m_session->isReadingOverrides()) {
        note = tr("Reading the overrides stored in Redis…");
    } else if (!m_session->overridesError().isEmpty()) {
        note = tr("%n in the rule file. The overrides stored in Redis are not known: %1.", nullptr,
                  int(inFile))
                   .arg(m_session->overridesError());
    } else if (stored + inFile == 0) {
        note = tr("None: the rule's limit applies to every subject. The Monitor's Allow and Block "
                  "store overrides; sluice-cli overrides add does too.");
    } else {
        note = tr("%1 in the rule file, %2 stored in Redis (those win over the file's, and end by "
                  "themselves).")
                   .arg(inFile)
                   .arg(stored);
    }
    m_overridesNote->setText(note);
    updateRemoveOverride();
}

void RulesPage::updateRemoveOverride()
{
    const QModelIndexList now = m_overridesView->selectionModel()->selectedRows();
    m_removeOverride->setEnabled(!now.isEmpty() && !m_session->isReadingOverrides() &&
                                 m_overrides->rows().value(now.first().row()).stored);
    m_addOverride->setEnabled(m_session->rules().find(m_session->overridesRule()) &&
                              !m_session->isReadingOverrides());
}

void RulesPage::removeSelectedOverride()
{
    const QModelIndexList sel = m_overridesView->selectionModel()->selectedRows();
    if (sel.isEmpty()) {
        return;
    }
    const OverridesModel::Row r = m_overrides->rows().value(sel.first().row());
    const QString ruleId = m_session->overridesRule();
    if (!r.stored || ruleId.isEmpty()) {
        return;
    }
    askToConfirm(
        this, m_overrideConfirm, tr("Remove an override"),
        tr("Remove the override %1 (%2) of rule %3 from Redis?\n\nThe rule's own limit then "
           "applies to it again, wherever the rules come from the store.")
            .arg(r.override.describeMatch(), Override::actionName(r.override.action), ruleId),
        tr("Remove"),
        [this, ruleId, kind = r.override.kind, pattern = r.override.pattern] {
            m_session->removeStoredOverride(ruleId, kind, pattern);
        },
        QMessageBox::DestructiveRole);
}

bool RulesPage::leaveEdits(int row)
{
    if (!m_editor->isEditing() || !m_editor->isModified()) {
        return true;
    }
    // Back on the rule being edited while the question is open (and after Keep editing).
    const int edited = m_editor->row();
    {
        const QSignalBlocker block(m_table->selectionModel());
        if (edited >= 0) {
            const QModelIndex index = m_proxy->mapFromSource(m_model->index(edited, 0));
            m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                                  QItemSelectionModel::Rows);
        } else {
            m_table->selectionModel()->clearSelection();
        }
    }
    if (m_asking) {
        return false;
    }
    const QString id = m_editor->isNew() ? tr("the new rule") : m_model->rule(edited).id;
    const QString question =
        m_editor->currentRule() ? tr("Apply your changes to %1 before you leave it?").arg(id)
                                : tr("Your changes to %1 are not valid yet. Discard them?").arg(id);
    if (m_editChoice) {
        resolveEdits(m_editChoice(question), row);
        return false;
    }
    m_asking = true;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Unapplied changes"), question,
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("unappliedEditsBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *apply = nullptr;
    if (m_editor->currentRule()) {
        apply = box->addButton(tr("Apply"), QMessageBox::AcceptRole);
    }
    QPushButton *discard = box->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    QPushButton *keep = box->addButton(tr("Keep editing"), QMessageBox::RejectRole);
    box->setDefaultButton(apply ? apply : keep);
    connect(box, &QMessageBox::finished, this, [this, box, apply, discard, row] {
        m_asking = false;
        const QAbstractButton *b = box->clickedButton();
        resolveEdits(b && b == apply     ? EditChoice::Apply
                     : b && b == discard ? EditChoice::Discard
                                         : EditChoice::KeepEditing,
                     row);
    });
    box->open();
    return false;
}

void RulesPage::resolveEdits(EditChoice choice, int row)
{
    switch (choice) {
    case EditChoice::KeepEditing:
        return;
    case EditChoice::Apply:
        if (!m_editor->currentRule()) {
            return; // not valid: the marks in the editor say why
        }
        m_editor->apply(); // onApplied: the rule goes in; rows before the end keep their number
        break;
    case EditChoice::Discard:
        m_editor->clear();
        break;
    }
    if (row == -2) {
        addRule();
    } else {
        selectRow(row);
    }
}

void RulesPage::addRule()
{
    if (!leaveEdits(-2)) {
        return;
    }
    {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->selectionModel()->clearSelection();
    }
    m_editor->edit(m_session->newRule(), -1, m_model->set());
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
    const int copy = m_session->duplicate(row);
    if (copy >= 0) {
        selectRow(copy);
    }
}

void RulesPage::deleteRule()
{
    const int row = selectedRow();
    if (row < 0) {
        return;
    }
    m_editor->clear();
    m_session->remove(row);
    selectRow(std::min(row, m_model->rowCount() - 1));
}

void RulesPage::onApplied(const Rule &rule, int row)
{
    row = m_session->apply(rule, row);
    m_editor->edit(rule, row, m_model->set());
    selectRow(row);
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
        m_banner->showMessage(Tone::Warning, tr("The last rule file, %1, is gone.").arg(file),
                              tr("Import another one, or pick one in File > Recent files."));
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

void RulesPage::exportRules()
{
    if (auto *open = findChild<ExportDialog *>(QStringLiteral("exportDialog"))) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto *dialog = new ExportDialog(m_session, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

// ---------------------------------------------------------------------------------------------
// Redis

void RulesPage::pull()
{
    m_session->pull();
}

void RulesPage::push()
{
    m_session->push();
}

void RulesPage::showPushPreview(const RulesSession::DiffPrompt &p)
{
    auto *dialog = new RuleDiffDialog(RuleDiffDialog::Mode::Push, p.diff, p.headline, p.note,
                                      p.version, p.unchanged, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setPreview(p.preview, p.previewError);
    connect(dialog, &QDialog::finished, this, [this, dialog](int result) {
        if (result == RuleDiffDialog::Push) {
            m_session->confirmPush(dialog->message());
        } else if (result == RuleDiffDialog::Stage) {
            m_session->confirmStage(dialog->message());
        }
    });
    dialog->open();
}

HistoryDialog *RulesPage::showHistory()
{
    auto *dialog = new HistoryDialog(m_session, m_historyConfirm, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void RulesPage::showReview(const RulesSession::DiffPrompt &p)
{
    auto *dialog = new RuleDiffDialog(RuleDiffDialog::Mode::Review, p.diff, p.headline, p.note,
                                      p.version, p.unchanged, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, p](int result) {
        if (result == RuleDiffDialog::UseRedis) {
            m_session->useRedis(p);
        } else if (result == RuleDiffDialog::KeepMine) {
            m_session->keepMine(p.version);
        }
    });
    dialog->open();
}

// ---------------------------------------------------------------------------------------------
// State

void RulesPage::onRulesChanged()
{
    updateOverrides(); // the file's overrides of the selected rule may have changed
    if (m_editor->isEditing()) {
        m_editor->setContext(m_editor->row(), m_model->set());
    }
    updateState();
    Q_EMIT rulesChanged(m_session->servedSet());
}

void RulesPage::updateStage()
{
    const auto &stage = m_session->stage();
    if (!stage) {
        m_stageBanner->hide();
        return;
    }
    QStringList what;
    if (!stage->changed.isEmpty()) {
        what << tr("changes %1").arg(stage->changed.join(QStringLiteral(", ")));
    }
    if (!stage->added.isEmpty()) {
        what << tr("adds %1").arg(stage->added.join(QStringLiteral(", ")));
    }
    if (!stage->removed.isEmpty()) {
        what << tr("removes %1").arg(stage->removed.join(QStringLiteral(", ")));
    }
    QString detail = tr("Staged at version %1 by %2: %3. The service decides by the enforced "
                        "rules and, in shadow, by these; the Monitor shows them side by side.")
                         .arg(stage->version)
                         .arg(stage->author.isEmpty() ? tr("someone") : stage->author,
                              what.join(QStringLiteral("; ")));
    if (!stage->message.isEmpty()) {
        detail += QLatin1Char('\n') + tr("Why: %1").arg(stage->message);
    }
    m_stageBanner->showMessage(Tone::Warning, tr("A change is staged, running in shadow"), detail);
    m_stageBanner->setBusy(m_session->isBusy() || !m_session->canTalkToRedis());
    m_stageBanner->show();
}

void RulesPage::updateState()
{
    updateStage();
    m_unsavedMark->setVisible(m_session->hasUnsavedChanges());
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    m_countLabel->setText(shown == total ? tr("%n rule(s)", nullptr, total)
                                         : tr("%1 of %n rule(s) shown", nullptr, total).arg(shown));

    QStringList parts;
    const std::optional<qint64> basedOn = m_model->set().basedOn;
    const QString origin = m_session->origin();
    const std::optional<qint64> store = m_session->storeVersion();
    if (!origin.isEmpty()) {
        parts << tr("From %1").arg(origin.toHtmlEscaped());
    } else if (total == 0) {
        parts << tr("No rules yet: import a file, pull from Redis or add one");
    }
    if (basedOn && !origin.startsWith(RulesSession::tr("Redis v%1").arg(*basedOn))) {
        parts << tr("based on Redis v%1").arg(*basedOn);
    }
    const QString warn = tone::hex(tone::text(Tone::Warning));
    if (!m_session->redisDown().isEmpty()) {
        parts << QStringLiteral("<span style=\"color:%1;\">%2</span>")
                     .arg(warn, tr("push and pull are off: %1")
                                    .arg(m_session->redisDown())
                                    .toHtmlEscaped());
    } else if (!m_session->watchError().isEmpty()) {
        parts << QStringLiteral("<span style=\"color:%1;\">%2</span>")
                     .arg(
                         warn,
                         tr("not watching Redis: %1").arg(m_session->watchError()).toHtmlEscaped());
    } else if (store) {
        const bool behind = basedOn ? *basedOn < *store : *store > 0;
        const QString text =
            *store == 0 ? tr("Redis has no rules yet") : tr("Redis is at v%1").arg(*store);
        parts << (behind ? QStringLiteral("<span style=\"color:%1;\"><b>%2</b></span>")
                               .arg(warn, text.toHtmlEscaped())
                         : text.toHtmlEscaped());
    }
    m_stateLabel->setText(parts.join(QStringLiteral(" · ")));
    updateActions();
}

void RulesPage::updateActions()
{
    const bool up = m_session->canTalkToRedis() || m_session->isBusy();
    m_push->setEnabled(m_session->canTalkToRedis());
    m_pull->setEnabled(m_session->canTalkToRedis());
    m_history->setEnabled(m_session->canTalkToRedis());
    const QString off =
        tr("Off: %1. Editing, import and export keep working.").arg(m_session->redisDown());
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

void RulesPage::showMessage(const RulesSession::Message &m)
{
    QList<MessageBanner::Action> actions;
    for (const RulesSession::Offer offer : m.offers) {
        switch (offer) {
        case RulesSession::Offer::Pull:
            actions.append(
                {tr("Pull"), QStringLiteral("bannerPullButton"), [this] { m_session->pull(); }});
            break;
        case RulesSession::Offer::PullAndReview:
            // Beside Force push it answers a conflict; alone, a store that moved on.
            actions.append({tr("Pull and review"),
                            m.offers.contains(RulesSession::Offer::ForcePush)
                                ? QStringLiteral("pullReviewButton")
                                : QStringLiteral("bannerPullButton"),
                            [this] { m_session->pullForReview(); }});
            break;
        case RulesSession::Offer::ForcePush:
            actions.append({tr("Push anyway (force)"), QStringLiteral("forcePushButton"),
                            [this] { m_session->forcePush(); }});
            break;
        case RulesSession::Offer::ReloadFile:
            actions.append({tr("Reload the file"), QStringLiteral("reloadFileButton"),
                            [this] { m_session->reloadFile(); }});
            break;
        case RulesSession::Offer::KeepEdits:
            actions.append({tr("Keep the rules here"), QStringLiteral("keepEditsButton"),
                            [this] { m_session->keepEdits(); }});
            break;
        case RulesSession::Offer::OverwriteFile:
            actions.append(
                {tr("Overwrite the file"), QStringLiteral("overwriteFileButton"), [this] {
                     saveTo(m_session->filePath(), {true, false}, {});
                 }});
            break;
        case RulesSession::Offer::SaveWithoutComments:
            actions.append(
                {tr("Save without the comments"), QStringLiteral("dropCommentsButton"), [this] {
                     saveTo(m_session->filePath(), {false, true}, {});
                 }});
            break;
        case RulesSession::Offer::SaveAs:
            actions.append(
                {tr("Save as…"), QStringLiteral("bannerSaveAsButton"), [this] { saveAs(); }});
            break;
        }
    }
    m_banner->showMessage(m.tone, m.headline, m.detail, actions);
}

void RulesPage::showProblems(const RulesSession::Problems &p)
{
    if (p.lines.isEmpty() && p.title.isEmpty()) {
        m_problems->hide();
        m_problemList->clear();
        return;
    }
    m_problemsTitle->setText(p.title);
    m_problemsTitle->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(tone::text(p.tone))));
    m_problemList->clear();
    m_problemList->addItems(p.lines);
    m_problems->show();
}

} // namespace sluice::ui
