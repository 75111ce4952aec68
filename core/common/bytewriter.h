#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace sluice::bytes {

// Appends to a QByteArray through a raw cursor, for the replies built from many small pieces
// on every request (the check service's answers). QByteArray::append of a few bytes goes
// through its general insert(), and QByteArray::number allocates: under a deny flood the two
// were about a fifth of the service's time (perf). The writer grows the array in doublings and
// sets its true size when it is destroyed (or on finish()); use `out` only after that.
class ByteWriter
{
public:
    explicit ByteWriter(QByteArray &out, qsizetype expected = 256)
        : m_out(out)
        , m_pos(out.size())
    {
        grow(expected);
    }
    ~ByteWriter() { finish(); }
    ByteWriter(const ByteWriter &) = delete;
    ByteWriter &operator=(const ByteWriter &) = delete;

    ByteWriter &put(char c)
    {
        need(1);
        m_data[m_pos++] = c;
        return *this;
    }
    ByteWriter &put(QByteArrayView v)
    {
        need(v.size());
        if (v.size() > 0) {
            std::memcpy(m_data + m_pos, v.data(), size_t(v.size()));
        }
        m_pos += v.size();
        return *this;
    }
    // A string literal, its length known at compile time.
    template <qsizetype N> ByteWriter &put(const char (&literal)[N])
    {
        return put(QByteArrayView(literal, N - 1));
    }
    ByteWriter &number(qint64 v)
    {
        need(20); // "-9223372036854775808"
        m_pos = std::to_chars(m_data + m_pos, m_data + m_pos + 20, v).ptr - m_data;
        return *this;
    }
    qsizetype size() const { return m_pos; } // of the whole array, what was there included
    void finish() { m_out.resize(m_pos); }

private:
    void need(qsizetype n)
    {
        if (m_pos + n > m_out.size()) {
            grow(n);
        }
    }
    void grow(qsizetype n)
    {
        m_out.resize(std::max(m_out.size() * 2, m_pos + n));
        m_data = m_out.data();
    }

    QByteArray &m_out;
    qsizetype m_pos;
    char *m_data = nullptr;
};

} // namespace sluice::bytes
