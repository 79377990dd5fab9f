"""Watch mode: serve the site, rebuild on save, refresh the open tabs."""
