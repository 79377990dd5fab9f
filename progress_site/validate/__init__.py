"""Validate stage: cross-references, unique ids and the rules of evidence."""
