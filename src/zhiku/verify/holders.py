"""Who or what fills what a question asks, read in the clause that states it: the names of a
kind (a person, a country, a place), the holder of a role, the doer of an act, and the sum an
act moved (「被罚了多少钱」: the sum of the fine, not of another act the sentence names)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from zhiku.retrieve.segment import normalise
from zhiku.verify.forms import norm
from zhiku.verify.pins import PLACES, word_tags
from zhiku.verify.stated import undated

# words the tagger takes for places that name none (依照外国法律: which country?)
NO_PLACE = {"外国", "国外", "海外", "各国", "他国", "本国", "国内", "当地", "本地", "外地", "境外", "境内"}
_NAME_OF = {"person": ("nr", "nrt", "nrfg", "nt"), "country": ("ns",)}
# a role or institution answers 「由谁规定」 as well as a name does (人民政府, 用人单位, 劳动者)
_ROLE = re.compile(r"(?:政府|单位|机关|部门|机构|法院|检察院|委员会|公司|组织|协会|学会|集团|大学|学院|"
                   r"劳动者|用人单位|当事人|个人|人员|者)$")
# the holder of a post named by its post in a body (「国家发展改革委主要负责人」, 「办公室主任」, 「分管
# 副省长」): who holds a role in a plan or a rule, answering 谁 as an institution does (config
# ``answerability_posts``)
POSTS = re.compile(r"(?:负责人|领导|首长|主任|书记|主席|(?:[局部厅处科院校省市县区]|董事|秘书|组|队|社)长)$")
# a word of Chinese characters the tagger cannot place (a name written with a rare character:
# 袁丽嫦, 黄霑): a name, for a question asking who
_UNKNOWN = re.compile(r"[\u4e00-\u9fff]{2,4}")
# a clause that only says who speaks (「电影节大使郭富城表示」): the speaker is not the sentence's subject
SAYS = re.compile(r"(?:表示|说|称|指出|认为|介绍|透露|坦言|回忆|强调)$")


def names(kind: str, text: str, asked: str, posts: bool = False) -> list[str]:
    """Names of ``kind`` (person, country, place) in ``text`` that the question (``asked``,
    its words ``|``-joined) does not already say; with ``posts`` a post's holder named by the
    post (:data:`POSTS`: 主要负责人, 办公室主任) is one for a person."""
    q = [a for a in asked.split("|") if a]
    out = []
    for word, tag in word_tags(text):
        w = word.strip()
        if len(w) < 2 or any(w in a or a in w for a in q) or kind != "person" and w in NO_PLACE:
            continue
        if kind == "country" and (w in PLACES or tag in _NAME_OF["country"]):
            out.append(w)
        elif kind == "place" and (w in PLACES or tag == "ns" or _ROLE.search(w)):  # 向仲裁委员会申请
            out.append(w)
        elif kind == "person" and (tag in _NAME_OF["person"] or tag == "eng" and w[:1].isupper()
                                   or _ROLE.search(w) or tag == "x" and _UNKNOWN.fullmatch(w)
                                   or posts and POSTS.search(w)):
            out.append(w)
    return out


# what a where-to-look question asks (去哪里看, 哪里可以下载: config ``answerability_look_places``):
# a page, a site, a link, a file or a menu — a word ending in one (Releases 页面, 官网, 设置菜单),
# an address (https://…, www.…) or a file name (CHANGELOG.md)
_PAGE_WORD = re.compile(r"(?:页面|网页|主页|首页|页|网站|站点|官网|网址|链接|文档|文件|目录|菜单|栏目|选项卡|"
                        r"标签页|仓库|频道|公众号|小程序|客户端|应用商店|论坛|社区|博客|邮箱)$")
_PAGE_AT = re.compile(r"https?://|www\.|[\w-]+\.(?:html?|md|pdf|docx?|xlsx?|ya?ml|json|xml|txt|zip|csv)(?![\w])",
                      re.IGNORECASE)


def pages(text: str, asked: str) -> list[str]:
    """The pages, sites, links, files and menus ``text`` (normalised) names that the question
    (``asked``, its words ``|``-joined) does not already say: where a where-to-look question
    (「之后去哪里看」) is answered (「发布在 GitHub 的 Releases 页面」)."""
    q = [a for a in asked.split("|") if a]
    out = [m.group() for m in _PAGE_AT.finditer(text)]
    for word, _ in word_tags(text):
        w = word.strip()
        if len(w) >= 2 and _PAGE_WORD.search(w) and not any(w in a or a in w for a in q):
            out.append(w)
    return out


_CLAUSE = re.compile(r"[,，;；]")
# a clause opening with a verb, an adverb or a preposition has no subject of its own: it
# continues the clause before (「人民政府根据本法…，规定…」, 「山口茜…战胜安洗莹，获得…冠军」)
_NO_SUBJECT = ("v", "d", "p")


def scopes(t: str, word: str) -> Iterator[str]:
    """Each clause of ``t`` (a normalised sentence) holding ``word``, with the clauses before
    it that it continues (those it opens without a subject of its own)."""
    parts = _CLAUSE.split(t)
    for i, part in enumerate(parts):
        if word not in part:
            continue
        j = i
        while j > 0 and _opens_without_subject(parts[j]):
            j -= 1
        yield "，".join(parts[j:i + 1])


def _opens_without_subject(clause: str) -> bool:
    tags = [(w, t) for w, t in word_tags(clause.strip()) if w.strip()]
    return bool(tags) and tags[0][1].startswith(_NO_SUBJECT)


def _subject(t: str) -> str:
    """The sentence's first clause, its subject when the act or role comes later (「占旭刚（），
    …获得举重冠军的第一人」); empty when it only says who speaks (「声明还说」)."""
    first = re.split(r"[,，;；:：]", t, maxsplit=1)[0]
    return "" if SAYS.search(first) else first


def _subject_names(t: str, word: str, kind: str, asked: str) -> bool:
    """Whether ``word`` (a role, an act's first character) comes after the sentence's subject
    clause (:func:`_subject`) and that clause names someone of ``kind`` the question does not
    (``asked``): the subject holds the role or does the act."""
    subject = _subject(t)
    return word in t and word not in subject and bool(names(kind, subject, asked))


ROLE_WINDOW = 20


def names_role(head: str, sentence: str, clauses: bool = True, posts: bool = False) -> bool:
    """Whether ``sentence`` names the role ``head`` (总导演 → 导演, 女单冠军 → 冠军) with a
    name or institution within :data:`ROLE_WINDOW` characters of it in its own clause
    (「钟少雄导演」, 「主演：吴京、刘德华」; a country for a role ending in 国, 主席国), the clauses
    before that the role's clause continues (「山口茜…战胜安洗莹，获得…女单冠军」), or opening the
    sentence as its subject; 「但是，该剧从主演到配角」 names the role but nobody in it, and neither
    does 「主创团队都觉得，在…北京这座双奥之城」 (a name in the next clause is not the team's).
    With ``clauses`` off the window runs over the whole sentence (an ablation); with ``posts`` a
    post's holder named by the post counts (「总指挥：国家发展改革委主要负责人」: :func:`names`)."""
    t = norm(undated(normalise(sentence)))
    kind = "country" if head.endswith("国") else "person"
    if _subject_names(t, head, kind, ""):
        return True
    for scope in scopes(t, head) if clauses else [t]:
        for m in re.finditer(re.escape(head), scope):
            # a post named beside the role is its holder only when it is another (副董事长 holds no 董事长)
            if names(kind, _own_window(scope, m.start(), m.end()), head if posts else "", posts):
                return True
    return False


# a role named for what its holder does (创造者, 代理人, 创办人): its holder is the act's doer
_DOER_SUFFIX = ("者", "人")


def holds_role(role: str, sentence: str, asked: str = "", clauses: bool = True, forms: bool = True,
               posts: bool = False) -> bool:
    """Whether ``sentence`` names the holder of ``role`` (:func:`names_role` on its last two
    characters), or states it another way a text does: a doubled kin word (弟弟, 姐姐) as its
    one character (「弟为北宋文人魏泰」); a role named for an act (创造者, 代理人) by the act's
    doer (「由伊恩·法兰明所创作的虚构人物」, :func:`doer_stated`), someone the question
    (``asked``, its words ``|``-joined) does not name. With ``forms`` (config
    ``answerability_forms``) or ``clauses`` off, the role's own word only (ablations). ``posts``:
    a post's holder named by the post counts (:func:`names_role`)."""
    head = norm(role)[-2:]
    kin = forms and len(head) == 2 and head[0] == head[1]  # 弟弟 → 弟
    if any(names_role(h, sentence, clauses, posts) for h in ([head, head[0]] if kin else [head])):
        return True
    if not (clauses and forms):
        return False
    return len(role) >= 3 and role.endswith(_DOER_SUFFIX) and doer_stated(norm(role)[:-1], "person", sentence, asked)


# a field label of a listing (「导演: 辛爽 主演:」): the names after it fill that field
_LABEL = re.compile(r"[\u4e00-\u9fff]{2}[:：]")


def _own_window(t: str, start: int, end: int) -> str:
    """The text within :data:`ROLE_WINDOW` characters of the role word at ``start:end``,
    without the fields of other labels: before it, from the last other label on; after
    it, up to the next label (「导演: 辛爽 主演:」 names nobody as 主演)."""
    before = t[max(0, start - ROLE_WINDOW): start]
    after = t[end: end + ROLE_WINDOW]
    if labels := list(_LABEL.finditer(before)):
        before = before[: labels[0].start()]
    if nxt := _LABEL.search(after, 1):
        after = after[: nxt.start()]
    return before + " " + after


def doer_stated(act: str, kind: str, sentence: str, asked: str, clauses: bool = True) -> bool:
    """Whether ``sentence`` names a doer of ``act`` (a name of ``kind``, person or country, the
    question does not say: ``asked``) in the act's own clause, the clauses before it that it
    continues, or as the sentence's subject. The act is its verb or a word sharing its first
    character (创办: 创立). 「…以及其他国家的军队将参与这次演习」 states the act and nobody
    doing it; a country named in another clause of the sentence did something else. With
    ``clauses`` off the act alone is enough (an ablation: the name is checked sentence-wide as
    the value asked)."""
    t = norm(undated(normalise(sentence)))
    first = act[:1]
    if not clauses:
        return first in t
    if _subject_names(t, first, kind, asked):
        return True
    return any(names(kind, scope, asked) or _agent(first, scope, asked) for scope in scopes(t, first))


def _agent(first: str, scope: str, asked: str) -> bool:
    """Whether ``scope`` gives the act's doer after 由, 被 or 经 and before the act, within one
    clause (「由泰国国家铁路局捐献土地」, 「由部门负责人和分管副总经理共同签字」, 「须经总经理签字」):
    whatever the tagger makes of it, someone the question does not already name (nor 谁, its
    own echo)."""
    q = [a for a in asked.split("|") if a]
    words = [w.strip() for w, _ in word_tags(scope) if w.strip()]
    for i, w in enumerate(words):
        if w not in ("由", "被", "经"):  # the preposition itself, not 由于, 被迫 or 已经
            continue
        end = next((j for j in range(i + 1, len(words)) if words[j].startswith(first) or words[j] in ("，", ",")), None)
        doer = "".join(words[i + 1:end]) if end is not None and words[end] not in ("，", ",") else ""
        if len(doer) >= 2 and "谁" not in doer and not any(doer in a for a in q):
            return True
    return False


# words before 多少 that ask no act (是多少, 需要多少, 一共多少)
_NO_ACT = {"是", "为", "有", "要", "需要", "需", "得", "能", "可以", "值", "达", "达到", "约", "大约", "大概",
           "一共", "共", "共计", "合计", "总共", "应", "应该", "应当", "一般", "最多", "最少", "至少", "最高", "最低"}


def sum_act(clause: str) -> str:
    """The act a 「多少钱」 question asks the sum of: the verb right before 多少 (了 between
    allowed), or the word after 被 (「被罚了多少钱」 → 罚, 「被罚款多少」 → 罚款, 「赔了多少钱」
    → 赔); empty for 「是多少」, 「需要多少钱」 or a question with no verb there (「起售价多少」)."""
    tags = [(w.strip(), t) for w, t in word_tags(clause) if w.strip()]
    for i, (w, _) in enumerate(tags):
        if w != "多少":
            continue
        j = i - 1 - (i > 0 and tags[i - 1][0] == "了")
        if j < 0 or tags[j][0] in _NO_ACT:
            return ""
        verb, tag = tags[j]
        passive = j > 0 and tags[j - 1][0] == "被"
        return verb if passive or tag.startswith(("v", "zg")) else ""
    return ""


# the modals the segmenter glues to the verb after them (该付, 能赔, 要交, 得赔, 可领)
_MODALS = "该能要得可应会需"


def sum_verb(act: str) -> str:
    """The verb of the act a sum is asked of, without a modal the segmenter glued to it
    (该付 → 付, 能赔 → 赔, 要交 → 交): the statute states the act (支付, 赔偿, 缴纳), never the
    user's modal. A word that is no modal and a verb (罚款, 赔) is kept."""
    return act[1:] if len(act) >= 2 and act[0] in _MODALS and act[1:] not in ("是", "有") else act


def _states_act(act: str, clause: str) -> bool:
    """Whether a word of ``clause`` begins or ends with the act's first character (罚: 罚款,
    处罚; 赔: 赔偿, 索赔); 惩罚性 names a kind of damages (赔偿), not a fine."""
    first = act[:1]
    return any(w.strip().startswith(first) or w.strip().endswith(first) for w, _ in word_tags(clause))


def sum_stated(act: str, sentence: str, holds: Callable[[str], bool], words: tuple[str, ...] = ()) -> bool:
    """Whether ``sentence`` states a sum (``holds``: a clause states a value of the kind asked)
    in a clause stating ``act`` or the clause beside it (「对知网处以罚款，共计8760万元」): a sum
    the sentence gives another act (「消费者可主张…最低五百元的惩罚性赔偿」) does not answer how
    much the fine was. A clause holding one of ``words``, the statute's words for the act
    (挣: 所得, 收入: :func:`zhiku.verify.lay.act_words`), states it too."""
    parts = [norm(x) for x in _CLAUSE.split(normalise(sentence))]
    acted = [i for i, x in enumerate(parts) if act[:1] in x and _states_act(act, x) or any(w in x for w in words)]
    return any(holds(parts[j]) for i in acted for j in (i - 1, i, i + 1) if 0 <= j < len(parts))
