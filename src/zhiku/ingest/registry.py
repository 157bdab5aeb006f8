"""Loaders per file format, keyed by suffix, and the one entry point that picks them."""

from __future__ import annotations

from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.registry import Registry
from zhiku.types import Document

#: Suffix (``.pdf``) → loader ``(path, root) -> Document``; third parties register the same way.
loaders: Registry[Document] = Registry("loader")

#: Files larger than this are refused unless the caller passes another limit.
DEFAULT_MAX_BYTES = 200 * 1024 * 1024


def suffixes() -> tuple[str, ...]:
    """Every suffix a loader is registered for, sorted (``.csv``, ``.docx``, ...).

    Returns:
        The suffixes, lower case with their dot.
    """
    return tuple(loaders.names())


#: Suffixes whose loader takes ``markdown_as_shown`` (:func:`load_file`).
MARKDOWN_SUFFIXES = (".md", ".markdown")

#: The config settings that change what a loader reads, in the order :func:`load_file` takes
#: them (and an eval index is told apart by: another reading is another index).
LOADER_SETTINGS = ("markdown_as_shown", "pdf_unruled_tables", "html_table_titles", "pdf_merged_cells",
                   "ocr_tables", "markdown_hide_comments", "standard_clauses", "standard_cover",
                   "markdown_setext")


def loader_options(cfg: object) -> dict[str, bool]:
    """The keyword arguments of :func:`load_file` a config gives (:data:`LOADER_SETTINGS`),
    so every door that loads files reads them the way the config says."""
    return {name: bool(getattr(cfg, name)) for name in LOADER_SETTINGS}


def load_file(path: str | Path, root: str | Path, max_bytes: int = DEFAULT_MAX_BYTES,
              timeout_s: float | None = None, markdown_as_shown: bool = True,
              pdf_unruled_tables: bool = True, html_table_titles: bool = True,
              pdf_merged_cells: bool = True, ocr_tables: bool = True,
              markdown_hide_comments: bool = True, standard_clauses: bool = True,
              standard_cover: bool = True, markdown_setext: bool = True) -> Document:
    """Load one file with the loader registered for its suffix.

    Office packages are checked for zip bombs by their declared sizes first, and the
    load is given up after ``timeout_s`` so one file never hangs a batch.

    Args:
        path: the file.
        root: the folder it was found under; ``Document.path`` is relative to it.
        max_bytes: files larger than this are refused.
        timeout_s: seconds the load may take (None: ``guards.DEFAULT_TIMEOUT_S``; 0: none).
        markdown_as_shown: a Markdown file is read as a viewer shows it (config
            ``markdown_as_shown``); False is passed to its loader as ``markdown_as_shown``
            (a loader registered for ``.md`` then takes that keyword), True passes nothing.
        pdf_unruled_tables: a PDF's tables printed without ruling lines are read as tables
            (config ``pdf_unruled_tables``); False is passed to the ``.pdf`` loader as
            ``pdf_unruled_tables``, True passes nothing.
        html_table_titles: an HTML table without a caption is captioned with the title
            lines above it (config ``html_table_titles``); False is passed to the ``.html``
            and ``.htm`` loader as ``html_table_titles``, True passes nothing.
        pdf_merged_cells: a PDF table's merged and wrapped cells are read (config
            ``pdf_merged_cells``); False is passed to the ``.pdf`` loader as
            ``pdf_merged_cells``, True passes nothing.
        ocr_tables: a PDF page read by OCR has its ruled tables read as tables (config
            ``ocr_tables``); False is passed to the ``.pdf`` loader as ``ocr_tables``,
            True passes nothing.
        markdown_hide_comments: a Markdown file's HTML comments are dropped (config
            ``markdown_hide_comments``); False is passed to its loader as
            ``markdown_hide_comments``, True passes nothing.
        standard_clauses: a standard's numbered clauses are its tree (config
            ``standard_clauses``); False is passed to the ``.pdf`` loader as
            ``standard_clauses``, True passes nothing.
        standard_cover: a standard's cover page is metadata, not headings (config
            ``standard_cover``); False is passed to the ``.pdf``, ``.txt`` and Markdown loaders
            as ``standard_cover``, True passes nothing.
        markdown_setext: a Markdown file's setext headings (``===``/``---`` under a line) are
            headings (config ``markdown_setext``, on by default); True is passed to its loader
            as ``markdown_setext``, False passes nothing.

    Returns:
        The loaded Document.

    Raises:
        ZhikuError: one sentence naming the file and what is wrong: unsupported type,
            unreadable, empty, too large, a zip bomb, binary in a text file, too slow,
            encrypted, corrupt or without text.
    """
    from zhiku.ingest.guards import DEFAULT_TIMEOUT_S, ZIP_SUFFIXES, check_zip, time_limit, timed_out

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in loaders.names():
        raise ZhikuError(f"File {str(path)!r} is not a supported type; "
                         f"give one of {', '.join(suffixes())} or remove it.")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ZhikuError(f"Cannot read {str(path)!r} ({exc.strerror or type(exc).__name__}); "
                         "check that it exists and is readable.") from exc
    if size == 0:
        raise ZhikuError(f"File {str(path)!r} is empty (0 bytes); add content to it or remove it.")
    if size > max_bytes:
        raise ZhikuError(f"File {str(path)!r} is too large ({size / 2**20:.0f} MB, limit "
                         f"{max_bytes / 2**20:.0f} MB); split it or raise max_file_mb.")
    if suffix in ZIP_SUFFIXES:
        check_zip(path)
    try:
        with time_limit(path, DEFAULT_TIMEOUT_S if timeout_s is None else timeout_s):
            shown = {} if markdown_as_shown or suffix not in MARKDOWN_SUFFIXES else {"markdown_as_shown": False}
            shown |= {} if markdown_hide_comments or suffix not in MARKDOWN_SUFFIXES \
                else {"markdown_hide_comments": False}
            shown |= {} if pdf_unruled_tables or suffix != ".pdf" else {"pdf_unruled_tables": False}
            shown |= {} if pdf_merged_cells or suffix != ".pdf" else {"pdf_merged_cells": False}
            shown |= {} if ocr_tables or suffix != ".pdf" else {"ocr_tables": False}
            shown |= {} if standard_clauses or suffix != ".pdf" else {"standard_clauses": False}
            shown |= {} if standard_cover or suffix not in (".pdf", ".txt", *MARKDOWN_SUFFIXES) \
                else {"standard_cover": False}
            shown |= {"markdown_setext": True} if markdown_setext and suffix in MARKDOWN_SUFFIXES else {}
            shown |= {} if html_table_titles or suffix not in (".html", ".htm") \
                else {"html_table_titles": False}
            return apply_sidecar(loaders.create(suffix, path, Path(root), **shown), path)
    except ZhikuError:
        raise
    except Exception as exc:  # noqa: BLE001 - a parser's own error becomes one clear sentence
        late = timed_out(exc)  # the time limit, wrapped by the parser: not a damaged file
        if late is not None:
            raise late from exc
        raise ZhikuError(f"File {str(path)!r} could not be read as {suffix} "
                         f"({type(exc).__name__}: {str(exc)[:80]}); it may be damaged, "
                         "re-export it or remove it.") from exc


