"""Files for running seqloc inside other infrastructure."""
