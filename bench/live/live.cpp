// Live-view server cost per event without the socket: build the new tree, diff it against the
// last one, write the ops as JSON (and the full HTML for comparison), for a counter click and
// for a 1,000-row keyed list (one row edited, one row moved, the list reversed), and for an
// unkeyed list of 1,000 with an `{#if}` in front of it. Prints the median of many runs per
// case; not a test (no thresholds).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "fitz/live/diff.h"
#include "fitz/live/html.h"

namespace {

using namespace fitz::live;
using Clock = std::chrono::steady_clock;

// As the compiled render builds it: every node carries its template site.
Node counter(int n) {
  return el("div")
      .attr("id", "fz-1")
      .child(el("h1", 1).mark_static().child(text("Counter", 2)))
      .child(el("p", 3).child(text("Count: " + std::to_string(n), 4)))
      .child(el("button", 5).attr("data-fz-c", "2").attr("data-fz-click", "inc").child(text("+", 6)));
}

// An unkeyed `{#for}` of n posts after an `{#if banner}` and before a reply box: the siblings
// match by site and iteration, so the banner turning on is one insert.
Node feed(int n, bool banner, int edited) {
  Node ul = el("ul", 10);
  if (banner) ul.child(el("li", 11).attr("class", "banner").child(text("new posts", 12)));
  for (int i = 0; i < n; ++i) {
    uint64_t it = iteration(0, i + 1);
    std::string label = "post " + std::to_string(i) + (i == edited ? " (edited)" : "");
    ul.child(el("li", 13, it).child(text(std::move(label), 14, it)));
  }
  ul.child(el("li", 15).child(el("input", 16).attr("name", "reply")));
  return el("div").attr("id", "fz-1").child(std::move(ul));
}

Node rows(const std::vector<int>& ids, int edited) {
  Node tbody = el("tbody");
  for (int id : ids) {
    std::string label = "row " + std::to_string(id) + (id == edited ? " (edited)" : "");
    tbody.child(el("tr")
                    .with_key(Key::integer(id))
                    .attr("class", id % 2 ? "odd" : "even")
                    .child(el("td").child(text(std::to_string(id))))
                    .child(el("td").child(text(std::move(label))))
                    .child(el("td").child(el("button").attr("data-fz-click", "remove").child(text("x")))));
  }
  return el("div").attr("id", "fz-1").child(el("table").child(std::move(tbody)));
}

// Median nanoseconds of `runs` calls of f (which returns a size, so nothing is optimized away).
template <class F> double median_ns(int runs, F&& f, size_t* sink) {
  std::vector<double> t;
  t.reserve(size_t(runs));
  for (int i = 0; i < runs; ++i) {
    auto a = Clock::now();
    *sink += f(i);
    t.push_back(std::chrono::duration<double, std::nano>(Clock::now() - a).count());
  }
  std::nth_element(t.begin(), t.begin() + runs / 2, t.end());
  return t[size_t(runs / 2)];
}

void report(const char* name, double build, double diff_json, double html, size_t ops, size_t bytes, size_t html_bytes) {
  std::printf("%-26s build %9.1f us   diff+ops json %9.1f us (%zu ops, %zu B)   full html %9.1f us (%zu B)\n", name,
              build / 1000, diff_json / 1000, ops, bytes, html / 1000, html_bytes);
}

void bench_case(const char* name, int runs, Node (*make_old)(), Node (*make_new)()) {
  size_t sink = 0;
  Node before = make_old();
  double build = median_ns(runs, [&](int) { return make_new().children.size(); }, &sink);
  Node after = make_new();
  size_t ops = 0, bytes = 0;
  double d = median_ns(runs, [&](int) {
    DiffResult r = diff(before, after);
    std::string json = ops_to_json(r.ops);
    ops = r.ops.size();
    bytes = json.size();
    return json.size();
  }, &sink);
  size_t html_bytes = 0;
  double h = median_ns(runs, [&](int) {
    std::string s = inner_html(after);
    html_bytes = s.size();
    return s.size();
  }, &sink);
  report(name, build, d, h, ops, bytes, html_bytes);
  if (sink == 0) std::puts("");
}

std::vector<int> ids(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = i;
  return v;
}

}  // namespace

int main() {
  bench_case("counter click", 20000, [] { return counter(41); }, [] { return counter(42); });
  bench_case("1000 rows: edit one", 200, [] { return rows(ids(1000), -1); }, [] { return rows(ids(1000), 500); });
  bench_case("1000 rows: move one up", 200, [] { return rows(ids(1000), -1); }, [] {
    std::vector<int> v = ids(1000);
    std::swap(v[499], v[500]);
    return rows(v, -1);
  });
  bench_case("1000 rows: reverse", 200, [] { return rows(ids(1000), -1); }, [] {
    std::vector<int> v = ids(1000);
    std::reverse(v.begin(), v.end());
    return rows(v, -1);
  });
  bench_case("1000 rows: remove one", 200, [] { return rows(ids(1000), -1); }, [] {
    std::vector<int> v = ids(1000);
    v.erase(v.begin() + 500);
    return rows(v, -1);
  });
  bench_case("1000 unkeyed: edit one", 200, [] { return feed(1000, false, -1); }, [] { return feed(1000, false, 500); });
  bench_case("1000 unkeyed: if on", 200, [] { return feed(1000, false, -1); }, [] { return feed(1000, true, -1); });
  bench_case("1000 unkeyed: append", 200, [] { return feed(1000, false, -1); }, [] { return feed(1001, false, -1); });
  return 0;
}
