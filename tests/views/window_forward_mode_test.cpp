// The window on samples/forward_mode.py: a node ops.jvp reached shows its tangent (inspector's
// Tangent tab) and its forward-mode chain rule, offscreen. SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include <catch2/catch.hpp>

#include "tests/views/window_test_support.h"
#include "views/gradients_table.h"
#include "views/tensor_inspector.h"
#include "views/window/main_window.h"

#include <QTableWidget>
#include <cmath>

using namespace gradstep;
using namespace gradstep::views;
using test::stepInto;

TEST_CASE("a node ops.jvp reached shows its tangent and explains forward mode with its numbers")
{
    auto window = test::openWindow(test::sample("forward_mode.py"));
    auto state = window->bridge().state();
    for (int i = 0; i < 10 && state && !(state->node && state->node->op == "Tanh"); ++i)
        state = stepInto(*window);
    REQUIRE(state);
    REQUIRE(state->node->op == "Tanh");
    const debug::NodeRecord& tanh = *state->node;
    REQUIRE(tanh.hasTangents());
    CHECK(tanh.tangentsByRule);
    REQUIRE(tanh.outputTangents.size() == 1);
    const Tensor y = tanh.outputs[0].snapshot;
    const Tensor dx = tanh.inputTangents[0].snapshot;
    const Tensor dy = tanh.outputTangents[0].snapshot;
    REQUIRE((y.defined() && dx.defined() && dy.defined()));
    for (std::int64_t k = 0; k < y.numel(); ++k)
        CHECK(dy.at(k) == Approx((1 - y.at(k) * y.at(k)) * dx.at(k)).epsilon(1e-12));

    TensorInspector* inspector = window->inspector();
    REQUIRE(inspector->chainRuleShown());
    const ChainRule& rule = *inspector->chainRuleView()->rule();
    CHECK(rule.mode == ChainMode::Forward);
    CHECK(rule.op == QStringLiteral("Tanh"));
    REQUIRE(rule.incoming.size() == 1);
    CHECK(rule.incoming[0].name == QStringLiteral("dx"));
    REQUIRE(rule.inputs.size() == 1);
    CHECK(rule.inputs[0].local == QStringLiteral("dy = (1 - y²) · dx"));
    // The measured dy ÷ dx is tanh's derivative 1 - y² at the shown elements.
    REQUIRE(rule.inputs[0].ratio);
    REQUIRE(!rule.inputs[0].ratio->empty());
    for (std::size_t p = 0; p < rule.inputs[0].ratio->size(); ++p) {
        const double yk = y.at(rule.positions[p]);
        CHECK((*rule.inputs[0].ratio)[p] == Approx(1 - yk * yk).epsilon(1e-9));
    }
    CHECK(inspector->chainRuleView()->plainText().contains(QStringLiteral("forward mode (jvp): dy = J · dx")));

    // The Tangent tab holds dy beside the Values tab's y (output 0 is the tensor shown first).
    inspector->setCurrentIndex(0);
    REQUIRE(inspector->tangentTabEnabled());
    const QTableWidget* table = inspector->tangentTable();
    REQUIRE(table->columnCount() == int(dy.numel()));
    CHECK(table->item(0, 0)->text() == formatNumber(dy.at(0)));
    CHECK(inspector->valuesTable()->item(0, 0)->text() == formatNumber(y.at(0)));
}
#endif
