"""Load a Markdown or text file into a Document: title, body, version date, metadata."""

from __future__ import annotations

import re
from pathlib import Path, PurePath
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.ingest.files import read_text
from zhiku.ingest.registry import loaders
from zhiku.ingest.preamble import find_date, parse_preamble, split_front_matter, standard_cover
from zhiku.ingest.repeals import applied_law, repealed_titles
from zhiku.structure.numbering import strip_inline_tags
from zhiku.types import Document, Table, content_hash

INFO_END = "<!-- INFO END -->"
_TITLE_RE = re.compile(r"^#[^\S\n]+(.+?)[\s#]*$")
_STEM_DATE_RE = re.compile(r"^(?P<name>.*?)\s*[(（](?P<date>\d{4}-\d{1,2}-\d{1,2})[)）]\s*$")
# Layout-only HTML comments on a line of their own (<!-- FORCE BREAK -->, <!-- TABLE -->).
_COMMENT_LINE_RE = re.compile(r"^[ \t]*<!--.*?-->[ \t]*$", re.MULTILINE)
# Zero-width characters that some sources scatter in text (U+200B, U+2060, stray BOMs).
INVISIBLE_RE = re.compile("[\u200b\u2060\ufeff]")
_BLANK_RUN_RE = re.compile(r"\n[^\S\n]*\n(?:[^\S\n]*\n)+")
_VERSION_KEYS = ("version_date", "version", "date")


def doc_path(path: Path, root: Path) -> str:
    """The path relative to root in POSIX form (the file name if it is not under root)."""
    try:
        rel = path.resolve().relative_to(root.resolve())
    except ValueError:
        rel = PurePath(path.name)
    return rel.as_posix()


def split_stem(stem: str) -> tuple[str, str | None]:
    """Split ``劳动合同法(2012-12-28)`` into (``劳动合同法``, ``2012-12-28``)."""
    match = _STEM_DATE_RE.match(stem)
    if not match:
        return stem.strip(), None
    return match["name"].strip() or stem, find_date(match["date"])


# A line that opens a Markdown block of its own (heading, list item, quote, table, HTML, image,
# fence, container, link definition, bold lead) or is indented: never joined to its neighbour.
_BLOCK_START = re.compile(r"^(?:[#>|<!`~:\[\s*+-]|_|\d+[.、)）]|[（(][一二三四五六七八九十\d]+[)）]|[一二三四五六七八九十]+、)")
# A line that ends a sentence or a clause, or breaks on purpose (two spaces, a backslash, <br>).
_LINE_END = re.compile(r"(?:[。！？；：!?;:]|  |\\|<br\s*/?>)$", re.IGNORECASE)
_FENCE_LINE = re.compile(r"^\s{0,3}(?:```|~~~)")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


def join_soft_breaks(text: str) -> str:
    """Join the lines of a Markdown paragraph that a hard wrap broke mid-sentence
    (「…基于Rockchip」 / 「RK3568，集成…」), as a Markdown viewer shows them: a plain line
    ending without punctuation is joined to the plain line after it (no space between
    Chinese, one between Latin words). Lines of a code fence, list items, headings, tables
    and other blocks are left as they are.

    Args:
        text: a Markdown body.

    Returns:
        The body with those line breaks removed.
    """
    lines = text.split("\n")
    out: list[str] = []
    fence = joinable = False
    for line in lines:
        if _FENCE_LINE.match(line):
            fence, joinable = not fence, False
            out.append(line)
            continue
        plain = not fence and bool(line.strip()) and not _BLOCK_START.match(line)
        if plain and joinable and out:
            prev = out[-1]
            glue = "" if _CJK_CHAR.match(prev[-1]) or _CJK_CHAR.match(line[0]) else " "
            out[-1] = prev + glue + line
        else:
            out.append(line)
        joinable = plain and not _LINE_END.search(out[-1])
    return "\n".join(out)


