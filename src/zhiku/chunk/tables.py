"""Tables in three views: a summary chunk, one sentence per row, and the raw Markdown.

Seed: "表格三维拆解" — a table is found by what it is about (summary), by a value in a
row (row sentences with column=value pairs) and cited as printed (the Markdown table).
"""

from __future__ import annotations

import re

from zhiku.types import Chunk, Document, Table, content_hash

#: Canonical unit → the ways documents write it. Searchable text gets every form.
UNITS: dict[str, tuple[str, ...]] = {
    "m³/h": ("立方米每小时", "立方米/小时", "方每小时", "m³/h", "m3/h"),
    "kW": ("千瓦", "kW", "KW", "kw"),
    "mm": ("毫米", "mm"),
    "m": ("米", "m"),
    "r/min": ("转每分钟", "转每分", "转/分", "r/min", "rpm"),
    "kg": ("千克", "公斤", "kg"),
    "MPa": ("兆帕", "MPa"),
    "℃": ("摄氏度", "℃"),
}
_ALIAS_RE = re.compile(
    "|".join(
        (re.escape(a) if not a.isascii() else rf"(?<![A-Za-z]){re.escape(a)}(?![A-Za-z0-9/³])")
        for a in sorted({a for v in UNITS.values() for a in v}, key=len, reverse=True)
    )
)
_CANON = {a: canon for canon, aliases in UNITS.items() for a in aliases}
#: What the English words of a table's column names say in Chinese: a table exported from code
#: or a spreadsheet names its columns ``uart_baudrate``, ``max_tx_power``, ``default value``, and
#: a question asks 串口波特率, 最大发射功率, 默认值. General words of technical and business tables
#: only; a name is glossed when every one of its words is here (:func:`header_gloss`).
HEADER_WORDS: dict[str, str] = {
    "name": "名称", "id": "编号", "no": "编号", "type": "类型", "kind": "类型", "default": "默认",
    "value": "值", "desc": "描述", "description": "描述", "version": "版本", "ver": "版本",
    "port": "端口", "pin": "引脚", "baudrate": "波特率", "baud": "波特率", "uart": "串口", "serial": "串口",
    "tx": "发送", "rx": "接收", "size": "大小", "max": "最大", "min": "最小", "power": "功率",
    "channel": "信道", "num": "数量", "count": "数量", "quantity": "数量", "country": "国家", "code": "代码",
    "platform": "平台", "module": "模组", "flash": "闪存", "memory": "内存", "timeout": "超时",
    "interval": "间隔", "status": "状态", "state": "状态", "date": "日期", "time": "时间", "author": "作者",
    "remark": "备注", "note": "备注", "unit": "单位", "range": "范围", "required": "必填",
    "param": "参数", "parameter": "参数", "option": "选项", "command": "命令", "permission": "权限",
    "user": "用户", "address": "地址", "addr": "地址", "host": "主机", "path": "路径", "file": "文件",
    "level": "级别", "priority": "优先级", "start": "起始", "end": "结束", "enable": "启用",
    "enabled": "启用", "retry": "重试", "thread": "线程", "cache": "缓存", "log": "日志", "price": "价格",
    "model": "型号", "voltage": "电压", "current": "电流", "temperature": "温度", "temp": "温度",
    "frequency": "频率", "freq": "频率", "speed": "速度", "store": "存储", "storage": "存储",
    "format": "格式", "length": "长度", "width": "宽度", "height": "高度", "weight": "重量",
    "total": "合计", "rate": "速率", "mode": "模式", "email": "邮箱", "phone": "电话", "title": "标题",
    "category": "类别", "owner": "负责人", "sys": "系统", "system": "系统", "city": "城市",
    "region": "地区", "amount": "金额", "capacity": "容量", "manufacturer": "厂商", "vendor": "厂商",
}
_HEADER_WORD_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def header_gloss(name: str) -> str:
    """What an English column name says in Chinese (``uart_baudrate`` → ``串口波特率``,
    ``maxTxPower`` → ``最大发送功率``), "" when the name is not English or one of its words is not in
    :data:`HEADER_WORDS` (a half-glossed name would say something else).

    Args:
        name: the column name, its unit already split off.

    Returns:
        The words' Chinese, joined; "".
    """
    if not name.isascii() or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_\- .]*", name.strip()):
        return ""
    words = [w.lower() for w in _HEADER_WORD_RE.findall(name) if not w.isdigit()]
    if not words or any(w not in HEADER_WORDS for w in words):
        return ""
    return "".join(dict.fromkeys(HEADER_WORDS[w] for w in words))


_HEADER_UNIT_RE = re.compile(r"^(?P<name>.+?)\s*[（(\[](?P<unit>[^()（）\[\]]{1,12})[)）\]]\s*$")


