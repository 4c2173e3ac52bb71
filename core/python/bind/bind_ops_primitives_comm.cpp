// The communication primitive classes of mindspore.ops: AllReduce(op=ReduceOp.SUM, group),
// AllGather(group), ReduceScatter(op, group), Broadcast(root_rank, group) and
// AlltoAll(split_count, split_dim, concat_dim, group), over the core's collective ops (so each
// call is a node the debugger records). The group defaults to the world ("hccl_world_group",
// MindSpore's GlobalComm.WORLD_COMM_GROUP). SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"
#include "python/bind/ops_primitive.h"

#include "ops/collective_ops.h"

namespace py = pybind11;

namespace gradstep::python::ops {

namespace {

std::string text(const Primitive& p, const char* key) { return p.value(key).cast<std::string>(); }

py::object allReduceCall(const Primitive& p, const py::args& a)
{
    return py::cast(allReduce(tensorArg(a[0], "AllReduce", "input_x"), text(p, "op"), text(p, "group")));
}

py::object allGatherCall(const Primitive& p, const py::args& a)
{
    return py::cast(allGather(tensorArg(a[0], "AllGather", "input_x"), text(p, "group")));
}

py::object reduceScatterCall(const Primitive& p, const py::args& a)
{
    return py::cast(reduceScatter(tensorArg(a[0], "ReduceScatter", "input_x"), text(p, "op"), text(p, "group")));
}

/// Broadcast takes and returns a tuple of tensors, as MindSpore's.
py::object broadcastCall(const Primitive& p, const py::args& a)
{
    if (!PyTuple_Check(a[0].ptr()))
        throw py::type_error("For 'Broadcast', the 'input_x' must be a tuple of Tensors, but got '"
                             + std::string(py::str(py::type::handle_of(a[0]).attr("__name__"))) + "'.");
    const TensorList xs = tensorsArg(a[0], "Broadcast", "input_x");
    py::tuple out(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i)
        out[i] = py::cast(broadcast(xs[i], p.integer("root_rank"), text(p, "group")));
    return out;
}

py::object allToAllCall(const Primitive& p, const py::args& a)
{
    return py::cast(allToAll(tensorArg(a[0], "AlltoAll", "input_x"), p.integer("split_count"), p.integer("split_dim"),
                             p.integer("concat_dim"), text(p, "group")));
}

} // namespace

std::vector<PrimSpec> commPrimitives()
{
    const AttrSpec group{"group", Kind::Str, "hccl_world_group"};
    const AttrSpec op{"op", Kind::Str, "sum"};
    return {
        {"AllReduce", {op, group}, 1, 1, &allReduceCall},
        {"AllGather", {group}, 1, 1, &allGatherCall},
        {"ReduceScatter", {op, group}, 1, 1, &reduceScatterCall},
        {"Broadcast", {{"root_rank", Kind::Int, Required{}}, group}, 1, 1, &broadcastCall},
        {"AlltoAll", {{"split_count", Kind::Int, Required{}}, {"split_dim", Kind::Int, Required{}},
                      {"concat_dim", Kind::Int, Required{}}, group}, 1, 1, &allToAllCall},
    };
}

} // namespace gradstep::python::ops
