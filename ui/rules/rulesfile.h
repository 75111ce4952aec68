#pragma once

#include <QByteArray>
#include <QObject>
#include <QString>

class QFileSystemWatcher;

namespace sluice::ui {

// The rule file the Rules page's working set came from or was saved to (CONSOLE.md "Rules",
// File > Save): its path, what was on disk when it was read or written (to see a change made
// behind the console), and a watch on it. Widget-free; the RulesSession owns one and saves
// through it (RulesSession::saveFile, in rulesfile.cpp).
class RulesFile : public QObject
{
    Q_OBJECT
public:
    // What the disk holds now against what the console read or wrote last.
    enum class Disk { Same, Changed, Gone };

    explicit RulesFile(QObject *parent = nullptr);

    // The file (absolute); empty: the rules came from Redis or nowhere.
    QString path() const { return m_path; }
    bool isYaml() const { return isYaml(m_path); }
    static bool isYaml(const QString &path);
    // The rules were read from `path`: what it holds now is the known content, and it is watched.
    void opened(const QString &path);
    // `bytes` were written to `path`.
    void wrote(const QString &path, const QByteArray &bytes);
    // The rules no longer come from a file (a pull replaced them).
    void forget();
    // "Keep mine": the disk's content now is taken as known (a later Save overwrites it).
    void acceptDisk();
    Disk disk() const;
    // The file is marked read-only (its permission bits, which even root is told about).
    bool readOnly() const;
    // Comment lines of the file on disk: the YAML reader drops them, so a Save loses them.
    int commentLines() const;

Q_SIGNALS:
    // The file changed or went away behind the console (said once per change).
    void changedOnDisk(sluice::ui::RulesFile::Disk now);

private:
    void watch();
    void onWatched();

    QString m_path;
    QByteArray m_known; // what was read or written last
    QByteArray m_seen;  // what the disk held when a change was said last
    bool m_seenThere = true;
    QFileSystemWatcher *m_watcher;
};

} // namespace sluice::ui
