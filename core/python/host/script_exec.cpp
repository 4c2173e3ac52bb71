// Executes a script the way `python3 script.py` does (a fresh __main__ module, the script's
// directory first on sys.path, sys.argv), with its output sent to the run's callback, and puts
// the interpreter back as it was so the next run starts clean (edited helper modules reload).
// SPDX-License-Identifier: MIT
#include "python/host/script_exec.h"

#include "python/bind/bindings.h"
#include "python/host/diagnose.h"
#include "python/host/frames.h"
#include "python/host/migration_capture.h"
#include "python/jit/jit_runtime.h"
#include "python/bind/numpy_init_seeds.h"
#include "python/host/run_checkpoint.h"
#include "python/host/run_context.h"
#include "python/host/script_exits.h"
#include "python/host/script_signals.h"

#include <pybind11/embed.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace py = pybind11;

namespace {

// The stream class is Python so that it is a complete io.TextIOBase (flush, closed, buffer,
// reconfigure, ...); only the sink is C++. A stream holds its run's sink number,
// not the sink: Python may keep a stream long after its run (every Thread object holds the
// sys.stderr of its creation), and a number keeps nothing of the run alive, while the sink's
// callback holds the caller's output state (Note [Output sinks]).
constexpr const char* kOutputClass = R"(
import codecs
import io


class Output(io.TextIOBase):
    """sys.stdout / sys.stderr of a run: text goes to the run's sink.

    As python3's streams: `buffer` takes bytes (UTF-8, decoded incrementally), `reconfigure`
    takes TextIOWrapper's arguments, and `fileno` is the process's own descriptor (1 or 2), so
    faulthandler.enable() and subprocess(stdout=sys.stdout) work; what goes through the descriptor
    bypasses the sink (in the window it reaches the terminal the window was started from)."""

    def __init__(self, sink, stream, name):
        self._sink = sink
        self._stream = stream
        self._name = name
        self._encoding = "utf-8"
        self._errors = "strict" if stream == 0 else "backslashreplace"
        self._line_buffering = False
        self._write_through = False
        self._buffer = None

    def write(self, s):
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        _write(self._sink, self._stream, s)
        return len(s)

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        return 1 if self._stream == 0 else 2

    @property
    def buffer(self):
        if self._buffer is None:
            self._buffer = _BinaryOutput(self)
        return self._buffer

    def reconfigure(self, *, encoding=None, errors=None, newline=None, line_buffering=None,
                    write_through=None):
        if encoding is not None:
            self._encoding = codecs.lookup(encoding).name  # LookupError for an unknown one
            if errors is None:
                self._errors = "strict"
        if errors is not None:
            codecs.lookup_error(errors)
            self._errors = errors
        if newline not in (None, "", "\n", "\r", "\r\n"):
            raise ValueError(f"illegal newline value: {newline!r}")
        if line_buffering is not None:
            self._line_buffering = bool(line_buffering)
        if write_through is not None:
            self._write_through = bool(write_through)

    @property
    def line_buffering(self):
        return self._line_buffering

    @property
    def write_through(self):
        return self._write_through

    @property
    def encoding(self):
        return self._encoding

    @property
    def errors(self):
        return self._errors

    @property
    def name(self):
        return self._name

    def __repr__(self):
        return f"<gradstep {self._name}>"


class _BinaryOutput(io.RawIOBase):
    """sys.stdout.buffer: bytes, decoded as UTF-8 across writes (a character may be split)."""

    def __init__(self, text):
        self._text = text
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def writable(self):
        return True

    def write(self, b):
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        data = bytes(memoryview(b))
        decoded = self._decoder.decode(data)
        if decoded:
            _write(self._text._sink, self._text._stream, decoded)
        return len(data)

    def fileno(self):
        return self._text.fileno()

    @property
    def raw(self):
        return self

