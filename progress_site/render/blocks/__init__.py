"""The blocks content pages can use, one module per family."""
