"""How much of a question a sentence covers, as the offline composer reads it: IDF-weighted
terms, a short Latin term only as a token, a word its document's name lends; and which list a
question asking which ones wants."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zhiku.retrieve.segment import normalise
from zhiku.verify.support import term_in


# a sentence ending in a question mark (bold markup after it allowed)
ASKS = re.compile(r"[？?](?:\*\*)?\s*$")
# a list item (（二）…, 二、…, 2. …): out of its list it can say the opposite of its lead-in
ITEM = re.compile(r"^(?:（[一二三四五六七八九十百]+）|[一二三四五六七八九十]+、|\d+[.、．]\s*\D)")


def question_line(text: str, pos: int, sentence: str) -> bool:
    """Whether the sentence at ``pos`` is a question that ends its line (an FAQ entry's
    question, 「1. **消息…保存多长时间？**」); a question inside running prose
    (「…为什么增长率却是5.7%？事实上，…」) is part of what the text says."""
    if not ASKS.search(sentence):
        return False
    start = text.find(sentence, pos)
    if start < 0:
        return True
    end = text.find("\n", start + len(sentence))
    return not text[start + len(sentence):None if end < 0 else end].strip(" \t*_")


def item_label(text: str, pos: int) -> str:
    """The label of the list item whose line holds the sentence at ``pos`` when the sentence
    is not the line's first (「七、国庆节：10月1日至7日放假调休，共7天。9月29日…上班。」: the
    second sentence is about 国庆节 too); "" otherwise.

    Args:
        text: a chunk's text.
        pos: a sentence's offset in it.

    Returns:
        The item's label (「七、国庆节」), or "".
    """
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    if not line.strip() or not ITEM.match(line.lstrip()):
        return ""
    head = re.match(r"[^：:。，]{1,16}[：:]", line.lstrip())
    return head.group()[:-1] if head else ""


# a command-line option a question names (「clusterList 命令里 -i 这个选项」, --use-version): the
# segmenter drops it (「i」 is an English stop word), yet it is what the question is about
_OPTION = re.compile(r"(?<![\w-])--?[a-z][a-z0-9-]*")
# a Latin term this short (an option -i, a letter, 「ip」) is found only as a token of its own:
# inside a longer word (「i」 in clusterlist, 「-i」 in -in) it names nothing
_SHORT = re.compile(r"-{0,2}[a-z0-9]{1,2}")


def options(question: str) -> list[str]:
    """The command-line options a question names (「-i」, 「--use-version」), normalised."""
    return list(dict.fromkeys(_OPTION.findall(normalise(question))))


def holds(term: str, text: str) -> bool:
    """Whether normalised ``text`` holds ``term`` (:func:`zhiku.verify.support.term_in`); a
    short Latin term (:data:`_SHORT`) only as a token of its own."""
    if _SHORT.fullmatch(term) and not term.isdigit():
        return re.search(rf"(?<![a-z0-9-]){re.escape(term)}(?![a-z0-9])", text) is not None
    return term_in(term, text)


def term_parts(terms: Sequence[str], said: Sequence[str]) -> list[str]:
    """``terms`` with each word of three characters or more that none of ``said`` holds (the
    texts read, normalised once by the caller: :func:`zhiku.retrieve.segment.normalise`)
    replaced by the longest dictionary words inside it that one of them holds, left to right
    without overlap (劳动节 of 五一劳动节, 补班 of 周末补班): the keyword index matched the
    evidence by those parts, and a document names the thing by its stem, not by the everyday
    compound; a word none of whose parts any text holds stays as it is (config
    ``answer_term_parts``)."""
    out: list[str] = []
    for term in terms:
        if len(term) < 3 or not _CJK.search(term) or any(holds(term, t) for t in said):
            out.append(term)
            continue
        taken: list[tuple[int, int]] = []
        for i, j in inner_words(term):
            if all(j <= a or i >= b for a, b in taken) and any(holds(term[i:j], t) for t in said):
                taken.append((i, j))
        out.extend(term[i:j] for i, j in sorted(taken)) if taken else out.append(term)
    return list(dict.fromkeys(out))


# a person named by the role a verb gives: 维护者 and 维护人员, 开发者 and 开发人员 (the stem two to
# four Chinese characters, so 学者 or 记者 alone is no role of a verb)
_AGENT = re.compile(r"([\u4e00-\u9fff]{2,4})(者|人员)")


def agent_forms(terms: Sequence[str], text: str) -> list[str]:
    """The question's words naming a person by a verb's role (:data:`_AGENT`: 维护者) that
    normalised ``text`` does not hold while it holds the role's other form (维护人员 for 维护者,
    维护者 for 维护人员): a document names its 项目维护人员 where a question asks about the
    项目维护者, and the sentence saying what befalls them was counted without the question's
    heaviest word (config ``answer_agent_forms``)."""
    out = []
    for term in terms:
        m = _AGENT.fullmatch(term)
        if m and term not in text and f"{m.group(1)}{'人员' if m.group(2) == '者' else '者'}" in text:
            out.append(term)
    return out


def term_spreads(terms: Sequence[str], said: Sequence[str]) -> list[str]:
    """``terms`` with each Chinese word of two to four characters that none of ``said`` holds
    (normalised texts, as :func:`term_parts` reads them) replaced by a longer dictionary word
    of one of them beginning with its first character and holding the others in the same
    order, at most twice as long (重启 of 重新启动): a document writes the full form of the word
    a user shortens (config ``answer_term_spreads``); a word no text spreads so stays as it is."""
    import rjieba

    out: list[str] = []
    for term in terms:
        if not 2 <= len(term) <= 4 or not _CJK_WORD.fullmatch(term) or any(holds(term, t) for t in said):
            out.append(term)
            continue
        spread = next((w for t in said for w in _spreads(term, t) if rjieba.has_word(w)), None)
        out.append(spread or term)
    return out


_CJK_WORD = re.compile(r"[\u4e00-\u9fff]+")


def _spreads(term: str, text: str):
    """The spans of ``text`` longer than ``term`` and at most twice as long that begin with its
    first character and hold the others in order after it, all Chinese."""
    start = 0
    while (i := text.find(term[0], start)) >= 0:
        start = i + 1
        for j in range(i + len(term) + 1, min(i + 2 * len(term), len(text)) + 1):
            span = text[i:j]
            if _CJK_WORD.fullmatch(span) and _in_order(term[1:], span[1:]):
                yield span


def _in_order(chars: str, text: str) -> bool:
    """Whether ``chars`` stand in ``text`` in this order (others may come between)."""
    it = iter(text)
    return all(c in it for c in chars)


def term_synonyms(terms: Sequence[str], said: Sequence[str], same: Callable[[str], Sequence[str]]
                  ) -> tuple[list[str], dict[str, str]]:
    """``terms`` with each word none of ``said`` holds (normalised texts, as :func:`term_parts`
    reads them) replaced by the first word ``same`` gives for it
    (:func:`zhiku.retrieve.thesaurus.rare_synonyms`: a layperson's word's thesaurus synonyms,
    smallest group first) that one of them holds (斑马线 → 人行横道, 马路 →
    道路): the evidence names the thing in its own word, and the sentence stating it should
    count it; a word none of whose synonyms any text holds stays as it is (config
    ``answer_term_synonyms``). Also returns each replacing word's term, whose weight it
    carries (a statute's word is common where the layperson's is rare). Only a word of three
    characters or more is replaced: a two-character word's groups gather loosely related words
    (孩子: 男女, 别人: 人家), and replacing them moved natural2's answers to other articles."""
    out: list[str] = []
    stand: dict[str, str] = {}
    for term in terms:
        if len(term) < 3 or any(holds(term, t) for t in said):
            out.append(term)
            continue
        got = next((w for w in same(term) if w not in terms and any(holds(w, t) for t in said)), None)
        out.append(got or term)
        if got:
            stand.setdefault(got, term)
    return list(dict.fromkeys(out)), stand