def unit_forms(text: str) -> str:
    """Every written form of the units that occur in ``text``, space-separated.

    ``扬程 32 米`` → ``米 m``; ``100 m3/h`` → ``立方米每小时 立方米/小时 … m³/h m3/h``.
    Appended to the searchable text so 「30米」 finds a row written ``32 m``.

    Args:
        text: any text.

    Returns:
        The forms, or "" when no unit occurs.
    """
    canon = dict.fromkeys(_CANON[m.group()] for m in _ALIAS_RE.finditer(text))
    return " ".join(a for c in canon for a in UNITS[c])


def split_header(column: str) -> tuple[str, str]:
    """Split ``扬程(米)`` into (``扬程``, ``米``); a header without a unit keeps "".

    Args:
        column: the header cell.

    Returns:
        (name, unit); the part in brackets counts as a unit only when it is one.
    """
    match = _HEADER_UNIT_RE.match(column.strip())
    if match and (_ALIAS_RE.fullmatch(match["unit"]) or re.fullmatch(r"[A-Za-z°%/³²·.]+", match["unit"])):
        return match["name"].strip(), match["unit"].strip()
    return column.strip(), ""


def row_sentence(table: Table, row: tuple[str, ...], gloss: bool = True) -> str:
    """One row as a sentence of column-value pairs: ``型号 IS100-65-200，扬程 32 米``.

    Args:
        table: the table (its caption prefixes the sentence).
        row: the row's cells, aligned with ``table.columns``.
        gloss: an English column name is followed by what it says in Chinese
            (``uart_baudrate（串口波特率） 115200``: :func:`header_gloss`; config
            ``table_header_gloss``).

    Returns:
        The sentence, ending with 。; empty cells are left out, and a cell's own closing
        。 or ； is dropped (a cell of prose, ``…融资途径。``, would end the sentence before
        the columns after it: ``…融资途径。，指导部门 …``).
    """
    pairs = []
    for col, value in zip(table.columns, row):
        value = value.rstrip("。；; ")
        if not value:
            continue
        name, unit = split_header(col)
        said = header_gloss(name) if gloss else ""
        name = f"{name}（{said}）" if said else name
        pairs.append(f"{name} {value} {unit}".strip() if unit and not value.endswith(unit)
                     else f"{name} {value}".strip())
    head = f"{table.caption}：" if table.caption else ""
    return head + "，".join(pairs) + "。"


def summary_sentence(table: Table, section: str) -> str:
    """What the table is: caption, section, columns and row count.

    Args:
        table: the table.
        section: the label of the section holding it ("" for none).

    Returns:
        e.g. ``表格「水泵参数表」（第三章 选型）共 2 行，列：型号、扬程(米)、流量。``
    """
    name = f"「{table.caption}」" if table.caption else ""
    where = f"（{section}）" if section else ""
    return f"表格{name}{where}共 {len(table.rows)} 行，列：{'、'.join(c for c in table.columns if c)}。"


def table_chunks(doc: Document, table: Table, section_id: str,
                 section_path: tuple[str, ...], gloss: bool = True) -> list[Chunk]:
    """The three views of one table as chunks, all carrying its section and page.

    Args:
        doc: the document holding the table.
        table: the table; its span in ``doc.body`` is the Markdown rendering.
        section_id: id of the section holding it.
        section_path: labels of that section from the top.
        gloss: row sentences follow an English column name with its Chinese
            (:func:`row_sentence`).

    Returns:
        The ``table`` chunk (Markdown, citable as printed), a ``table_summary`` chunk
        and one ``table_row`` chunk per row; summary and rows name the table chunk as
        ``parent_id`` and their span is the table's; a row's page is the page its line
        of the table is printed on.
    """
    md = doc.body[table.start:table.end]
    page = table.page if table.page is not None else doc.page_at(table.start)

    lines = [0] + [i + 1 for i, ch in enumerate(md) if ch == "\n"]

    def make(text: str, kind: str, parent: str | None, at: int | None = None) -> Chunk:
        return Chunk(id=content_hash(doc.id, section_id, kind, text), doc_id=doc.id,
                     doc_path=doc.path, title=doc.title, section_id=section_id,
                     section_path=section_path, article=None, text=text, start=table.start,
                     end=table.end, version_date=doc.version_date, kind=kind,
                     page=page if at is None or not doc.pages else doc.page_at(at),
                     parent_id=parent)

    raw = make(md, "table", None)
    label = section_path[-1] if section_path else ""
    out = [raw, make(summary_sentence(table, label), "table_summary", raw.id)]
    out += [make(row_sentence(table, row, gloss), "table_row", raw.id,
                 table.start + lines[min(i + 2, len(lines) - 1)])
            for i, row in enumerate(table.rows)]
    return out
