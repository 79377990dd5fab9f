"""Load stage: data files and pages read into typed records, with source positions."""
