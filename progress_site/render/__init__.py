"""Render stage: every page in every language, in memory as {path: bytes}."""
