// A benchmark that fails: Google Benchmark records error_occurred and error_message.
#include <benchmark/benchmark.h>
#include <cstdio>

static void BM_ReadMissing(benchmark::State& state) {
  std::FILE* file = std::fopen("/nonexistent/input.bin", "rb");
  if (file == nullptr) {
    state.SkipWithError("cannot open /nonexistent/input.bin");
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::fgetc(file));
  }
  std::fclose(file);
}
BENCHMARK(BM_ReadMissing);

static void BM_Add(benchmark::State& state) {
  int x = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x += 1);
  }
}
BENCHMARK(BM_Add);

BENCHMARK_MAIN();
