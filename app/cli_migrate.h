// `gradstep migrate TORCH_SCRIPT MS_SCRIPT`: a PyTorch script and its MindSpore port run from the
// same weights and batch and compared layer by layer (core/migrate). SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::app {

/// argv holds the arguments after "migrate". Returns the exit status: 0 compared (equal or not),
/// 1 a script could not run at all (or PyTorch is missing, or the report could not be written),
/// 2 bad usage.
int migrateCommand(int argc, char** argv);

} // namespace gradstep::app
