"""Ruled tables on a scanned page: ruling lines found in the page image, OCR lines put in cells."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Grey level (0-255) under which a pixel is ink.
DARK = 200
#: A rule is at least this share of the page's width (horizontal) or this many text-line
#: heights (vertical) long; shorter runs of ink are strokes of characters.
MIN_RULE_SHARE = 0.05
MIN_RULE_LINES = 1.2
#: Share of ink a window of a rule's run must hold (a scanned rule is broken in places),
#: and a dashed or faded rule over a window of two text lines, a pixel either side of it.
FILL = 0.8
DASHED = 0.55
#: A boundary between two cells exists where its rules cover this share of the cells' side.
COVER = 0.5
#: A line of digits (a value or a height) in a cell: such cells split a row drawn without
#: inner rules into one row per line.
_NUMERIC = re.compile(r"^[\d.,，\s~～≤≥<>±—\-+%/]+$")
_CJK = re.compile(r"[\u4e00-\u9fff（）()、，：；]")


@dataclass(frozen=True)
class Rule:
    """A ruling line in pixels: ``pos`` is its y (horizontal) or x (vertical), from
    ``start`` to ``end`` along it."""

    pos: float
    start: int
    end: int


@dataclass(frozen=True)
class Box:
    """An OCR line in pixels of the rendered page."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


@dataclass(frozen=True)
class Grid:
    """A ruled table: its raw rows (None where a merged cell is not repeated), its box in
    pixels, and the indexes of the OCR lines it took."""

    rows: list[list[object]]
    box: tuple[float, float, float, float]
    taken: frozenset[int]


def _segments(dark, length: int, min_len: int, fill: float = 0.8) -> list[tuple[int, int, int]]:
    """Runs of ink along the rows of a boolean image: (row, start, end), each at least
    ``min_len`` long, a window of ``length`` pixels holding ``fill`` ink everywhere."""
    import numpy as np

    c = np.zeros((dark.shape[0], dark.shape[1] + 1), dtype=np.int32)
    np.cumsum(dark, axis=1, out=c[:, 1:])
    if dark.shape[1] <= length:
        return []
    good = (c[:, length:] - c[:, :-length]) >= fill * length
    rows = np.flatnonzero(good.any(axis=1))
    out = []
    for y in rows:
        edge = np.diff(np.concatenate(([0], good[y].astype(np.int8), [0])))
        for s, e in zip(np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)):
            if e - s + length >= min_len // 3:
                out.append((int(y), int(s), int(e + length - 1)))
    return out


def _rules(segments: list[tuple[int, int, int]], min_len: int) -> list[Rule]:
    """Segments of adjacent rows that overlap merged into rules (a rule is a few pixels
    thick, a slightly skewed one steps from row to row), those ``min_len`` long kept."""
    open_: list[list[int]] = []  # [first row, last row, start, end, sum of rows, rows]
    done: list[list[int]] = []
    for y, s, e in sorted(segments):
        hit = None
        for r in open_:
            if y - r[1] <= 2 and s <= r[3] and e >= r[2]:
                hit = r
                break
        if hit:
            hit[1], hit[2], hit[3] = y, min(hit[2], s), max(hit[3], e)
            hit[4] += y
            hit[5] += 1
        else:
            open_.append([y, y, s, e, y, 1])
        keep = [r for r in open_ if y - r[1] <= 2]
        done += [r for r in open_ if y - r[1] > 2]
        open_ = keep
    done += open_
    return sorted((Rule(r[4] / r[5], r[2], r[3]) for r in done if r[3] - r[2] >= min_len),
                  key=lambda r: (r.pos, r.start))


