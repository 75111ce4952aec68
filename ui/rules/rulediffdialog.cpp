#include "rulediffdialog.h"

#include "core/common/bytes.h"
#include "ui/common/pageheader.h"
#include "ui/common/tone.h"

#include "rulesmodel.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

QTreeWidgetItem *group(QTreeWidget *tree, const QString &title, const QColor &color)
{
    auto *item = new QTreeWidgetItem(tree, {title});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setForeground(0, color);
    item->setFirstColumnSpanned(true);
    return item;
}

} // namespace

QTreeWidget *RuleDiffDialog::makeTree(const QString &objectName, const QString &detailTitle,
                                      QWidget *parent)
{
    auto *tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setColumnCount(2);
    tree->setHeaderLabels({tr("Rule"), detailTitle});
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);
    return tree;
}

void RuleDiffDialog::fillTree(QTreeWidget *tree, const RuleDiff &diff, int unchanged)
{
    tree->clear();
    if (!diff.added.isEmpty()) {
        auto *g =
            group(tree, tr("Added (%n)", nullptr, int(diff.added.size())), tone::text(Tone::Good));
        for (const Rule &r : diff.added) {
            new QTreeWidgetItem(
                g, {QStringLiteral("+ ") + r.id,
                    RulesModel::algorithmText(r.algorithm) + QStringLiteral(" · ") + r.describe()});
        }
    }
    if (!diff.changed.isEmpty()) {
        auto *g = group(tree, tr("Changed (%n)", nullptr, int(diff.changed.size())),
                        tone::text(Tone::Warning));
        for (const RuleDiff::Change &c : diff.changed) {
            // One field fits on the rule's line; more get a line each.
            const bool one = c.fields.size() == 1;
            auto *rule = new QTreeWidgetItem(
                g, {QStringLiteral("~ ") + c.id,
                    one ? c.fields.first() : tr("%n fields", nullptr, int(c.fields.size()))});
            rule->setToolTip(1, c.fields.join(QLatin1Char('\n')));
            for (qsizetype i = 0; !one && i < c.fields.size(); ++i) {
                new QTreeWidgetItem(rule, {QString(), c.fields[i]});
            }
        }
    }
    if (!diff.removed.isEmpty()) {
        auto *g = group(tree, tr("Removed (%n)", nullptr, int(diff.removed.size())),
                        tone::text(Tone::Bad));
        for (const Rule &r : diff.removed) {
            new QTreeWidgetItem(
                g, {QStringLiteral("− ") + r.id,
                    RulesModel::algorithmText(r.algorithm) + QStringLiteral(" · ") + r.describe()});
        }
    }
    if (diff.isEmpty()) {
        new QTreeWidgetItem(tree, {tr("No differences"), QString()});
    } else if (unchanged > 0) {
        auto *same = new QTreeWidgetItem(tree, {tr("Unchanged (%n)", nullptr, unchanged)});
        same->setForeground(0, tone::color(Tone::Info));
        same->setFirstColumnSpanned(true);
    }
    tree->expandAll();
}

