"""Charts drawn at build time: Altair -> vl-convert -> inline SVG, cached by spec."""
