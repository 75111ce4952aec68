#include "keydetails.h"

#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include "keypresentation.h"
#include "sparkline.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace sluice::ui {

using keys::Health;

namespace {

QLabel *value(QWidget *parent, const char *name)
{
    return PageHeader::selectable(QString::fromLatin1(name), parent, Qt::PlainText);
}

QString ttlWords(qint64 pttl)
{
    if (pttl == -1) {
        return KeyDetails::tr("never expires (no TTL)");
    }
    if (pttl == -2) {
        return KeyDetails::tr("gone: deleted or expired since it was listed");
    }
    if (pttl < 0) {
        return KeyDetails::tr("unknown (the read failed)");
    }
    return KeyDetails::tr("%1 when read (%2 ms)")
        .arg(keypresentation::ttlText(pttl), QLocale().toString(pttl));
}

// A column of `row` (its share `stretch`) under the section heading `title`, made in `body`.
QVBoxLayout *headedColumn(QHBoxLayout *row, int stretch, QLabel *&heading, const QString &title,
                          QWidget *body)
{
    auto *column = PageHeader::layoutOn<QVBoxLayout>(nullptr, 4);
    heading = PageHeader::heading(title, 1.0, body);
    column->addWidget(heading);
    row->addLayout(column, stretch);
    return column;
}

} // namespace

KeyDetails::KeyDetails(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("keyDetails"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 6, 0, 0);
    m_placeholder = new QLabel(tr("Select a key to see its value, its decoded state, its rule "
                                  "and what its health means."),
                               this);
    m_placeholder->setObjectName(QStringLiteral("detailsPlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    Theme::followStyleSheet(m_placeholder, [] {
        return QStringLiteral("QLabel { color: %1; }").arg(tone::muted().name());
    });
    outer->addWidget(m_placeholder);

    // The facts scroll when the pane is short (1100x700, Chinese, a long state): the labels
    // keep their lines instead of being squeezed over each other.
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("detailsScroll"));
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setMinimumHeight(190); // the height the facts had before they could scroll
    m_body = new QWidget(m_scroll);
    m_scroll->setWidget(m_body);
    outer->addWidget(m_scroll, 1);
    auto *h = new QHBoxLayout(m_body);
    h->setContentsMargins(0, 0, 0, 0);
    h->setSpacing(20);

    auto *left = PageHeader::layoutOn<QVBoxLayout>(nullptr, 6);
    m_title = value(m_body, "detailsKey");
    m_title->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QFont tf = m_title->font();
    tf.setBold(true);
    m_title->setFont(tf);
    left->addWidget(m_title);
    auto *form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(4);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_type = value(m_body, "detailsType");
    m_ttl = value(m_body, "detailsTtl");
    m_rule = value(m_body, "detailsRule");
    m_subject = value(m_body, "detailsSubject");
    m_state = value(m_body, "detailsState");
    m_health = value(m_body, "detailsHealth");
    form->addRow(tr("Type:"), m_type);
    form->addRow(tr("TTL:"), m_ttl);
    form->addRow(tr("Rule:"), m_rule);
    form->addRow(tr("Subject:"), m_subject);
    form->addRow(tr("State:"), m_state);
    form->addRow(tr("Health:"), m_health);
    m_history = new Sparkline(m_body);
    m_history->setObjectName(QStringLiteral("detailsHistory"));
    m_history->setToolTip(tr("How much of its limit the key used, read once a second while it "
                             "is selected; the dotted line is the limit"));
    m_historyNote = value(m_body, "detailsHistoryNote");
    auto *history = PageHeader::layoutOn<QVBoxLayout>(nullptr, 0);
    history->addWidget(m_history);
    history->addWidget(m_historyNote);
    form->addRow(tr("Last minute:"), history);
    left->addLayout(form);
    left->addStretch(1);
    h->addLayout(left, 4);

    // The verdict explained, beside the facts (the pane is short: the table gets the height).
    auto *middle = headedColumn(h, 4, m_explanationTitle, tr("Why it is flagged"), m_body);
    m_explanation = value(m_body, "detailsExplanation");
    // The palette's panel and ink (readable in both themes), the verdict's colour as the
    // border; taken again on a theme switch.
    Theme::followStyleSheet(m_explanation, [this] { return explanationSheet(); });
    middle->addWidget(m_explanation);
    middle->addStretch(1);

    auto *right = headedColumn(h, 3, m_rawTitle, tr("Raw value"), m_body);
    m_raw = new QPlainTextEdit(m_body);
    m_raw->setObjectName(QStringLiteral("rawValue"));
    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    right->addWidget(m_raw, 1);

    setKey(std::nullopt, nullptr);
}

std::optional<QByteArray> KeyDetails::key() const
{
    if (!m_info) {
        return std::nullopt;
    }
    return m_info->key;
}

