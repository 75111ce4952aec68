#include "rulespage.h"

#include "exportdialog.h"
#include "overridespanel.h"
#include "ruleeditor.h"
#include "rulesmodel.h"
#include "rulessession.h"
#include "stagebanner.h"

#include "ui/common/confirm.h"
#include "ui/common/messagebanner.h"
#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"

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
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace sluice::ui {

RulesPage::RulesPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_session(new RulesSession(connection, this))
    , m_model(m_session->model())
{
    setObjectName(QStringLiteral("rulesPage"));
    auto *root = PageHeader::pageLayout(this);
    buildHeader(root);
    buildBanners(root);
    buildBody(root);
    buildProblems(root);
    connectSignals();
    onRulesChanged();
}

RulesPage::~RulesPage() = default;

// The header: the title, where the rules stand, the page's actions.
void RulesPage::buildHeader(QVBoxLayout *root)
{
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
}

// The banner: one message answering the last action or telling what Redis did; below it, a
// staged change while there is one.
void RulesPage::buildBanners(QVBoxLayout *root)
{
    m_banner = new MessageBanner(QStringLiteral("rulesBanner"), QStringLiteral("bannerText"), this);
    m_banner->setDismissible(QStringLiteral("dismissBannerButton"));
    root->addWidget(m_banner);
    m_stageBanner = new StageBanner(m_session, this);
    root->addWidget(m_stageBanner);
}

// Body: the table on the left (the selected rule's overrides under it), the editor on the right.
void RulesPage::buildBody(QVBoxLayout *root)
{
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
    // The id and the limit are what a row is read by: they give way last.
    fitColumnsToView(m_table, RulesModel::RouteColumn, {{RulesModel::WhereColumn, 150}},
                     {RulesModel::IdColumn, RulesModel::LimitColumn});
    // The table above, the selected rule's overrides below (the splitter keeps both).
    auto *leftSplit = new QSplitter(Qt::Vertical, left);
    leftSplit->setObjectName(QStringLiteral("rulesLeftSplitter"));
    leftSplit->setChildrenCollapsible(false);
    leftSplit->addWidget(m_table);
    m_overrides = new OverridesPanel(m_session, leftSplit);
    leftSplit->addWidget(m_overrides);
    PageHeader::shareSplit(leftSplit, 3, 1);
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
    PageHeader::shareSplit(splitter, 3, 2, {840, 400});
}

// Problems: import errors and export warnings, one per line, until dismissed.
void RulesPage::buildProblems(QVBoxLayout *root)
{
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
}

void RulesPage::connectSignals()
{
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
            rememberRedisSource();
        }
    });
}

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

void RulesPage::setOverrideConfirm(ConfirmHook hook)
{
    m_overrides->setConfirm(std::move(hook));
}

void RulesPage::setStageConfirm(ConfirmHook hook)
{
    m_stageBanner->setConfirm(std::move(hook));
}

OverridesModel *RulesPage::overridesModel() const
{
    return m_overrides->model();
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
    m_overrides->refresh();
}

void RulesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_session->overridesRule().isEmpty()) {
        m_session->loadOverrides(m_session->overridesRule());
    }
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

bool RulesPage::useLimit(const QString &ruleId, qint64 limit, QString *detail)
{
    const std::vector<Rule> &rules = m_model->set().rules;
    const auto it =
        std::find_if(rules.begin(), rules.end(), [&](const Rule &r) { return r.id == ruleId; });
    if (it == rules.end()) {
        *detail = tr("The Rules page has no rule %1 any more.").arg(ruleId);
        return false;
    }
    if (m_editor->isEditing() && m_editor->isModified()) {
        *detail = tr("The rule editor holds edits not applied yet: apply or discard them first.");
        return false;
    }
    const int row = int(it - rules.begin());
    Rule rule = *it;
    (algorithm::isWindow(rule.algorithm) ? rule.limit : rule.burst) = limit;
    selectRow(row);
    onApplied(rule, row); // in the working set, unsaved; the editor shows it
    *detail = tr("%1 is now %2, unsaved: review it, then save, push or stage it.")
                  .arg(rule.id, rule.describe());
    return true;
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
// State

void RulesPage::onRulesChanged()
{
    m_overrides->refresh(); // the file's overrides of the selected rule may have changed
    if (m_editor->isEditing()) {
        m_editor->setContext(m_editor->row(), m_model->set());
    }
    updateState();
    Q_EMIT rulesChanged(m_session->servedSet());
}

void RulesPage::updateState()
{
    m_stageBanner->refresh();
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
