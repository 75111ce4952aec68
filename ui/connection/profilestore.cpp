#include "profilestore.h"

#include <QCoreApplication>
#include <QSettings>
#include <QTimer>
#include <QUuid>

#include <qt6keychain/keychain.h>

#include <algorithm>

namespace sluice::ui {

namespace {

const QString profilesGroup = QStringLiteral("connections/profiles");
const QString lastKey = QStringLiteral("connections/last");

QString placeName(ProfileStore::PasswordPlace place)
{
    switch (place) {
    case ProfileStore::PasswordPlace::Keyring:
        return QStringLiteral("keyring");
    case ProfileStore::PasswordPlace::Session:
        return QStringLiteral("session");
    default:
        return QStringLiteral("none");
    }
}

} // namespace

ProfileStore::ProfileStore(QObject *parent)
    : QObject(parent)
{}

void ProfileStore::setKeyringEnabled(bool enabled)
{
    m_keyringEnabled = enabled;
}

QList<ConnectionProfile> ProfileStore::profiles() const
{
    QSettings settings;
    settings.beginGroup(profilesGroup);
    const QStringList ids = settings.childGroups();
    settings.endGroup();
    QList<ConnectionProfile> out;
    for (const QString &id : ids) {
        if (auto p = profile(id)) {
            out << *p;
        }
    }
    std::sort(out.begin(), out.end(), [](const ConnectionProfile &a, const ConnectionProfile &b) {
        return QString::localeAwareCompare(a.name, b.name) < 0;
    });
    return out;
}

std::optional<ConnectionProfile> ProfileStore::profile(const QString &id) const
{
    if (id.isEmpty()) {
        return std::nullopt;
    }
    QSettings settings;
    settings.beginGroup(profilesGroup + QLatin1Char('/') + id);
    if (!settings.contains(QStringLiteral("name"))) {
        return std::nullopt;
    }
    ConnectionProfile p;
    p.id = id;
    p.name = settings.value(QStringLiteral("name")).toString();
    p.host = settings.value(QStringLiteral("host"), p.host).toString();
    p.port = quint16(settings.value(QStringLiteral("port"), p.port).toUInt());
    p.db = settings.value(QStringLiteral("db"), 0).toInt();
    p.user = settings.value(QStringLiteral("user")).toString();
    p.hasPassword = settings.value(QStringLiteral("hasPassword"), false).toBool();
    return p;
}

bool ProfileStore::isEmpty() const
{
    QSettings settings;
    settings.beginGroup(profilesGroup);
    return settings.childGroups().isEmpty();
}

ProfileStore::PasswordPlace ProfileStore::passwordPlace(const QString &id) const
{
    QSettings settings;
    const QString place =
        settings.value(profilesGroup + QLatin1Char('/') + id + QStringLiteral("/passwordPlace"))
            .toString();
    if (place == placeName(PasswordPlace::Keyring)) {
        return PasswordPlace::Keyring;
    }
    if (place == placeName(PasswordPlace::Session)) {
        return PasswordPlace::Session;
    }
    return PasswordPlace::None;
}

void ProfileStore::setPlace(const QString &id, PasswordPlace place)
{
    QSettings settings;
    const QString group = profilesGroup + QLatin1Char('/') + id;
    if (!settings.contains(group + QStringLiteral("/name"))) {
        return; // removed meanwhile
    }
    settings.setValue(group + QStringLiteral("/passwordPlace"), placeName(place));
}

QString ProfileStore::save(ConnectionProfile p, const QString &password, bool clearPassword)
{
    if (p.id.isEmpty()) {
        p.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    }
    const QString id = p.id;
    const auto old = profile(id);
    if (clearPassword) {
        p.hasPassword = false;
    } else if (!password.isEmpty()) {
        p.hasPassword = true;
    } else {
        p.hasPassword = old && old->hasPassword;
    }
    {
        QSettings settings;
        settings.beginGroup(profilesGroup + QLatin1Char('/') + id);
        settings.setValue(QStringLiteral("name"), p.name);
        settings.setValue(QStringLiteral("host"), p.host);
        settings.setValue(QStringLiteral("port"), p.port);
        settings.setValue(QStringLiteral("db"), p.db);
        settings.setValue(QStringLiteral("user"), p.user);
        settings.setValue(QStringLiteral("hasPassword"), p.hasPassword);
        if (!p.hasPassword) {
            settings.setValue(QStringLiteral("passwordPlace"), placeName(PasswordPlace::None));
        }
    }

    if (clearPassword) {
        m_session.remove(id);
        if (m_keyringEnabled) {
            auto *job = new QKeychain::DeletePasswordJob(keyringService(), this);
            job->setKey(keyringKey(id));
            job->start();
        }
    } else if (!password.isEmpty()) {
        m_session.insert(id, password);
        setPlace(id, PasswordPlace::Session);
        if (m_keyringEnabled) {
            auto *job = new QKeychain::WritePasswordJob(keyringService(), this);
            job->setInsecureFallback(false); // never a plain-text copy
            job->setKey(keyringKey(id));
            job->setTextData(password);
            connect(job, &QKeychain::Job::finished, this, [this, id](QKeychain::Job *j) {
                if (j->error() == QKeychain::NoError) {
                    setPlace(id, PasswordPlace::Keyring);
                    Q_EMIT passwordStored(id, true, {});
                } else {
                    Q_EMIT passwordStored(
                        id, false, tr("no system keyring answered (%1)").arg(j->errorString()));
                }
            });
            job->start();
        } else {
            QTimer::singleShot(0, this, [this, id] {
                Q_EMIT passwordStored(id, false, tr("the system keyring is not in use"));
            });
        }
    }
    Q_EMIT profilesChanged();
    return id;
}

void ProfileStore::remove(const QString &id)
{
    {
        QSettings settings;
        settings.remove(profilesGroup + QLatin1Char('/') + id);
        if (settings.value(lastKey).toString() == id) {
            settings.remove(lastKey);
        }
    }
    m_session.remove(id);
    if (m_keyringEnabled) {
        auto *job = new QKeychain::DeletePasswordJob(keyringService(), this);
        job->setKey(keyringKey(id));
        job->start();
    }
    Q_EMIT profilesChanged();
}

void ProfileStore::lookupPassword(const QString &id, QObject *context,
                                  std::function<void(Lookup)> done)
{
    const auto later = [context, done](Lookup l) {
        QTimer::singleShot(0, context, [done, l] { done(l); });
    };
    if (auto it = m_session.constFind(id); it != m_session.constEnd()) {
        later({*it, {}});
        return;
    }
    const PasswordPlace place = passwordPlace(id);
    if (place != PasswordPlace::Keyring) {
        later({std::nullopt, tr("no system keyring was available when it was saved, so Sluice "
                                "kept it for that session only")});
        return;
    }
    if (!m_keyringEnabled) {
        later({std::nullopt, tr("the system keyring is not in use")});
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(keyringService(), this);
    job->setKey(keyringKey(id));
    connect(job, &QKeychain::Job::finished, context, [this, id, done](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError) {
            const QString pw = static_cast<QKeychain::ReadPasswordJob *>(j)->textData();
            m_session.insert(id, pw);
            done({pw, {}});
        } else if (j->error() == QKeychain::EntryNotFound) {
            done({std::nullopt, tr("the system keyring has no password for it")});
        } else {
            done(
                {std::nullopt, tr("the system keyring did not answer (%1)").arg(j->errorString())});
        }
    });
    job->start();
}

void ProfileStore::rememberForSession(const QString &id, const QString &password)
{
    m_session.insert(id, password);
}

QString ProfileStore::lastUsed() const
{
    return QSettings().value(lastKey).toString();
}

void ProfileStore::setLastUsed(const QString &id)
{
    QSettings().setValue(lastKey, id);
}

QString ProfileStore::keyringService() const
{
    // The application's name: the console's entries never meet the tests'.
    return QCoreApplication::applicationName();
}

QString ProfileStore::keyringKey(const QString &id)
{
    return QStringLiteral("connection/") + id;
}

} // namespace sluice::ui