QString KeyDetails::explanationSheet() const
{
    const QColor mark = m_info ? keypresentation::flagColor(m_info->health) : tone::line();
    return QStringLiteral("QLabel { background: %1; color: %2; border-left: 3px solid %3; "
                          "padding: 6px 8px; }")
        .arg(tone::hex(tone::panel()), tone::hex(tone::ink()), tone::hex(mark));
}

void KeyDetails::setKey(const std::optional<keys::KeyInfo> &info, const Rule *rule)
{
    const bool sameKey = info && m_info && info->key == m_info->key;
    m_info = info;
    m_placeholder->setVisible(!info);
    m_scroll->setVisible(info.has_value());
    if (!info) {
        m_raw->clear();
        return;
    }
    const keys::KeyInfo &k = *info;
    m_title->setText(keypresentation::displayBytes(k.key));
    m_type->setText(k.exists() ? QString::fromLatin1(k.type) : tr("gone"));
    m_ttl->setText(ttlWords(k.pttlMs));
    if (k.hasRule()) {
        QString text = rule ? tr("%1: %2").arg(k.ruleId, rule->describe()) : k.ruleId;
        if (k.maxTtlMs > 0) {
            text +=
                QLatin1Char('\n') +
                tr("its state needs a TTL of %1 at most").arg(keypresentation::ttlText(k.maxTtlMs));
        }
        m_rule->setText(text);
        m_subject->setText(keypresentation::displayBytes(k.subject));
    } else {
        m_rule->setText(k.health == Health::Orphan ? tr("none: no rule produces this key")
                                                   : tr("none (no rules loaded: open the Rules "
                                                        "page to judge keys by their rule)"));
        m_subject->setText(QStringLiteral("—"));
    }
    const QString state = k.state.describe();
    m_state->setText(state.isEmpty() ? tr("not decoded (no rule)") : state);
    m_health->setText(k.exists() ? keypresentation::flagText(k.health) : tr("gone"));
    QPalette pal = m_health->palette();
    pal.setColor(QPalette::WindowText, keypresentation::flagColor(k.health));
    m_health->setPalette(pal);
    const QString why = k.explanation();
    m_explanationTitle->setVisible(!why.isEmpty());
    m_explanation->setVisible(!why.isEmpty());
    m_explanation->setText(why.isEmpty() ? QString() : why + QLatin1Char('.'));
    m_explanation->setStyleSheet(explanationSheet());
    if (!sameKey) {
        m_raw->setPlainText(tr("reading…"));
        m_history->clear();
    }
    if (k.state.limit > 0 && k.state.atUs > 0) {
        m_history->add(k.state.atUs, double(k.state.limit - k.state.remaining),
                       double(k.state.limit));
    }
    m_historyNote->setText(k.state.limit > 0 ? tr("%1 of %2 used now; %n reading(s) since selected",
                                                  nullptr, int(m_history->size()))
                                                   .arg(k.state.limit - k.state.remaining)
                                                   .arg(k.state.limit)
                                             : tr("no history: the key has no limiter state"));
}

void KeyDetails::setValue(const keys::KeysWorker::RawValue &v)
{
    if (!m_info || v.key != m_info->key) {
        return;
    }
    if (!v.error.isEmpty()) {
        m_raw->setPlainText(tr("Could not read the value: %1").arg(v.error));
        return;
    }
    QStringList lines;
    const QString type = QString::fromLatin1(v.type);
    if (v.type == "none") {
        lines << tr("(the key is gone)");
    } else if (v.type == "string") {
        lines << (v.size == 1 ? tr("string, 1 byte")
                              : tr("string, %1 bytes").arg(QLocale().toString(v.size)));
        for (const auto &e : v.entries) {
            lines << keypresentation::displayBytes(e.second);
        }
        if (!v.entries.isEmpty() && v.entries.first().second.size() < v.size) {
            lines << tr("… (the first %1 bytes)").arg(v.entries.first().second.size());
        }
    } else if (v.size < 0) {
        lines << tr("%1: no raw view for this type").arg(type);
    } else {
        lines << (v.size == 1 ? tr("%1, 1 entry").arg(type)
                              : tr("%1, %2 entries").arg(type, QLocale().toString(v.size)));
        int width = 0;
        for (const auto &e : v.entries) {
            width = std::max(width, int(keypresentation::displayBytes(e.first).size()));
        }
        width = std::min(width, 32);
        for (const auto &e : v.entries) {
            if (e.first.isEmpty() && (v.type == "list" || v.type == "set")) {
                lines << keypresentation::displayBytes(e.second);
            } else {
                lines << keypresentation::displayBytes(e.first).leftJustified(width) +
                             QStringLiteral("  ") + keypresentation::displayBytes(e.second);
            }
        }
        if (v.entries.size() < v.size) {
            lines << tr("… (%1 of %2 shown)").arg(v.entries.size()).arg(v.size);
        }
    }
    m_raw->setPlainText(lines.join(QLatin1Char('\n')));
}

} // namespace sluice::ui
