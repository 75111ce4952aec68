#include "patternform.h"

#include "fieldform.h"
#include "pageheader.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sluice::ui {

PatternForm::PatternForm(const QString &objectPrefix, const QStringList &kinds, QWidget *parent)
    : QWidget(parent)
    , m_kind(new QComboBox)
    , m_note(PageHeader::note(this))
    , m_fields(new FieldForm(objectPrefix, this))
{
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 4);
    m_kind->setObjectName(objectPrefix + u"pattern"_s);
    for (const QString &k : kinds) {
        m_kind->addItem(PatternDraft::kindTitle(k), k);
    }
    m_fields->addRow(tr("&Pattern"), m_kind);
    m_note->setObjectName(objectPrefix + u"patternNote"_s);
    m_fields->addRow(QString(), m_note);
    struct Spec
    {
        QString key, label, placeholder, toolTip;
    };
    const Spec specs[] = {
        {u"rate"_s, tr("&Rate"), tr("e.g. 200/s, 5/100ms"),
         tr("Requests per period: N/s, N/m, N/<duration>")},
        {u"from_rate"_s, tr("From r&ate"), tr("e.g. 20/s"),
         tr("The rate at the start of the ramp")},
        {u"to_rate"_s, tr("To ra&te"), tr("e.g. 500/s"), tr("The rate at the end of the ramp")},
        {u"at"_s, tr("A&t"), tr("e.g. 9.9s; 0s: at the start"),
         tr("When the burst starts, from the start of the run")},
        {u"count"_s, tr("&Count"), tr("requests in the burst, e.g. 100"),
         tr("How many requests the burst sends")},
        {u"spread"_s, tr("S&pread"), tr("e.g. 100ms; empty: all at once"),
         tr("The burst's requests are spread evenly over this time")},
        {u"from"_s, tr("&From"), tr("empty: the start"),
         tr("When the pattern starts, from the start of the run")},
        {u"to"_s, tr("T&o"), tr("empty: the end"), tr("When the pattern stops")},
        {u"subject"_s, tr("Subject"), tr("empty: any of the subjects"),
         tr("Every request of the pattern from this one subject")},
        {u"file"_s, tr("File"), tr("CSV of t_ms,subject lines"), {}},
    };
    for (const Spec &f : specs) {
        m_fields->addField(f.key, f.label, f.placeholder, f.toolTip);
    }
    m_patternKeys = m_fields->keys().size();
    box->addWidget(m_fields);

    connect(m_fields, &FieldForm::edited, this, [this](const QString &key, const QString &text) {
        m_draft.values.insert(key, text);
        Q_EMIT changed();
    });
    connect(m_fields, &FieldForm::submitted, this, &PatternForm::submitted);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int index) {
        const QString kind = m_kind->itemData(index).toString();
        if (!m_has || kind.isEmpty() || kind == m_draft.kind) {
            return;
        }
        m_draft.kind = kind;
        showKind();
        Q_EMIT changed();
    });
    setDraft(std::nullopt);
}

void PatternForm::setDraft(const std::optional<PatternDraft> &draft)
{
    m_has = false; // the kind set below is no edit
    m_draft = draft.value_or(PatternDraft{});
    m_kind->setCurrentIndex(draft ? m_kind->findData(m_draft.kind) : -1);
    m_kind->setEnabled(draft.has_value());
    m_has = draft.has_value();
    m_fields->setValues(m_draft.values);
    showKind();
}

void PatternForm::showKind()
{
    // The rows a page added after the pattern's stay.
    m_fields->showOnly((m_has ? m_draft.keys() : QStringList()) +
                       m_fields->keys().mid(m_patternKeys));
    m_note->setText(PatternDraft::kindNote(m_draft.kind));
    m_note->setVisible(m_has && m_noteShown);
}

void PatternForm::setErrors(const FieldErrors &errors)
{
    m_fields->setErrors(errors);
    // Messages of hidden fields stay hidden with their row.
}

void PatternForm::setNoteShown(bool shown)
{
    m_noteShown = shown;
    showKind();
}

} // namespace sluice::ui
