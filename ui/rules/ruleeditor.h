#pragma once

#include "core/rules/rule.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QVBoxLayout;

namespace sluice::ui {

// The editor beside the rule table: one rule's fields, only those its algorithm takes, each
// with a one-line explanation. Every keystroke re-reads the fields through the same code as a
// rule file (rules::ruleFromJson, then rules::validate for duplicate ids), so the message
// beside a field is word for word what `sluice-cli rules validate` prints. Below: the key a
// sample subject gets and the headers a client sees (RulePreview). Apply hands the rule to the
// page; Revert reloads it. GUI thread only; no I/O.
//
// Widgets are named for tests: idEdit, algorithmCombo, limitEdit, windowEdit, rateEdit,
// burstEdit, scopeCombo, scopeNameEdit, routeEdit, descriptionEdit, keyPrefixEdit,
// onRedisErrorCombo, onChangeCombo, countRejectedCheck, shadowCheck, enabledCheck, subjectEdit,
// keyPreview,
// headersPreview, applyButton, revertButton; each field's message label is "<field>Error"
// (limitError, ...) and generalError takes what belongs to no field.
class ElidedLabel;
class RuleEditor : public QWidget
{
    Q_OBJECT
public:
    explicit RuleEditor(QWidget *parent = nullptr);

    // Shows `rule` of `set` at `row` (-1: a new rule, to be appended). `set` is the page's
    // working set, for the duplicate-id check.
    void edit(const Rule &rule, int row, const RuleSet &set);
    // Nothing to edit: a hint instead of the form.
    void clear();
    // The page's set changed under the editor (another row edited, a rule removed...).
    void setContext(int row, const RuleSet &set);

    int row() const { return m_row; }
    bool isEditing() const { return m_editing; }
    bool isNew() const { return m_editing && m_row < 0; }
    bool isModified() const;
    // The rule as typed, when it is valid.
    std::optional<Rule> currentRule() const { return m_valid; }
    // Field name ("limit", "rate", "" for none) -> message, as validation left them.
    const QHash<QString, QString> &errors() const { return m_errors; }

    void apply();
    void revert();

Q_SIGNALS:
    void applied(const sluice::Rule &rule, int row);
    void modifiedChanged(bool modified);

private:
    struct FieldRow
    {
        QLabel *label = nullptr;
        QWidget *field = nullptr;
        ElidedLabel *help = nullptr;
        QLabel *error = nullptr;
        QWidget *cell = nullptr; // field, help and error, stacked
    };
    // The constructor's steps, top to bottom (the tab order follows them).
    QHBoxLayout *buildTitleRow(QWidget *page);
    int buildFields(QWidget *form);
    void buildPolicyFields(QWidget *form, int line);
    QComboBox *onChangeCombo(QWidget *form);
    void buildPreview(QWidget *form, QVBoxLayout *box);
    void connectFields();
    FieldRow &addRow(const QString &name, const QString &label, QWidget *field, int line);
    void load(const Rule &rule);
    void revalidate();
    void updateVisibility();
    void updateHelp();
    void updatePreview();
    QByteArray fieldsJson() const;
    QStringList fieldTexts() const;

    QStackedWidget *m_stack;
    ElidedLabel *m_title;
    QLabel *m_modifiedMark;
    QGridLayout *m_grid;
    QHash<QString, FieldRow> m_rows;
    QLineEdit *m_id;
    QComboBox *m_algorithm;
    QLineEdit *m_limit;
    QLineEdit *m_window;
    QLineEdit *m_rate;
    QLineEdit *m_burst;
    QComboBox *m_scope;
    QLineEdit *m_scopeName;
    QLineEdit *m_route;
    QLineEdit *m_description;
    QLineEdit *m_keyPrefix;
    QComboBox *m_onRedisError;
    QComboBox *m_onChange;
    // The rule as loaded: the fields the form has no row for (adopt, overrides) go from it into
    // the edited rule, so that an edit never drops them.
    Rule m_loaded;
    QCheckBox *m_shadow;
    QCheckBox *m_enabled;
    // count_rejected: enabled only for the algorithms that can count a denial (the others'
    // reason in its tooltip and help); its state is kept while disabled, but not written.
    QCheckBox *m_countRejected;
    bool countRejected() const; // what the rule gets: checked and enabled
    QLabel *m_generalError;
    QLineEdit *m_subject;
    QLabel *m_keyPreview;
    QLabel *m_headersPreview;
    QPushButton *m_apply;
    QPushButton *m_revert;

    RuleSet m_set;  // the page's working set, for duplicate ids
    int m_row = -1; // the row edited; -1: a new rule
    bool m_editing = false;
    bool m_loading = false;
    bool m_wasModified = false;
    QStringList m_original; // fieldTexts() when loaded: "modified" compares with it
    std::optional<Rule> m_valid;
    QHash<QString, QString> m_errors;
};

} // namespace sluice::ui
