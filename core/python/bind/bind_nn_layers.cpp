// mindspore.nn layers with MindSpore 2.x constructor signatures and defaults (SEMANTICS.md §7):
// Dense, Conv2d, MaxPool2d, AvgPool2d, Flatten, ReLU, Sigmoid, Tanh, Softmax, Dropout, and the
// containers SequentialCell and CellList. Each is the core Cell; calling one goes through
// Cell.__call__ (bind_cell.cpp). SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include "nn/layers/avg_pool2d.h"
#include "nn/layers/conv2d.h"
#include "nn/layers/dense.h"
#include "nn/layers/dropout.h"
#include "nn/layers/flatten.h"
#include "nn/layers/max_pool2d.h"
#include "nn/layers/relu.h"
#include "nn/layers/sequential_cell.h"
#include "nn/layers/sigmoid.h"
#include "nn/layers/softmax.h"
#include "nn/layers/tanh.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// nn.CellList: children "0", "1", ... that the owner calls itself; not callable.
class CellList : public Cell {
public:
    CellList() : Cell("CellList") {}
    Value construct(const std::vector<Value>&) override
    {
        throw TypeError("a 'CellList' is not callable: call the cells it holds");
    }
};

template <class T>
using LayerClass = py::class_<T, Cell, std::shared_ptr<T>>;

void checkDataFormat(const std::string& who, const std::string& format)
{
    if (format != "NCHW")
        throw py::value_error("For '" + who + "', the 'data_format' must be 'NCHW' (the only layout "
                              "gradstep computes), but got '" + format + "'.");
}

/// MindSpore 2.2's dtype argument of the layers: gradstep's layers hold float32 parameters.
void checkFloat32(const std::string& who, const py::object& dtype)
{
    if (!dtype.is_none() && toDType(dtype) != DType::Float32)
        throw py::type_error("For '" + who + "', only 'dtype' mindspore.float32 is supported by gradstep, "
                             "but got " + std::string(py::str(dtype)) + ".");
}

void bindDense(py::module_& nn)
{
    using Class = LayerClass<Dense>;
    Class(nn, "Dense", py::dynamic_attr(), "activation(x @ weight^T + bias)")
        .def("__init__",
             [](py::detail::value_and_holder& holder, std::int64_t in, std::int64_t out,
                const py::object& weightInit, const py::object& biasInit, bool hasBias,
                const py::object& activation, const py::object& dtype) {
                 checkFloat32("Dense", dtype);
                 const InitSpec weight = toInitSpec(weightInit, "Dense");
                 const InitSpec bias = toInitSpec(biasInit, "Dense");
                 std::shared_ptr<Dense> dense;
                 if (activation.is_none())
                     dense = std::make_shared<Dense>(in, out, weight, bias, hasBias, "");
                 else if (PyUnicode_Check(activation.ptr()))
                     dense = std::make_shared<Dense>(in, out, weight, bias, hasBias,
                                                     activation.cast<std::string>());
                 else if (py::isinstance<Cell>(activation))
                     dense = std::make_shared<Dense>(in, out, weight, bias, hasBias,
                                                     activation.cast<CellPtr>());
                 else
                     throw py::type_error("For 'Dense', the 'activation' must be a str, a Cell or None, "
                                          "but got '" + pyTypeName(activation) + "'.");
                 keepChild(constructCell<Class>(holder, dense), "activation", activation);
             },
             py::detail::is_new_style_constructor(), py::arg("in_channels"), py::arg("out_channels"),
             py::arg("weight_init") = py::none(), py::arg("bias_init") = py::none(),
             py::arg("has_bias") = true, py::arg("activation") = py::none(), py::arg("dtype") = py::none())
        .def_property_readonly("in_channels", &Dense::inChannels)
        .def_property_readonly("out_channels", &Dense::outChannels)
        .def_property_readonly("has_bias", &Dense::hasBias);
}

