// The GUI's handle on one debug::Session: owns it, turns its listener (worker thread) and the
// script's output (worker thread, GIL held; batched) into queued signals on the GUI thread, and
// forwards commands. Nothing here waits for the script: a replaced session is cancelled and
// destroyed on a thread of its own (a script blocked in a call a stop cannot interrupt is given
// up on only seconds later), and the next run starts once it is gone, as the interpreter runs
// one script at a time. SPDX-License-Identifier: MIT
#pragma once

#include "session/session.h"

#include <QObject>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace gradstep::views {

class SessionBridge : public QObject {
    Q_OBJECT
public:
    explicit SessionBridge(QObject* parent = nullptr);
    ~SessionBridge() override;

    /// Replaces the session by a new one with `options` and loads it (pauses after the first
    /// node) once the old one, cancelled, has ended. Emits failed() when the script cannot start.
    /// `at`: a (training step, record seq) to re-run to silently instead of pausing at the first
    /// node (Session::loadAt), to come back where the user was.
    void open(debug::SessionOptions options, std::optional<std::pair<std::int64_t, std::uint64_t>> at = {});
    /// The same script with new options (what-if switches), breakpoints kept.
    void reopen(debug::SessionOptions options) { open(std::move(options)); }
    /// Cancels the session; it ends on a thread of its own (see the header comment).
    void close();
    /// Runs `hook` whenever a session is about to be closed (also by open), while it still
    /// exists: what else uses the session lets go of it first.
    void setBeforeClose(std::function<void()> hook) { m_beforeClose = std::move(hook); }
    /// The next open() loads with `first` instead of pausing after the first node.
    void setFirstCommand(debug::RunCommand first) { m_first = first; }
    /// Runs `then` on the GUI thread once no closed session is still ending (at once when none).
    void afterRetired(std::function<void()> then);
    /// Closed sessions still ending.
    std::size_t retiring() const { return m_retiring.size(); }

    debug::Session* session() const { return m_session.get(); }
    const debug::SessionOptions& options() const { return m_options; }
    /// The latest state delivered on the GUI thread (null before the first).
    std::shared_ptr<const debug::SessionState> state() const { return m_state; }
    /// True while a command runs (between a command and the next state).
    bool busy() const;

signals:
    void stateChanged(std::shared_ptr<const gradstep::debug::SessionState> state);
    void output(const QString& text, bool isError);
    void failed(const QString& message);
    /// A new session exists (open or reopen; it loads once the old one ended): breakpoint lists
    /// give it their conditions.
    void opened();

private:
    void deliver(std::shared_ptr<const debug::SessionState> state, std::uint64_t generation);
    void load(std::uint64_t generation, std::optional<std::pair<std::int64_t, std::uint64_t>> at,
              std::optional<debug::RunCommand> first = {});
    void retired(std::uint64_t id);

    std::unique_ptr<debug::Session> m_session;
    debug::SessionOptions m_options;
    std::shared_ptr<const debug::SessionState> m_state;
    /// Bumped per session, so late states of a replaced session are dropped.
    std::uint64_t m_generation = 0;
    std::map<std::uint64_t, std::thread> m_retiring; ///< closed sessions being destroyed
    std::uint64_t m_nextRetiring = 0;
    std::vector<std::function<void()>> m_afterRetired;
    std::function<void()> m_beforeClose;
    std::optional<debug::RunCommand> m_first; ///< setFirstCommand, for the next open
};

} // namespace gradstep::views

Q_DECLARE_METATYPE(std::shared_ptr<const gradstep::debug::SessionState>)
