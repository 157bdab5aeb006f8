"""Table and database sources answered by conditions: typed schemas, read-only SQL."""
