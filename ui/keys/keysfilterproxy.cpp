#include "keysfilterproxy.h"

#include "keypresentation.h"
#include "keysmodel.h"

namespace sluice::ui {

using keys::Health;

KeysFilterProxy::KeysFilterProxy(KeysModel *model, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_model(model)
{
    setSourceModel(model);
    setDynamicSortFilter(true);
}

void KeysFilterProxy::setOnlyFlagged(bool on)
{
    if (on == m_onlyFlagged) {
        return;
    }
    m_onlyFlagged = on;
    invalidate();
}

void KeysFilterProxy::setText(const QString &text)
{
    if (text == m_text) {
        return;
    }
    m_text = text;
    m_textBytes = text.toUtf8();
    invalidate();
}

bool KeysFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid()) {
        return false;
    }
    if (m_onlyFlagged && !m_model->isFlagged(sourceRow)) {
        return false;
    }
    if (m_text.isEmpty()) {
        return true;
    }
    const keys::KeyInfo &k = m_model->info(sourceRow);
    // Raw bytes first (cheap, and the only way to find a key with invalid UTF-8), then what
    // the table shows (escapes such as \n typed by the user), rule and subject.
    return k.key.contains(m_textBytes) || k.ruleId.contains(m_text, Qt::CaseInsensitive) ||
           k.subject.contains(m_textBytes) ||
           (m_text.contains(QLatin1Char('\\')) &&
            keypresentation::displayBytes(k.key).contains(m_text));
}

void KeysFilterProxy::sort(int column, Qt::SortOrder order)
{
    m_model->sort(column, order);
}

} // namespace sluice::ui
