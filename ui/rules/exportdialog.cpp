#include "exportdialog.h"

#include "rulessession.h"

#include "ui/common/filedialog.h"
#include "ui/common/pageheader.h"
#include "ui/common/tone.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

const QString formatKey = QStringLiteral("export/format");
const QString dirKey = QStringLiteral("export/dir");
const QString serviceKey = QStringLiteral("export/nginxAuthService");
const QString upstreamKey = QStringLiteral("export/nginxAuthUpstream");
const QString listenKey = QStringLiteral("export/nginxAuthListen");

struct Format
{
    const char *name;
    const char *label;
    const char *about;
    const char *suffix;
};
constexpr Format all[] = {
    {"json", QT_TRANSLATE_NOOP("sluice::ui::ExportDialog", "Rule file, JSON"),
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog",
                       "The rules as Sluice reads them back: every rule, nothing left out."),
     "json"},
    {"yaml", QT_TRANSLATE_NOOP("sluice::ui::ExportDialog", "Rule file, YAML"),
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog",
                       "The same rules in YAML: every rule, nothing left out."),
     "yaml"},
    {"nginx", QT_TRANSLATE_NOOP("sluice::ui::ExportDialog", "nginx limit_req include"),
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog",
                       "limit_req zones for http {}: each nginx counts on its own, in memory."),
     "conf"},
    {"nginx-auth",
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog", "nginx in front of Sluice (auth_request)"),
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog",
                       "A server that asks the check service (sluice-cli serve) before it "
                       "proxies: every nginx shares the state in Redis."),
     "conf"},
    {"envoy", QT_TRANSLATE_NOOP("sluice::ui::ExportDialog", "Envoy ratelimit service config"),
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog",
                       "One domain with a descriptor per fixed-window rule."),
     "yaml"},
    {"kong", QT_TRANSLATE_NOOP("sluice::ui::ExportDialog", "Kong rate-limiting plugins"),
     QT_TRANSLATE_NOOP("sluice::ui::ExportDialog",
                       "Plugin configurations for the fixed windows Kong's periods can express."),
     "json"},
};

const Format *findFormat(const QString &name)
{
    for (const Format &f : all) {
        if (name == QLatin1String(f.name)) {
            return &f;
        }
    }
    return nullptr;
}

} // namespace

QStringList ExportDialog::formats()
{
    QStringList out;
    for (const Format &f : all) {
        out << QLatin1String(f.name);
    }
    return out;
}

QString ExportDialog::suffix(const QString &format)
{
    const Format *f = findFormat(format);
    return f ? QLatin1String(f->suffix) : QStringLiteral("txt");
}

QString ExportDialog::lastFolder()
{
    const QString dir = QSettings().value(dirKey).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

ExportDialog::ExportDialog(RulesSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export rules"));
    auto *root = new QVBoxLayout(this);

    auto *form = new QFormLayout;
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("exportFormat"));
    for (const Format &f : all) {
        m_format->addItem(tr(f.label), QLatin1String(f.name));
    }
    form->addRow(tr("&Format:"), m_format);
    root->addLayout(form);
    m_about = PageHeader::note(this);
    m_about->setObjectName(QStringLiteral("exportAbout"));
    root->addWidget(m_about);

    // nginx-auth only: where the service and the application are, where nginx listens.
    m_authBox = new QWidget(this);
    m_authBox->setObjectName(QStringLiteral("nginxAuthOptions"));
    auto *auth = new QFormLayout(m_authBox);
    auth->setContentsMargins(0, 0, 0, 0);
    const QSettings settings;
    m_service = new QLineEdit(
        settings.value(serviceKey, QStringLiteral("http://127.0.0.1:8090")).toString(), m_authBox);
    m_service->setObjectName(QStringLiteral("nginxAuthService"));
    m_service->setToolTip(tr("Where the check service (sluice-cli serve) listens"));
    m_upstream = new QLineEdit(
        settings.value(upstreamKey, QStringLiteral("http://127.0.0.1:8000")).toString(), m_authBox);
    m_upstream->setObjectName(QStringLiteral("nginxAuthUpstream"));
    m_upstream->setToolTip(tr("The application nginx fronts"));
    m_listen =
        new QLineEdit(settings.value(listenKey, QStringLiteral("8080")).toString(), m_authBox);
    m_listen->setObjectName(QStringLiteral("nginxAuthListen"));
    m_listen->setToolTip(tr("Where nginx listens: a port or address:port"));
    auth->addRow(tr("Check &service:"), m_service);
    auth->addRow(tr("&Upstream:"), m_upstream);
    auth->addRow(tr("nginx &listens on:"), m_listen);
    root->addWidget(m_authBox);

    root->addWidget(PageHeader::heading(tr("Preview"), 1.0, this));
    m_preview = new QPlainTextEdit(this);
    m_preview->setObjectName(QStringLiteral("exportPreview"));
    m_preview->setReadOnly(true);
    m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_preview->setMinimumSize(480, 240);
    root->addWidget(m_preview, 1);
    m_leftOut = PageHeader::note(this, tone::text(Tone::Warning));
    m_leftOut->setObjectName(QStringLiteral("exportLeftOut"));
    m_leftOut->setTextInteractionFlags(Qt::TextSelectableByMouse);
    root->addWidget(m_leftOut);

    auto *buttons = new QDialogButtonBox(this);
    m_copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    m_copy->setObjectName(QStringLiteral("exportCopy"));
    m_copy->setToolTip(tr("Copy the text above to the clipboard"));
    m_save = buttons->addButton(tr("&Save…"), QDialogButtonBox::AcceptRole);
    m_save->setObjectName(QStringLiteral("exportSave"));
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("exportClose"));
    root->addWidget(buttons);

    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::updatePreview);
    for (QLineEdit *e : {m_service, m_upstream, m_listen}) {
        connect(e, &QLineEdit::textChanged, this, &ExportDialog::updatePreview);
    }
    connect(m_copy, &QPushButton::clicked, this, &ExportDialog::copy);
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::save);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);

    const int last = m_format->findData(settings.value(formatKey).toString());
    m_format->setCurrentIndex(last >= 0 ? last : 0);
    updatePreview();
    resize(760, 560);
}

