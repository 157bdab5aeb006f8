"""Sibling headings on consecutive lines, the first with no text of its own, are one section
under both labels (``heading_runs``): a troubleshooting page titles one fix by each message it
cures. The lines are real: Umi-OCR's troubleshooting page (plain text, ``#`` headings) and the
Nacos FAQ (inline ``<h4>`` headings); the negative twins are Umi-OCR's changelog, whose empty
releases stand a blank line apart, and 刑法's 编 over its first 章 on the next line."""

from __future__ import annotations

import pytest

from zhiku.chunk.chunker import chunk_document
from zhiku.structure import build_tree
from zhiku.types import Document, content_hash

pytestmark = pytest.mark.unit

UMI = """错误排查手册

# 弹窗报错 Umi-OCR.exe 已停止工作

此问题常见于：软件已经在win10使用过，然后原封不动复制到win7上，导致配置冲突。
删除下述配置文件即可：
UmiOCR-data/.pre_settings

================================

# 应用程序无法正常启动(0xc0000142)
# 或者：`[Error] OCR init fail.l. Argd: {'enable_mkldnn': True...` 

此问题大概率是：CPU不支持AVX指令集。

请换用 PaddleOCR 之外的插件或软件版本。
"""
NACOS = """## Nacos使用问题

#### 启动报错java.lang.IllegalArgumentException: the length of secret key must great than or equal 32 bytes...
#### 启动报错java.lang.IllegalArgumentException: The specified key byte array is x bits which is not secure enough for any JWT HMAC-SHA algorithm.

默认鉴权插件需要密钥来生成访问token，密钥格式需要长度大于32。
"""
CHANGELOG = """## 更新日志 CHANGE LOG

### v2.0.0 dev `2023.9.25`

### v2.0.0 dev `2023.9.8`
- 支持多种界面语言（实验性）
"""
CRIMINAL = """## 第一编 总则
## 第一章 刑法的任务、基本原则和适用范围

第一条 为了惩罚犯罪，保护人民，根据宪法，结合我国同犯罪作斗争的具体经验及实际情况，制定本法。
"""


def _doc(body: str, path: str) -> Document:
    return Document(id=content_hash(body), path=path, title="t", body=body)


def test_two_error_messages_over_one_fix_are_one_section():
    doc = _doc(UMI, "Umi-OCR错误排查手册.txt")
    labels = [s.label for s in build_tree(doc)]
    assert labels[-1].startswith("应用程序无法正常启动(0xc0000142) 或者：")
    assert len(labels) == 2
    off = [s.label for s in build_tree(doc, runs=False)]
    assert off[-2] == "应用程序无法正常启动(0xc0000142)" and len(off) == 3
    fix = [c for c in chunk_document(doc, build_tree(doc)) if "AVX" in c.text]
    assert fix and "0xc0000142" in fix[0].section_path[-1]
    assert "或者" not in fix[0].text  # the joined heading's second line is no text of its section


def test_an_faq_s_two_h4_exceptions_share_their_answer():
    # the positive twin from another document
    doc = _doc(NACOS, "Nacos常见问题.md")
    secs = build_tree(doc)
    assert [s.label for s in secs][-1].startswith("启动报错java.lang.IllegalArgumentException: the length of secret key")
    assert "The specified key byte array" in secs[-1].label and len(secs) == 2
    chunks = [c for c in chunk_document(doc, secs) if "密钥" in c.text]
    assert chunks and "the length of secret key" in chunks[0].section_path[-1]


def test_an_empty_release_a_blank_line_apart_or_a_division_over_its_chapter_stays_apart():
    # the negative twins: an empty release of a changelog, a 编 over its first 章
    log = build_tree(_doc(CHANGELOG, "Umi-OCR更新日志.md"))
    assert [s.label for s in log] == ["更新日志 CHANGE LOG", "v2.0.0 dev `2023.9.25`", "v2.0.0 dev `2023.9.8`"]
    law = build_tree(_doc(CRIMINAL, "刑法.md"))
    assert [s.label for s in law] == ["第一编 总则", "第一章 刑法的任务、基本原则和适用范围"]
    assert law[1].parent_id == law[0].id
