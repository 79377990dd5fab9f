"""`record` and `import`: results written into data files without retyping them."""
