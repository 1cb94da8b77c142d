// List, Map and Range: shared-reference aliasing, negative indices, clamped slices, insertion
// order with overwrite in place, and the methods of spec section 4.
#include <gtest/gtest.h>

#include <string>

#include "fitz/runtime.h"

using namespace fitz::literals;
using fitz::List;
using fitz::Map;
using fitz::Range;
using fitz::Str;

namespace {
std::string shown(const auto& v) { return fitz::to_str(v).template as<std::string>(); }
}  // namespace

TEST(List, IndexingAndAliasing) {
  // lists_basics.out
  List<int64_t> primes{2, 3, 5, 7};
  EXPECT_EQ(primes.at(0), 2);
  EXPECT_EQ(primes.at(-1), 7);
  EXPECT_EQ(primes.at(-2), 5);
  primes.push(11);
  primes.set(1, 13);
  EXPECT_EQ(shown(primes), "[2, 13, 5, 7, 11]");
  EXPECT_EQ(primes.pop(), 11);
  EXPECT_EQ(shown(primes), "[2, 13, 5, 7]");
  List<Str> words{"ant"_s, "bee"_s};
  List<Str> alias = words;
  alias.push("cat"_s);
  EXPECT_EQ(shown(words), "[\"ant\", \"bee\", \"cat\"]");
  List<List<int64_t>> grid{{1, 2}, {3, 4}};
  grid.at(1).set(0, 30);
  EXPECT_EQ(shown(grid) + " " + shown(grid.at(1).at(1)), "[[1, 2], [30, 4]] 4");
  EXPECT_TRUE(primes.contains(5));
  EXPECT_FALSE(primes.contains(4));
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([&] { primes.at(4, {"l.fitz", 9, 3}); }, &p));
  EXPECT_EQ(p.message, "index 4 out of range for list of length 4"_s);
  EXPECT_TRUE(fitz::catch_panic([&] { primes.set(-5, 1); }, &p));
  EXPECT_EQ(p.message, "index -5 out of range for list of length 4"_s);
  EXPECT_TRUE(fitz::catch_panic([] { List<int64_t>().pop(); }, &p));
  EXPECT_EQ(p.message, "pop from an empty list"_s);
}

TEST(List, SlicesCopyAndClamp) {
  // slicing.out
  List<Str> letters{"a"_s, "b"_s, "c"_s, "d"_s, "e"_s, "f"_s};
  const int64_t end = fitz::detail::slice_end;
  EXPECT_EQ(shown(letters.slice(1, 3)), "[\"b\", \"c\"]");
  EXPECT_EQ(shown(letters.slice(0, 2)), "[\"a\", \"b\"]");
  EXPECT_EQ(shown(letters.slice(4, end)), "[\"e\", \"f\"]");
  EXPECT_EQ(shown(letters.slice(1, 3, true)), "[\"b\", \"c\", \"d\"]");
  EXPECT_EQ(shown(letters.slice(-2, end)), "[\"e\", \"f\"]");
  EXPECT_EQ(shown(letters.slice(0, -4)), "[\"a\", \"b\"]");
  EXPECT_EQ(shown(letters.slice(-4, -1)), "[\"c\", \"d\", \"e\"]");
  EXPECT_EQ(shown(letters.slice(10, end)) + " " + shown(letters.slice(0, 99)),
            "[] [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"]");
  EXPECT_EQ(shown(letters.slice(4, 1)), "[]");
  List<Str> copy = letters.slice(0, end);
  copy.set(0, "z"_s);
  EXPECT_EQ(shown(letters.at(0)) + " " + shown(copy.at(0)), "a z");
}

TEST(List, IterationSeesASnapshotOfTheLength) {
  List<int64_t> xs{1, 2, 3};
  int64_t seen = 0;
  for (int64_t x : xs) {
    xs.push(x * 10);  // does not extend the loop
    ++seen;
  }
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(shown(xs), "[1, 2, 3, 10, 20, 30]");
  seen = 0;
  for (int64_t x : xs) {
    (void)x;
    xs.pop();  // shrinking stops the loop early
    ++seen;
  }
  EXPECT_EQ(seen, 3);
}

