// The embedded `mindspore` package. Built-in modules are found before any path on sys.path, so
// an installed mindspore is never imported; def_submodule registers each submodule in
// sys.modules, so `import mindspore.ops as ops` works as well as `from mindspore import ops`.
// Each piece is bound in its own bind_*.cpp. SPDX-License-Identifier: MIT
#include "python/bind/bind_communication.h"
#include "python/bind/bindings.h"
#include "python/bind/bind_custom.h"
#include "python/bind/grad_adapter.h"
#include "python/host/package_sources.h"

#include <pybind11/embed.h>

#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

PYBIND11_EMBEDDED_MODULE(mindspore, m)
{
    using namespace gradstep::python;
    m.doc() = "gradstep's MindSpore: the MindSpore 2.x Python API over gradstep's C++ core";
    bindErrors();
    py::module_ common = m.def_submodule("common", "mindspore.common: Tensor and dtypes");
    py::module_ dtype = common.def_submodule("dtype", "mindspore.common.dtype (imported as mstype)");
    m.attr("dtype") = dtype;
    bindDtypes(m, dtype);

    TensorClass tensor = bindTensor(m);
    bindTensorOperators(tensor);
    bindTensorMethods(tensor);
    common.attr("Tensor") = tensor;
    bindParameter(m);
    common.attr("Parameter") = m.attr("Parameter");
    common.attr("ParameterTuple") = m.attr("ParameterTuple");

    py::module_ context = m.def_submodule("context", "mindspore.context: execution mode and settings");
    bindContext(m, context);
    py::module_ ops = m.def_submodule("ops", "mindspore.ops: functional ops and primitives");
    bindOps(ops);
    bindCustom(ops);
    py::module_ nn = m.def_submodule("nn", "mindspore.nn: Cells, losses and optimizers");
    py::module_ initializer = common.def_submodule("initializer", "mindspore.common.initializer: weight init");
    bindNn(nn, initializer);
    py::module_ dataset = m.def_submodule("dataset", "mindspore.dataset: data pipelines");
    bindDataset(dataset);
    bindGrad(m);
    py::module_ communication = m.def_submodule("communication", "mindspore.communication: ranks and groups");
    bindCommunication(communication);
    bindProfiler(m);
}

namespace gradstep::python {

namespace {

/// sys.modules entries of our package, taken when the host starts; the references are held for
/// the interpreter's lifetime.
std::vector<std::pair<std::string, PyObject*>>& ownModules()
{
    static std::vector<std::pair<std::string, PyObject*>> modules;
    return modules;
}

bool inPackage(const std::string& name) { return name == "mindspore" || name.rfind("mindspore.", 0) == 0; }

} // namespace

void installMindspore()
{
    py::module_::import("mindspore");
    installPackage();
    py::dict modules = py::module_::import("sys").attr("modules");
    for (auto item : modules) {
        const std::string name = py::str(item.first);
        if (inPackage(name))
            ownModules().emplace_back(name, item.second.inc_ref().ptr());
    }
    captureApiProfiles();
}

void releaseMindspore()
{
    for (auto& [name, module] : ownModules())
        Py_DECREF(module);
    ownModules().clear();
    releaseDtypes();
    releaseContext();
    releaseApiProfiles();
}

void prepareMindsporeForRun(const std::string& apiProfile)
{
    py::dict modules = py::module_::import("sys").attr("modules");
    py::list stale;
    for (auto item : modules)
        if (inPackage(py::str(item.first)))
            stale.append(item.first);
    for (py::handle name : stale)
        PyDict_DelItem(modules.ptr(), name.ptr());
    for (const auto& [name, module] : ownModules())
        modules[name.c_str()] = py::handle(module);
    resetContext();
    resetNoGrad();
    resetPackageForRun();
    applyApiProfile(apiProfile);
}

} // namespace gradstep::python
