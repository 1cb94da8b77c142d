// JSON writer and reader: escaping, floats, nested values, typed decoding with field paths,
// syntax errors, depth limit, Int range, UTF-8 validation, unknown/duplicate/missing keys.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "colliding_keys.h"
#include "http/internal.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

struct Item {
  static constexpr const char* fitz_name = "Item";
  static constexpr const char* fitz_field_names[] = {"id", "tags"};
  int64_t id = 0;
  List<Str> tags;
  auto fitz_fields() const { return std::tie(id, tags); }
  auto fitz_fields() { return std::tie(id, tags); }
};

struct Order {
  static constexpr const char* fitz_name = "Order";
  static constexpr const char* fitz_field_names[] = {"name", "price", "paid", "note", "items"};
  Str name;
  double price = 0;
  bool paid = false;
  Nullable<Str> note;
  List<Ref<Item>> items;
  auto fitz_fields() const { return std::tie(name, price, paid, note, items); }
  auto fitz_fields() { return std::tie(name, price, paid, note, items); }
};

}  // namespace

// What generated decoders look like.
template <> struct JsonDecode<Ref<Item>> {
  static bool read(JsonReader& r, Ref<Item>* out) {
    static const Text names[] = {"id", "tags"};
    Item v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 2, &seen, [&](size_t i) { return i == 0 ? r.read(&v.id) : r.read(&v.tags); }))
      return false;
    if (!(seen & 1)) {
      r.fail_missing("id");
      return false;
    }
    *out = make<Item>(v.id, v.tags);
    return true;
  }
};
template <> struct JsonDecode<Ref<Order>> {
  static bool read(JsonReader& r, Ref<Order>* out) {
    static const Text names[] = {"name", "price", "paid", "note", "items"};
    Order v;
    uint64_t seen = 0;
    if (!r.begin_object()) return false;
    if (!read_fields(r, names, 5, &seen, [&](size_t i) {
          switch (i) {
            case 0: return r.read(&v.name);
            case 1: return r.read(&v.price);
            case 2: return r.read(&v.paid);
            case 3: return r.read(&v.note);
            default: return r.read(&v.items);
          }
        }))
      return false;
    if (!(seen & 1)) {
      r.fail_missing("name");
      return false;
    }
    *out = make<Order>(v.name, v.price, v.paid, v.note, v.items);
    return true;
  }
};

namespace {

template <class T> std::string decode_error(const char* text, T* out = nullptr) {
  T tmp{};
  JsonReader r(text, std::strlen(text));
  if (from_json(r, out ? out : &tmp)) return "ok";
  return (r.error_kind() == JsonReader::ErrorKind::Syntax ? "syntax: " : "schema: ") + s(r.error());
}

TEST(JsonWriter, ScalarsAndNesting) {
  Buf b;
  JsonWriter w(b);
  w.begin_object();
  w.key("a");
  w.value(int64_t(-5));
  w.key("b");
  w.value(1.5);
  w.key("c");
  w.value(2.0);
  w.key("s");
  w.value(Str("q\"\\\n\x01\xC3\xA9"));
  w.key(Str("we\"ird"));
  w.begin_array();
  w.value(true);
  w.null();
  w.begin_object();
  w.end_object();
  w.end_array();
  w.key("nan");
  w.value(0.0 / 0.0);
  w.end_object();
  EXPECT_EQ(s(b.take()),
            "{\"a\":-5,\"b\":1.5,\"c\":2.0,\"s\":\"q\\\"\\\\\\n\\u0001\xC3\xA9\",\"we\\\"ird\":[true,null,{}],"
            "\"nan\":\"NaN\"}");
}

TEST(JsonWriter, CollectionsStructsAndBytes) {
  auto it = make<Item>(int64_t(3), List<Str>{"x"_s, "y"_s});
  EXPECT_EQ(s(to_json(it)), "{\"id\":3,\"tags\":[\"x\",\"y\"]}");
  Map<Str, Nullable<int64_t>> m{{"a"_s, int64_t(1)}, {"b"_s, null}};
  EXPECT_EQ(s(to_json(m)), "{\"a\":1,\"b\":null}");
  EXPECT_EQ(s(to_json(Bytes::lit("hello"))), "\"aGVsbG8=\"");
  EXPECT_EQ(s(to_json(std::tuple<int64_t, Str>{1, "z"_s})), "[1,\"z\"]");
  Result<int64_t, Str> e = Err("bad"_s);
  EXPECT_EQ(s(to_json(e)), "{\"Err\":\"bad\"}");
  Map<Str, Any> any{{"k"_s, Any(int64_t(2))}, {"l"_s, to_any(List<int64_t>{1, 2})}};
  EXPECT_EQ(s(to_json(to_any(any))), "{\"k\":2,\"l\":[1,2]}");
}

TEST(JsonReader, DecodesTypedDocument) {
  Ref<Order> o;
  EXPECT_EQ(decode_error(R"( {"name":"a\u00e9\ud83d\ude00","price":2,"paid":true,"note":null,
                            "items":[{"id":1,"tags":[]},{"tags":["t"],"id":-9223372036854775808}]} )",
                         &o),
            "ok");
  EXPECT_EQ(s(o->name), "a\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(o->price, 2.0);
  EXPECT_FALSE(o->note.has_value());
  ASSERT_EQ(o->items.len(), 2);
  EXPECT_EQ(o->items.vec()[1]->id, INT64_MIN);
}

