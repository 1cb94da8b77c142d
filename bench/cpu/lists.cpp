#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <unordered_map>
#include <vector>

int main() {
  int64_t seed = 12345;
  std::vector<int64_t> xs;
  for (int i = 0; i < 200000; ++i) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    xs.push_back(seed % 100000);
  }
  std::vector<int64_t> sorted = xs;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> evens;
  std::copy_if(xs.begin(), xs.end(), std::back_inserter(evens), [](int64_t x) { return x % 2 == 0; });
  std::vector<int64_t> scaled(evens.size());
  std::transform(evens.begin(), evens.end(), scaled.begin(), [](int64_t x) { return x * 3; });
  int64_t total = std::accumulate(scaled.begin(), scaled.end(), int64_t{0});
  std::unordered_map<int64_t, std::vector<int64_t>> groups;
  for (int64_t x : xs) groups[x % 100].push_back(x);
  size_t biggest = 0;
  for (auto& [k, g] : groups) biggest = std::max(biggest, g.size());
  std::unordered_map<int64_t, int64_t> counts;
  for (int64_t x : xs) ++counts[x % 1000];
  std::printf("%lld %lld %lld %zu %lld %zu %zu %zu %lld\n", (long long)sorted[0], (long long)sorted[100000],
              (long long)sorted.back(), evens.size(), (long long)total, groups.size(), biggest, counts.size(),
              (long long)counts[7]);
}
