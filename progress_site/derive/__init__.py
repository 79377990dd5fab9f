"""Derive stage: every ratio, change, share, count and range, computed from the data."""