TEST(JsonReader, SchemaErrorsCarryPaths) {
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":1})"), "schema: field 'name': expected Str, found Int");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","items":[{"id":1},{"id":"2"}]})"),
            "schema: field 'items[1].id': expected Int, found Str");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","items":[{"id":1.5}]})"),
            "schema: field 'items[0].id': expected Int, found Float");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","items":[{"tags":[1]}]})"),
            "schema: field 'items[0].tags[0]': expected Str, found Int");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","items":[{"tags":[]}]})"),
            "schema: missing field 'items[0].id'");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"price":1})"), "schema: missing field 'name'");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","zz":1,"yy":[1,{}]})"),
            "schema: undeclared field(s): zz, yy");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","name":"y"})"), "schema: duplicate field 'name'");
  EXPECT_EQ(decode_error<Ref<Order>>(R"([1])"), "schema: expected object, found list");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","paid":"yes"})"),
            "schema: field 'paid': expected Bool, found Str");
  EXPECT_EQ(decode_error<Ref<Order>>(R"({"name":"x","note":5})"), "schema: field 'note': expected Str, found Int");
}

TEST(JsonReader, IntRange) {
  EXPECT_EQ(decode_error<int64_t>("9223372036854775807"), "ok");
  EXPECT_EQ(decode_error<int64_t>("9223372036854775808"), "schema: number out of range for Int");
  EXPECT_EQ(decode_error<int64_t>("-9223372036854775809"), "schema: number out of range for Int");
  EXPECT_EQ(decode_error<int64_t>("1e3"), "schema: expected Int, found Float");
  EXPECT_EQ(decode_error<double>("1e999"), "schema: number out of range for Float");
  EXPECT_EQ(decode_error<double>("1e-999"), "ok");
  EXPECT_EQ(decode_error<double>("12"), "ok");
}

TEST(JsonReader, SyntaxErrors) {
  EXPECT_EQ(decode_error<Any>("{"), "syntax: unexpected end of input at line 1, column 2");
  EXPECT_EQ(decode_error<Any>("[1,]"), "syntax: trailing comma at line 1, column 4");
  EXPECT_EQ(decode_error<Any>("{\"a\" 1}"), "syntax: expected ':' at line 1, column 6");
  EXPECT_EQ(decode_error<Any>("01"), "syntax: unexpected data after the JSON value at line 1, column 2");
  EXPECT_EQ(decode_error<Any>("-"), "syntax: bad number at line 1, column 1");
  EXPECT_EQ(decode_error<Any>("1."), "syntax: bad number at line 1, column 1");
  EXPECT_EQ(decode_error<Any>("tru"), "syntax: unexpected character at line 1, column 1");
  EXPECT_EQ(decode_error<Any>("\"a\nb\""), "syntax: control character in string at line 1, column 3");
  EXPECT_EQ(decode_error<Any>("\"\\x\""), "syntax: bad escape in string at line 1, column 4");
  EXPECT_EQ(decode_error<Any>("\"\\ud800\""), "syntax: lone surrogate in \\u escape at line 1, column 8");
  EXPECT_EQ(decode_error<Any>("{} {}"), "syntax: unexpected data after the JSON value at line 1, column 4");
  EXPECT_EQ(decode_error<Any>(""), "syntax: unexpected end of input at line 1, column 1");
  EXPECT_EQ(decode_error<Any>("{'a':1}"), "syntax: expected a string key at line 1, column 2");
}

TEST(JsonReader, InvalidUtf8) {
  for (const char* bad : {"\"\xFF\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"", "\"\xE2\x82\"", "\"\xF4\x90\x80\x80\""}) {
    std::string e = decode_error<Str>(bad);
    EXPECT_EQ(e.rfind("syntax: invalid UTF-8 in string", 0), 0u) << e;
  }
  EXPECT_TRUE(valid_utf8("\xE2\x82\xAC", 3));
  EXPECT_FALSE(valid_utf8("\xE2\x82", 2));
}