def find_rules(gray, boxes: list[Box]) -> tuple[list[Rule], list[Rule]]:
    """Horizontal and vertical ruling lines of a page image, text boxes blanked first so
    characters' strokes are not taken for rules.

    Args:
        gray: the page as a 2-D array of grey levels.
        boxes: the OCR lines in pixels.

    Returns:
        (horizontal rules, vertical rules).
    """
    import numpy as np

    dark = np.asarray(gray) < DARK
    heights = sorted(b.bottom - b.top for b in boxes) or [20.0]
    line_h = heights[len(heights) // 2]
    for b in boxes:  # text is not ruling; a rule crossing a box keeps its ends
        dark[int(b.top) + 1:int(b.bottom) - 1, int(b.x0) + 1:int(b.x1) - 1] = False
    window = max(8, int(line_h * 0.5))
    h_min = int(MIN_RULE_SHARE * dark.shape[1])
    v_min = int(MIN_RULE_LINES * line_h)
    wide = dark.copy()  # a faded rule wanders by a pixel
    wide[:, 1:] |= dark[:, :-1]
    wide[:, :-1] |= dark[:, 1:]
    tall = dark.copy()
    tall[1:] |= dark[:-1]
    tall[:-1] |= dark[1:]
    long = max(window, int(2 * line_h))
    horizontal = _rules(_segments(dark, window, h_min, FILL)
                        + _segments(tall, long, h_min, DASHED), h_min)
    vertical = _rules(_segments(np.ascontiguousarray(dark.T), window, v_min, FILL)
                      + _segments(np.ascontiguousarray(wide.T), long, v_min, DASHED), v_min)
    return horizontal, vertical


def _cluster(values: list[float], tol: float) -> list[float]:
    """Values within ``tol`` of the one before merged (their mean)."""
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][-1] <= tol:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(g) / len(g) for g in out]


def _covered(rules: list[Rule], pos: float, lo: float, hi: float, tol: float,
             hidden: list[tuple[float, float]] = ()) -> bool:
    """Whether rules at ``pos`` (within ``tol``) cover :data:`COVER` of ``lo``..``hi``,
    leaving out the stretches ``hidden`` under text (a text box crossing the rule blanked
    it: a scanned value set close to its rule is read into one line with its neighbour)."""
    def length(spans) -> float:
        total, reach = 0.0, lo
        for a, b in sorted(spans):
            a, b = max(a, reach), min(b, hi)
            if b > a:
                total += b - a
                reach = b
        return total

    near = [r for r in rules if abs(r.pos - pos) <= tol and r.end > lo and r.start < hi]
    free = [(lo, hi)]
    for a, b in hidden:
        free = [piece for f0, f1 in free for piece in ((f0, min(f1, a)), (max(f0, b), f1))
                if piece[1] > piece[0]]
    seen = sum(b - a for a, b in free)
    if seen < 2:
        return bool(near)
    covered = sum(length([(max(r.start, f0), min(r.end, f1)) for r in near]) for f0, f1 in free)
    return covered >= COVER * seen


