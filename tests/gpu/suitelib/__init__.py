"""Shared code of the GPU concurrency suite: expectation parsing, detector output adapters."""