def inner_words(term: str) -> list[tuple[int, int]]:
    """The spans ``(i, j)`` of the segmenter's dictionary words of two characters or more
    inside ``term`` and shorter than it, longest first, then leftmost (五一劳动节: 劳动节, 劳动,
    五一): the parts an everyday compound is matched by (:func:`term_parts`,
    :func:`zhiku.verify.confidence.part_held`)."""
    import rjieba

    spans = ((i, j) for i in range(len(term)) for j in range(i + 2, len(term) + 1) if j - i < len(term))
    return sorted((ij for ij in spans if rjieba.has_word(term[ij[0]:ij[1]])), key=lambda ij: (ij[0] - ij[1], ij[0]))


_CJK = re.compile(r"[\u4e00-\u9fff]")


# what separates the parts of a document's name (title words, file-name words, a version)
_NAME_PARTS = re.compile(r"[\s·・:：\-—_()（）《》〈〉,，、/]+")


def coverage(terms: Sequence[str], text: str, idf: Callable[[str], float], named: str = "",
             name_weight: float = 1.0) -> float:
    """IDF-weighted share of the query terms that occur in ``text`` (0..1); a figure the
    question states (二十一岁) counts where the text states one of its kind
    (:func:`zhiku.verify.support.term_in`), a short Latin term only as a token (:func:`holds`).
    A term only ``named`` holds (the document's name the text is read under) counts in full
    when it names the document (:func:`_names`), else ``name_weight`` of its weight."""
    total = sum(idf(t) for t in terms)
    if total <= 0:
        return 0.0
    t_norm, n_norm = normalise(text), normalise(named) if named else ""
    said = sum(idf(t) for t in terms if holds(t, t_norm))
    if not n_norm:
        return said / total
    lent = [t for t in terms if not holds(t, t_norm) and holds(t, n_norm)]
    if not lent:
        return said / total
    parts, asked = _NAME_PARTS.split(n_norm), normalise("".join(terms))
    return (said + sum(idf(t) * (1.0 if _names(t, parts, asked) else name_weight) for t in lent)) / total