TEST(List, MethodsOut) {
  // list_methods.out
  List<int64_t> nums{5, 3, 8, 1, 9, 2};
  EXPECT_EQ(shown(nums.map([](int64_t n) { return n * 10; })), "[50, 30, 80, 10, 90, 20]");
  EXPECT_EQ(shown(nums.filter([](int64_t n) { return n > 4; })), "[5, 8, 9]");
  EXPECT_EQ(nums.reduce(int64_t{0}, [](int64_t a, int64_t n) { return a + n; }), 28);
  EXPECT_EQ(nums.sum(), 28);
  EXPECT_EQ(nums.product(), 2160);
  EXPECT_EQ(shown(nums.find([](int64_t n) { return n > 5; })), "Ok(8)");
  EXPECT_EQ(shown(nums.find_index([](int64_t n) { return n == 1; })), "Ok(3)");
  EXPECT_EQ(fitz::interp(nums.first(), " ", nums.last(), " ", nums.min(), " ", nums.max()), "Ok(5) Ok(2) Ok(1) Ok(9)"_s);
  EXPECT_EQ(shown(nums.take(2)) + " " + shown(nums.drop(4)), "[5, 3] [9, 2]");
  EXPECT_EQ(shown(nums.enumerate().take(2)), "[(0, 5), (1, 3)]");
  EXPECT_EQ(shown(nums.zip(List<Str>{"a"_s, "b"_s})), "[(5, \"a\"), (3, \"b\")]");
  EXPECT_EQ(shown(List<int64_t>{3, 1, 3, 2, 1}.unique()), "[3, 1, 2]");
  EXPECT_EQ(shown(nums.partition([](int64_t n) { return n < 4; })), "([3, 1, 2], [5, 8, 9])");
  List<Str> names{"Zoe"_s, "al"_s, "Beatrix"_s};
  names.sort_by([](const Str& a, const Str& b) { return a.len() - b.len(); });
  EXPECT_EQ(shown(names), "[\"al\", \"Zoe\", \"Beatrix\"]");
  EXPECT_EQ(shown(nums), "[5, 3, 8, 1, 9, 2]");  // the non-mutating methods left it alone
}

