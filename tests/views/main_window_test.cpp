// The MainWindow driven offscreen over a real Session: open a sample, step into, and check the
// source line, the graph's node states, the gradients against the Session and a screenshot;
// File > Open Checkpoint loads a checkpoint into the network.
// Waits are generous (a loaded 2-core machine). SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include <catch2/catch.hpp>

#include "python/host/host.h"
#include "tests/views/window_test_support.h"
#include "display/display_graph.h"
#include "views/charts_view.h"
#include "views/window/compare_view.h"
#include "views/console_view.h"
#include "views/graph_picture.h"
#include "views/gradients_table.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/window/main_window.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QImage>
#include <QScreen>
#include <QTemporaryDir>
#include <cmath>

using namespace gradstep;
using namespace gradstep::views;
using test::openWindow;
using test::stepInto;
using test::waitForStop;

TEST_CASE("stepping into the LeNet5 sample marks the source line and the graph's current node")
{
    python::Host::start();
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    window.openScript(test::sample("lenet5_digits.py"));
    auto state = waitForStop(window, 0);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Paused);
    for (int i = 0; i < 3; ++i)
        state = stepInto(window);
    REQUIRE(state);
    REQUIRE(state->node);
    CHECK(state->nodesExecuted == 4);
    CHECK(window.sourceView()->currentLine() == state->node->location.line);
    CHECK(window.sourceView()->currentLine() > 0);
    GraphView* graph = window.graphView();
    REQUIRE(graph->waitForLayout());
    const int current = graph->currentNode();
    REQUIRE(current >= 0);
    CHECK(graph->picture().nodes[std::size_t(current)].records.front() == state->node->seq);
    int executed = 0;
    for (std::size_t i = 0; i < graph->picture().nodes.size(); ++i)
        executed += graph->picture().nodes[i].kind == PictureKind::Op && graph->nodeState(int(i)) == NodeState::Executed;
    CHECK(executed == int(state->records.size()) - 1);
    CHECK(window.statusText().contains(QStringLiteral("step 1")));
    const QImage shot = window.grab().toImage();
    CHECK(shot.width() > 100);
    CHECK(shot.height() > 100);
    // File > Export Graph writes what the view draws.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    REQUIRE(window.exportGraph(dir.filePath(QStringLiteral("step.svg"))));
    REQUIRE(window.exportGraph(dir.filePath(QStringLiteral("step.png"))));
    QFile svg(dir.filePath(QStringLiteral("step.svg")));
    REQUIRE(svg.open(QIODevice::ReadOnly));
    CHECK(svg.readAll().contains(QByteArray::fromStdString(state->node->op)));
    QFile png(dir.filePath(QStringLiteral("step.png")));
    REQUIRE(png.open(QIODevice::ReadOnly));
    CHECK(png.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    CHECK_FALSE(window.exportGraph(dir.filePath(QStringLiteral("step.bmp"))));
}

TEST_CASE("after the first training step the gradient table holds the Session's gradients")
{
    python::Host::start();
    MainWindow window(false);
    window.show();
    window.openScript(test::sample("lenet5_digits.py"));
    REQUIRE(waitForStop(window, 0));
    const std::uint64_t shown = window.statesShown();
    REQUIRE(window.bridge().session()->runToEndOfStep());
    const auto state = waitForStop(window, shown);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Paused);
    REQUIRE_FALSE(state->gradients.empty());
    const GradientsTable* table = window.gradientsTable();
    REQUIRE(table->rowCount() == int(state->gradients.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const debug::ParameterGradient& g = state->gradients[std::size_t(row)];
        CHECK(table->text(row, GradientsTable::Name).toStdString() == g.name);
        if (g.gradient.defined()) {
            CHECK(table->value(row, GradientsTable::Norm) == Approx(g.stats.l2Norm));
            CHECK(table->value(row, GradientsTable::MaxAbs) == Approx(g.stats.maxAbs));
        }
    }
    // The next step's graph is drawn whole from this one: later nodes are pending.
    REQUIRE(window.bridge().session()->stepInto());
    REQUIRE(waitForStop(window, window.statesShown()));
    REQUIRE(window.graphView()->waitForLayout());
    int pending = 0;
    for (std::size_t i = 0; i < window.graphView()->picture().nodes.size(); ++i)
        pending += window.graphView()->nodeState(int(i)) == NodeState::Pending;
    CHECK(pending > 10);
}

