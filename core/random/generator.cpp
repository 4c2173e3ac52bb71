// The seeded random generator. SPDX-License-Identifier: MIT
#include "random/generator.h"

#include "random/init_seeds.h"

#include <cmath>
#include <numbers>

namespace gradstep {

double Generator::uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }

double Generator::normal()
{
    if (m_spare) {
        m_spare = false;
        return m_spareValue;
    }
    double u1 = uniform();
    while (u1 <= 0.0)
        u1 = uniform();
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double angle = 2.0 * std::numbers::pi * u2;
    m_spare = true;
    m_spareValue = radius * std::sin(angle);
    return radius * std::cos(angle);
}

Generator& globalGenerator()
{
    thread_local Generator generator(0);
    return generator;
}

void setSeed(std::uint64_t seed)
{
    globalGenerator().seed(seed);
    // np.random.seed takes 32 bits; MindSpore's set_seed refuses more (NumPy's ValueError).
    seedThreadInitSeeds(static_cast<std::uint32_t>(seed));
}

} // namespace gradstep
