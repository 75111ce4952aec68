#include "sandbox.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#endif

namespace sluice::ui {

namespace {

constexpr int maxLaunches = 5;
constexpr int readyTimeoutMs = 10000;
constexpr int stopTimeoutMs = 3000;

} // namespace

Sandbox::Sandbox(QObject *parent)
    : QObject(parent)
    , m_readyTimeout(new QTimer(this))
{
    m_readyTimeout->setSingleShot(true);
    m_readyTimeout->setInterval(readyTimeoutMs);
    connect(m_readyTimeout, &QTimer::timeout, this, [this] {
        const QString log = QString::fromLocal8Bit(m_output).trimmed();
        stop();
        setStatus(Status::Failed,
                  tr("redis-server did not get ready within %1 s.").arg(readyTimeoutMs / 1000) +
                      (log.isEmpty() ? QString()
                                     : QLatin1Char(' ') + log.section(QLatin1Char('\n'), -1)));
    });
}

Sandbox::~Sandbox()
{
    blockSignals(true); // receivers may be half destroyed already
    stop();
}

qint64 Sandbox::processId() const
{
    return m_process ? m_process->processId() : 0;
}

QString Sandbox::directory() const
{
    return m_dir ? m_dir->path() : QString();
}

void Sandbox::start()
{
    if (m_status == Status::Starting || m_status == Status::Running) {
        return;
    }
    QString program = m_program;
    if (program.isEmpty()) {
        program = QStandardPaths::findExecutable(QStringLiteral("redis-server"));
        if (program.isEmpty()) {
            program = QStandardPaths::findExecutable(QStringLiteral("redis-server"),
                                                     {QStringLiteral("/usr/sbin"),
                                                      QStringLiteral("/usr/local/sbin"),
                                                      QStringLiteral("/usr/local/bin")});
        }
    }
    if (program.isEmpty() || !QFileInfo::exists(program)) {
        setStatus(Status::Failed, tr("redis-server is not installed, so Sluice cannot start a "
                                     "sandbox. Install it (Debian, Ubuntu: apt-get install "
                                     "redis-server) or add a profile for a Redis you have."));
        return;
    }
    m_program = program;
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) {
        setStatus(Status::Failed, tr("Cannot create a temporary directory for the sandbox: %1")
                                      .arg(m_dir->errorString()));
        return;
    }
    m_launches = 0;
    setStatus(Status::Starting);
    launch();
}

void Sandbox::launch()
{
    ++m_launches;
    m_output.clear();
    m_port = freeLoopbackPort();
    delete m_process;
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setWorkingDirectory(m_dir->path());
#ifdef Q_OS_LINUX
    // If the console dies without cleaning up (a crash, SIGKILL), the kernel stops the server.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
#endif
    connect(m_process, &QProcess::readyRead, this, &Sandbox::onOutput);
    connect(m_process, &QProcess::finished, this, &Sandbox::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            setStatus(Status::Failed,
                      tr("Cannot run %1: %2").arg(m_program, m_process->errorString()));
        }
    });
    m_process->start(m_program,
                     {QStringLiteral("--port"), QString::number(m_port), QStringLiteral("--bind"),
                      QStringLiteral("127.0.0.1"), QStringLiteral("--save"), QString(),
                      QStringLiteral("--appendonly"), QStringLiteral("no"), QStringLiteral("--dir"),
                      m_dir->path(), QStringLiteral("--daemonize"), QStringLiteral("no"),
                      QStringLiteral("--protected-mode"), QStringLiteral("yes")});
    m_readyTimeout->start();
}

void Sandbox::onOutput()
{
    const QByteArray chunk = m_process->readAll();
    if (m_status != Status::Starting) {
        return; // the log of a running server: not ours to keep
    }
    m_output += chunk;
    if (m_output.contains("Ready to accept connections")) {
        m_readyTimeout->stop();
        m_output.clear();
        setStatus(Status::Running);
    }
}

void Sandbox::onFinished(int exitCode, QProcess::ExitStatus exitStatus)
{
    m_readyTimeout->stop();
    const Status was = m_status;
    if (was == Status::Starting) {
        if (m_output.contains("Address already in use") && m_launches < maxLaunches) {
            launch(); // lost a race for the port: another one
            return;
        }
        QString log = QString::fromLocal8Bit(m_output).trimmed();
        log = log.section(QLatin1Char('\n'), -2);
        setStatus(Status::Failed, tr("redis-server stopped before it was ready (exit code %1). %2")
                                      .arg(exitCode)
                                      .arg(log));
    } else if (was == Status::Running) {
        setStatus(Status::Failed,
                  exitStatus == QProcess::CrashExit
                      ? tr("The sandbox redis-server was stopped from outside or crashed. Connect "
                           "to the sandbox again to start a new, empty one.")
                      : tr("The sandbox redis-server exited (code %1). Connect to the sandbox "
                           "again to start a new, empty one.")
                            .arg(exitCode));
    }
}

void Sandbox::stop()
{
    m_readyTimeout->stop();
    if (m_process) {
        QProcess *p = m_process;
        m_process = nullptr;
        p->disconnect(this);
        if (p->state() != QProcess::NotRunning) {
            // SIGTERM: redis-server without persistence exits in milliseconds.
            p->terminate();
            if (!p->waitForFinished(stopTimeoutMs)) {
                p->kill();
                p->waitForFinished(stopTimeoutMs);
            }
        }
        delete p;
    }
    m_dir.reset();
    setStatus(Status::Stopped);
}

void Sandbox::setStatus(Status status, const QString &error)
{
    m_error = error;
    if (m_status == status && error.isEmpty()) {
        return;
    }
    m_status = status;
    Q_EMIT statusChanged(status);
}

quint16 Sandbox::freeLoopbackPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) {
        return 0;
    }
    return probe.serverPort();
}

} // namespace sluice::ui
