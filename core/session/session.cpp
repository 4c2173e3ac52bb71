// Session control: loading, commands from any thread, the monitor thread that sees the run end,
// breakpoint and watchpoint edits. SPDX-License-Identifier: MIT
#include "session/session_impl.h"

#include "python/host/code_lines.h"
#include "tensor/errors.h"

#include <algorithm>

namespace gradstep::debug {

namespace {

RecorderOptions recorderOptions(const SessionOptions& o)
{
    RecorderOptions r;
    r.memoryCapBytes = o.memoryCapBytes;
    r.snapshots = o.recording == Recording::Full;
    r.parameterHistograms = o.recording != Recording::Off;
    return r;
}

} // namespace

Session::Impl::Impl(SessionOptions o)
    : options(std::move(o)), files(options.script), recorder(recorderOptions(options))
{
    for (const std::string& text : options.breakpoints)
        breakpoints.add(text);
    for (const std::string& list : options.watchpoints)
        watchpoints.add(list);
    refreshPoints();
}

void Session::Impl::refreshPoints()
{
    anyPoints = !breakpoints.all().empty() || !watchpoints.all().empty();
    anyLinePoints = breakpoints.anyLine();
    // Only the overflow watchpoint needs the float32 re-runs, so only it pays for them.
    recorder.setHalfPrecisionChecks(std::any_of(watchpoints.all().begin(), watchpoints.all().end(),
                                                [](const Watchpoint& wp) { return wp.kind == Watchpoint::Kind::HalfPrecisionOverflow; }));
}

std::string Session::Impl::lineProblem(const Breakpoint& bp, bool finished) const
{
    if (bp.kind != Breakpoint::Kind::SourceLine)
        return {};
    if (bp.inFile(files.script()) && !scriptLines.empty()
        && !std::binary_search(scriptLines.begin(), scriptLines.end(), bp.line))
        return "no code on line " + std::to_string(bp.line);
    if (!finished || !bp.enabled || bp.hitCount > 0)
        return {};
    if (lineTraceDisplaced)
        return "the script replaced gradstep's line tracing with its own (sys.settrace), and line "
               + std::to_string(bp.line) + " ran no tensor op";
    return "line " + std::to_string(bp.line) + " never ran";
}

void Session::Impl::verifyLines(bool finished)
{
    for (Breakpoint& bp : breakpoints.mutableAll())
        bp.unverified = lineProblem(bp, finished);
}

void Session::Impl::notify(const std::shared_ptr<const SessionState>& s)
{
    Listener copy;
    {
        std::lock_guard lock(mutex);
        copy = listener;
    }
    if (copy)
        copy(*s);
}

void Session::Impl::publish(std::shared_ptr<const SessionState> s, bool live)
{
    {
        std::lock_guard lock(mutex);
        status = s->status;
        state = s;
        if (live)
            liveState = s;
    }
    changed.notify_all();
}

void Session::Impl::start(ActiveCommand first)
{
    w = WorkerState{};
    w.active = first;
    w.active.stepsLeft = first.command.steps;
    continuing = first.command.kind == RunCommand::Kind::Continue && !first.replay;
    cancelling = false;
    pauseRequested = false;
    recorder.clear();
    recorder.setGraphNodeResolver([this](const GraphNode& node) { return resolveGraphNode(node); });
    recorder.stepStarted(1);
    {
        std::vector<int> lines = python::codeLines(options.script);
        std::lock_guard lock(pointsMutex);
        scriptLines = std::move(lines);
        breakpoints.resetHits();
        lineTraceDisplaced = false;
        verifyLines(false);
    }

    auto running = std::make_shared<SessionState>();
    running->status = SessionStatus::Running;
    running->step = 1;
    publish(running, true);

    python::RunRequest request;
    request.script = options.script;
    request.args = options.args;
    request.timeout = options.timeout;
    request.output = options.output;
    request.observer = &observer;
    request.lines = &lines;
    request.apiProfile = options.apiProfile;
    request.overrides = options.overrides;
    try {
        runner.start(std::move(request));
    } catch (...) {
        publish(std::make_shared<SessionState>(), true);
        throw;
    }
    monitor = std::thread(&Impl::monitorMain, this);
}

void Session::Impl::monitorMain()
{
    const python::RunResult result = runner.wait();
    finishRun(result);
}

std::string Session::Impl::neverStoppedLines()
{
    // Saying nothing about a line breakpoint that never stopped would look like a debugger that
    // ignores breakpoints.
    std::lock_guard lock(pointsMutex);
    verifyLines(true);
    std::string out;
    for (const Breakpoint& bp : breakpoints.all())
        if (bp.enabled && !bp.unverified.empty())
            out += "; breakpoint " + std::to_string(bp.id) + " (" + bp.toString() + ") never stopped: " + bp.unverified;
    return out;
}

void Session::Impl::finishRun(const python::RunResult& result)
{
    if (!cancelling && w.gradDone && !w.stepEnded) {
        // The last step computed gradients but had no optimizer: close it for the history.
        w.active.replay = true; // nothing may pause now
        endStep(nullptr);
    }
    PauseInfo why;
    SessionStatus s = SessionStatus::Finished;
    if (cancelling || result.status == python::RunStatus::Stopped) {
        s = SessionStatus::Cancelled;
        why.reason = PauseReason::Cancelled;
        // Given up on while blocked (Note [Giving up on a blocked script]): say where and why.
        why.message = result.abandoned && result.diagnostic ? result.diagnostic->message : "cancelled";
    } else if (result.status == python::RunStatus::Ok) {
        why.reason = PauseReason::End;
        const std::size_t steps = recorder.history().size();
        why.message = "the script finished after " + std::to_string(steps)
                      + (steps == 1 ? " training step" : " training steps") + neverStoppedLines();
    } else {
        s = SessionStatus::Failed;
        why.reason = PauseReason::Error;
        why.message = result.diagnostic ? result.diagnostic->headline() : std::string("the script failed");
    }
    why.condition = pauseReasonName(why.reason);
    auto final = buildState(s, std::move(why));
    if (s == SessionStatus::Failed || (s == SessionStatus::Cancelled && result.abandoned))
        final->diagnostic = result.diagnostic;
    publish(final, true);
    notify(final);
}

void Session::Impl::stopAndJoin()
{
    if (monitor.joinable()) {
        {
            std::lock_guard lock(mutex); // a paused worker checks the flag under it
            cancelling = true;
        }
        runner.stop();
        changed.notify_all();
        monitor.join();
    }
}

Session::Session(SessionOptions options) : m_impl(std::make_unique<Impl>(std::move(options))) {}

Session::~Session()
{
    cancel();
    m_impl->stopAndJoin();
}

void Session::setListener(Listener listener)
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->listener = std::move(listener);
}