    @property
    def name(self):
        return self._text.name


def _drain():
    pass


def _act_as_main_thread():
    # Threads inherit daemon from the thread that creates them. Under python3 the script runs on
    # the main thread, which is not a daemon; here it runs on a thread Python sees as a daemon
    # "dummy", so without this every thread the script starts would be a daemon and be cut off.
    import threading
    threading.current_thread()._daemonic = False


def _act_as_worker_thread():
    # Python 3.11 keeps a "dummy" Thread object for every thread it did not start, for good, and
    # each one holds the sys.stderr of its creation: this run's output stream, so every run's
    # stream (and the C++ callback behind it) would outlive the run. Forget this thread's dummy;
    # Python makes a fresh one when this thread asks again.
    import threading
    me = threading.current_thread()
    me._daemonic = True
    if isinstance(me, threading._DummyThread):
        with threading._active_limbo_lock:
            if threading._active.get(me.ident) is me:
                del threading._active[me.ident]


def _script_threads():
    import sys
    threading = sys.modules.get("threading")
    if threading is None:
        return []
    me = threading.current_thread()
    main = threading.main_thread()
    # Dummy threads are threads Python did not start (gradstep's own, other runs' workers).
    return [t for t in threading.enumerate()
            if t is not me and t is not main and not isinstance(t, threading._DummyThread)
            and not t.daemon and t.is_alive()]


_waiting_for = []


def _wait_for_threads():
    # What python3 does at exit: wait for the threads the script started and did not mark daemon.
    # Short joins, so that a stop (the stop button, --timeout) fires between them. Their names are
    # kept first: a stop that interrupts join() makes threading mark the thread as ended.
    global _waiting_for
    while True:
        pending = _script_threads()
        _waiting_for = [t.name for t in pending]
        if not pending:
            return
        for t in pending:
            t.join(0.1)
)";

/// Note [Output sinks]: what a run's stream objects write to, by number, for as long as the run
/// lasts: the run registers its sink at its start and removes it at its end, so a stream that
/// outlives its run (kept by a thread the script left, or by Python's own Thread objects) writes
/// nowhere and holds nothing. Touched only with the GIL held.
struct Sink {
    gradstep::python::OutputCallback callback;
};

std::unordered_map<std::uint64_t, Sink>& sinks()
{
    static std::unordered_map<std::uint64_t, Sink> all;
    return all;
}

void writeToSink(std::uint64_t sink, int stream, py::handle text)
{
    const auto found = sinks().find(sink);
    if (found != sinks().end() && found->second.callback)
        found->second.callback(static_cast<gradstep::run::OutputStream>(stream), gradstep::python::utf8(text));
}

} // namespace

PYBIND11_EMBEDDED_MODULE(_gradstep_host, m)
{
    m.def("_write", &writeToSink, "gradstep: a stream's text for its run's sink (Note [Output sinks]).");
    py::exec(kOutputClass, m.attr("__dict__"));
    PyObject* stop = PyErr_NewExceptionWithDoc(
        "_gradstep_host.ScriptStopped", "Raised in a script that gradstep stops (stop button, timeout).",
        PyExc_BaseException, nullptr);
    if (!stop)
        throw py::error_already_set();
    m.attr("ScriptStopped") = py::reinterpret_steal<py::object>(stop);
}

