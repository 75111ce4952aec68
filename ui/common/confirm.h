#pragma once

#include <QDialogButtonBox>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QString>

#include <functional>

namespace sluice::ui {

// How a page asks "are you sure?" without a modal exec(): by default a page opens a message
// box with open(); a test (or an embedding) installs a hook that answers at once.
// The hook gets the question as shown to the user and returns true for yes.
using ConfirmHook = std::function<bool(const QString &question)>;

// Asks `question` and runs `then` on yes: through `hook` when one is set, else in a
// window-modal message box opened with open() (no nested event loop), with Cancel as the
// default and `yes` as the button that goes ahead (role `yesRole`).
inline void askToConfirm(QWidget *parent, const ConfirmHook &hook, const QString &title,
                         const QString &question, const QString &yes, std::function<void()> then,
                         QMessageBox::ButtonRole yesRole = QMessageBox::AcceptRole)
{
    if (hook) {
        if (hook(question)) {
            then();
        }
        return;
    }
    auto *box =
        new QMessageBox(QMessageBox::Question, title, question, QMessageBox::Cancel, parent);
    box->setObjectName(QStringLiteral("confirmBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *ok = box->addButton(yes, yesRole);
    box->setDefaultButton(QMessageBox::Cancel);
    QObject::connect(box, &QMessageBox::finished, parent, [box, ok, then = std::move(then)] {
        if (box->clickedButton() == ok) {
            then();
        }
    });
    box->open();
}

// The same for what cannot be undone and may hit what it should not: the user types `typed`
// (a count) before `yes` goes ahead. A hook answers for the user as above (true: typed).
inline void askToConfirmTyped(QWidget *parent, const ConfirmHook &hook, const QString &title,
                              const QString &question, const QString &yes, const QString &typed,
                              std::function<void()> then)
{
    if (hook) {
        if (hook(question)) {
            then();
        }
        return;
    }
    auto *box = new QInputDialog(parent);
    box->setObjectName(QStringLiteral("typedConfirmBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowTitle(title);
    box->setLabelText(question);
    box->setOkButtonText(yes);
    box->setWindowModality(Qt::WindowModal);
    if (auto *buttons = box->findChild<QDialogButtonBox *>()) {
        QPushButton *ok = buttons->button(QDialogButtonBox::Ok);
        ok->setEnabled(false);
        QObject::connect(box, &QInputDialog::textValueChanged, ok,
                         [ok, typed](const QString &t) { ok->setEnabled(t.trimmed() == typed); });
    }
    QObject::connect(box, &QInputDialog::textValueSelected, parent,
                     [typed, then = std::move(then)](const QString &t) {
                         if (t.trimmed() == typed) {
                             then();
                         }
                     });
    box->open();
}

} // namespace sluice::ui
