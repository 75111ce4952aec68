#include "ruleeditor.h"

#include "ui/common/elidedlabel.h"
#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include "rulefields.h"
#include "rulepreview.h"
#include "rulesmodel.h"

#include "core/rules/codec.h"
#include "core/rules/jsonlocator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// The theme's colours, taken again when it changes (Theme::followStyleSheet).
QString helpStyle()
{
    return QStringLiteral("color: %1;").arg(tone::hex(tone::muted()));
}
QString errorStyle()
{
    return QStringLiteral("color: %1;").arg(tone::hex(tone::text(Tone::Bad)));
}

QLabel *smallLabel(QWidget *parent, QString (*style)())
{
    auto *l = new QLabel(parent);
    l->setWordWrap(true);
    Theme::followStyleSheet(l, style);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * 0.92);
    l->setFont(f);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

// The default parameters a rule gets for the algorithm family it does not use yet, so that
// switching the algorithm shows a working rule at once.
constexpr qint64 defaultLimit = 10;
constexpr qint64 defaultWindowUs = 1'000'000;
constexpr Rate defaultRate{10, 1'000'000};
constexpr qint64 defaultBurst = 20;

// A number stays a number for the codec (so "3" is the integer 3), anything else is passed on
// as a string and the codec says what it expected ("expected a positive integer, got ...").
QJsonValue integerOrText(const QString &text)
{
    bool ok = false;
    const qint64 n = text.trimmed().toLongLong(&ok);
    if (ok) {
        return QJsonValue(n);
    }
    return QJsonValue(text);
}

} // namespace

