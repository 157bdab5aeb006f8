"""route stage."""
