// mindspore.nn optimizers (SGD, Momentum, Adam over nn.Optimizer) and TrainOneStepCell, with
// MindSpore's signatures and defaults (SEMANTICS.md §7.5, §7.6). optimizer(grads) applies one
// in-place update to the Parameters (every Python handle sees it) and returns True.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "nn/wrappers/train_one_step_cell.h"
#include "optim/adam.h"
#include "optim/momentum.h"
#include "optim/sgd.h"

#include <pybind11/stl.h>

#include <limits>
#include <memory>

namespace py = pybind11;

namespace gradstep::python {

namespace {

template <class T>
using OptimizerClass = py::class_<T, Optimizer, std::shared_ptr<T>>;

/// A Parameter list or tuple, a ParameterTuple, or any iterable of Parameters (get_parameters()).
/// Parameter groups (dicts) are refused by name.
ParameterTuple toParams(const py::object& params, const std::string& who)
{
    py::object items = params;
    if (!PyList_Check(params.ptr()) && !PyTuple_Check(params.ptr()) && !py::isinstance<Parameter>(params)
        && py::hasattr(params, "__iter__"))
        items = py::list(params);
    if (PyList_Check(items.ptr()))
        for (py::handle item : items)
            if (PyDict_Check(item.ptr()))
                throw py::value_error("For '" + who + "', parameter groups (dicts in 'params') are not "
                                      "supported by gradstep; pass the Parameters themselves.");
    return toParameters(items, "For '" + who + "', 'params'");
}

/// A number, or a Tensor with one element. Schedules (lists, 1-D Tensors, LearningRateSchedule)
/// are refused: gradstep's optimizers keep one learning rate.
double toLearningRate(const py::object& lr, const std::string& who)
{
    if (isScalar(lr) && !PyBool_Check(lr.ptr()))
        return lr.cast<double>();
    if (const Tensor* t = asTensor(lr); t && t->rank() == 0)
        return t->toDoubles().front();
    throw py::type_error("For '" + who + "', the 'learning_rate' must be a float, an int or a 0-D Tensor "
                         "(schedules are not supported), but got '" + pyTypeName(lr) + "'.");
}

void checkLossScale(double lossScale, const std::string& who)
{
    if (lossScale != 1.0)
        throw py::value_error("For '" + who + "', only 'loss_scale' 1.0 is supported by gradstep.");
}

void bindOptimizerBase(py::module_& nn)
{
    py::class_<Optimizer, std::shared_ptr<Optimizer>>(nn, "Optimizer",
                                                      "The base of SGD, Momentum and Adam (no parameter groups).")
        .def("__call__",
             [](Optimizer& optimizer, const py::object& gradients) {
                 if (!PyTuple_Check(gradients.ptr()) && !PyList_Check(gradients.ptr()))
                     throw py::type_error("For '" + optimizer.className()
                                          + "', the gradients must be a tuple of Tensors, but got '"
                                          + pyTypeName(gradients) + "'.");
                 TensorList grads;
                 for (py::handle g : gradients) {
                     const Tensor* t = asTensor(g);
                     if (!t)
                         throw py::type_error("For '" + optimizer.className()
                                              + "', every gradient must be a Tensor, but got '" + pyTypeName(g)
                                              + "'.");
                     grads.push_back(*t);
                 }
                 optimizer(grads);
                 return true;
             },
             py::arg("gradients"))
        .def_property_readonly("parameters",
                               [](const Optimizer& o) { return makeParameterTuple(o.parameters()); })
        .def_property("learning_rate", &Optimizer::learningRate,
                      [](Optimizer& o, const py::object& lr) {
                          o.setLearningRate(toLearningRate(lr, o.className()));
                      })
        .def("get_lr", [](const Optimizer& o) { return Tensor::full(Shape(), o.learningRate(), DType::Float32); })
        .def_property_readonly("weight_decay", &Optimizer::weightDecay)
        .def_property_readonly("global_step", &Optimizer::globalStep)
        .def_property_readonly("cls_name", &Optimizer::className)
        .def("__repr__", [](const Optimizer& o) { return o.className() + "<>"; });
}

void bindOptimizerClasses(py::module_& nn)
{
    OptimizerClass<SGD>(nn, "SGD", "p -= lr * v, v the (Nesterov) momentum buffer")
        .def(py::init([](const py::object& params, const py::object& lr, double momentum, double dampening,
                         double weightDecay, bool nesterov, double lossScale) {
                 checkLossScale(lossScale, "SGD");
                 return std::make_shared<SGD>(toParams(params, "SGD"), toLearningRate(lr, "SGD"), momentum,
                                              dampening, weightDecay, nesterov);
             }),
             py::arg("params"), py::arg("learning_rate") = 0.1, py::arg("momentum") = 0.0,
             py::arg("dampening") = 0.0, py::arg("weight_decay") = 0.0, py::arg("nesterov") = false,
             py::arg("loss_scale") = 1.0);
    OptimizerClass<Momentum>(nn, "Momentum", "v = v * momentum + g; p -= lr * v")
        .def(py::init([](const py::object& params, const py::object& lr, double momentum, double weightDecay,
                         double lossScale, bool useNesterov) {
                 checkLossScale(lossScale, "Momentum");
                 return std::make_shared<Momentum>(toParams(params, "Momentum"), toLearningRate(lr, "Momentum"),
                                                   momentum, weightDecay, useNesterov);
             }),
             py::arg("params"), py::arg("learning_rate"), py::arg("momentum"), py::arg("weight_decay") = 0.0,
             py::arg("loss_scale") = 1.0, py::arg("use_nesterov") = false);
    OptimizerClass<Adam>(nn, "Adam", "Adam as MindSpore's kernel computes it (eps added to sqrt(v))")
        .def(py::init([](const py::object& params, const py::object& lr, double beta1, double beta2, double eps,
                         bool /*useLocking*/, bool useNesterov, double weightDecay, double lossScale,
                         bool useAmsgrad, const py::kwargs& kwargs) {
                 checkLossScale(lossScale, "Adam");
                 // use_lazy and use_offload change how MindSpore applies sparse (RowTensor) gradients and
                 // where the state lives; with dense gradients the update is Adam's, computed here.
                 for (auto item : kwargs) {
                     const std::string key = py::str(item.first);
                     if (key != "use_lazy" && key != "use_offload")
                         throw py::type_error("For 'Adam', got an unexpected keyword argument '" + key + "'.");
                     if (!PyBool_Check(item.second.ptr()))
                         throw py::type_error("For 'Adam', the type of '" + key + "' should be bool, but got "
                                              + std::string(Py_TYPE(item.second.ptr())->tp_name) + ".");
                 }
                 if (useAmsgrad)
                     throw py::value_error("For 'Adam', 'use_amsgrad' is not supported by gradstep.");
                 return std::make_shared<Adam>(toParams(params, "Adam"), toLearningRate(lr, "Adam"), beta1, beta2,
                                               eps, weightDecay, useNesterov);
             }),
             py::arg("params"), py::arg("learning_rate") = 1e-3, py::arg("beta1") = 0.9, py::arg("beta2") = 0.999,
             py::arg("eps") = 1e-8, py::arg("use_locking") = false, py::arg("use_nesterov") = false,
             py::arg("weight_decay") = 0.0, py::arg("loss_scale") = 1.0, py::arg("use_amsgrad") = false);
}

void bindTrainOneStepCell(py::module_& nn)
{
    using Class = py::class_<TrainOneStepCell, Cell, std::shared_ptr<TrainOneStepCell>>;
    Class(nn, "TrainOneStepCell", py::dynamic_attr(),
          "one call = forward, gradients of the loss for optimizer.parameters, update; returns the loss")
        .def("__init__",
             [](py::detail::value_and_holder& holder, const py::object& network, const py::object& optimizer,
                const py::object& sens, bool returnGrad) {
                 if (!py::isinstance<Cell>(network))
                     throw py::type_error("For 'TrainOneStepCell', the 'network' must be a Cell, but got '"
                                          + pyTypeName(network) + "'.");
                 if (!py::isinstance<Optimizer>(optimizer))
                     throw py::type_error("For 'TrainOneStepCell', the 'optimizer' must be an "
                                          "nn.Optimizer, but got '" + pyTypeName(optimizer) + "'.");
                 if (returnGrad)
                     throw py::value_error("For 'TrainOneStepCell', 'return_grad' is not supported by gradstep.");
                 const double scale = sens.is_none() ? 1.0 : sens.cast<double>();
                 auto cell = std::make_shared<TrainOneStepCell>(
                     network.cast<CellPtr>(), optimizer.cast<std::shared_ptr<Optimizer>>(), scale);
                 keepChild(constructCell<Class>(holder, cell), "network", network);
             },
             py::detail::is_new_style_constructor(), py::arg("network"), py::arg("optimizer"),
             py::arg("sens") = py::none(), py::arg("return_grad") = false)
        .def_property_readonly("optimizer", &TrainOneStepCell::optimizer)
        .def_property_readonly("weights",
                               [](const TrainOneStepCell& c) {
                                   return makeParameterTuple(c.optimizer()->parameters());
                               })
        .def_property_readonly("sens", &TrainOneStepCell::sens)
        .def("_set_gradient_reduction",
             [](TrainOneStepCell& c, bool mean, std::int64_t degree, const std::string& group) {
                 c.setGradientReduction(GradientReduction{mean, degree, group});
             },
             "gradstep: data-parallel mode's all-reduce of the gradients before the update");
}

} // namespace

/// An optimizer written in Python (nn.Optimizer subclasses, the package's own and a script's):
/// its construct(gradients) runs as the step's update phase, as the core optimizers' update does,
/// so the debugger shows its ops as update nodes and ends the step after it. The learning rate
/// reported is the one get_lr returned during the update (Optimizer._reported_lr), NaN when the
/// construct did not call get_lr.
py::object runPythonUpdate(const py::object& optimizer, const py::args& args, const py::kwargs& kwargs)
{
    if (executionContext().phase == Phase::Update) // an optimizer wrapping another (LARS): one update
        return optimizer.attr("construct")(*args, **kwargs);
    const std::string name = py::str(optimizer.attr("cls_name"));
    const std::vector<Parameter> parameters = toParameters(optimizer.attr("_parameters"), "For '" + name + "'");
    TensorList gradients;
    if (args.size() == 1 && (PyTuple_Check(args[0].ptr()) || PyList_Check(args[0].ptr())))
        for (py::handle g : args[0])
            if (const Tensor* t = asTensor(g))
                gradients.push_back(*t);
    NoGradGuard noGrad;
    PhaseGuard phase(Phase::Update);
    ScopeGuard scope(name);
    optimizer.attr("_reported_lr") = py::none();
    if (ExecutionContext& ctx = executionContext(); ctx.tracer) {
        // Compiled (Note [Side effects in compiled code] in python/jit/jit_state.cpp): its writes
        // are the graph's; each run reports the update with the run's gradients.
        py::object result = optimizer.attr("construct")(*args, **kwargs);
        if (ctx.stateWriter) {
            auto label = std::make_shared<const std::string>(name);
            const double lr = std::numeric_limits<double>::quiet_NaN();
            ctx.stateWriter->everyRun(
                [label, parameters, lr] {
                    if (ExecutionObserver* observer = executionContext().observer)
                        observer->updateStarted(UpdateEvent{label.get(), 0, lr, parameters, {}});
                },
                [label, parameters, lr](const TensorList& values) {
                    if (ExecutionObserver* observer = executionContext().observer)
                        observer->updateFinished(
                            UpdateEvent{label.get(), 0, lr, parameters, values});
                },
                gradients, EffectTime::AfterRun);
        }
        return result;
    }
    ExecutionObserver* observer = executionContext().observer;
    UpdateEvent event{&name, 0, std::numeric_limits<double>::quiet_NaN(), parameters, gradients};
    if (observer)
        observer->updateStarted(event);
    py::object result = optimizer.attr("construct")(*args, **kwargs);
    if (observer) {
        const py::object lr = optimizer.attr("_reported_lr");
        if (!lr.is_none())
            event.learningRate = lr.cast<double>();
        const py::object step = optimizer.attr("global_step");
        if (const Tensor* t = asTensor(step); t && t->numel() == 1)
            event.step = static_cast<std::int64_t>(t->toDoubles().front());
        observer->updateFinished(event);
    }
    return result;
}

void bindOptimizers(py::module_& nn)
{
    nn.def("_run_python_update", &runPythonUpdate, py::arg("optimizer"),
           "gradstep: a Python optimizer's construct, run as the step's update phase.");
    bindOptimizerBase(nn);
    bindOptimizerClasses(nn);
    bindTrainOneStepCell(nn);
}

} // namespace gradstep::python