def _names(term: str, parts: Sequence[str], asked: str) -> bool:
    """Whether a question's ``term`` names a document whose name has these ``parts``: it begins
    or ends a part (消防法 of 「中华人民共和国消防法」, 五月 and 艾 of 「五月艾」), or lies in a part
    the question's terms spell out whole (克罗莫维焦约); a piece inside a longer word of the name
    (责任 of 「侵权责任编」) does not."""
    return any(p.startswith(term) or p.endswith(term) or (term in p and len(p) > 1 and p in asked)
               for p in parts)


# parts of speech of a single character that says nothing of what a passage is about (小, 看,
# 不, 里, 给): it matches any text
_FUNCTION_TAGS = {"a", "ad", "v", "vd", "d", "p", "c", "u", "uj", "ul", "uz", "ug", "uv", "ud", "f", "y", "e", "o"}


def counted_terms(terms: Sequence[str]) -> list[str]:
    """The terms a sentence's coverage counts: a single character only when it can name
    something (蓍, a plant; 钱, 房), not an adjective, verb, adverb or preposition (「规模较小」
    is no answer about 小股东); all of them when no longer term is left."""
    from zhiku.verify.pins import word_tags

    kept = [t for t in terms if len(t) >= 2 or not all(tag in _FUNCTION_TAGS for _, tag in word_tags(t))]
    return kept if any(len(t) >= 2 for t in kept) else list(terms)


