"""Ingest stage: find files, pick the loader registered for each suffix, load Documents."""

from zhiku.ingest.registry import DEFAULT_MAX_BYTES, load_file, loader_options, loaders, suffixes  # noqa: I001
from zhiku.ingest import docx_loader, html_loader, loader, pdf, sheets  # noqa: F401  (built-ins)
from zhiku.ingest.files import TEXT_SUFFIXES, decode_bytes, iter_files, read_text
from zhiku.ingest.loader import INFO_END, load_text
from zhiku.ingest.preamble import find_date, parse_preamble, split_front_matter

__all__ = [
    "DEFAULT_MAX_BYTES",
    "INFO_END",
    "TEXT_SUFFIXES",
    "decode_bytes",
    "find_date",
    "iter_files",
    "load_file",
    "load_text",
    "loader_options",
    "loaders",
    "parse_preamble",
    "read_text",
    "split_front_matter",
    "suffixes",
]
