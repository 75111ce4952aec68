#include "profiledraft.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// A file that is named must be there: the words of core's checks (--tls-ca FILE: ...).
QString fileProblem(const QString &path)
{
    const QFileInfo fi(path);
    if (!fi.exists()) {
        return ProfileDraft::tr("%1: no such file").arg(path);
    }
    if (!fi.isFile() || !fi.isReadable()) {
        return ProfileDraft::tr("%1: not a readable file").arg(path);
    }
    return {};
}

} // namespace

QStringList ProfileDraft::fieldKeys()
{
    return {u"name"_s,    u"host"_s,    u"socket"_s,  u"sentinels"_s,    u"master"_s,
            u"user"_s,    u"tlsCa"_s,   u"tlsCert"_s, u"tlsKey"_s,       u"tlsServerName"_s,
            u"sshUser"_s, u"sshHost"_s, u"sshKey"_s,  u"sshKnownHosts"_s};
}

QStringList ProfileDraft::secretKeys()
{
    return {u"password"_s, u"sshPassword"_s, u"sshPassphrase"_s};
}

void ProfileDraft::reset(const std::optional<ConnectionProfile> &saved)
{
    m_saved = saved;
    m_profile = saved.value_or(ConnectionProfile{});
    m_forgetPassword = false;
    m_readOnlyChosen = saved.has_value();
    const ConnectionProfile &p = m_profile;
    m_text = {
        {u"name"_s, p.name},         {u"host"_s, p.host},
        {u"socket"_s, p.socketPath}, {u"sentinels"_s, p.sentinels.join(u", "_s)},
        {u"master"_s, p.masterName}, {u"user"_s, p.user},
        {u"tlsCa"_s, p.tlsCaFile},   {u"tlsCert"_s, p.tlsCertFile},
        {u"tlsKey"_s, p.tlsKeyFile}, {u"tlsServerName"_s, p.tlsServerName},
        {u"sshUser"_s, p.sshUser},   {u"sshHost"_s, p.sshHost},
        {u"sshKey"_s, p.sshKeyFile}, {u"sshKnownHosts"_s, p.sshKnownHostsFile},
    };
}

void ProfileDraft::setText(const QString &key, const QString &text)
{
    m_text.insert(key, text);
    if (key == u"password"_s && !text.isEmpty()) {
        m_forgetPassword = false;
    }
}

void ProfileDraft::setReadOnly(bool on)
{
    m_profile.readOnly = on;
    m_readOnlyChosen = true;
}

bool ProfileDraft::readOnly() const
{
    return profile().readOnly;
}

void ProfileDraft::forgetPassword()
{
    m_forgetPassword = true;
    m_text.remove(u"password"_s);
}

ConnectionProfile ProfileDraft::profile() const
{
    ConnectionProfile p = m_profile;
    const auto t = [this](QStringView key) { return m_text.value(key.toString()).trimmed(); };
    p.id = m_saved ? m_saved->id : QString();
    p.name = t(u"name");
    p.host = t(u"host");
    p.socketPath = t(u"socket");
    p.sentinels.clear();
    const QStringList sentinels = t(u"sentinels").split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &one : sentinels) {
        if (!one.trimmed().isEmpty()) {
            p.sentinels << one.trimmed();
        }
    }
    p.masterName = t(u"master");
    p.user = t(u"user");
    p.tlsCaFile = t(u"tlsCa");
    p.tlsCertFile = t(u"tlsCert");
    p.tlsKeyFile = t(u"tlsKey");
    p.tlsServerName = t(u"tlsServerName");
    p.sshUser = t(u"sshUser");
    p.sshHost = t(u"sshHost");
    p.sshKeyFile = t(u"sshKey");
    p.sshKnownHostsFile = t(u"sshKnownHosts");
    if (!m_readOnlyChosen) {
        p.readOnly = !p.endpoint().isLocal();
    }
    const ProfileSecrets s = secrets();
    p.hasPassword = !s.password.isEmpty() || passwordStored();
    p.hasSshPassword = !s.sshPassword.isEmpty() || (m_saved && m_saved->hasSshPassword);
    p.hasSshPassphrase = !s.sshPassphrase.isEmpty() || (m_saved && m_saved->hasSshPassphrase);
    return p;
}

ProfileSecrets ProfileDraft::secrets() const
{
    ProfileSecrets s;
    s.password = m_text.value(u"password"_s);
    s.sshPassword = m_text.value(u"sshPassword"_s);
    s.sshPassphrase = m_text.value(u"sshPassphrase"_s);
    return s;
}

ProfileStore::SecretEdits ProfileDraft::secretEdits() const
{
    const ProfileSecrets s = secrets();
    ProfileStore::SecretEdits edits;
    edits.password = {s.password, m_forgetPassword};
    edits.sshPassword.typed = s.sshPassword;
    edits.sshPassphrase.typed = s.sshPassphrase;
    return edits;
}

