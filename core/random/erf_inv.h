// The inverse complementary error function as MindSpore's truncated normal computes it:
// Boost.Math's rational approximations for double (erf_inv.hpp, John Maddock, Boost Software
// License 1.0), evaluated in double with Boost's float-valued offsets.
// SPDX-License-Identifier: MIT
#pragma once

namespace gradstep {

/// erfc^-1(z) for z clamped into (0, 2) at the nearest float inside (so z = 0 and z = 2 give
/// large finite values, as in MindSpore).
double erfcInvClamped(double z);

} // namespace gradstep
