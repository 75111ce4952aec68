#include "envoywatcher.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace sluice::serve::envoy {

ConfigWatcher::ConfigWatcher(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_watcher(new QFileSystemWatcher(this))
    , m_quiet(new QTimer(this))
{
    m_quiet->setSingleShot(true);
    m_quiet->setInterval(200);
    connect(m_quiet, &QTimer::timeout, this, [this] {
        rewatch();
        Q_EMIT changed();
    });
    auto touched = [this] { m_quiet->start(); };
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, touched);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, touched);
    rewatch();
}

void ConfigWatcher::rewatch()
{
    if (!m_watcher->files().isEmpty()) {
        m_watcher->removePaths(m_watcher->files());
    }
    if (!m_watcher->directories().isEmpty()) {
        m_watcher->removePaths(m_watcher->directories());
    }
    const QFileInfo info(m_path);
    QStringList paths;
    if (info.isDir()) {
        paths << m_path;
        const QDir dir(m_path);
        for (const QString &name :
             dir.entryList({QStringLiteral("*.yaml"), QStringLiteral("*.yml")}, QDir::Files)) {
            paths << dir.filePath(name);
        }
    } else {
        // A file: its directory too, so that a file replaced by a rename is seen.
        paths << m_path << info.absolutePath();
    }
    m_watcher->addPaths(paths);
}

} // namespace sluice::serve::envoy