namespace gradstep::python {

namespace {

py::object makeOutput(std::uint64_t sink, OutputStream stream, const char* name)
{
    return py::module_::import("_gradstep_host").attr("Output")(sink, static_cast<int>(stream), name);
}

/// A run's sink for its lifetime (Note [Output sinks]); GIL held.
class SinkRegistration {
public:
    explicit SinkRegistration(OutputCallback callback) : m_id(++s_last) { sinks()[m_id] = Sink{std::move(callback)}; }
    ~SinkRegistration() { close(); }
    SinkRegistration(const SinkRegistration&) = delete;
    SinkRegistration& operator=(const SinkRegistration&) = delete;
    std::uint64_t id() const { return m_id; }
    /// From now on the run's streams write nowhere.
    void close() { sinks().erase(m_id); }

private:
    static inline std::uint64_t s_last = 0;
    std::uint64_t m_id;
};

Diagnostic fileDiagnostic(const UserFiles& files, const std::string& type, const std::string& message)
{
    Diagnostic d;
    d.span.file = files.script();
    d.span.displayFile = files.display(files.script());
    d.type = type;
    d.message = message;
    return d;
}

// The line holding the NUL byte, with NULs shown as U+2400 (one character, so the caret fits).
std::string lineOfSource(const std::string& source, int line)
{
    std::size_t begin = 0;
    for (int l = 1; l < line && begin != std::string::npos; ++l) {
        begin = source.find('\n', begin);
        begin = begin == std::string::npos ? begin : begin + 1;
    }
    if (begin == std::string::npos)
        return {};
    const std::size_t end = source.find('\n', begin);
    std::string text = source.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    std::string shown;
    for (char c : text)
        shown += c == '\0' ? std::string("\u2400") : std::string(1, c);
    while (!shown.empty() && shown.back() == '\r')
        shown.pop_back();
    return shown;
}

/// Largest script read: a bigger file is not source code someone wrote (and reading it whole
/// first would exhaust memory before anything could be said).
constexpr std::uintmax_t kMaxScriptBytes = std::uintmax_t{256} * 1024 * 1024;

bool readSource(const std::string& path, std::string& source, std::string& error)
{
    // Only regular files: a FIFO without a writer would block the run before it starts, and a
    // device such as /dev/zero never ends.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::is_directory(status)) {
        error = "can't find '__main__' module in '" + path + "'";
        return false;
    }
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
        error = "it is not a regular file (a FIFO, socket or device): gradstep runs scripts from files";
        return false;
    }
    if (!ec && std::filesystem::is_regular_file(status)) {
        const std::uintmax_t size = std::filesystem::file_size(path, ec);
        if (!ec && size > kMaxScriptBytes) {
            error = "the file has " + std::to_string(size) + " bytes, more than the " + std::to_string(kMaxScriptBytes)
                    + " gradstep reads as a script";
            return false;
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = std::strerror(errno);
        return false;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    source = buffer.str();
    return true;
}

/// Saves the interpreter state a run changes and restores it on destruction (GIL held).
class RunEnvironment {
public:
    RunEnvironment(const RunRequest& request, const UserFiles& files)
        : m_files(files), m_sink(request.output), m_run{request.overrides}
    {
        installScriptSignals();
        beginScriptExits();
        m_sys = py::module_::import("sys");
        m_modules = m_sys.attr("modules");
        m_savedArgv = m_sys.attr("argv");
        m_savedPath = py::list(m_sys.attr("path"));
        m_savedStdout = m_sys.attr("stdout");
        m_savedStderr = m_sys.attr("stderr");
        m_savedMain = m_modules.attr("get")("__main__");
        m_savedDontWriteBytecode = m_sys.attr("dont_write_bytecode");
        try {
            setUp(request);
        } catch (...) {
            restore();
            throw;
        }
    }

    ~RunEnvironment() { restore(); }
    RunEnvironment(const RunEnvironment&) = delete;
    RunEnvironment& operator=(const RunEnvironment&) = delete;

    py::dict globals() const { return m_main.attr("__dict__"); }

private:
    void setUp(const RunRequest& request)
    {
        // Edits since the last run must show: drop cached source lines and directory listings,
        // and compile the user's modules afresh (a .pyc is trusted when the edit kept the size
        // within the same second).
        py::module_::import("linecache").attr("checkcache")();
        py::module_::import("importlib").attr("invalidate_caches")();
        m_sys.attr("dont_write_bytecode") = true;

        py::list argv;
        argv.append(request.script.string());
        for (const auto& arg : request.args)
            argv.append(arg);
        m_sys.attr("argv") = argv;
        m_sys.attr("path").attr("insert")(0, m_files.directory());
        m_sys.attr("stdout") = makeOutput(m_sink.id(), OutputStream::Stdout, "<stdout>");
        m_sys.attr("stderr") = makeOutput(m_sink.id(), OutputStream::Stderr, "<stderr>");

        m_main = py::module_::import("types").attr("ModuleType")("__main__");
        m_main.attr("__file__") = m_files.script();
        m_main.attr("__cached__") = py::none();
        m_main.attr("__builtins__") = py::module_::import("builtins");
        m_modules["__main__"] = m_main;
        prepareMindsporeForRun(request.apiProfile);
        resetJitForRun();
        resetNumpyRandomState();
        if (request.overrides.seed)
            py::module_::import("mindspore").attr("set_seed")(*request.overrides.seed);
        if (request.overrides.checkpoint)
            armRunCheckpoint(*request.overrides.checkpoint);
        if (request.migration) {
            armMigrationCapture(*request.migration);
            m_migration = true;
        }
    }

    void restore() noexcept
    {
        // Restoring must not throw; a failure here leaves the state for the next run to fix.
        try {
            finishRunCheckpoint();
            if (m_migration)
                finishMigrationCapture();
            resetScriptSignals();
            endScriptExits();
            m_sink.close();
            m_sys.attr("stdout") = m_savedStdout;
            m_sys.attr("stderr") = m_savedStderr;
            m_sys.attr("argv") = m_savedArgv;
            m_sys.attr("dont_write_bytecode") = m_savedDontWriteBytecode;
            m_sys.attr("path") = m_savedPath;
            if (m_savedMain.is_none())
                m_modules.attr("pop")("__main__", py::none());
            else
                m_modules["__main__"] = m_savedMain;
            forgetUserModules();
            m_main = py::object();
            py::module_::import("gc").attr("collect")();
        } catch (py::error_already_set&) {
            PyErr_Clear();
        }
    }

    // Helper modules beside the script are imported afresh by the next run, so edits show.
    void forgetUserModules()
    {
        py::list names;
        // A snapshot: reading __file__ may import (lazy modules) and change sys.modules.
        for (py::handle item : py::list(m_modules.attr("items")())) {
            py::object file = py::getattr(item[py::int_(1)], "__file__", py::none());
            if (PyUnicode_Check(file.ptr()) && m_files.contains(utf8(file, "surrogateescape")))
                names.append(item[py::int_(0)]);
        }
        for (py::handle name : names)
            m_modules.attr("pop")(name, py::none());
    }

    const UserFiles& m_files;
    SinkRegistration m_sink;
    RunContext m_run;             ///< this run's settings (Note [One owner for a run's settings])
    RunContextScope m_runScope{m_run};
    NumpyInitSeeds m_initSeeds; ///< the run's initializer seeds: NumPy's (random/init_seeds.h)
    InitSeedScope m_initSeedScope{m_initSeeds};
    py::module_ m_sys;
    py::object m_modules;
    py::object m_savedArgv, m_savedDontWriteBytecode, m_savedPath, m_savedStdout, m_savedStderr, m_savedMain;
    py::object m_main;
    bool m_migration = false; ///< the migration capture was armed: restore() finishes it
};

/// For the run, the worker thread passes on to the threads the script starts what python3's main
/// thread does (not being a daemon); afterwards it is one of gradstep's threads again.
class MainThreadRole {
public:
    MainThreadRole() { py::module_::import("_gradstep_host").attr("_act_as_main_thread")(); }
    ~MainThreadRole()
    {
        const py::error_scope scriptError; // the run's error, put back when this returns
        try {
            py::module_::import("_gradstep_host").attr("_act_as_worker_thread")();
        } catch (py::error_already_set&) {
        }
    }
    MainThreadRole(const MainThreadRole&) = delete;
    MainThreadRole& operator=(const MainThreadRole&) = delete;
};

/// Waits, as python3 does before it exits, for the non-daemon threads the script left running.
/// The script's own error (if any) is kept aside meanwhile; false (with the new error set) when
/// the wait itself was interrupted, by a stop.
bool waitForScriptThreads()
{
    PyObject* type = nullptr;
    PyObject* value = nullptr;
    PyObject* traceback = nullptr;
    PyErr_Fetch(&type, &value, &traceback);
    static PyObject* wait = py::object(py::module_::import("_gradstep_host").attr("_wait_for_threads")).release().ptr();
    if (PyObject* done = PyObject_CallNoArgs(wait)) {
        Py_DECREF(done);
        PyErr_Restore(type, value, traceback);
        return true;
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    return false;
}

/// sys.exit(None / 0) is a normal end; any other code is reported like an error.
ExecResult systemExit(py::error_already_set& error, const UserFiles& files)
{
    py::object code = py::getattr(error.value(), "code", py::none());
    if (code.is_none() || (PyLong_Check(code.ptr()) && PyLong_AsLong(code.ptr()) == 0))
        return {};
    Diagnostic d = diagnoseException(error.type(), error.value(), error.trace(), files);
    d.message = PyLong_Check(code.ptr()) ? "exit status " + utf8(code) : utf8(code);
    return {ExecEnd::Failed, std::move(d)};
}

ExecResult compileAndRun(const std::string& source, const UserFiles& files, const RunEnvironment& env,
                         const UserCodeHook& hook)
{
    py::object code;
    try {
        code = py::module_::import("builtins").attr("compile")(py::bytes(source), files.script(), "exec", 0, true);
    } catch (py::error_already_set& e) {
        if (e.matches(PyExc_MemoryError) || e.matches(PyExc_RecursionError))
            return {ExecEnd::Failed, diagnoseCompileOverflow(e.type(), e.value(), source, files)};
        return {ExecEnd::Failed, diagnoseException(e.type(), e.value(), e.trace(), files)};
    }
    py::dict globals = env.globals();
    const MainThreadRole role;
    hook(true);
    PyObject* result = PyEval_EvalCode(code.ptr(), globals.ptr(), globals.ptr());
    if (!waitForScriptThreads()) {
        // Stopped while waiting: the stop is what the run reports, at the script's file (the
        // interrupted frame is threading's).
        Py_XDECREF(result);
        hook(false);
        PyErr_Clear();
        Diagnostic d;
        d.span.file = files.script();
        d.span.displayFile = files.display(files.script());
        std::string names;
        for (py::handle name : py::module_::import("_gradstep_host").attr("_waiting_for"))
            names += (names.empty() ? "" : ", ") + utf8(name);
        d.message = "waiting for threads the script started and did not mark daemon (python3 waits for "
                    "them too): " + names;
        return {ExecEnd::Stopped, std::move(d)};
    }
    hook(false);
    if (result) {
        Py_DECREF(result);
        return {};
    }
    py::error_already_set error;
    if (error.matches(stopExceptionType())) {
        Diagnostic d = diagnoseException(error.type(), error.value(), error.trace(), files);
        d.type.clear();
        d.notes.clear();
        d.message.clear();
        return {ExecEnd::Stopped, std::move(d)};
    }
    if (error.matches(PyExc_SystemExit))
        return systemExit(error, files);
    if (error.matches(scriptExitedType())) {
        std::optional<Diagnostic> exited = scriptExitDiagnostic(error, files);
        if (!exited)
            return {};
        return {ExecEnd::Failed, std::move(*exited)};
    }
    return {ExecEnd::Failed, diagnoseException(error.type(), error.value(), error.trace(), files)};
}

} // namespace

PyObject* stopExceptionType()
{
    static PyObject* type = py::module_::import("_gradstep_host").attr("ScriptStopped").ptr();
    return type;
}

ExecResult executeScript(const RunRequest& request, const UserFiles& files, const UserCodeHook& hook)
{
    std::string source, error;
    if (!readSource(files.script(), source, error))
        return {ExecEnd::Failed, fileDiagnostic(files, "OSError", "cannot read the script: " + error)};
    Diagnostic nul = fileDiagnostic(files, "SyntaxError", "source code cannot contain null bytes");
    if (findNulByte(source, nul.span.line, nul.span.column)) {
        nul.sourceLine = lineOfSource(source, nul.span.line);
        return {ExecEnd::Failed, std::move(nul)};
    }
    try {
        RunEnvironment env(request, files);
        return compileAndRun(source, files, env, hook);
    } catch (py::error_already_set& e) {
        return {ExecEnd::Failed, diagnoseException(e.type(), e.value(), e.trace(), files)};
    } catch (const RunCheckpointError& e) {
        Diagnostic d;
        d.span.file = d.span.displayFile = e.path();
        d.type = "RuntimeError";
        d.message = std::string("cannot load this checkpoint into the script's network: ") + e.what();
        return {ExecEnd::Failed, std::move(d)};
    }
}

} // namespace gradstep::python
