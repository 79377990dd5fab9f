"""progress-site: a project's page of progress, tests and benchmarks, built from its data."""
