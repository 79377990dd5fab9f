"""For the repository's own docs and editors: the JSON Schema and the field reference."""
