"""Tests for run_eval, summaries, the table and the JSON form, on a real CMRC 2018 slice."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from zhiku.errors import ZhikuError
from zhiku.eval.corpus import load_corpus_jsonl
from zhiku.eval.dataset import EvalItem, Gold, load_set
from zhiku.eval.metrics import aliases_from_documents, mrr_at_k, ndcg_at_k, recall_at_k
from zhiku.eval.report import EvalReport, ModeResult, Row, format_reliability, format_table, summarise, to_json
from zhiku.eval.runner import run_eval
from zhiku.types import Answer, Chunk, Document, Hit, content_hash

pytestmark = pytest.mark.unit

DATA = Path(__file__).parents[1] / "data" / "eval"
UNANSWERABLE = [
    EvalItem(id="neg-1", question="华为Mate 60 手机的首发售价是多少？", answerable=False, kind="out_of_scope"),
    EvalItem(id="neg-2", question="KF-21战斗机研发国家", answerable=False, kind="out_of_scope"),
]


def sentence_chunks(doc: Document, path: str | None = None) -> list[Chunk]:
    """Split a document body into one chunk per sentence (ending in 。)."""
    chunks = []
    for m in re.finditer(r"[^。]+。?", doc.body):
        text = m.group(0)
        chunks.append(Chunk(
            id=content_hash(doc.id, str(m.start()), text), doc_id=doc.id,
            doc_path=path or doc.path, title=doc.title, section_id=str(len(chunks)),
            section_path=(), article=None, text=text, start=m.start(), end=m.end(),
        ))
    return chunks


def bigrams(text: str) -> set[str]:
    chars = [c for c in text if c.isalnum()]
    return {a + b for a, b in zip(chars, chars[1:])}


def bigram_searcher(chunks: list[Chunk], name: str = "bigram") -> Callable[[str], list[Hit]]:
    """Rank chunks by how many character bigrams of the question they contain."""
    def search(question: str) -> list[Hit]:
        grams = bigrams(question)
        scored = [(sum(g in c.text for g in grams), i, c) for i, c in enumerate(chunks)]
        scored = [s for s in scored if s[0] > 0]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [Hit(chunk=c, score=float(s), source=name, sources={name: (r, float(s))})
                for r, (s, _, c) in enumerate(scored, start=1)]
    return search


def title_searcher(chunks: list[Chunk]) -> Callable[[str], list[Hit]]:
    """Return the first chunk of every document whose title appears in the question."""
    firsts = [c for c in chunks if c.section_id == "0"]
    return lambda q: [Hit(chunk=c, score=1.0, source="title") for c in firsts if c.title in q]


@pytest.fixture(scope="module")
def corpus() -> tuple[list[Document], list[Chunk]]:
    docs = list(load_corpus_jsonl(DATA / "cmrc2018_corpus.jsonl"))
    return docs, [c for d in docs for c in sentence_chunks(d)]


@pytest.fixture(scope="module")
def items() -> list[EvalItem]:
    return load_set(DATA / "cmrc2018_queries.jsonl") + UNANSWERABLE


def extractive_answerer(search: Callable[[str], list[Hit]], min_score: float) -> Callable[[str], Answer]:
    """Answer with the best sentence, or refuse when it shares too few bigrams."""
    def answer(question: str) -> Answer:
        hits = search(question)
        if not hits or hits[0].score < min_score:
            return Answer(question=question, text="未找到相关内容。", citations=(),
                          confidence=0.0, refused=True, hits=tuple(hits))
        return Answer(question=question, text=hits[0].chunk.text, citations=(),
                      confidence=min(1.0, hits[0].score / 10), refused=False, hits=tuple(hits))
    return answer


@pytest.fixture(scope="module")
def report(corpus, items) -> EvalReport:
    _, chunks = corpus
    search = bigram_searcher(chunks)
    return run_eval(
        items, {"bigram": search, "title": title_searcher(chunks)},
        answer=extractive_answerer(search, min_score=4), k=10, progress=False, name="cmrc2018",
    )


def by_key(report: EvalReport) -> dict[tuple[str, str], ModeResult]:
    return {(r.mode, r.item_id): r for r in report.results}


def rows_by_key(report: EvalReport) -> dict[tuple[str, str], Row]:
    return {(row.kind, row.mode): row for row in summarise(report)}


def test_progress_bar_on_stderr(corpus, items, capsys) -> None:
    _, chunks = corpus
    run_eval(items[:3], {"bigram": bigram_searcher(chunks)}, progress=True)
    captured = capsys.readouterr()
    assert "bigram" in captured.err and captured.out == ""


def test_results_per_mode_and_item(report, items) -> None:
    assert report.modes == ("bigram", "title", "full")
    assert len(report.results) == 3 * len(items) == 60
    r = by_key(report)["bigram", "TRIAL_800_QUERY_1"]
    assert 0 < len(r.ranked) <= 10 and r.ranked[0] == ("TRIAL_800", None)
    assert len(r.relevance) == len(r.ranked)
    assert sum(r.relevance) == 1  # one gold: later sentences of TRIAL_800 are not credited
    assert r.refused is None and r.answer is None and r.contains is None and r.seconds >= 0


def test_title_mode_hand_checked(report, corpus, items) -> None:
    docs, _ = corpus
    by = by_key(report)
    # The question names the paragraph title exactly in 10 of the 18 answerable questions.
    named = [it for it in items if it.answerable and any(d.title in it.question for d in docs)]
    assert len(named) == 10
    for it in items:
        assert by["title", it.id].relevance == ((1,) if it in named else ())
    row = rows_by_key(report)["all", "title"]
    assert (row.n, row.n_scored) == (20, 18)
    assert row.recall_1 == row.recall_10 == row.mrr_10 == row.ndcg_10 == pytest.approx(10 / 18)
    assert row.refusal_precision is None and row.refusal_recall is None and row.contains is None


def test_summary_means_match_metrics(report, items) -> None:
    by = by_key(report)
    scored = [by["bigram", it.id] for it in items if it.answerable]
    row = rows_by_key(report)["all", "bigram"]
    assert row.mrr_10 == pytest.approx(sum(mrr_at_k(x.relevance, 10) for x in scored) / 18)
    assert row.recall_5 == pytest.approx(sum(recall_at_k(x.relevance, 5) for x in scored) / 18)
    assert row.ndcg_10 == pytest.approx(sum(ndcg_at_k(x.relevance, 10, 1) for x in scored) / 18)
    assert row.recall_10 == 1.0  # only four paragraphs: every gold is in the top 10


def test_full_mode_refusal_and_answers(report, items) -> None:
    by = by_key(report)
    full = [by["full", it.id] for it in items]
    assert all(x.refused is not None and x.answer for x in full)
    assert by["full", "TRIAL_800_QUERY_1"].contains is True  # "4分钟" is in the chosen sentence
    assert by["full", "neg-1"].contains is None
    # Both unanswerable questions are refused, and so are two short answerable ones
    # (游戏的模式有哪些？ shares under 4 bigrams with any sentence).
    refused = [it.id for it in items if by["full", it.id].refused]
    assert refused == ["TRIAL_800_QUERY_3", "TRIAL_598_QUERY_4", "neg-1", "neg-2"]
    rows = rows_by_key(report)
    all_full = rows["all", "full"]
    assert (all_full.refusal_precision, all_full.refusal_recall) == (0.5, 1.0)
    assert all_full.refusal_f1 == pytest.approx(2 / 3)
    assert all_full.contains == pytest.approx(sum(bool(x.contains) for x in full) / 18)
    assert rows["extractive", "full"].refusal_precision == 0.0
    assert rows["extractive", "full"].refusal_recall is None  # no unanswerable extractive items
    oos = rows["out_of_scope", "full"]
    assert (oos.n, oos.n_scored, oos.recall_1) == (2, 0, None)
    assert (oos.refusal_precision, oos.refusal_recall) == (1.0, 1.0)


def test_format_table(report) -> None:
    table = format_table(summarise(report))
    print("\n" + table)
    lines = table.splitlines()
    assert lines[0].startswith("| set/kind") and "refusal P/R" in lines[0] and "answer" in lines[0]
    assert len(lines) == 2 + 9  # header, rule, 3 groups x 3 modes
    assert lines[2].startswith("| cmrc2018/all ") and "| bigram |" in lines[2]
    assert "0.556" in lines[3] and "0.500/1.000" in lines[4] and "0.000/–" in lines[7]
    assert len({len(line) for line in lines}) == 1  # ASCII labels: columns line up


def test_format_table_aligns_chinese_labels(report) -> None:
    rows = [replace(r, set="劳动合同法") for r in summarise(report)]
    widths = {sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
              for line in format_table(rows).splitlines()}
    assert len(widths) == 1


def test_format_reliability(report) -> None:
    """One row per confidence bin of the answered mode; the counts add up to the items and
    each bin's share right is recomputed from the results."""
    table = format_reliability(report)
    rows = [line.split("|")[1:-1] for line in table.splitlines()[2:]]
    full = [r for r in report.results if r.mode == "full"]
    assert {r[0].strip() for r in rows} == {"full"}  # retrieval-only modes have no confidence
    assert sum(int(r[2]) for r in rows) == len(full)
    for r in rows:
        lo, hi = map(float, r[1].split("–"))
        inside = [x for x in full if lo <= x.confidence < hi or (hi == 1.0 and x.confidence == 1.0)]
        assert len(inside) == int(r[2])
        assert float(r[4]) == pytest.approx(sum(bool(x.correct) for x in inside) / len(inside), abs=0.005)
    assert format_reliability(EvalReport("x", 10, ("bigram",), ())) == ""