def _tables(horizontal: list[Rule], vertical: list[Rule], tol: float
            ) -> list[tuple[list[Rule], list[Rule]]]:
    """Rules grouped into tables: horizontal rules joined by vertical rules that reach
    both (a table has at least three horizontal rules and one vertical)."""
    parent = list(range(len(horizontal)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    members: dict[int, list[Rule]] = {}
    for v in vertical:
        touched = [i for i, h in enumerate(horizontal)
                   if v.start - tol <= h.pos <= v.end + tol and h.start - tol <= v.pos <= h.end + tol]
        if len(touched) < 2:
            continue
        for i in touched[1:]:
            parent[root(i)] = root(touched[0])
        members.setdefault(touched[0], []).append(v)
    groups: dict[int, tuple[list[Rule], list[Rule]]] = {}
    for i, h in enumerate(horizontal):
        groups.setdefault(root(i), ([], []))[0].append(h)
    for i, vs in members.items():
        groups[root(i)][1].extend(vs)
    return [g for g in groups.values() if len(g[0]) >= 3 and g[1]]


def _join(texts: list[str]) -> str:
    """A cell's lines joined: no space between Chinese, a space between other words."""
    out = ""
    for t in texts:
        if out and not (_CJK.search(out[-1]) or _CJK.search(t[0])):
            out += " "
        out += t
    return out


def _pieces(box: Box, edges: list[float], cuts: set[int]) -> list[tuple[int, Box]]:
    """An OCR line cut where it crosses a column boundary drawn in its row (``cuts``: the
    indexes of those edges), its characters shared out by their estimated x; each piece
    with the column it falls in."""
    def col(x: float) -> int:
        return max(0, min(len(edges) - 2, next((k for k in range(len(edges) - 1)
                                                if x < edges[k + 1]), len(edges) - 2)))

    first, last = col(box.x0 + 2), col(box.x1 - 2)
    if first == last or not any(first < k <= last for k in cuts) or len(box.text) < 2:
        return [(col((box.x0 + box.x1) / 2), box)]
    step = (box.x1 - box.x0) / len(box.text)
    parts: dict[int, str] = {}
    for n, ch in enumerate(box.text):
        k = col(box.x0 + (n + 0.5) * step)
        k = max(c for c in [first, *[c for c in cuts if first < c <= k]])
        parts[k] = parts.get(k, "") + ch
    out = []
    for k, text in parts.items():
        if text.strip():
            out.append((k, Box(text.strip(), max(box.x0, edges[k]), box.top,
                               min(box.x1, edges[k + 1]), box.bottom)))
    return out


def _column_cuts(vs: list[Rule], boxes: list[Box], edges: list[float], ys: list[float],
                 tol: float) -> list[list[int]]:
    """For each row band, the column edges (1 … columns - 1) a vertical rule parts there; a
    rule drawn down most rows and faded in one still parts two boxes on either side of it
    when one of them is a value (spaced words of one merged cell stay one)."""
    nr, nc = len(ys) - 1, len(edges) - 1

    def hidden(k: int, i: int) -> list[tuple[float, float]]:
        return [(b.top, b.bottom) for b in boxes if b.x0 < edges[k] < b.x1
                and b.bottom > ys[i] and b.top < ys[i + 1]]

    cuts = [[k for k in range(1, nc)
             if _covered(vs, edges[k], ys[i], ys[i + 1], tol, hidden(k, i))] for i in range(nr)]
    for k in range(1, nc):
        if sum(k in cut for cut in cuts) < 0.6 * nr:
            continue
        for i, cut in enumerate(cuts):
            inside = [b for b in boxes if ys[i] < (b.top + b.bottom) / 2 < ys[i + 1]]
            left = [b for b in inside if edges[k - 1] - tol < b.x0 and b.x1 < edges[k]]
            right = [b for b in inside if edges[k] < b.x0 and b.x1 < edges[k + 1] + tol]
            if k not in cut and left and right and not any(b.x0 < edges[k] < b.x1 for b in inside) \
                    and any(_NUMERIC.match(b.text) for b in left + right):
                cut.append(k)
    return cuts


def read_grid(hs: list[Rule], vs: list[Rule], boxes: list[Box], tol: float,
              span_label: int) -> Grid | None:
    """One table's cells from its rules and the OCR lines inside it.

    Rows are the spaces between horizontal rules, columns between vertical rules (the
    table's left and right ends are columns' edges even without a frame). Two cells side
    by side are one where no rule parts them, as are two cells one over the other; a
    merged cell's text stands in its first cell, None in the others of its row, and is
    repeated down the rows it spans when it is a label of at most ``span_label``
    characters (as :func:`zhiku.ingest.pdf_layout.spanned_rows` reads a text PDF's). A row
    drawn without inner rules whose cells hold the same number of lines (at least one
    of them values) is cut into one row per line, its one-line cells repeated as labels.

    Args:
        hs: the table's horizontal rules.
        vs: its vertical rules.
        boxes: every OCR line of the page, in pixels.
        tol: pixels two rules may be apart and be one.
        span_label: the longest label repeated into the rows it spans.

    Returns:
        The grid, or None when it does not hold a data table.
    """
    x0 = min(h.start for h in hs)
    x1 = max(h.end for h in hs)
    ys = _cluster([h.pos for h in hs], tol)
    xs = _cluster([v.pos for v in vs if x0 + tol < v.pos < x1 - tol], tol)
    edges = [x0, *xs, x1]
    nr, nc = len(ys) - 1, len(edges) - 1
    if nr < 1 or nc < 2:
        return None

    v_cut = _column_cuts(vs, boxes, edges, ys, tol)
    parent = {(i, j): (i, j) for i in range(nr) for j in range(nc)}

    def root(c):
        while parent[c] != c:
            c = parent[c]
        return c

    for i in range(nr):
        for j in range(nc):
            if j + 1 < nc and j + 1 not in v_cut[i]:
                parent[root((i, j + 1))] = root((i, j))
            if i + 1 < nr and not _covered(hs, ys[i + 1], edges[j], edges[j + 1], tol):
                parent[root((i + 1, j))] = root((i, j))
    cells: dict[tuple[int, int], list[Box]] = {}
    taken = set()
    for n, b in enumerate(boxes):
        cy = (b.top + b.bottom) / 2
        cx = (b.x0 + b.x1) / 2
        if not (ys[0] < cy < ys[-1] and x0 - tol < cx < x1 + tol):
            continue
        i = next(k for k in range(nr) if cy < ys[k + 1])
        taken.add(n)
        for j, piece in _pieces(b, edges, set(v_cut[i])):
            cells.setdefault(root((i, j)), []).append(piece)
    owner = {c: root(c) for c in parent}
    top = {}
    for (i, _), g in owner.items():
        top[g] = min(top.get(g, i), i)
    rows: list[list[object]] = []
    for i in range(nr):
        lines = {c: cells.get(c, []) for c in {owner[(i, j)] for j in range(nc)}}
        rows += _band(i, nc, owner, top, lines, span_label)
    if not taken:
        return None
    keep = [j for j in range(nc) if any(r[j] for r in rows)]  # a frame's margin holds nothing
    rows = [[r[j] for j in keep] for r in rows]
    return Grid(rows, (x0, ys[0], x1, ys[-1]), frozenset(taken))


def _text(lines: list[Box]) -> str:
    """A cell's text: its lines in reading order."""
    h = sorted(b.bottom - b.top for b in lines)[len(lines) // 2] if lines else 1.0
    return _join([b.text for b in sorted(lines, key=lambda b: (round(b.top / max(h, 1.0)), b.x0))])


def _band(i: int, nc: int, owner: dict, top: dict, lines: dict, span_label: int
          ) -> list[list[object]]:
    """The raw rows of one row band of the grid (one, or one per line when its cells
    stack values without rules between them: :func:`read_grid`)."""
    own = {c: ls for c, ls in lines.items()
           if all(owner.get((k, j)) != c for k in (i - 1, i + 1) for j in range(nc))}
    stacked = [c for c, ls in own.items() if len(ls) >= 2]
    numeric = [c for c in stacked if all(_NUMERIC.match(b.text) for b in own[c])]
    if len(stacked) < 2 or not numeric:
        texts = {c: _text(ls) for c, ls in lines.items()}
        return [_row(i, nc, owner, top, texts, span_label)]
    ref = max(numeric, key=lambda c: len(own[c]))
    centres = sorted((b.top + b.bottom) / 2 for b in own[ref])
    parts: dict = {c: [[] for _ in centres] for c in stacked}
    for c in stacked:
        for b in own[c]:
            mid = (b.top + b.bottom) / 2
            parts[c][min(range(len(centres)), key=lambda k: abs(centres[k] - mid))].append(b)
    out = []
    for k in range(len(centres)):
        texts = {c: (_text(parts[c][k]) if c in parts else _text(ls)) for c, ls in lines.items()}
        out.append(_row(i, nc, owner, top, texts, span_label, first=k == 0, stacked=set(parts)))
    return out


def _row(i: int, nc: int, owner: dict, top: dict, texts: dict, span_label: int,
         first: bool = True, stacked: set = frozenset()) -> list[object]:
    """One raw row: a cell's text at its first column, None after it in a cell merged
    across columns; a cell merged down from a row above (or a label beside stacked rows)
    repeated when it is a short label, else None."""
    row: list[object] = []
    for j in range(nc):
        c = owner[(i, j)]
        if j > 0 and owner[(i, j - 1)] == c:
            row.append(None)
            continue
        text = texts.get(c, "")
        if c in stacked or (top[c] == i and first):
            row.append(text)
        elif 0 < len("".join(text.split())) <= span_label:
            row.append(text)
        else:
            row.append(None if top[c] < i else "")
    return row


def page_tables(gray, boxes: list[Box], span_label: int) -> list[Grid]:
    """Every ruled table of a scanned page with the OCR lines it holds.

    Args:
        gray: the rendered page as grey levels.
        boxes: its OCR lines in pixels.
        span_label: the longest merged label repeated into the rows it spans.

    Returns:
        The tables, top first; each one's rows and the lines it took.
    """
    from zhiku.ingest.pdf_layout import is_data_table

    hs, vs = find_rules(gray, boxes)
    heights = sorted(b.bottom - b.top for b in boxes) or [20.0]
    tol = max(3.0, 0.3 * heights[len(heights) // 2])
    out = []
    for th, tv in _tables(hs, vs, tol):
        grid = read_grid(th, tv, boxes, tol, span_label)
        if grid and is_data_table(grid.rows):
            out.append(grid)
    return sorted(out, key=lambda g: g.box[1])
