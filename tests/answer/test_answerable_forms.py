"""What a question pins, read as a text states it: when in other terms than a date, a role's
holder in the other forms a text names it, the kind a 「哪位」 question asks for, the act of a
pivot verb, a vague attribute and the question's own word for time; each with a twin the
documents do not answer, still refused."""

from __future__ import annotations

import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

# CMRC 2018 trial paragraphs (Chinese Wikipedia, CC BY-SA 4.0; tests/data/eval/SOURCE.md),
# sentences quoted verbatim: TRIAL_777, TRIAL_569, TRIAL_311, TRIAL_496, TRIAL_131, TRIAL_47,
# TRIAL_355, TRIAL_142, TRIAL_534, TRIAL_519, TRIAL_114 and TRIAL_678
PERIOD = "不过，自在奥义书是13部主要奥义书中成书较晚的，可能晚至孔雀王朝时期才出现。"
AFTER = "四国征伐后，长宗我部家随即成为丰臣家的从属势力。"
SCHOOL = "原本是模特儿的张天霖MARCUS，高二的时候拍了周华健的MV「朋友」。"
BUS = "香港岛专线小巴35M线是香港一条来往香港仔至湾仔的小巴路线，只在平日早上提供服务，以辅助4A及4B线。"
TAKEN = "此后又经过多次争夺，在1221年，莱昂国王阿方索十世最终收复阿尔坎塔拉。"
BOND = "占士·邦是一个由伊恩·法兰明所创作的虚构人物，是著名小说《占士邦》系列的主角。"
SONG = "同名主题曲《鳄鱼泪》，由袁丽嫦原唱，并由黄霑作曲及填词。"
POET = "魏玩，字玉汝，北宋襄阳邓城人，著名女词人，人称魏夫人，弟为北宋文人魏泰。"
EMPRESS = "元皇后，河南郡洛阳县（今中国河南省洛阳市东）人，魏道武帝拓跋珪的后裔，开府元蛮之女，北魏宗室后裔，北齐孝昭帝高演的皇后。"
BAN = "在广东巡抚任内，怡良积极配合两广总督邓廷桢和林则徐的禁烟运动，并支持关天培在第一次鸦片战争初期的抵抗活动。"
TONGUES = "西班牙语言（lenguas de España）指的在西班牙使用或曾经使用的语言。"


def _ok(question: str, text: str, **kw) -> bool:
    return check(question, [(text, text)], **kw).ok


def _decisively_refused(question: str, text: str) -> bool:
    v = check(question, [(text, text)])
    return not v.ok and any(decisive(c, v.constraints) for c in v.missing)


@pytest.mark.unit
def test_a_when_question_is_answered_in_other_terms_than_a_date():
    """「什么时候/何时」 is answered by a period (孔雀王朝时期), a leading clause naming an event
    (「四国征伐后，」), a stage of a life (高二的时候) or a time of the week and day (平日早上);
    the same sentences without them say nothing of when: decisively refused. 「时间」 and
    「日期」 ask for a date, which a period does not give; with ``forms`` off neither does
    any of them (an ablation)."""
    cases = [("自在奥义书是什么时候成书的？", PERIOD, "孔雀王朝时期"),
             ("长宗我部家何时成为丰臣家的从属势力？", AFTER, "四国征伐后，"),
             ("张天霖在何时拍摄了周华健的MV？", SCHOOL, "高二的时候"),
             ("香港岛专线小巴35M线什么时候提供服务？", BUS, "平日早上")]
    for question, text, when in cases:
        assert [c.text for c in pinned(question) if c.kind is Kind.QUANTITY] == ["when"], question
        assert _ok(question, text), question
        assert _decisively_refused(question, text.replace(when, "")), question
        assert not _ok(question, text, opts=CheckOptions(forms=False)), question
    assert _decisively_refused("自在奥义书的成书日期", PERIOD)


@pytest.mark.unit
def test_the_word_a_question_asks_when_with_is_no_word_of_the_answer():
    """「…，是在什么时候」: 时候 is the question's word for time, not a word the answer sentence
    must hold; the date 1221年 answers, the twin with the year taken out does not."""
    asked = next(c for c in pinned("阿尔坎塔拉最终被收复，是在什么时候？") if c.kind is Kind.QUANTITY)
    assert "时候" not in asked.about.split("|")
    assert _ok("阿尔坎塔拉最终被收复，是在什么时候？", TAKEN)
    assert _decisively_refused("阿尔坎塔拉最终被收复，是在什么时候？", TAKEN.replace("在1221年，", ""))


