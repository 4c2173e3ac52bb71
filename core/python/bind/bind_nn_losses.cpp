// mindspore.nn losses (SoftmaxCrossEntropyWithLogits, MSELoss, L1Loss, BCEWithLogitsLoss) and
// WithLossCell, with MindSpore's signatures and defaults (SEMANTICS.md §7.1, §7.6).
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include "nn/losses/bce_with_logits_loss.h"
#include "nn/losses/l1_loss.h"
#include "nn/losses/mse_loss.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/wrappers/with_loss_cell.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

template <class T, class Base = LossBase>
using LossClass = py::class_<T, Base, std::shared_ptr<T>>;

void bindLosses(py::module_& nn)
{
    py::class_<LossBase, Cell, std::shared_ptr<LossBase>>(nn, "LossBase", py::dynamic_attr(),
                                                          "The base of the losses: the 'reduction'.")
        .def_property_readonly("reduction", &LossBase::reduction);
    LossClass<SoftmaxCrossEntropyWithLogits>(nn, "SoftmaxCrossEntropyWithLogits", py::dynamic_attr(),
                                             "per-sample -x[c] + log(sum(exp(x)))")
        .def(py::init<bool, const std::string&>(), py::arg("sparse") = false, py::arg("reduction") = "none")
        .def_property_readonly("sparse", &SoftmaxCrossEntropyWithLogits::sparse);
    LossClass<MSELoss>(nn, "MSELoss", py::dynamic_attr(), "(x - y)^2, reduced")
        .def(py::init<const std::string&>(), py::arg("reduction") = "mean");
    LossClass<L1Loss>(nn, "L1Loss", py::dynamic_attr(), "|x - y|, reduced")
        .def(py::init<const std::string&>(), py::arg("reduction") = "mean");
    LossClass<BCEWithLogitsLoss>(nn, "BCEWithLogitsLoss", py::dynamic_attr(),
                                 "binary cross entropy of sigmoid(x), reduced")
        .def(py::init([](const std::string& reduction, const py::object& weight, const py::object& posWeight) {
                 const auto optionalTensor = [](const py::object& value, const char* name) {
                     if (value.is_none())
                         return Tensor();
                     if (const Tensor* t = asTensor(value))
                         return *t;
                     throw py::type_error(std::string("For 'BCEWithLogitsLoss', the '") + name
                                          + "' must be a Tensor or None, but got " + pyTypeName(value) + ".");
                 };
                 return std::make_shared<BCEWithLogitsLoss>(reduction, optionalTensor(weight, "weight"),
                                                            optionalTensor(posWeight, "pos_weight"));
             }),
             py::arg("reduction") = "mean", py::arg("weight") = py::none(), py::arg("pos_weight") = py::none());
}

void bindWithLossCell(py::module_& nn)
{
    using Class = py::class_<WithLossCell, Cell, std::shared_ptr<WithLossCell>>;
    Class(nn, "WithLossCell", py::dynamic_attr(), "construct(data, label) = loss_fn(backbone(data), label)")
        .def("__init__",
             [](py::detail::value_and_holder& holder, const py::object& backbone, const py::object& lossFn) {
                 for (const py::object* arg : {&backbone, &lossFn})
                     if (!py::isinstance<Cell>(*arg))
                         throw py::type_error("For 'WithLossCell', the backbone and loss_fn must be Cells, "
                                              "but got '" + pyTypeName(*arg) + "'.");
                 auto cell = std::make_shared<WithLossCell>(backbone.cast<CellPtr>(), lossFn.cast<CellPtr>());
                 const py::handle self = constructCell<Class>(holder, cell);
                 keepChild(self, "_backbone", backbone);
                 keepChild(self, "_loss_fn", lossFn);
             },
             py::detail::is_new_style_constructor(), py::arg("backbone"), py::arg("loss_fn"))
        .def_property_readonly("backbone_network", [](const py::object& self) {
            return childObject(self, "_backbone", self.cast<WithLossCell&>().backboneNetwork());
        });
}

} // namespace

void bindNnLosses(py::module_& nn)
{
    bindLosses(nn);
    bindWithLossCell(nn);
}

} // namespace gradstep::python
