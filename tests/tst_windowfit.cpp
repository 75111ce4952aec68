// The window's size and place are the user's (CONSOLE.md "Frame"): every page with its longest
// texts (an outage's messages, long banners, large counters, a long profile name) in English
// and Chinese leaves the window's size and minimum alone; a saved geometry larger than the
// screen, or from a monitor that is gone, lands whole on the screen; a restart puts the window
// where it was (no drift); a newer console's settings are read as far as understood. And every
// text is readable in both themes: the contrast of each label, button, table cell and chart
// text against what is drawn behind it, measured on the window's pixels, is at least 4.5:1
// (WCAG AA); a dialog open during a theme switch follows it.
#include "pageharness.h"

#include "ui/common/elidedlabel.h"
#include "ui/common/messagebanner.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/keys/keydetails.h"
#include "ui/mainwindow.h"
#include "ui/rules/rulespage.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using namespace sluice;

namespace {

const QSize firstStart(1100, 700);

double luminance(QRgb c)
{
    const auto channel = [](int v) {
        const double s = v / 255.0;
        return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(qRed(c)) + 0.7152 * channel(qGreen(c)) + 0.0722 * channel(qBlue(c));
}

double contrast(QRgb a, QRgb b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The contrast of the text drawn in `area` of `image`: its background is the colour most of
// its pixels have, its text the pixel that stands out most from it (a glyph's core). 0 when
// nothing but the background is drawn there. `colours` gets "#text on #background".
double textContrast(const QImage &image, const QRect &area, QString *colours = nullptr)
{
    QHash<QRgb, int> counts;
    const QRect r = area.intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y) {
        for (int x = r.left(); x <= r.right(); ++x) {
            ++counts[image.pixel(x, y) | 0xff000000u];
        }
    }
    QRgb background = 0;
    int most = -1;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > most) {
            most = it.value();
            background = it.key();
        }
    }
    double best = 0;
    QRgb ink = background;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.key() != background && contrast(it.key(), background) > best) {
            best = contrast(it.key(), background);
            ink = it.key();
        }
    }
    if (colours) {
        *colours = QStringLiteral("%1 on %2").arg(QColor(ink).name(), QColor(background).name());
    }
    return best;
}

bool shows(const QWidget *w, const QWidget *window)
{
    return w->isVisible() && w->isEnabled() && w->window() == window && w->width() > 4 &&
           w->height() > 4 && !w->visibleRegion().isEmpty();
}

