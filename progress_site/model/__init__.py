"""The declared data format: records, values, units, and the walk over records. No I/O."""
