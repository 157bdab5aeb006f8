"""Test suite (a package, so test folders such as agents/ never shadow installed packages)."""
