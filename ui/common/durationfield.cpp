#include "durationfield.h"

#include "pageheader.h"
#include "tone.h"

#include "core/common/duration.h"

#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace sluice::ui {

DurationField::DurationField(qint64 initialUs, qint64 shortestUs, qint64 longestUs, QWidget *parent)
    : QWidget(parent)
    , m_edit(new QLineEdit(duration::formatUs(initialUs), this))
    , m_error(PageHeader::note(this, tone::text(Tone::Bad)))
    , m_shortestUs(shortestUs)
    , m_longestUs(longestUs)
{
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 2);
    m_edit->setPlaceholderText(tr("e.g. 30m, 1h, 1d"));
    m_error->setWordWrap(true);
    box->addWidget(m_edit);
    box->addWidget(m_error);
    setFocusProxy(m_edit);
    connect(m_edit, &QLineEdit::textChanged, this, &DurationField::check);
    check();
}

std::optional<qint64> DurationField::us() const
{
    auto us = duration::parseUs(m_edit->text().trimmed());
    if (!us || *us < m_shortestUs || *us > m_longestUs) {
        return std::nullopt;
    }
    return *us;
}

void DurationField::check()
{
    auto us = duration::parseUs(m_edit->text().trimmed());
    QString why;
    if (!us) {
        why = us.error().message;
    } else if (*us < m_shortestUs || *us > m_longestUs) {
        why = tr("Give a time between %1 and %2.")
                  .arg(duration::formatUs(m_shortestUs), duration::formatUs(m_longestUs));
    }
    m_error->setText(why);
    m_error->setVisible(!why.isEmpty());
    Q_EMIT validityChanged(why.isEmpty());
}

} // namespace sluice::ui
