// libFuzzer target for the JSON body decoder (fitz/http/json.h). The first byte picks what the
// body is decoded as: any value, a generated-style struct with nested structs and lists, a map
// of lists, a nullable float, or any value under a small depth limit. Decoding either succeeds
// or records an error with a message; a decoded value written back with JsonWriter must decode
// again to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fitz/http/json.h"

namespace fuzz {

struct Item {
  static constexpr const char* fitz_name = "Item";
  static constexpr const char* fitz_field_names[] = {"id", "tags"};
  int64_t id = 0;
  fitz::List<fitz::Str> tags;
  auto fitz_fields() const { return std::tie(id, tags); }
};

struct Order {
  static constexpr const char* fitz_name = "Order";
  static constexpr const char* fitz_field_names[] = {"name", "price", "paid", "note", "items", "extra"};
  fitz::Str name;
  double price = 0;
  bool paid = false;
  fitz::Nullable<fitz::Str> note;
  fitz::List<fitz::Ref<Item>> items;
  fitz::Map<fitz::Str, fitz::Any> extra;
  auto fitz_fields() const { return std::tie(name, price, paid, note, items, extra); }
};

}  // namespace fuzz

namespace fitz::http {

// Decoders as the code generator writes them: fields in any order, required ones checked.
template <> struct JsonDecode<Ref<fuzz::Item>> {
  static bool read(JsonReader& r, Ref<fuzz::Item>* out) {
    static const Text names[] = {"id", "tags"};
    fuzz::Item v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 2, &seen, [&](size_t i) { return i == 0 ? r.read(&v.id) : r.read(&v.tags); }))
      return false;
    if (!(seen & 1)) {
      r.fail_missing("id");
      return false;
    }
    *out = make<fuzz::Item>(v);
    return true;
  }
};
template <> struct JsonDecode<Ref<fuzz::Order>> {
  static bool read(JsonReader& r, Ref<fuzz::Order>* out) {
    static const Text names[] = {"name", "price", "paid", "note", "items", "extra"};
    fuzz::Order v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 6, &seen, [&](size_t i) {
          switch (i) {
            case 0: return r.read(&v.name);
            case 1: return r.read(&v.price);
            case 2: return r.read(&v.paid);
            case 3: return r.read(&v.note);
            case 4: return r.read(&v.items);
            default: return r.read(&v.extra);
          }
        }))
      return false;
    if (!(seen & 1)) {
      r.fail_missing("name");
      return false;
    }
    *out = make<fuzz::Order>(v);
    return true;
  }
};

}  // namespace fitz::http

namespace {

using namespace fitz;
using namespace fitz::http;

[[noreturn]] void fail(const char* what, const Str& a, const Str& b) {
  std::fprintf(stderr, "json oracle: %s\n--- first:\n%.*s\n--- second:\n%.*s\n", what, int(a.size()), a.data(),
               int(b.size()), b.data());
  __builtin_trap();
}

// Decodes `p[0..n)` as T; on success writes the value back and checks that the written text
// decodes to a value that writes the same text. On failure the error must say something.
template <class T> void round_trip(const char* p, size_t n, uint32_t depth = 512) {
  T value{};
  JsonReader r(p, n, depth);
  if (!from_json(r, &value)) {
    if (r.ok() || r.error().size() == 0) fail("failed without an error", Str(p, n), Str());
    return;
  }
  if (!r.ok()) fail("succeeded with an error", Str(p, n), r.error());
  Str first = to_json(value);
  T again{};
  JsonReader r2(first.data(), first.size(), depth);
  if (!from_json(r2, &again)) fail("written value does not decode", first, r2.error());
  Str second = to_json(again);
  if (!(first == second)) fail("round trip changed the value", first, second);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const char* body = reinterpret_cast<const char*>(data) + 1;
  size_t n = size - 1;
  switch (data[0] % 5) {
    case 0: round_trip<Any>(body, n); break;
    case 1: round_trip<Ref<fuzz::Order>>(body, n); break;
    case 2: round_trip<Map<Str, List<int64_t>>>(body, n); break;
    case 3: round_trip<List<Nullable<double>>>(body, n); break;
    default: round_trip<Any>(body, n, 8); break;
  }
  // The reader's own pieces over the raw bytes.
  JsonReader skip(body, n);
  if (skip.skip_value()) skip.finish();
  (void)valid_utf8(body, n);
  return 0;
}
