// `Map<K, V>`: a shared reference to an insertion-ordered hash map. `set` on an existing key
// overwrites in place; new keys go at the end. Entries live in a vector (iteration order);
// maps above a few entries also keep an open-addressing index of entry positions.
#pragma once

#include <algorithm>

#include "fitz/list.h"

namespace fitz {

template <class K, class V> struct MapEntry {
  K key;
  V value;
};

namespace detail {
[[noreturn]] void missing_key_error(SourcePos pos, const Buf& key_repr);
inline Str key_not_found_msg() { return Str::lit("key not found"); }

template <class K, class V> struct MapImpl {
  std::vector<MapEntry<K, V>> entries;
  // slot = (hash high 32 bits << 32) | (entry index + 1); 0 = empty.
  uint64_t* slots = nullptr;
  size_t mask = 0;  // slot count - 1, or 0 without index
  static constexpr size_t kLinear = 8;

  MapImpl() = default;
  MapImpl(const MapImpl& o) : entries(o.entries) { rebuild(); }
  MapImpl& operator=(const MapImpl&) = delete;
  ~MapImpl() { delete[] slots; }

  template <class Q> int64_t find(const Q& key) const {
    if (!slots) {
      for (size_t i = 0; i < entries.size(); ++i)
        if (fitz::eq(entries[i].key, key)) return int64_t(i);
      return -1;
    }
    uint64_t h = fitz::hash_value(key);
    uint64_t tag = h >> 32;
    for (size_t s = size_t(h) & mask;; s = (s + 1) & mask) {
      uint64_t slot = slots[s];
      if (!slot) return -1;
      if ((slot >> 32) == tag) {
        size_t idx = size_t(uint32_t(slot)) - 1;
        if (fitz::eq(entries[idx].key, key)) return int64_t(idx);
      }
    }
  }
  void index_entry(size_t idx) {
    uint64_t h = fitz::hash_value(entries[idx].key);
    size_t s = size_t(h) & mask;
    while (slots[s]) s = (s + 1) & mask;
    slots[s] = ((h >> 32) << 32) | uint64_t(idx + 1);
  }
  // The longest run of slots a lookup walks (1 = every key sits in its home slot). The
  // hostile-input tests read it: it stays short only while clients cannot aim at one slot.
  size_t longest_probe() const {
    if (!slots) return entries.size();
    size_t worst = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
      uint64_t h = fitz::hash_value(entries[i].key);
      size_t home = size_t(h) & mask, walked = 1;
      for (size_t s = home; size_t(uint32_t(slots[s])) != i + 1; s = (s + 1) & mask) ++walked;
      worst = std::max(worst, walked);
    }
    return worst;
  }
  void rebuild() {
    delete[] slots;
    slots = nullptr;
    mask = 0;
    if (entries.size() <= kLinear) return;
    size_t cap = 16;
    while (cap < entries.size() * 2) cap *= 2;
    slots = new uint64_t[cap]();
    mask = cap - 1;
    for (size_t i = 0; i < entries.size(); ++i) index_entry(i);
  }
  void append(K key, V value) {
    entries.push_back(MapEntry<K, V>{std::move(key), std::move(value)});
    if (slots) {
      if (entries.size() * 2 > mask + 1)
        rebuild();
      else
        index_entry(entries.size() - 1);
    } else if (entries.size() > kLinear) {
      rebuild();
    }
  }
  void set(K key, V value) {
    int64_t i = find(key);
    if (i >= 0)
      entries[size_t(i)].value = std::move(value);
    else
      append(std::move(key), std::move(value));
  }
  bool remove(const K& key) {
    int64_t i = find(key);
    if (i < 0) return false;
    entries.erase(entries.begin() + i);
    rebuild();
    return true;
  }
};
}  // namespace detail

