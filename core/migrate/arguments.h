// Constructor arguments as the captures hold them, read and written the way Python writes them,
// so an explanation quotes both sides as the user wrote them ("padding=0", "pad_mode='same'").
// SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"

#include <optional>
#include <string>

namespace gradstep::migrate {

/// A value as Python prints it: 'same', True, None, 0.01, (2, 2); a tuple whose items are all
/// equal prints as that item (PyTorch keeps padding=0 as (0, 0)).
std::string pythonText(const Json& value);

/// An argument of a PyTorch module, optimizer or loss ("args": {name: value}); null when absent.
const Json* torchArgument(const Json* entry, const std::string& name);

/// An argument of a MindSpore Cell, optimizer or loss: the given value (as Python text) or the
/// constructor's default; isDefault says which. nullopt when neither is known.
struct MsArgument {
    std::string text;
    bool isDefault = false;
};
std::optional<MsArgument> msArgument(const Json* entry, const std::string& name);

/// The argument's number: a JSON number or Python text such as "0.9"; nullopt otherwise.
std::optional<double> numberOf(const std::string& pythonText);

} // namespace gradstep::migrate
