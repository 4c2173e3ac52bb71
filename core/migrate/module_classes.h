// PyTorch's module classes and the MindSpore Cell classes that stand for them.
// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace gradstep::migrate {

/// True when a MindSpore Cell of class `ms` is the port of a PyTorch module of class `torch`:
/// the same name (Conv2d, ReLU, BatchNorm2d, ...) or a known pair (Linear and Dense, Sequential
/// and SequentialCell, ConvTranspose2d and Conv2dTranspose, ModuleList and CellList).
bool correspondingClasses(const std::string& torch, const std::string& ms);

/// BatchNorm1d/2d/3d, LayerNorm, GroupNorm, InstanceNorm*: parameters named gamma/beta in MindSpore.
bool isNormClass(const std::string& torchClass);

} // namespace gradstep::migrate