TEST(List, MoreMethods) {
  List<int64_t> xs{1, 2, 3, 4, 5};
  EXPECT_EQ(shown(xs.split_at(2)), "([1, 2], [3, 4, 5])");
  EXPECT_EQ(shown(xs.split_at(0)), "([], [1, 2, 3, 4, 5])");
  EXPECT_EQ(shown(xs.split_at(99)), "([1, 2, 3, 4, 5], [])");
  EXPECT_TRUE(xs.starts_with(List<int64_t>{1, 2, 3}));
  EXPECT_TRUE(xs.ends_with(List<int64_t>{4, 5}));
  EXPECT_FALSE(xs.starts_with(List<int64_t>{1, 3}));
  EXPECT_TRUE(xs.starts_with(List<int64_t>{}));
  List<int64_t> base{10, 20, 40, 50};
  EXPECT_EQ(shown(base.insert_at(2, 30)), "[10, 20, 30, 40, 50]");
  EXPECT_EQ(base.len(), 4);
  EXPECT_EQ(shown(base.remove_at(1)), "[10, 40, 50]");
  EXPECT_EQ(shown(base.insert_at(99, 99)), "[10, 20, 40, 50, 99]");
  EXPECT_EQ(shown(List<int64_t>{1, 2, 3}.zip_to_map(List<Str>{"Ada"_s, "Bob"_s})), "{1: \"Ada\", 2: \"Bob\"}");
  EXPECT_EQ(shown(xs.windows(2).take(2)), "[[1, 2], [2, 3]]");
  EXPECT_EQ(shown(xs.init()) + shown(xs.tail()), "[1, 2, 3, 4][2, 3, 4, 5]");
  EXPECT_EQ(shown(List<int64_t>{1, 2}.cycle(2)), "[1, 2, 1, 2]");
  EXPECT_EQ(shown(List<int64_t>{1, 2, 3}.intersperse(0)), "[1, 0, 2, 0, 3]");
  EXPECT_EQ(shown(xs.scan(int64_t{0}, [](int64_t a, int64_t x) { return a + x; })), "[1, 3, 6, 10, 15]");
  EXPECT_EQ(shown(xs.flat_map([](int64_t x) { return List<int64_t>{x, -x}; }).take(4)), "[1, -1, 2, -2]");
  EXPECT_EQ(shown(xs.zip_with(List<int64_t>{10, 20}, [](int64_t a, int64_t b) { return a + b; })), "[11, 22]");
  EXPECT_EQ(shown(xs.group_by([](int64_t x) { return x % 2 == 0; })), "{false: [1, 3, 5], true: [2, 4]}");
  List<Str> words{"pear"_s, "fig"_s, "banana"_s};
  EXPECT_EQ(shown(words.max_by([](const Str& w) { return w.len(); })), "Ok(\"banana\")");
  EXPECT_EQ(shown(words.min_by([](const Str& w) { return w.len(); })), "Ok(\"fig\")");
  EXPECT_EQ(shown(List<int64_t>().min()), "Err(\"empty list\")");
  EXPECT_EQ(List<int64_t>().sum(), 0);
  EXPECT_DOUBLE_EQ((List<double>{22.5, 21.0}.sum()), 43.5);
  List<std::tuple<Str, int64_t>> pairs{{"a"_s, 1}, {"b"_s, 2}};
  EXPECT_EQ(shown(pairs.to_map()), "{\"a\": 1, \"b\": 2}");
  List<Str> sorted{"pear"_s, "apple"_s, "fig"_s};
  sorted.sort();
  EXPECT_EQ(shown(sorted), "[\"apple\", \"fig\", \"pear\"]");
  List<int64_t> big;
  for (int64_t i = 0; i < 100; ++i) big.push((i * 37) % 101);
  big.sort();
  for (int64_t i = 1; i < big.len(); ++i) EXPECT_LE(big.at(i - 1), big.at(i));
  // sort_by is stable
  List<std::tuple<int64_t, int64_t>> st;
  for (int64_t i = 0; i < 40; ++i) st.push({i % 3, i});
  st.sort_by([](const auto& a, const auto& b) { return std::get<0>(a) - std::get<0>(b); });
  for (int64_t i = 1; i < st.len(); ++i) {
    if (std::get<0>(st.at(i - 1)) == std::get<0>(st.at(i))) {
      EXPECT_LT(std::get<1>(st.at(i - 1)), std::get<1>(st.at(i)));
    }
  }
  List<bool> flags{true, false};
  EXPECT_EQ(shown(flags), "[true, false]");
  EXPECT_EQ(flags.at(1), false);
}

TEST(Map, InsertionOrderAndOverwriteInPlace) {
  // maps_basics.out
  Map<Str, int64_t> stock{{"apple"_s, 3}, {"pear"_s, 0}};
  stock.set("fig"_s, 7);
  stock.set("apple"_s, 5);
  EXPECT_EQ(shown(stock), "{\"apple\": 5, \"pear\": 0, \"fig\": 7}");
  EXPECT_EQ(stock.at("fig"_s), 7);
  EXPECT_EQ(shown(stock.keys()), "[\"apple\", \"pear\", \"fig\"]");
  EXPECT_EQ(shown(stock.values()), "[5, 0, 7]");
  std::string visited;
  for (auto [k, v] : stock) visited += shown(k) + "=" + shown(v) + ";";
  EXPECT_EQ(visited, "apple=5;pear=0;fig=7;");
  EXPECT_EQ(shown(stock.get("pear"_s)), "Ok(0)");
  EXPECT_EQ(shown(stock.get("plum"_s)), "Err(\"key not found\")");
  fitz::Panic p;
  EXPECT_TRUE(fitz::catch_panic([&] { stock.at("plum"_s, {"m.fitz", 2, 4}); }, &p));
  EXPECT_EQ(p.message, "key not found: \"plum\""_s);
  Map<Str, int64_t> alias = stock;
  alias.set("kiwi"_s, 1);
  EXPECT_TRUE(stock.has("kiwi"_s));
  // Duplicate keys in a literal: the later value wins, at the first position.
  Map<Str, int64_t> dup{{"a"_s, 1}, {"b"_s, 2}, {"a"_s, 3}};
  EXPECT_EQ(shown(dup), "{\"a\": 3, \"b\": 2}");
}

