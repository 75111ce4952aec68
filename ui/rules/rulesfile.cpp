#include "rulesfile.h"

#include "rulesmodel.h"
#include "rulessession.h"

#include "core/rules/codec.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSaveFile>

namespace sluice::ui {

namespace {

// The whole file, or a null array when it cannot be read (gone, a folder, no permission).
QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    QByteArray bytes = f.read(rules::maxFileBytes + 1);
    if (bytes.isNull()) {
        bytes = QByteArray(""); // empty, but there
    }
    return bytes;
}

} // namespace

RulesFile::RulesFile(QObject *parent)
    : QObject(parent)
    , m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &RulesFile::onWatched);
    // An editor that saves by renaming a new file over the old one ends the watch on the file:
    // the folder's change brings it back.
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &RulesFile::onWatched);
}

bool RulesFile::isYaml(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("yaml") || suffix == QLatin1String("yml");
}

void RulesFile::opened(const QString &path)
{
    m_path = QFileInfo(path).absoluteFilePath();
    m_known = readAll(m_path);
    m_seen = m_known;
    m_seenThere = true;
    watch();
}

void RulesFile::wrote(const QString &path, const QByteArray &bytes)
{
    m_path = QFileInfo(path).absoluteFilePath();
    m_known = bytes;
    m_seen = bytes;
    m_seenThere = true;
    watch();
}

void RulesFile::forget()
{
    m_path.clear();
    m_known.clear();
    watch();
}

void RulesFile::acceptDisk()
{
    m_known = readAll(m_path);
    m_seen = m_known;
}

RulesFile::Disk RulesFile::disk() const
{
    if (m_path.isEmpty()) {
        return Disk::Same;
    }
    if (!QFileInfo(m_path).isFile()) {
        return Disk::Gone;
    }
    return readAll(m_path) == m_known ? Disk::Same : Disk::Changed;
}

bool RulesFile::readOnly() const
{
    const QFileInfo info(m_path);
    // The bits as set (chmod a-w), not WriteUser: that one is access(2), which says yes to root.
    const QFile::Permissions writable = QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther;
    return info.exists() && (!(info.permissions() & writable) || !info.isWritable());
}

int RulesFile::commentLines() const
{
    int n = 0;
    const QList<QByteArray> lines = readAll(m_path).split('\n');
    for (const QByteArray &line : lines) {
        n += line.trimmed().startsWith('#');
    }
    return n;
}

void RulesFile::watch()
{
    const QStringList was = m_watcher->files() + m_watcher->directories();
    if (!was.isEmpty()) {
        m_watcher->removePaths(was);
    }
    if (m_path.isEmpty()) {
        return;
    }
    if (QFileInfo(m_path).isFile()) {
        m_watcher->addPath(m_path);
    }
    m_watcher->addPath(QFileInfo(m_path).absolutePath());
}

void RulesFile::onWatched()
{
    if (m_path.isEmpty()) {
        return;
    }
    if (!m_watcher->files().contains(m_path) && QFileInfo(m_path).isFile()) {
        m_watcher->addPath(m_path);
    }
    // Each change is said once: what the disk holds is compared with what was said last.
    const bool there = QFileInfo(m_path).isFile();
    const QByteArray now = there ? readAll(m_path) : QByteArray();
    if (there == m_seenThere && now == m_seen) {
        return;
    }
    m_seen = now;
    m_seenThere = there;
    if (!there) {
        Q_EMIT changedOnDisk(Disk::Gone);
    } else if (now != m_known) {
        Q_EMIT changedOnDisk(Disk::Changed);
    }
}

// ---------------------------------------------------------------------------------------------
// The session's side: File > Save, Save as, reload and keep.

QString RulesSession::filePath() const
{
    return m_file->path();
}