TEST(JsonReader, DepthLimit) {
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  std::string e = decode_error<Any>(deep.c_str());
  EXPECT_EQ(e.rfind("syntax: nesting deeper than 512 levels", 0), 0u) << e;
  // Skipping an unknown field is bounded too.
  std::string in_field = "{\"name\":\"x\",\"zz\":" + deep + "}";
  e = decode_error<Ref<Order>>(in_field.c_str());
  EXPECT_EQ(e.rfind("syntax: nesting deeper than 512 levels", 0), 0u) << e;
  std::string ok(500, '[');
  ok += std::string(500, ']');
  EXPECT_EQ(decode_error<Any>(ok.c_str()), "ok");
}

TEST(JsonReader, AnyAndMaps) {
  Any a;
  ASSERT_EQ(decode_error<Any>(R"({"a":[1,2.5,"x",true,null],"b":{}})", &a), "ok");
  EXPECT_EQ(s(to_json(a)), "{\"a\":[1,2.5,\"x\",true,null],\"b\":{}}");
  using Counts = Map<Str, int64_t>;
  EXPECT_EQ(decode_error<Counts>(R"({"a":1,"a":2})"), "schema: duplicate field 'a'");
  EXPECT_EQ(decode_error<Counts>(R"({"a":1,"b":"2"})"), "schema: field 'b': expected Int, found Str");
  EXPECT_EQ(decode_error<List<Nullable<int64_t>>>("[1,null]"), "ok");
}

}  // namespace
}  // namespace fitz::http

namespace fitz::http {
namespace {

// The keys collide under the former fixed hash (checked here, so the test keeps meaning what it
// says); decoded today they spread out: no lookup walks a long run of slots.
TEST(JsonHashFlood, CollidingKeysSpreadOut) {
  std::vector<std::string> keys = test_support::colliding_keys(5000);
  for (const std::string& k : keys) ASSERT_EQ(test_support::former_hash_16(k), test_support::former_hash_16(keys[0]));
  std::string body = test_support::json_object_of(keys);

  JsonReader r(body.data(), body.size());
  Map<Str, int64_t> m;
  ASSERT_TRUE(r.read(&m)) << std::string(r.error().data(), r.error().size());
  ASSERT_EQ(m.len(), 5000);
  EXPECT_LE(m.longest_probe(), 32u);
  // Untyped bodies (`Any`) decode objects through the same Map<Str, Any>.
  JsonReader r2(body.data(), body.size());
  Map<Str, Any> any;
  ASSERT_TRUE(r2.read(&any));
  EXPECT_LE(any.longest_probe(), 32u);
}

TEST(JsonHashFlood, KeysPerObjectAreCapped) {
  std::string body = "{";
  for (int i = 0; i <= 10000; ++i) body += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  body += "}";
  JsonReader r(body.data(), body.size());
  Map<Str, int64_t> m;
  EXPECT_FALSE(r.read(&m));
  EXPECT_EQ(r.error_kind(), JsonReader::ErrorKind::Limit);
  EXPECT_EQ(std::string(r.error().data(), r.error().size()), "an object has more than 10000 keys");
  // One key fewer is an ordinary object.
  std::string ok = "{";
  for (int i = 0; i < 10000; ++i) ok += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  ok += "}";
  JsonReader r2(ok.data(), ok.size());
  EXPECT_TRUE(r2.read(&m));
  EXPECT_EQ(m.len(), 10000);
}

// Types with more than 64 fields keep one bit per field across several words.
TEST(JsonReader, ReadFieldsTracksMoreThan64Fields) {
  std::vector<std::string> keys;
  for (int i = 0; i < 70; ++i) keys.push_back("f" + std::to_string(i));
  std::vector<Text> names;
  for (const std::string& k : keys) names.push_back(Text(k.data(), k.size()));
  auto run = [&](const std::string& doc, std::vector<int64_t>& got, uint64_t* seen) {
    JsonReader r(doc.data(), doc.size());
    got.assign(70, -1);
    return r.begin_object() && read_fields(r, names.data(), names.size(), seen, [&](size_t i) { return r.read(&got[i]); });
  };
  std::vector<int64_t> got;
  uint64_t seen[2] = {};
  ASSERT_TRUE(run(R"({"f0": 1, "f63": 2, "f64": 3, "f69": 4})", got, seen));
  EXPECT_EQ(got[0], 1);
  EXPECT_EQ(got[64], 3);
  EXPECT_EQ(got[69], 4);
  EXPECT_EQ(seen[0], (uint64_t(1) << 63) | 1);
  EXPECT_EQ(seen[1], (uint64_t(1) << 5) | 1);
  uint64_t again[2] = {};
  EXPECT_FALSE(run(R"({"f66": 1, "f66": 2})", got, again));  // a repeated key past the first word
}

}  // namespace
}  // namespace fitz::http
