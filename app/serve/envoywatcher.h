#pragma once

#include <QObject>
#include <QString>

class QFileSystemWatcher;
class QTimer;

namespace sluice::serve::envoy {

// Watches a configuration file or directory (serve --envoy-config): changed() once the files
// have been quiet for a moment after a change (an editor's save, a ConfigMap's symlink swap, a
// file added or removed), in the thread it lives in.
class ConfigWatcher : public QObject
{
    Q_OBJECT
public:
    explicit ConfigWatcher(QString path, QObject *parent = nullptr);
    const QString &path() const { return m_path; }
    // Watches again what is there now (files come and go).
    void rewatch();

Q_SIGNALS:
    void changed();

private:
    QString m_path;
    QFileSystemWatcher *m_watcher;
    QTimer *m_quiet;
};

} // namespace sluice::serve::envoy
