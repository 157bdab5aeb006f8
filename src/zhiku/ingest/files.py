"""Finding files to ingest under folders and decoding them (UTF-8, BOM, GB18030, guesses)."""

from __future__ import annotations

import codecs
from pathlib import Path

from zhiku.errors import ZhikuError

TEXT_SUFFIXES = (".md", ".markdown", ".txt")

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _wanted(path: Path) -> bool:
    """Whether a file has a suffix some registered loader reads."""
    from zhiku.ingest.registry import suffixes

    return path.suffix.lower() in suffixes()


def _walk(folder: Path) -> list[Path]:
    """Readable text files under ``folder``, skipping hidden files and folders."""
    found = []
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if path.is_file() and _wanted(path):
            found.append(path)
    return found


def iter_files(paths: list[str | Path]) -> list[tuple[Path, Path]]:
    """List the files to ingest: every suffix a loader is registered for.

    Folders are walked recursively (hidden entries skipped); a file given directly is
    taken as is. A file reached twice keeps the root it was first reached from.

    Args:
        paths: files and folders.

    Returns:
        (file, root) pairs sorted by file path, where root is the folder that was given,
        or the file's parent for a file given directly.

    Raises:
        ZhikuError: when a path does not exist, or a file given directly has a
            suffix no loader reads.
    """
    pairs: dict[Path, tuple[Path, Path]] = {}
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise ZhikuError(f"Path {str(path)!r} does not exist; check the spelling or create it.")
        if path.is_dir():
            found = [(f, path) for f in _walk(path)]
        elif _wanted(path):
            found = [(path, path.parent)]
        else:
            from zhiku.ingest.registry import suffixes

            raise ZhikuError(
                f"File {str(path)!r} is not a supported type; "
                f"give a {', '.join(suffixes())} file or a folder."
            )
        for file, root in found:
            pairs.setdefault(file.resolve(), (file, root))
    return sorted(pairs.values(), key=lambda pair: pair[0].as_posix())


def _mostly(data: bytes, encoding: str) -> str | None:
    """Decode if only a few stray bytes are invalid in ``encoding``, else None."""
    text = data.decode(encoding, errors="replace")
    bad = text.count("\ufffd")
    good = sum(1 for ch in text if ord(ch) > 0x7F) - bad
    return text if bad and good >= 50 * bad else None


def decode_bytes(data: bytes) -> str:
    """Decode file bytes to text, trying the likely encodings of Chinese documents.

    Order: a UTF-16/32 byte-order mark; UTF-8 (with or without BOM), strict; UTF-8
    with a few stray bytes replaced; GB18030, strict; charset-normalizer's best guess;
    GB18030 with a few stray bytes replaced; finally UTF-8 with every bad byte
    replaced. Never raises on bad bytes.

    Args:
        data: the raw bytes.

    Returns:
        The text with ``\\r\\n`` and ``\\r`` turned into ``\\n``.
    """
    text = None
    for bom, name in _BOMS:
        if data.startswith(bom):
            text = data.decode(name, errors="replace")
            break
    if text is None:
        text = _decode_plain(data)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decode_plain(data: bytes) -> str:
    """The UTF-8 / GB18030 / guess cascade behind :func:`decode_bytes`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    text = _mostly(data, "utf-8")
    if text is not None:
        return text
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        pass
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        if best is not None:
            return str(best)
    except Exception:  # noqa: BLE001 - a failed guess falls through to UTF-8
        pass
    return _mostly(data, "gb18030") or data.decode("utf-8", errors="replace")


def read_text(path: str | Path, binary_check: bool = False) -> str:
    """Read a text file in whatever encoding it uses.

    Args:
        path: the file.
        binary_check: refuse a file whose bytes are binary (NUL or control bytes).

    Returns:
        The decoded text with ``\\n`` line ends.

    Raises:
        ZhikuError: when the file cannot be read, or holds binary data (``binary_check``).
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ZhikuError(
            f"Cannot read {str(path)!r} ({reason}); check that it exists and is readable."
        ) from exc
    if binary_check:
        from zhiku.ingest.guards import check_text_bytes

        check_text_bytes(Path(path), data)
    return decode_bytes(data)
