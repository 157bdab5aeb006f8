"""How the answerability check reads a question and its evidence: one frozen set of readings
built once from the config (its ``answerability_*`` keys) and passed down to every reader of
the pins (the check, the composer's sentence choice, the confidence features)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class CheckOptions:
    """The answerability check's readings; each field is the config key ``answerability_<field>``
    (its description says what the reading does) and defaults to that key's default.

    Attributes:
        clauses: read a doer, a role's holder and a sum in the clause of their act or role;
            off, no sum is pinned.
        forms: a value in the other forms a text states it (when in other terms than a date,
            a role's holder as :func:`zhiku.verify.holders.holds_role` reads it).
        stems: a quantity's word counts in the sentence stating the value by its last word
            where the block holds it whole (:func:`zhiku.verify.answerable._head_in`).
        leading_place: pin the place a question opens with when it qualifies the noun after
            it, outside the asking clause (:func:`zhiku.verify.pins._leading_place`).
        titled: a quantity's word a numbered provision's title holds counts for its sentences.
        last_ask: the quantity asked read from the last clause asking one.
        phrases: a verb and its object the tagger calls a name is pinned as a ``phrase``.
        hours: 几个小时/多少分钟 ask kind ``hours``.
        provisions: a quantity a numbered provision states without the question's word for it
            is a weak mismatch (:func:`zhiku.verify.provisions.unworded`).
        split_heads: a quantity's word made of a verb and its object (承担责任) counts in a
            clause holding the two apart, the object qualified (承担侵权责任:
            :func:`zhiku.verify.answerable._split_in`).
        place_heads: a quantity's words leave out a place the question pins.
        units: a sum also as a multiple or share of another.
        acts: the act a sum is asked of read without a glued modal.
        periods: a term of office counted pins no edition; 几个工作日 asks days.
        months: a year with its month pins the month.
        subject_heads: a figure's words leave out a name the question pins.
        kind_compounds: a word holding the asked kind's own word (结婚年龄, 营业时间, 门票价格)
            keeps its other part among the words a figure is asked of (结婚, 营业, 门票), instead
            of leaving the whole word out (:func:`zhiku.verify.pins._head`).
        compounds: a person's name that is two common words does not decide a refusal.
        which_kind: a which-question (「哪个堕胎判例」) pins the kind it asks one of (判例), which
            the quoted sentences must name; decisive where the question pins one instance or a
            name (:func:`zhiku.verify.pins._which_kind`).
        which_named: with ``which_kind``, the kind's word counts only where a name stands in its
            clause (「…推翻确立堕胎权的判例」 describes one, names none:
            :func:`zhiku.verify.answerable.kind_named`).
        year_beside: a year the question pins must stand in a quoted sentence stating the
            attribute or figure asked of it, not only elsewhere in the block
            (:func:`zhiku.verify.answerable.year_beside`).
        opening_place: with ``leading_place`` off, the place a question opens with is still
            pinned (``about`` ``opening``), missed by a block naming another place and not it,
            met by a block naming none (:func:`zhiku.verify.answerable.other_place`).
        lay_words: a kind of person or family role as people name it, pinned as a name by the
            tagger (老公, 初中生), is met by the statute's words for it (配偶, 未成年人:
            :func:`zhiku.verify.lay.law_words`).
        lay_acts: the act a sum is asked of in everyday words (挣, 花, 掏) is met by a clause
            holding the statute's words for it (所得, 收入; 费用, 支付: :func:`zhiku.verify.lay.act_words`),
            and such a verb among the words a quantity is asked of (要交) by those words too.
        article_periods: a period asked (几天, 多久) that a quoted numbered provision states,
            whatever it is of, is a weak mismatch, and meets the question for the composer's
            sentence choice (:func:`zhiku.verify.answerable.period_stated`).
        near_words: a word the tagger calls a name that a cited block misses is met by a noun
            of that block close to it by the embedder (宝宝 by 婴儿: :mod:`zhiku.verify.near`;
            the closeness is config ``answerability_near_cosine``).
        noun_heads: a sum asked of an act is read beside the nouns among the words it is asked
            of (not 一年, 挣, 以内: :func:`zhiku.verify.answerable.noun_word`), and the act in a
            verb the cited block nowhere holds (挣) is a weak mismatch
            (:func:`zhiku.verify.answerable.user_verb`).
        rule_times: when asked (什么时候) of a rule is met weakly by a quoted numbered
            provision stating how long from an event or how often
            (:func:`zhiku.verify.answerable.rule_time`).
        separators: a number's thousands separators (1,000,000元) are taken out of the cited
            blocks before the check reads them, so a separated sum is one value in the clause of
            its act (:func:`zhiku.verify.answerable.unseparated`).
        counts: a count asked (kind ``number``) is not met by the digits of a name, a release
            number or a caption (:func:`zhiku.verify.answerable.unnamed`), and refuses when the
            answer states no other count (:func:`zhiku.answer.finish.uncounted`).
        statute_times: when asked (什么时候, or 时间 of a rule) is met by a time stated in a
            statute's terms — from an event (之日起, 届满时), at once or any time (立即,
            随时) — in a quoted numbered provision beside the question's words: a
            weak mismatch (:func:`zhiku.verify.answerable.statute_timed`).
        event_periods: with ``statute_times``, also a time stated relative to an event — a
            period before or after the event it names (会议召开十五日前, 选举日的二十日以前), from it
            on (自出生时起); not 提前三十日
            (:data:`zhiku.verify.stated.EVENT_PERIOD`): a weak mismatch as well.
        article_times: when asked of a rule (什么时候) that a quoted numbered provision states,
            read as :func:`zhiku.verify.answerable.meets` reads a time, but not beside any of the
            question's words, is a weak mismatch (:func:`zhiku.verify.answerable.time_stated`):
            the statute names the act in its own terms (案件受理费 for 仲裁费).
        condition_times: when asked of a rule (什么时候) is answered by the condition or event a
            quoted numbered provision's duty or right follows (「…完成登记，应当…核发…证书」),
            one of the question's words after the duty's modal and not in the condition
            (:func:`zhiku.verify.answerable.condition_time`): a weak mismatch.
        effect_times: when asked of an effect (「…什么时候生效」) is answered by a quoted sentence
            stating the condition it happens on, the question's verb right after 时/后/前
            (「…= true 时生效」; :func:`zhiku.verify.answerable.effect_time`): a weak mismatch.
        siblings: a model name the question pins (hi3516dv300) is missed by a block naming
            another model of its line more often than it, when the answer does not quote it
            (:func:`zhiku.verify.instances.sibling_model`).
        effort: 多少人力 asks any figure (a head count, or hours of work: 30小时/周), not a
            head count (:func:`zhiku.verify.pins._asked_quantity`).
        articles: with ``counts``, 一个/一种 read as the indefinite article (「做了一个字符串拼接」)
            states no count (:func:`zhiku.verify.answerable.unarticled`).
        sizes: 多大 asked of a thing that has a size (内存, 消息, 文件, 尺寸) asks a figure in
            bytes or lengths (kind ``size``), which decides a refusal as a sum or a date does.
        addresses: a network address with its port (127.0.0.1:8848, localhost:9876) states no
            count or quantity a question asks, unless it asks for a port or an address
            (:func:`zhiku.verify.answerable.unaddressed`).
        days: 哪天/哪一天 asks a day (kind ``day``): a month or a year alone (「2025年06月」)
            does not say which.
        documents: a document the question cites as its source in 《》 (按照《…》, 《…》规定:
            :func:`zhiku.verify.pins.cited_documents`) that no indexed document bears — by
            title, file name or short name, or quoted under that name by another — refuses,
            saying so (:func:`zhiku.verify.answerable.check`'s ``held``).
        posts: 「X由谁担任」 (担任, 兼任, 出任) asks the holder of the post X, a role
            (:func:`zhiku.verify.pins._role`), not an act the text must name, and a post's
            holder named by the post (主要负责人, 办公室主任: :data:`zhiku.verify.holders.POSTS`)
            answers 谁 as an institution does.
        glosses: a word the tagger calls a name right after a Latin name (「Highlight 高亮组件」)
            glosses that name, pinned on its own: its absence refuses nothing (``about``
            ``gloss``, :func:`zhiku.verify.pins.pinned`).
        event_spans: when asked (什么时候: kind ``when``), a span between two events
            (「按预约时间到达医院后至进入诊室前」, 「自进境起到办结海关手续止」) states it, as a date or
            a leading clause ending in 后 or 时 does (:data:`zhiku.verify.stated.EVENT_SPAN`).
        statute_moments: with ``statute_times``, a numbered provision states when at the moment
            of an event too (「用人单位应在解除或终止劳动合同时一次付清劳动者工资」: 在…时), a weak
            mismatch as the statute's other forms are (:data:`zhiku.verify.stated.STATUTE_MOMENT`).
        size_words: 尺寸/规格/大小/长宽 asked 是多少 (「汽车号牌尺寸是多少」) asks a size (kind
            ``size``) as 多大 does with ``sizes``, not any number.
        look_places: a where-to-look question (去哪里看, 在哪里查, 到哪里下载, 哪里可以找到) asks a
            page, a site, a link, a file or a menu as well as a place (kind ``page``:
            :func:`zhiku.verify.answerable.has_quantity`).
        contrasts: a sibling qualifier the question pins (男职工, 境外, 中型: a member of a closed set,
            :data:`zhiku.verify.pins.CONTRASTS`) is missed by a block stating the word after it only
            after a sibling (女职工, 境内), and that decides (:func:`zhiku.verify.answerable.contrast_met`).
        contrast_gaps: with ``contrasts``, the member asked meets the word after it with one or two
            Chinese characters between them naming no sibling (农村生活污水处理 for 农村|污水处理:
            :func:`zhiku.verify.answerable.contrast_gap`).
        sibling_keys: a dotted key the question names (setting.check.radioType) is missed by a
            block titled with another key of the same parent (setting.check.chkStyle), and that
            decides (:func:`zhiku.verify.answerable.key_met`).
        bounds: the bound a question asks of its figure (最短, 至少; 最长, 最多) is missed by a quote
            bounding the figure only the other way (不得超过六个月 for 最短), and that decides
            (:func:`zhiku.verify.answerable.bound_met`).
        counted: the thing a count is asked of, named right after it (多少次代码评审: 评审), must be
            named in what the answer quotes, and its absence decides (:func:`zhiku.verify.pins.counted`).
        scopes: a quote naming what the question asks only in a clause putting it out of the
            document's scope or sending the reader elsewhere (不适用…, 参见…) misses it, and that
            decides (:func:`zhiku.verify.answerable.scope_met`); not for a yes/no question.
        shares: a share asked (百分之多少, 比例是多少) is missed by a quote stating no percentage,
            fraction, tenth or multiple, and that decides (:func:`zhiku.verify.answerable.share_met`).
        ratios: with ``shares``, a ratio of two figures (1：7, 3比2) states a share too.
        size_areas: with ``sizes``, a size stated in the units of land and distance (0.304平方公里,
            两平方公里, 公顷, 亩, 公里) answers 多大 (:data:`zhiku.verify.stated.AREA`).
        asked_instances: an instance's kind noun after a word the question itself says (「应急救援
            专用号牌的汽车号牌尺寸」: 汽车号牌) is the instance asked, not another one
            (:func:`zhiku.verify.instances.other_instance`).
        rule_doers: a name the question pins as the doer of its act (「App 收集…」) that a quoted
            numbered provision stating the act does not name is a weak mismatch
            (:func:`zhiku.verify.answerable.rule_doer`): the statute's rule is for whoever does it.
        demonstratives: a 几 right after 这/那 (「春节法定假日那几天上班，工资怎么算」: those days)
            points at a number, it asks none (:func:`zhiku.verify.pins._asks_at`).
        frequencies: how often asked (「工资最少多长时间要发一次」, 隔多久: kind ``frequency``) is
            met by a frequency (每月, 按季, 一年一次: :data:`zhiku.retrieve.answertype.FREQUENCY`)
            as by a period; off, it asks a period (kind ``duration``), a figure with its unit.
        unit_notes: a block noting the unit of its figures (「（单位：人）」 over a table's rows) states
            a quantity of that unit's kind in a bare figure (:func:`zhiku.verify.stated.noted_unit`).
        choices: a quantity's word naming an option of a choice (「写入时间还是数据点时间」) asks
            no kind of quantity (:func:`zhiku.verify.pins._option_at`).
        which_asks: a count the clause asks which one of after it (「多少个 Topic 在哪个配置项里设置」)
            or a version asked by 多少 (「版本号该填多少」) asks no count
            (:func:`zhiku.verify.pins._names_value`).
        versions: a Latin name with its release series (fastjson 1.x) is pinned whole, and a
            full version after a Chinese name (语义化版本 3.0.0) is pinned, each met only by
            evidence stating it (:data:`zhiku.verify.pins.SERIES`).
        glued_words: a Latin piece of a common word the segmenter's dictionary holds with the
            Chinese glued to it (4S店) pins nothing (:func:`zhiku.verify.pins.glued_word`).
        other_kinds: a Latin word after 其他/别的 (「其他 JS 框架」) names a kind of other things
            and pins nothing (:data:`zhiku.verify.pins.OTHERS`).
        which_latin: a Latin word right after 哪个/哪些/什么 (「可以用哪个 command」) is the kind
            asked and pins nothing (:data:`zhiku.verify.pins.WHICH_BEFORE`).
        name_values: a Latin name and a whole number after a space (「code 101」) are met by a
            line of the block naming the field and holding that number
            (:func:`zhiku.verify.answerable.valued`).
        fractions: a count or a head count asked (多少, 几名, 多少人) is also met by a share of a
            whole (「三分之二以上」, 「半数以上」: :data:`zhiku.verify.stated.FRACTION`).
        unit_forms: a unit asked in words (分贝, 摄氏度) is also met by its symbol (dB, ℃), and the
            other way (:func:`zhiku.verify.stated.unit_forms`).
        near_names: a tagged name read by most of its bigrams (二氧化碳) is missed by a block
            naming one a single character apart (二氧化硫) and never the name itself
            (:func:`zhiku.verify.answerable.near_name`).
        measure_names: a word the tagger calls a name that opens with a measure word after a
            demonstrative or a numeral (「这张表」: 张表) pins nothing (:func:`zhiku.verify.pins.measured`).
        sibling_measures: a measured quantity asked (振动) is missed by a quote naming only a
            sibling measured beside it (噪声: :func:`zhiku.verify.pins.sibling_measures`).
    """

    clauses: bool = True
    forms: bool = True
    stems: bool = True
    leading_place: bool = False
    titled: bool = False
    last_ask: bool = True
    phrases: bool = True
    hours: bool = True
    provisions: bool = False
    place_heads: bool = True
    units: bool = True
    acts: bool = True
    periods: bool = True
    months: bool = True
    subject_heads: bool = False
    compounds: bool = False
    opening_place: bool = True
    which_kind: bool = True
    which_named: bool = True
    year_beside: bool = False
    lay_words: bool = False
    lay_acts: bool = False
    article_periods: bool = True
    near_words: bool = False
    noun_heads: bool = True
    rule_times: bool = False
    separators: bool = True
    counts: bool = True
    statute_times: bool = True
    event_periods: bool = False
    article_times: bool = True
    condition_times: bool = True
    effect_times: bool = False
    siblings: bool = True
    effort: bool = True
    articles: bool = True
    sizes: bool = True
    days: bool = False
    addresses: bool = True
    documents: bool = True
    posts: bool = True
    glosses: bool = True
    rule_doers: bool = True
    size_words: bool = False
    look_places: bool = True
    asked_instances: bool = True
    contrasts: bool = True
    contrast_gaps: bool = True
    sibling_keys: bool = True
    bounds: bool = True
    counted: bool = True
    scopes: bool = True
    shares: bool = True
    split_heads: bool = True
    demonstratives: bool = True
    unit_notes: bool = True
    ratios: bool = True
    size_areas: bool = True
    event_spans: bool = True
    statute_moments: bool = True
    frequencies: bool = True
    choices: bool = True
    which_asks: bool = True
    versions: bool = True
    glued_words: bool = True
    other_kinds: bool = True
    name_values: bool = True
    which_latin: bool = True
    kind_compounds: bool = True
    fractions: bool = True
    unit_forms: bool = True
    near_names: bool = False
    measure_names: bool = True
    sibling_measures: bool = True

    @classmethod
    def from_config(cls, cfg: Any) -> CheckOptions:
        """The readings the config sets (``answerability_<field>``); a key the config lacks
        (a partial config of a test) keeps its default."""
        return cls(**{f.name: bool(getattr(cfg, f"answerability_{f.name}", f.default)) for f in fields(cls)})
