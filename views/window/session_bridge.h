// The GUI's handle on one debug::Session: owns it, turns its listener (worker thread) and the
// script's output (worker thread, GIL held) into queued signals on the GUI thread, and forwards
// commands. Nothing here waits for the script. SPDX-License-Identifier: MIT
#pragma once

#include "session/session.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <utility>

namespace gradstep::views {

class SessionBridge : public QObject {
    Q_OBJECT
public:
    explicit SessionBridge(QObject* parent = nullptr);
    ~SessionBridge() override;

    /// Replaces the session by a new one with `options` and loads it (pauses after the first
    /// node). The old one is cancelled. Emits failed() when the script cannot start.
    /// `at`: a (training step, record seq) to re-run to silently instead of pausing at the first
    /// node (Session::loadAt), to come back where the user was.
    void open(debug::SessionOptions options, std::optional<std::pair<std::int64_t, std::uint64_t>> at = {});
    /// The same script with new options (what-if switches), breakpoints kept.
    void reopen(debug::SessionOptions options) { open(std::move(options)); }
    void close();

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
    /// A new session was loaded (open or reopen): breakpoint lists give it their conditions.
    void opened();

private:
    void deliver(std::shared_ptr<const debug::SessionState> state, std::uint64_t generation);

    std::unique_ptr<debug::Session> m_session;
    debug::SessionOptions m_options;
    std::shared_ptr<const debug::SessionState> m_state;
    /// Bumped per session, so late states of a replaced session are dropped.
    std::uint64_t m_generation = 0;
};

} // namespace gradstep::views

Q_DECLARE_METATYPE(std::shared_ptr<const gradstep::debug::SessionState>)