TEST(Map, LargeMapsUseTheIndex) {
  Map<int64_t, int64_t> m;
  for (int64_t i = 0; i < 1000; ++i) m.set(i * 7, i);
  for (int64_t i = 0; i < 1000; ++i) m.set(i * 7, i * 2);  // overwrite in place
  EXPECT_EQ(m.len(), 1000);
  EXPECT_EQ(m.at(7 * 500), 1000);
  EXPECT_EQ(m.keys().at(3), 21);
  EXPECT_FALSE(m.has(5));
  EXPECT_TRUE(m.remove(7));
  EXPECT_EQ(m.len(), 999);
  EXPECT_EQ(m.keys().at(1), 14);
  EXPECT_EQ(m.at(14), 4);
  Map<Str, int64_t> words;
  for (int64_t i = 0; i < 200; ++i) words.set(fitz::interp("w", i), i);
  EXPECT_EQ(words.at("w150"_s), 150);
  Map<fitz::Any, int64_t> anys;
  anys.set(fitz::Any(int64_t{1}), 10);
  EXPECT_TRUE(anys.has(fitz::Any(1.0)));  // Int and Float keys meet, like ==
}

TEST(Map, Methods) {
  Map<Str, int64_t> scores{{"banana"_s, 3}, {"apple"_s, 1}, {"cherry"_s, 5}};
  EXPECT_EQ(shown(scores.keys_sorted()), "[\"apple\", \"banana\", \"cherry\"]");
  EXPECT_EQ(shown(scores.entries().take(1)), "[(\"banana\", 3)]");
  EXPECT_TRUE(scores.has_value(5));
  EXPECT_FALSE(scores.has_value(0));
  EXPECT_EQ(shown(scores.invert()), "{3: \"banana\", 1: \"apple\", 5: \"cherry\"}");
  Map<Str, int64_t> more = scores.with("date"_s, 9);
  EXPECT_EQ(scores.len(), 3);
  EXPECT_EQ(more.len(), 4);
  EXPECT_EQ(shown(scores.merge(Map<Str, int64_t>{{"apple"_s, 10}, {"fig"_s, 2}})),
            "{\"banana\": 3, \"apple\": 10, \"cherry\": 5, \"fig\": 2}");
  EXPECT_EQ(shown(scores.merge_with(Map<Str, int64_t>{{"apple"_s, 10}}, [](int64_t a, int64_t b) { return a + b; })
                      .at("apple"_s)),
            "11");
  EXPECT_EQ(shown(scores.filter([](const Str&, int64_t v) { return v >= 3; })), "{\"banana\": 3, \"cherry\": 5}");
  EXPECT_EQ(shown(scores.update("apple"_s, [](int64_t v) { return v + 100; }).at("apple"_s)), "101");
  EXPECT_EQ(scores.at("apple"_s), 1);
  EXPECT_EQ(shown(scores.map_values([](int64_t v) { return double(v) / 2; })),
            "{\"banana\": 1.5, \"apple\": 0.5, \"cherry\": 2.5}");
}

TEST(Range, Basics) {
  // tuples_ranges.out
  Range span(2, 6);
  EXPECT_EQ(span.len(), 4);
  List<int64_t> ks;
  for (int64_t k : span) ks.push(k);
  EXPECT_EQ(shown(ks), "[2, 3, 4, 5]");
  EXPECT_EQ(Range(1, 4, true).len(), 4);
  EXPECT_EQ(Range(5, 2).len(), 0);
  EXPECT_EQ(shown(Range(0, 10).step_by(3)), "[0, 3, 6, 9]");
  EXPECT_EQ(shown(Range(0, 20, true).step_by(3)), "[0, 3, 6, 9, 12, 15, 18]");
  EXPECT_EQ(Range(0, 100).step_by(2).sum(), 2450);
  EXPECT_EQ(shown(Range(1, 3).enumerate()), "[(0, 1), (1, 2)]");
  EXPECT_EQ(shown(Range(1, 3).zip(List<Str>{"a"_s})), "[(1, \"a\")]");
  EXPECT_EQ(shown(Range(1, 3).chain(List<int64_t>{9})), "[1, 2, 9]");
  int64_t count = 0;
  for (int64_t k : Range(INT64_MAX - 2, INT64_MAX, true)) count += k > 0;
  EXPECT_EQ(count, 3);
  EXPECT_EQ(fitz::len(Range(1, 4, true)), 4);
}
