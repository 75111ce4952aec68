#pragma once

#include <QObject>
#include <QPalette>

#include <functional>

QT_BEGIN_NAMESPACE
class QChart;
class QWidget;
QT_END_NAMESPACE

namespace sluice::ui {

// Light or dark, the user's choice (View > Theme, kept in the settings as "view/theme") or
// the system's. Applying it sets the application's palette (Fusion's, so that every style
// draws it the same) and tone::isDark(), then emits changed(): the widgets that keep a colour
// in a style sheet or a chart take theirs again from tone.h.
//
// "System" follows the platform's palette as it is (a dark desktop gives a dark window) and
// re-evaluates when the platform changes it; Qt 6.4 has no colour-scheme query of its own, so
// a dark system is a platform palette whose window is dark, or GTK_THEME ending in ":dark".
class Theme : public QObject
{
    Q_OBJECT
public:
    enum class Choice { System, Light, Dark };

    static Theme &instance();

    Choice choice() const { return m_choice; }
    bool isDark() const;
    // Applies `choice` to the running application (the QApplication must exist).
    void apply(Choice choice);

    static QString name(Choice choice); // "system", "light", "dark"
    static Choice fromName(const QString &name, bool *ok = nullptr);
    static QPalette darkPalette();
    static QPalette lightPalette();
    // `p` with a selection that its selected text reads on (4.5:1), the accent where not.
    static QPalette readableSelection(QPalette p);

    // A chart's background, title, axes, grid and legend from the palette in use (and again on
    // every change, for as long as the chart lives).
    static void styleChart(QChart *chart);
    // `widget`'s style sheet from `sheet` (which reads tone.h), now and on every change.
    static void followStyleSheet(QWidget *widget, std::function<QString()> sheet);

Q_SIGNALS:
    void changed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    Theme();
    bool systemIsDark() const;
    void setDark(bool dark);

    Choice m_choice = Choice::System;
    QPalette m_system;     // the platform's palette, as it was before any choice
    QString m_systemStyle; // the style the platform chose
    bool m_haveSystem = false;
    bool m_applying = false;
};

} // namespace sluice::ui