RuleEditor::RuleEditor(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("ruleEditor"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);

    auto *empty = new QLabel(tr("Select a rule to edit it, or press Add."), m_stack);
    empty->setAlignment(Qt::AlignCenter);
    Theme::followStyleSheet(empty, helpStyle);
    m_stack->addWidget(empty);

    // The title row stays in view (title, modified mark, Revert, Apply); the fields scroll.
    auto *page = new QWidget(m_stack);
    auto *pageBox = PageHeader::layoutOn<QVBoxLayout>(page, 8);
    m_stack->addWidget(page);
    pageBox->addLayout(buildTitleRow(page));

    auto *scroll = new QScrollArea(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *form = new QWidget(scroll);
    scroll->setWidget(form);
    pageBox->addWidget(scroll, 1);

    auto *box = PageHeader::layoutOn<QVBoxLayout>(form, 8, {0, 0, 8, 0});

    m_grid = new QGridLayout;
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(4);
    m_grid->setColumnStretch(1, 1);
    box->addLayout(m_grid);

    int line = buildFields(form);
    buildPolicyFields(form, line);

    m_generalError = smallLabel(form, errorStyle);
    m_generalError->setObjectName(QStringLiteral("generalError"));
    box->addWidget(m_generalError);

    buildPreview(form, box);
    box->addStretch(1);

    connectFields();
    clear();
}

QHBoxLayout *RuleEditor::buildTitleRow(QWidget *page)
{
    auto *titleRow = new QHBoxLayout;
    titleRow->setContentsMargins(0, 0, 8, 0);
    m_title = new ElidedLabel(page);
    m_title->setObjectName(QStringLiteral("editorTitle"));
    QFont tf = m_title->font();
    tf.setBold(true);
    tf.setPointSizeF(tf.pointSizeF() * 1.2);
    m_title->setFont(tf);
    m_modifiedMark = new QLabel(tr("modified"), page);
    m_modifiedMark->setObjectName(QStringLiteral("editorModified"));
    m_modifiedMark->setToolTip(tr("Changed here, not applied to the table yet"));
    Theme::followStyleSheet(m_modifiedMark, [] {
        return QStringLiteral("color: %1; background: %2; border-radius: 3px; padding: 1px 6px;")
            .arg(tone::hex(tone::text(Tone::Warning)), tone::hex(tone::background(Tone::Warning)));
    });
    m_revert = PageHeader::button(tr("Re&vert"), QStringLiteral("revertButton"), page,
                                  tr("Forget the changes typed here"));
    m_apply = PageHeader::button(tr("A&pply"), QStringLiteral("applyButton"), page);
    m_apply->setDefault(true);
    titleRow->addWidget(m_title);
    titleRow->addSpacing(8);
    titleRow->addWidget(m_modifiedMark);
    titleRow->addStretch(1);
    titleRow->addWidget(m_revert);
    titleRow->addWidget(m_apply);
    return titleRow;
}

// The fields the Simulation page's rule form shares, then the rule's own; returns the next line.
int RuleEditor::buildFields(QWidget *form)
{
    int line = 0;
    const auto lineEdit = [form](const QString &field) {
        auto *e = new QLineEdit(form);
        e->setPlaceholderText(RuleFields::placeholder(field));
        return e;
    };
    const auto fieldRow = [&](const QString &field) {
        QLineEdit *e = lineEdit(field);
        addRow(field, RuleFields::label(field), e, line++);
        return e;
    };
    m_id = fieldRow(QStringLiteral("id"));
    m_algorithm = RuleFields::algorithmCombo(form);
    addRow(QStringLiteral("algorithm"), RuleFields::label(QStringLiteral("algorithm")), m_algorithm,
           line++);
    m_limit = fieldRow(QStringLiteral("limit"));
    m_window = fieldRow(QStringLiteral("window"));
    m_rate = fieldRow(QStringLiteral("rate"));
    m_burst = fieldRow(QStringLiteral("burst"));

    const RuleFields::Scope scope = RuleFields::scopeField(form);
    m_scope = scope.kind;
    m_scope->setObjectName(QStringLiteral("scopeCombo"));
    m_scopeName = scope.name;
    m_scopeName->setObjectName(QStringLiteral("scopeNameEdit"));
    addRow(QStringLiteral("scope"), RuleFields::label(QStringLiteral("scope")), scope.box, line++);
    m_rows[QStringLiteral("scope")].label->setBuddy(m_scope);

    m_route = new QLineEdit(form);
    m_route->setPlaceholderText(tr("e.g. GET /hello"));
    addRow(QStringLiteral("route"), tr("Ro&ute:"), m_route, line++);
    m_description = new QLineEdit(form);
    m_description->setPlaceholderText(tr("what the limit protects, for the next on-call"));
    addRow(QStringLiteral("description"), tr("&Description:"), m_description, line++);
    m_keyPrefix = new QLineEdit(form);
    addRow(QStringLiteral("key_prefix"), tr("&Key prefix:"), m_keyPrefix, line++);
    return line;
}

// What happens on a Redis failure, on a change of limit, to denied requests; the flags.
void RuleEditor::buildPolicyFields(QWidget *form, int line)
{
    m_onRedisError = new QComboBox(form);
    m_onRedisError->addItem(tr("allow: let requests through"), QStringLiteral("allow"));
    m_onRedisError->addItem(tr("deny: refuse requests"), QStringLiteral("deny"));
    m_onRedisError->addItem(tr("local: limit in process"), QStringLiteral("local"));
    addRow(QStringLiteral("on_redis_error"), tr("If Redis &fails:"), m_onRedisError, line++);
    m_onChange = onChangeCombo(form);
    addRow(QStringLiteral("on_change"), tr("If the limit chan&ges:"), m_onChange, line++);
    m_countRejected = new QCheckBox(tr("Count them as if admitted"), form);
    m_countRejected->setObjectName(QStringLiteral("countRejectedCheck"));
    addRow(QStringLiteral("count_rejected"), tr("Denied re&quests:"), m_countRejected, line++);

    auto *flagsBox = new QWidget(form);
    auto *flagsRow = new QHBoxLayout(flagsBox);
    flagsRow->setContentsMargins(0, 0, 0, 0);
    m_enabled = new QCheckBox(tr("&Enabled"), flagsBox);
    m_enabled->setObjectName(QStringLiteral("enabledCheck"));
    m_shadow = new QCheckBox(tr("S&hadow"), flagsBox);
    m_shadow->setObjectName(QStringLiteral("shadowCheck"));
    flagsRow->addWidget(m_enabled);
    flagsRow->addSpacing(16);
    flagsRow->addWidget(m_shadow);
    flagsRow->addStretch(1);
    addRow(QStringLiteral("flags"), tr("Flags:"), flagsBox, line++);
    m_rows[QStringLiteral("flags")].help->setText(tr("Shadow: decide and record, never block."));
}

// What the counters already in Redis become when this rule's limit changes (ALGORITHMS.md
// "When a rule changes"), in the user guide's words.
QComboBox *RuleEditor::onChangeCombo(QWidget *form)
{
    auto *combo = new QComboBox(form);
    const QList<std::pair<OnChange, QString>> onChangeTips = {
        {OnChange::KeepUsed,
         tr("What a subject used under the old limit still counts: a lowered limit may leave it "
            "nothing until its window or bucket moves on. The default.")},
        {OnChange::Reset, tr("Everyone starts afresh under the new limit, as if never seen.")},
        {OnChange::Proportional,
         tr("Whoever had used half of the old limit has used half of the new one.")},
        {OnChange::Additive,
         tr("A raise gives everyone the difference on top of what they had left; a cut only "
            "caps what they had left.")},
    };
    combo->addItem(tr("keep what was used (default)"),
                   QString::fromLatin1(onchange::name(OnChange::KeepUsed)));
    combo->addItem(tr("start afresh"), QString::fromLatin1(onchange::name(OnChange::Reset)));
    combo->addItem(tr("keep the share used"),
                   QString::fromLatin1(onchange::name(OnChange::Proportional)));
    combo->addItem(tr("add a raise to what is left"),
                   QString::fromLatin1(onchange::name(OnChange::Additive)));
    QStringList allTips;
    for (int i = 0; i < combo->count(); ++i) {
        combo->setItemData(i, onChangeTips[i].second, Qt::ToolTipRole);
        allTips << QStringLiteral("%1: %2").arg(combo->itemData(i).toString(),
                                                onChangeTips[i].second);
    }
    combo->setToolTip(tr("What the counters already in Redis become, key by key on each "
                         "subject's next request, when this rule's limit, window, rate, "
                         "burst or algorithm changes (a new algorithm always starts "
                         "afresh):\n%1")
                          .arg(allTips.join(QLatin1Char('\n'))));
    // Its words are long: the combo takes the editor's width, not its own (the form would
    // otherwise widen past the editor and cut every field).
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(16);
    return combo;
}

// What a client meets: the sample subject, its key and its headers.
void RuleEditor::buildPreview(QWidget *form, QVBoxLayout *box)
{
    auto *previewTitle = new QLabel(tr("What a client meets"), form);
    QFont pf = previewTitle->font();
    pf.setBold(true);
    previewTitle->setFont(pf);
    box->addSpacing(4);
    box->addWidget(previewTitle);
    auto *subjectRow = new QHBoxLayout;
    auto *subjectLabel = new QLabel(tr("Sample s&ubject:"), form);
    m_subject = new QLineEdit(form);
    m_subject->setObjectName(QStringLiteral("subjectEdit"));
    m_subject->setToolTip(tr("The value the scope takes from a request: an IP address, a user "
                             "name, a header or parameter value"));
    subjectLabel->setBuddy(m_subject);
    subjectRow->addWidget(subjectLabel);
    subjectRow->addWidget(m_subject, 1);
    box->addLayout(subjectRow);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_keyPreview = PageHeader::selectable(QStringLiteral("keyPreview"), form, Qt::RichText);
    m_headersPreview = PageHeader::selectable(QStringLiteral("headersPreview"), form, Qt::RichText);
    const auto panel = [] {
        return QStringLiteral("QLabel { background: %1; border: 1px solid %2; border-radius: 3px; "
                              "padding: 6px 8px; }")
            .arg(tone::hex(tone::panel()), tone::hex(tone::border()));
    };
    Theme::followStyleSheet(m_keyPreview, panel);
    Theme::followStyleSheet(m_headersPreview, panel);
    box->addWidget(m_keyPreview);
    box->addWidget(m_headersPreview);
}

void RuleEditor::connectFields()
{
    for (QLineEdit *e : {m_id, m_limit, m_window, m_rate, m_burst, m_scopeName, m_route,
                         m_description, m_keyPrefix}) {
        connect(e, &QLineEdit::textChanged, this, &RuleEditor::revalidate);
        connect(e, &QLineEdit::returnPressed, this, &RuleEditor::apply);
    }
    for (QComboBox *c : {m_algorithm, m_scope, m_onRedisError, m_onChange}) {
        connect(c, &QComboBox::currentIndexChanged, this, [this] {
            updateVisibility();
            updateHelp();
            revalidate();
        });
    }
    for (QCheckBox *c : {m_shadow, m_enabled, m_countRejected}) {
        connect(c, &QCheckBox::toggled, this, &RuleEditor::revalidate);
    }
    connect(m_subject, &QLineEdit::textChanged, this, &RuleEditor::updatePreview);
    connect(m_apply, &QPushButton::clicked, this, &RuleEditor::apply);
    connect(m_revert, &QPushButton::clicked, this, &RuleEditor::revert);
}

RuleEditor::FieldRow &RuleEditor::addRow(const QString &name, const QString &label, QWidget *field,
                                         int line)
{
    FieldRow row;
    row.label = new QLabel(label, field->parentWidget());
    row.label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    row.label->setBuddy(field);
    row.label->setContentsMargins(0, 5, 0, 0); // level with the text of the field beside it
    row.field = field;
    QString objectName = name;
    for (qsizetype i = objectName.indexOf(u'_'); i >= 0; i = objectName.indexOf(u'_')) {
        objectName.remove(i, 1);
        objectName[i] = objectName[i].toUpper(); // key_prefix -> keyPrefix
    }
    if (field->objectName().isEmpty()) {
        const bool combo = qobject_cast<QComboBox *>(field) != nullptr;
        field->setObjectName(objectName +
                             (combo ? QStringLiteral("Combo") : QStringLiteral("Edit")));
    }
    // One line each (CONSOLE.md); a narrow editor ends it in "…", the tooltip has it whole.
    row.help = new ElidedLabel(field->parentWidget());
    Theme::followStyleSheet(row.help, helpStyle);
    {
        QFont f = row.help->font();
        f.setPointSizeF(f.pointSizeF() * 0.92);
        row.help->setFont(f);
    }
    row.help->setObjectName(objectName + QStringLiteral("Help"));
    row.error = smallLabel(field->parentWidget(), errorStyle);
    row.error->setObjectName(objectName + QStringLiteral("Error"));
    row.error->hide();
    // The field, its explanation and its message stacked in one cell: a vertical box gives a
    // wrapped message the height it needs at the cell's width.
    auto *cell = new QWidget(field->parentWidget());
    auto *stack = PageHeader::layoutOn<QVBoxLayout>(cell, 1, {0, 0, 0, 4});
    field->setParent(cell);
    row.help->setParent(cell);
    row.error->setParent(cell);
    stack->addWidget(field);
    stack->addWidget(row.help);
    stack->addWidget(row.error);
    row.cell = cell;
    m_grid->addWidget(row.label, line, 0, Qt::AlignRight | Qt::AlignTop);
    m_grid->addWidget(cell, line, 1);
    return m_rows[name] = row;
}

void RuleEditor::clear()
{
    m_editing = false;
    m_row = -1;
    m_valid.reset();
    m_errors.clear();
    m_stack->setCurrentIndex(0);
    if (m_wasModified) {
        m_wasModified = false;
        Q_EMIT modifiedChanged(false);
    }
}

void RuleEditor::edit(const Rule &rule, int row, const RuleSet &set)
{
    m_set = set;
    m_row = row;
    m_editing = true;
    m_stack->setCurrentIndex(1);
    load(rule);
}

void RuleEditor::setContext(int row, const RuleSet &set)
{
    m_set = set;
    m_row = row;
    if (m_editing) {
        revalidate();
    }
}

void RuleEditor::load(const Rule &rule)
{
    m_loading = true;
    const bool window = algorithm::isWindow(rule.algorithm);
    m_id->setText(rule.id);
    m_algorithm->setCurrentIndex(m_algorithm->findData(algorithm::name(rule.algorithm)));
    m_limit->setText(QString::number(window ? rule.limit : defaultLimit));
    m_window->setText(duration::formatUs(window ? rule.windowUs : defaultWindowUs));
    m_rate->setText(duration::formatRate(window ? defaultRate : rule.rate));
    m_burst->setText(QString::number(window ? defaultBurst : rule.burst));
    const QString kind = rule.scope.toString().section(u':', 0, 0);
    m_scope->setCurrentIndex(std::max(0, m_scope->findData(kind)));
    m_scopeName->setText(rule.scope.name);
    m_route->setText(rule.route);
    m_description->setText(rule.description);
    m_keyPrefix->setText(QString::fromUtf8(rule.keyPrefix));
    m_onRedisError->setCurrentIndex(m_onRedisError->findData(onRedisErrorName(rule.onRedisError)));
    m_onChange->setCurrentIndex(
        std::max(0, m_onChange->findData(QString::fromLatin1(onchange::name(rule.onChange)))));
    m_loaded = rule;
    m_shadow->setChecked(rule.shadow);
    m_enabled->setChecked(rule.enabled);
    m_countRejected->setChecked(rule.countRejected);
    m_subject->clear();
    m_loading = false;
    m_original = fieldTexts();
    m_title->setText(m_row < 0 ? tr("New rule") : tr("Rule %1").arg(rule.id));
    updateVisibility();
    updateHelp();
    revalidate();
}

QStringList RuleEditor::fieldTexts() const
{
    const bool window =
        algorithm::isWindow(algorithm::fromName(m_algorithm->currentData().toString())
                                .value_or(Algorithm::FixedWindow));
    const QString kind = m_scope->currentData().toString();
    const bool named = kind == u"header"_s || kind == u"param"_s;
    return {m_id->text(),
            m_algorithm->currentData().toString(),
            window ? m_limit->text() : QString(),
            window ? m_window->text() : QString(),
            window ? QString() : m_rate->text(),
            window ? QString() : m_burst->text(),
            kind,
            named ? m_scopeName->text() : QString(),
            m_route->text(),
            m_description->text(),
            m_keyPrefix->text(),
            m_onRedisError->currentData().toString(),
            m_onChange->currentData().toString(),
            m_shadow->isChecked() ? QStringLiteral("1") : QStringLiteral("0"),
            m_enabled->isChecked() ? QStringLiteral("1") : QStringLiteral("0"),
            countRejected() ? QStringLiteral("1") : QStringLiteral("0")};
}

bool RuleEditor::isModified() const
{
    return m_editing && (m_row < 0 || fieldTexts() != m_original);
}

QByteArray RuleEditor::fieldsJson() const
{
    const QString algo = m_algorithm->currentData().toString();
    const bool window =
        algorithm::isWindow(algorithm::fromName(algo).value_or(Algorithm::FixedWindow));
    QJsonObject o;
    o.insert(QStringLiteral("id"), m_id->text());
    o.insert(QStringLiteral("algorithm"), algo);
    // An empty parameter is left out: the codec then says it is required and what it expects.
    const auto param = [&](const char *name, const QJsonValue &value, const QString &text) {
        if (!text.trimmed().isEmpty()) {
            o.insert(QLatin1String(name), value);
        }
    };
    if (window) {
        param("limit", integerOrText(m_limit->text()), m_limit->text());
        param("window", m_window->text().trimmed(), m_window->text());
    } else {
        param("rate", m_rate->text().trimmed(), m_rate->text());
        param("burst", integerOrText(m_burst->text()), m_burst->text());
    }
    const QString kind = m_scope->currentData().toString();
    const bool named = kind == u"header"_s || kind == u"param"_s;
    o.insert(QStringLiteral("scope"),
             named ? kind + QLatin1Char(':') + m_scopeName->text().trimmed() : kind);
    o.insert(QStringLiteral("route"), m_route->text());
    o.insert(QStringLiteral("description"), m_description->text());
    o.insert(QStringLiteral("key_prefix"), m_keyPrefix->text());
    o.insert(QStringLiteral("on_redis_error"), m_onRedisError->currentData().toString());
    o.insert(QStringLiteral("on_change"), m_onChange->currentData().toString());
    if (countRejected()) { // left out as a file leaves out the default
        o.insert(QStringLiteral("count_rejected"), true);
    }
    o.insert(QStringLiteral("shadow"), m_shadow->isChecked());
    o.insert(QStringLiteral("enabled"), m_enabled->isChecked());
    // Fields the form does not show, as the loaded rule has them, in the file's form: read and
    // validated with the edited fields (a CIDR override needs scope ip, an adoption's glob the
    // key prefix), so an edit that makes them wrong says so instead of dropping them.
    const QJsonObject loaded = QJsonDocument::fromJson(rules::ruleToJson(m_loaded)).object();
    for (const QString &kept : {QStringLiteral("adopt"), QStringLiteral("overrides")}) {
        if (loaded.contains(kept)) {
            o.insert(kept, loaded.value(kept));
        }
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

void RuleEditor::revalidate()
{
    if (m_loading || !m_editing) {
        return;
    }
    // The same reader as a rule file: the messages are the CLI's.
    rules::Loaded loaded = rules::ruleFromJson(fieldsJson(), QString());
    m_errors.clear();
    for (const Diagnostic &d : std::as_const(loaded.errors)) {
        const auto parts = rules::fieldpath::split(d.path);
        const QString field = parts && !parts->isEmpty() ? parts->first().name : QString();
        const bool ownRow = m_rows.contains(field);
        QString &slot = m_errors[ownRow ? field : QString()];
        // A field without a row of its own (adopt, overrides[1].cidr) is named by its path.
        const QString message =
            ownRow || d.path.isEmpty() ? d.message : d.path + QStringLiteral(": ") + d.message;
        slot += (slot.isEmpty() ? QString() : QStringLiteral("\n")) + message;
    }
    if (loaded.ok() && loaded.set.rules.size() == 1) {
        // Ids are unique across the set: validate it with this rule in its place.
        RuleSet candidate = m_set;
        const Rule &rule = loaded.set.rules.front();
        if (m_row >= 0 && size_t(m_row) < candidate.rules.size()) {
            candidate.rules[size_t(m_row)] = rule;
        } else {
            candidate.rules.push_back(rule);
        }
        const QString duplicate = QStringLiteral("duplicate id '%1'").arg(rule.id);
        for (const Diagnostic &d : rules::validate(candidate)) {
            if (d.path.endsWith(QStringLiteral(".id")) && d.message.startsWith(duplicate)) {
                m_errors[QStringLiteral("id")] = d.message;
                break;
            }
        }
        if (m_errors.isEmpty()) {
            m_valid = rule;
        } else {
            m_valid.reset();
        }
    } else {
        m_valid.reset();
    }

    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        const QString message = m_errors.value(it.key());
        it->error->setText(message.isEmpty() ? QString() : QStringLiteral("✗ ") + message);
        it->error->setVisible(!message.isEmpty());
        if (qobject_cast<QLineEdit *>(it->field) || it.key() == u"scope"_s) {
            QWidget *marked = it.key() == u"scope"_s ? m_scopeName : it->field;
            marked->setStyleSheet(message.isEmpty()
                                      ? QString()
                                      : QStringLiteral("QLineEdit { border: 1px solid %1; "
                                                       "border-radius: 2px; padding: 2px; }")
                                            .arg(tone::hex(tone::color(Tone::Bad))));
        }
    }
    const QString general = m_errors.value(QString());
    m_generalError->setText(general.isEmpty() ? QString() : QStringLiteral("✗ ") + general);
    m_generalError->setVisible(!general.isEmpty());

    const bool modified = isModified();
    m_modifiedMark->setVisible(modified && m_row >= 0);
    m_apply->setEnabled(m_valid.has_value() && modified);
    m_apply->setToolTip(m_valid ? tr("Put the rule into the table (Redis and files change only "
                                     "when you push or export)")
                                : tr("Fix the fields marked in red first"));
    m_revert->setEnabled(modified);
    if (modified != m_wasModified) {
        m_wasModified = modified;
        Q_EMIT modifiedChanged(modified);
    }
    updatePreview();
}

void RuleEditor::updateVisibility()
{
    const bool window =
        algorithm::isWindow(algorithm::fromName(m_algorithm->currentData().toString())
                                .value_or(Algorithm::FixedWindow));
    for (const char *name : {"limit", "window"}) {
        const FieldRow &r = m_rows[QLatin1String(name)];
        r.label->setVisible(window);
        r.cell->setVisible(window);
    }
    for (const char *name : {"rate", "burst"}) {
        const FieldRow &r = m_rows[QLatin1String(name)];
        r.label->setVisible(!window);
        r.cell->setVisible(!window);
    }
    RuleFields::updateScopeName({nullptr, m_scope, m_scopeName});
    const Algorithm a =
        algorithm::fromName(m_algorithm->currentData().toString()).value_or(Algorithm::FixedWindow);
    const bool counts = algorithm::countsRejected(a);
    m_countRejected->setEnabled(counts);
    m_countRejected->setToolTip(
        counts ? tr("count_rejected: a request this rule denies uses up its limit as an admitted "
                    "one would, so a client that keeps retrying while limited stays limited "
                    "(what envoy ratelimit does unless told otherwise). Off: only admitted "
                    "requests count.")
               : tr("Not available for %1: %2")
                     .arg(algorithm::name(a), algorithm::countRejectedRefusal(a)));
}

bool RuleEditor::countRejected() const
{
    return m_countRejected->isEnabled() && m_countRejected->isChecked();
}

namespace {

// The help beside the fields an algorithm shows: the algorithm's own, then the window's or the
// rate's and the burst's.
struct FieldHelp
{
    const char *field = nullptr;
    const char *text = nullptr;
};
struct AlgorithmHelp
{
    Algorithm algorithm;
    FieldHelp fields[3];
};
constexpr AlgorithmHelp algorithmHelp[] = {
    {Algorithm::FixedWindow,
     {{"algorithm", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                      "Counts per window; up to 2x the limit across a boundary.")},
      {"window",
       QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "Length of each window, e.g. 5s, 250ms, 1m.")}}},
    {Algorithm::SlidingLog,
     {{"algorithm", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                      "Exact over any span; one entry per request in Redis.")},
      {"window", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                   "Any span this long admits at most the limit.")}}},
    {Algorithm::SlidingCounter,
     {{"algorithm", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                      "Weighs the previous window: nearly exact, two counters.")},
      {"window",
       QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "The span the limit applies to, e.g. 1m.")}}},
    {Algorithm::TokenBucket,
     {{"algorithm", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                      "Steady refill; a full bucket allows a burst at once.")},
      {"rate",
       QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "Tokens per period, e.g. 100/s or 5/10s.")},
      {"burst",
       QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "Bucket size: the most requests at once.")}}},
    {Algorithm::LeakyBucket,
     {{"algorithm", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                      "Queues requests and releases them at a steady pace.")},
      {"rate",
       QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "How fast the queue drains, e.g. 10/s.")},
      {"burst", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                  "Queue size; requests beyond it are refused.")}}},
    {Algorithm::Gcra,
     {{"algorithm", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor",
                                      "A steady pace plus a burst allowance; one timestamp.")},
      {"rate", QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "The sustained pace, e.g. 5/m.")},
      {"burst",
       QT_TRANSLATE_NOOP("sluice::ui::RuleEditor", "Extra requests at once beyond the pace.")}}},
};

} // namespace