# the labels of a troubleshooting entry: what went wrong (问题描述：…) and what to do about it
# (解决方法：…). The problem restates what a question asks; the solution answers it.
_PROBLEM_WORDS = r"问题描述|问题现象|故障现象|故障描述|现象描述|错误现象|问题"
_SOLUTION_WORDS = r"解决方法|解决方案|解决办法|解决措施|处理方法|处理办法|处理方案"
_PROBLEM = re.compile(rf"(?:{_PROBLEM_WORDS})\s*[：:]")
_SOLUTION = re.compile(rf"(?:{_SOLUTION_WORDS})\s*[：:]")
# a label alone on its line, without a colon: a list item's bold label (「-   **现象描述**」,
# 「**可能原因**1」), the way a Word document converted to Markdown writes an entry's parts
_BARE = r"^[ \t]*(?:[-*+][ \t]+)?\*\*\s*(?:{})\s*\d*\s*\*\*\s*\d*[ \t]*$"
_BARE_PROBLEM = re.compile(_BARE.format(_PROBLEM_WORDS), re.M)
# what ends a problem statement: the cause (可能原因) or the solution after it
_CAUSE_WORDS = r"可能原因|原因分析|问题原因"
_BARE_ANSWER = re.compile(_BARE.format(rf"{_CAUSE_WORDS}|原因|{_SOLUTION_WORDS}"), re.M)
_CAUSE = re.compile(rf"(?:{_CAUSE_WORDS})\s*[：:]")
# a line that is only a label: bold text without a sentence's closing mark, as a list item or
# alone (「-   **可能原因**」, 「**注意事项**」); it names what the lines after it say
LABEL_LINE = re.compile(r"^[ \t]*(?:[-*+][ \t]+|\d+[.、][ \t]*)?\*\*[^*\n。！？?!：:]{1,16}\*\*\s*\d*[ \t]*$", re.M)
# a troubleshooting entry's part named by its word alone on its line, plain, as a PDF prints it
# (「• 原因」, 「• 解决方式」) or a bullet of text writes it (「- 解决方法」): no bold, no colon
_PLAIN = r"^[ \t]*(?:[-*+•·●▪][ \t]*)?(?:{})[ \t]*$"
_PLAIN_PROBLEM = re.compile(_PLAIN.format(_PROBLEM_WORDS), re.M)
_PLAIN_ANSWER = re.compile(_PLAIN.format(rf"{_CAUSE_WORDS}|原因|{_SOLUTION_WORDS}|解决方式|处理方式"), re.M)


