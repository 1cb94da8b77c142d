// Cutting a large generated program into translation units that compile at once on several
// cores: every unit repeats the declarations, the definitions are dealt out (codegen.h: UnitPart).
#include <algorithm>
#include <string_view>

#include "codegen/codegen.h"

namespace fitz::codegen {

namespace {

// Lines of definitions a unit should hold at least. Each unit loads the precompiled runtime
// header (about 0.3 s) and parses the shared declarations again, and the linker gets one object
// more; below this a second unit costs more CPU than its core saves (bench/README.md).
constexpr size_t kMinUnitLines = 1500;

size_t count_lines(std::string_view text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

std::vector<std::string> split_units(const GenResult& gen, size_t max_units) {
  if (max_units < 2 || gen.parts.empty()) return {gen.cpp};
  using Kind = UnitPart::Kind;
  struct Segment {
    Kind kind;
    std::string_view text;
    size_t lines;
  };
  std::vector<Segment> segments;
  size_t piece_lines = 0, once_lines = 0;
  for (size_t i = 0; i < gen.parts.size(); ++i) {
    size_t begin = gen.parts[i].offset;
    size_t end = i + 1 < gen.parts.size() ? gen.parts[i + 1].offset : gen.cpp.size();
    std::string_view text(gen.cpp.data() + begin, end - begin);
    segments.push_back({gen.parts[i].kind, text, count_lines(text)});
    if (gen.parts[i].kind == Kind::Piece) piece_lines += segments.back().lines;
    if (gen.parts[i].kind == Kind::Once) once_lines += segments.back().lines;
  }
  size_t units = std::min(max_units, piece_lines / kMinUnitLines);
  if (units < 2) return {gen.cpp};
  // Pieces in order, so that the functions of one part of the program (and the templates they
  // instantiate) stay together; the first unit's share counts its once-only definitions.
  const size_t per_unit = (piece_lines + once_lines + units - 1) / units;
  std::vector<size_t> unit_of(segments.size(), 0);
  size_t unit = 0, filled = once_lines;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (segments[i].kind != Kind::Piece) continue;
    if (filled >= per_unit && unit + 1 < units) {
      ++unit;
      filled = 0;
    }
    unit_of[i] = unit;
    filled += segments[i].lines;
  }
  std::vector<std::string> out(unit + 1);
  for (size_t u = 0; u < out.size(); ++u) {
    for (size_t i = 0; i < segments.size(); ++i) {
      const Segment& s = segments[i];
      if (s.kind == Kind::Shared || (s.kind == Kind::Once && u == 0) || (s.kind == Kind::Piece && unit_of[i] == u))
        out[u] += s.text;
    }
  }
  if (out.size() < 2) return {gen.cpp};
  return out;
}

}  // namespace fitz::codegen