void bindConv2d(py::module_& nn)
{
    LayerClass<Conv2d>(nn, "Conv2d", py::dynamic_attr(), "2-D cross-correlation over NCHW input")
        .def(py::init([](std::int64_t in, std::int64_t out, const py::object& kernel,
                         const py::object& stride, const std::string& padMode, const py::object& padding,
                         const py::object& dilation, std::int64_t group, bool hasBias,
                         const py::object& weightInit, const py::object& biasInit,
                         const std::string& dataFormat, const py::object& dtype) {
                 checkDataFormat("Conv2d", dataFormat);
                 checkFloat32("Conv2d", dtype);
                 return std::make_shared<Conv2d>(
                     in, out, toIntPair(kernel, "Conv2d", "kernel_size"), toIntPair(stride, "Conv2d", "stride"),
                     padMode, toPadding4(padding, "Conv2d"), toIntPair(dilation, "Conv2d", "dilation"), group,
                     hasBias, toInitSpec(weightInit, "Conv2d"), toInitSpec(biasInit, "Conv2d"));
             }),
             py::arg("in_channels"), py::arg("out_channels"), py::arg("kernel_size"), py::arg("stride") = 1,
             py::arg("pad_mode") = "same", py::arg("padding") = 0, py::arg("dilation") = 1,
             py::arg("group") = 1, py::arg("has_bias") = false, py::arg("weight_init") = py::none(),
             py::arg("bias_init") = py::none(), py::arg("data_format") = "NCHW", py::arg("dtype") = py::none())
        .def_property_readonly("pad_mode", &Conv2d::padMode);
}

template <class Pool>
void bindPool(py::module_& nn, const char* name, const char* doc)
{
    const std::string who = name;
    LayerClass<Pool>(nn, name, py::dynamic_attr(), doc)
        .def(py::init([who](const py::object& kernel, const py::object& stride, const std::string& padMode,
                            const std::string& dataFormat) {
                 checkDataFormat(who, dataFormat);
                 return std::make_shared<Pool>(toIntPair(kernel, who, "kernel_size"),
                                               toIntPair(stride, who, "stride"), padMode);
             }),
             py::arg("kernel_size") = 1, py::arg("stride") = 1, py::arg("pad_mode") = "valid",
             py::arg("data_format") = "NCHW");
}

void bindActivations(py::module_& nn)
{
    LayerClass<Flatten>(nn, "Flatten", py::dynamic_attr(), "(N, ...) -> (N, prod(...))").def(py::init<>());
    LayerClass<ReLU>(nn, "ReLU", py::dynamic_attr(), "max(x, 0)").def(py::init<>());
    LayerClass<Sigmoid>(nn, "Sigmoid", py::dynamic_attr(), "1 / (1 + exp(-x))").def(py::init<>());
    LayerClass<Tanh>(nn, "Tanh", py::dynamic_attr(), "tanh(x)").def(py::init<>());
    LayerClass<Softmax>(nn, "Softmax", py::dynamic_attr(), "exp(x) / sum(exp(x)) along axis")
        .def(py::init<std::int64_t>(), py::arg("axis") = -1)
        .def_property_readonly("axis", &Softmax::axis);
}

// MindSpore 2.x: Dropout(keep_prob=None, p=None); p (the drop probability, in [0, 1)) wins when
// both are given, keep_prob is the older spelling, and neither means p = 0.5.
void bindDropout(py::module_& nn)
{
    LayerClass<Dropout>(nn, "Dropout", py::dynamic_attr(), "zeroes elements with probability p in training")
        .def(py::init([](const py::object& keepProb, const py::object& p) {
                 if (!p.is_none()) {
                     const double drop = p.cast<double>();
                     if (!(drop >= 0.0 && drop < 1.0))
                         throw py::value_error("For 'Dropout', the 'p' must be a number in range [0, 1), but got "
                                               + std::string(py::str(p)) + ".");
                     return std::make_shared<Dropout>(1.0 - drop);
                 }
                 return std::make_shared<Dropout>(keepProb.is_none() ? 0.5 : keepProb.cast<double>());
             }),
             py::arg("keep_prob") = py::none(), py::arg("p") = py::none())
        .def_property_readonly("keep_prob", &Dropout::keepProb)
        .def_property_readonly("p", [](const Dropout& d) { return 1.0 - d.keepProb(); });
}

