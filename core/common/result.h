#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace sluice {

// The one error value type of core (ARCHITECTURE.md "Errors"). Core never throws across a
// boundary: every fallible call returns a Result<T> whose error says what went wrong, where,
// and, when there is one, what the user can do about it.
struct Error
{
    enum class Kind {
        Io,       // socket could not be read or written (connection refused, reset, ...)
        Timeout,  // connect or command did not answer in time
        Closed,   // the server closed the connection
        Protocol, // the server sent bytes that are not RESP
        Reply,    // the server answered with an error reply (other than the cases below)
        NoScript, // NOSCRIPT: the script cache was flushed
        Auth,     // AUTH failed or is required (WRONGPASS, NOAUTH, NOPERM)
        Invalid,  // bad input from the user (URL, policy parameters, file contents)
        Conflict, // the data moved on since it was read (a RuleStore push over a newer version)
        Internal, // a bug: an invariant of ours did not hold
    };

    Kind kind = Kind::Internal;
    QString message;

    static Error make(Kind kind, QString message) { return Error{kind, std::move(message)}; }
    // A short lowercase name of the kind, stable for --json output ("io", "timeout", ...).
    static QString kindName(Kind kind);
    bool isConnectionLoss() const
    {
        return kind == Kind::Io || kind == Kind::Timeout || kind == Kind::Closed ||
               kind == Kind::Protocol;
    }
};

template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_v(std::in_place_index<0>, std::move(value))
    {}
    Result(Error error)
        : m_v(std::in_place_index<1>, std::move(error))
    {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_v); }
    const T &value() const & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    const Error &error() const { return std::get<1>(m_v); }

    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

private:
    std::variant<T, Error> m_v;
};

// Result<void>: success carries nothing.
template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
    {}
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace sluice
