"""Ingest stage: find Markdown/text files, decode them, and load them as Documents."""

from zhiku.ingest.files import TEXT_SUFFIXES, decode_bytes, iter_files, read_text
from zhiku.ingest.loader import INFO_END, load_file
from zhiku.ingest.preamble import find_date, parse_preamble, split_front_matter

__all__ = [
    "INFO_END",
    "TEXT_SUFFIXES",
    "decode_bytes",
    "find_date",
    "iter_files",
    "load_file",
    "parse_preamble",
    "read_text",
    "split_front_matter",
]
