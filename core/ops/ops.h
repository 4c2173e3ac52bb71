// Every functional op. SPDX-License-Identifier: MIT
#pragma once

#include "ops/autodiff_ops.h"
#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"
