#pragma once

#include <QCoreApplication>
#include <QString>

class QComboBox;
class QLineEdit;
class QWidget;

namespace sluice::ui {

// The words and widgets of a rule's fields, shared by the Rules page's editor (RuleEditor) and
// the Simulation page's scenario rule form, so that both say "fixed window" and "per IP
// address" and edit the scope with the same combo: one form, not two. GUI thread.
class RuleFields
{
    Q_DECLARE_TR_FUNCTIONS(RuleFields)
public:
    // A field's label with its mnemonic and colon ("&Limit:"), and its placeholder, by the
    // rule file's key: id, algorithm, limit, window, rate, burst, scope.
    static QString label(const QString &field);
    static QString placeholder(const QString &field);

    // The algorithms in words; each item's data is the file's name ("fixed_window").
    static QComboBox *algorithmCombo(QWidget *parent);

    // The scope: a combo of its kinds in words (data: global, ip, user, header, param), and
    // beside it the header's or parameter's name, shown for those two only.
    struct Scope
    {
        QWidget *box = nullptr;
        QComboBox *kind = nullptr;
        QLineEdit *name = nullptr;
    };
    enum ScopeIndex { GlobalScope, IpScope, UserScope, HeaderScope, ParamScope };
    static Scope scopeField(QWidget *parent);
    // "header:X-Api-Key" into the widgets (an unknown kind: global, the text as the name) and
    // back; the name field's visibility and placeholder follow the kind.
    static void setScope(const Scope &scope, const QString &text);
    static QString scopeText(const Scope &scope);
    static void updateScopeName(const Scope &scope);
    // "per IP address", "per header value X-Api-Key": a scope file text in the combo's words.
    static QString scopeWords(const QString &text);
};

} // namespace sluice::ui