void RuleEditor::updateHelp()
{
    const Algorithm a =
        algorithm::fromName(m_algorithm->currentData().toString()).value_or(Algorithm::FixedWindow);
    const auto help = [this](const char *name, const QString &text) {
        ElidedLabel *l = m_rows[QLatin1String(name)].help;
        l->setText(text);
    };
    help("id", tr("Names the rule in keys, headers and logs."));
    for (const AlgorithmHelp &entry : algorithmHelp) {
        if (entry.algorithm == a) {
            for (const FieldHelp &f : entry.fields) {
                if (f.field) {
                    help(f.field, tr(f.text));
                }
            }
        }
    }
    help("limit", tr("Requests admitted per window."));
    switch (a) {
    case Algorithm::FixedWindow:
    case Algorithm::SlidingLog:
    case Algorithm::SlidingCounter:
        help("count_rejected", tr("On: retries while limited count too."));
        break;
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket:
    case Algorithm::Gcra:
        help("count_rejected", tr("For window algorithms only."));
        break;
    }
    // A choice's help: the line for the item chosen, in the items' order.
    const auto chosen = [&](const char *name, const QComboBox *combo, const QStringList &lines) {
        help(name, lines.value(combo->currentIndex()));
    };
    chosen("scope", m_scope,
           {tr("One shared limit for all clients."), tr("One limit per client IP address."),
            tr("One limit per authenticated user."), tr("One limit per value of this header."),
            tr("One limit per value of this parameter.")});
    help("route", tr("What it guards, for people and exports."));
    help("description", tr("One line: why this limit exists."));
    help("key_prefix", tr("Keys are <prefix><id>:{<subject>}."));
    chosen("on_redis_error", m_onRedisError,
           {tr("Redis down: requests pass (fail open)."),
            tr("Redis down: requests are refused (fail closed)."),
            tr("Redis down: each instance limits on its own.")});
    chosen("on_change", m_onChange,
           {tr("Counters in Redis keep what was used (the default)."),
            tr("Counters in Redis start afresh under the new limit."),
            tr("Counters keep the same share of the new limit used."),
            tr("A raise adds to what is left; a cut caps it.")});
}

