#include "serverpanel.h"

#include "connectioncontroller.h"

#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

struct Feature
{
    bool redis::ServerFeatures::*has;
    const char *name;
};

constexpr Feature features[] = {
    {&redis::ServerFeatures::clientNoTouch, "CLIENT NO-TOUCH"},
    {&redis::ServerFeatures::clThrottle, "CL.THROTTLE"},
    {&redis::ServerFeatures::gcra, "GCRA"},
    {&redis::ServerFeatures::hexpire, "HEXPIRE"},
};

// What a feature means for Sluice, when the server has it and when it has not.
QString meaning(const char *name, bool has)
{
    const QLatin1String n(name);
    if (n == QLatin1String("CLIENT NO-TOUCH")) {
        return has ? ServerPanel::tr("watching keys does not keep them alive under LRU/LFU "
                                     "eviction: the console's scans use it")
                   : ServerPanel::tr("not here (Redis 7.2 has it): under LRU/LFU eviction, keys "
                                     "the console watches are kept longer");
    }
    if (n == QLatin1String("CL.THROTTLE")) {
        return has ? ServerPanel::tr("redis-cell's GCRA in one command (or Dragonfly's): its keys "
                                     "are audited as redis_cell")
                   : ServerPanel::tr("not here: no redis-cell module");
    }
    if (n == QLatin1String("GCRA")) {
        return has ? ServerPanel::tr("a native GCRA command of this server's build")
                   : ServerPanel::tr("not here: Sluice's gcra rule is a Lua script, as "
                                     "everywhere");
    }
    return has ? ServerPanel::tr("TTLs on single hash fields: a limiter may expire a field, not "
                                 "its whole key")
               : ServerPanel::tr("not here (Redis 7.4 has it): TTLs are per key");
}

} // namespace

ServerPanel::ServerPanel(ConnectionController *controller, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("serverPanel"));
    auto *box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(6);
    m_title = PageHeader::heading(QString(), 1.0, this);
    m_title->setObjectName(QStringLiteral("serverTitle"));
    m_title->setWordWrap(true);
    box->addWidget(m_title);
    m_unknown = PageHeader::selectable(QStringLiteral("serverUnknown"), this);
    box->addWidget(m_unknown);
    m_rows = new QGridLayout;
    m_rows->setHorizontalSpacing(8);
    m_rows->setVerticalSpacing(2);
    m_rows->setColumnStretch(1, 1);
    for (const Feature &f : features) {
        // Narrow (under the profiles): the mark and the name, the meaning beneath the name.
        const int row = 2 * int(m_marks.size());
        auto *mark = new QLabel(this);
        mark->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        auto *name = new QLabel(QStringLiteral("<b>%1</b>").arg(QLatin1String(f.name)), this);
        name->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        name->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto *text = new QLabel(this);
        text->setWordWrap(true);
        text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        m_rows->addWidget(mark, row, 0);
        m_rows->addWidget(name, row, 1);
        m_rows->addWidget(text, row + 1, 1);
        m_rows->setRowMinimumHeight(row + 1, 0);
        m_marks << mark;
        m_names << name;
        m_meanings << text;
    }
    box->addLayout(m_rows);
    connect(controller, &ConnectionController::stateChanged, this, &ServerPanel::onState);
    connect(&Theme::instance(), &Theme::changed, this, &ServerPanel::render);
    onState(controller->state());
}

void ServerPanel::onState(const ConnectionState &state)
{
    const redis::ServerFeatures &a = m_state.server;
    const redis::ServerFeatures &b = state.server;
    const bool same = a.known == b.known && a.unknownWhy == b.unknownWhy &&
                      a.clThrottle == b.clThrottle && a.gcra == b.gcra && a.hexpire == b.hexpire &&
                      a.clientNoTouch == b.clientNoTouch && m_state.label == state.label &&
                      m_state.redisVersion == state.redisVersion;
    m_state = state;
    if (!same) {
        render();
    }
}

void ServerPanel::render()
{
    const redis::ServerFeatures &s = m_state.server;
    // Nothing asked yet (not connected since the session began): nothing to show.
    setVisible(s.known || !s.unknownWhy.isEmpty());
    m_title->setText(
        m_state.redisVersion.isEmpty()
            ? tr("This server: %1").arg(m_state.label)
            : tr("This server: %1, Redis %2").arg(m_state.label, m_state.redisVersion));
    m_unknown->setVisible(!s.known);
    m_unknown->setText(tr("What it offers beyond Redis 7.0 is unknown: %1. The console's scans "
                          "then count as accesses under LRU/LFU eviction.")
                           .arg(s.unknownWhy));
    for (qsizetype i = 0; i < m_marks.size(); ++i) {
        const bool has = s.*features[i].has;
        m_marks[i]->setVisible(s.known);
        m_names[i]->setVisible(s.known);
        m_meanings[i]->setVisible(s.known);
        m_marks[i]->setText(has ? tr("yes") : tr("no"));
        m_marks[i]->setProperty("has", has);
        QPalette p = palette();
        if (has) {
            p.setColor(QPalette::WindowText, tone::color(Tone::Good));
        }
        m_marks[i]->setPalette(p);
        m_meanings[i]->setText(meaning(features[i].name, has));
    }
}

QString ServerPanel::rowsText() const
{
    QStringList lines;
    for (qsizetype i = 0; i < m_marks.size(); ++i) {
        if (!m_marks[i]->isVisibleTo(this)) {
            continue;
        }
        lines << QStringLiteral("%1|%2|%3")
                     .arg(m_marks[i]->property("has").toBool() ? QStringLiteral("yes")
                                                               : QStringLiteral("no"),
                          QString::fromLatin1(features[i].name), m_meanings[i]->text());
    }
    return lines.join(u'\n');
}

} // namespace sluice::ui
