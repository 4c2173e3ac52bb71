// The text form of a graph, one line per node like a jaxpr or MindIR dump:
//   %3 : f32[32, 6, 28, 28] = Conv2D(%x, %conv1.weight) {pad_mode='valid'} @LeNet5/conv1 #
//   lenet.py:12:9
// text_parser.h reads it back; print(parse(print(g))) == print(g). SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <string>

namespace gradstep {

/// Note [Graph text form]. The grammar (text_parser.cpp has one function per rule):
///   graph    := 'graph' '@' NAME signature '{' constant* node* 'return' values '}'
///   signature:= '(' (input (',' input)*)? ')'         input := VALUE ':' type 'param'?
///   constant := VALUE ':' type '=' 'constant' (literal | '[' literals ']' | 'splat' literal)
///   node     := result (',' result)* '=' OP '(' values ')' attrs? phase? origin? scope? location?
///               block*
///   result   := VALUE ':' type ('(' 'buffer' INT ')')?    type := dtype '[' dims ']'
///   attrs    := '{' NAME '=' attr (',' NAME '=' attr)* '}' phase := '[' ('backward'|'update') ']'
///   origin   := 'from' VALUE (a value of the forward node whose backward rule made this node)
///   scope    := '@' PATH                                location := '#' FILE ':' LINE ':' COL
///   block    := NAME signature '{' ... 'return' values '}'   (If: then else; While: cond
///               body; WhileGrad: cond body grad; CustomBprop: construct bprop; fused)
/// Unnamed values print as %0, %1, ... numbered in print order; named ones as %name.
std::string printGraph(const Graph& graph);

// Attribute values and numbers print with ops/attrs.h's attrValueToString(value, AttrText::Exact),
// printDouble and printFloat.

} // namespace gradstep