def test_to_json(report) -> None:
    data = json.loads(json.dumps(to_json(report), ensure_ascii=False))
    assert data["set"] == "cmrc2018" and data["k"] == 10 and data["modes"] == ["bigram", "title", "full"]
    assert len(data["results"]) == 60 and len(data["summary"]) == 9
    assert data["results"][0]["ranked"][0] == ["TRIAL_800", None]
    assert data["summary"][0]["refusal_precision"] is None


def test_aliases_reach_gold(corpus, items) -> None:
    docs, _ = corpus
    moved = [c for d in docs for c in sentence_chunks(d, path="副本-" + d.path)]
    aliases = aliases_from_documents(
        Document(id=d.id, path="副本-" + d.path, title=d.title, body=d.body, aliases=(d.path,)) for d in docs
    )
    answerable = [it for it in items if it.answerable]
    without = run_eval(answerable, {"bigram": bigram_searcher(moved)}, progress=False)
    with_aliases = run_eval(answerable, {"bigram": bigram_searcher(moved)}, aliases=aliases, progress=False)
    assert summarise(without)[0].recall_10 == 0.0
    assert summarise(with_aliases)[0].recall_10 == 1.0


def test_errors_propagate_with_context(items) -> None:
    def broken(question: str) -> list[Hit]:
        if "袋鼠" in question:
            raise RuntimeError("index is closed")
        return []

    with pytest.raises(RuntimeError, match="index is closed") as err:
        run_eval(items, {"broken": broken}, progress=False)
    assert "while evaluating item 'TRIAL_154_QUERY_0' in mode 'broken'" in err.value.__notes__


