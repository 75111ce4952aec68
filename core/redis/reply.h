#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <vector>

namespace sluice {

// A Redis reply as a value, detached from hiredis (safe to keep, copy and send across threads).
// Error replies never become a Reply: they are mapped to an Error (see errors.h).
struct Reply
{
    enum class Type { Nil, Integer, String, Status, Array, Double };
    Type type = Type::Nil;
    qint64 integer = 0;          // Integer
    QByteArray str;              // String, Status, Double (as sent)
    std::vector<Reply> elements; // Array

    bool isNil() const { return type == Type::Nil; }
    bool isArray() const { return type == Type::Array; }
};

} // namespace sluice
