#include "rulefields.h"

#include "rulesmodel.h"

#include "ui/common/pageheader.h"

#include "core/rules/rule.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// Each field's label and placeholder (none for the combos), by the rule file's key.
struct FieldWords
{
    const char *field;
    const char *label;
    const char *placeholder;
};
constexpr FieldWords fieldWords[] = {
    {"id", QT_TRANSLATE_NOOP("RuleFields", "&Id:"),
     QT_TRANSLATE_NOOP("RuleFields", "e.g. hello-per-ip")},
    {"algorithm", QT_TRANSLATE_NOOP("RuleFields", "&Algorithm:"), nullptr},
    {"limit", QT_TRANSLATE_NOOP("RuleFields", "&Limit:"),
     QT_TRANSLATE_NOOP("RuleFields", "e.g. 3")},
    {"window", QT_TRANSLATE_NOOP("RuleFields", "&Window:"),
     QT_TRANSLATE_NOOP("RuleFields", "e.g. 5s, 250ms, 1m")},
    {"rate", QT_TRANSLATE_NOOP("RuleFields", "&Rate:"),
     QT_TRANSLATE_NOOP("RuleFields", "e.g. 100/s, 5/10s")},
    {"burst", QT_TRANSLATE_NOOP("RuleFields", "&Burst:"),
     QT_TRANSLATE_NOOP("RuleFields", "e.g. 200")},
    {"scope", QT_TRANSLATE_NOOP("RuleFields", "S&cope:"), nullptr},
};

const FieldWords *findWords(const QString &field)
{
    const auto *w =
        std::find_if(std::begin(fieldWords), std::end(fieldWords),
                     [&](const FieldWords &f) { return field == QLatin1String(f.field); });
    return w == std::end(fieldWords) ? nullptr : w;
}

} // namespace

QString RuleFields::label(const QString &field)
{
    const FieldWords *w = findWords(field);
    return w ? tr(w->label) : field;
}

QString RuleFields::placeholder(const QString &field)
{
    const FieldWords *w = findWords(field);
    return w && w->placeholder ? tr(w->placeholder) : QString();
}

QComboBox *RuleFields::algorithmCombo(QWidget *parent)
{
    auto *c = new QComboBox(parent);
    for (Algorithm a : algorithm::all) {
        c->addItem(RulesModel::algorithmText(a), algorithm::name(a));
    }
    return c;
}

RuleFields::Scope RuleFields::scopeField(QWidget *parent)
{
    Scope s;
    s.box = new QWidget(parent);
    auto *row = PageHeader::layoutOn<QHBoxLayout>(s.box, 6);
    s.kind = new QComboBox(s.box);
    s.kind->addItem(tr("global (one limit for everyone)"), QStringLiteral("global"));
    s.kind->addItem(tr("per IP address"), QStringLiteral("ip"));
    s.kind->addItem(tr("per user"), QStringLiteral("user"));
    s.kind->addItem(tr("per header value"), QStringLiteral("header"));
    s.kind->addItem(tr("per query parameter"), QStringLiteral("param"));
    s.name = new QLineEdit(s.box);
    row->addWidget(s.kind);
    row->addWidget(s.name, 1);
    updateScopeName(s);
    return s;
}

void RuleFields::setScope(const Scope &scope, const QString &text)
{
    const QString kind = text.section(u':', 0, 0).trimmed();
    const int index = scope.kind->findData(kind);
    scope.kind->setCurrentIndex(std::max(0, index));
    scope.name->setText(index < 0 ? text : text.section(u':', 1));
    updateScopeName(scope);
}

QString RuleFields::scopeText(const Scope &scope)
{
    const int index = scope.kind->currentIndex();
    const QString kind = scope.kind->currentData().toString();
    return index == HeaderScope || index == ParamScope
               ? kind + QLatin1Char(':') + scope.name->text().trimmed()
               : kind;
}

void RuleFields::updateScopeName(const Scope &scope)
{
    const int index = scope.kind->currentIndex();
    scope.name->setVisible(index == HeaderScope || index == ParamScope);
    scope.name->setPlaceholderText(index == HeaderScope ? tr("header name, e.g. X-Api-Key")
                                                        : tr("parameter name, e.g. api_key"));
}

QString RuleFields::scopeWords(const QString &text)
{
    const QString kind = text.section(u':', 0, 0).trimmed();
    const QString name = text.section(u':', 1).trimmed();
    if (kind == u"global"_s) {
        return tr("global");
    }
    if (kind == u"ip"_s) {
        return tr("per IP address");
    }
    if (kind == u"user"_s) {
        return tr("per user");
    }
    if (kind == u"header"_s) {
        return tr("per header value %1").arg(name);
    }
    if (kind == u"param"_s) {
        return tr("per query parameter %1").arg(name);
    }
    return text;
}

} // namespace sluice::ui
