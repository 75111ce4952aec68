#include "rulefields.h"

#include "rulesmodel.h"

#include "ui/common/pageheader.h"

#include "core/rules/rule.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>

using namespace Qt::StringLiterals;

namespace sluice::ui {

QString RuleFields::label(const QString &field)
{
    if (field == u"id"_s) {
        return tr("&Id:");
    }
    if (field == u"algorithm"_s) {
        return tr("&Algorithm:");
    }
    if (field == u"limit"_s) {
        return tr("&Limit:");
    }
    if (field == u"window"_s) {
        return tr("&Window:");
    }
    if (field == u"rate"_s) {
        return tr("&Rate:");
    }
    if (field == u"burst"_s) {
        return tr("&Burst:");
    }
    if (field == u"scope"_s) {
        return tr("S&cope:");
    }
    return field;
}

QString RuleFields::placeholder(const QString &field)
{
    if (field == u"id"_s) {
        return tr("e.g. hello-per-ip");
    }
    if (field == u"limit"_s) {
        return tr("e.g. 3");
    }
    if (field == u"window"_s) {
        return tr("e.g. 5s, 250ms, 1m");
    }
    if (field == u"rate"_s) {
        return tr("e.g. 100/s, 5/10s");
    }
    if (field == u"burst"_s) {
        return tr("e.g. 200");
    }
    return {};
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
