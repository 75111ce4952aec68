#include "keyspage.h"

#include "keycolumn.h"
#include "keydetails.h"
#include "keysfilterproxy.h"
#include "keysmodel.h"
#include "keyssession.h"

#include "ui/common/messagebanner.h"
#include "ui/connection/connectioncontroller.h"

#include <QEvent>
#include <QItemSelectionModel>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

// The Keys page's table in use: the rows in view (re-read every second), the flagged keys
// brought into view, the selection and the fixes on it.

namespace sluice::ui {

using keys::KeyInfo;

namespace {

// At most this many rows are refreshed every second: a tall window shows fewer.
constexpr int maxVisibleRows = 300;

} // namespace

// --- the view -------------------------------------------------------------------------------

bool KeysPage::eventFilter(QObject *watched, QEvent *event)
{
    // The viewport kept, not asked of the view (see RuleChart::eventFilter).
    if (watched == m_viewport && event->type() == QEvent::Resize) {
        m_visibleTimer->start();
    }
    return QWidget::eventFilter(watched, event);
}

void KeysPage::updateVisible()
{
    fitKeyColumn(m_view, KeysModel::KeyColumn, KeysModel::StateColumn, 200, 240);
    m_visibleRows.clear();
    QList<QByteArray> keys;
    const int rows = m_proxy->rowCount();
    if (rows > 0) {
        int top = m_view->rowAt(0);
        int bottom = m_view->rowAt(m_view->viewport()->height() - 1);
        top = std::max(top, 0);
        bottom = bottom < 0 ? rows - 1 : bottom;
        bottom = std::min(bottom, top + maxVisibleRows - 1);
        keys.reserve(bottom - top + 2);
        for (int r = top; r <= bottom; ++r) {
            const int source = m_proxy->mapToSource(m_proxy->index(r, 0)).row();
            const QByteArray &key = m_model->info(source).key;
            keys << key;
            m_visibleRows.insert(key, source);
        }
    }
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (current.isValid()) {
        const int source = m_proxy->mapToSource(current).row();
        const QByteArray &key = m_model->info(source).key;
        if (!m_visibleRows.contains(key)) {
            keys << key;
            m_visibleRows.insert(key, source);
        }
    }
    m_session->setVisibleKeys(m_visibleRows);
}

void KeysPage::bringFlaggedIntoView()
{
    // A scan found more flagged keys than before, and none is in view: the first one is
    // scrolled to the top, unless the user is looking at something (a row selected, the
    // table scrolled).
    const qint64 flagged = m_model->flagged();
    const bool more = flagged > m_flaggedSeen;
    m_flaggedSeen = std::min(m_flaggedSeen, flagged);
    if (!more || m_view->verticalScrollBar()->value() != 0 ||
        m_view->selectionModel()->currentIndex().isValid()) {
        return;
    }
    const int rows = m_proxy->rowCount();
    const int bottom = m_view->rowAt(m_view->viewport()->height() - 1);
    const int lastInView = bottom < 0 ? rows - 1 : bottom;
    for (int r = 0; r < rows; ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (m_model->isFlagged(m_proxy->mapToSource(i).row())) {
            if (r > lastInView) {
                m_view->scrollTo(i, QAbstractItemView::PositionAtTop);
            }
            m_flaggedSeen = flagged;
            return;
        }
    }
}

void KeysPage::repaintTtl()
{
    if (!isVisible() || m_proxy->rowCount() == 0) {
        return;
    }
    const int x = m_view->columnViewportPosition(KeysModel::TtlColumn);
    const int w = m_view->columnWidth(KeysModel::TtlColumn);
    m_view->viewport()->update(QRect(x, 0, w, m_view->viewport()->height()));
}

void KeysPage::onCurrentChanged()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    if (!current.isValid()) {
        m_details->setKey(std::nullopt, nullptr);
        m_session->setSelectedKey(std::nullopt);
        return;
    }
    const KeyInfo &k = m_model->info(m_proxy->mapToSource(current).row());
    m_details->setKey(k, m_session->ruleOf(k));
    m_session->setSelectedKey(k.key);
    m_visibleTimer->start();
}

QList<KeyInfo> KeysPage::selectedKeys() const
{
    QList<KeyInfo> out;
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    out.reserve(rows.size());
    for (const QModelIndex &i : rows) {
        out << m_model->info(m_proxy->mapToSource(i).row());
    }
    return out;
}

void KeysPage::updateActions()
{
    const bool any = m_view->selectionModel()->hasSelection();
    const bool can = m_session->hasSession() && !m_session->isFixing();
    m_setTtl->setEnabled(can && any);
    m_delete->setEnabled(can && any);
    m_rescan->setEnabled(m_connection->endpoint().has_value());
}

// --- fixes ----------------------------------------------------------------------------------

void KeysPage::fixSelection(bool deleteKeys)
{
    const QList<KeyInfo> keys = selectedKeys();
    QString nothing;
    const auto q = m_session->fixSelectionQuestion(keys, deleteKeys, &nothing);
    if (!q) {
        if (!nothing.isEmpty()) {
            m_reportBox->showMessage(PageMessage::plain(Tone::Info, nothing));
        }
        return;
    }
    const auto go = [this, keys, deleteKeys] { m_session->fixSelection(keys, deleteKeys); };
    if (!q->typeToConfirm.isEmpty()) {
        askToConfirmTyped(this, m_confirm, tr("Keys"), q->text, q->yes, q->typeToConfirm, go);
    } else {
        askToConfirm(this, m_confirm, tr("Keys"), q->text, q->yes, go);
    }
}

void KeysPage::fixAll(bool deleteKeys)
{
    m_session->setPatterns(patterns());
    if (const auto q = m_session->fixAllQuestion(deleteKeys)) {
        askToConfirm(this, m_confirm, tr("Keys"), q->text, q->yes,
                     [this, deleteKeys] { m_session->fixAll(deleteKeys); });
    }
}

} // namespace sluice::ui
