// Generates a synthetic Fitz project (fitz.toml + N modules of about L lines each) for the
// language-server benchmark and the incremental tests. Deterministic for a given shape.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace fitz::bench {

struct ProjectShape {
  int modules = 50;
  int fns_per_module = 38;  // about 26 lines each, plus a type and imports: ~1000 lines a module
};

// The source of module `i` (named m<i>). Module i imports m<i-1> (names) and m<i-2> (as a module).
inline std::string module_source(int i, const ProjectShape& shape) {
  std::string s;
  auto n = std::to_string(i);
  s += "// Generated module " + n + " of the language-server benchmark.\n";
  if (i >= 1) {
    auto p = std::to_string(i - 1);
    s += "from m" + p + " import Item" + p + ", make" + p + ", total" + p + "\n";
  }
  if (i >= 2) s += "import m" + std::to_string(i - 2) + "\n";
  s += "\n";
  s += "type Item" + n + " {\n";
  s += "    name: Str\n    qty: Int = 1\n    price: Float\n";
  s += "    fn cost() -> Float => price * qty\n";
  s += "    fn label() -> Str {\n        return \"{name} x{qty}\"\n    }\n}\n\n";
  s += "fn make" + n + "(name: Str, qty: Int) -> Item" + n + " {\n";
  s += "    return Item" + n + " { name: name, price: 1.5, qty: qty }\n}\n\n";
  s += "fn total" + n + "(items: List<Item" + n + ">) -> Float {\n";
  s += "    let sum = 0.0\n    for it in items {\n        sum = sum + it.cost()\n    }\n    return sum\n}\n\n";
  for (int f = 0; f < shape.fns_per_module; ++f) {
    auto fname = "work" + n + "_" + std::to_string(f);
    s += "fn " + fname + "(count: Int, text: Str) -> Int {\n";
    s += "    let acc = 0\n";
    s += "    let words = text.split(\" \")\n";
    s += "    for i in 0..count {\n";
    s += "        if i % 3 == 0 {\n";
    s += "            acc = acc + i * 2\n";
    s += "        } else {\n";
    s += "            acc = acc - 1\n";
    s += "        }\n";
    s += "    }\n";
    s += "    let label = \"{text}: {acc}\"\n";
    s += "    let parts = [1, 2, 3].map(fn(x) => x * count)\n";
    s += "    let scores = {\"a\": acc, \"b\": len(words)}\n";
    s += "    let item = make" + n + "(label, acc)\n";
    if (i >= 1) {
      auto p = std::to_string(i - 1);
      s += "    let other = make" + p + "(\"other\", 2)\n";
      s += "    acc = acc + other.qty\n";
    } else {
      s += "    let other = make" + n + "(\"other\", 2)\n";
      s += "    acc = acc + other.qty\n";
    }
    s += "    match acc {\n";
    s += "        0 => print(\"zero\")\n";
    s += "        _ => print(item.label())\n";
    s += "    }\n";
    s += "    let total = item.cost() + len(parts)\n";
    s += "    if total > 10.0 and len(scores) > 1 {\n";
    s += "        acc = acc + 1\n";
    s += "    }\n";
    s += "    return acc + len(parts)\n";
    s += "}\n\n";
  }
  return s;
}

// Writes the project under `root` (created). Returns the total number of lines.
inline long write_project(const std::filesystem::path& root, const ProjectShape& shape) {
  namespace fs = std::filesystem;
  fs::create_directories(root / "src");
  {
    std::ofstream toml(root / "fitz.toml");
    toml << "[package]\nname = \"benchproject\"\nversion = \"0.1.0\"\nedition = \"2026\"\n\n"
            "[bin]\nmain = \"src/main.fitz\"\n";
  }
  long lines = 0;
  auto count = [](const std::string& s) {
    long n = 0;
    for (char c : s) n += c == '\n';
    return n;
  };
  for (int i = 0; i < shape.modules; ++i) {
    std::string src = module_source(i, shape);
    lines += count(src);
    std::ofstream(root / "src" / ("m" + std::to_string(i) + ".fitz")) << src;
  }
  std::string main = "from m" + std::to_string(shape.modules - 1) + " import make" +
                     std::to_string(shape.modules - 1) + "\nprint(make" +
                     std::to_string(shape.modules - 1) + "(\"main\", 1).label())\n";
  lines += count(main);
  std::ofstream(root / "src" / "main.fitz") << main;
  return lines;
}

}  // namespace fitz::bench
