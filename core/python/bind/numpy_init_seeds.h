// A script run's initializer seeds come from NumPy's global RandomState, as MindSpore 2.2's
// _numpy_seed() takes them, so np.random.seed / ms.set_seed and the script's own NumPy draws
// interleave with the initializers exactly as under MindSpore. SPDX-License-Identifier: MIT
#pragma once

#include "random/init_seeds.h"

namespace gradstep::python {

/// One np.random.randint(low=1, high=2**63, dtype=np.int64) per seed, looked up each time (a
/// script that replaces np.random.randint is heard, as by MindSpore). Call with the GIL held.
class NumpyInitSeeds : public InitSeedSource {
public:
    std::uint64_t nextSeed() override;
};

/// Puts NumPy's global RandomState where np.random.seed(0) does: a run never continues the
/// stream of the run before it, and a script that seeds nothing gets the same weights and data
/// every time (under python3 they would come from fresh entropy). GIL held.
void resetNumpyRandomState();

} // namespace gradstep::python
