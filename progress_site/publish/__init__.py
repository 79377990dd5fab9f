"""Publish stage: the files beside the pages, and the atomic swap of the output folder."""
