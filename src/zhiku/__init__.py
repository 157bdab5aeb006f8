"""zhiku (知库): knowledge-base question answering for Chinese-first documents."""

__version__ = "0.1.0"
