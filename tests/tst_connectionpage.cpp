// The Connection page, the status bar and the sandbox, driven through the real widgets
// offscreen against real Redis servers: the CTest fixture's, and private ones this test starts
// and stops. No keyring answers here: the session fallback for passwords is what runs.

#include "ownredis.h"
#include "pageharness.h"
#include "testkit.h"
#include "testpki.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionpage.h"
#include "ui/connection/connectionstatus.h"
#include "ui/connection/profilestore.h"
#include "ui/connection/sandbox.h"
#include "ui/connection/serverpanel.h"
#include "ui/language.h"
#include "ui/mainwindow.h"

#include "core/redis/serverfeatures.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <csignal>
#include <memory>

using namespace sluice;
using namespace sluice::ui;

namespace {

// Counts how late the GUI thread's event loop serves a 20 ms timer while a test waits: the
// proof that nothing blocks it.
class LoopWatch
{
public:
    LoopWatch()
    {
        m_clock.start();
        m_timer.setInterval(20);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer,
                         [this] { m_maxGap = std::max(m_maxGap, m_clock.restart()); });
        m_timer.start();
    }
    qint64 maxGapMs() const { return m_maxGap; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_maxGap = 0;
};

} // namespace

class TestConnectionPage : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    // A CA and a server certificate for "localhost" (made with openssl, as tst_transport does),
    // a TLS redis-server and one on a Unix socket.
    QTemporaryDir m_pki;
    test::OwnRedis m_tlsRedis;
    quint16 m_tlsPort = 0;
    test::OwnRedis m_unixRedis;
    QString m_socket;
    QString pki(const QString &name) const { return m_pki.path() + QLatin1Char('/') + name; }

    MainWindow &window()
    {
        if (!m_window) {
            m_window = std::make_unique<MainWindow>();
            if (!test::showWindow(*m_window, {1100, 700})) {
                qWarning("window not exposed");
            }
        }
        return *m_window;
    }
    // The Connection page's widgets first (other pages have a "message" too), then the frame's.
    template <typename T> T *find(const char *name)
    {
        const QString n = QString::fromLatin1(name);
        auto *page = window().findChild<QWidget *>(QStringLiteral("connectionPage"));
        T *w = page ? page->findChild<T *>(n) : nullptr;
        if (!w) {
            w = window().findChild<T *>(n);
        }
        if (!w) {
            qWarning("no child named %s", name);
        }
        return w;
    }
    QString statusText() { return find<QLabel>("connectionText")->text(); }
    ConnectionStatus::Tone tone() { return find<ConnectionStatus>("connectionStatus")->tone(); }
    QString message() { return find<QLabel>("message")->text(); }
    ProfileStore *store() { return window().findChild<ProfileStore *>(); }
    ConnectionController *controller() { return window().connection(); }

    void click(const char *button) { QTest::mouseClick(find<QPushButton>(button), Qt::LeftButton); }
    void type(const char *edit, const QString &text)
    {
        auto *e = find<QLineEdit>(edit);
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Backspace);
        QTest::keyClicks(e, text);
    }
    // Fills the form of a new profile, the way a user does.
    void chooseTransport(ConnectionProfile::Transport t)
    {
        auto *combo = find<QComboBox>("transportCombo");
        combo->setCurrentIndex(combo->findData(int(t)));
    }
    void setText(const char *edit, const QString &text) { find<QLineEdit>(edit)->setText(text); }
    QString problem()
    {
        auto *l = find<QLabel>("formProblem");
        return l->isVisibleTo(l->window()) ? l->text() : QString();
    }
    void fillNewProfile(const QString &name, quint16 port, const QString &user = {},
                        const QString &password = {})
    {
        click("newButton");
        type("nameEdit", name);
        type("hostEdit", QStringLiteral("127.0.0.1"));
        find<QSpinBox>("portSpin")->setValue(port);
        if (!user.isEmpty()) {
            type("userEdit", user);
        }
        if (!password.isEmpty()) {
            type("passwordEdit", password);
        }
    }
    QString settingsText()
    {
        QSettings().sync();
        QFile f(QSettings().fileName());
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
    // The console's session connection on the fixture Redis, by the name it gives itself.
    static QByteArray consoleClientId(Connection &admin)
    {
        auto list = admin.command({"CLIENT", "LIST"});
        if (!list) {
            return {};
        }
        for (const QByteArray &line : list->str.split('\n')) {
            if (line.contains(" name=sluice-console ")) {
                return line.mid(3, line.indexOf(' ') - 3);
            }
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Settings under ~/.qttest, never the user's; the keyring service is the test's name.
        test::useTestSettings();

        QVERIFY(m_pki.isValid());
        QVERIFY(test::makeTestPki(m_pki.path()));
        // TLS on a port of its own; the plain port stays for OwnRedis's readiness check.
        m_tlsPort = test::freeLoopbackPort();
        QVERIFY2(m_tlsRedis.start(
                     {QStringLiteral("--tls-port"), QString::number(m_tlsPort),
                      QStringLiteral("--tls-cert-file"), pki(QStringLiteral("server.pem")),
                      QStringLiteral("--tls-key-file"), pki(QStringLiteral("server-key.pem")),
                      QStringLiteral("--tls-ca-cert-file"), pki(QStringLiteral("ca.pem")),
                      QStringLiteral("--tls-auth-clients"), QStringLiteral("no")}),
                 m_tlsRedis.output().constData());
        m_socket = m_unixRedis.dir() + QStringLiteral("/redis.sock");
        QVERIFY2(m_unixRedis.start({QStringLiteral("--unixsocket"), m_socket,
                                    QStringLiteral("--unixsocketperm"), QStringLiteral("700")}),
                 m_unixRedis.output().constData());
    }

    void init() { QSettings().clear(); }

    void cleanup()
    {
        m_window.reset();
        QSettings().clear();
    }

    // A newcomer's first start: no profile, so a private redis-server starts, the console
    // connects to it and says so; it stops (and its directory goes) with the window.
    void firstStartRunsTheSandbox()
    {
        window().connectAtStart();
        QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("Redis 7")) ||
                                     statusText().contains(QStringLiteral("Redis 6")),
                                 15000);
        Sandbox *sandbox = controller()->sandbox();
        QCOMPARE(sandbox->status(), Sandbox::Status::Running);
        const QString where = QStringLiteral("127.0.0.1:%1").arg(sandbox->port());
        QVERIFY2(statusText().startsWith(QStringLiteral("sandbox ") + where),
                 qPrintable(statusText()));
        QVERIFY2(statusText().contains(QStringLiteral(" ms")), qPrintable(statusText()));
        QCOMPARE(tone(), ConnectionStatus::Tone::Good);
        QVERIFY(find<QLabel>("sandboxStatus")->text().contains(where));
        // The sandbox's wrapped texts get the height their lines need at the detail's width
        // (they were cut at the top and the bottom: the stacked page had its hint's height),
        // at the first-start size and on a large screen.
        for (const QSize size : {QSize(1100, 700), QSize(1920, 1080)}) {
            window().resize(size);
            QCoreApplication::processEvents();
            for (const char *name : {"sandboxText", "sandboxStatus"}) {
                auto *label = find<QLabel>(name);
                QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                         qPrintable(QStringLiteral("%1: %2 px for %3 px of text")
                                        .arg(QLatin1String(name))
                                        .arg(label->height())
                                        .arg(label->heightForWidth(label->width()))));
            }
        }
        QCOMPARE(store()->lastUsed(), ProfileStore::sandboxId());
        // The sandbox stays on offer as a profile.
        QCOMPARE(find<QListWidget>("profileList")->item(0)->data(Qt::UserRole).toString(),
                 ProfileStore::sandboxId());

        // Someone kills it: the bar says so, and Connect starts a fresh one.
        const qint64 pid = sandbox->processId();
        QVERIFY(pid > 0);
        ::kill(pid_t(pid), SIGKILL);
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Bad, 5000);
        QVERIFY2(statusText().contains(QStringLiteral("the sandbox stopped")),
                 qPrintable(statusText()));
        click("sandboxConnectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 15000);

        const qint64 pid2 = sandbox->processId();
        const QString dir = sandbox->directory();
        QVERIFY(QFileInfo(dir).isDir());
        m_window.reset();
        QCOMPARE(::kill(pid_t(pid2), 0), -1); // gone with the window, and its directory too
        QVERIFY(!QFileInfo::exists(dir));
    }

    void sandboxWithoutRedisServerSaysSo()
    {
        controller()->sandbox()->setProgram(QStringLiteral("/nonexistent/redis-server"));
        window().connectAtStart();
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Bad, 5000);
        QVERIFY2(find<QLabel>("sandboxStatus")->text().contains(QStringLiteral("not installed")),
                 qPrintable(find<QLabel>("sandboxStatus")->text()));
        QVERIFY2(statusText().contains(QStringLiteral("could not start")),
                 qPrintable(statusText()));
    }

    // Create a profile through the page, test it, connect: the status bar shows address,
    // version and round trip. Then the server kills the console's connection: the bar turns
    // amber, keeps what it knew, counts down, and the console reconnects by itself.
    void createTestConnectAndRecover()
    {
        const Endpoint fixture = test::redisEndpoint();
        fillNewProfile(QStringLiteral("fixture"), fixture.port);
        click("testButton");
        QVERIFY(!find<QPushButton>("testButton")->isEnabled()); // one test at a time
        QTRY_VERIFY_WITH_TIMEOUT(message().contains(QStringLiteral("answered in")), 10000);
        QVERIFY2(message().contains(QStringLiteral("Redis 7")) ||
                     message().contains(QStringLiteral("Redis 6")),
                 qPrintable(message()));
        QVERIFY(find<QPushButton>("testButton")->isEnabled());
        QVERIFY(window().grab().save(test::screenshotPath(QStringLiteral("connectionpage.png"))));

        click("connectButton"); // saves, then connects
        QCOMPARE(store()->profiles().size(), 1);
        const QString where = QStringLiteral("fixture 127.0.0.1:%1").arg(fixture.port);
        QTRY_VERIFY_WITH_TIMEOUT(
            statusText().startsWith(where) && statusText().contains(QStringLiteral(" ms")), 10000);
        QVERIFY2(statusText().contains(QStringLiteral("Redis ")), qPrintable(statusText()));
        QVERIFY2(message().contains(QStringLiteral("Connected to fixture")), qPrintable(message()));
        QCOMPARE(tone(), ConnectionStatus::Tone::Good);
        QVERIFY(window().windowTitle().contains(QStringLiteral("fixture")));

        Connection admin = test::connect();
        const QByteArray id = consoleClientId(admin);
        QVERIFY2(!id.isEmpty(), "the console's connection is not named sluice-console");
        QVERIFY(admin.command({"CLIENT", "KILL", "ID", id}).ok());
        // Read together: under load the reconnect may already have succeeded a moment later.
        QTRY_VERIFY_WITH_TIMEOUT(
            statusText().contains(QStringLiteral("reconnecting")) &&
                tone() == ConnectionStatus::Tone::Warning &&
                window().statusBar()->styleSheet().contains(QStringLiteral("#f6c453")) &&
                statusText().contains(QStringLiteral("Redis ")),
            5000);
        QVERIFY(window().grab().save(test::screenshotPath(QStringLiteral("connection-lost.png"))));
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY(statusText().startsWith(where));
        QVERIFY(window().statusBar()->styleSheet().isEmpty());
        QVERIFY(consoleClientId(admin) != id); // a new connection

        // Deleting the profile in use leaves the server.
        click("deleteButton");
        QTRY_COMPARE(statusText(), QStringLiteral("Not connected"));
        QVERIFY(store()->profiles().isEmpty());
        QVERIFY2(message().contains(QStringLiteral("not connected any more")),
                 qPrintable(message()));
        QTRY_VERIFY(consoleClientId(admin).isEmpty());
    }

    // Stop a server the test started: "reconnecting in N s", counting down, while the
    // console stays responsive; start it again on the same port: connected again.
    void serverGoneAndBack()
    {
        test::OwnRedis server;
        QVERIFY(server.start());
        ConnectionProfile p;
        p.name = QStringLiteral("private");
        p.port = server.port();
        const QString id = store()->save(p, {});
        window().connectAtStart(); // the only profile, but not the last used: stays idle
        QCOMPARE(controller()->state().state, ConnectionState::State::Idle);
        QCOMPARE(statusText(), QStringLiteral("Not connected"));
        controller()->connectTo(id);
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);

        LoopWatch watch;
        server.kill(); // as abrupt as a crash or a network cut
        QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("reconnecting in")), 5000);
        QVERIFY2(statusText().contains(QStringLiteral("connection lost")),
                 qPrintable(statusText()));
        QCOMPARE(tone(), ConnectionStatus::Tone::Warning);
        // A failed retry or two: the wait grows.
        QTRY_VERIFY_WITH_TIMEOUT(statusText().contains(QStringLiteral("reconnecting in 2 s")),
                                 5000);
        QVERIFY(server.start());
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY2(watch.maxGapMs() < 1000, qPrintable(QString::number(watch.maxGapMs())));
    }

    // Bad input and faults, through Test connection: a clear message, a responsive window.
    void faults_data()
    {
        test::columns<QString, QString>("kind", "expected");
        QTest::newRow("closed port") << "closed"
                                     << "connection refused";
        QTest::newRow("silent server") << "silent"
                                       << "no answer within";
        QTest::newRow("wrong password") << "password"
                                        << "wrong user name or password";
        QTest::newRow("password required") << "noauth"
                                           << "a password is required";
        QTest::newRow("no such database") << "db"
                                          << "database 4242 cannot be selected";
    }

    void faults()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const Endpoint fixture = test::redisEndpoint();
        QTcpServer silent; // accepts (the kernel does), never answers
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        test::OwnRedis locked;
        Connection admin = test::connect();
        const QByteArray user =
            "sluice-ui-" + QByteArray::number(QCoreApplication::applicationPid());
        auto dropUser = qScopeGuard([&] { (void)admin.command({"ACL", "DELUSER", user}); });

        if (kind == QLatin1String("closed")) {
            fillNewProfile(kind, test::freeLoopbackPort());
        } else if (kind == QLatin1String("silent")) {
            fillNewProfile(kind, silent.serverPort());
        } else if (kind == QLatin1String("password")) {
            QVERIFY(
                admin.command({"ACL", "SETUSER", user, "on", ">right-pw-7", "~*", "+@all"}).ok());
            fillNewProfile(kind, fixture.port, QString::fromUtf8(user),
                           QStringLiteral("wrong-pw-7"));
        } else if (kind == QLatin1String("noauth")) {
            QVERIFY(locked.start({QStringLiteral("--requirepass"), QStringLiteral("pw")}));
            fillNewProfile(kind, locked.port());
        } else {
            fillNewProfile(kind, fixture.port);
            find<QSpinBox>("dbSpin")->setValue(4242);
        }

        LoopWatch watch;
        click("testButton");
        // Meanwhile the window answers: switch pages and back (leaving the unsaved profile
        // asks; answered here: go, the typed values stay in the form).
        window().findChild<ui::ConnectionPage *>()->setLeaveHook(
            [](const QString &) { return ui::ConnectionPage::LeaveChoice::Discard; });
        QTest::keyClick(&window(), Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(find<QStackedWidget>("pages")->currentIndex(), 1);
        QTest::keyClick(&window(), Qt::Key_1, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(find<QPushButton>("testButton")->isEnabled(), 10000);
        QVERIFY2(message().contains(expected), qPrintable(message()));
        QVERIFY2(message().contains(QStringLiteral("Cannot connect to 127.0.0.1:")),
                 qPrintable(message()));
        QVERIFY2(watch.maxGapMs() < 1000, qPrintable(QString::number(watch.maxGapMs())));
        QVERIFY(!message().contains(QStringLiteral("-pw-7"))); // never a password
        if (kind == QLatin1String("silent")) {
            QVERIFY(
                window().grab().save(test::screenshotPath(QStringLiteral("connection-fault.png"))));
        }
    }

    // Connect (not just test) with a wrong password: red, says why, does not retry blindly.
    // With a closed port: amber, retrying by itself.
    void connectFaultsInTheStatusBar()
    {
        const Endpoint fixture = test::redisEndpoint();
        Connection admin = test::connect();
        const QByteArray user =
            "sluice-ui-" + QByteArray::number(QCoreApplication::applicationPid());
        QVERIFY(admin.command({"ACL", "SETUSER", user, "on", ">right", "~*", "+@all"}).ok());
        auto dropUser = qScopeGuard([&] { (void)admin.command({"ACL", "DELUSER", user}); });
        fillNewProfile(QStringLiteral("wrong"), fixture.port, QString::fromUtf8(user),
                       QStringLiteral("wrong"));
        click("connectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Bad, 10000);
        QVERIFY2(statusText().contains(QStringLiteral("wrong user name or password")),
                 qPrintable(statusText()));
        QVERIFY2(message().contains(QStringLiteral("wrong user name or password")),
                 qPrintable(message()));
        QTest::qWait(1500); // no retry turns it into "reconnecting"
        QCOMPARE(tone(), ConnectionStatus::Tone::Bad);

        fillNewProfile(QStringLiteral("closed"), test::freeLoopbackPort());
        click("connectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Warning, 10000);
        QVERIFY2(statusText().contains(QStringLiteral("connection refused")),
                 qPrintable(statusText()));
        QVERIFY2(statusText().contains(QStringLiteral("reconnecting in")),
                 qPrintable(statusText()));
    }

    // No keyring: the password is kept for the session only, never written to the settings,
    // and asked again in the next session; typed there, it connects.
    void passwordWithoutKeyring()
    {
        const Endpoint fixture = test::redisEndpoint();
        Connection admin = test::connect();
        const QByteArray user =
            "sluice-ui-" + QByteArray::number(QCoreApplication::applicationPid());
        const QString secret =
            QStringLiteral("s3cret-") + QString::number(QCoreApplication::applicationPid());
        QVERIFY(admin.command({"ACL", "SETUSER", user, "on", ">" + secret.toUtf8(), "~*", "+@all"})
                    .ok());
        auto dropUser = qScopeGuard([&] { (void)admin.command({"ACL", "DELUSER", user}); });

        store()->setKeyringEnabled(false);
        QSignalSpy stored(store(), &ProfileStore::passwordStored);
        fillNewProfile(QStringLiteral("acl"), fixture.port, QString::fromUtf8(user), secret);
        click("saveButton");
        QVERIFY(stored.count() == 1 || stored.wait(5000));
        QCOMPARE(stored.first().at(1).toBool(), false);
        QTRY_VERIFY(message().contains(QStringLiteral("for this session only")));
        QVERIFY(find<QLabel>("passwordNote")->text().contains(QStringLiteral("this session only")));
        QVERIFY(!settingsText().isEmpty());
        QVERIFY(!settingsText().contains(secret));
        click("connectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY(statusText().startsWith(QStringLiteral("acl ")));

        // The next session: the password is not known; the page asks for it.
        m_window.reset();
        store()->setKeyringEnabled(false);
        window().showPage(MainWindow::KeysPageIndex);
        window().connectAtStart();
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Bad, 5000);
        QVERIFY2(statusText().contains(QStringLiteral("password needed")),
                 qPrintable(statusText()));
        QCOMPARE(find<QStackedWidget>("pages")->currentIndex(),
                 int(MainWindow::ConnectionPageIndex));
        QVERIFY2(message().contains(QStringLiteral("Enter the password of 'acl'")),
                 qPrintable(message()));
        QTest::keyClicks(find<QLineEdit>("passwordEdit"), secret);
        click("connectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY(!settingsText().contains(secret));
    }

    // The real QtKeychain: the keyring stores the password, or (as here, with no keyring
    // service) the session fallback takes over. Either way, no plain text on disk.
    void passwordWithTheSystemKeyring()
    {
        const QString secret =
            QStringLiteral("k3yring-") + QString::number(QCoreApplication::applicationPid());
        QSignalSpy stored(store(), &ProfileStore::passwordStored);
        fillNewProfile(QStringLiteral("kr"), test::redisEndpoint().port, {}, secret);
        click("saveButton");
        QVERIFY(stored.count() == 1 || stored.wait(10000));
        const bool inKeyring = stored.first().at(1).toBool();
        const QString id = stored.first().at(0).toString();
        QVERIFY(!settingsText().contains(secret));
        // This session knows it; the next one (a fresh store) finds it in the keyring, or not.
        QVERIFY(store()->knowsPassword(id));
        ProfileStore nextSession;
        QSignalSpy looked(this, &TestConnectionPage::lookedUp);
        nextSession.lookupPassword(id, this, [this](ProfileStore::Lookup l) {
            Q_EMIT lookedUp(l.password.value_or(QString()), l.why);
        });
        QVERIFY(looked.wait(10000));
        if (inKeyring) {
            QCOMPARE(store()->passwordPlace(id), ProfileStore::PasswordPlace::Keyring);
            QCOMPARE(looked.first().at(0).toString(), secret);
        } else {
            QCOMPARE(store()->passwordPlace(id), ProfileStore::PasswordPlace::Session);
            QVERIFY2(message().contains(QStringLiteral("for this session only")),
                     qPrintable(message()));
            QCOMPARE(looked.first().at(0).toString(), QString());
            QVERIFY(!looked.first().at(1).toString().isEmpty()); // and says why
        }
        store()->remove(id); // and its keyring entry
    }

    // (a) A TLS profile, made through the editor: the transport, the CA file (typed where the
    // Browse… dialog would put it), Connect: connected, and the status bar says TLS.
    void tlsProfileConnects()
    {
        fillNewProfile(QStringLiteral("secure"), m_tlsPort);
        type("hostEdit", QStringLiteral("localhost"));
        QVERIFY(!find<QGroupBox>("tlsBox")->isVisibleTo(&window())); // TCP: no TLS fields
        chooseTransport(ConnectionProfile::Transport::Tls);
        QVERIFY(find<QGroupBox>("tlsBox")->isVisibleTo(&window()));
        QVERIFY(!find<QLineEdit>("socketEdit")->isVisibleTo(&window()));
        setText("tlsCaEdit", pki(QStringLiteral("ca.pem")));
        QVERIFY2(problem().isEmpty(), qPrintable(problem()));
        click("connectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY2(
            statusText().startsWith(QStringLiteral("secure localhost:%1 (TLS)").arg(m_tlsPort)),
            qPrintable(statusText()));
        QVERIFY2(message().contains(QStringLiteral("Connected to secure")), qPrintable(message()));
        QVERIFY(window().grab().save(test::screenshotPath(QStringLiteral("connection-tls.png"))));
        const auto p = store()->profile(controller()->currentId());
        QVERIFY(p);
        QCOMPARE(p->transport, ConnectionProfile::Transport::Tls);
        QCOMPARE(p->tlsCaFile, pki(QStringLiteral("ca.pem")));

        // Without the CA the system's trust store refuses the test CA: a TLS message.
        setText("tlsCaEdit", QString());
        click("testButton");
        QTRY_VERIFY_WITH_TIMEOUT(find<QPushButton>("testButton")->isEnabled(), 10000);
        QVERIFY2(message().contains(QStringLiteral("TLS refused")), qPrintable(message()));
    }

    // (b) A Unix-socket profile: only the socket path shows; connected through it.
    void unixSocketProfileConnects()
    {
        fillNewProfile(QStringLiteral("local socket"), 1);
        chooseTransport(ConnectionProfile::Transport::Unix);
        QVERIFY(!find<QLineEdit>("hostEdit")->isVisibleTo(&window()));
        QVERIFY(find<QLineEdit>("socketEdit")->isVisibleTo(&window()));
        QVERIFY2(problem().contains(QStringLiteral("Socket path")), qPrintable(problem()));
        type("socketEdit", m_socket);
        QVERIFY2(problem().isEmpty(), qPrintable(problem()));
        click("connectButton");
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY2(statusText().startsWith(QStringLiteral("local socket ") + m_socket),
                 qPrintable(statusText()));
        // It really is that server: the Unix redis-server sees the console's client.
        Connection admin = Connection::open(m_unixRedis.endpoint()).value();
        QTRY_VERIFY(!consoleClientId(admin).isEmpty());
    }

    // What the server offers, on the Connection page once connected: asked with COMMAND INFO
    // on the connection worker's thread (the GUI thread keeps turning), by name. The fixture's
    // Redis (Debian's 7.0) is asked the same and must agree; a 7.0 whose GET and HSET are
    // renamed CL.THROTTLE and HEXPIRE then "has" those two: found by name, never by version.
    void serverFeaturesShown()
    {
        const Endpoint fixture = test::redisEndpoint();
        fillNewProfile(QStringLiteral("fixture"), fixture.port);
        LoopWatch watch;
        click("connectButton");
        auto *panel = find<ServerPanel>("serverPanel");
        QVERIFY(panel);
        QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible() && !panel->rowsText().isEmpty(), 10000);
        Connection admin = test::connect();
        const redis::ServerFeatures asked = redis::detectFeatures(admin);
        QVERIFY2(asked.known, qPrintable(asked.unknownWhy));
        const QString rows = panel->rowsText();
        QCOMPARE(rows.contains(QStringLiteral("yes|CLIENT NO-TOUCH|watching keys does not keep "
                                              "them alive under LRU/LFU eviction")),
                 asked.clientNoTouch);
        QCOMPARE(rows.contains(QStringLiteral("yes|CL.THROTTLE|")), asked.clThrottle);
        QCOMPARE(rows.contains(QStringLiteral("yes|HEXPIRE|")), asked.hexpire);
        QCOMPARE(rows.count(u'\n'), 3); // four features, each with its meaning
        QVERIFY2(find<QLabel>("serverTitle")->text().contains(QStringLiteral("fixture, Redis ")),
                 qPrintable(find<QLabel>("serverTitle")->text()));
        QVERIFY2(watch.maxGapMs() < 1000, qPrintable(QString::number(watch.maxGapMs())));
        QVERIFY(
            window().grab().save(test::screenshotPath(QStringLiteral("connection-server.png"))));

        test::OwnRedis renamed;
        QVERIFY2(renamed.start({QStringLiteral("--rename-command"), QStringLiteral("GET"),
                                QStringLiteral("CL.THROTTLE"), QStringLiteral("--rename-command"),
                                QStringLiteral("HSET"), QStringLiteral("HEXPIRE")}),
                 renamed.output().constData());
        fillNewProfile(QStringLiteral("renamed"), renamed.port());
        click("connectButton");
        QTRY_VERIFY_WITH_TIMEOUT(panel->rowsText().contains(QStringLiteral("yes|CL.THROTTLE|")),
                                 10000);
        QVERIFY2(panel->rowsText().contains(QStringLiteral("yes|HEXPIRE|TTLs on single hash "
                                                           "fields")),
                 qPrintable(panel->rowsText()));
        QVERIFY(panel->rowsText().contains(QStringLiteral("no|GCRA|")));
        QVERIFY(find<QLabel>("serverTitle")->text().contains(QStringLiteral("renamed, Redis 7")));
    }

    // (c) The secrets of an SSH profile go to the session (no keyring here), never to the
    // settings file, which holds the paths and names.
    void sshSecretsStayOutOfTheSettings()
    {
        store()->setKeyringEnabled(false);
        const QString pid = QString::number(QCoreApplication::applicationPid());
        const QString redisPw = QStringLiteral("redis-pw-") + pid;
        const QString sshPw = QStringLiteral("ssh-pw-") + pid;
        const QString phrase = QStringLiteral("key-phrase-") + pid;
        fillNewProfile(QStringLiteral("behind bastion"), 6379, {}, redisPw);
        auto *ssh = find<QCheckBox>("sshCheck");
        QVERIFY(!ssh->isChecked()); // off by default
        QVERIFY(!find<QGroupBox>("sshBox")->isVisibleTo(&window()));
        QVERIFY(!find<QLineEdit>("sshHostEdit")->isVisibleTo(&window()));
        ssh->setChecked(true);
        QVERIFY(find<QLineEdit>("sshHostEdit")->isVisibleTo(&window()));
        QVERIFY2(problem().contains(QStringLiteral("SSH login")), qPrintable(problem()));
        type("sshUserEdit", QStringLiteral("alice"));
        type("sshHostEdit", QStringLiteral("bastion.example"));
        setText("sshKeyEdit", pki(QStringLiteral("server-key.pem")));
        setText("sshKnownHostsEdit", pki(QStringLiteral("known_hosts")));
        type("sshPasswordEdit", sshPw);
        type("sshPassphraseEdit", phrase);
        QVERIFY2(problem().isEmpty(), qPrintable(problem()));
        QSignalSpy secrets(store(), &ProfileStore::secretStored);
        click("saveButton");
        QTRY_COMPARE(secrets.count(), 2);
        const QString text = settingsText();
        QVERIFY(text.contains(QStringLiteral("bastion.example")));
        QVERIFY(text.contains(QStringLiteral("server-key.pem")));
        for (const QString &secret : {redisPw, sshPw, phrase}) {
            QVERIFY2(!text.contains(secret), qPrintable(secret + QStringLiteral(" in ") + text));
        }
        const auto saved = store()->profiles();
        QCOMPARE(saved.size(), 1);
        const ConnectionProfile p = saved.first();
        QVERIFY(p.sshEnabled && p.hasSshPassword && p.hasSshPassphrase && p.hasPassword);
        QCOMPARE(p.sshUser, QStringLiteral("alice"));
        QVERIFY(store()->knowsSecret(p.id, ProfileStore::Secret::SshPassword));
        QVERIFY(store()->knowsSecret(p.id, ProfileStore::Secret::SshPassphrase));
        // The session has them, and the endpoint gets them.
        QSignalSpy looked(this, &TestConnectionPage::lookedUp);
        store()->lookupSecrets(p, {}, this, [this](ProfileStore::SecretsLookup l) {
            QVERIFY(l.secrets);
            Q_EMIT lookedUp(l.secrets->sshPassword + QLatin1Char('|') + l.secrets->sshPassphrase,
                            {});
        });
        QVERIFY(looked.wait(5000));
        QCOMPARE(looked.first().at(0).toString(), sshPw + QLatin1Char('|') + phrase);
        // The summary says how it goes, never with a secret.
        auto *list = find<QListWidget>("profileList");
        const QString summary = list->item(1)->text();
        QVERIFY2(summary.contains(QStringLiteral("via ssh alice@bastion.example")),
                 qPrintable(summary));
        // The next session knows none of them.
        ProfileStore next;
        next.setKeyringEnabled(false);
        QVERIFY(!next.knowsSecret(p.id, ProfileStore::Secret::SshPassword));
    }

    // (d) Validation as you type, naming the field.
    void editorValidation()
    {
        fillNewProfile(QStringLiteral("checks"), 6379);
        QVERIFY(problem().isEmpty());
        chooseTransport(ConnectionProfile::Transport::Tls);
        QVERIFY(problem().isEmpty()); // the system's trust store
        const QString missing = pki(QStringLiteral("no-such-ca.pem"));
        setText("tlsCaEdit", missing);
        QVERIFY2(problem().contains(QStringLiteral("CA file ") + missing +
                                    QStringLiteral(": no such file")),
                 qPrintable(problem()));
        setText("tlsCaEdit", pki(QStringLiteral("ca.pem")));
        QVERIFY(problem().isEmpty());
        setText("tlsCertEdit", pki(QStringLiteral("server.pem")));
        QVERIFY2(problem().startsWith(QStringLiteral("\u2717 Client key:")) &&
                     problem().contains(QStringLiteral("go together")),
                 qPrintable(problem()));
        // Save refuses, and says the same.
        click("saveButton");
        QVERIFY(store()->profiles().isEmpty());
        QVERIFY2(message().contains(QStringLiteral("go together")), qPrintable(message()));
        setText("tlsKeyEdit", pki(QStringLiteral("server-key.pem")));
        QVERIFY2(problem().isEmpty(), qPrintable(problem()));
        // The insecure checkbox shows its warning.
        auto *warning = find<QLabel>("tlsInsecureWarning");
        QVERIFY(!warning->isVisibleTo(&window()));
        find<QCheckBox>("tlsInsecureCheck")->setChecked(true);
        QVERIFY(warning->isVisibleTo(&window()));
        QVERIFY(warning->text().contains(QStringLiteral("Insecure")));

        chooseTransport(ConnectionProfile::Transport::Sentinel);
        QVERIFY2(problem().contains(QStringLiteral("Sentinels:")), qPrintable(problem()));
        type("sentinelsEdit", QStringLiteral("127.0.0.1:26379, sentinel-b:x"));
        QVERIFY2(problem().contains(QStringLiteral("'sentinel-b:x'")) &&
                     problem().contains(QStringLiteral("the port 'x' is not a number")),
                 qPrintable(problem()));
        type("sentinelsEdit", QStringLiteral("127.0.0.1:26379, sentinel-b"));
        QVERIFY2(problem().contains(QStringLiteral("Master name: the master name is missing")),
                 qPrintable(problem()));
        type("masterEdit", QStringLiteral("mymaster"));
        QVERIFY2(problem().isEmpty(), qPrintable(problem()));
        click("saveButton");
        const auto saved = store()->profiles();
        QCOMPARE(saved.size(), 1);
        const Endpoint e = saved.first().endpoint();
        QCOMPARE(e.kind, Endpoint::Kind::Sentinel);
        QCOMPARE(e.masterName, QStringLiteral("mymaster"));
        QCOMPARE(e.sentinels.size(), 2);
        QCOMPARE(e.sentinels.at(1), (HostPort{QStringLiteral("sentinel-b"), 26379}));
        QVERIFY(!e.tls.enabled); // the TLS fields of the other transport do not leak in
    }

    // (e) A profile saved before the transports (host, port, db, user only) loads unchanged,
    // as plain TCP, and connects.
    void oldFormatProfileLoads()
    {
        const Endpoint fixture = test::redisEndpoint();
        {
            QSettings settings;
            settings.beginGroup(QStringLiteral("connections/profiles/old-one"));
            settings.setValue(QStringLiteral("name"), QStringLiteral("legacy"));
            settings.setValue(QStringLiteral("host"), QStringLiteral("127.0.0.1"));
            settings.setValue(QStringLiteral("port"), fixture.port);
            settings.setValue(QStringLiteral("db"), 3);
            settings.setValue(QStringLiteral("user"), QStringLiteral("default"));
            settings.setValue(QStringLiteral("hasPassword"), false);
            settings.setValue(QStringLiteral("passwordPlace"), QStringLiteral("none"));
        }
        const auto p = store()->profile(QStringLiteral("old-one"));
        QVERIFY(p);
        QCOMPARE(p->transport, ConnectionProfile::Transport::Tcp);
        QCOMPARE(p->port, fixture.port);
        QCOMPARE(p->db, 3);
        QVERIFY(!p->sshEnabled);
        const Endpoint e = p->endpoint();
        QCOMPARE(e.kind, Endpoint::Kind::Tcp);
        QVERIFY(!e.tls.enabled && !e.ssh.isSet());
        QCOMPARE(e.display(), QStringLiteral("127.0.0.1:%1/3").arg(fixture.port));
        window();
        auto *page = qobject_cast<ConnectionPage *>(
            window().findChild<QWidget *>(QStringLiteral("connectionPage")));
        QVERIFY(page);
        page->selectProfile(QStringLiteral("old-one"));
        QCOMPARE(find<QComboBox>("transportCombo")->currentData().toInt(),
                 int(ConnectionProfile::Transport::Tcp));
        QCOMPARE(find<QLineEdit>("hostEdit")->text(), QStringLiteral("127.0.0.1"));
        QCOMPARE(find<QSpinBox>("portSpin")->value(), int(fixture.port));
        QCOMPARE(find<QSpinBox>("dbSpin")->value(), 3);
        QCOMPARE(find<QLineEdit>("userEdit")->text(), QStringLiteral("default"));
        QVERIFY(!find<QPushButton>("saveButton")->isEnabled()); // nothing changed
        controller()->connectTo(QStringLiteral("old-one"));
        QTRY_COMPARE_WITH_TIMEOUT(tone(), ConnectionStatus::Tone::Good, 10000);
        QVERIFY2(statusText().startsWith(QStringLiteral("legacy 127.0.0.1:%1/3").arg(fixture.port)),
                 qPrintable(statusText()));
    }

    // The editor for every transport, at two window sizes, in English and in Chinese:
    // tests/screenshots/profile-<lang>-<transport>-<size>.png. Last: it installs Chinese.
    void editorScreenshots()
    {
        for (const QString &lang : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
            QVERIFY(test::useLanguage(lang));
            for (const QSize &size : {QSize(1280, 800), QSize(1920, 1080)}) {
                m_window.reset();
                QSettings().clear();
                window().resize(size);
                QTest::qWait(50);
                const std::pair<ConnectionProfile::Transport, const char *> transports[] = {
                    {ConnectionProfile::Transport::Tcp, "tcp"},
                    {ConnectionProfile::Transport::Tls, "tls"},
                    {ConnectionProfile::Transport::Unix, "unix"},
                    {ConnectionProfile::Transport::Sentinel, "sentinel"}};
                for (const auto &[transport, name] : transports) {
                    fillNewProfile(QStringLiteral("production"), 6380, QStringLiteral("app"));
                    chooseTransport(transport);
                    if (transport == ConnectionProfile::Transport::Tls) {
                        setText("tlsCaEdit", pki(QStringLiteral("ca.pem")));
                        setText("tlsCertEdit", pki(QStringLiteral("server.pem")));
                        find<QCheckBox>("tlsInsecureCheck")->setChecked(true);
                    } else if (transport == ConnectionProfile::Transport::Unix) {
                        type("socketEdit", m_socket);
                    } else if (transport == ConnectionProfile::Transport::Sentinel) {
                        type("sentinelsEdit", QStringLiteral("10.0.0.5:26379, 10.0.0.6:26379"));
                    } else {
                        find<QCheckBox>("sshCheck")->setChecked(true);
                        type("sshUserEdit", QStringLiteral("alice"));
                        type("sshHostEdit", QStringLiteral("bastion.example.com"));
                    }
                    QTest::qWait(50);
                    const QString file = QStringLiteral("profile-%1-%2-%3x%4.png")
                                             .arg(lang, QLatin1String(name))
                                             .arg(size.width())
                                             .arg(size.height());
                    QVERIFY(window().grab().save(test::screenshotPath(file)));
                }
            }
        }
    }

Q_SIGNALS:
    void lookedUp(const QString &password, const QString &why);
};

QTEST_MAIN(TestConnectionPage)
#include "tst_connectionpage.moc"
