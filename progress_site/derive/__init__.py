"""Derive stage: every ratio, change, share, count and range, computed from the data.

Imports run one way: quantity < views < namespace < evaluation < site (`derive()`);
expressions (the parser of `{{ ... }}`) and selection (the datasets' records an expression
selects) import none of them.
"""