bool ProfileDraft::needsHost() const
{
    return m_profile.transport == Transport::Tcp || m_profile.transport == Transport::Tls;
}

QHash<QString, QString> ProfileDraft::problems() const
{
    QHash<QString, QString> out;
    const ConnectionProfile p = profile();
    switch (p.transport) {
    case Transport::Unix:
        if (p.socketPath.isEmpty()) {
            out.insert(u"socket"_s, tr("Socket path: enter the path of redis-server's Unix "
                                       "socket, such as /run/redis/redis-server.sock."));
        } else if (!p.socketPath.startsWith(QLatin1Char('/'))) {
            out.insert(u"socket"_s, tr("Socket path: the socket path must be absolute "
                                       "(/path/redis.sock)."));
        }
        break;
    case Transport::Sentinel:
        if (p.sentinels.isEmpty()) {
            out.insert(u"sentinels"_s, tr("Sentinels: enter at least one sentinel as host:port."));
        }
        for (const QString &one : p.sentinels) {
            HostPort hp;
            QString why;
            if (!ConnectionProfile::parseSentinel(one, &hp, &why)) {
                out.insert(u"sentinels"_s,
                           tr("Sentinels: '%1' is not host:port: %2.").arg(one, why));
                break;
            }
        }
        if (p.masterName.isEmpty()) {
            out.insert(u"master"_s, tr("Master name: the master name is missing (the name in "
                                       "the sentinels' 'sentinel monitor NAME ...')."));
        }
        break;
    case Transport::Tls:
        if (!p.tlsCaFile.isEmpty()) {
            if (const QString why = fileProblem(p.tlsCaFile); !why.isEmpty()) {
                out.insert(u"tlsCa"_s, tr("CA file %1.").arg(why));
            }
        }
        if (p.tlsCertFile.isEmpty() != p.tlsKeyFile.isEmpty()) {
            if (p.tlsKeyFile.isEmpty()) {
                out.insert(u"tlsKey"_s, tr("Client key: missing. The client certificate and the "
                                           "client key go together: give both."));
            } else {
                out.insert(u"tlsCert"_s, tr("Client certificate: missing. The client certificate "
                                            "and the client key go together: give both."));
            }
        } else if (!p.tlsCertFile.isEmpty()) {
            if (const QString why = fileProblem(p.tlsCertFile); !why.isEmpty()) {
                out.insert(u"tlsCert"_s, tr("Client certificate %1.").arg(why));
            }
            if (const QString why = fileProblem(p.tlsKeyFile); !why.isEmpty()) {
                out.insert(u"tlsKey"_s, tr("Client key %1.").arg(why));
            }
        }
        break;
    case Transport::Tcp:
        break;
    }
    if (p.sshEnabled) {
        if (p.sshHost.isEmpty()) {
            out.insert(u"sshHost"_s, tr("SSH login: enter the bastion host to log in to, or "
                                        "turn the SSH tunnel off."));
        }
        if (!p.sshKeyFile.isEmpty()) {
            if (const QString why = fileProblem(p.sshKeyFile); !why.isEmpty()) {
                out.insert(u"sshKey"_s, tr("SSH key file %1.").arg(why));
            }
        }
    }
    return out;
}

ProfileDraft::Problem ProfileDraft::firstProblem() const
{
    const QHash<QString, QString> all = problems();
    // The order of the form.
    for (const QString &key : fieldKeys()) {
        if (all.contains(key)) {
            return {key, all.value(key)};
        }
    }
    return {};
}

ProfileDraft::Refusal ProfileDraft::testRefusal() const
{
    if (needsHost() && profile().host.isEmpty()) {
        return {{u"host"_s, tr("A host name or an IP address.")}, tr("Enter a host to test.")};
    }
    if (const Problem first = firstProblem(); !first.isEmpty()) {
        return {first, tr("The profile cannot be tested yet.")};
    }
    return {};
}

ProfileDraft::Refusal ProfileDraft::saveRefusal(const QList<ConnectionProfile> &others) const
{
    const ConnectionProfile p = profile();
    if (p.name.isEmpty()) {
        return {{u"name"_s, tr("Any name you will recognise, such as 'production' or 'staging "
                               "cache'.")},
                tr("The profile needs a name.")};
    }
    if (needsHost() && p.host.isEmpty()) {
        return {{u"host"_s, tr("A host name or an IP address, such as 127.0.0.1.")},
                tr("The profile needs a host.")};
    }
    if (const Problem first = firstProblem(); !first.isEmpty()) {
        return {first, tr("The profile cannot be saved yet.")};
    }
    for (const ConnectionProfile &o : others) {
        if (o.id != p.id && o.name.compare(p.name, Qt::CaseInsensitive) == 0) {
            return {{u"name"_s, tr("Choose another name, or select that profile to change it.")},
                    tr("A profile named '%1' exists already.").arg(o.name)};
        }
    }
    return {};
}

} // namespace sluice::ui
