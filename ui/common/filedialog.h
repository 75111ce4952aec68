#pragma once

#include <QFileDialog>
#include <QStringList>

#include <functional>

namespace sluice::ui {

// A file dialog opened with open() (never exec()), deleted when it closes; `chosen` gets the
// path picked and the name filter it was picked under. For saving (defaultSuffix not empty) the
// suffix follows the filter chosen: the first "*.ext" of it.
inline QFileDialog *askForFile(QWidget *parent, const QString &objectName, const QString &title,
                               const QString &dir, const QStringList &filters,
                               const QString &defaultSuffix,
                               std::function<void(const QString &, const QString &)> chosen)
{
    auto *dialog = new QFileDialog(parent, title, dir);
    dialog->setObjectName(objectName);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setNameFilters(filters);
    if (defaultSuffix.isEmpty()) {
        dialog->setFileMode(QFileDialog::ExistingFile);
    } else {
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setDefaultSuffix(defaultSuffix);
        QObject::connect(dialog, &QFileDialog::filterSelected, dialog,
                         [dialog](const QString &filter) {
                             const qsizetype star = filter.indexOf(QStringLiteral("*."));
                             if (star >= 0) {
                                 const qsizetype end = filter.indexOf(QLatin1Char(')'), star);
                                 QString suffix = filter.mid(star + 2, end - star - 2);
                                 dialog->setDefaultSuffix(suffix.section(QLatin1Char(' '), 0, 0));
                             }
                         });
    }
    QObject::connect(dialog, &QFileDialog::fileSelected, parent,
                     [dialog, chosen = std::move(chosen)](const QString &path) {
                         chosen(path, dialog->selectedNameFilter());
                     });
    dialog->open();
    return dialog;
}

} // namespace sluice::ui
