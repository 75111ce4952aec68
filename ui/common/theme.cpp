#include "theme.h"

#include "tone.h"

#include "core/common/names.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QEvent>
#include <QLegend>
#include <QPointer>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>

namespace sluice::ui {

Theme &Theme::instance()
{
    static Theme *theme = new Theme; // lives as long as the process (widgets connect to it)
    return *theme;
}

Theme::Theme()
{
    if (qApp) {
        qApp->installEventFilter(this);
    }
}

namespace {

// Each choice as the settings name it.
constexpr Named<Theme::Choice> choiceNames[] = {{Theme::Choice::System, u"system"},
                                                {Theme::Choice::Light, u"light"},
                                                {Theme::Choice::Dark, u"dark"}};

} // namespace

QString Theme::name(Choice choice)
{
    return nameIn(choiceNames, choice, u"system");
}

Theme::Choice Theme::fromName(const QString &name, bool *ok)
{
    const std::optional<Choice> c = valueNamed(choiceNames, name.trimmed().toLower());
    if (ok) {
        *ok = c.has_value();
    }
    return c.value_or(Choice::System);
}

QPalette Theme::darkPalette()
{
    QPalette p;
    const QColor window(0x1f, 0x23, 0x28);
    const QColor base(0x16, 0x19, 0x1d);
    const QColor text(0xe6, 0xe9, 0xee);
    const QColor button(0x2a, 0x2f, 0x36);
    const QColor disabled(0x7a, 0x82, 0x8b);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x22, 0x26, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x2a, 0x2f, 0x36));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x8a, 0x80));
    p.setColor(QPalette::Light, QColor(0x3a, 0x40, 0x49));
    p.setColor(QPalette::Midlight, QColor(0x30, 0x35, 0x3d));
    p.setColor(QPalette::Mid, QColor(0x26, 0x2b, 0x31));
    p.setColor(QPalette::Dark, QColor(0x12, 0x14, 0x17));
    p.setColor(QPalette::Shadow, QColor(0x0a, 0x0b, 0x0d));
    p.setColor(QPalette::Highlight, tone::selection());
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7a, 0xb0, 0xf0));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x9a, 0xf0));
    for (QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText}) {
        p.setColor(QPalette::Disabled, role, disabled);
    }
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Button, QColor(0x24, 0x28, 0x2e));
    return p;
}

QPalette Theme::lightPalette()
{
    QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    p.setColor(QPalette::Highlight, tone::selection());
    return p;
}

QPalette Theme::readableSelection(QPalette p)
{
    // A platform's selection that white text does not read on (Fusion's #308cc6: 3.7:1) takes
    // the console's accent, as the light and dark palettes have.
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive}) {
        if (tone::contrast(p.color(g, QPalette::Highlight), p.color(g, QPalette::HighlightedText)) <
            4.5) {
            p.setColor(g, QPalette::Highlight, tone::selection());
            p.setColor(g, QPalette::HighlightedText, Qt::white);
        }
    }
    return p;
}

bool Theme::isDark() const
{
    return tone::isDark();
}

bool Theme::systemIsDark() const
{
    const QByteArray gtk = qgetenv("GTK_THEME");
    if (gtk.endsWith(":dark")) {
        return true;
    }
    const QPalette p = m_haveSystem ? m_system : QGuiApplication::palette();
    return p.color(QPalette::Window).lightness() < 128;
}

void Theme::apply(Choice choice)
{
    if (!qApp) {
        return;
    }
    if (!m_haveSystem) {
        m_system = QGuiApplication::palette();
        m_systemStyle = QApplication::style() ? QApplication::style()->name() : QString();
        m_haveSystem = true;
    }
    m_choice = choice;
    m_applying = true;
    const bool dark = choice == Choice::Dark || (choice == Choice::System && systemIsDark());
    if (choice == Choice::System && !qEnvironmentVariableIsSet("GTK_THEME")) {
        // The platform's own look, as it is.
        if (QApplication::style()->name() != m_systemStyle && !m_systemStyle.isEmpty()) {
            QApplication::setStyle(m_systemStyle);
        }
        QApplication::setPalette(readableSelection(m_system));
    } else {
        if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive)) {
            QApplication::setStyle(QStringLiteral("Fusion"));
        }
        QApplication::setPalette(dark ? darkPalette() : lightPalette());
    }
    // Windows that exist take it too (Qt leaves a window's resolved palette as it was).
    const QPalette now = QGuiApplication::palette();
    const QWidgetList windows = QApplication::topLevelWidgets();
    for (QWidget *w : windows) {
        w->setPalette(now);
    }
    m_applying = false;
    setDark(dark);
}

void Theme::setDark(bool dark)
{
    tone::darkFlag() = dark;
    Q_EMIT changed();
}

bool Theme::eventFilter(QObject *watched, QEvent *event)
{
    // The desktop switched between light and dark: a window that follows it follows.
    if (watched == qApp && !m_applying && m_choice == Choice::System &&
        (event->type() == QEvent::ThemeChange ||
         event->type() == QEvent::ApplicationPaletteChange)) {
        const bool dark = QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
        if (dark != tone::isDark()) {
            m_system = QGuiApplication::palette();
            setDark(dark);
        }
    }
    return QObject::eventFilter(watched, event);
}

void Theme::styleChart(QChart *chart)
{
    const auto style = [](QChart *c) {
        c->setBackgroundBrush(tone::surface());
        c->setPlotAreaBackgroundVisible(false);
        c->setTitleBrush(tone::ink());
        if (c->legend()) {
            c->legend()->setLabelColor(tone::ink());
        }
        const QList<QAbstractAxis *> axes = c->axes();
        for (QAbstractAxis *a : axes) {
            a->setLabelsColor(tone::muted());
            a->setTitleBrush(tone::muted());
            a->setGridLineColor(tone::grid());
            a->setMinorGridLineColor(tone::grid());
            a->setLinePenColor(tone::line());
        }
    };
    style(chart);
    QPointer<QChart> guarded(chart);
    QObject::connect(&instance(), &Theme::changed, chart, [guarded, style] {
        if (guarded) {
            style(guarded);
        }
    });
}

void Theme::followStyleSheet(QWidget *widget, std::function<QString()> sheet)
{
    widget->setStyleSheet(sheet());
    QObject::connect(&instance(), &Theme::changed, widget,
                     [widget, sheet = std::move(sheet)] { widget->setStyleSheet(sheet()); });
}

} // namespace sluice::ui
