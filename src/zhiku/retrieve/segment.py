"""Chinese segmenters for BM25, injected by name (never a ``\\w+`` regex on Chinese)."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable

from zhiku.registry import Registry

Segmenter = Callable[[str], list[str]]
segmenters: Registry[Segmenter] = Registry("segmenter")

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_WORD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_KEEP = re.compile(r"[\w\u3400-\u4dbf\u4e00-\u9fff]", re.UNICODE)
# Function words and question words: they carry no topic, and in a formal corpus
# (laws, manuals) colloquial ones like 我/咱们 are rare enough to get a misleadingly high IDF.
QUESTION_WORDS = frozenset(
    """什么 哪些 哪个 哪 哪里 怎么 怎样 怎么样 如何 为什么 多少 多久 多长 几 几个 吗 呢 吧 啊 呀
    是否 是不是 可以 可不可以 能否 能不能 能 不能 会 会不会 要 要不要 得 请问 规定 规定了 了 的 地
    是 有 有没有 没有 在 和 与 或 或者 及 对 被 把 为 给 让 跟 向 从 到 去 来 就 才 还 也 都 又
    再 很 太 更 最 这 那 这个 那个 这样 那样 这种 那种 这些 那些 其 之 一 一个 一下 一些 我 你
    他 她 它 我们 你们 他们 她们 咱们 自己 人家 现在 已经 一直 一般 大概 了解 应当 怎么办 需要
    讲 讲的是 说 条讲 合法 吗 嘛 么""".split()
)


# English function words (the Snowball list, trimmed): dropped from BM25 like 的/了 above.
ENGLISH_STOPWORDS = frozenset(
    """a an the and or but if then else of at by for with about against between into through
    during before after above below to from up down in out on off over under again further once
    here there when where why how all any both each few more most other some such no nor not only
    own same so than too very s t can will just don should now is are was were be been being have
    has had having do does did doing i me my myself we our ours ourselves you your yours yourself
    yourselves he him his himself she her hers herself it its itself they them their theirs
    themselves what which who whom this that these those am would could ought as until while""".split()
)
_LATIN = re.compile(r"[a-z]+")
_stem_word: Callable[[str], str] | None = None


def _english(tok: str) -> str | None:
    """An all-letter Latin token stemmed (Snowball English), or None for a stop word;
    any other token unchanged. Stemming lets \"variants\" match \"variant\" in BM25."""
    global _stem_word
    if not _LATIN.fullmatch(tok):
        return tok
    if tok in ENGLISH_STOPWORDS:
        return None
    if _stem_word is None:
        import Stemmer

        _stem_word = Stemmer.Stemmer("english").stemWord
    return _stem_word(tok)


# Full-width ASCII forms and the ideographic space: what NFKC changes in most Chinese text,
# replaced match by match (a regex finds the few in a text faster than ``str.translate``
# walks every character), so NFKC itself only runs on the rare text still not normal.
_WIDE = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)} | {"\u3000": " "}
_WIDE_RE = re.compile("[\uff01-\uff5e\u3000]")


def _half(m: re.Match[str]) -> str:
    return _WIDE[m.group()]


def normalise(text: str) -> str:
    """NFKC-normalise (full-width → half-width) and lower-case."""
    if not text.isascii():
        text = _WIDE_RE.sub(_half, text)
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
    return text.lower()


_CLEANED_MAX = 1_000_000


def _clean_one(tok: str) -> str:
    tok = tok.strip()
    if tok and _KEEP.search(tok):
        return _english(tok) or ""
    return ""


class _Forms(dict):
    """raw token → what it contributes, made by ``make`` on first sight: a corpus repeats
    the same few hundred thousand tokens, so each is stripped, checked and stemmed once per
    process, and a text's tokens are looked up by ``map`` without a Python loop."""

    def __init__(self, make: Callable[[str], object]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, tok: str) -> object:
        v = self._make(tok)
        if len(self) < _CLEANED_MAX:
            self[tok] = v
        return v