QString ExportDialog::format() const
{
    return m_format->currentData().toString();
}

void ExportDialog::setFormat(const QString &format)
{
    const int i = m_format->findData(format);
    if (i >= 0) {
        m_format->setCurrentIndex(i);
    }
}

QString ExportDialog::previewText() const
{
    return m_valid ? m_preview->toPlainText() : QString();
}

QStringList ExportDialog::leftOut() const
{
    return m_leftOutLines;
}

rules::NginxAuthOptions ExportDialog::nginxAuth() const
{
    rules::NginxAuthOptions o;
    o.service = m_service->text().trimmed();
    o.upstream = m_upstream->text().trimmed();
    o.listen = m_listen->text().trimmed();
    return o;
}

void ExportDialog::updatePreview()
{
    const QString f = format();
    if (const Format *info = findFormat(f)) {
        m_about->setText(tr(info->about));
    }
    m_authBox->setVisible(f == QLatin1String("nginx-auth"));
    QString error;
    const std::optional<rules::Export> out =
        RulesSession::render(m_session->rules(), f, nginxAuth(), &error);
    m_valid = out.has_value();
    m_leftOutLines.clear();
    if (!out) {
        m_preview->setPlainText(QString());
        m_preview->setPlaceholderText(error);
        m_leftOut->setStyleSheet(
            QStringLiteral("color: %1;").arg(tone::hex(tone::text(Tone::Bad))));
        m_leftOut->setText(tone::mark(Tone::Bad) + error);
    } else {
        m_preview->setPlainText(QString::fromUtf8(out->text));
        for (const rules::Export::Skipped &s : out->skipped) {
            m_leftOutLines << QStringLiteral("%1: %2").arg(s.ruleId, s.reason);
        }
        m_leftOut->setStyleSheet(
            QStringLiteral("color: %1;").arg(tone::hex(tone::text(Tone::Warning))));
        m_leftOut->setText(m_leftOutLines.isEmpty()
                               ? QString()
                               : tone::mark(Tone::Warning) +
                                     tr("%n rule(s) left out: this format cannot express them.",
                                        nullptr, int(m_leftOutLines.size())) +
                                     QLatin1Char('\n') + m_leftOutLines.join(QLatin1Char('\n')));
    }
    m_leftOut->setVisible(!m_leftOut->text().isEmpty());
    m_copy->setEnabled(m_valid);
    m_save->setEnabled(m_valid);
}

void ExportDialog::copy()
{
    QGuiApplication::clipboard()->setText(previewText());
}

QString ExportDialog::defaultPath() const
{
    return QDir(lastFolder()).filePath(QStringLiteral("rules.") + suffix(format()));
}

bool ExportDialog::saveTo(const QString &path)
{
    if (!m_session->exportFile(path, format(), nullptr, nginxAuth())) {
        return false;
    }
    QSettings settings;
    settings.setValue(dirKey, QFileInfo(path).absolutePath());
    settings.setValue(formatKey, format());
    if (format() == QLatin1String("nginx-auth")) {
        settings.setValue(serviceKey, m_service->text().trimmed());
        settings.setValue(upstreamKey, m_upstream->text().trimmed());
        settings.setValue(listenKey, m_listen->text().trimmed());
    }
    return true;
}

void ExportDialog::save()
{
    if (m_saveHook) {
        const QString path = m_saveHook(defaultPath());
        if (!path.isEmpty() && saveTo(path)) {
            accept();
        }
        return;
    }
    const QString suffix = ExportDialog::suffix(format());
    askForFile(this, QStringLiteral("exportFileDialog"), tr("Save the export"), defaultPath(),
               {tr("%1 (*.%2)").arg(m_format->currentText(), suffix), tr("All files (*)")}, suffix,
               [this](const QString &path, const QString &) {
                   if (saveTo(path)) {
                       accept();
                   }
               });
}

} // namespace sluice::ui
