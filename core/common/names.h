#pragma once

#include <QByteArray>
#include <QLatin1StringView>
#include <QString>
#include <QStringView>

#include <cstddef>
#include <optional>
#include <type_traits>

namespace sluice {

// An enum's names written once, as a table of rows, for both directions: the name a value is
// written as, and the value a name reads as. The names are literals (u"fixed_window" for a
// QString, "keep_used" as a QLatin1StringView for a QByteArray), so a table is constexpr and a
// name handed out refers to the literal without copying it, as QStringLiteral does.
template <typename E, typename Text = QStringView> struct Named
{
    E value;
    Text name;
};

namespace names {

inline QString literal(QStringView s)
{
    return QString::fromRawData(reinterpret_cast<const QChar *>(s.utf16()), s.size());
}

inline QByteArray literal(QLatin1StringView s)
{
    return QByteArray::fromRawData(s.data(), s.size());
}

} // namespace names

// The name of `value` in `table`; `otherwise` for a value no row has (one cast from a number
// out of the enum's range).
template <typename E, typename Text, std::size_t N>
auto nameIn(const Named<E, Text> (&table)[N], E value, std::type_identity_t<Text> otherwise = {})
{
    for (const Named<E, Text> &row : table) {
        if (row.value == value) {
            return names::literal(row.name);
        }
    }
    return names::literal(otherwise);
}

// The value that `name` stands for in `table` (the whole name, case and all), or nothing.
template <typename E, typename Text, std::size_t N>
std::optional<E> valueNamed(const Named<E, Text> (&table)[N], QStringView name)
{
    for (const Named<E, Text> &row : table) {
        if (row.name == name) {
            return row.value;
        }
    }
    return std::nullopt;
}

} // namespace sluice
