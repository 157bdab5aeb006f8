"""Main content of a web page (readability-style): boilerplate blocks out, layout tables told apart."""

from __future__ import annotations

import re

from zhiku.ingest.pdf_layout import is_data_table

#: class/id words of blocks around an article: comments, recommendations, sharing, ads.
_BOILER_RE = re.compile(
    r"(?:^|[\s_-])(?:comments?|comment-list|reply|replies|recommend\w*|related|relate|"
    r"hot-?news|read-?more|share|social|sidebar|side-bar|breadcrumbs?|crumbs?|footer|"
    r"copyright|advert\w*|ads?|banner|popup|modal|toolbar|pager|pagination|tags?)(?:$|[\s_-])",
    re.IGNORECASE)
#: Headings that open a block of links or comments rather than content.
_BOILER_HEAD_RE = re.compile(r"^(?:相关|推荐|热门|延伸|猜你|更多|精彩|网友|最新)?(?:阅读|推荐|文章|新闻|"
                             r"评论|留言|链接|专题|资讯)|^(?:相关|推荐|热门|网友|发表|精彩)\S{0,6}$")
_CONTENT_RE = re.compile(r"(?:^|[\s_-])(?:article|content|post|entry|main|text|body|detail|"
                         r"zoom|con|TRS_Editor)(?:$|[\s_-])", re.IGNORECASE)
_HEADS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _names(el) -> str:
    if getattr(el, "attrs", None) is None:
        return ""
    return " ".join([*(el.get("class") or []), el.get("id") or ""])


def _link_share(el) -> float:
    """Share of an element's text that sits inside links."""
    text = len("".join(el.get_text().split()))
    if not text:
        return 0.0
    links = sum(len("".join(a.get_text().split())) for a in el.find_all("a"))
    return links / text


def drop_boilerplate(soup) -> None:
    """Remove comment, recommendation, sharing and ad blocks, and link lists, in place.

    A block goes when its class/id names it so (``comments``, ``related``...), when a
    heading such as 相关阅读/推荐阅读/网友评论 opens it, or when it is mostly links
    (three or more links holding over 60% of its text).

    Args:
        soup: the parsed page; changed in place.
    """
    for el in soup.find_all(True):
        if getattr(el, "decomposed", False) or el.attrs is None:
            continue
        if el.name in ("div", "section", "ul", "ol", "aside", "dl") and _BOILER_RE.search(_names(el)) \
                and not _CONTENT_RE.search(_names(el)):
            el.decompose()
    for head in soup.find_all(_HEADS):
        label = "".join(head.get_text().split())
        if label and len(label) <= 10 and _BOILER_HEAD_RE.search(label):
            box = head.parent
            if box is not None and box.name not in ("body", "html", "main", "article") \
                    and len(box.find_all(_HEADS)) == 1:
                box.decompose()
            else:
                for sib in list(head.find_next_siblings()):
                    if sib.name in _HEADS:
                        break
                    sib.decompose()
                head.decompose()
    for el in soup.find_all(["div", "ul", "ol", "section", "table", "p"]):
        if len(el.find_all("a")) >= 3 and _link_share(el) > 0.6:
            el.decompose()


def main_content(soup):
    """The element that holds the page's main text: ``<article>``/``<main>`` when there is
    one, else the element whose direct paragraphs hold the most text.

    Args:
        soup: the page after :func:`drop_boilerplate`.

    Returns:
        The element to read (the body when nothing stands out).
    """
    body = soup.body or soup
    for tag in ("article", "main"):
        found = body.find_all(tag)
        if len(found) == 1 and len(found[0].get_text(strip=True)) > 0.3 * len(body.get_text(strip=True)):
            return found[0]
    scores: dict[int, tuple[int, object]] = {}
    for p in body.find_all(["p", "br"]):
        parent = p.parent
        text = len("".join((p.get_text() if p.name == "p" else "").split()))
        if parent is not None:
            old = scores.get(id(parent), (0, parent))[0]
            scores[id(parent)] = (old + text, parent)
    total = sum(score for score, _ in scores.values())
    if not scores or total < 200:
        return body
    score, best = max(scores.values(), key=lambda v: v[0])
    if score < 0.5 * total:
        return body
    return _with_headings(best, body)


def _with_headings(best, body):
    """The block to read around the densest one: the nearest enclosing element that holds
    headings when the block has none, climbing through ``<div>`` wrappers. It is taken when it
    holds a few headings (an article's title and subtitle) or when it is prose rather than
    links (a help page: a description, then more headed parts, lists of parameters and
    examples, each in its own ``<div>``)."""
    if best.find(_HEADS) is not None:
        return best
    up = best.parent
    while up is not None and up is not body and up.find(_HEADS) is None and up.name == "div":
        up = up.parent
    if up is None or up is body or up.find(_HEADS) is None:
        return best
    if up is best.parent and len(up.find_all(_HEADS)) <= 3:
        return up
    return up if _link_share(up) < 0.1 and not up.find(["table", "nav"]) else best


def is_layout_table(table, rows: list[list[str]]) -> bool:
    """Whether an HTML table lays out the page rather than holding data: it nests tables,
    headings or lists, or its cells are not data cells (a few long cells or mostly empty
    ones). Paragraphs in cells alone do not make a layout table: Word and WPS export every
    cell of a data table as a ``<p>`` (the lists attached to government notices).

    Args:
        table: the ``<table>`` element.
        rows: its cell texts.

    Returns:
        True for a layout table.
    """
    if table.find("table") or table.find(["ul", "ol", *_HEADS]) is not None \
            and not table.find("th"):
        return True
    return not is_data_table(rows)
