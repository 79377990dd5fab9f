// A tiny Google Benchmark program, compiled against Debian's libbenchmark-dev 1.7.1,
// to produce tests/samples/google-benchmark.json.
#include <benchmark/benchmark.h>
#include <string>
#include <vector>
#include <numeric>

static void BM_StringCopy(benchmark::State& state) {
  std::string x(64, 'x');
  for (auto _ : state) {
    std::string copy(x);
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_StringCopy);

static void BM_VectorSum(benchmark::State& state) {
  std::vector<int> v(state.range(0));
  std::iota(v.begin(), v.end(), 0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0L));
  }
}
BENCHMARK(BM_VectorSum)->Arg(1024)->Arg(16384);

BENCHMARK_MAIN();
