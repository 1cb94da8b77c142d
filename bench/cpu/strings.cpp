#include <cstdint>
#include <cstdio>
#include <string>

int main() {
  int64_t total = 0, checksum = 0;
  for (int64_t i = 0; i < 300000; ++i) {
    std::string line = "item " + std::to_string(i) + ": " + std::to_string(i * 3) + " units";
    std::string row = "<" + line + "|" + std::to_string(i) + ">";
    std::string padded = row + " " + line;
    total += static_cast<int64_t>(padded.size());
    if (i % 1000 == 0) checksum += static_cast<int64_t>(padded.size()) * i % 7;
  }
  std::string word;
  for (int j = 0; j < 20000; ++j) {
    word += "ab";
    if (word.size() > 64) word.clear();
  }
  std::printf("%lld %lld %zu\n", static_cast<long long>(total), static_cast<long long>(checksum), word.size());
}
