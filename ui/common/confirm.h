#pragma once

#include <QString>

#include <functional>

namespace sluice::ui {

// How a page asks "are you sure?" without a modal exec(): by default a page opens a message
// box with open(); a test (or an embedding) installs a hook that answers at once.
// The hook gets the question as shown to the user and returns true for yes.
using ConfirmHook = std::function<bool(const QString &question)>;

} // namespace sluice::ui