SIDECAR_KEYS = {"title", "version_date", "effective", "expiry", "law", "groups"}


def apply_sidecar(doc: Document, path: Path) -> Document:
    """Apply ``<file>.meta.toml`` beside a document: title, version_date, effective,
    expiry (dates ``YYYY-MM-DD``), ``law`` (a name linking versions explicitly) and
    ``groups`` (who may read it, see :mod:`zhiku.access`).

    Raises:
        ZhikuError: the sidecar is not valid TOML or has an unknown key or a bad date.
    """
    import re
    import tomllib
    from dataclasses import replace

    side = path.with_name(path.name + ".meta.toml")
    if not side.is_file():
        return doc
    try:
        meta = tomllib.loads(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ZhikuError(f"Sidecar {str(side)!r} is not valid TOML ({exc}); fix or remove it.") from exc
    unknown = set(meta) - SIDECAR_KEYS
    if unknown:
        raise ZhikuError(f"Sidecar {str(side)!r} has unknown keys {sorted(unknown)}; "
                         f"use {', '.join(sorted(SIDECAR_KEYS))}.")
    groups = _sidecar_groups(side, meta.pop("groups", None))
    meta = {k: str(v) for k, v in meta.items()}
    for k in ("version_date", "effective", "expiry"):
        if k in meta and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", meta[k]):
            raise ZhikuError(f"Sidecar {str(side)!r}: {k} must be a date like 2024-07-01.")
    return replace(doc, title=meta.get("title", doc.title),
                   version_date=meta.get("version_date", doc.version_date),
                   metadata={**doc.metadata, **{k: v for k, v in meta.items()
                                                if k in ("effective", "expiry", "law")},
                             **({"groups": groups} if groups else {})})


def _sidecar_groups(side: Path, value: object) -> list[str]:
    """A sidecar's ``groups = ["hr", ...]``, checked.

    Raises:
        ZhikuError: not a list of valid group names.
    """
    from zhiku.access import check_group

    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
        raise ZhikuError(f"Sidecar {str(side)!r}: groups must be a list of names like [\"hr\"].")
    return sorted({check_group(g, str(side)) for g in value})
