#include "mainwindow.h"

#include <QApplication>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Sluice"));
    QApplication::setOrganizationName(QStringLiteral("Sluice"));
    sluice::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