_CLEANED = _Forms(_clean_one)  # token → its cleaned form ("" for a token dropped)


def _clean(tokens: list[str]) -> list[str]:
    return list(filter(None, map(_CLEANED.__getitem__, tokens)))


@segmenters.register("jieba")
def make_jieba() -> Segmenter:
    """Word segmentation with rjieba's search mode (words plus their sub-words)."""
    import rjieba

    def seg(text: str) -> list[str]:
        return _clean(rjieba.cut_for_search(normalise(text)))

    return seg


@segmenters.register("words")
def make_words() -> Segmenter:
    """rjieba's precise mode: one reading of the text, no overlapping sub-words.

    Used for answer composition and confidence, where overlapping sub-words would
    count one concept several times."""
    import rjieba

    def seg(text: str) -> list[str]:
        return _clean(rjieba.cut(normalise(text)))

    return seg


@segmenters.register("char")
def make_char() -> Segmenter:
    """One token per CJK character; Latin words and numbers stay whole."""

    def seg(text: str) -> list[str]:
        return _clean([m.group() for m in re.finditer(
            r"[\u3400-\u4dbf\u4e00-\u9fff]|[^\W_\u3400-\u4dbf\u4e00-\u9fff]+", normalise(text))])

    return seg


@segmenters.register("mixed")
def make_mixed() -> Segmenter:
    """rjieba words plus the single characters of multi-character CJK words."""
    import rjieba

    def form(tok: str) -> tuple[str, ...]:
        c = _clean_one(tok)
        if not c:
            return ()
        return (c, *c) if len(c) > 1 and _CJK_WORD.fullmatch(c) else (c,)

    forms = _Forms(form).__getitem__
    chain = itertools.chain.from_iterable

    def seg(text: str) -> list[str]:
        return list(chain(map(forms, rjieba.cut_for_search(normalise(text)))))

    return seg


# A question with this many distinct search terms is a narrative (a case description, a
# pasted e-mail), not a question; short questions in the laws sets have at most ~40.
LONG_QUESTION_TERMS = 60
# In a narrative, a term found in more than this share of chunks (and in more than
# COMMON_MIN_CHUNKS of them) carries no topic: 年/日/人/行为/适用. Summed over a hundred
# such terms, BM25 rewards long passages that merely share the narrative's common words.
COMMON_SHARE = 0.02
COMMON_MIN_CHUNKS = 50


def focus_terms(terms: list[str], df: Callable[[str], int], n_chunks: int) -> list[str]:
    """The terms of a long narrative question worth searching: its common terms dropped.

    Verbose queries bury the few telling words under many frequent ones (Bendersky and
    Croft 2008, "Discovering key concepts in verbose queries"); the frequent ones are
    cut by document frequency, so the rare terms that decide BM25 stay. Short questions
    are returned unchanged.

    Args:
        terms: the question's search terms (see :func:`query_terms`).
        df: how many chunks contain a term.
        n_chunks: how many chunks there are.

    Returns:
        ``terms`` without those in more than ``COMMON_SHARE`` of the chunks (and more than
        ``COMMON_MIN_CHUNKS``), when there are at least ``LONG_QUESTION_TERMS`` terms and
        something is left; otherwise ``terms`` itself.
    """
    if len(terms) < LONG_QUESTION_TERMS:
        return terms
    ceiling = max(COMMON_SHARE * n_chunks, COMMON_MIN_CHUNKS)
    kept = [t for t in terms if df(t) <= ceiling]
    return kept or terms


def query_terms(tokens: list[str]) -> list[str]:
    """Drop question words; keep order and duplicates out."""
    seen: dict[str, None] = {}
    for t in tokens:
        if t not in QUESTION_WORDS:
            seen.setdefault(t, None)
    return list(seen) or list(dict.fromkeys(tokens))
