// Idiomatic C++: structs held by shared_ptr where the object is shared between two maps.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Address {
  std::string city;
  int64_t zip;
};
struct User {
  int64_t id;
  std::string name;
  std::vector<std::string> tags;
  std::vector<std::pair<std::string, int64_t>> scores;  // insertion-ordered, like the Fitz map
  Address address;
};

int main() {
  const std::vector<std::string> cities = {"Lima", "Oslo", "Pune", "Kyiv", "Quito"};
  std::vector<std::vector<std::pair<std::string, std::shared_ptr<User>>>> records;
  for (int64_t i = 0; i < 60000; ++i) {
    auto u = std::make_shared<User>(User{i, "user" + std::to_string(i),
                                         {"t" + std::to_string(i % 7), "t" + std::to_string(i % 11)},
                                         {{"math", i % 97}, {"art", i % 89}, {"sport", i % 83}},
                                         Address{cities[i % 5], 10000 + i % 900}});
    records.push_back({{"owner", u}, {"editor", u}});
  }
  int64_t total = 0, tag_hits = 0;
  std::map<std::string, int64_t> by_city;
  for (const auto& rec : records) {
    for (const auto& [role, user] : rec) {
      for (const auto& [subject, s] : user->scores) total += s;
      if (role == "owner") {
        ++by_city[user->address.city];
        if (std::find(user->tags.begin(), user->tags.end(), "t3") != user->tags.end()) ++tag_hits;
      }
    }
  }
  std::printf("%lld %lld %lld %s\n", (long long)total, (long long)by_city["Oslo"], (long long)tag_hits,
              records[59999][0].second->name.c_str());
}