void Session::load(RunCommand first)
{
    {
        std::lock_guard lock(m_impl->mutex);
        if (m_impl->status == SessionStatus::Running || m_impl->status == SessionStatus::Paused)
            throw RuntimeError("the session is running a script already: cancel or restart it");
    }
    if (m_impl->monitor.joinable())
        m_impl->monitor.join();
    ActiveCommand a;
    a.command = first;
    m_impl->start(a);
}

void Session::loadAt(std::int64_t step, std::uint64_t seq)
{
    {
        std::lock_guard lock(m_impl->mutex);
        if (m_impl->status == SessionStatus::Running || m_impl->status == SessionStatus::Paused)
            throw RuntimeError("the session is running a script already: cancel or restart it");
    }
    if (m_impl->monitor.joinable())
        m_impl->monitor.join();
    ActiveCommand replay;
    replay.replay = true;
    replay.targetStep = step;
    replay.targetSeq = seq;
    m_impl->start(replay);
}

bool Session::resume(RunCommand command)
{
    Impl& impl = *m_impl;
    std::unique_lock lock(impl.mutex);
    if (impl.status != SessionStatus::Paused)
        return false;
    if (impl.state->timeTravel && command.kind == RunCommand::Kind::StepInto) {
        const auto& records = impl.liveState->records;
        const std::uint64_t shown = impl.state->node->seq;
        auto it = std::find_if(records.begin(), records.end(), [&](const RecordPtr& r) { return r->seq == shown; });
        RecordPtr next = it == records.end() || it + 1 == records.end() ? impl.liveState->node : *(it + 1);
        lock.unlock();
        return impl.showRecord(next);
    }
    ActiveCommand a;
    a.command = command;
    impl.next = a;
    impl.status = SessionStatus::Running;
    auto running = std::make_shared<SessionState>(*impl.liveState);
    running->status = SessionStatus::Running;
    impl.state = running;
    lock.unlock();
    impl.changed.notify_all();
    return true;
}

