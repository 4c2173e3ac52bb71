// Eager overhead: a 1-element add with recording off and on, with and without an observer,
// and the backward cost per tape node (a chain of 100 adds, as ../shared/bench/torch_anchor.py).
// SPDX-License-Identifier: MIT
#include "autodiff/context.h"
#include "autodiff/engine.h"
#include "autodiff/observer.h"
#include "nn/parameter.h"
#include "ops/elementwise.h"
#include "tests/bench/timing.h"

using namespace gradstep;
using namespace gradstep::bench;

namespace {
struct NullObserver : ExecutionObserver {
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent&) override {}
};
} // namespace

int main()
{
    Tensor a = Tensor::full(Shape{1}, 1.0);
    Tensor b = Tensor::full(Shape{1}, 2.0);
    Tensor sink;
    report("add, 1 element, not recording", measure([&] { sink = add(a, b); }, 1000));
    {
        NullObserver observer;
        ObserverGuard guard(&observer);
        report("add, 1 element, not recording, no-op observer", measure([&] { sink = add(a, b); }, 1000));
    }
    Parameter p(a, "p");
    // Recording: tapes of 1000 ops, built and freed; the figure is per op.
    Timing recording = measure([&] {
        Tape tape;
        TapeGuard guard(tape);
        for (int i = 0; i < 1000; ++i)
            sink = add(p, b);
    }, 1);
    recording.medianUs /= 1000;
    recording.minUs /= 1000;
    report("add, 1 element, recording (incl. freeing the tape)", recording);
    const Timing chainBuild = measure([&] {
        Tape tape;
        TapeGuard guard(tape);
        Tensor x = p;
        for (int i = 0; i < 100; ++i)
            x = add(x, b);
    }, 10);
    const Timing chainBuildAndBackward = measure([&] {
        Tape tape;
        TapeGuard guard(tape);
        Tensor x = p;
        for (int i = 0; i < 100; ++i)
            x = add(x, b);
        guard.release();
        Tensor seed = Tensor::full(x.shape(), 1.0);
        Tensor targets[] = {p};
        sink = backward(tape, std::span<const Tensor>(&x, 1), std::span<const Tensor>(&seed, 1), targets)[0];
    }, 10);
    std::printf("%-52s median %10.3f us\n", "backward of a 100-add chain (total)",
                chainBuildAndBackward.medianUs - chainBuild.medianUs);
    std::printf("%-52s median %10.3f us\n", "backward per node",
                (chainBuildAndBackward.medianUs - chainBuild.medianUs) / 100);
    return sink.defined() ? 0 : 1;
}
