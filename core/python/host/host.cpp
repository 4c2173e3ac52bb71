// Interpreter start-up and shutdown. SPDX-License-Identifier: MIT
#include "python/host/host.h"

#include "python/bind/bindings.h"
#include "python/host/host_internal.h"
#include "python/host/script_runner.h"
#include "tensor/errors.h"

#include <pybind11/embed.h>

#include <atomic>
#include <csignal>
#include <mutex>
#include <set>
#include <unistd.h>

namespace py = pybind11;

namespace gradstep::python {

namespace {

enum class State { NotStarted, Running, Finalised };

struct HostState {
    std::mutex mutex;
    State state = State::NotStarted;
    PyThreadState* mainThread = nullptr; ///< saved while the starting thread does not run Python
    std::set<ScriptRunner*> runners;
    bool abandonedRun = false;
};

HostState& hostState()
{
    static HostState state;
    return state;
}

volatile std::sig_atomic_t g_interrupts = 0;

void onSigint(int)
{
    if (g_interrupts > 0)
        _exit(130);
    g_interrupts = g_interrupts + 1;
}

void installSigintHandler()
{
    struct sigaction action = {};
    action.sa_handler = onSigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
}

void checkStatus(PyStatus status, PyConfig& config)
{
    if (PyStatus_Exception(status)) {
        PyConfig_Clear(&config);
        throw RuntimeError(std::string("cannot start Python: ")
                           + (status.err_msg ? status.err_msg : "unknown error"));
    }
}

void initialise()
{
    PyConfig config;
    // Isolated: PYTHONPATH, PYTHONHOME and the user's site-packages of whatever Python the shell
    // prefers (pyenv, conda) cannot leak in. Debian's dist-packages (numpy) stay on sys.path.
    PyConfig_InitIsolatedConfig(&config);
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    // A fixed hash seed keeps set and dict-of-str iteration order identical across runs.
    config.use_hash_seed = 1;
    config.hash_seed = 0;
    checkStatus(PyConfig_SetBytesString(&config, &config.executable, GRADSTEP_PYTHON_EXECUTABLE), config);
    checkStatus(PyConfig_SetBytesString(&config, &config.program_name, GRADSTEP_PYTHON_EXECUTABLE), config);
    py::initialize_interpreter(&config, 0, nullptr, false);
}

} // namespace

void Host::start(const HostOptions& options)
{
    HostState& s = hostState();
    std::lock_guard lock(s.mutex);
    if (s.state == State::Running)
        return;
    if (s.state == State::Finalised)
        throw RuntimeError("Python was shut down and cannot be started again in this process");
    if (options.installSigintHandler)
        installSigintHandler();
    try {
        initialise();
    } catch (const std::exception& e) {
        throw RuntimeError(e.what());
    }
    // The Python exception must be gone before finalising: error_already_set holds references to
    // Python objects, and releasing them after finalize_interpreter() crashes.
    std::string importError;
    try {
        installMindspore();
    } catch (py::error_already_set& e) {
        importError = e.what();
    }
    if (!importError.empty()) {
        py::finalize_interpreter();
        s.state = State::Finalised;
        throw RuntimeError("cannot import the embedded mindspore module: " + importError);
    }
    s.mainThread = PyEval_SaveThread();
    s.state = State::Running;
}

bool Host::running()
{
    HostState& s = hostState();
    std::lock_guard lock(s.mutex);
    return s.state == State::Running;
}

void Host::shutdown()
{
    HostState& s = hostState();
    std::set<ScriptRunner*> runners;
    {
        std::lock_guard lock(s.mutex);
        if (s.state != State::Running)
            return;
        runners = s.runners;
    }
    for (ScriptRunner* runner : runners) {
        runner->stop();
        runner->wait();
    }
    std::lock_guard lock(s.mutex);
    if (s.abandonedRun)
        return; // a script thread may still be inside the interpreter: the process ends with it
    PyEval_RestoreThread(s.mainThread);
    s.mainThread = nullptr;
    releaseMindspore();
    py::finalize_interpreter();
    s.state = State::Finalised;
}

int Host::interruptCount() { return static_cast<int>(g_interrupts); }

GilRelease::GilRelease()
{
    if (Py_IsInitialized() && PyGILState_Check())
        m_state = PyEval_SaveThread();
}

GilRelease::~GilRelease()
{
    if (m_state)
        PyEval_RestoreThread(static_cast<PyThreadState*>(m_state));
}

void registerRunner(ScriptRunner* runner)
{
    HostState& s = hostState();
    std::lock_guard lock(s.mutex);
    s.runners.insert(runner);
}

void noteAbandonedRun()
{
    HostState& s = hostState();
    std::lock_guard lock(s.mutex);
    s.abandonedRun = true;
}

bool Host::abandonedRuns()
{
    HostState& s = hostState();
    std::lock_guard lock(s.mutex);
    return s.abandonedRun;
}

void unregisterRunner(ScriptRunner* runner)
{
    HostState& s = hostState();
    std::lock_guard lock(s.mutex);
    s.runners.erase(runner);
}

} // namespace gradstep::python
