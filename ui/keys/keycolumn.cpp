#include "keycolumn.h"

#include "keypresentation.h"
#include "keysmodel.h"

#include <QCoreApplication>
#include <QStyle>

#include <QHeaderView>
#include <QTableView>
#include <QVariant>

#include <algorithm>

namespace sluice::ui {

using keys::Health;

void fitKeyColumn(QTableView *view, int keyColumn, int stateColumn, int keyFloor, int stateFloor)
{
    QHeaderView *header = view->horizontalHeader();
    const QVariant last = view->property("fittedKeyWidth");
    if (last.isValid() && last.toInt() != header->sectionSize(keyColumn)) {
        return; // dragged by the user
    }
    int others = 0;
    for (int c = 0; c < header->count(); ++c) {
        if (c != keyColumn && c != stateColumn && !view->isColumnHidden(c)) {
            others += header->sectionSize(c);
        }
    }
    const int room = view->viewport()->width() - others - stateFloor;
    const int want = std::max(static_cast<QAbstractItemView *>(view)->sizeHintForColumn(keyColumn),
                              header->sectionSizeHint(keyColumn)) +
                     12;
    const int width = std::max(keyFloor, std::min(want, room));
    header->resizeSection(keyColumn, width);
    view->setProperty("fittedKeyWidth", width);
}

void setUpKeyColumns(QTableView *view, const KeysModel *model)
{
    QHeaderView *header = view->horizontalHeader();
    // Every column in view without scrolling, at 1280x800 as on a large screen: the key and
    // its state share what the short columns leave (the key elided in the middle), the flag
    // column fits its words in either language.
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(40);
    header->setResizeContentsPrecision(200); // measure a sample, not a million rows
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(KeysModel::KeyColumn, QHeaderView::Interactive);
    header->resizeSection(KeysModel::KeyColumn, 260);
    header->setSectionResizeMode(KeysModel::StateColumn, QHeaderView::Stretch);
    // Type and Health fit their longest word in the language shown, whatever rows the scan
    // sampled (measuring a sample elided "wrong type" when none was in it); Rule and Subject
    // get a width that holds the usual ids, elided in the middle past it, with the whole text
    // in every cell's tooltip.
    {
        const QFontMetrics fm(view->font());
        const int pad = 2 * view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 24;
        int flagWidth = fm.horizontalAdvance(
            model->headerData(KeysModel::FlagColumn, Qt::Horizontal).toString());
        for (Health h : {Health::Ok, Health::NoTtl, Health::TtlExceedsRule, Health::Orphan,
                         Health::WrongType, Health::Unreadable}) {
            flagWidth = std::max(flagWidth, fm.horizontalAdvance(keypresentation::flagText(h)));
        }
        int typeWidth = fm.horizontalAdvance(
            model->headerData(KeysModel::TypeColumn, Qt::Horizontal).toString());
        for (const QString &t : {QStringLiteral("string"), QStringLiteral("stream"),
                                 QStringLiteral("hash"), QStringLiteral("zset"),
                                 QCoreApplication::translate("sluice::ui::KeysPage", "gone")}) {
            typeWidth = std::max(typeWidth, fm.horizontalAdvance(t));
        }
        header->setSectionResizeMode(KeysModel::TypeColumn, QHeaderView::Interactive);
        header->setSectionResizeMode(KeysModel::FlagColumn, QHeaderView::Interactive);
        header->resizeSection(KeysModel::TypeColumn, typeWidth + pad);
        header->resizeSection(KeysModel::FlagColumn, flagWidth + pad + 20); // + the icon
        header->resizeSection(
            KeysModel::RuleColumn,
            std::max(110, fm.horizontalAdvance(QStringLiteral("hello-per-ip")) + pad));
        header->resizeSection(KeysModel::SubjectColumn, 120);
        header->resizeSection(KeysModel::TtlColumn, 140);
    }
    header->setSectionResizeMode(KeysModel::NodeColumn, QHeaderView::ResizeToContents);
}

void fitRuleAndSubject(QTableView *view, const KeysModel *model)
{
    const QFontMetrics fm(view->font());
    int rule =
        fm.horizontalAdvance(model->headerData(KeysModel::RuleColumn, Qt::Horizontal).toString());
    int subject = fm.horizontalAdvance(
        model->headerData(KeysModel::SubjectColumn, Qt::Horizontal).toString());
    for (int r = 0; r < std::min(model->rowCount(), 300); ++r) {
        const keys::KeyInfo &k = model->info(r);
        rule = std::max(rule, fm.horizontalAdvance(k.ruleId));
        subject = std::max(subject, fm.horizontalAdvance(keypresentation::displayBytes(k.subject)));
    }
    QHeaderView *h = view->horizontalHeader();
    view->setProperty("fittedKeyWidth", QVariant());
    h->resizeSection(KeysModel::RuleColumn, std::clamp(rule + 16, 60, 220));
    h->resizeSection(KeysModel::SubjectColumn, std::clamp(subject + 16, 60, 220));
}

} // namespace sluice::ui
