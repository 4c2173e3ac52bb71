// Helpers for the Session tests: a script in a fresh directory under a Session, and waits with
// generous limits (the tests run on a loaded two-core machine). SPDX-License-Identifier: MIT
#pragma once

#include "session/session.h"
#include "tests/python/python_test_support.h"

#include <memory>
#include <string>

namespace gradstep::debug::test {

inline constexpr std::chrono::seconds kPatience{120};

/// A tiny training script: Dense(3, 2), MSE, SGD, three steps. Line numbers matter to the tests:
/// 12 and 13 are forward_fn's body, 17 the gradient call, 18 the update.
extern const char* const kTrainScript;

struct ScriptSession {
    python::test::TempDir dir;
    std::unique_ptr<Session> session;

    explicit ScriptSession(const std::string& source, SessionOptions options = {});
    Session& operator*() { return *session; }
    Session* operator->() { return session.get(); }
};

/// Waits for the session to stop running (fails the test after kPatience) and returns its state.
std::shared_ptr<const SessionState> waitStopped(Session& session);
/// stepInto and wait.
std::shared_ptr<const SessionState> stepAndWait(Session& session);

} // namespace gradstep::debug::test