@pytest.mark.unit
def test_a_role_holder_is_read_in_the_forms_a_text_names_it():
    """创造者 is who created (「由伊恩·法兰明所创作」); a doubled kin word as its one character
    (「弟为北宋文人魏泰」). Twins naming nobody in the role are decisively refused; with
    ``forms`` off the role's own word is needed (an ablation)."""
    cases = [("占士·邦的创造者是谁？", BOND, BOND.replace("由伊恩·法兰明所创作的", "")),
             ("魏玩的弟弟是谁？", POET, POET.replace("，弟为北宋文人魏泰", ""))]
    for question, text, twin in cases:
        assert _ok(question, text), question
        assert _decisively_refused(question, twin), question
        assert not _ok(question, text, opts=CheckOptions(forms=False)), question


@pytest.mark.unit
def test_a_name_the_tagger_cannot_place_is_a_name():
    """「由袁丽嫦原唱」: the tagger places no part of speech on 袁丽嫦 (a rare character), yet it
    names the singer; the twin naming only the composer's role leaves 原唱 unheld."""
    assert _ok("《鳄鱼泪》同名主题曲的原唱是谁？", SONG)
    assert _decisively_refused("《鳄鱼泪》同名主题曲的原唱是谁？", "同名主题曲《鳄鱼泪》，由黄霑作曲及填词。")


@pytest.mark.unit
def test_the_noun_after_which_is_the_kind_asked_for_not_a_name():
    """「哪位帝王」: the tagger calls 帝王 a person's name, but it is the kind of person asked
    for; pinned as a name, a sentence naming 高演 was taken to speak of someone else. A
    sentence naming nobody still does not answer."""
    q = "元皇后是哪位帝王的皇后？"
    assert not [c for c in pinned(q) if c.kind is Kind.SUBJECT]
    assert _ok(q, EMPRESS)
    assert not _ok(q, "元皇后，河南郡洛阳县（今中国河南省洛阳市东）人。")


@pytest.mark.unit
def test_who_after_a_verb_is_its_object_and_the_next_verbs_doer():
    """「配合谁开展禁烟运动」: the text may state either act (「配合两广总督邓廷桢和林则徐的禁烟
    运动」); a sentence naming nobody for either is decisively refused. 「是谁创办的」 keeps its
    one act."""
    q = "在广东巡抚任内，怡良配合谁开展禁烟运动？"
    assert [c.text for c in pinned(q) if c.about == "act"] == ["配合|开展"]
    assert _ok(q, BAN)
    assert _decisively_refused(q, "在广东巡抚任内，怡良积极开展禁烟运动，并支持第一次鸦片战争初期的抵抗活动。")
    assert [c.text for c in pinned("果果合唱团是谁创办的？") if c.about == "act"] == ["创办"]


@pytest.mark.unit
def test_what_a_word_means_is_no_word_the_answer_repeats():
    """「定义是什么」 is answered by 「…指…」, which never says 定义; an attribute the answer does
    name (地位) still decides for a question about one instance (西班牙)."""
    assert not [c for c in pinned("西班牙语言的定义是什么？") if c.kind is Kind.FOCUS]
    assert _ok("西班牙语言的定义是什么？", TONGUES)
    assert _decisively_refused("西班牙语言的地位是什么？", TONGUES)


@pytest.mark.unit
def test_today_before_a_place_it_describes_is_the_present_not_a_day():
    """「今天的路口镇是由哪两个乡镇合并的」 asks about the town as it is now (CMRC 2018 TRIAL_678,
    quoted verbatim): no day is pinned, and the sentence saying which two it merged from
    answers. 「今天的北京天气」 still asks about one day: the same sentence, not dated today,
    does not answer it."""
    merged = "今路口镇在1995年长沙地区撤区并乡镇之前属路口区路口镇和麻林乡地域，1995年，二乡镇合并组建路口镇。"
    assert not [c for c in pinned("今天的路口镇是由哪两个乡镇合并的？") if c.kind is Kind.TIME]
    assert _ok("今天的路口镇是由哪两个乡镇合并的？", merged)
    assert [c.text for c in pinned("今天的北京天气怎么样？") if c.kind is Kind.TIME] == ["今天"]
    assert _decisively_refused("今天的北京天气怎么样？", merged)