RulesSession::SaveResult RulesSession::saveFile(const QString &path, SaveOptions options)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const QString name = QFileInfo(path).fileName();
    const bool sameFile = absolute == m_file->path();
    const QList<Diagnostic> errors = rules::validate(m_model->set(), name);
    if (!errors.isEmpty()) {
        QStringList list;
        for (const Diagnostic &d : errors) {
            list << d.toString();
        }
        showProblems(tr("Not saved: %n error(s) in the rules.", nullptr, int(errors.size())), list,
                     Tone::Bad);
        say(Tone::Bad, tr("%1 was not written: the rules are not valid.").arg(name),
            tr("Every error is listed below. Fix the rules, then save again."));
        return SaveResult::Invalid;
    }
    if (sameFile) {
        switch (m_file->disk()) {
        case RulesFile::Disk::Gone:
            say(Tone::Bad, tr("%1 is gone: it was deleted or moved after it was opened.").arg(name),
                tr("Nothing was written and your rules stay here. Save them with Save as…, "
                   "under this name or another."),
                {Offer::SaveAs});
            return SaveResult::Gone;
        case RulesFile::Disk::Changed:
            if (!options.overwriteChanged) {
                say(Tone::Warning, tr("%1 was changed on disk since it was opened.").arg(name),
                    tr("Nothing was written. Reload it (your edits here are dropped), or "
                       "overwrite it with the rules here."),
                    {Offer::ReloadFile, Offer::OverwriteFile, Offer::SaveAs});
                return SaveResult::ChangedOnDisk;
            }
            break;
        case RulesFile::Disk::Same:
            break;
        }
        if (m_file->readOnly()) {
            say(Tone::Bad, tr("%1 is read-only: nothing was written.").arg(name),
                tr("Your rules stay here. Make the file writable, or save them elsewhere with "
                   "Save as…."),
                {Offer::SaveAs});
            return SaveResult::ReadOnly;
        }
        const int comments = RulesFile::isYaml(absolute) ? m_file->commentLines() : 0;
        if (comments > 0 && !options.dropComments) {
            say(Tone::Warning,
                tr("%1 has %n comment line(s) that a Save would drop.", nullptr, comments)
                    .arg(name),
                tr("The YAML reader does not keep comments, so Sluice writes the rules without "
                   "them. Save without them, or save under another name with Save as…."),
                {Offer::SaveWithoutComments, Offer::SaveAs});
            return SaveResult::Comments;
        }
    }
    const QByteArray bytes =
        RulesFile::isYaml(absolute) ? rules::toYaml(m_model->set()) : rules::toJson(m_model->set());
    QSaveFile file(absolute);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        say(Tone::Bad, tr("Cannot write %1.").arg(absolute),
            tr("%1. Nothing was changed on disk; your rules stay here.").arg(file.errorString()),
            {Offer::SaveAs});
        return SaveResult::Failed;
    }
    m_file->wrote(absolute, bytes);
    m_origin = tr("file %1").arg(name);
    m_model->setAllWhere(m_origin);
    setUnsaved(false);
    hideProblems();
    say(Tone::Good,
        tr("Saved %n rule(s) to %1.", nullptr, int(m_model->set().rules.size())).arg(absolute),
        RulesFile::isYaml(absolute) ? tr("Written as YAML.") : tr("Written as JSON."));
    Q_EMIT stateChanged();
    return SaveResult::Saved;
}

void RulesSession::reloadFile()
{
    const QString path = m_file->path();
    if (!path.isEmpty()) {
        importFile(path, nullptr);
    }
}

void RulesSession::keepEdits()
{
    m_file->acceptDisk();
    say(Tone::Info, tr("Your rules here are kept."),
        tr("A Save overwrites %1 with them.").arg(QFileInfo(m_file->path()).fileName()));
}

void RulesSession::discardChanges()
{
    if (!m_unsaved) {
        return;
    }
    if (!m_file->path().isEmpty() && m_file->disk() != RulesFile::Disk::Gone) {
        reloadFile();
        return;
    }
    setUnsaved(false); // rules from Redis: the next server's rules may replace them
    Q_EMIT stateChanged();
}

void RulesSession::onFileChanged(RulesFile::Disk now)
{
    const QString name = QFileInfo(m_file->path()).fileName();
    if (now == RulesFile::Disk::Gone) {
        say(Tone::Warning, tr("%1 was deleted or moved.").arg(name),
            tr("The rules stay here. Save them with Save as… to keep them in a file."),
            {Offer::SaveAs});
        return;
    }
    say(Tone::Warning, tr("%1 was changed on disk.").arg(name),
        m_unsaved ? tr("Reload it (your edits here are dropped), or keep your rules here; a "
                       "Save then overwrites the file.")
                  : tr("Reload it to see the change, or keep the rules here."),
        {Offer::ReloadFile, Offer::KeepEdits});
}

} // namespace sluice::ui