std::int64_t checkedIndex(std::int64_t index, std::size_t count, const char* who)
{
    const auto size = static_cast<std::int64_t>(count);
    if (index < -size || index >= size)
        throw py::index_error(std::string(who) + " index " + std::to_string(index) + " out of range for "
                              + std::to_string(size) + " cells");
    return index < 0 ? index + size : index;
}

/// __len__, __getitem__ (ints) and __iter__ over the children, in order.
template <class Class>
void bindCellSequence(Class& cls, const char* who)
{
    cls.def("__len__", [](const Cell& cell) { return cell.children().size(); })
        .def("__getitem__",
             [who](const py::object& self, std::int64_t index) {
                 const auto& children = self.cast<Cell&>().children();
                 const auto& entry = children[static_cast<std::size_t>(checkedIndex(index, children.size(), who))];
                 return childObject(self, entry.first, entry.second);
             })
        .def("__iter__", [](const py::object& self) { return self.attr("cells")(); })
        .def("append",
             [](const py::object& self, const py::object& cell) {
                 adoptChild(self, std::to_string(self.cast<Cell&>().children().size()), cell);
                 return self;
             },
             py::arg("cell"));
}

/// SequentialCell(c1, c2, ...), SequentialCell([c1, c2]) or SequentialCell(OrderedDict(name=c)).
void bindSequentialCell(py::module_& nn)
{
    using Class = LayerClass<SequentialCell>;
    Class cls(nn, "SequentialCell", py::dynamic_attr(), "runs its cells in order, each on the previous output");
    cls.def("__init__",
            [](py::detail::value_and_holder& holder, const py::args& args) {
                const py::handle self = constructCell<Class>(holder, std::make_shared<SequentialCell>());
                if (args.size() == 1 && PyDict_Check(args[0].ptr())) {
                    for (auto item : py::reinterpret_borrow<py::dict>(args[0]))
                        adoptChild(self, py::str(item.first), py::reinterpret_borrow<py::object>(item.second));
                    return;
                }
                const bool listed =
                    args.size() == 1 && (PyList_Check(args[0].ptr()) || PyTuple_Check(args[0].ptr()));
                const py::handle source = listed ? py::handle(args[0]) : py::handle(args);
                const auto cells = py::reinterpret_borrow<py::sequence>(source);
                for (std::size_t i = 0; i < cells.size(); ++i)
                    adoptChild(self, std::to_string(i), cells[i]);
            },
            py::detail::is_new_style_constructor());
    bindCellSequence(cls, "SequentialCell");
}

void bindCellList(py::module_& nn)
{
    using Class = LayerClass<CellList>;
    Class cls(nn, "CellList", py::dynamic_attr(), "a list of Cells registered as children \"0\", \"1\", ...");
    cls.def("__init__",
            [](py::detail::value_and_holder& holder, const py::object& cells) {
                const py::handle self = constructCell<Class>(holder, std::make_shared<CellList>());
                if (!cells.is_none())
                    for (py::handle cell : cells)
                        self.attr("append")(cell);
            },
            py::detail::is_new_style_constructor(), py::arg("args") = py::none());
    bindCellSequence(cls, "CellList");
}

} // namespace

void bindCellContainers(py::module_& nn)
{
    bindSequentialCell(nn);
    bindCellList(nn);
}

void bindNnLayers(py::module_& nn)
{
    bindDense(nn);
    bindConv2d(nn);
    bindPool<MaxPool2d>(nn, "MaxPool2d", "the maximum of each window of NCHW input");
    bindPool<AvgPool2d>(nn, "AvgPool2d", "the mean of each window of NCHW input");
    bindActivations(nn);
    bindDropout(nn);
}

} // namespace gradstep::python