TEST_CASE("File > Open Checkpoint restarts the run with the checkpoint loaded into the network")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString ckpt = dir.filePath(QStringLiteral("dense.ckpt"));
    const auto write = [&dir](const QString& name, const QString& text) {
        QFile file(dir.filePath(name));
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(text.toUtf8());
        return dir.filePath(name);
    };
    // Weights 7 and biases 0.5: the loss of ones(1, 3) is then 2 * (3 * 7 + 0.5) = 43.
    const QString save = write(QStringLiteral("save.py"), QStringLiteral(
        "import numpy as np, mindspore as ms\nfrom mindspore import nn\nnet = nn.Dense(3, 2)\n"
        "net.weight.set_data(ms.Tensor(np.full((2, 3), 7.0, np.float32)))\n"
        "net.bias.set_data(ms.Tensor(np.full((2,), 0.5, np.float32)))\n"
        "ms.save_checkpoint(net, r'%1')\nnet(ms.Tensor(np.ones((1, 3), np.float32)))\n").arg(ckpt));
    const QString train = write(QStringLiteral("train.py"), QStringLiteral(
        "import numpy as np, mindspore as ms\nfrom mindspore import nn\nnet = nn.Dense(3, 2)\n"
        "grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())\n"
        "loss, _ = grad_fn(ms.Tensor(np.ones((1, 3), np.float32)))\n"));

    std::unique_ptr<MainWindow> window = openWindow(save);
    std::uint64_t shown = window->statesShown();
    window->continueRun();
    auto state = waitForStop(*window, shown);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Finished);
    REQUIRE(QFile::exists(ckpt));

    window->openScript(train);
    REQUIRE(waitForStop(*window, window->statesShown()));
    shown = window->statesShown();
    window->openCheckpoint(ckpt);
    REQUIRE(waitForStop(*window, shown));
    shown = window->statesShown();
    REQUIRE(window->bridge().session()->runToEndOfStep());
    state = waitForStop(*window, shown);
    REQUIRE(state);
    CHECK(state->loss == Approx(43.0));
    CHECK(window->console()->toPlainText().contains(QStringLiteral("loaded 2 of 2 Parameters of Dense")));

    // Another script starts without it: a checkpoint belongs to the script it was opened for.
    window->openScript(train);
    REQUIRE(waitForStop(*window, window->statesShown()));
    CHECK_FALSE(window->bridge().options().overrides.checkpoint.has_value());
}

TEST_CASE("after another script is opened the graph's labels are that script's, as the Session has them")
{
    // Two scripts of the same graph structure but other shapes: a layout of the first must not
    // lend the second its labels.
    std::unique_ptr<MainWindow> window = openWindow(test::sample("has_aux_pitfall.py"));
    const std::uint64_t shown = window->statesShown();
    REQUIRE(window->bridge().session()->runToEndOfStep());
    REQUIRE(waitForStop(*window, shown));
    REQUIRE(window->graphView()->waitForLayout());
    for (const char* script : {"nan_from_log.py", "has_aux_pitfall.py"}) {
        window->openScript(test::sample(script));
        auto state = waitForStop(*window, 0);
        for (int node = 1; node <= 3; ++node) {
            REQUIRE(state);
            REQUIRE(window->graphView()->waitForLayout());
            const display::DisplayGraph expected = display::buildFromRecords(state->records);
            int compared = 0;
            for (const PictureNode& drawn : window->graphView()->picture().nodes)
                for (const display::DisplayNode& truth : expected.nodes)
                    if (QString::fromStdString(truth.key) == drawn.key) {
                        INFO(script << " at node " << node << ": " << drawn.key.toStdString());
                        CHECK(drawn.detail.toStdString() == truth.detail);
                        ++compared;
                    }
            CHECK(compared >= node);
            state = stepInto(*window);
        }
    }
}

TEST_CASE("nothing of the previous script or run stays on screen: graph, charts, compare, selected lines")
{
    std::unique_ptr<MainWindow> window = openWindow(test::sample("linear_regression.py"));
    std::uint64_t shown = window->statesShown();
    window->runSteps(2);
    REQUIRE(waitForStop(*window, shown));
    REQUIRE(window->graphView()->waitForLayout());
    REQUIRE_FALSE(window->graphView()->picture().nodes.empty());
    REQUIRE(window->chartsView()->lossPoints() == 2);
    window->sourceView()->setLinkedLines({21});

    // Restart: the charts start over with the run.
    window->restart();
    CHECK(window->chartsView()->lossPoints() == 0);
    REQUIRE(waitForStop(*window, 0));

    // A script with a syntax error: its run fails at once and shows no graph, not the last one.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString broken = dir.filePath(QStringLiteral("broken.py"));
    QFile file(broken);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("import mindspore\ndef f(:\n");
    file.close();
    shown = window->statesShown();
    window->openScript(broken);
    const auto failed = waitForStop(*window, shown);
    REQUIRE(failed);
    CHECK(failed->status == debug::SessionStatus::Failed);
    test::spin(300);
    CHECK(window->graphView()->picture().nodes.empty());
    CHECK(window->chartsView()->lossPoints() == 0);
    CHECK(window->sourceView()->linkedLines().isEmpty());
    CHECK_FALSE(window->compareView()->comparison().has_value());
}

