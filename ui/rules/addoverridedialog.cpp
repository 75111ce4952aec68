#include "addoverridedialog.h"

#include "overridespanel.h"
#include "rulessession.h"
#include "rulesworker.h"

#include "ui/common/durationfield.h"
#include "ui/common/overridefields.h"
#include "ui/common/pageheader.h"

#include "core/rules/overridestore.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sluice::ui {

AddOverrideDialog::AddOverrideDialog(const Rule &rule, QWidget *parent)
    : QDialog(parent)
    , m_ruleId(rule.id)
{
    setObjectName(QStringLiteral("addOverrideDialog"));
    setWindowTitle(tr("Add override"));
    auto *box = new QVBoxLayout(this);
    box->addWidget(OverrideFields::intro(
        tr("An override of rule %1 stored in Redis: it decides for the subjects it matches "
           "instead of the rule's limit, wherever the rules come from the store, and ends by "
           "itself.")
            .arg(rule.id),
        this));
    auto *form = new QFormLayout;
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("overrideKindCombo"));
    m_kind->addItem(tr("the subject"), int(Override::Kind::Subject));
    m_kind->addItem(tr("the network (CIDR)"), int(Override::Kind::Cidr));
    m_pattern = new QLineEdit(this);
    m_pattern->setObjectName(QStringLiteral("overridePatternEdit"));
    m_pattern->setPlaceholderText(tr("e.g. 10.1.2.3, a user id, or 10.0.0.0/8"));
    m_action = new QComboBox(this);
    m_action->setObjectName(QStringLiteral("overrideActionCombo"));
    m_action->addItem(tr("deny: refuse every request"), int(Override::Action::Deny));
    m_action->addItem(tr("allow: never limit"), int(Override::Action::Allow));
    constexpr qint64 hour = 3600LL * 1'000'000;
    const OverrideFields fields(hour, QStringLiteral("override"), this);
    m_duration = fields.duration;
    m_note = fields.note;
    form->addRow(tr("&Match:"), m_kind);
    form->addRow(tr("&Who:"), m_pattern);
    form->addRow(tr("&Action:"), m_action);
    form->addRow(tr("&For:"), m_duration);
    form->addRow(tr("&Note:"), m_note);
    box->addLayout(form);
    m_error = PageHeader::note(this, tone::text(Tone::Bad));
    m_error->setObjectName(QStringLiteral("overrideError"));
    box->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_ok = buttons->addButton(tr("Add"), QDialogButtonBox::AcceptRole);
    m_ok->setObjectName(QStringLiteral("addOverrideConfirmButton"));
    box->addWidget(buttons);
    connect(m_pattern, &QLineEdit::textChanged, this, &AddOverrideDialog::check);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &AddOverrideDialog::check);
    connect(m_duration, &DurationField::validityChanged, this, &AddOverrideDialog::check);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_ok->isEnabled()) {
            Q_EMIT addRequested(m_ruleId, override());
            accept();
        }
    });
    check();
}

Override AddOverrideDialog::override() const
{
    Override o;
    o.kind = Override::Kind(m_kind->currentData().toInt());
    o.pattern = m_pattern->text().trimmed();
    o.action = Override::Action(m_action->currentData().toInt());
    o.ttlUs = m_duration->us().value_or(0);
    o.note = m_note->text().trimmed();
    return o;
}

void AddOverrideDialog::check()
{
    QString why;
    const Override o = override();
    if (o.pattern.isEmpty()) {
        why = tr("Name the subject or the network.");
    } else if (o.kind == Override::Kind::Cidr && !o.pattern.contains(QLatin1Char('/'))) {
        why = tr("A network is written as an address and a prefix length: 10.0.0.0/8.");
    }
    m_error->setText(why);
    m_error->setVisible(!why.isEmpty());
    m_ok->setEnabled(why.isEmpty() && m_duration->isValid());
}

// The page's button, the session and its worker: store the override, then list the rule's overrides
// again.

void OverridesPanel::addOverride()
{
    const Rule *rule = m_session->rules().find(m_session->overridesRule());
    if (!rule) {
        return;
    }
    auto *d = new AddOverrideDialog(*rule, this);
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &AddOverrideDialog::addRequested, m_session, &RulesSession::addStoredOverride);
    d->open();
}

void RulesSession::addStoredOverride(const QString &ruleId, const Override &o)
{
    const Rule *rule = rules().find(ruleId);
    if (!rule) {
        return;
    }
    m_overridesRule = ruleId;
    m_overridesRequest = ++m_nextRequest;
    m_worker.post([id = m_overridesRequest, rule = *rule, o](RulesWorker *w) {
        w->addOverride(id, rule, o);
    });
    Q_EMIT overridesChanged();
}

void RulesWorker::addOverride(quint64 request, const Rule &rule, const Override &o)
{
    OverridesReply reply;
    reply.request = request;
    reply.ruleId = rule.id;
    reply.addedMatch = o.describeMatch();
    Connection *c = connectionFor(reply);
    if (!c) {
        return;
    }
    rules::OverrideStore::AddOptions options;
    options.replace = true;
    auto added = rules::OverrideStore(m_ns).add(*c, rule, o, options);
    if (!added) {
        reply.error = added.error().message;
    } else {
        reply.added = true;
        listOverridesInto(*c, rule, reply);
    }
    Q_EMIT overridesAnswered(reply);
}

} // namespace sluice::ui