template <class K, class V> class Map {
 public:
  using key_type = K;
  using mapped_type = V;
  using Entry = MapEntry<K, V>;
  using Impl = detail::MapImpl<K, V>;

  Map() : p_(make<Impl>()) {}
  explicit Map(Uninit) {}
  // `{k1: v1, k2: v2}`: later duplicates overwrite earlier ones in place.
  Map(std::initializer_list<Entry> il) : p_(make<Impl>()) {
    p_->entries.reserve(il.size());
    for (const auto& e : il) p_->set(e.key, e.value);
  }

  bool same(const Map& o) const { return p_.same(o.p_); }
  bool is_uninit() const { return !p_; }
  const std::vector<Entry>& entries_vec() const { return p_->entries; }
  size_t longest_probe() const { return p_->longest_probe(); }

  // Iteration yields copies of the entries present when the loop starts (a snapshot of the
  // length; removing during the loop stops it early): `for (auto [k, v] : m)`.
  struct Iter {
    const std::vector<Entry>* v;
    size_t i;
    Entry operator*() const { return (*v)[i]; }
    Iter& operator++() {
      ++i;
      return *this;
    }
    bool operator!=(const Iter& e) const { return i < e.i && i < v->size(); }
  };
  Iter begin() const { return Iter{&p_->entries, 0}; }
  Iter end() const { return Iter{&p_->entries, p_->entries.size()}; }

  int64_t len() const { return int64_t(p_->entries.size()); }
  bool is_empty() const { return p_->entries.empty(); }
  // `m[k]`: a missing key is a runtime error.
  const V& at(const K& key, SourcePos pos = {}) const {
    int64_t i = p_->find(key);
    if (i < 0) missing(key, pos);
    return p_->entries[size_t(i)].value;
  }
  V& mut(const K& key, SourcePos pos = {}) const {
    int64_t i = p_->find(key);
    if (i < 0) missing(key, pos);
    return p_->entries[size_t(i)].value;
  }
  // `m[k] = v`: overwrite in place or append.
  Null set(K key, V value) const {
    p_->set(std::move(key), std::move(value));
    return {};
  }
  Result<V, Str> get(const K& key) const {
    int64_t i = p_->find(key);
    if (i < 0) return Err(detail::key_not_found_msg());
    return Ok(V(p_->entries[size_t(i)].value));
  }
  const V* find(const K& key) const {
    int64_t i = p_->find(key);
    return i < 0 ? nullptr : &p_->entries[size_t(i)].value;
  }
  V get_or(const K& key, V fallback) const {
    const V* v = find(key);
    return v ? *v : fallback;
  }
  bool has(const K& key) const { return p_->find(key) >= 0; }
  bool remove(const K& key) const { return p_->remove(key); }
  bool has_value(const V& value) const {
    for (const auto& e : p_->entries)
      if (fitz::eq(e.value, value)) return true;
    return false;
  }
  List<K> keys() const {
    List<K> out = List<K>::with_capacity(len());
    for (const auto& e : p_->entries) out.vec().push_back(e.key);
    return out;
  }
  List<K> keys_sorted() const {
    List<K> out = keys();
    out.sort();
    return out;
  }
  List<V> values() const {
    List<V> out = List<V>::with_capacity(len());
    for (const auto& e : p_->entries) out.vec().push_back(e.value);
    return out;
  }
  // The entries as they are now, for generated `for (k, v) in m` loops: a plain vector of the
  // entry type the map already uses, so a loop instantiates no tuple or List types.
  std::vector<Entry> snapshot() const { return p_->entries; }
  List<std::tuple<K, V>> entries() const {
    List<std::tuple<K, V>> out = List<std::tuple<K, V>>::with_capacity(len());
    for (const auto& e : p_->entries) out.vec().emplace_back(e.key, e.value);
    return out;
  }
  Map<V, K> invert() const {
    Map<V, K> out;
    for (const auto& e : p_->entries) out.set(e.value, e.key);
    return out;
  }
  Map copy() const {
    Map out(uninit);
    out.p_ = make<Impl>(*p_);
    return out;
  }
  Map with(K key, V value) const {
    Map out = copy();
    out.set(std::move(key), std::move(value));
    return out;
  }
  Map merge(const Map& other) const {
    Map out = copy();
    for (const auto& e : other.p_->entries) out.set(e.key, e.value);
    return out;
  }
  template <class F> Map merge_with(const Map& other, F&& f) const {
    Map out = copy();
    for (const auto& e : other.p_->entries) {
      int64_t i = out.p_->find(e.key);
      if (i < 0)
        out.p_->append(e.key, e.value);
      else
        out.p_->entries[size_t(i)].value = f(out.p_->entries[size_t(i)].value, e.value);
    }
    return out;
  }
  template <class F> Map filter(F&& f) const {
    Map out;
    for (size_t i = 0; i < p_->entries.size(); ++i) {
      const Entry& e = p_->entries[i];
      if (f(e.key, e.value)) out.p_->append(e.key, e.value);
    }
    return out;
  }
  // A new map where `key` (if present) maps to f(old value).
  template <class F> Map update(const K& key, F&& f) const {
    Map out = copy();
    int64_t i = out.p_->find(key);
    if (i >= 0) out.p_->entries[size_t(i)].value = f(out.p_->entries[size_t(i)].value);
    return out;
  }
  template <class F> auto map_values(F&& f) const {
    using U = std::decay_t<decltype(f(std::declval<const V&>()))>;
    Map<K, U> out;
    for (size_t i = 0; i < p_->entries.size(); ++i) {
      const Entry& e = p_->entries[i];
      out.p_->append(e.key, f(e.value));
    }
    return out;
  }

 private:
  template <class, class> friend class Map;
  [[noreturn]] void missing(const K& key, SourcePos pos) const {
    Buf b;
    show_quoted(b, key);
    detail::missing_key_error(pos, b);
  }
  Ref<Impl> p_;
};

// ---- List methods that build maps ----

template <class T> auto List<T>::to_map() const {
  using K = std::tuple_element_t<0, T>;
  using V = std::tuple_element_t<1, T>;
  Map<K, V> out;
  for (const auto& pair : *p_) out.set(std::get<0>(pair), std::get<1>(pair));
  return out;
}

template <class T>
template <class V>
Map<T, V> List<T>::zip_to_map(const List<V>& values) const {
  Map<T, V> out;
  size_t n = p_->size() < values.vec().size() ? p_->size() : values.vec().size();
  for (size_t i = 0; i < n; ++i) out.set((*p_)[i], values.vec()[i]);
  return out;
}

template <class T>
template <class F>
auto List<T>::group_by(F&& f) const {
  using K = std::decay_t<decltype(f(std::declval<const T&>()))>;
  Map<K, List<T>> out;
  for (size_t i = 0; i < p_->size(); ++i) {
    K k = f((*p_)[i]);
    if (const List<T>* g = out.find(k))
      g->push((*p_)[i]);
    else
      out.set(std::move(k), List<T>{(*p_)[i]});
  }
  return out;
}

template <class T> List<T> List<T>::unique() const {
  Map<T, Null> seen;
  List out;
  for (const auto& x : *p_) {
    if (!seen.has(x)) {
      seen.set(x, Null{});
      out.p_->push_back(x);
    }
  }
  return out;
}

}  // namespace fitz
