"""The declared data format: records, values, units. No I/O."""
