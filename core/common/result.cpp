#include "result.h"

#include "names.h"

namespace sluice {

QString Error::kindName(Kind kind)
{
    static constexpr Named<Kind> names[] = {{Kind::Io, u"io"},
                                            {Kind::Timeout, u"timeout"},
                                            {Kind::Closed, u"closed"},
                                            {Kind::Protocol, u"protocol"},
                                            {Kind::Reply, u"reply"},
                                            {Kind::NoScript, u"noscript"},
                                            {Kind::Auth, u"auth"},
                                            {Kind::Invalid, u"invalid"},
                                            {Kind::Conflict, u"conflict"},
                                            {Kind::Internal, u"internal"}};
    return nameIn(names, kind, u"internal");
}

} // namespace sluice
