"""BenchExec tool-info module for seqloc (seqloc.py)."""