def test_bad_arguments(items) -> None:
    search = lambda q: []  # noqa: E731
    ans = lambda q: Answer(question=q, text="", citations=(), confidence=0.0, refused=True)  # noqa: E731
    with pytest.raises(ZhikuError, match="reserved"):
        run_eval(items, {"full": search}, answer=ans, progress=False)
    with pytest.raises(ZhikuError, match="Nothing to evaluate"):
        run_eval(items, {}, progress=False)
    with pytest.raises(ZhikuError, match="k must be"):
        run_eval(items, {"x": search}, k=0, progress=False)
    with pytest.raises(TypeError, match="not Hit"):
        run_eval(items, {"x": lambda q: ["TRIAL_800"]}, progress=False)
    only_answer = run_eval(items[:2], {}, answer=ans, progress=False)
    assert isinstance(only_answer, EvalReport) and only_answer.modes == ("full",)
    assert summarise(only_answer)[0].refusal_precision == 0.0


def test_document_gold_ranks_each_document_once() -> None:
    """With document-level gold (BEIR style), later chunks of a ranked document do not
    take ranks: the gold document behind three chunks of another one is at rank 2."""
    def chunk(doc: str, i: int) -> Chunk:
        return Chunk(id=f"{doc}-{i}", doc_id=doc, doc_path=doc, title=doc, section_id=str(i),
                     section_path=(), article=None, text="x", start=0, end=1)
    hits = [Hit(chunk("a", i), 1.0, "x") for i in range(3)] + [Hit(chunk("g", 0), 0.5, "x")]
    item = EvalItem(id="q", question="q", gold=(Gold(doc="g"),), kind="doc")
    rep = run_eval([item], {"x": lambda q: hits}, progress=False)
    assert rep.results[0].relevance[:2] == (0, 1)