TEST_CASE("a parameter or input node shows its value at any time, and a Gradients row its gradient")
{
    std::unique_ptr<MainWindow> window = openWindow(test::sample("lenet5_digits.py"));
    REQUIRE(window->graphView()->waitForLayout());
    const auto find = [&](const char* key) {
        return window->graphView()->picture().findNode(QString::fromLatin1(key));
    };
    // At the first node (conv1's Conv2D) its weight and input were read: both show.
    const int weight = find("P:F:conv1.weight");
    REQUIRE(weight >= 0);
    emit window->graphView()->nodeActivated(weight); // as a click does
    CHECK(window->inspector()->tensorCount() == 1);
    CHECK(window->inspector()->statText(QStringLiteral("shape")) == QStringLiteral("[6, 1, 5, 5]"));
    int input = -1;
    for (std::size_t i = 0; i < window->graphView()->picture().nodes.size(); ++i)
        if (window->graphView()->picture().nodes[i].kind == PictureKind::Input)
            input = int(i);
    REQUIRE(input >= 0);
    emit window->graphView()->nodeActivated(input);
    CHECK(window->inspector()->tensorCount() == 1);
    CHECK(window->inspector()->statText(QStringLiteral("shape")).startsWith(QStringLiteral("[32, 1,")));

    // At the end of the step the Gradients row shows the value and the gradient.
    const std::uint64_t shown = window->statesShown();
    REQUIRE(window->bridge().session()->runToEndOfStep());
    REQUIRE(waitForStop(*window, shown));
    emit window->gradientsTable()->parameterSelected(QStringLiteral("conv1.weight"));
    CHECK(window->inspector()->tensorCount() == 2);
}

TEST_CASE("Step Back says where the view went, and the window fits the screen it opens on")
{
    std::unique_ptr<MainWindow> window = openWindow(test::sample("linear_regression.py"));
    REQUIRE(stepInto(*window, 3));
    const QString live = window->statusText();
    const std::uint64_t shown = window->statesShown();
    window->stepBack();
    REQUIRE(test::waitFor([&] { return window->statesShown() > shown; }));
    CHECK(window->statusText() != live);
    CHECK(window->statusText().contains(QStringLiteral("back at")));
    CHECK(window->statusText().contains(QStringLiteral("time travel")));

    MainWindow fresh(false);
    const QRect available = fresh.screen()->availableGeometry();
    CHECK(fresh.width() <= available.width());
    CHECK(fresh.height() <= available.height());
}
TEST_CASE("at the end of a run that evaluates after training the graph shows the last training step")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString script = dir.filePath(QStringLiteral("train_then_eval.py"));
    QFile file(script);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("import numpy as np, mindspore as ms\n"
               "from mindspore import nn\n"
               "net = nn.Dense(3, 2)\n"
               "opt = nn.SGD(net.trainable_params(), 0.1)\n"
               "x = ms.Tensor(np.ones((4, 3), np.float32))\n"
               "grad_fn = ms.value_and_grad(lambda d: net(d).sum(), None, net.trainable_params())\n"
               "for _ in range(2):\n"
               "    loss, grads = grad_fn(x)\n"
               "    opt(grads)\n"
               "for _ in range(4):\n"
               "    net(x)\n");
    file.close();
    std::unique_ptr<MainWindow> window = openWindow(script);
    const std::uint64_t shown = window->statesShown();
    window->continueRun();
    const auto state = waitForStop(*window, shown);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Finished);
    REQUIRE(state->history.size() == 2);
    CHECK(state->records.size() == 8); // the four forward calls: MatMul and BiasAdd each
    REQUIRE(window->graphView()->waitForLayout());
    // Before: the graph drew the four calls side by side; now step 2's forward, backward and update.
    const display::DisplayGraph expected =
        display::buildFromRecords(window->bridge().session()->recorder().stepRecords(2));
    std::size_t ops = 0;
    for (const display::DisplayNode& n : expected.nodes)
        if (window->graphView()->picture().findNode(QString::fromStdString(n.key)) >= 0)
            ++ops;
    CHECK(ops == expected.nodes.size());
    CHECK(window->graphView()->picture().nodes.size() == expected.nodes.size());
    CHECK(window->console()->toPlainText().contains(
        QStringLiteral("The graph shows step 2, the last training step. The 8 nodes that ran after it")));
}

#endif

TEST_CASE("the window's memory cap reaches its runs: a step bigger than the cap drops its oldest snapshots")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("big.py"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    // Eight 1 MiB intermediate tensors (and their gradients) in one step.
    file.write("import numpy as np, mindspore as ms\n"
               "x = ms.Tensor(np.ones((512, 512), np.float32))\n"
               "def f(x):\n"
               "    for _ in range(8):\n"
               "        x = x * 1.0001\n"
               "    return x.sum()\n"
               "ms.grad(f)(x)\n");
    file.close();
    python::Host::start();
    for (const std::size_t cap : {std::size_t{1} << 20, std::size_t{1} << 30}) {
        auto window = std::make_unique<MainWindow>(false);
        window->setMemoryCap(cap);
        window->show();
        window->openScript(path);
        REQUIRE(waitForStop(*window, 0));
        CHECK(window->bridge().options().memoryCapBytes == cap);
        const std::uint64_t shown = window->statesShown();
        REQUIRE(window->bridge().session()->runToEndOfStep());
        const auto state = waitForStop(*window, shown);
        REQUIRE(state);
        if (cap == std::size_t{1} << 20)
            CHECK(state->dropped.snapshots > 0);
        else
            CHECK(state->dropped.snapshots == 0);
    }
}
