"""The `partygames` command line."""