RuleDiffDialog::RuleDiffDialog(Mode mode, const RuleDiff &diff, const QString &headline,
                               const QString &note, qint64 storeVersion, int unchanged,
                               QWidget *parent)
    : QDialog(parent)
{
    setObjectName(mode == Mode::Push ? QStringLiteral("pushDialog")
                                     : QStringLiteral("reviewDialog"));
    setWindowTitle(mode == Mode::Push ? tr("Push rules to Redis") : tr("Review the conflict"));
    setWindowModality(Qt::WindowModal);
    resize(640, 460);

    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 10, {18, 16, 18, 14});
    m_box = box;
    auto *title = new QLabel(headline, this);
    title->setObjectName(QStringLiteral("diffSummary"));
    title->setWordWrap(true);
    QFont f = title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    title->setFont(f);
    box->addWidget(title);

    m_tree = makeTree(QStringLiteral("diffTree"), tr("What changes"), this);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    fillTree(m_tree, diff, unchanged);
    m_tree->expandAll();
    box->addWidget(m_tree, 1);

    if (!note.isEmpty()) {
        auto *n = new QLabel(note, this);
        n->setObjectName(QStringLiteral("diffNote"));
        n->setWordWrap(true);
        n->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(tone::muted())));
        box->addWidget(n);
    }

    if (mode == Mode::Push) {
        m_message = new QLineEdit(this);
        m_message->setObjectName(QStringLiteral("pushMessage"));
        m_message->setPlaceholderText(tr("Why (kept in the rules' history; optional)"));
        m_message->setMaxLength(200);
        auto *row = new QHBoxLayout;
        auto *label = new QLabel(tr("&Message:"), this);
        label->setBuddy(m_message);
        row->addWidget(label);
        row->addWidget(m_message, 1);
        box->addLayout(row);
    }

    auto *buttons = new QDialogButtonBox(this);
    if (mode == Mode::Push) {
        auto *push = buttons->addButton(tr("Push to Redis"), QDialogButtonBox::AcceptRole);
        push->setObjectName(QStringLiteral("confirmPushButton"));
        push->setDefault(true);
        push->setEnabled(!diff.isEmpty());
        connect(push, &QPushButton::clicked, this, [this] { done(Push); });
        auto *stage = buttons->addButton(tr("Stage in shadow"), QDialogButtonBox::ActionRole);
        stage->setObjectName(QStringLiteral("stageButton"));
        stage->setEnabled(!diff.isEmpty());
        stage->setToolTip(tr("Store these rules beside the enforced ones instead: the service "
                             "decides every request by both, the candidate in shadow (it never "
                             "blocks), so the Monitor shows what it would deny before you "
                             "promote it"));
        connect(stage, &QPushButton::clicked, this, [this] { done(Stage); });
    } else {
        auto *keep = buttons->addButton(tr("Keep mine (based on v%1)").arg(storeVersion),
                                        QDialogButtonBox::AcceptRole);
        keep->setObjectName(QStringLiteral("keepMineButton"));
        keep->setToolTip(tr("Keep your rules and mark them as based on v%1: the next push "
                            "overwrites exactly what is listed here")
                             .arg(storeVersion));
        connect(keep, &QPushButton::clicked, this, [this] { done(KeepMine); });
        auto *take = buttons->addButton(tr("Use Redis v%1").arg(storeVersion),
                                        QDialogButtonBox::DestructiveRole);
        take->setObjectName(QStringLiteral("useRedisButton"));
        take->setToolTip(tr("Replace your rules with those in Redis; your changes are lost"));
        connect(take, &QPushButton::clicked, this, [this] { done(UseRedis); });
    }
    auto *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    connect(cancel, &QPushButton::clicked, this, [this] { done(Cancel); });
    box->addWidget(buttons);
}

QString RuleDiffDialog::message() const
{
    return m_message ? m_message->text().trimmed() : QString();
}

void RuleDiffDialog::setPreview(const QList<keys::RulePreview> &preview, const QString &error)
{
    const int at = m_box->indexOf(m_tree) + 1;
    auto *title = new QLabel(this);
    title->setObjectName(QStringLiteral("previewTitle"));
    title->setWordWrap(true);
    m_box->insertWidget(at, title);
    if (!error.isEmpty()) {
        title->setText(tr("Who it limits now could not be worked out: %1").arg(error));
        return;
    }
    qint64 released = 0, denied = 0;
    for (const keys::RulePreview &p : preview) {
        released += p.released;
        denied += p.newlyDenied;
    }
    title->setText(preview.isEmpty()
                       ? tr("No rule changes, so no subject is limited differently.")
                       : tr("Who it limits now, from the live keys' state: released (denied now, "
                            "allowed after) %1 · newly denied (allowed now, denied after) %2")
                             .arg(released)
                             .arg(denied));
    QTreeWidget *tree = makeTree(QStringLiteral("previewTree"), tr("Subjects limited now"), this);
    tree->setUniformRowHeights(true);
    for (const keys::RulePreview &p : preview) {
        QString line = tr("%n live key(s)", nullptr, int(p.liveKeys));
        if (!p.complete) {
            line += tr(" (a part: the preview stops at %1)").arg(p.liveKeys);
        }
        line += tr(" · denied now %1 → after %2").arg(p.deniedNow).arg(p.deniedAfter);
        if (p.newState) {
            line += tr(" · every subject starts afresh");
        }
        line += tr(" · last 15 min: %1 allowed, %2 denied").arg(p.statsAllowed).arg(p.statsDenied);
        auto *rule = new QTreeWidgetItem(tree, {p.id, line});
        rule->setToolTip(1, line);
        const auto subjects = [&](const QList<keys::PreviewSubject> &list, const QString &what,
                                  qint64 count) {
            if (count == 0) {
                return;
            }
            QStringList names;
            for (const auto &s : list) {
                names << bytes::printable(s.subject);
            }
            const QString text = QStringLiteral("%1 (%2): %3")
                                     .arg(what)
                                     .arg(count)
                                     .arg(names.join(QStringLiteral(", ")));
            auto *item = new QTreeWidgetItem(rule, {QString(), text});
            item->setToolTip(1, text);
        };
        subjects(p.topReleased, tr("released"), p.released);
        subjects(p.topNewlyDenied, tr("newly denied"), p.newlyDenied);
    }
    tree->expandAll();
    tree->setMaximumHeight(180);
    m_box->insertWidget(at + 1, tree);
}

} // namespace sluice::ui