void RuleEditor::updatePreview()
{
    if (!m_editing) {
        return;
    }
    if (!m_valid) {
        // The translations carry the light theme's grey: the theme's replaces it.
        const auto grey = [](QString html) {
            return html.replace(QStringLiteral("#5f6770"), tone::hex(tone::muted()));
        };
        m_keyPreview->setText(
            grey(tr("<span style=\"color:#5f6770;\">Key: fix the fields marked in "
                    "red to see it.</span>")));
        m_headersPreview->setText(
            grey(tr("<span style=\"color:#5f6770;\">Headers: fix the fields marked in red to see "
                    "them.</span>")));
        return;
    }
    const Rule &rule = *m_valid;
    const QByteArray sample = sampleSubject(rule.scope);
    m_subject->setPlaceholderText(QString::fromUtf8(sample));
    const QByteArray subject = m_subject->text().isEmpty() ? sample : m_subject->text().toUtf8();
    const RulePreview p = previewRule(rule, subject);
    const auto code = [](const QString &text) {
        return QStringLiteral("<code>%1</code>").arg(text.toHtmlEscaped());
    };
    m_keyPreview->setText(tr("Redis key: %1").arg(code(QString::fromUtf8(p.key))));

    QStringList lines;
    const QString grey = QStringLiteral("<span style=\"color:%1;\">%2</span>")
                             .arg(tone::hex(tone::muted()), QStringLiteral("%1"));
    lines << grey.arg(tr("First request: 200%1")
                          .arg(p.firstDelayMs > 0 ? tr(", released after %1 ms").arg(p.firstDelayMs)
                                                  : QString()));
    lines << code(QStringLiteral("RateLimit-Policy: ") + p.policyHeader);
    lines << code(QStringLiteral("RateLimit: ") + p.firstHeader);
    if (p.denies) {
        lines << grey.arg(
            tr("Request %1 at the same instant: 429 Too Many Requests%2")
                .arg(p.admittedAtOnce + 1)
                .arg(rule.shadow ? tr(" (shadow: recorded, let through)") : QString()));
        if (!p.retryAfter.isEmpty()) {
            lines << code(QStringLiteral("Retry-After: ") + p.retryAfter);
        }
        lines << code(QStringLiteral("RateLimit: ") + p.deniedHeader);
    }
    if (!rule.enabled) {
        lines << grey.arg(tr("Disabled: no request is limited by this rule."));
    }
    m_headersPreview->setText(lines.join(QStringLiteral("<br>")));
}

void RuleEditor::apply()
{
    if (!m_editing || !m_valid || !isModified()) {
        return;
    }
    const Rule rule = *m_valid;
    const int row = m_row;
    Q_EMIT applied(rule, row); // the page puts it in the table and calls edit() on its row
}

void RuleEditor::revert()
{
    if (!m_editing) {
        return;
    }
    if (m_row >= 0 && size_t(m_row) < m_set.rules.size()) {
        load(m_set.rules[size_t(m_row)]);
    } else {
        clear();
    }
}

} // namespace sluice::ui
