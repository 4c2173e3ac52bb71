// mindspore.communication's C++ half: the ranks of the run over core/dist and the gradient
// reduction of DistributedGradReducer / TrainOneStepCell. MindSpore's names, defaults and checks
// live in package/mindspore/communication/management.py, which calls these.
// SPDX-License-Identifier: MIT
#include "python/bind/bind_communication.h"

#include "python/bind/convert.h"

#include "dist/communicator.h"
#include "nn/wrappers/grad_reducer.h"

#include <pybind11/stl.h>

#include <cstdio>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// Starts the communication service; returns the world's size. Without a launcher the world has
/// one rank, said once on stderr so a user who meant to start N ranks sees why there is one.
int initWorld()
{
    const bool first = !dist::isInitialized();
    dist::initialize();
    if (first && !dist::usesMpi()) {
        static bool said = false;
        if (!said)
            std::fputs("[gradstep] mindspore.communication.init(): no launcher (mpirun) started this process, "
                       "so the world has one rank (rank 0 of 1); run `gradstep run --ranks N SCRIPT` or "
                       "`mpirun -n N gradstep run SCRIPT` for N ranks\n", stderr);
        said = true;
    }
    return dist::size("hccl_world_group");
}

py::tuple reduceGradientsTuple(const py::iterable& gradients, bool mean, std::int64_t degree, const std::string& group)
{
    TensorList tensors;
    for (py::handle g : gradients) {
        const Tensor* t = asTensor(g);
        if (!t)
            throw py::type_error("For 'DistributedGradReducer', the gradients must be Tensors, but got '"
                                 + std::string(py::str(py::type::handle_of(g).attr("__name__"))) + "'.");
        tensors.push_back(*t);
    }
    const TensorList reduced = reduceGradients(tensors, GradientReduction{mean, degree, group});
    py::tuple out(reduced.size());
    for (std::size_t i = 0; i < reduced.size(); ++i)
        out[i] = py::cast(reduced[i]);
    return out;
}

} // namespace

void bindCommunication(py::module_& communication)
{
    communication.def("_init", &initWorld, "gradstep: start the communication service; the world's size");
    communication.def("_is_initialized", &dist::isInitialized);
    communication.def("_uses_mpi", &dist::usesMpi);
    communication.def("_launched", [] { return dist::launchEnvironment().launched; });
    communication.def("_rank", &dist::rank, py::arg("group"));
    communication.def("_size", &dist::size, py::arg("group"));
    communication.def("_local_rank", &dist::localRank);
    communication.def("_local_size", &dist::localSize);
    communication.def("_world_rank_of", &dist::worldRankOf, py::arg("group"), py::arg("group_rank_id"));
    communication.def("_group_rank_of", &dist::groupRankOf, py::arg("group"), py::arg("world_rank_id"));
    communication.def("_create_group", &dist::createGroup, py::arg("group"), py::arg("rank_ids"));
    communication.def("_destroy_group", &dist::destroyGroup, py::arg("group"));
    communication.def("_release", &dist::release);
    communication.def("_reduce_gradients", &reduceGradientsTuple, py::arg("gradients"), py::arg("mean"),
                      py::arg("degree"), py::arg("group"),
                      "gradstep: every gradient all-reduced (sum), divided by degree when mean");
}

} // namespace gradstep::python
