"""Word .docx loader (python-docx): heading styles become the tree, tables stay in order."""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from zhiku.chunk.numerals import int_to_cn
from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder
from zhiku.ingest.guards import check_time
from zhiku.ingest.registry import loaders
from zhiku.structure.numbering import ASKS_RE, DETECTED_LEVEL, allowed, has_articles, heading_like, question_level
from zhiku.types import Document

_HEADING_STYLE = re.compile(r"^(?:heading|标题)\s*(\d)$", re.IGNORECASE)
_TOC_STYLE = re.compile(r"^(?:toc|目录)\s*\d*$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _level(style_name: str) -> int | None:
    """Heading level of a paragraph style (``Heading 2``/``标题 2`` → 2, ``Title`` → 1)."""
    match = _HEADING_STYLE.match(style_name.strip())
    if match:
        return int(match[1])
    return 1 if style_name.strip().lower() in {"title", "标题"} else None


@dataclass(frozen=True)
class _Lvl:
    """One level of a Word list: its number format, its printed pattern and first value."""

    fmt: str = "decimal"  # numFmt: decimal, lowerLetter, chineseCounting, bullet, none...
    text: str = ""  # lvlText: ``%1.%2``, ``%1)``, ``第%1章``; empty for the default
    start: int = 1


_CN_FORMATS = {"chineseCounting", "chineseCountingThousand", "ideographTraditional",
               "japaneseCounting", "taiwaneseCounting", "chineseLegalSimplified"}


def _lvl(el) -> _Lvl:
    """The _Lvl of a ``w:lvl`` element."""
    def val(tag: str) -> str | None:
        child = el.find(f"{_W}{tag}")
        return child.get(f"{_W}val") if child is not None else None
    start = val("start")
    return _Lvl(val("numFmt") or "decimal", val("lvlText") or "",
                int(start) if start and start.isdigit() else 1)


def _num_formats(document) -> dict[tuple[str, str], _Lvl]:
    """(numId, ilvl) → the level's :class:`_Lvl`."""
    try:
        root = document.part.numbering_part.element
    except (NotImplementedError, KeyError, AttributeError):
        return {}
    abstract = {}
    for an in root.findall(f"{_W}abstractNum"):
        for lvl in an.findall(f"{_W}lvl"):
            abstract[(an.get(f"{_W}abstractNumId"), lvl.get(f"{_W}ilvl"))] = _lvl(lvl)
    out = {}
    for num in root.findall(f"{_W}num"):
        ref = num.find(f"{_W}abstractNumId")
        aid = ref.get(f"{_W}val") if ref is not None else None
        for (a, lvl), fmt in abstract.items():
            if a == aid:
                out[(num.get(f"{_W}numId"), lvl)] = fmt
    return out


def _num_pr(par):
    """The list numbering properties of a paragraph, direct or from its style."""
    for ppr in (par._p.pPr, par.style.element.pPr if par.style is not None else None):
        num = ppr.find(f"{_W}numPr") if ppr is not None else None
        if num is not None and num.find(f"{_W}numId") is not None:
            return num
    return None


def _outline_level(par) -> int | None:
    """The Word outline level (1-9) of a paragraph, set directly or by its style chain
    (custom heading styles of Chinese templates: 章标题, 一级条标题...)."""
    style = par.style
    for ppr in (par._p.pPr, *(s.element.pPr for s in _style_chain(style))):
        el = ppr.find(f"{_W}outlineLvl") if ppr is not None else None
        if el is not None:
            val = el.get(f"{_W}val")
            return int(val) + 1 if val and val.isdigit() and int(val) < 9 else None
    return None


def _style_chain(style):
    """A paragraph style and the styles it is based on."""
    seen = 0
    while style is not None and seen < 10:
        yield style
        style, seen = style.base_style, seen + 1


def _format_number(n: int, fmt: str) -> str:
    """A list counter as Word prints it in a format (``3`` → ``c``, ``iii``, ``三``)."""
    if fmt in ("lowerLetter", "upperLetter"):
        letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter.upper() if fmt == "upperLetter" else letter
    if fmt in ("lowerRoman", "upperRoman"):
        out, rest = "", n
        for value, sym in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
                           (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
                           (4, "iv"), (1, "i")):
            while rest >= value:
                out, rest = out + sym, rest - value
        return out.upper() if fmt == "upperRoman" else out
    if fmt in _CN_FORMATS:
        return int_to_cn(n)
    return "" if fmt == "none" else str(n)


def _numbering(par, counters: dict[tuple[str, str], int], formats: dict) -> str:
    """The printed prefix of a numbered or bulleted paragraph as its list level's pattern
    makes it (``5.1 ``, ``a) ``, ``一、``, ``• ``), counting every level of the list."""
    num = _num_pr(par)
    if num is None:
        return ""
    ilvl = num.find(f"{_W}ilvl")
    key = (num.find(f"{_W}numId").get(f"{_W}val"),
           ilvl.get(f"{_W}val") if ilvl is not None else "0")
    lvl = formats.get(key, _Lvl())
    if key[0] == "0":
        return ""
    if lvl.fmt == "bullet":
        return "• "
    counters[key] = counters.get(key, lvl.start - 1) + 1
    for other in [k for k in counters if k[0] == key[0] and int(k[1]) > int(key[1])]:
        del counters[other]
    if not lvl.text:
        return f"{int_to_cn(counters[key])}、" if lvl.fmt in _CN_FORMATS else f"{counters[key]}. "

    def level_number(match: re.Match) -> str:
        k = (key[0], str(int(match[1]) - 1))
        other = formats.get(k, _Lvl())
        return _format_number(counters.get(k, other.start), other.fmt)

    text = re.sub(r"%([1-9])", level_number, lvl.text).replace("\u3000", " ").strip()
    return f"{text} " if text else ""


def _bold(par) -> bool:
    """Whether every run that holds text is bold (directly or by the paragraph style)."""
    runs = [r for r in par.runs if r.text.strip()]
    style_bold = bool(par.style is not None and par.style.font.bold)
    return bool(runs) and all(r.bold or (r.bold is None and style_bold) for r in runs)


def _bold_question(par, text: str) -> bool:
    """A paragraph without a heading style that is an FAQ entry's question: bold as a
    whole and asking (``**如何申请开发板？**``); it heads the answer paragraphs under it,
    one level below the last heading style, as the same line in Markdown does."""
    return len(text) <= 80 and bool(ASKS_RE.search(text)) and _bold(par)


def _numbered_heading(par, text: str, articles: bool) -> bool:
    """A paragraph without a heading style that is one: a short numbered line (一、 1.1
    （一） 第X部分) in bold, or 一、/第X部分 numbering on its own line of a text that is
    not organised in 第X条 articles."""
    kind = heading_like(text)
    if not allowed(kind, articles):
        return False
    return _bold(par) or (kind in ("cn", "part") and len(text) <= 25)


def _table(b: BodyBuilder, table, last: str, articles: bool) -> None:
    """Add a Word table; a row merged across the whole table that reads as a numbered
    heading (spec sheets: ``2 电气特性``) becomes a heading and splits the table there."""
    rows = [[cell.text for cell in row.cells] for row in table.rows]
    caption = last if len(last) <= 40 else ""
    header: list[str] | None = None
    part: list[list[str]] = []
    for row in rows:
        cells = [" ".join(c.split()) for c in row]
        merged = len(cells) > 1 and len(set(cells)) == 1 and cells[0]
        if merged and allowed(heading_like(cells[0]), articles):
            if len(part) > 1:
                b.table(part, caption=caption)
            header = header or (part[0] if part else None)
            b.heading(cells[0], DETECTED_LEVEL)
            part, caption = ([header] if header else []), ""
            continue
        part.append(row)
    if part and (len(part) > 1 or header is None):
        b.table(part, caption=caption)


@loaders.register(".docx")
def load_docx(path: Path, root: Path) -> Document:
    """Load a Word document: headings, numbered paragraphs and tables in document order.

    Args:
        path: the .docx file.
        root: the folder it was found under.

    Returns:
        The Document; its outline comes from heading styles (Heading 1-9, 标题 1-9,
        Title), table-of-contents paragraphs are skipped, each table is a Table.

    Raises:
        ZhikuError: the file is not a valid .docx (damaged, or another format renamed)
            or holds no text.
    """
    import docx
    from docx.table import Table as DocxTable
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(str(path))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise ZhikuError(f"File {str(path)!r} is not a valid Word .docx file (damaged, or another "
                         "format renamed to .docx); open and re-save it as .docx or remove it.") from exc
    except Exception as exc:  # noqa: BLE001 - python-docx raises several types for bad packages
        raise ZhikuError(f"File {str(path)!r} is not a valid Word .docx file "
                         f"({type(exc).__name__}); open and re-save it as .docx or remove it.") from exc
    b = BodyBuilder()
    counters: dict[tuple[str, str], int] = {}
    formats = _num_formats(document)
    body = document.element.body
    articles = has_articles([p.text for p in document.paragraphs])
    last, depth = "", 0  # the text of the last paragraph, the level of the last heading style
    for el in body.iterchildren():
        check_time()
        if el.tag == f"{_W}p":
            par = Paragraph(el, document)
            style = par.style.name if par.style is not None else ""
            text = par.text.strip()
            if not text or _TOC_STYLE.match(style or ""):
                continue
            level = _level(style or "")
            level = level if level is not None else _outline_level(par)
            numbered = _numbering(par, counters, formats) + text
            if level is not None:
                b.heading(text if _level(style or "") else numbered, level)
                depth = level
            elif _numbered_heading(par, numbered, articles):
                b.heading(numbered, DETECTED_LEVEL)
            elif _bold_question(par, numbered):
                b.heading(numbered, question_level(depth, 9))
            else:
                b.paragraph(numbered)
            last = text
        elif el.tag == f"{_W}tbl":
            _table(b, DocxTable(el, document), last, articles)
    if not b.text().strip():
        raise ZhikuError(f"File {str(path)!r} holds no text; add content or remove it.")
    title = document.core_properties.title or ""
    return b.build(path, root, title=title, fmt="docx")