def clean_body(text: str, comment_lines: bool = True) -> str:
    """Drop layout comment lines and runs of blank lines; strip the ends.

    Args:
        text: the raw body.
        comment_lines: drop lines that hold only an HTML comment (False when the Markdown
            loader has dropped its comments already, outside code, so a code fence keeps
            the comment lines it holds).

    Returns:
        The cleaned body.
    """
    if comment_lines:
        text = _COMMENT_LINE_RE.sub("", text)
    text = _BLANK_RUN_RE.sub("\n\n", text)
    return text.strip()


def split_header(text: str) -> tuple[list[str], list[str], str]:
    """Split a file into title headings, preamble lines and body.

    With ``<!-- INFO END -->``: the ``#`` lines before it are the title, the other
    non-empty lines before it the preamble, and the body is what follows it. Without
    it: the leading ``#`` line(s) (at most two, separated only by blank lines) are the
    title, there is no preamble, and the body is the rest.

    Args:
        text: the file text after any front matter.

    Returns:
        (title parts, preamble lines, raw body).
    """
    titles: list[str] = []
    preamble: list[str] = []
    head, sep, tail = text.partition(INFO_END)
    if sep:
        for raw in head.split("\n"):
            line = raw.strip()
            match = _TITLE_RE.match(line)
            if match:
                titles.append(strip_inline_tags(match[1]).strip())
            elif line:
                preamble.append(line.lstrip("#").strip())
        return titles, preamble, tail
    lines = text.split("\n")
    idx = 0
    while idx < len(lines) and len(titles) < 2:
        line = lines[idx].strip()
        match = _TITLE_RE.match(line)
        if match and (title := strip_inline_tags(match[1]).strip()):
            titles.append(title)
        elif line:
            break
        idx += 1
    return titles, preamble, "\n".join(lines[idx:]) if titles else text


_PIPE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_PIPE_SEP = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?[ \t]*)?$")
#: A body row once the table has begun: a leading pipe and one more cell boundary; the
#: closing pipe is optional (GitHub's tables allow it, and rows ending in a link often lack it).
_PIPE_BODY = re.compile(r"^[ \t]*\|.*(?<!\\)\|")


def _cells(line: str) -> tuple[str, ...]:
    inner = line.strip()[1:]
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return tuple(" ".join(c.replace("\\|", "|").split()) for c in re.split(r"(?<!\\)\|", inner))


def markdown_tables(body: str) -> tuple[Table, ...]:
    """GitHub pipe tables in a Markdown body: a header row, a ``| --- |`` line, body rows
    (each opening with a pipe; the closing pipe may be left out).

    Args:
        body: the cleaned body.

    Returns:
        One Table per pipe table with at least one body row; ``start``/``end`` span its lines.
    """
    out: list[Table] = []
    if "|" not in body:  # most documents: no line to match (matching every line was 40 % of loading a law)
        return ()
    lines = body.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    i = 0
    while i < len(lines) - 2:
        if _PIPE_ROW.match(lines[i]) and _PIPE_SEP.match(lines[i + 1]):
            head = _cells(lines[i])
            j = i + 2
            rows = []
            while j < len(lines) and _PIPE_BODY.match(lines[j]):
                row = _cells(lines[j])
                rows.append((row + ("",) * len(head))[: len(head)])
                j += 1
            if rows:
                out.append(Table(offsets[i], offsets[j] - 1, "", head, tuple(rows)))
            i = j
        else:
            i += 1
    return tuple(out)


#: How many lines at the top of a text are read as a standard's cover.
COVER_LINES = 30


def _cover(body: str) -> dict[str, str]:
    """The cover of a standard at the top of a text (:func:`standard_cover`): its first
    :data:`COVER_LINES` non-empty lines (a cover has no more)."""
    lines = [ln for ln in body.split("\n", 200)[:200] if ln.strip()][:COVER_LINES]
    return standard_cover(lines)


def _version_from(fields: dict[str, Any]) -> str | None:
    """A version date from front matter fields (``version_date``/``version``/``date``)."""
    for key in _VERSION_KEYS:
        value = fields.get(key)
        if isinstance(value, str) and value.strip():
            return find_date(value) or value.strip()
    return None


