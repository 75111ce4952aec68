#pragma once

#include "connection.h"

#include "core/common/result.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace sluice {

// Lua scripts by name, with their SHA1. EVALSHA them on a Connection: SCRIPT LOAD once per
// connection before the first use, and on NOSCRIPT (the cache was flushed, the server
// restarted) load again and retry once.
class ScriptRegistry
{
public:
    struct Script
    {
        QString name;
        QByteArray body;
        QByteArray sha; // lowercase hex SHA1 of body, as SCRIPT LOAD returns it
    };

    // Every script `<name>.lua` directly in the folder `dir` (a resource path such as ":/lua",
    // or a directory), registered by its file name without ".lua". The registry knows scripts,
    // not what they do: which script serves which algorithm is RedisLimiter's business.
    static ScriptRegistry fromResources(const QString &dir);
    // fromResources(":/lua"): the scripts of lua/ embedded in the binary, loaded once.
    static const ScriptRegistry &builtin();

    QStringList names() const; // sorted

    void add(const QString &name, const QByteArray &body);
    const Script *find(const QString &name) const;

    // SCRIPT LOAD if this connection has not loaded it yet.
    static Result<void> ensureLoaded(Connection &c, const Script &script);
    // EVALSHA script numkeys keys... args..., loading it first and reloading on NOSCRIPT.
    // `bound`: what the script's reply may be (ReplyBound).
    static Result<Reply> eval(Connection &c, const Script &script, const QList<QByteArray> &keys,
                              const QList<QByteArray> &args, const ReplyBound &bound = {});

    // The same for a script that only reads: EVALSHA_RO (Connection::readOnlyEvalsha), and
    // EVALSHA once the server says it does not know EVALSHA_RO (Redis < 7).
    static Result<Reply> evalReadOnly(Connection &c, const Script &script,
                                      const QList<QByteArray> &keys, const QList<QByteArray> &args,
                                      const ReplyBound &bound = {});
    // Whether `e` is a server's "unknown command" for EVALSHA_RO (and so Redis < 7).
    static bool isUnknownEvalshaRo(const Error &e);

    // A refusal by the user's ACL of a command inside `script` (Redis says only "The user
    // executing the script can't run this command ..."): an Auth error naming the commands the
    // script calls and what to grant. Other errors are returned unchanged.
    static Error explainScriptAcl(const Error &e, const Script &script);

private:
    static Result<Reply> evalWith(Connection &c, const QByteArray &verb, const Script &script,
                                  const QList<QByteArray> &keys, const QList<QByteArray> &args,
                                  const ReplyBound &bound);
    QHash<QString, Script> m_scripts;
};

} // namespace sluice
