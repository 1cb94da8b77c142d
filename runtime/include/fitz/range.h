// `Range`: `a..b` (end excluded) and `a..=b` (end included) over Int. A small value type,
// iterable without allocating; printed as `a..b` / `a..=b`.
#pragma once

#include "fitz/list.h"

namespace fitz {

struct Range {
  int64_t start = 0;
  int64_t stop = 0;  // the written end bound (`b` in `a..b` / `a..=b`)
  bool inclusive = false;

  Range() = default;
  Range(int64_t s, int64_t e, bool incl = false) : start(s), stop(e), inclusive(incl) {}

  // Number of values, saturating at INT64_MAX.
  int64_t len() const {
    if (inclusive ? stop < start : stop <= start) return 0;
    uint64_t n = uint64_t(stop) - uint64_t(start) + (inclusive ? 1 : 0);
    return n > uint64_t(INT64_MAX) || n == 0 ? INT64_MAX : int64_t(n);
  }
  bool is_empty() const { return len() == 0; }
  bool contains(int64_t x) const { return x >= start && (inclusive ? x <= stop : x < stop); }

  struct Iter {
    int64_t cur;
    uint64_t left;
    int64_t operator*() const { return cur; }
    Iter& operator++() {
      if (--left) ++cur;
      return *this;
    }
    bool operator!=(const Iter&) const { return left != 0; }
  };
  Iter begin() const { return Iter{start, uint64_t(len())}; }
  Iter end() const { return Iter{0, 0}; }

  List<int64_t> to_list() const;
  List<std::tuple<int64_t, int64_t>> enumerate() const;
  List<int64_t> chain(const List<int64_t>& more) const;
  List<int64_t> step_by(int64_t step, SourcePos pos = {}) const;
  template <class U> List<std::tuple<int64_t, U>> zip(const List<U>& other) const {
    List<std::tuple<int64_t, U>> out;
    size_t i = 0;
    for (int64_t k : *this) {
      if (i >= other.vec().size()) break;
      out.vec().emplace_back(k, other.vec()[i++]);
    }
    return out;
  }
};

}  // namespace fitz
