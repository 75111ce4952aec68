#include "healthbanner.h"

#include "common/tone.h"

#include "keypresentation.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace sluice::ui {

using keys::Health;

HealthBanner::HealthBanner(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("healthBanner"));
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(12, 8, 10, 8);
    v->setSpacing(6);
    auto *row = new QHBoxLayout;
    row->setSpacing(8);
    m_icon = new QLabel(this);
    m_icon->setFixedSize(20, 20);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("bannerText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    QFont f = m_text->font();
    f.setBold(true);
    m_text->setFont(f);
    m_whyButton = new QPushButton(tr("Why?"), this);
    m_whyButton->setObjectName(QStringLiteral("whyButton"));
    m_whyButton->setCheckable(true);
    m_whyButton->setFlat(true);
    m_whyButton->setCursor(Qt::PointingHandCursor);
    m_show = new QPushButton(tr("Show them"), this);
    m_show->setObjectName(QStringLiteral("showFlaggedButton"));
    m_show->setToolTip(tr("Show only the keys that are not ok"));
    m_fix = new QPushButton(tr("Fix all from rules…"), this);
    m_fix->setObjectName(QStringLiteral("fixAllButton"));
    m_delete = new QPushButton(tr("Delete all flagged…"), this);
    m_delete->setObjectName(QStringLiteral("deleteAllButton"));
    m_delete->setToolTip(tr("Delete every key that never expires or lives longer than its rule "
                            "needs; the next request of its subject starts afresh"));
    row->addWidget(m_icon, 0, Qt::AlignTop);
    row->addWidget(m_text, 1);
    row->addWidget(m_whyButton);
    row->addWidget(m_show);
    row->addWidget(m_fix);
    row->addWidget(m_delete);
    v->addLayout(row);
    m_why = new QLabel(this);
    m_why->setObjectName(QStringLiteral("bannerWhy"));
    m_why->setWordWrap(true);
    m_why->setText(
        tr("A limiter key must carry a TTL: the limit is \"N per window\", and when the window "
           "is over Redis deletes the key. A key without TTL is never deleted, so once its "
           "counter reaches the limit its subject is refused for good: a limit turned into a "
           "permanent block. The usual cause is an INCR that arrived just after the key "
           "expired (it creates a new counter without TTL), or an EXPIRE sent in a separate "
           "round trip that never arrived (a crash, a reconnect). Sluice's scripts write the "
           "TTL in the same step as the counter, so these keys come from elsewhere. \"Fix all "
           "from rules\" sets each key's TTL to the most its rule can need, and only if it "
           "still has none (or a longer one) at that instant."));
    m_why->setVisible(false);
    m_why->setContentsMargins(28, 0, 0, 2);
    v->addWidget(m_why);

    connect(m_whyButton, &QPushButton::toggled, this, [this] { toggleWhy(); });
    connect(m_show, &QPushButton::clicked, this, &HealthBanner::showFlaggedRequested);
    connect(m_fix, &QPushButton::clicked, this, &HealthBanner::fixAllRequested);
    connect(m_delete, &QPushButton::clicked, this, &HealthBanner::deleteAllRequested);
    setSummary({}, false, false);
}

QString HealthBanner::text() const
{
    return m_text->text();
}

void HealthBanner::toggleWhy()
{
    m_why->setVisible(m_whyButton->isChecked());
}

void HealthBanner::setBusy(bool busy)
{
    m_busy = busy;
    setSummary(m_summary, m_haveRules, false);
}

void HealthBanner::setSummary(const keys::HealthSummary &s, bool haveRules, bool scanning)
{
    m_summary = s;
    m_haveRules = haveRules;
    const QLocale locale;
    auto n = [&](qint64 v) { return locale.toString(v); };
    QStringList parts;
    if (s.noTtl > 0) {
        parts << (s.noTtl == 1
                      ? tr("1 limiter key never expires: it blocks its subject forever.")
                      : tr("%1 limiter keys never expire: each blocks its subject forever.")
                            .arg(n(s.noTtl)));
    }
    if (s.ttlExceedsRule > 0) {
        parts << (s.ttlExceedsRule == 1 ? tr("1 key has a TTL longer than its rule can need.")
                                        : tr("%1 keys have a TTL longer than their rule can need.")
                                              .arg(n(s.ttlExceedsRule)));
    }
    if (s.wrongType > 0) {
        parts << (s.wrongType == 1 ? tr("1 key is not its rule's state.")
                                   : tr("%1 keys are not their rule's state.").arg(n(s.wrongType)));
    }
    if (s.orphans > 0) {
        parts << (s.orphans == 1 ? tr("1 key matches no rule.")
                                 : tr("%1 keys match no rule.").arg(n(s.orphans)));
    }
    Health tone = Health::Ok;
    if (s.noTtl > 0) {
        tone = Health::NoTtl;
    } else if (s.ttlExceedsRule > 0 || s.wrongType > 0) {
        tone = Health::TtlExceedsRule;
    } else if (s.orphans > 0) {
        tone = Health::Orphan;
    }
    QString text;
    if (parts.isEmpty()) {
        text = s.limiterKeys == 0   ? tr("No limiter keys found.")
               : s.limiterKeys == 1 ? tr("The limiter key is healthy.")
                                    : tr("All %1 limiter keys are healthy.").arg(n(s.limiterKeys));
    } else {
        text = parts.join(QLatin1Char(' '));
    }
    if (scanning) {
        text += QLatin1Char(' ') + tr("(scan in progress)");
    }
    m_text->setText(text);
    m_icon->setPixmap(keypresentation::flagIcon(tone).pixmap(20, 20));
    QColor bg;
    QColor border;
    switch (tone) {
    case Health::NoTtl:
        bg = tone::background(Tone::Bad);
        border = tone::color(Tone::Bad);
        break;
    case Health::TtlExceedsRule:
    case Health::WrongType:
        bg = tone::background(Tone::Warning);
        border = tone::color(Tone::Warning);
        break;
    case Health::Orphan:
    case Health::Unreadable:
        bg = tone::background(Tone::Info);
        border = tone::color(Tone::Info);
        break;
    case Health::Ok:
        bg = tone::background(Tone::Good);
        border = tone::color(Tone::Good);
        break;
    }
    setStyleSheet(QStringLiteral("#healthBanner { background: %1; border-left: 4px solid %2; "
                                 "border-radius: 3px; }")
                      .arg(tone::hex(bg), tone::hex(border)));
    const bool fixable = s.fixable() > 0;
    m_whyButton->setVisible(s.noTtl > 0 || s.ttlExceedsRule > 0);
    if (!m_whyButton->isVisible()) {
        m_whyButton->setChecked(false); // the explanation goes with the problem
    }
    m_show->setVisible(s.problems() > 0);
    m_fix->setVisible(fixable);
    m_delete->setVisible(fixable);
    m_fix->setEnabled(haveRules && !m_busy);
    m_delete->setEnabled(!m_busy);
    m_fix->setToolTip(haveRules ? tr("Set the TTL of every key that never expires or lives too "
                                     "long to the most its rule can need")
                                : tr("Needs the rules (Rules page): the TTL is taken from "
                                     "each key's rule"));
}

} // namespace sluice::ui
