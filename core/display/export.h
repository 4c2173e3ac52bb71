// Writing a laid-out graph: SVG, PNG and PDF are drawn by Graphviz's own renderers (core SVG,
// cairo PNG/PDF) from DOT text that pins every position we computed, so the picture is the
// LayoutResult the Qt view draws, cross links included; DOT is the graph as text for `dot`.
// Every file is written atomically (a temporary file beside it, then a rename).
// SPDX-License-Identifier: MIT
#pragma once

#include "display/layout.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gradstep::display {

enum class ExportFormat : std::uint8_t { Svg, Png, Pdf, Dot };

/// "svg", "png", "pdf", "dot" (also "gv"); nullopt otherwise.
std::optional<ExportFormat> parseExportFormat(std::string_view text);
const char* exportFormatName(ExportFormat format);

/// The graph as DOT for `dot` to lay out: clusters, labels, colours; backward edges reversed
/// with dir=back when mirroring; cross links dashed with constraint=false.
std::string toDot(const DisplayGraph& graph, const LayoutOptions& options = {});
/// The laid-out graph as DOT with every position pinned (pos, bb, lp): `neato -n2` and the
/// nop2 engine draw it as it is.
std::string toPositionedDot(const LayoutResult& layout);

/// Writes `layout` to `path`. svg/png/pdf render on the LayoutEngine's worker thread. Throws
/// gradstep::RuntimeError naming the path when it cannot be written.
void exportGraph(const LayoutResult& layout, ExportFormat format, const std::filesystem::path& path,
                 const LayoutOptions& options = {});

/// Writes `contents` to a temporary file beside `path`, then renames it over `path`.
void writeFileAtomically(const std::filesystem::path& path, std::string_view contents);

} // namespace gradstep::display