def label_line(text: str, pos: int, sentence: str, plain: bool = False) -> bool:
    """Whether the sentence at ``pos`` of a chunk's ``text`` is a whole line that is only a
    bold label (:data:`LABEL_LINE`): it says nothing itself; the text or code after it is
    what it introduces. With ``plain`` (config ``answer_plain_labels``), also a line that is only
    a troubleshooting entry's part word, plain (「• 原因」, 「• 解决方式」)."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = text[start:None if end < 0 else end]
    if plain and (_PLAIN_PROBLEM.fullmatch(line) or _PLAIN_ANSWER.fullmatch(line)):
        return True
    return bool(LABEL_LINE.fullmatch(line)) and sentence.strip(" \t-*+0123456789.、") in line


def label_word(line: str) -> str:
    """The words of a label line (「可能原因」 of 「-   **可能原因**」, 「原因」 of 「• 原因」)."""
    return line.strip(" \t-*+•·●▪0123456789.、")


def problem_span(text: str, bare: bool = False, plain: bool = False) -> tuple[int, int]:
    """Where a troubleshooting entry's problem statement lies in a chunk's text: from the line
    of its label (「问题描述：…」, the error it quotes under it) up to the label of the solution
    after it (「解决方法：…」); (0, 0) when the text holds no such pair.
    With ``bare``, labels alone on their line without a colon count too (「-   **现象描述**」 …
    「-   **可能原因**」, :data:`_BARE_PROBLEM`), and a cause's label (可能原因：) ends the
    problem as a solution's does: the cause answers what went wrong.

    With ``plain``, a part's word alone on its line counts as its label too (「• 原因」, :data:`_PLAIN`),
    and an entry that opens with the error it quotes, unlabelled, before its first cause or
    solution label alone on its line (a PDF's FAQ: 「[tls]verification info: ! The certificate validity starts in
    the future」 then 「• 原因」), has that opening as its problem statement.

    Args:
        text: a chunk's text.
        bare: read labels without a colon (config ``answer_labels``).
        plain: read plain part words alone on their line as labels (config ``answer_plain_labels``).

    Returns:
        The span's start and end offsets.
    """
    problem = _PROBLEM.search(text)
    for rx in (_BARE_PROBLEM, _PLAIN_PROBLEM) if plain else (_BARE_PROBLEM,) if bare else ():
        if (other := rx.search(text)) and (problem is None or other.start() < problem.start()):
            problem = other
    if plain and problem is None:
        # a cause's or solution's label on its own line (an inline 「…如下解决措施：」 is a sentence's)
        first = min((m for m in (_BARE_ANSWER.search(text), _PLAIN_ANSWER.search(text)) if m is not None),
                    key=lambda m: m.start(), default=None)
        if first is not None and text[:first.start()].strip():  # the entry opens with its problem
            return 0, first.start()
    solution = _SOLUTION.search(text, problem.end()) if problem else None
    if (bare or plain) and problem is not None:
        ends = [m for m in (solution, _BARE_ANSWER.search(text, problem.end()), _CAUSE.search(text, problem.end()),
                            _PLAIN_ANSWER.search(text, problem.end()) if plain else None) if m is not None]
        solution = min(ends, key=lambda m: m.start()) if ends else None
    if solution is None:
        return 0, 0
    return text.rfind("\n", 0, problem.start()) + 1, solution.start()


def in_problem(span: tuple[int, int], pos: int, sentence: str) -> bool:
    """Whether the sentence at ``pos`` belongs to the problem statement spanning ``span``
    (:func:`problem_span`); the sentence opening the solution (or the cause) does not."""
    return span[0] <= pos < span[1] and not _SOLUTION.search(sentence) and not _CAUSE.search(sentence)


# a comment line of a code listing (「### 验证Name Server 是否启动成功」 in a ```bash block)
_COMMENT = re.compile(r"(?:#+|//|--)\s*\S")


def code_comment(text: str, pos: int, sentence: str) -> bool:
    """Whether the sentence at ``pos`` of a chunk's ``text`` is a comment line inside a code
    listing (an odd number of ``` or ~~~ fences before it): it says what the commands under
    it do, as an FAQ entry's question says what its lines answer."""
    if not _COMMENT.match(sentence):
        return False
    before = text[:pos]
    return (before.count("```") + before.count("~~~")) % 2 == 1


# a question asking which ones (哪些, 几种, 什么条件, 什么情况下): its answer is a list, so a
# lead-in announcing one with its items after it (「下列各项个人所得，免征个人所得税：」) is the
# source over a better-scoring single sentence when it scores at least the composer's PREFER
# share of it (config ``list_answers``)
LIST_ASK = re.compile(r"哪些|哪几|几种|什么条件|什么情况|什么情形")
# 「哪些地区」 asks which ones of a kind it names: a lead-in is that list only when what it lists
# (the words after 下列/以下/如下, or the lead-in itself without them) names the kind too (「下列各项
# 个人所得，免征个人所得税：」 for 哪些个人所得), not any list nearby (「试点地区要…重点做好以下工作：」
# lists 工作 beside the sentence naming the 试点地区); 什么条件/情况/情形 name no kind beyond the list's
_WHICH = re.compile(r"(?:哪些|哪几[个种类项条]?|几种)")
_LISTS = re.compile(r"(?:下列|以下|如下)([^，,。：:；]*)")


def listed_kind(question: str, terms: Sequence[str], prefixed: bool = False) -> str:
    """The kind a question asks which ones of: its word right after 哪些/哪几/几种 (地区 of
    「试点选了哪些地区？」, 个人所得 of 「哪些个人所得可以免征…」), or "" when it names none there
    (「在什么情况下…」). With ``prefixed`` (config ``list_kind_prefixed``), also a word one
    character after it, when none starts there: the segmenter cuts a leading character off a
    compound and drops it (「哪几种解压缩算法」: 解 | 压缩算法).

    Args:
        question: the question.
        terms: its content terms.
        prefixed: read a word one character in too.
    """
    m = _WHICH.search(question)
    if m is None:
        return ""
    rest = question[m.end():]
    longest = sorted((t for t in terms if len(t) >= 2), key=len, reverse=True)
    kind = next((t for t in longest if rest.startswith(t)), "")
    if kind or not prefixed or not _CJK.match(rest[:1]):
        return kind
    return next((t for t in longest if rest[1:].startswith(t)), "")


def listing(lead: str) -> str:
    """What a lead-in says it lists: the words after its 下列/以下/如下 (「各项个人所得」 of 「下列各项
    个人所得，免征个人所得税：」), or the whole lead-in when it has none; normalised."""
    spans = _LISTS.findall(normalise(lead))
    return " ".join(spans) if spans else normalise(lead)


# what a lead-in says it announces: the words after 下列/以下 (「…重点做好以下工作：」) or before
# 如下 (「…，基本操作步骤如下：」), up to the clause's edge
_AFTER = re.compile(r"(?:下列|以下)([^，,。：:；;]*)[：:]\s*$")
_BEFORE = re.compile(r"([^，,。：:；;]*?)(?:如下所示|如下)[：:]\s*$")


def announced(lead: str) -> str | None:
    """What a lead-in says its items are (「基本操作步骤」 of 「…，基本操作步骤如下：」, 「工作」 of
    「重点做好以下工作：」), normalised; None when it does not say (a label, 「遗留问题：」, whose
    items are what it names)."""
    text = normalise(lead)
    m = _AFTER.search(text) or _BEFORE.search(text)
    return m.group(1).strip() if m else None


# a question asking how to do something (its answer is the steps a lead-in announces)
HOW_ASK = re.compile(r"怎么|怎样|如何|步骤|流程|哪几步|几步|方法|办法|操作")


# a question asking what follows from an act (「会受到什么处罚」「会被怎么罚」「警察会罚他吗」
# 「会被拘留吗」「会有什么后果」): its answer is the provision stating the penalty (「…的，处五日以下
# 拘留」), as for a question asking which offence an act is (answer type OFFENCE); not 「还能罚我
# 吗」, which asks whether a time limit has run
PENALTY_ASK = re.compile(r"(?:什么|何种|哪些|怎样的)(?:处罚|惩罚|处分|后果|法律责任)|怎么(?:罚|处罚)"
                         r"|(?<![还再])(?:会|要)被?(?:罚|处罚|拘留)(?:[他她我你]|[^？?。，,]{0,2}吗)")


def asked_types(question: str, offence: bool = True, penalty: bool = True, ages: bool = False) -> tuple:
    """The kinds of value a question's asking phrase names, as the composer reads them: the
    ranking's answer types (:func:`zhiku.retrieve.answertype.answer_types`) and, for a question
    asking what penalty follows from an act (:data:`PENALTY_ASK`), a provision stating an act
    and its penalty (:attr:`zhiku.retrieve.answertype.AnswerType.OFFENCE`); with ``ages``, a
    question asking none that states a person's age (:data:`STATED_AGE`: 「孩子今年14岁，能…吗」)
    asks what that age allows, which a rule states as an age bound (年满16周岁: the age type).

    Args:
        question: the question as asked.
        offence: read offence questions (the ``offence_type`` setting).
        penalty: read penalty questions too (the ``answer_penalty_ask`` setting).
        ages: read a stated age (the ``answer_stated_age`` setting).
    """
    from zhiku.retrieve.answertype import AnswerType, answer_types

    kinds = answer_types(question, offence)
    if penalty and offence and AnswerType.OFFENCE not in kinds and PENALTY_ASK.search(question):
        kinds = (*kinds, AnswerType.OFFENCE)
    if ages and not kinds and STATED_AGE.search(question):
        kinds = (AnswerType.AGE,)
    return kinds


# a person's age stated, not asked (「孩子今年14岁」「15岁的孩子」「才一岁半」「不满十四周岁」; not 几岁, 多少岁)
STATED_AGE = re.compile(r"(?<![几多少])(?:\d{1,3}|[一二两三四五六七八九十]{1,3})(?:周)?岁")
