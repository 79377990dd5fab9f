window.BENCHMARK_DATA = {
  "lastUpdate": 1795219200000,
  "repoUrl": "https://github.com/example/progress-site",
  "entries": {
    "Rust Benchmark": [
      {
        "commit": {
          "author": {"email": "dev@example.com", "name": "Dev", "username": "dev"},
          "committer": {"email": "noreply@github.com", "name": "GitHub", "username": "web-flow"},
          "distinct": true,
          "id": "57930e6a1b2c3d4e5f60718293a4b5c6d7e8f901",
          "message": "Parse the config once",
          "timestamp": "2026-11-02T10:15:00+01:00",
          "tree_id": "0a1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c",
          "url": "https://github.com/example/progress-site/commit/57930e6a1b2c3d4e5f60718293a4b5c6d7e8f901"
        },
        "date": 1793613300000,
        "tool": "cargo",
        "benches": [
          {"name": "fib/20", "value": 24031, "range": "± 412", "unit": "ns/iter"},
          {"name": "sort", "value": 815, "range": "± 22", "unit": "ns/iter"}
        ]
      },
      {
        "commit": {
          "author": {"email": "dev@example.com", "name": "Dev", "username": "dev"},
          "committer": {"email": "noreply@github.com", "name": "GitHub", "username": "web-flow"},
          "distinct": true,
          "id": "c38a01e9f8e7d6c5b4a392817069f5e4d3c2b1a0",
          "message": "Group the writes of one read",
          "timestamp": "2026-11-20T18:02:11Z",
          "tree_id": "1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d",
          "url": "https://github.com/example/progress-site/commit/c38a01e9f8e7d6c5b4a392817069f5e4d3c2b1a0"
        },
        "date": 1795200200000,
        "tool": "cargo",
        "benches": [
          {"name": "fib/20", "value": 23987, "range": "± 380", "unit": "ns/iter"},
          {"name": "sort", "value": 790, "range": "± 19", "unit": "ns/iter"}
        ]
      }
    ],
    "Go Benchmark": [
      {
        "commit": {
          "author": {"email": "dev@example.com", "name": "Dev", "username": "dev"},
          "committer": {"email": "noreply@github.com", "name": "GitHub", "username": "web-flow"},
          "distinct": true,
          "id": "c38a01e9f8e7d6c5b4a392817069f5e4d3c2b1a0",
          "message": "Group the writes of one read",
          "timestamp": "2026-11-20T18:02:11Z",
          "tree_id": "1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d",
          "url": "https://github.com/example/progress-site/commit/c38a01e9f8e7d6c5b4a392817069f5e4d3c2b1a0"
        },
        "date": 1795200300000,
        "tool": "go",
        "benches": [
          {"name": "BenchmarkJoin", "value": 74.23, "unit": "ns/op", "extra": "2000 times\n2 procs"}
        ]
      }
    ]
  }
}
