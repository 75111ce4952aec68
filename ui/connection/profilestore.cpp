#include "profilestore.h"

#include "core/common/names.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSettings>
#include <QTimer>
#include <QUuid>

#include <qt6keychain/keychain.h>

#include <algorithm>
#include <memory>

namespace sluice::ui {

namespace {

const QString profilesGroup = QStringLiteral("connections/profiles");
const QString lastKey = QStringLiteral("connections/last");

// Where a secret is, as the settings say it.
constexpr Named<ProfileStore::PasswordPlace> placeNames[] = {
    {ProfileStore::PasswordPlace::None, u"none"},
    {ProfileStore::PasswordPlace::Keyring, u"keyring"},
    {ProfileStore::PasswordPlace::Session, u"session"}};

QString placeName(ProfileStore::PasswordPlace place)
{
    return nameIn(placeNames, place, u"none");
}

// The settings key that says where a secret is.
QString placeKey(ProfileStore::Secret secret)
{
    switch (secret) {
    case ProfileStore::Secret::SshPassword:
        return QStringLiteral("ssh/passwordPlace");
    case ProfileStore::Secret::SshPassphrase:
        return QStringLiteral("ssh/passphrasePlace");
    default:
        return QStringLiteral("passwordPlace");
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
    using T = ConnectionProfile::Transport;
    ConnectionProfile p;
    p.id = id;
    p.name = settings.value(QStringLiteral("name")).toString();
    // Profiles saved before the transports have no "transport": plain TCP.
    const QString transport = settings.value(QStringLiteral("transport")).toString();
    p.transport = transport == QLatin1String("tls")        ? T::Tls
                  : transport == QLatin1String("unix")     ? T::Unix
                  : transport == QLatin1String("sentinel") ? T::Sentinel
                                                           : T::Tcp;
    p.host = settings.value(QStringLiteral("host"), p.host).toString();
    p.port = quint16(settings.value(QStringLiteral("port"), p.port).toUInt());
    p.socketPath = settings.value(QStringLiteral("socket")).toString();
    p.db = settings.value(QStringLiteral("db"), 0).toInt();
    p.user = settings.value(QStringLiteral("user")).toString();
    p.hasPassword = settings.value(QStringLiteral("hasPassword"), false).toBool();

    p.tlsCaFile = settings.value(QStringLiteral("tls/ca")).toString();
    p.tlsCertFile = settings.value(QStringLiteral("tls/cert")).toString();
    p.tlsKeyFile = settings.value(QStringLiteral("tls/key")).toString();
    p.tlsServerName = settings.value(QStringLiteral("tls/serverName")).toString();
    p.tlsInsecure = settings.value(QStringLiteral("tls/insecure"), false).toBool();

    p.sentinels = settings.value(QStringLiteral("sentinel/sentinels")).toStringList();
    p.masterName = settings.value(QStringLiteral("sentinel/master")).toString();

    p.sshEnabled = settings.value(QStringLiteral("ssh/enabled"), false).toBool();
    p.sshUser = settings.value(QStringLiteral("ssh/user")).toString();
    p.sshHost = settings.value(QStringLiteral("ssh/host")).toString();
    p.sshPort = quint16(settings.value(QStringLiteral("ssh/port"), 22).toUInt());
    p.sshKeyFile = settings.value(QStringLiteral("ssh/key")).toString();
    p.sshKnownHostsFile = settings.value(QStringLiteral("ssh/knownHosts")).toString();
    p.sshAcceptNew = settings.value(QStringLiteral("ssh/acceptNew"), false).toBool();
    p.hasSshPassword = settings.value(QStringLiteral("ssh/hasPassword"), false).toBool();
    p.hasSshPassphrase = settings.value(QStringLiteral("ssh/hasPassphrase"), false).toBool();
    // Profiles saved before the flag existed could write: they still can.
    p.readOnly = settings.value(QStringLiteral("readOnly"), false).toBool();
    p.scanBudget = std::max(
        settings.value(QStringLiteral("scanBudget"), int(keys::defaultScanBudget)).toInt(), 0);
    p.keysRescanSeconds = std::clamp(
        settings
            .value(QStringLiteral("keysRescanSeconds"), ConnectionProfile::defaultKeysRescanSeconds)
            .toInt(),
        0, 3600);
    return p;
}

bool ProfileStore::isEmpty() const
{
    QSettings settings;
    settings.beginGroup(profilesGroup);
    return settings.childGroups().isEmpty();
}

ProfileStore::PasswordPlace ProfileStore::secretPlace(const QString &id, Secret secret) const
{
    QSettings settings;
    const QString place =
        settings.value(profilesGroup + QLatin1Char('/') + id + QLatin1Char('/') + placeKey(secret))
            .toString();
    return valueNamed(placeNames, place).value_or(PasswordPlace::None);
}

void ProfileStore::setPlace(const QString &id, Secret secret, PasswordPlace place)
{
    QSettings settings;
    const QString group = profilesGroup + QLatin1Char('/') + id;
    if (!settings.contains(group + QStringLiteral("/name"))) {
        return; // removed meanwhile
    }
    settings.setValue(group + QLatin1Char('/') + placeKey(secret), placeName(place));
}

QString ProfileStore::save(ConnectionProfile p, const QString &password, bool clearPassword)
{
    SecretEdits edits;
    edits.password = {password, clearPassword};
    return saveWithSecrets(std::move(p), edits);
}

QString ProfileStore::saveWithSecrets(ConnectionProfile p, const SecretEdits &edits)
{
    if (p.id.isEmpty()) {
        p.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    }
    const QString id = p.id;
    const auto old = profile(id);
    // Whether each secret exists after this save.
    const auto has = [](const SecretEdit &e, bool before) {
        return e.forget ? false : !e.typed.isEmpty() ? true : before;
    };
    p.hasPassword = has(edits.password, old && old->hasPassword);
    p.hasSshPassword = has(edits.sshPassword, old && old->hasSshPassword);
    p.hasSshPassphrase = has(edits.sshPassphrase, old && old->hasSshPassphrase);
    {
        using T = ConnectionProfile::Transport;
        QSettings settings;
        settings.beginGroup(profilesGroup + QLatin1Char('/') + id);
        settings.setValue(QStringLiteral("name"), p.name);
        settings.setValue(QStringLiteral("transport"),
                          p.transport == T::Tls        ? QStringLiteral("tls")
                          : p.transport == T::Unix     ? QStringLiteral("unix")
                          : p.transport == T::Sentinel ? QStringLiteral("sentinel")
                                                       : QStringLiteral("tcp"));
        settings.setValue(QStringLiteral("host"), p.host);
        settings.setValue(QStringLiteral("port"), p.port);
        settings.setValue(QStringLiteral("socket"), p.socketPath);
        settings.setValue(QStringLiteral("db"), p.db);
        settings.setValue(QStringLiteral("user"), p.user);
        settings.setValue(QStringLiteral("hasPassword"), p.hasPassword);
        settings.setValue(QStringLiteral("readOnly"), p.readOnly);
        settings.setValue(QStringLiteral("scanBudget"), p.scanBudget);
        settings.setValue(QStringLiteral("keysRescanSeconds"), p.keysRescanSeconds);
        // Paths and names only: the secrets go to the keyring below.
        settings.setValue(QStringLiteral("tls/ca"), p.tlsCaFile);
        settings.setValue(QStringLiteral("tls/cert"), p.tlsCertFile);
        settings.setValue(QStringLiteral("tls/key"), p.tlsKeyFile);
        settings.setValue(QStringLiteral("tls/serverName"), p.tlsServerName);
        settings.setValue(QStringLiteral("tls/insecure"), p.tlsInsecure);
        settings.setValue(QStringLiteral("sentinel/sentinels"), p.sentinels);
        settings.setValue(QStringLiteral("sentinel/master"), p.masterName);
        settings.setValue(QStringLiteral("ssh/enabled"), p.sshEnabled);
        settings.setValue(QStringLiteral("ssh/user"), p.sshUser);
        settings.setValue(QStringLiteral("ssh/host"), p.sshHost);
        settings.setValue(QStringLiteral("ssh/port"), p.sshPort);
        settings.setValue(QStringLiteral("ssh/key"), p.sshKeyFile);
        settings.setValue(QStringLiteral("ssh/knownHosts"), p.sshKnownHostsFile);
        settings.setValue(QStringLiteral("ssh/acceptNew"), p.sshAcceptNew);
        settings.setValue(QStringLiteral("ssh/hasPassword"), p.hasSshPassword);
        settings.setValue(QStringLiteral("ssh/hasPassphrase"), p.hasSshPassphrase);
        const std::pair<Secret, bool> secrets[] = {{Secret::Password, p.hasPassword},
                                                   {Secret::SshPassword, p.hasSshPassword},
                                                   {Secret::SshPassphrase, p.hasSshPassphrase}};
        for (const auto &[secret, present] : secrets) {
            if (!present) {
                settings.setValue(placeKey(secret), placeName(PasswordPlace::None));
            }
        }
    }
    storeSecret(id, Secret::Password, edits.password);
    storeSecret(id, Secret::SshPassword, edits.sshPassword);
    storeSecret(id, Secret::SshPassphrase, edits.sshPassphrase);
    Q_EMIT profilesChanged();
    return id;
}

void ProfileStore::forgetSecret(const QString &id, Secret secret)
{
    m_session.remove(sessionKey(id, secret));
    if (m_keyringEnabled) {
        auto *job = new QKeychain::DeletePasswordJob(keyringService(), this);
        job->setKey(keyringKey(id, secret));
        job->start();
    }
}

void ProfileStore::stored(const QString &id, Secret secret, bool inKeyring, const QString &why)
{
    if (secret == Secret::Password) {
        Q_EMIT passwordStored(id, inKeyring, why);
    } else {
        Q_EMIT secretStored(id, int(secret), inKeyring, why);
    }
}

void ProfileStore::storeSecret(const QString &id, Secret secret, const SecretEdit &edit)
{
    if (edit.forget) {
        forgetSecret(id, secret);
        return;
    }
    if (edit.typed.isEmpty()) {
        return;
    }
    m_session.insert(sessionKey(id, secret), edit.typed);
    setPlace(id, secret, PasswordPlace::Session);
    if (m_keyringEnabled) {
        auto *job = new QKeychain::WritePasswordJob(keyringService(), this);
        job->setInsecureFallback(false); // never a plain-text copy
        job->setKey(keyringKey(id, secret));
        job->setTextData(edit.typed);
        connect(job, &QKeychain::Job::finished, this, [this, id, secret](QKeychain::Job *j) {
            if (j->error() == QKeychain::NoError) {
                setPlace(id, secret, PasswordPlace::Keyring);
                stored(id, secret, true, {});
            } else {
                stored(id, secret, false,
                       tr("no system keyring answered (%1)").arg(j->errorString()));
            }
        });
        job->start();
    } else {
        QTimer::singleShot(0, this, [this, id, secret] {
            stored(id, secret, false, tr("the system keyring is not in use"));
        });
    }
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
    for (Secret secret : {Secret::Password, Secret::SshPassword, Secret::SshPassphrase}) {
        forgetSecret(id, secret);
    }
    Q_EMIT profilesChanged();
}

void ProfileStore::lookupSecret(const QString &id, Secret secret, QObject *context,
                                std::function<void(Lookup)> done)
{
    const auto later = [context, done](Lookup l) {
        QTimer::singleShot(0, context, [done, l] { done(l); });
    };
    if (auto it = m_session.constFind(sessionKey(id, secret)); it != m_session.constEnd()) {
        later({*it, {}});
        return;
    }
    const PasswordPlace place = secretPlace(id, secret);
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
    job->setKey(keyringKey(id, secret));
    connect(job, &QKeychain::Job::finished, context, [this, id, secret, done](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError) {
            const QString pw = static_cast<QKeychain::ReadPasswordJob *>(j)->textData();
            m_session.insert(sessionKey(id, secret), pw);
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

void ProfileStore::lookupSecrets(const ConnectionProfile &profile, const ProfileSecrets &typed,
                                 QObject *context, std::function<void(SecretsLookup)> done)
{
    QList<Secret> steps;
    const bool ssh = profile.sshEnabled && !profile.sshHost.isEmpty();
    if (profile.hasPassword) {
        steps << Secret::Password;
    }
    if (ssh && profile.hasSshPassword) {
        steps << Secret::SshPassword;
    }
    if (ssh && profile.hasSshPassphrase) {
        steps << Secret::SshPassphrase;
    }
    lookupRest(profile.id, typed, steps, context, std::move(done));
}

void ProfileStore::lookupRest(const QString &id, ProfileSecrets have, QList<Secret> rest,
                              QObject *context, std::function<void(SecretsLookup)> done)
{
    while (!rest.isEmpty() && !secretOf(have, rest.first()).isEmpty()) {
        rest.removeFirst(); // typed: no lookup
    }
    if (rest.isEmpty()) {
        QTimer::singleShot(0, context, [done, have] { done({have, {}, {}}); });
        return;
    }
    const Secret secret = rest.takeFirst();
    if (id.isEmpty()) {
        QTimer::singleShot(0, context, [done, secret] {
            done({std::nullopt, secret, tr("it was never saved")});
        });
        return;
    }
    QPointer<QObject> guard(context);
    lookupSecret(id, secret, context, [this, id, have, rest, secret, guard, done](Lookup l) {
        if (!l.password) {
            done({std::nullopt, secret, l.why});
            return;
        }
        ProfileSecrets more = have;
        secretOf(more, secret) = *l.password;
        if (guard) {
            lookupRest(id, more, rest, guard, done);
        }
    });
}

QString &ProfileStore::secretOf(ProfileSecrets &secrets, Secret secret)
{
    switch (secret) {
    case Secret::SshPassword:
        return secrets.sshPassword;
    case Secret::SshPassphrase:
        return secrets.sshPassphrase;
    default:
        return secrets.password;
    }
}

void ProfileStore::rememberForSession(const QString &id, Secret secret, const QString &value)
{
    m_session.insert(sessionKey(id, secret), value);
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

QString ProfileStore::keyringKey(const QString &id, Secret secret)
{
    // The Redis password keeps the entry it always had.
    switch (secret) {
    case Secret::SshPassword:
        return QStringLiteral("connection/") + id + QStringLiteral("/ssh-password");
    case Secret::SshPassphrase:
        return QStringLiteral("connection/") + id + QStringLiteral("/ssh-passphrase");
    default:
        return QStringLiteral("connection/") + id;
    }
}

QString ProfileStore::sessionKey(const QString &id, Secret secret)
{
    return id + QLatin1Char('\n') + QString::number(int(secret));
}

} // namespace sluice::ui