// Every text of `window` that reads below 4.5:1, one line each.
QStringList lowContrast(QWidget *window, const QString &where)
{
    const QImage image = window->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    QStringList out;
    // A mark alone (a status dot, an arrow) is a graphic beside its words: 3:1 (WCAG 1.4.11).
    const auto check = [&](const QWidget *on, QRect rect, const QString &what, bool mark = false) {
        rect = QRect(on->mapTo(window, rect.topLeft()) * dpr, rect.size() * dpr);
        QString colours;
        const double c = textContrast(image, rect, &colours);
        if (c > 0 && c < (mark ? 3.0 : 4.5)) {
            out << QStringLiteral("%1: %2 reads at %3:1 (%4)")
                       .arg(where, what)
                       .arg(c, 0, 'f', 2)
                       .arg(colours);
            qWarning("%s", qPrintable(out.last()));
        }
    };
    const QList<QWidget *> all = window->findChildren<QWidget *>();
    for (QWidget *w : all) {
        if (!shows(w, window)) {
            continue;
        }
        const QRect visible = w->visibleRegion().boundingRect();
        if (auto *l = qobject_cast<QLabel *>(w); l && !l->text().isEmpty()) {
            const QString t = l->text().trimmed();
            check(l, l->contentsRect().intersected(visible),
                  QStringLiteral("label %1 '%2'").arg(l->objectName(), l->text().left(40)),
                  t.size() == 1 && !t.front().isLetterOrNumber());
        } else if (auto *b = qobject_cast<QAbstractButton *>(w); b && !b->text().isEmpty()) {
            check(b, b->rect().intersected(visible),
                  QStringLiteral("button '%1'").arg(b->text().left(40)));
        } else if (auto *v = qobject_cast<QAbstractItemView *>(w); v && v->model()) {
            QAbstractItemModel *m = v->model();
            const QRect port = v->viewport()->visibleRegion().boundingRect();
            for (int row = 0; row < std::min(m->rowCount(v->rootIndex()), 40); ++row) {
                for (int col = 0; col < m->columnCount(v->rootIndex()); ++col) {
                    const QModelIndex i = m->index(row, col, v->rootIndex());
                    const QRect cell = v->visualRect(i).intersected(port);
                    if (!cell.isEmpty() && !i.data().toString().isEmpty()) {
                        check(v->viewport(), cell,
                              QStringLiteral("%1 cell %2,%3 '%4'")
                                  .arg(v->objectName())
                                  .arg(row)
                                  .arg(col)
                                  .arg(i.data().toString().left(30)));
                    }
                }
            }
        } else if (auto *cv = qobject_cast<QChartView *>(w); cv && cv->chart()) {
            // A chart's texts against its background, from the chart itself.
            const QChart *chart = cv->chart();
            const QRgb back = chart->backgroundBrush().color().rgb();
            QList<QPair<QString, QColor>> inks = {
                {QStringLiteral("title"), chart->titleBrush().color()}};
            if (chart->legend() && chart->legend()->isVisible()) {
                inks.append({QStringLiteral("legend"), chart->legend()->labelColor()});
            }
            const QList<QAbstractAxis *> axes = chart->axes();
            for (const QAbstractAxis *a : axes) {
                if (a->labelsVisible()) {
                    inks.append({QStringLiteral("axis labels"), a->labelsColor()});
                }
            }
            for (const auto &[what, ink] : inks) {
                const double c = contrast(ink.rgb(), back);
                if (c < 4.5) {
                    out << QStringLiteral("%1: chart %2 %3 reads at %4:1")
                               .arg(where, cv->objectName(), what)
                               .arg(c, 0, 'f', 2);
                }
            }
        }
    }
    return out;
}

} // namespace

