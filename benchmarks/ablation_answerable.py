"""Ablation of the answerability check: the full ask with it on (shipped) and off
(ZHIKU_ANSWERABILITY=0) on the sets with unanswerable questions and the one where a refusal is
only a loss, written to docs/eval.md by `python benchmarks/bench_quality.py --only
ablation-answerable` (needs the shared data folder).

RGB zh, CMRC 2018 (its first 300 questions), the gate and the first 100 case → article
questions (over the 刑法 versions) run with vectors, the everyday law sets on the whole laws
corpus keyword only, as in their own runs; each row is refusal
precision/recall, the share of answerable questions refused, answer-has-gold and citation
precision. Further rows per set read doers, role holders and sums sentence-wide instead of
in their clause (``answerability_clauses``), switch the composer's levers beside the check (off: a numbered provision quoted over a
story about it, ``provision_share``; a list's lead-in quoted for a question asking which
ones, ``list_answers``, and only when it lists the kind asked, ``list_kind``, read one character in,
``list_kind_prefixed``; a table row read whole, ``answer_rows_whole``; a lead-in announcing
items of another kind than asked counting less, ``answer_lead_ins`` 1), switch off reading a sentence under its
document's name (``answer_doc_name``) or reading a troubleshooting entry's problem as its
question (``answer_problems``) or quoting a heading for the figure it holds
(``answer_head_figures``) or reading a code listing's comment as a question
(``answer_code_comments``) or reading a bold label line as a label (``answer_labels``), count a word only a document's name lends in full between
documents (``answer_name_weight`` 1), choose the block to quote by words alone over a keyword
ranking (``answer_meaning`` 0; in an index without vectors, ``answer_meaning_encode`` off) or without a statute's provision preferred over a rule's
(``answer_standing`` 0; for a question asking a figure too, ``answer_standing_figures`` off) or
without a block of the document most of the evidence comes from preferred (``answer_agreement`` 0) or
with an article binding office holders the question does not name scoring as any other (``answer_addressee`` 0, shipped; the row sets 0.5) or with a summary section's line quoted over the clause it restates
(``answer_overview`` 0) or without a block stating the kind of value the question's asking
phrase names preferred (``answer_asked_type`` off; for a question asking which penalty follows
from an act, ``answer_penalty_ask`` off; a sum asked of an act met by any sum of its kind, not one in
that act's clause, ``answer_sum_act`` off), switch off the dense veto (``dense_veto``: with vectors,
a weak blend of coverage and cosine refuses), have the veto count every term of a long
question (``dense_veto_terms`` 0) or every term whole (``dense_veto_pieces`` off) or refuse without
the second look at the quote (``veto_quote`` 0) or have it read the quote's first sentence only
(``veto_quote_sentences`` 1), and have the
check read dates and a role's own word only (``answerability_forms`` off), or have a quantity's
word in the sentence stating the value whole only, not by its last word where the block holds it
whole (``answerability_stems`` off), or read the quantity asked from the first clause asking one
(``answerability_last_ask`` off), refuse evidence missing a phrase the tagger calls a name
(``answerability_phrases`` off), count a quantity's word the block's title holds
(``answerability_titled`` on), or read 几个小时 as any period (``answerability_hours`` off), or read 一届任期 as an edition and 几个工作日 as
any number (``answerability_periods`` off), or refuse a
numbered provision stating the value asked of an act in its own terms as a weak match (``answerability_provisions`` on), or count
a place the question pins as a word its quantity is of (``answerability_place_heads`` off), or, without vectors, let the fitted model answer evidence
holding none of the question's naming words (``keyword_veto`` off; the everyday sets' row) or hold a word
only whole, not by a dictionary word inside it (``keyword_veto_parts`` off).

The everyday sets are natural and natural2 (shared), everyday3 (the project's development set)
and everyday4, the project's own held-out set (benchmarks/data), keyword only; with ``dense`` they run over the whole corpus with vectors
too, where the dense veto and its levers act. ``python benchmarks/ablation_answerable.py
--only everyday`` prints the rows of chosen sets.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from _doc import ROOT, data_path as _path, print_tables, run_eval, shared_laws

EVERYDAY = ["laws/natural.jsonl", "laws/natural2.jsonl", "benchmarks/data/everyday3.jsonl",
            "benchmarks/data/everyday4.jsonl"]
# (key, label, question sets under eval/ (or the repository's tests/ and benchmarks/),
# corpus under the shared folder, extra eval arguments)
SETS = [
    ("rgb", "RGB zh", ["rgb_zh/queries.jsonl"], "eval/rgb_zh/corpus.jsonl", []),
    ("everyday", "everyday laws (natural, natural2, everyday3, everyday4), whole corpus, keyword",
     EVERYDAY, "laws", ["--no-dense"]),
    ("cmrc", "CMRC 2018 (first 300)", ["cmrc2018/queries.jsonl"], "eval/cmrc2018/corpus.jsonl", ["--limit", "300"]),
    # long case narratives, where the dense veto's length weighing shows (刑法 versions, with vectors)
    ("case", "case → article (first 100), gold laws", ["laws/case_to_article.jsonl"], "laws", ["--gold-only", "--limit", "100"]),
    # the CI gate ships in tests/data (paths from the repository root)
    ("gate", "gate", ["tests/data/eval/gate.jsonl"], "tests/data/laws", []),
]
# the everyday sets over the whole corpus with vectors (only with ``dense``: the 66k chunks'
# vectors take one to two hours to embed the first time)
DENSE_SETS = [("everyday-dense", "everyday laws (natural, natural2, everyday3, everyday4), whole corpus with vectors",
               EVERYDAY, "laws", [])]
SWITCH = {"on (shipped)": {}, "off": {"ZHIKU_ANSWERABILITY": "0"},
          # a doer, a role's holder and a sum read anywhere in the sentence, not in their clause
          "on, clauses off": {"ZHIKU_ANSWERABILITY_CLAUSES": "0"},
          # the composer's lever beside it: a numbered provision quoted over a story (0.6 shipped)
          "on, provision first off": {"ZHIKU_PROVISION_SHARE": "0"},
          # and a sentence read under its document's name (on shipped)
          "on, document name off": {"ZHIKU_ANSWER_DOC_NAME": "0"},
          # and a word only a document's name lends counting in full between documents (0 shipped)
          "on, name words in full": {"ZHIKU_ANSWER_NAME_WEIGHT": "1"},
          # and a troubleshooting entry's problem read as its question, its solution quoted (on shipped)
          "on, problem statements off": {"ZHIKU_ANSWER_PROBLEMS": "0"},
          # and a heading quoted for a figure it holds that the quoted sentences lack (on shipped)
          "on, heading figures off": {"ZHIKU_ANSWER_HEAD_FIGURES": "0"},
          # and a heading's release number quoted for a question asking about a version (on shipped)
          "on, heading version off": {"ZHIKU_ANSWER_HEAD_VERSION": "0"},
          # and the release heading a block's section sits under quoted too (「v4.8.0」 over 「新组件」; on shipped)
          "on, release ancestors off": {"ZHIKU_ANSWER_HEAD_ANCESTORS": "0"},
          # the search beside it: a release the question names puts its section first (on shipped)
          "on, release first off": {"ZHIKU_RELEASE_FIRST": "0"},
          # and a release number searching its other spelling the index holds (4.8.9, v4.8.9; on shipped)
          "on, version forms off": {"ZHIKU_VERSION_FORMS": "0"},
          # and a compound word no evidence block holds counted by the dictionary words inside it (on shipped)
          "on, term parts off": {"ZHIKU_ANSWER_TERM_PARTS": "0"},
          # and a short word no evidence block holds counted by the longer word spreading it (off shipped)
          "on, term spreads on": {"ZHIKU_ANSWER_TERM_SPREADS": "1"},
          # and a code listing's comment line read as the question of the commands under it (on shipped)
          "on, code comments off": {"ZHIKU_ANSWER_CODE_COMMENTS": "0"},
          # and a bold label line (「-   **可能原因**」) read as a label, a lead-in bringing its listing (on shipped)
          "on, labels off": {"ZHIKU_ANSWER_LABELS": "0"},
          # and a plain part word alone on its line (「• 原因」) read as a label, the lines under it under it (on shipped)
          "on, plain labels off": {"ZHIKU_ANSWER_PLAIN_LABELS": "0"},
          # and a list's lead-in quoted for a question asking which ones (on shipped)
          "on, list answers off": {"ZHIKU_LIST_ANSWERS": "0"},
          # and a list's lead-in taken only when it lists the kind the question names (on shipped)
          "on, list kind off": {"ZHIKU_LIST_KIND": "0"},
          # and a list item quoted as the source bringing the other items of its list without a lead-in (on shipped)
          "on, list items off": {"ZHIKU_LIST_ITEMS": "0"},
          # and a sentence naming the kind asked and listing things with 、 quoted when no lead-in is (on shipped)
          "on, list enumerations off": {"ZHIKU_LIST_ENUMERATIONS": "0"},
          # and the kind asked read one character after 哪几种 when none starts there (on shipped)
          "on, list kind prefixed off": {"ZHIKU_LIST_KIND_PREFIXED": "0"},
          # and a table row read and quoted whole (on shipped)
          "on, rows whole off": {"ZHIKU_ANSWER_ROWS_WHOLE": "0"},
          # a code line's // comment wrapped over the next line read with it (on shipped)
          "on, wrapped comments off": {"ZHIKU_ANSWER_WRAPPED_COMMENTS": "0"},
          # and a lead-in announcing items of another kind than asked counting less (0.8 shipped)
          "on, lead-ins in full": {"ZHIKU_ANSWER_LEAD_INS": "1"},
          # and the sentence beside a source that cannot answer alone: a restatement's, a why's reason (on shipped)
          "on, around off": {"ZHIKU_ANSWER_AROUND": "0"},
          # and, over a keyword-only ranking, a block's stored-vector cosine with the question (12 shipped)
          "on, meaning off": {"ZHIKU_ANSWER_MEANING": "0"},
          # and, in an index without vectors, the five blocks encoded for that cosine (on shipped)
          "on, meaning not encoded": {"ZHIKU_ANSWER_MEANING_ENCODE": "0"},
          # and a statute's provision scoring more than a rule's restating it (0.2 shipped)
          "on, standing off": {"ZHIKU_ANSWER_STANDING": "0"},
          # and the standing bonus withheld from a question asking a figure (多少, 多久; on shipped)
          "on, standing for figures": {"ZHIKU_ANSWER_STANDING_FIGURES": "0"},
          # and a block scoring more the more of the other blocks its document holds (0.15 shipped)
          "on, agreement off": {"ZHIKU_ANSWER_AGREEMENT": "0"},
          # and an article binding office holders the question does not name scoring less (off shipped)
          "on, addressee 0.5": {"ZHIKU_ANSWER_ADDRESSEE": "0.5"},
          # and a summary section's line (摘要, 概览) quoted over the clause it restates (0.8 shipped)
          "on, overview off": {"ZHIKU_ANSWER_OVERVIEW": "0"},
          # and a block stating the kind of value the asking phrase names preferred (要交钱吗: a fee; on shipped)
          "on, asked type off": {"ZHIKU_ANSWER_ASKED_TYPE": "0"},
          # and a penalty question (会受到什么处罚) preferring a block stating an act and its penalty (on shipped)
          "on, penalty ask off": {"ZHIKU_ANSWER_PENALTY_ASK": "0"},
          # and a question stating a person's age (孩子今年14岁，能…吗) preferring a block stating an age bound (on shipped)
          "on, stated age off": {"ZHIKU_ANSWER_STATED_AGE": "0"},
          # and a list's lead-in checked against the pins with the numbered items it announces (on shipped)
          "on, met items off": {"ZHIKU_ANSWER_MET_ITEMS": "0"},
          # and a sentence meeting the pins looked for among those near the best by whole score (off shipped)
          "on, met whole on": {"ZHIKU_ANSWER_MET_WHOLE": "1"},
          # and a sum asked of an act (赔多少) met only in a clause of that act when the evidence holds its verb (on shipped)
          "on, sum act off": {"ZHIKU_ANSWER_SUM_ACT": "0"},
          # the refusal lever beside it: with vectors, a weak coverage/cosine blend refuses (on shipped)
          "on, dense veto off": {"ZHIKU_DENSE_VETO": "0"},
          # and the veto weighing a long question as one of dense_veto_terms terms (8 shipped)
          "on, dense veto over every term": {"ZHIKU_DENSE_VETO_TERMS": "0"},
          # and the veto counting a guessed word by its pieces, no pronoun or verb character (on shipped)
          "on, dense veto pieces off": {"ZHIKU_DENSE_VETO_PIECES": "0"},
          # and the veto's second look: kept when the quote is close to the question (0.89 shipped)
          "on, veto second look off": {"ZHIKU_VETO_QUOTE": "0"},
          # and the second look reading the closest of the quote's first two sentences (2 shipped)
          "on, second look first sentence only": {"ZHIKU_VETO_QUOTE_SENTENCES": "1"},
          # and the veto holding a layperson's rare word by its thesaurus synonym (斑马线: 人行横道; on shipped)
          "on, dense veto synonyms off": {"ZHIKU_DENSE_VETO_SYNONYMS": "0"},
          # the composer counting such a word of three characters or more by that synonym (on shipped)
          "on, answer synonyms off": {"ZHIKU_ANSWER_TERM_SYNONYMS": "0"},
          # a short form its document defines (权限控制（ACL）) counted in a block holding the long form (on shipped)
          "on, short forms off": {"ZHIKU_SHORT_FORMS": "0"},
          # a value in the other forms a text states it: when not as a date, a role's kin or act (on shipped)
          "on, other forms off": {"ZHIKU_ANSWERABILITY_FORMS": "0"},
          # a quantity's word by its last word (献血 of 无偿献血) where the block holds it whole (on shipped)
          "on, last words off": {"ZHIKU_ANSWERABILITY_STEMS": "0"},
          # the place a question opens with, qualifying its noun, outside the asking clause (on shipped)
          "on, leading place on": {"ZHIKU_ANSWERABILITY_LEADING_PLACE": "1"},
          # the quantity asked read from the last clause asking one (on shipped)
          "on, last asking clause off": {"ZHIKU_ANSWERABILITY_LAST_ASK": "0"},
          # a phrase the tagger calls a name (考驾照) refuses nothing when missing (on shipped)
          "on, phrases off": {"ZHIKU_ANSWERABILITY_PHRASES": "0"},
          # a quantity's word the block's document title holds (off shipped)
          "on, title words on": {"ZHIKU_ANSWERABILITY_TITLED": "1"},
          # 几个小时 asks a figure in hours (on shipped)
          "on, hours off": {"ZHIKU_ANSWERABILITY_HOURS": "0"},
          # and a term of office counted (一届任期) read as an edition, 几个工作日 as any number (on shipped)
          "on, periods off": {"ZHIKU_ANSWERABILITY_PERIODS": "0"},
          # a provision's value of the kind asked of an act, beside its own word, is weak (off shipped)
          "on, provision values on": {"ZHIKU_ANSWERABILITY_PROVISIONS": "1"},
          # a place the question pins is not among the words its quantity is of (on shipped)
          "on, place heads off": {"ZHIKU_ANSWERABILITY_PLACE_HEADS": "0"},
          # a sum asked met by a multiple or share of another sum (百分之三百; on shipped)
          "on, relative sums off": {"ZHIKU_ANSWERABILITY_UNITS": "0"},
          # the act a sum is asked of read without its glued modal (该付 → 付; on shipped)
          "on, sum verbs off": {"ZHIKU_ANSWERABILITY_ACTS": "0"},
          # a compound the tagger calls a person's name (初中生) does not decide (off shipped)
          "on, name compounds on": {"ZHIKU_ANSWERABILITY_COMPOUNDS": "1"},
          # a kind of person or pay as people name it (老公, 初中生) met by the statute's word (off shipped)
          "on, lay words on": {"ZHIKU_ANSWERABILITY_LAY_WORDS": "1"},
          # an everyday verb of money (挣, 要交) met by the statute's act (所得, 缴纳; off shipped)
          "on, lay acts on": {"ZHIKU_ANSWERABILITY_LAY_ACTS": "1"},
          # a period asked met by the period a quoted numbered provision states (on shipped)
          "on, article periods off": {"ZHIKU_ANSWERABILITY_ARTICLE_PERIODS": "0"},
          # a sum read beside the nouns it is asked of, the user's verb a weak mismatch (on shipped)
          "on, noun heads off": {"ZHIKU_ANSWERABILITY_NOUN_HEADS": "0"},
          # a tagged word met by the cited block's noun closest in meaning (off shipped)
          "on, near words on": {"ZHIKU_ANSWERABILITY_NEAR_WORDS": "1"},
          # when asked of a rule met weakly by a provision's period or recurrence (off shipped)
          "on, rule times on": {"ZHIKU_ANSWERABILITY_RULE_TIMES": "1"},
          # a number's thousands separators taken out before the check reads a sum (on shipped)
          "on, separators off": {"ZHIKU_ANSWERABILITY_SEPARATORS": "0"},
          # when asked of a rule met weakly by a provision stating it from or ahead of an event (on shipped)
          "on, statute times off": {"ZHIKU_ANSWERABILITY_STATUTE_TIMES": "0"},
          # a model named in passing on another model's page does not meet the question (on shipped)
          "on, sibling models off": {"ZHIKU_ANSWERABILITY_SIBLINGS": "0"},
          # 多少人力 asks any figure (30小时/周), not a head count (on shipped)
          "on, effort off": {"ZHIKU_ANSWERABILITY_EFFORT": "0"},
          # 一个 as the indefinite article states no count (on shipped)
          "on, articles off": {"ZHIKU_ANSWERABILITY_ARTICLES": "0"},
          # 多大 of a thing with a size asks bytes or lengths (on shipped)
          "on, sizes off": {"ZHIKU_ANSWERABILITY_SIZES": "0"},
          # a network address's port (127.0.0.1:8848) states no count (on shipped)
          "on, addresses off": {"ZHIKU_ANSWERABILITY_ADDRESSES": "0"},
          # 哪天 asks a day, not a month or a year alone (off shipped)
          "on, days on": {"ZHIKU_ANSWERABILITY_DAYS": "1"},
          # a document cited as the source in 《》 that the knowledge base does not hold refuses (on shipped)
          "on, cited documents off": {"ZHIKU_ANSWERABILITY_DOCUMENTS": "0"},
          # 「X由谁担任」 asks the post X's holder, 主要负责人 answering 谁 (on shipped)
          "on, posts off": {"ZHIKU_ANSWERABILITY_POSTS": "0"},
          # a word right after a Latin name glosses it (Highlight 高亮) and refuses nothing (on shipped)
          "on, glosses off": {"ZHIKU_ANSWERABILITY_GLOSSES": "0"},
          # the name doing a provision's act (「App 收集…」) is a weak mismatch (on shipped)
          "on, rule doers off": {"ZHIKU_ANSWERABILITY_RULE_DOERS": "0"},
          # the offline answer prefers a sentence meeting the pins that decide a refusal (on shipped)
          "on, decisive pins off": {"ZHIKU_ANSWER_DECISIVE_PINS": "0"},
          # without vectors, evidence holding none of the question's naming words refuses (on shipped)
          "on, keyword veto off": {"ZHIKU_KEYWORD_VETO": "0"},
          # the keyword veto holding a word by a dictionary word inside it (精神病 of 精神病院; on shipped)
          "on, keyword veto parts off": {"ZHIKU_KEYWORD_VETO_PARTS": "0"},
          # the keyword veto reading the five passages the answer is composed from (5 shipped; 0 = top three)
          "on, keyword veto top three only": {"ZHIKU_KEYWORD_VETO_PASSAGES": "0"},
          # a keyword-only ranking the learned order reordered, judged (confidence model, keyword veto,
          # what the answer shows) in the search's own order (on shipped) or in the learned one
          "on, learned order judged as reordered": {"ZHIKU_LEARNED_RANK_SEARCHED": "0"},
          # and a keyword-only ranking kept in the search's order (learned_rank_keyword; on shipped)
          "on, keyword ranking not reordered": {"ZHIKU_LEARNED_RANK_KEYWORD": "0"},
          # when met weakly by a time relative to a named event (会议召开十五日前; off shipped)
          "on, event periods on": {"ZHIKU_ANSWERABILITY_EVENT_PERIODS": "1"},
          # a span between two events (「…后至…前」) states when (on shipped)
          "on, event spans off": {"ZHIKU_ANSWERABILITY_EVENT_SPANS": "0"},
          # inside a numbered provision, 「在…时」 is a weak match of when (on shipped)
          "on, statute moments off": {"ZHIKU_ANSWERABILITY_STATUTE_MOMENTS": "0"},
          # 多久…一次 asks a frequency, met by 每月 / 按季 / 一年一次 (on shipped)
          "on, frequencies off": {"ZHIKU_ANSWERABILITY_FREQUENCIES": "0"},
          # a sibling qualifier met one or two characters before its noun (农村生活污水; on shipped)
          "on, contrast gaps off": {"ZHIKU_ANSWERABILITY_CONTRAST_GAPS": "0"},
          # a quote opening with 但是 / 不过 brings the sentence before it (on shipped)
          "on, turns off": {"ZHIKU_ANSWER_TURNS": "0"},
          # 结婚年龄 asked: the figure is asked of 结婚 too, not of the question's other words only (on shipped)
          "on, kind compounds off": {"ZHIKU_ANSWERABILITY_KIND_COMPOUNDS": "0"},
          # a count asked met by a share of a whole (三分之二以上, 过半数; on shipped)
          "on, fractions off": {"ZHIKU_ANSWERABILITY_FRACTIONS": "0"},
          # a unit in words meets its symbol and back (分贝/dB, 摄氏度/℃; on shipped)
          "on, unit forms off": {"ZHIKU_ANSWERABILITY_UNIT_FORMS": "0"},
          # a measure word read as a surname (这张表 → 张表) pins nothing (on shipped)
          "on, measure names off": {"ZHIKU_ANSWERABILITY_MEASURE_NAMES": "0"},
          # a figure asked of 振动 is missed by a quote naming only 噪声 (on shipped)
          "on, sibling measures off": {"ZHIKU_ANSWERABILITY_SIBLING_MEASURES": "0"},
          # a name missed by a block naming a dictionary word one character apart (off shipped)
          "on, near names on": {"ZHIKU_ANSWERABILITY_NEAR_NAMES": "1"},
          # 多少 asks no count when its clause then asks which one, or after 版本号 (on shipped)
          "on, which asks off": {"ZHIKU_ANSWERABILITY_WHICH_ASKS": "0"},
          # a role word (维护者) counts in a sentence naming the role's other form (维护人员; on shipped)
          "on, agent forms off": {"ZHIKU_ANSWER_AGENT_FORMS": "0"},
          # a narrative is encoded for the meaning bonus, not only when an earlier step had (on shipped)
          "on, meaning long off": {"ZHIKU_ANSWER_MEANING_LONG": "0"}}


def _f(v) -> str:
    return "–" if v is None else f"{v:.3f}"


def answerable_ablation(shared: Path, log: Path, dense: bool = False, only: tuple[str, ...] = ()) -> str:
    """Run every set with the check on and off; return one Markdown table.

    Args:
        shared: the shared data folder (laws/ and eval/).
        log: receives each eval's command line.
        dense: add the everyday sets over the whole corpus with vectors.
        only: the keys of the sets to run (``rgb``, ``everyday``, ``cmrc``, ``case``, ``gate``,
            ``everyday-dense``); empty for all.
    """
    lines = ["| set | answerability | n | refusal P/R | answerable refused | answer has gold | citation precision |",
             "|---|---|---:|---:|---:|---:|---:|"]
    cmds = []
    for key, label, sets, corpus, extra in SETS + (DENSE_SETS if dense else []):
        if only and key not in only:
            continue
        args = [*(_path(shared / "eval", s) for s in sets), "--corpus", _path(shared, corpus),
                "--mode", "full", "--route", "on", *extra]
        cmds.append("`zhiku eval " + " ".join(args).replace(str(shared), "../shared/data")
                    .replace(str(ROOT) + "/", "") + "`")
        for switch, env in SWITCH.items():
            data, _ = run_eval(args, env, f"answerability {switch} ({label})")
            for name, s in data["sets"].items():
                row = next(r for r in s["summary"] if r["kind"] == "all" and r["mode"] == "full")
                pr = f"{_f(row['refusal_precision'])}/{_f(row['refusal_recall'])}"
                lines.append(f"| {name} | {switch} | {row['n']} | {pr} | {_f(row['wrongly_refused'])} | "
                             f"{_f(row['contains'])} | {_f(row['citation_precision'])} |")
    with log.open("a", encoding="utf-8") as f:
        f.write("\n".join(cmds) + "\n(" + "; ".join(
            f"{switch.removeprefix('on, ')}: " + ", ".join(f"{k}={v}" for k, v in env.items())
            for switch, env in SWITCH.items() if env) + ")\n")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description="Print the answerability ablation (no file is written).")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--only", default="", help="comma-separated set keys: " + ", ".join(
        k for k, *_ in SETS + DENSE_SETS))
    ap.add_argument("--dense-laws", action="store_true", help="the everyday sets with whole-corpus vectors too")
    a = ap.parse_args()
    shared = Path(a.shared)
    if shared_laws(shared) is None:
        return 2
    only = tuple(k for k in a.only.split(",") if k)
    return print_tables(lambda log: answerable_ablation(shared, log, a.dense_laws or "everyday-dense" in only, only))


if __name__ == "__main__":
    sys.exit(main())
