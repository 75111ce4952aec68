#pragma once

#include <QObject>
#include <QProcess>
#include <QString>

#include <memory>

class QTemporaryDir;
class QTimer;

namespace sluice::ui {

// A private redis-server for a first start (ARCHITECTURE.md "The default a newcomer gets"): on a
// free loopback port, no persistence, its working directory a temporary one; stopped when the
// Sandbox is destroyed, and, on Linux, by the kernel if the console dies first. Starting never
// blocks: statusChanged() says when it is ready or why it is not. GUI thread only.
class Sandbox : public QObject
{
    Q_OBJECT
public:
    enum class Status { Stopped, Starting, Running, Failed };

    explicit Sandbox(QObject *parent = nullptr);
    ~Sandbox() override;

    // Starts the server (no-op while Starting or Running). The program is looked up in PATH and
    // the usual sbin directories; setProgram() overrides it (tests: a missing one).
    void start();
    void stop();
    void setProgram(const QString &program) { m_program = program; }

    Status status() const { return m_status; }
    quint16 port() const { return m_port; }
    qint64 processId() const;
    // The server's working directory (a temporary one, removed on stop); empty when stopped.
    QString directory() const;
    // Failed: why, in the user's words. Running: empty.
    QString error() const { return m_error; }

Q_SIGNALS:
    void statusChanged(sluice::ui::Sandbox::Status status);

private:
    void launch();
    void onOutput();
    void onFinished(int exitCode, QProcess::ExitStatus exitStatus);
    void setStatus(Status status, const QString &error = {});
    static quint16 freeLoopbackPort();

    QString m_program;
    Status m_status = Status::Stopped;
    QString m_error;
    quint16 m_port = 0;
    int m_launches = 0; // attempts for this start(): a port can be taken between probe and bind
    QProcess *m_process = nullptr;
    QTimer *m_readyTimeout = nullptr;
    QByteArray m_output; // the server's log until it is ready, for error messages
    std::unique_ptr<QTemporaryDir> m_dir;
};

} // namespace sluice::ui
