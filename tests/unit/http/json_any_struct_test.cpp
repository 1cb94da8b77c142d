// JSON of user type instances held as Any: the same object the static type's encoder writes
// (nested types, lists, nullables), `@hidden` fields left out; other boxes keep their display
// form as a string.
#include <gtest/gtest.h>

#include <string>

#include "fitz/clock.h"
#include "http/internal.h"

namespace fitz::http {
namespace {

std::string s(const Str& x) { return std::string(x.data(), x.size()); }

struct Point {
  static constexpr const char* fitz_name = "Point";
  static constexpr const char* fitz_field_names[] = {"x", "y"};
  int64_t x = 0;
  double y = 0;
  auto fitz_fields() const { return std::tie(x, y); }
  auto fitz_fields() { return std::tie(x, y); }
};

// What generated code declares for `type Account { name: Str, @hidden password: Str, ... }`.
struct Account {
  static constexpr const char* fitz_name = "Account";
  static constexpr const char* fitz_field_names[] = {"name", "password", "home", "tags", "nick"};
  static constexpr bool fitz_field_hidden[] = {false, true, false, false, false};
  Str name;
  Str password;
  Ref<Point> home;
  List<Str> tags;
  Nullable<Str> nick;
  auto fitz_fields() const { return std::tie(name, password, home, tags, nick); }
  auto fitz_fields() { return std::tie(name, password, home, tags, nick); }
};

TEST(JsonAnyStruct, AStructHeldAsAnyIsWrittenAsItsStaticTypeWouldBe) {
  Ref<Point> p = make<Point>(int64_t{3}, 1.5);
  EXPECT_EQ(s(to_json(p)), "{\"x\":3,\"y\":1.5}");
  EXPECT_EQ(s(to_json(to_any(p))), s(to_json(p)));
}

TEST(JsonAnyStruct, NestedValuesAndCollectionsOfStructs) {
  Ref<Account> a = make<Account>();
  a->name = Str::lit("ada");
  a->password = Str::lit("secret");
  a->home = make<Point>(int64_t{1}, 2.0);
  a->tags = List<Str>{Str::lit("x")};
  EXPECT_EQ(s(to_json(to_any(a))), "{\"name\":\"ada\",\"home\":{\"x\":1,\"y\":2.0},\"tags\":[\"x\"],\"nick\":null}");
  List<Any> xs{to_any(make<Point>(int64_t{0}, 0.5)), Any(int64_t{7})};
  EXPECT_EQ(s(to_json(to_any(xs))), "[{\"x\":0,\"y\":0.5},7]");
  Map<Str, Any> m;
  m.set(Str::lit("p"), to_any(make<Point>(int64_t{2}, 3.0)));
  EXPECT_EQ(s(to_json(to_any(m))), "{\"p\":{\"x\":2,\"y\":3.0}}");
}

TEST(JsonAnyStruct, HiddenFieldsNeverLeave) {
  Ref<Account> a = make<Account>();
  a->password = Str::lit("hunter2");
  std::string json = s(to_json(to_any(a)));
  EXPECT_EQ(json.find("hunter2"), std::string::npos) << json;
  EXPECT_EQ(json.find("password"), std::string::npos) << json;
}

TEST(JsonAnyStruct, OtherBoxesKeepTheirDisplayText) {
  EXPECT_EQ(s(to_json(datetime_from_unix_micros(0))), "\"1970-01-01T00:00:00Z\"");
}

}  // namespace
}  // namespace fitz::http
