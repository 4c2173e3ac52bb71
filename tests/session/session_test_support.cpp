// SPDX-License-Identifier: MIT
#include "tests/session/session_test_support.h"

#include <catch2/catch.hpp>

namespace gradstep::debug::test {

const char* const kTrainScript = "import numpy as np\n"                                           // 1
                                 "import mindspore as ms\n"                                       // 2
                                 "from mindspore import Tensor, nn, ops\n"                        // 3
                                 "\n"                                                             // 4
                                 "ms.set_seed(1)\n"                                               // 5
                                 "net = nn.Dense(3, 2)\n"                                         // 6
                                 "loss_fn = nn.MSELoss()\n"                                       // 7
                                 "opt = nn.SGD(net.trainable_params(), learning_rate=0.1)\n"      // 8
                                 "x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))\n"
                                 "y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))\n"   // 10
                                 "def forward_fn(data, label):\n"                                 // 11
                                 "    out = net(data)\n"                                          // 12
                                 "    return loss_fn(out, label)\n"                               // 13
                                 "grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())\n"
                                 "losses = []\n"                                                  // 15
                                 "for i in range(3):\n"                                           // 16
                                 "    loss, grads = grad_fn(x, y)\n"                              // 17
                                 "    opt(grads)\n"                                               // 18
                                 "    losses.append(float(loss))\n";                              // 19

ScriptSession::ScriptSession(const std::string& source, SessionOptions options)
{
    python::test::ensureHost();
    options.script = dir.write("main.py", source);
    session = std::make_unique<Session>(std::move(options));
}

std::shared_ptr<const SessionState> waitStopped(Session& session)
{
    REQUIRE(session.waitForPause(kPatience));
    return session.state();
}

std::shared_ptr<const SessionState> stepAndWait(Session& session)
{
    REQUIRE(session.stepInto());
    return waitStopped(session);
}

} // namespace gradstep::debug::test
