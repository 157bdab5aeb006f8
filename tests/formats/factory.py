"""Build real DOCX, PDF, HTML, XLSX and CSV files from a law in tests/data/laws."""

from __future__ import annotations

import re
from pathlib import Path

LAW = Path(__file__).resolve().parents[1] / "data" / "laws" / "社会法" / "劳动合同法(2012-12-28).md"
TITLE = "中华人民共和国劳动合同法"
HEADER = "劳动合同法 内部培训资料"
CAPTION = "水泵性能参数表"
APPENDIX = "附录 设备参数"
COLUMNS = ["型号", "扬程(m)", "流量(立方米每小时)", "功率(千瓦)"]
ROWS = [["IS100-65-200", "32", "100", "15"], ["IS80-50-160", "28", "50", "7.5"],
        ["IS65-40-250", "80", "25", "15"]]


def law_blocks(chapters: int = 3) -> list[tuple[str, str]]:
    """("h", chapter label) and ("p", paragraph) of the first ``chapters`` chapters."""
    body = LAW.read_text(encoding="utf-8").split("<!-- INFO END -->", 1)[1]
    out: list[tuple[str, str]] = []
    for line in body.split("\n"):
        line = line.strip()
        if line.startswith("## "):
            if sum(k == "h" for k, _ in out) == chapters:
                break
            out.append(("h", line[3:].strip()))
        elif line and not line.startswith("#") and out:
            out.append(("p", line))
    return out


def articles(blocks: list[tuple[str, str]]) -> dict[str, str]:
    """Article label → its text (paragraphs joined, no whitespace), from the source."""
    out: dict[str, str] = {}
    label = None
    for kind, text in blocks:
        m = re.match(r"^(第\S+?条)", text) if kind == "p" else None
        if kind == "h":
            label = None
        elif m:
            label = m[1]
            out[label] = ""
        if label and kind == "p":
            out[label] += "".join(text.split())
    return out


def make_docx(path: Path) -> Path:
    """The law as Word: Heading 1 chapters, body paragraphs, a captioned table."""
    import docx

    d = docx.Document()
    d.core_properties.title = TITLE
    for kind, text in law_blocks():
        d.add_heading(text, level=1) if kind == "h" else d.add_paragraph(text)
    d.add_heading(APPENDIX, level=1)
    d.add_paragraph(CAPTION)
    t = d.add_table(rows=1 + len(ROWS), cols=len(COLUMNS))
    for r, row in enumerate([COLUMNS, *ROWS]):
        for c, val in enumerate(row):
            t.cell(r, c).text = val
    d.save(str(path))
    return path


def make_pdf(path: Path, outline: bool = True, chapters: int = 3, note: str = "") -> Path:
    """The law as PDF (built-in CID font STSong-Light): a printed TOC page, bookmarks,
    a running header, page numbers in the footer and a ruled table."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A5
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    body = ParagraphStyle("body", fontName="STSong-Light", fontSize=10, leading=15, wordWrap="CJK")
    head = ParagraphStyle("h1", fontName="STSong-Light", fontSize=15, leading=24)

    class Doc(SimpleDocTemplate):
        def afterFlowable(self, flowable):  # noqa: N802 - reportlab hook name
            if outline and isinstance(flowable, Paragraph) and flowable.style.name == "h1":
                key = f"h{id(flowable)}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(flowable.getPlainText(), key, level=0)

    def decorate(canvas, doc):
        canvas.saveState()
        canvas.setFont("STSong-Light", 8)
        canvas.drawString(40, A5[1] - 30, HEADER)
        canvas.drawCentredString(A5[0] / 2, 20, f"第 {doc.page} 页")
        canvas.restoreState()

    blocks = law_blocks(chapters)
    story = [Paragraph(TITLE, body), Paragraph("目 录", ParagraphStyle("toc", parent=head))]
    chapters = [t for k, t in blocks if k == "h"] + [APPENDIX]
    story += [Paragraph(f"{c} {'.' * 30} {i + 2}", body) for i, c in enumerate(chapters)]
    story.append(PageBreak())
    for kind, text in blocks:
        story.append(Paragraph(text, head if kind == "h" else body))
    story += [Paragraph(APPENDIX, head), Paragraph(CAPTION, body)]
    table = Table([COLUMNS, *ROWS])
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "STSong-Light"),
                               ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    story.append(table)
    if note:
        story.append(Paragraph(note, body))
    Doc(str(path), pagesize=A5, title=TITLE).build(story, onFirstPage=decorate,
                                                   onLaterPages=decorate)
    return path


def make_html(path: Path) -> Path:
    """The law as a web page with navigation, a script and a footer around it."""
    parts = [f"<html><head><title>{TITLE}</title><script>var tracking = '跟踪代码';</script>"
             "</head><body><nav><a href='/'>首页</a> 导航菜单</nav><main>", f"<h1>{TITLE}</h1>"]
    for kind, text in law_blocks(2):
        parts.append(f"<h2>{text}</h2>" if kind == "h" else f"<p>{text}</p>")
    parts.append(f"<h2>{APPENDIX}</h2><table><caption>{CAPTION}</caption>")
    parts += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in [COLUMNS, *ROWS]]
    parts.append("</table></main><footer>版权所有 页脚信息</footer></body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def make_xlsx(path: Path) -> Path:
    """A workbook with the pump table and a second sheet."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = CAPTION
    for row in [COLUMNS, *ROWS]:
        ws.append([float(v) if v.replace(".", "").isdigit() else v for v in row])
    ws2 = wb.create_sheet("电机")
    ws2.append(["电机型号", "额定功率(kW)"])
    ws2.append(["Y160M-4", 11])
    wb.save(str(path))
    return path


def make_scanned_pdf(path: Path, pages: list[list[str]], dpi: int = 150) -> Path:
    """A scan without a text layer: each page's lines typeset (STSong-Light, A6), rendered
    to a greyscale image with pdfium, and only that image put on a page of a new PDF."""
    import pypdfium2 as pdfium
    from reportlab.lib.pagesizes import A6
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    typed = path.with_name(path.stem + "-typed.pdf")
    c = canvas.Canvas(str(typed), pagesize=A6)
    for lines in pages:
        c.setFont("STSong-Light", 13)
        for i, text in enumerate(lines):
            c.drawString(24, A6[1] - 50 - 28 * i, text)
        c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(str(typed))
    scan = canvas.Canvas(str(path), pagesize=A6)
    for n in range(len(pdf)):
        png = path.with_name(f"{path.stem}-{n}.png")
        image = pdf[n].render(scale=dpi / 72).to_pil().convert("L")
        # pdfium draws the unembedded STSong-Light with a system CJK font: none, a blank page
        assert image.getextrema()[0] < 128, ("the typeset page rendered blank: no CJK font for pdfium; "
                                             "install fonts-wqy-microhei (`make browser` does)")
        image.save(png)
        scan.drawImage(str(png), 0, 0, width=A6[0], height=A6[1])
        scan.showPage()
        png.unlink()
    pdf.close()
    scan.save()
    typed.unlink()
    return path
