"""What a chunk of a document without numbered articles is read under: its heading, a row's title."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath

from zhiku.registry import Choice
from zhiku.types import Chunk

# a heading's own numbering (1, 4.2.1., 第三章, 一、): not what the heading says
_HEAD_NUMBER = re.compile(
    r"^\s*(?:第[一二三四五六七八九十百零〇\d]+[章节篇部分]|[一二三四五六七八九十]+、|\d+(?:\.\d+)*\.?)\s*")


def heading(chunk: Chunk) -> str:
    """The heading of the section a chunk sits in, its numbering removed, when the chunk is
    not a statute's article (whose clause stands on its own) and its text does not already
    hold it: an FAQ entry's question, 「版本 1.2.0」 over a list of changes.

    Args:
        chunk: an evidence chunk.

    Returns:
        The heading, or "".
    """
    if chunk.article or not chunk.section_path:
        return ""
    head = _HEAD_NUMBER.sub("", chunk.section_path[-1]).strip()
    return head if head and head not in chunk.text else ""


# a section label naming a release: a release number after v or 版本 (「v4.8.0」, 「版本 1.2.0」,
# 「Sa-Token v1.44.0 @2025-6-7」), or a label that is a release number alone or before its date
# (「4.8.9」, 「4.8.9 (2024-04-06)」) — not a chapter's numbering before its words (「2.1 安装」)
_RELEASE_LABEL = re.compile(r"(?:^|[^\w.])(?:v|版本\s*|release\s+|version\s+)\d+(?:\.\d+)+(?![\d.])|"
                            r"^\s*\d+(?:\.\d+)+\s*(?:$|[(（@\[`_\-]|(?:19|20)\d{2})", re.I)


def release_heading(chunk: Chunk) -> str:
    """The nearest of a chunk's section labels, its own first, that names a release
    (:data:`_RELEASE_LABEL`): a changelog's 「v4.8.0」 over its sub-section 「新组件」.

    Args:
        chunk: an evidence chunk.

    Returns:
        The label, or "" (none, or a statute's article).
    """
    if chunk.article:
        return ""
    return next((label.strip() for label in reversed(chunk.section_path) if _RELEASE_LABEL.search(label)), "")


# a release number a text states (v4.8.9, 1.44.0), not a date written with dots (2025.06.03)
_RELEASE_NUMBER = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+)(?![\d.])", re.I)
_DOTTED_DATE = re.compile(r"(?:19|20)\d{2}\.\d{1,2}\.\d{1,2}")


def release_numbers(text: str) -> set[str]:
    """The release numbers ``text`` states, without their v (「vant 4.8.9」, 「v1.44.0」 →
    4.8.9, 1.44.0); a date written with dots is none.

    Args:
        text: a question or a section label.

    Returns:
        The numbers.
    """
    return {m.group(1) for m in _RELEASE_NUMBER.finditer(text) if not _DOTTED_DATE.fullmatch(m.group(1))}


def headed(chunk: Chunk) -> str:
    """A chunk's text under its :func:`heading` and, when it is an ancestor's label, the
    heading of the release its section sits under (:func:`release_heading`: 「v4.8.0」 over
    「新组件」): what a statement quoting the block under them is checked against.

    Args:
        chunk: an evidence chunk.

    Returns:
        The headings and the text, space-joined.
    """
    release = ancestor_release(chunk)
    above = release if release not in chunk.text else ""
    return " ".join(p for p in (above, heading(chunk), chunk.text) if p).lstrip()


def ancestor_release(chunk: Chunk) -> str:
    """The :func:`release_heading` a chunk's section sits under when it is an ancestor's label,
    not the section's own (「v4.8.0」 over 「新组件」); "" otherwise."""
    release = release_heading(chunk)
    return release if release and release != chunk.section_path[-1].strip() else ""


def context(chunk: Chunk) -> str:
    """What a chunk's sentences are read under: :func:`heading` and, for one row of a
    table, the document's title (the row alone names neither the product nor the table).

    Args:
        chunk: an evidence chunk.

    Returns:
        The title and heading, space-joined ("" for none).
    """
    title = chunk.title if chunk.kind == "table_row" and chunk.title not in chunk.text else ""
    return " ".join(p for p in (title, heading(chunk)) if p)


def section_labels(chunk: Chunk) -> str:
    """Every section label over a chunk of a document without numbered articles (「4.1 war部署方式
    4.1.2 在spring-boot-starter依赖中移除tomcat模块」): what the block is about, for the checks of
    what a question pins; "" for a statute's article.

    Args:
        chunk: an evidence chunk.

    Returns:
        The labels, space-joined.
    """
    return "" if chunk.article else " ".join(chunk.section_path)


# a version in a file name (「参与者公约行为准则-1.4版」, 「sdk-v2.0.1」): the edition the document is
_VERSION = re.compile(r"(?<![\d.])v?\d+(?:\.\d+)+(?![\d.])", re.I)


def document_name(chunk: Chunk) -> str:
    """What names a chunk's document: its title, the words of its file name and a version
    the file name states (「参与者公约 行为准则 版 1.4」). A question naming the document with
    these words (「1.4 版参与者公约里…」) picks the document, not one passage of it.

    Args:
        chunk: an evidence chunk.

    Returns:
        The title, the file name's words and its versions, space-joined.
    """
    stem = PurePosixPath(chunk.doc_path).stem
    return " ".join(p for p in (chunk.title or "", _name_words(stem), *_VERSION.findall(stem)) if p)


# a model code in a file name: two or more Latin letters run together with digits (Niobe407,
# DAYU210, Hi3751V350, RK3568): it names the product the document is about, not a number
_MODEL = re.compile(r"(?<![A-Za-z0-9])(?=[A-Za-z0-9]*\d)(?=(?:[0-9]*[A-Za-z]){2})[A-Za-z0-9]+")


def _name_words(stem: str) -> str:
    """The words of a file name, its numbers left out (a corpus id p00435, a date suffix:
    they state no quantity or time of what the document says); a model code keeps its
    digits (「Niobe407固件烧录」 is about the Niobe407, a page that never names it)."""
    parts, last = [], 0
    for m in _MODEL.finditer(stem):
        parts += [re.sub(r"[\d_\W]+", " ", stem[last:m.start()]), f" {m.group()} "]
        last = m.end()
    parts.append(re.sub(r"[\d_\W]+", " ", stem[last:]))
    return " ".join("".join(parts).split())


def model_codes(name: str) -> list[str]:
    """The model codes in a file name: two or more Latin letters run together with digits
    (``Niobe407``, ``DAYU210``, ``Hi3751V350``), not a corpus id (``p00435``) or a date.

    Args:
        name: a file name without its suffix.

    Returns:
        The codes in order.
    """
    return _MODEL.findall(name)


def file_codes(chunk: Chunk) -> str:
    """The model codes of a chunk's file name its title does not state (「Niobe407」 of
    Niobe407固件烧录.md titled 固件烧录, 「DAYU210」 of a page titled …HH-SCDAYU210…): the
    product a page is about when only its file name says so; "" for most documents.

    Args:
        chunk: a chunk.

    Returns:
        The codes, space-joined.
    """
    title = (chunk.title or "").lower()
    codes = model_codes(PurePosixPath(chunk.doc_path).stem)
    return " ".join(c for c in dict.fromkeys(codes) if not re.search(
        rf"(?<![a-z0-9]){re.escape(c.lower())}(?![a-z0-9])", title))


def block_text(chunk: Chunk, forms: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """The text a block is held to for what a question pins: its document's title, the
    words of its file name (「RocketMQ常见问题」 over a page titled 经常被问到的问题), its section
    labels (:func:`section_labels`) and its own text. The composer's sentence choice and the
    answerability check read the same text, so they cannot disagree.

    Args:
        chunk: an evidence chunk.
        forms: the short forms each document defines (config ``short_forms``:
            :meth:`zhiku.kb.KnowledgeBase.short_forms`); the definitions of the chunk's own
            document whose one form the block holds and the other not are appended
            (:func:`zhiku.chunk.shortforms.spelled_out`): 「ACL 里 PUB 权限…」 is met by the row
            「PUB | 发送权限」 of a document that writes 「权限控制（ACL）」 once, elsewhere.

    Returns:
        The title, file name, labels and text, space-joined.
    """
    name = _name_words(PurePosixPath(chunk.doc_path).stem)
    name = "" if len(name) < 2 or name in (chunk.title or "") else name
    out = f"{chunk.title or ''} {name} {section_labels(chunk)} {chunk.text}"
    more = defined(chunk, out, forms)
    return f"{out} {more}" if more else out


def defined(chunk: Chunk, text: str, forms: Mapping[str, Mapping[str, str]] | None) -> str:
    """The definitions of ``chunk``'s own document among ``forms`` (document id → short form
    → long form) whose one form ``text`` (what the chunk is read as) holds and the other not,
    as the document writes them (:func:`zhiku.chunk.shortforms.spelled_out`); "" for none."""
    own = forms.get(chunk.doc_id) if forms else None
    if not own:
        return ""
    from zhiku.chunk.shortforms import spelled_out

    return spelled_out(text, own)


class VectorText(Choice):
    """What of a chunk its dense vector is computed from (config ``vector_text``, pinned in the
    index manifest): ``text`` its text alone; ``title`` its document's title before it;
    ``context`` the title and every chapter heading over it (「中华人民共和国劳动合同法 第四章
    劳动合同的解除和终止」 over 「第四十条 有下列情形之一的…」), the contextual-chunk recipe."""

    TEXT = "text"
    TITLE = "title"
    CONTEXT = "context"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "vector_text"


def vector_text(chunk: Chunk, recipe: VectorText | str = VectorText.TEXT) -> str:
    """The text a chunk's dense vector is computed from under ``recipe`` (:class:`VectorText`):
    the chunk's text, after a first line of its document's title (``title``) and its chapter
    headings (``context``); a part the text already holds (a table row naming its table, a
    Markdown block repeating its heading) is left out, and a chunk with nothing to add keeps
    its text alone (so its vector, cached by text, is the plain one).

    Args:
        chunk: a searched chunk.
        recipe: the recipe (an index's pinned one).

    Returns:
        The text to embed as a passage.
    """
    recipe = VectorText.from_str(recipe) if isinstance(recipe, str) else recipe
    if recipe is VectorText.TEXT:
        return chunk.text
    parts = [chunk.title or ""]
    if recipe is VectorText.CONTEXT:
        parts += chunk.section_path
    above = " ".join(dict.fromkeys(p.strip() for p in parts if p.strip() and p.strip() not in chunk.text))
    return f"{above}\n{chunk.text}" if above else chunk.text
