// NumPy's global RandomState as the initializer seed source. SPDX-License-Identifier: MIT
#include "python/bind/numpy_init_seeds.h"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace gradstep::python {

std::uint64_t NumpyInitSeeds::nextSeed()
{
    py::module_ numpy = py::module_::import("numpy");
    py::object seed = numpy.attr("random").attr("randint")(
        py::arg("low") = 1, py::arg("high") = py::int_(std::uint64_t{1} << 63),
        py::arg("dtype") = numpy.attr("int64"));
    return py::int_(seed).cast<std::uint64_t>();
}

void resetNumpyRandomState() { py::module_::import("numpy").attr("random").attr("seed")(0); }

} // namespace gradstep::python
