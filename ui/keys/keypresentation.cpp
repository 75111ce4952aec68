#include "keypresentation.h"

#include "core/common/bytes.h"
#include "ui/common/tone.h"

#include <QCoreApplication>
#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace sluice::ui::keypresentation {

QString displayBytes(const QByteArray &bytes)
{
    return sluice::bytes::printable(bytes);
}

QString ttlText(qint64 ms)
{
    if (ms < 0) {
        return {};
    }
    if (ms < 10'000) {
        return QCoreApplication::translate("sluice::ui::KeysPage", "%1 s")
            .arg(QString::number(double(ms) / 1000.0, 'f', 1));
    }
    const qint64 s = (ms + 999) / 1000; // up: "1 s" until it is gone
    if (s < 120) {
        return QCoreApplication::translate("sluice::ui::KeysPage", "%1 s").arg(s);
    }
    if (s < 7200) {
        if (s % 60 == 0) {
            return QCoreApplication::translate("sluice::ui::KeysPage", "%1 min").arg(s / 60);
        }
        return QCoreApplication::translate("sluice::ui::KeysPage", "%1 min %2 s")
            .arg(s / 60)
            .arg(s % 60);
    }
    if (s < 2 * 86400) {
        return QCoreApplication::translate("sluice::ui::KeysPage", "%1 h %2 min")
            .arg(s / 3600)
            .arg((s % 3600) / 60);
    }
    return QCoreApplication::translate("sluice::ui::KeysPage", "%1 d %2 h")
        .arg(s / 86400)
        .arg((s % 86400) / 3600);
}

namespace {

// A verdict's flag: its words (flagText) and its severity (flagSeverity), one row a verdict.
struct Flag
{
    keys::Health health;
    const char *words;
    int severity;
};
constexpr Flag flags[] = {
    {keys::Health::Ok, QT_TRANSLATE_NOOP("sluice::ui::KeysPage", "ok"), 0},
    {keys::Health::NoTtl, QT_TRANSLATE_NOOP("sluice::ui::KeysPage", "never expires"), 3},
    {keys::Health::TtlExceedsRule, QT_TRANSLATE_NOOP("sluice::ui::KeysPage", "TTL too long"), 2},
    {keys::Health::Orphan, QT_TRANSLATE_NOOP("sluice::ui::KeysPage", "no rule"), 1},
    {keys::Health::WrongType, QT_TRANSLATE_NOOP("sluice::ui::KeysPage", "wrong type"), 4},
    {keys::Health::Unreadable, QT_TRANSLATE_NOOP("sluice::ui::KeysPage", "unreadable"), 1},
};

const Flag *flagOf(keys::Health health)
{
    for (const Flag &f : flags) {
        if (f.health == health) {
            return &f;
        }
    }
    return nullptr;
}

} // namespace

QString flagText(keys::Health health)
{
    const Flag *f = flagOf(health);
    return f ? QCoreApplication::translate("sluice::ui::KeysPage", f->words) : QString();
}

QString flagTitle(keys::Health health)
{
    QString t = flagText(health);
    if (!t.isEmpty()) {
        t[0] = t[0].toUpper();
    }
    return t;
}

QColor flagColor(keys::Health health)
{
    switch (health) {
    // Text colours on the table's background, light or dark (tone.h).
    case keys::Health::Ok:
        return tone::text(Tone::Good);
    case keys::Health::NoTtl:
        return tone::text(Tone::Bad);
    case keys::Health::TtlExceedsRule:
        return tone::text(Tone::Warning);
    case keys::Health::Orphan:
        return tone::muted();
    case keys::Health::WrongType:
        return tone::violet();
    case keys::Health::Unreadable:
        return tone::muted();
    }
    return {};
}

int flagSeverity(keys::Health health)
{
    const Flag *f = flagOf(health);
    return f ? f->severity : 0;
}

QIcon flagIcon(keys::Health health)
{
    static QHash<int, QIcon> cache;
    const int id = int(health);
    if (auto it = cache.constFind(id); it != cache.constEnd()) {
        return *it;
    }
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(size / 16.0, size / 16.0);
        const QColor c = flagColor(health);
        QPen white(Qt::white, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
        switch (health) {
        case keys::Health::NoTtl: {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawEllipse(QRectF(0.5, 0.5, 15, 15));
            // An infinity sign: two loops.
            p.setPen(QPen(Qt::white, 1.6));
            p.setBrush(Qt::NoBrush);
            p.drawEllipse(QRectF(2.6, 5.2, 5.4, 5.6));
            p.drawEllipse(QRectF(8.0, 5.2, 5.4, 5.6));
            break;
        }
        case keys::Health::TtlExceedsRule: {
            QPainterPath tri;
            tri.moveTo(8, 0.8);
            tri.lineTo(15.4, 14.6);
            tri.lineTo(0.6, 14.6);
            tri.closeSubpath();
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawPath(tri);
            p.setPen(white);
            p.drawLine(QPointF(8, 5.5), QPointF(8, 9.8));
            p.drawPoint(QPointF(8, 12.3));
            break;
        }
        case keys::Health::Orphan:
        case keys::Health::Unreadable: {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawEllipse(QRectF(0.5, 0.5, 15, 15));
            p.setPen(Qt::white);
            QFont f = p.font();
            f.setPixelSize(12);
            f.setBold(true);
            p.setFont(f);
            p.drawText(QRectF(0, 0, 16, 16), Qt::AlignCenter, QStringLiteral("?"));
            break;
        }
        case keys::Health::WrongType: {
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawRoundedRect(QRectF(0.5, 0.5, 15, 15), 3, 3);
            p.setPen(white);
            p.drawLine(QPointF(5, 5), QPointF(11, 11));
            p.drawLine(QPointF(11, 5), QPointF(5, 11));
            break;
        }
        case keys::Health::Ok: {
            p.setPen(QPen(c, 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            p.drawPolyline(QPolygonF({QPointF(3, 8.5), QPointF(6.5, 12), QPointF(13, 4.5)}));
            break;
        }
        }
        p.end();
        icon.addPixmap(pm);
    }
    cache.insert(id, icon);
    return icon;
}

} // namespace sluice::ui::keypresentation
