"""A tiny test-only ruleset plugged in from its own files (issue 11)."""