@loaders.register(".md")
@loaders.register(".markdown")
@loaders.register(".txt")
def load_text(path: str | Path, root: str | Path, markdown_as_shown: bool = True,
              markdown_hide_comments: bool = True, standard_cover: bool = True,
              markdown_setext: bool = False) -> Document:
    """Load one Markdown or text file; in Markdown, raw HTML tables are read as tables.

    Args:
        path: the file.
        root: the folder it was found under; ``Document.path`` is relative to it.
        markdown_as_shown: read Markdown's inline HTML, in-page contents and escapes as a
            viewer shows them (:func:`zhiku.ingest.markdown_text.markdown_as_shown`, config
            ``markdown_as_shown``); False keeps the source as written.
        markdown_hide_comments: drop Markdown's HTML comments before its title and headings
            are read (:func:`zhiku.ingest.markdown_text.drop_comments`, config
            ``markdown_hide_comments``); False leaves them to the line cleaning (a comment on
            a line of its own is dropped there, a longer one is read as text).
        markdown_setext: a Markdown line underlined with ``===`` or ``---`` (after a
            paragraph, not a blank line) is a heading of the first or second level, the
            first one over the text its title (:func:`zhiku.ingest.markdown_text.setext_headings`,
            config ``markdown_setext``, on by default there); False reads them as text and
            thematic breaks.
        standard_cover: a standard's cover lines at the top of the text (its number and an
            实施 date) give its ``standard``, ``promulgated`` and ``effective`` metadata
            (:func:`zhiku.ingest.preamble.standard_cover`; config ``standard_cover``).

    Returns:
        A Document whose id is the hash of its cleaned body (identical copies of a law
        in two folders share it), with title, version date and metadata
        (``preamble``, ``adopted``, ``amended``, ``promulgated``/``effective`` when
        stated, plus any front matter keys).

    Raises:
        ZhikuError: when the file cannot be read, holds binary data or no text.
    """
    path, root = Path(path), Path(root)
    text = read_text(path, binary_check=True)
    if not text.strip():
        raise ZhikuError(f"File {str(path)!r} is empty; add text to it or remove it.")
    fields, rest = split_front_matter(INVISIBLE_RE.sub("", text))
    markdown = path.suffix.lower() in (".md", ".markdown")
    if markdown and markdown_hide_comments:  # a licence in <!-- … --> is no title or heading
        from zhiku.ingest.markdown_text import drop_comments

        rest = drop_comments(rest, keep=(INFO_END,))
    if markdown and markdown_setext:  # 「摘要」 over 「---」 is a heading, as a viewer shows it
        from zhiku.ingest.markdown_text import setext_headings

        rest = setext_headings(rest)
    titles, preamble, raw_body = split_header(rest)
    if markdown:
        from zhiku.ingest.html_loader import markdown_from_html_tables

        from zhiku.ingest import markdown_text

        raw_body = join_soft_breaks(markdown_from_html_tables(raw_body))
        if markdown_as_shown:  # inline HTML, in-page contents, escapes: as a viewer shows
            raw_body = markdown_text.markdown_as_shown(raw_body)
    body = clean_body(raw_body, comment_lines=not (markdown and markdown_hide_comments))
    if not body:
        raise ZhikuError(
            f"File {str(path)!r} has a title but no text; add the body or remove the file."
        )
    name, stem_date = split_stem(path.stem)
    front_title = fields.get("title") if isinstance(fields.get("title"), str) else None
    title = " ".join(titles) or (front_title or "").strip() or name
    metadata: dict[str, Any] = dict(fields)
    metadata.update(parse_preamble(preamble, body))
    if standard_cover:  # a standard's cover: its number, 发布 and 实施 dates (实施: in force)
        metadata.update(_cover(body))
    if repeals := repealed_titles(body):  # 「《X》同时废止」: the index gives X an expiry
        metadata["repeals"] = repeals
    if law := applied_law(title):  # 「适用《X》…的解释」: ends with X if X is repealed by name
        metadata["applies"] = law
    return Document(
        id=content_hash(body),
        path=doc_path(path, root),
        title=title,
        body=body,
        version_date=stem_date or _version_from(fields),
        metadata=metadata,
        tables=markdown_tables(body) if markdown else (),
    )