void Session::pause()
{
    std::lock_guard lock(m_impl->mutex);
    if (m_impl->status == SessionStatus::Running)
        m_impl->pauseRequested = true;
}

void Session::cancel()
{
    {
        std::lock_guard lock(m_impl->mutex); // a paused worker checks the flag under it
        m_impl->cancelling = true;
        // Waiters for the end must not take the pause being left for it.
        if (m_impl->status == SessionStatus::Paused)
            m_impl->status = SessionStatus::Running;
    }
    m_impl->runner.stop();
    m_impl->changed.notify_all();
}

void Session::restart(RunCommand first)
{
    m_impl->stopAndJoin();
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->status = SessionStatus::Idle;
    }
    load(first);
}

bool Session::waitForPause(std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(m_impl->mutex);
    return m_impl->changed.wait_for(lock, timeout, [&] { return m_impl->status != SessionStatus::Running; });
}

SessionStatus Session::status() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->status;
}

std::shared_ptr<const SessionState> Session::state() const
{
    std::lock_guard lock(m_impl->mutex);
    return m_impl->state;
}

int Session::addBreakpoint(std::string_view text)
{
    Breakpoint bp = parseBreakpoint(text);
    std::lock_guard lock(m_impl->pointsMutex);
    bp.unverified = m_impl->lineProblem(bp, false);
    const int id = m_impl->breakpoints.add(std::move(bp));
    m_impl->refreshPoints();
    return id;
}

bool Session::removeBreakpoint(int id)
{
    std::lock_guard lock(m_impl->pointsMutex);
    const bool removed = m_impl->breakpoints.remove(id);
    m_impl->refreshPoints();
    return removed;
}

bool Session::setBreakpointEnabled(int id, bool enabled)
{
    std::lock_guard lock(m_impl->pointsMutex);
    return m_impl->breakpoints.setEnabled(id, enabled);
}

std::vector<Breakpoint> Session::breakpoints() const
{
    std::lock_guard lock(m_impl->pointsMutex);
    return m_impl->breakpoints.all();
}

std::vector<int> Session::addWatchpoints(std::string_view list)
{
    std::vector<Watchpoint> parsed = parseWatchpoints(list);
    std::lock_guard lock(m_impl->pointsMutex);
    std::vector<int> ids;
    for (Watchpoint& wp : parsed)
        ids.push_back(m_impl->watchpoints.add(std::move(wp)));
    m_impl->refreshPoints();
    return ids;
}

bool Session::removeWatchpoint(int id)
{
    std::lock_guard lock(m_impl->pointsMutex);
    const bool removed = m_impl->watchpoints.remove(id);
    m_impl->refreshPoints();
    return removed;
}

bool Session::setWatchpointEnabled(int id, bool enabled)
{
    std::lock_guard lock(m_impl->pointsMutex);
    return m_impl->watchpoints.setEnabled(id, enabled);
}

std::vector<Watchpoint> Session::watchpoints() const
{
    std::lock_guard lock(m_impl->pointsMutex);
    return m_impl->watchpoints.all();
}

const Recorder& Session::recorder() const { return m_impl->recorder; }

void Session::setMemoryCap(std::size_t bytes) { m_impl->recorder.setMemoryCap(bytes); }

const SessionOptions& Session::options() const { return m_impl->options; }

} // namespace gradstep::debug
