#pragma once

#include <QHash>
#include <QString>
#include <QStringList>
#include <QWidget>

class QGridLayout;
class QLabel;
class QLineEdit;

namespace sluice::ui {

// A form of label | field rows, each field a line edit with its message under it (shown when
// the value is wrong). The fields are keyed by name ("rate", "from"); their line edits are named
// objectPrefix + key, their messages objectPrefix + key + "Error". Rows not among the shown keys
// take no space. A QGridLayout, not a QFormLayout: Qt 6.4's QFormLayout writes out of bounds
// (heap corruption, crashes much later) when it lays out hidden rows (setRowVisible) next to
// height-for-width ones (the word-wrapped messages).
class FieldForm : public QWidget
{
    Q_OBJECT
public:
    // The line edits are named objectPrefix + key + editSuffix ("" + "host" + "Edit").
    explicit FieldForm(const QString &objectPrefix, QWidget *parent = nullptr,
                       const QString &editSuffix = {});

    // `trailing` (a Browse… button, a port) sits right of the line edit, above its message.
    QLineEdit *addField(const QString &key, const QString &label, const QString &placeholder,
                        const QString &toolTip = {}, QWidget *trailing = nullptr);
    // A row of another widget (a combo box, a row of spin boxes); no label: an empty cell.
    void addRow(const QString &label, QWidget *field, QWidget *buddy = nullptr);
    // Shows or hides a row added with addRow (its label too).
    void setRowShown(QWidget *field, bool shown);
    void setSpacing(int horizontal, int vertical);

    QStringList keys() const { return m_order; }
    QLineEdit *edit(const QString &key) const;
    QLabel *error(const QString &key) const;

    // Only these fields' rows are shown (the rows added with addRow stay).
    void showOnly(const QStringList &keys);
    // The texts (a key not in `values`: empty), without edited().
    void setValues(const QHash<QString, QString> &values);
    QHash<QString, QString> values() const;
    // The messages beside their fields (a key not in `errors`: none).
    void setErrors(const QHash<QString, QString> &errors);
    void setFieldsEnabled(bool enabled);

Q_SIGNALS:
    // A field typed into by the user.
    void edited(const QString &key, const QString &text);
    // Return pressed in a field.
    void submitted();

private:
    struct Row
    {
        QLabel *label = nullptr;
        QWidget *box = nullptr;
        QLineEdit *edit = nullptr;
        QLabel *error = nullptr;
    };
    int nextRow() const;

    QString m_prefix;
    QString m_suffix;
    QHash<QWidget *, QLabel *> m_rowLabels; // addRow's rows
    QGridLayout *m_grid;
    QHash<QString, Row> m_rows;
    QStringList m_order;
};

} // namespace sluice::ui
