#include "scriptregistry.h"

#include "core/common/bytes.h"

#include <QRegularExpression>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

namespace sluice {

ScriptRegistry ScriptRegistry::fromResources(const QString &dir)
{
    ScriptRegistry r;
    const QDir d(dir);
    const QStringList files = d.entryList({QStringLiteral("*.lua")}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        QFile f(d.filePath(file));
        if (f.open(QIODevice::ReadOnly)) {
            r.add(file.chopped(4), f.readAll());
        }
    }
    return r;
}

const ScriptRegistry &ScriptRegistry::builtin()
{
    static const ScriptRegistry registry = fromResources(QStringLiteral(":/lua"));
    return registry;
}

QStringList ScriptRegistry::names() const
{
    QStringList out = m_scripts.keys();
    out.sort();
    return out;
}

void ScriptRegistry::add(const QString &name, const QByteArray &body)
{
    m_scripts.insert(
        name, Script{name, body, QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex()});
}

const ScriptRegistry::Script *ScriptRegistry::find(const QString &name) const
{
    auto it = m_scripts.constFind(name);
    return it == m_scripts.constEnd() ? nullptr : &it.value();
}

Result<void> ScriptRegistry::ensureLoaded(Connection &c, const Script &script)
{
    if (c.loadedScripts().contains(script.sha)) {
        return {};
    }
    auto r = c.command({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), script.body},
                       ReplyBound::sha());
    if (!r) {
        Error e = r.error();
        if (e.kind == Error::Kind::Reply) {
            e.message = QStringLiteral("Redis at %1 refused to load the script %2: %3")
                            .arg(c.endpoint().display(), script.name, e.message);
        }
        return e;
    }
    if (r->str != script.sha) {
        return Error::make(Error::Kind::Protocol,
                           QStringLiteral("Redis at %1 loaded %2 as %3, expected SHA1 %4")
                               .arg(c.endpoint().display(), script.name,
                                    r->isArray() ? QStringLiteral("an array")
                                    : r->isNil() ? QStringLiteral("nil")
                                                 : u'\'' + bytes::quoted(r->str) + u'\'',
                                    QString::fromLatin1(script.sha)));
    }
    c.loadedScripts().insert(script.sha);
    return {};
}

Result<Reply> ScriptRegistry::eval(Connection &c, const Script &script,
                                   const QList<QByteArray> &keys, const QList<QByteArray> &args,
                                   const ReplyBound &bound)
{
    return evalWith(c, QByteArrayLiteral("EVALSHA"), script, keys, args, bound);
}

Result<Reply> ScriptRegistry::evalReadOnly(Connection &c, const Script &script,
                                           const QList<QByteArray> &keys,
                                           const QList<QByteArray> &args, const ReplyBound &bound)
{
    auto r = evalWith(c, c.readOnlyEvalsha(), script, keys, args, bound);
    if (!r && isUnknownEvalshaRo(r.error())) {
        c.setNoEvalshaRo();
        return evalWith(c, c.readOnlyEvalsha(), script, keys, args, bound);
    }
    return r;
}

bool ScriptRegistry::isUnknownEvalshaRo(const Error &e)
{
    return e.kind == Error::Kind::Reply && e.message.startsWith(u"ERR unknown command") &&
           e.message.contains(u"evalsha_ro", Qt::CaseInsensitive);
}

Error ScriptRegistry::explainScriptAcl(const Error &e, const Script &script)
{
    if (!e.message.contains(u"The user executing the script can't")) {
        return e;
    }
    // The commands the script calls: call('NAME', ...) however redis.call is spelled.
    QStringList commands;
    static const QRegularExpression call(QStringLiteral("call\\(\\s*['\"]([A-Za-z|]+)['\"]"));
    for (auto it = call.globalMatch(QString::fromUtf8(script.body)); it.hasNext();) {
        const QString name = u'+' + it.next().captured(1).toLower();
        if (!commands.contains(name)) {
            commands << name;
        }
    }
    const bool keys = e.message.contains(u"access at least one of the keys");
    const QString what =
        keys ? QStringLiteral("a key the script %1 touches is outside this user's key "
                              "permissions; grant the keys (~<prefix>*, or %R~<prefix>* for "
                              "reads only)")
                   .arg(script.name)
             : QStringLiteral("the script %1 calls a command this user may not run; it calls "
                              "%2: grant them (ACL SETUSER <user> %2)")
                   .arg(script.name, commands.join(u' '));
    return Error::make(Error::Kind::Auth,
                       QStringLiteral("NOPERM %1 (Redis: %2)").arg(what, e.message));
}

Result<Reply> ScriptRegistry::evalWith(Connection &c, const QByteArray &verb, const Script &script,
                                       const QList<QByteArray> &keys, const QList<QByteArray> &args,
                                       const ReplyBound &bound)
{
    QList<QByteArray> argv;
    argv.reserve(3 + keys.size() + args.size());
    argv << verb << script.sha << QByteArray::number(keys.size());
    argv << keys << args;
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (auto loaded = ensureLoaded(c, script); !loaded) {
            return loaded.error();
        }
        auto r = c.command(argv, bound);
        if (!r) {
            r = explainScriptAcl(r.error(), script);
        }
        if (r || r.error().kind != Error::Kind::NoScript || attempt == 1) {
            return r;
        }
        c.loadedScripts().remove(script.sha); // flushed behind our back: load and retry once
    }
    return Error::make(Error::Kind::Internal, QStringLiteral("unreachable"));
}

} // namespace sluice
