#pragma once

#include "core/rules/exporter.h"
#include "core/rules/rule.h"

#include <QDialog>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QWidget;

namespace sluice::ui {

class RulesSession;

// Export rules (File > Export…, Ctrl+E): the format chosen in a list of every format the
// exporter has (json, yaml, nginx, nginx-auth, envoy, kong), each with a line on what it is,
// nginx-auth's three settings when it is the one, a preview of the text exactly as it will be
// written, the rules it leaves out and why, Copy (to the clipboard) and Save… (a file dialog in
// the last folder used, the format's suffix). The last format, folder and nginx-auth settings
// are kept in the settings ("export/...").
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    // Every format of the exporter, in the list's order: "json", "yaml", "nginx", "nginx-auth",
    // "envoy", "kong".
    static QStringList formats();
    static QString suffix(const QString &format);

    ExportDialog(RulesSession *session, QWidget *parent = nullptr);

    QString format() const;
    void setFormat(const QString &format);
    // The preview's text (what Save writes) and the lines of the rules left out.
    QString previewText() const;
    QStringList leftOut() const;
    // Where Save writes by default: the last folder used and rules.<suffix>.
    QString defaultPath() const;
    // Writes the preview's format to `path` through the session (its message says how it went)
    // and remembers the folder; false when it was not written.
    bool saveTo(const QString &path);
    // The last folder used for an export (the settings' "export/dir"; the home folder first).
    static QString lastFolder();

    // Tests answer the file dialog: given the default path, returns the path (empty: cancel).
    void setSaveHook(std::function<QString(const QString &)> hook) { m_saveHook = std::move(hook); }

private:
    void updatePreview();
    void copy();
    void save();
    rules::NginxAuthOptions nginxAuth() const;

    RulesSession *m_session;
    QComboBox *m_format;
    QLabel *m_about;
    QWidget *m_authBox;
    QLineEdit *m_service;
    QLineEdit *m_upstream;
    QLineEdit *m_listen;
    QPlainTextEdit *m_preview;
    QLabel *m_leftOut;
    QPushButton *m_copy;
    QPushButton *m_save;
    QStringList m_leftOutLines;
    bool m_valid = false;
    std::function<QString(const QString &)> m_saveHook;
};

} // namespace sluice::ui
