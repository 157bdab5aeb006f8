"""A PDF page as a PNG with a passage highlighted: its text layer found by pdfium, or OCR boxes."""

from __future__ import annotations

import io
import re
from pathlib import Path

from zhiku.errors import ZhikuError

_SPLIT_RE = re.compile(r"[\s。；，、,;：:！？!?“”\"'（）()《》]+")


def _pieces(quote: str, size: int = 10) -> list[str]:
    """Short pieces of a quote to search for (a passage crosses line breaks)."""
    out = []
    for part in _SPLIT_RE.split(quote):
        out += [part[i:i + size] for i in range(0, len(part), size) if len(part[i:i + size]) >= 2]
    return out[:60]


def _text_boxes(page, quote: str) -> list[tuple[float, float, float, float]]:
    """Boxes (left, top, right, bottom; points from the top) of a quote's pieces on a page."""
    height = page.get_height()
    textpage = page.get_textpage()
    boxes = []
    start = 0
    for piece in _pieces(quote):
        searcher = textpage.search(piece, index=start, match_case=False)
        occ = searcher.get_next()
        if not occ:
            continue
        index, count = occ
        start = index + count
        for i in range(textpage.count_rects(index, count)):
            left, bottom, right, top = textpage.get_rect(i)
            boxes.append((left, height - top, right, height - bottom))
    return boxes


def _ocr_boxes(ocr_lines: list[list[object]], quote: str) -> list[tuple[float, float, float, float]]:
    """OCR line boxes that share a piece of the quote."""
    pieces = _pieces(quote, size=6)
    return [(float(x0), float(top), float(x1), float(bottom))
            for x0, top, x1, bottom, text in ocr_lines
            if any(p in "".join(str(text).split()) for p in pieces)]


def render_png(path: Path, number: int, quote: str = "", scale: float = 1.5,
               ocr_lines: list[list[object]] | None = None) -> bytes:
    """Render page ``number`` of a PDF, the quote's places marked in translucent yellow.

    Args:
        path: the PDF.
        number: the 1-based page.
        quote: text to highlight ("" for none).
        scale: pixels per point (clamped to 0.5..3).
        ocr_lines: ``[x0, top, x1, bottom, text]`` boxes when the page was read by OCR.

    Returns:
        The PNG bytes.

    Raises:
        ZhikuError: the page does not exist or the file cannot be rendered.
    """
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    scale = min(max(scale, 0.5), 3.0)
    try:
        pdf = pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError) as exc:
        raise ZhikuError(f"Cannot render {path.name!r} ({exc}); re-ingest the file.") from exc
    try:
        if not 1 <= number <= len(pdf):
            raise ZhikuError(f"{path.name!r} has {len(pdf)} pages; ask for page 1 to {len(pdf)}.")
        page = pdf[number - 1]
        image = page.render(scale=scale).to_pil().convert("RGB")
        boxes = _ocr_boxes(ocr_lines, quote) if ocr_lines and quote else (
            _text_boxes(page, quote) if quote else [])
    finally:
        pdf.close()
    if boxes:
        layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        for x0, top, x1, bottom in boxes:
            draw.rectangle([x0 * scale - 1, top * scale - 1, x1 * scale + 1, bottom * scale + 1],
                           fill=(255, 230, 0, 110), outline=(230, 120, 0, 200))
        image = Image.alpha_composite(image.convert("RGBA"), layer).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