class TestWindowFit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::freshTestSettings(QStringLiteral("SluiceWindowFit")); }
    void init() { QSettings().clear(); }
    void cleanupTestCase() { ui::Theme::instance().apply(ui::Theme::Choice::Light); }

    // Every page with its longest texts: a connection that failed with a long profile name,
    // the pages' outage messages, every banner with a long message and four buttons, the
    // Load counters at ten digits. The window keeps 1100x700 and asks for no more.
    void longestTextsKeepTheSize_data() { test::languageRows(); }
    void longestTextsKeepTheSize()
    {
        const auto [lang, zh, installed] = test::useRowLanguage();
        QVERIFY(installed);
        {
            ui::MainWindow w;
            QVERIFY(w.rulesPage()->importFile(
                QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json"), nullptr));
            QVERIFY(test::showWindow(w, firstStart));
            Endpoint nowhere;
            nowhere.port = 1; // nothing listens there: every page says it cannot read
            const QString name =
                QStringLiteral("production-eu-west-1-primary-cluster-behind-the-bastion-of-the-"
                               "payments-team-that-nobody-remembers-the-name-of");
            ui::ConnectionController *c = w.connection();
            c->connectTo(test::saveProfile(*c->store(), nowhere, name));
            QTRY_VERIFY(c->state().state == ui::ConnectionState::State::Failed ||
                        c->state().state == ui::ConnectionState::State::Lost);
            const QString longText = QString::fromUtf8(
                "Not updating (Redis at 10.20.30.40:6379 is not reachable: connection refused "
                "by the peer while reading the statistics of every rule, 17 rules in all): "
                "showing the data read at 12:04:31. Retrying every second. 无法连接到服务器");
            for (int page = 0; page < 6; ++page) {
                QWidget *current = test::showPage(w, page);
                fillLongest(current, longText);
                // The status bar's statistics failure, in Redis's long words.
                auto *stats = w.findChild<ui::ElidedLabel *>(QStringLiteral("statsStatus"));
                QVERIFY(stats);
                stats->setText(longText);
                stats->show();
                QTest::qWait(30);
                const QString where = QStringLiteral("%1 page %2").arg(lang).arg(page);
                QVERIFY2(
                    w.size() == firstStart,
                    qPrintable(
                        QStringLiteral("%1: %2x%3").arg(where).arg(w.width()).arg(w.height())));
                QVERIFY2(w.centralWidget()->minimumSizeHint().width() <= firstStart.width(),
                         qPrintable(QStringLiteral("%1: the pages ask for %2 px")
                                        .arg(where)
                                        .arg(w.centralWidget()->minimumSizeHint().width())));
                QVERIFY2(w.statusBar()->minimumSizeHint().width() <= firstStart.width(),
                         qPrintable(QStringLiteral("%1: the status bar asks for %2 px")
                                        .arg(where)
                                        .arg(w.statusBar()->minimumSizeHint().width())));
            }
            c->disconnectNow();
        }
        QVERIFY(test::useLanguage(QStringLiteral("en")));
    }

    // A geometry saved larger than the screen, or on a monitor that is not there now, comes
    // back whole on the screen.
    void savedGeometryFitsTheScreen_data()
    {
        QTest::addColumn<QRect>("saved");
        QTest::newRow("larger than the screen") << QRect(-40, -30, 9000, 6000);
        QTest::newRow("a monitor that is gone") << QRect(5200, 1400, 1100, 700);
        QTest::newRow("half off the left") << QRect(-700, 100, 1100, 700);
    }
    void savedGeometryFitsTheScreen()
    {
        QFETCH(QRect, saved);
        QSettings().setValue(QStringLiteral("settings/version"), 1);
        QSettings().setValue(QStringLiteral("window/rect"), saved);
        ui::MainWindow w;
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        QVERIFY2(room.contains(w.geometry()),
                 qPrintable(QStringLiteral("%1,%2 %3x%4 is not within %5x%6")
                                .arg(w.x())
                                .arg(w.y())
                                .arg(w.width())
                                .arg(w.height())
                                .arg(room.width())
                                .arg(room.height())));
        // Saved again: what fits, never what was asked.
        w.close();
        QVERIFY(room.contains(QSettings().value(QStringLiteral("window/rect")).toRect()));
    }

    // Closed and opened three times, the window stays where it was (it moved down by its
    // frame on each start before).
    void noDriftAcrossRestarts()
    {
        const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
        const QRect where(room.topLeft() + QPoint(30, 40),
                          QSize(room.width() - 60, room.height() - 80));
        {
            ui::MainWindow w;
            w.setGeometry(where);
            QVERIFY(test::showWindow(w, where.size()));
            w.close();
        }
        for (int i = 0; i < 3; ++i) {
            ui::MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(w.geometry(), where);
            w.close();
        }
    }

    // Settings of a newer console: what is understood is used (the page), what is not (a
    // rectangle that is text, an unknown theme, keys of its own) is skipped, nothing crashes,
    // and the file is not written.
    void newerSettingsAreReadAsFarAsUnderstood()
    {
        {
            QSettings s;
            s.setValue(QStringLiteral("settings/version"), 7);
            s.setValue(QStringLiteral("window/page"), 4);
            s.setValue(QStringLiteral("window/rect"), QStringLiteral("wide, please"));
            s.setValue(QStringLiteral("window/maximized"), QStringLiteral("perhaps"));
            s.setValue(QStringLiteral("view/theme"), QStringLiteral("neon"));
            s.setValue(QStringLiteral("v7/panels"), QVariantList{1, QStringLiteral("x")});
        }
        {
            ui::MainWindow w;
            QVERIFY2(w.settingsProblem().contains(QStringLiteral("newer")),
                     qPrintable(w.settingsProblem()));
            QCOMPARE(w.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentIndex(), 4);
            const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
            QVERIFY(room.contains(w.geometry()));
            w.showPage(1);
            w.close();
        }
        const QSettings s;
        QCOMPARE(s.value(QStringLiteral("settings/version")).toInt(), 7);
        QCOMPARE(s.value(QStringLiteral("window/page")).toInt(), 4);
    }

    // Every text of every page reads at 4.5:1 or more in the light and the dark theme: labels,
    // buttons, table cells (a rule set and a flagged key's details), banners in every tone and
    // the charts' texts.
    void everyTextIsReadable_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    void everyTextIsReadable()
    {
        QFETCH(bool, dark);
        // Chosen as the user does (View > Theme, kept in the settings), so the window keeps it.
        QSettings().setValue(QStringLiteral("settings/version"), 1);
        QSettings().setValue(QStringLiteral("view/theme"),
                             dark ? QStringLiteral("dark") : QStringLiteral("light"));
        QStringList low;
        {
            ui::MainWindow w;
            QVERIFY(w.rulesPage()->importFile(
                QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json"), nullptr));
            QVERIFY(test::showWindow(w, {1280, 800}));
            const ui::Tone tones[] = {ui::Tone::Info, ui::Tone::Good, ui::Tone::Warning,
                                      ui::Tone::Bad};
            for (int page = 0; page < 6; ++page) {
                QWidget *current = test::showPage(w, page);
                for (ui::Tone t : tones) {
                    const QList<ui::MessageBanner *> banners =
                        current->findChildren<ui::MessageBanner *>();
                    for (ui::MessageBanner *b : banners) {
                        b->showMessage(ui::PageMessage::headlined(
                                           t, QStringLiteral("Headline of the banner"),
                                           QStringLiteral("The detail line, in the muted tone.")),
                                       {{QStringLiteral("Act"), QString(), {}}});
                    }
                    QTest::qWait(20);
                    low << lowContrast(&w, QStringLiteral("page %1 tone %2").arg(page).arg(int(t)));
                }
            }
        }
        QCOMPARE(ui::tone::isDark(), dark);
        // A flagged key's details: "Why it is flagged" on its box.
        ui::KeyDetails details;
        keys::KeyInfo k;
        k.key = "rate_limit:login:10.0.0.9";
        k.type = "string";
        k.pttlMs = -1;
        k.health = keys::Health::NoTtl;
        details.setKey(k, nullptr);
        QVERIFY(test::showWindow(details, {1000, 260}));
        auto *why = details.findChild<QLabel *>(QStringLiteral("detailsExplanation"));
        QVERIFY(why && why->isVisible() && !why->text().isEmpty());
        low << lowContrast(&details, QStringLiteral("key details"));
        QVERIFY2(low.isEmpty(), qPrintable(low.join(QLatin1Char('\n'))));
    }

    // A dialog open while the theme changes takes the new one, and stays readable.
    void openDialogFollowsTheTheme()
    {
        ui::Theme::instance().apply(ui::Theme::Choice::Light);
        ui::MainWindow w;
        QVERIFY(test::showWindow(w, firstStart));
        auto *box = new QMessageBox(QMessageBox::Question, QStringLiteral("A question"),
                                    QStringLiteral("Save your changes to the rules first?"),
                                    QMessageBox::Save | QMessageBox::Cancel, &w);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        QVERIFY(QTest::qWaitForWindowExposed(box));
        const QColor light = box->palette().color(QPalette::Window);
        ui::Theme::instance().apply(ui::Theme::Choice::Dark);
        QTest::qWait(20);
        QVERIFY(box->palette().color(QPalette::Window).lightness() < 100);
        QVERIFY(box->palette().color(QPalette::Window) != light);
        const QStringList low = lowContrast(box, QStringLiteral("dialog"));
        QVERIFY2(low.isEmpty(), qPrintable(low.join(QLatin1Char('\n'))));
        box->close();
        ui::Theme::instance().apply(ui::Theme::Choice::Light);
    }

private:
    // The longest texts a page meets: every banner long with four buttons, the Load page's
    // counters at ten digits.
    static void fillLongest(QWidget *page, const QString &text)
    {
        const QList<ui::MessageBanner *> banners = page->findChildren<ui::MessageBanner *>();
        for (ui::MessageBanner *b : banners) {
            QList<ui::MessageBanner::Action> actions;
            for (const char *t :
                 {"Why is that?", "Show them all", "Fix all from rules…", "Delete all flagged…"}) {
                actions.append({QString::fromUtf8(t), QString(), {}});
            }
            b->showMessage(ui::PageMessage::headlined(ui::Tone::Warning, text, text + text),
                           actions);
        }
        for (const char *name :
             {"sentValue", "allowedValue", "deniedValue", "errorsValue", "rateValue"}) {
            if (auto *l = page->findChild<QLabel *>(QLatin1String(name))) {
                l->setText(QStringLiteral("1,234,567,890"));
            }
        }
        if (auto *l = page->findChild<ui::ElidedLabel *>(QStringLiteral("monitorStatus"))) {
            l->setText(text);
        }
    }
};

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
