"""The answer's levers of the configuration: how the offline composer chooses the sentence and
the block it quotes among the evidence, and when the ask refuses what the documents do not answer
(the dense veto and the answerability check). Each is an ablation row in docs/eval.md."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AnswerLevers(BaseModel):
    """Settings of the offline answer's choice of source. :class:`zhiku.config.Config` inherits
    them, so each is read from the config file and ``ZHIKU_*`` variables like every other key."""

    provision_share: float = Field(default=0.6, ge=0.0, le=1.0,
                                   description="the offline answer quotes a numbered provision (第X条) "
                                   "over unnumbered text among its evidence (a case report, a post) "
                                   "when it scores at least this share of it; 0 = off")
    list_answers: bool = Field(default=True, description="the offline answer to a question asking which "
                               "ones (哪些, 几种, 什么条件) quotes a list's lead-in and its items over a "
                               "better-scoring single sentence")
    list_kind: bool = Field(default=True, description="with list_answers, a question naming the kind it asks "
                            "which ones of (地区 of 哪些地区) takes a list's lead-in only when it names that "
                            "kind too (not 「重点做好以下工作：」); off: any lead-in")
    list_block: bool = Field(default=True, description="with list_answers, a list's lead-in is the "
                             "source over the best sentence only when its whole score (the sentence, its "
                             "block's coverage and meaning) is at least 0.6 of the best one's, not its "
                             "sentence's alone: a long article listing conditions does not take over from "
                             "a better block stating them in one sentence; off: the sentence's score alone")
    answer_problems: bool = Field(default=True, description="the offline answer reads a troubleshooting "
                                  "entry's problem statement (问题描述：…) as its question, as an FAQ "
                                  "entry's question line: it quotes the solution (解决方法：…) read under it")
    answer_head_figures: bool = Field(default=True, description="the offline answer quotes a section's "
                                      "heading before its sentences when it holds a word of the question "
                                      "and a figure they lack (版本 1.1.0 over the list of that release)")
    answer_head_version: bool = Field(default=True, description="the offline answer to a question "
                                      "asking about a version (版本) quotes the heading of the block it "
                                      "quotes when the heading states a release number its sentences do "
                                      "not (a changelog entry 「v1.46.0 @2026-8-18」 over the change it lists)")
    answer_head_ancestors: bool = Field(default=True, description="with answer_head_version, the offline "
                                        "answer quotes the heading of the release a block's section sits "
                                        "under (a changelog's 「v4.8.0」 over its 「新组件」) when the quoted "
                                        "sentences do not state that release")
    answer_head_dates: bool = Field(default=True, description="a question asking when (什么时候, 何时, "
                                    "哪天) has the offline answer quote a block under its heading when the "
                                    "heading states a date the quoted sentences do not (「v1.42.0 @2025-4-11」), "
                                    "and under its release and date when the block opens with that date "
                                    "alone on its line (「v4.8.10（2024-04-06）：…」)")
    answer_decisive_pins: bool = Field(default=True, description="when no sentence near the offline "
                                       "answer's best meets everything the question pins, one meeting the "
                                       "pins that decide a refusal (the figure asked, a name) is preferred "
                                       "over one that does not (「…最少要多大内存」: the table row 「内存 8 GB+」 "
                                       "over a note naming 部署 and no size); off: the best-covering sentence")
    answer_met_whole: bool = Field(default=False, description="when the offline answer's best sentence "
                                   "does not meet what the question pins, the sentences near it it looks "
                                   "among for one that does are those whose whole score (sentence, block "
                                   "coverage and bonus, by which the best was chosen) is at least 0.6 of "
                                   "the best one's; off: whose sentence score alone is")
    answer_met_items: bool = Field(default=True, description="the offline answer checks a list's lead-in "
                                   "(「…有下列情形之一的，…可以申请宣告该自然人死亡：」) against what the "
                                   "question pins together with the numbered items it announces (「（一）"
                                   "下落不明满四年」), as it reads an item under its lead-in; off: the "
                                   "lead-in alone")
    answer_sum_act: bool = Field(default=True, description="a question asking how much is paid in an "
                                 "act (「还能让超市赔多少」: 赔) has the offline answer prefer a sentence "
                                 "stating a sum in a clause of that act (「…支付价款十倍…的赔偿金」) over one "
                                 "stating a sum of another act (「…并处货值金额十倍以上二十倍以下罚款」) near the "
                                 "best; off: any sum of the kind asked")
    answer_code_comments: bool = Field(default=True, description="the offline answer reads a comment "
                                       "line of a code listing (### 验证…是否启动成功) as a question line: "
                                       "it quotes the commands and output under it")
    answer_labels: bool = Field(default=True, description="the offline answer reads a line that is only a "
                                "bold label (「-   **可能原因**」) as a label, not a sentence to quote; a "
                                "troubleshooting entry's parts so labelled without a colon (现象描述, 可能原因, "
                                "解决办法) as answer_problems reads 「问题描述：」; and a quoted lead-in followed "
                                "by a code listing brings the listing; off: such a label is quoted like text "
                                "and a lead-in stops before a listing")
    answer_plain_labels: bool = Field(default=True, description="with answer_labels, a troubleshooting "
                                      "entry's part word alone on its line, plain (「• 原因」, 「• 解决方式」 of a "
                                      "PDF's FAQ), is a label as a bold one is; an entry opening with the error it "
                                      "quotes before its first such label has that opening as its problem "
                                      "statement; and each sentence is read under the label above it (原因 for "
                                      "「…是什么原因？」); off: bold labels only, read as before")
    list_items: bool = Field(default=True, description="with list_answers, the offline answer whose source "
                             "is an item of a list with no lead-in before it in its block (a changelog's "
                             "bullets under a version's heading) quotes the list's other items with it, up "
                             "to 400 characters; off: the item alone")
    list_enumerations: bool = Field(default=True, description="with list_kind, when no list's lead-in is the "
                                    "offline answer's source, a sentence naming the kind asked and listing three or "
                                    "more things with 、 (「…适用于智能NVR、云终端、物联网网关…等场景」 for 「哪些场景」) is "
                                    "the source over a best sentence not naming that kind when it scores at least 0.6 "
                                    "of it; off: the best sentence")
    short_forms: bool = Field(default=True, description="a block holding the long form of a short form "
                              "its own document defines (「权限控制（ACL）」, 「（以下简称“细则”）」) holds the short "
                              "form too, and one holding the short form the long form, for the offline answer's "
                              "choice of source and the answerability check; off: each form only itself")
    answer_term_synonyms: bool = Field(default=True, description="the offline answer counts a question's "
                                       "word of three characters or more the index rarely holds (斑马线) that no "
                                       "block among its evidence holds by the first word of its small thesaurus "
                                       "groups one does (人行横道), at the word's own weight; off: the word itself")
    answer_agent_forms: bool = Field(default=True, description="the offline answer counts a question's "
                                     "word naming a person by a verb's role (维护者, 开发人员) in a sentence or "
                                     "block holding the role's other form (维护人员, 开发者) and not it; off: "
                                     "each form only itself")
    answer_term_parts: bool = Field(default=True, description="the offline answer counts a question's "
                                    "word of three characters or more that no evidence block holds by the "
                                    "longest dictionary words inside it that one does (劳动节 of 五一劳动节): "
                                    "the keyword index matched the question by those parts; off: such a word "
                                    "counts nowhere")
    answer_term_spreads: bool = Field(default=False, description="the offline answer counts a question's "
                                      "Chinese word of two to four characters that no evidence block holds by a "
                                      "longer dictionary word of a block that begins with its first character and "
                                      "holds the others in order (重启 of 重新启动): the document writes the full "
                                      "form of the user's short one; off (shipped: it moved a held-out "
                                      "law answer to a definition spreading 上学 as 上下学): such a word counts "
                                      "nowhere")
    answer_rows_whole: bool = Field(default=True, description="the offline answer reads and quotes a "
                                    "table row as one sentence, whole: a record whose first value names "
                                    "what its other cells state, not split at the 。 and ； inside its "
                                    "cells into pieces that lose that value; off: split as prose")
    answer_row_keys: bool = Field(default=True, description="the offline answer quotes the row of a "
                                  "table the question names by the row's first value (「中危漏洞最高能拿"
                                  "多少奖励」: the row 「漏洞等级 中」) over a sibling row of the same table it "
                                  "does not name that covers the question as well; a one-character value "
                                  "counts when it opens a word of the question (中 of 中危, not 高 of 最高); "
                                  "off: the best-covering row")
    answer_wrapped_comments: bool = Field(default=True, description="the offline answer reads a short "
                                          "line of words after a line of code ending in a // comment as the "
                                          "rest of that comment, one sentence with the code line (a PDF wraps "
                                          "a listing's long comment: 「#define MQTT_URI \"tcp://…:1883\" // "
                                          "配置测试」 + 「服务器地址」); off: each line on its own")
    list_kind_prefixed: bool = Field(default=True, description="with list_kind, the kind a question "
                                     "asks which ones of may start one character after 哪些/哪几/几种 when no "
                                     "word starts there (哪几种解压缩算法: the segmenter leaves 解 | 压缩算法)")
    answer_lead_ins: float = Field(default=0.8, ge=0.0, le=1.0, description="for a question asking "
                                   "neither which ones nor how, a lead-in announcing items after it of a kind "
                                   "the question does not name (…，基本操作步骤如下： for 用的是什么算法) counts "
                                   "this share of its coverage when the offline answer chooses the sentence "
                                   "to quote; a label (遗留问题：) counts in full; 1 = off")
    answer_around: bool = Field(default=True, description="the offline answer quotes the sentence "
                                "beside its source when the source alone cannot answer: one only restating "
                                "the question (the sentence after it, or before it when it points back: "
                                "此战…), a consequence quoted for a why-question (因此…: the reason before "
                                "it), one announcing points and stating the first (以下三点：第一，…)")
    answer_asked_next: bool = Field(default=True, description="with answer_around, a quoted source "
                                    "that does not name the thing the question asks which of (文件 of "
                                    "该删哪个文件, 补丁 of 缺的是什么补丁) brings the sentence right after it "
                                    "when that one names it (删除下述配置文件即可： and its path after a "
                                    "troubleshooting entry's cause)")
    answer_turns: bool = Field(default=True, description="with answer_around, a quoted source that "
                               "opens by turning (但是, 不过, 然而, 可是) brings the sentence before it in "
                               "its block, what it turns from (「“v1.2.3” 并不是的一个语义化的版本号。」 "
                               "before 「但是，…增加前缀 “v” 是…常用做法」), unless that one asks")
    answer_doc_name: bool = Field(default=True, description="the offline answer reads each sentence "
                                  "under its document's name (title, file name, its version): words "
                                  "naming the document choose none of its passages over another")
    answer_name_weight: float = Field(default=0.0, ge=0.0, le=1.0, description="choosing between "
                                      "documents, the offline answer counts a question's word that only "
                                      "a block's document name holds (责任 of 「…侵权责任编」) at this share "
                                      "of its weight, unless the question spells out that part of the "
                                      "name; inside a document the name counts in full; 1 = off")
    answer_meaning: float = Field(default=12.0, ge=0.0, description="over a keyword-only ranking with "
                                  "stored vectors, the offline answer's choice of block adds this many "
                                  "times how far a block's cosine with the question lies above the lowest "
                                  "of the evidence (the question vector the heading cosine made; none is "
                                  "encoded for it); 0 = off")
    answer_meaning_encode: bool = Field(default=True, description="with answer_meaning, an index "
                                        "holding no vectors (a keyword-only ingest) encodes the offline "
                                        "answer's five evidence blocks through the vector cache, so their "
                                        "meaning weighs in its choice as stored vectors would; off: no bonus "
                                        "there")
    answer_meaning_long: bool = Field(default=True, description="with answer_meaning, a question of "
                                      "more than heading_max_words words (a case narrative) is encoded "
                                      "for the bonus when its ask has not encoded it (most asks have), as "
                                      "a shorter one is; off: such a question gets no bonus, whatever "
                                      "encoded it before. Either way its answer does not depend on what "
                                      "the process asked earlier")
    answer_meaning_chars: int = Field(default=0, ge=0, description="with answer_meaning_encode, "
                                      "each evidence block is encoded in the short form passage_similarity "
                                      "embeds (its title, last chapter heading and the first this many "
                                      "characters of its text, the article number cut), not whole: the "
                                      "encoder's time follows the text's length; 0 = the whole text")
    answer_standing: float = Field(default=0.2, ge=0.0, description="when the offline answer's evidence "
                                   "holds numbered provisions of a statute or regulation and of a rule "
                                   "implementing or interpreting one (a title ending in 解释, 规定, 办法, "
                                   "细则), the former's blocks score this much more; 0 = off")
    answer_standing_figures: bool = Field(default=True, description="with answer_standing, a question "
                                          "asking a figure (多久, 多少, 几天) gets no standing bonus: the figure "
                                          "is often what the rule under a statute adds (the share of wages a "
                                          "deduction may take); off: every question")
    answer_agreement: float = Field(default=0.15, ge=0.0, description="the offline answer's choice of "
                                    "block adds this much × the share of the other evidence blocks that "
                                    "come from its document: a question about one law brings up several "
                                    "of its articles, a literal match in another law comes alone; 0 = off")
    answer_addressee: float = Field(default=0.0, ge=0.0, description="the offline answer's choice of "
                                    "block takes this much off an article whose opening clause binds a class "
                                    "of office holders (林业主管部门的工作人员…, 国家工作人员…) when the question "
                                    "names none; 0 = off")
    answer_overview: float = Field(default=0.8, ge=0.0, le=1.0, description="when the offline answer's "
                                   "best sentence is in a block under a summary's heading (摘要, 概述, 概览, "
                                   "目录, overview, summary, contents), the best sentence of another block of "
                                   "the same document is the source instead when it scores at least this "
                                   "share of it: the summary restates each clause in a line, the clause "
                                   "states it; 0 = off")
    answer_asked_type: bool = Field(default=True, description="the offline answer to a question whose "
                                    "asking phrase names a kind of value (要交钱吗: a fee, 多久: a period, "
                                    "罚多少钱: a sum, 几岁: an age, 判刑吗: an offence and its penalty) "
                                    "prefers as its source a block stating one, as it does a block meeting "
                                    "what the question pins down")
    answer_lower_evidence: int = Field(default=5, ge=0, description="when the answerability check "
                                       "refuses the offline answer composed from the first answer_chunks "
                                       "passages for names the question pins that they lack (native, v1.44.0), "
                                       "it is composed once more from this many candidates below them (of the ten "
                                       "shown with an answer) and kept when it passes the same verification "
                                       "and check and its cited block writes those names (an FAQ entry whose "
                                       "heading asks and whose answer is a word: 「不能。」); 0 = off")
    answer_stated_age: bool = Field(default=True, description="with answer_asked_type, a question asking "
                                    "no kind of value that states a person's age (「孩子今年14岁，能让他自己骑"
                                    "电瓶车吗」, 「15岁的孩子」) prefers as the offline answer's source a block "
                                    "stating an age bound (年满16周岁), as a question asking an age does")
    answer_penalty_ask: bool = Field(default=True, description="with answer_asked_type, a question asking "
                                     "what penalty follows from an act (会受到什么处罚, 会被怎么罚, 会被拘留吗) "
                                     "prefers a block stating an act and its penalty (…的，处…罚款), as one "
                                     "asking which offence an act is does")


class RefusalLevers(BaseModel):
    """Settings of refusing what the documents do not answer: the dense veto and what the
    answerability check reads. :class:`zhiku.config.Config` inherits them, so each is read
    from the config file and ``ZHIKU_*`` variables like every other key."""

    dense_veto: bool = Field(default=True, description="with vectors, refuse when the blend of term "
                             "coverage and the best dense cosine falls below min_confidence (off: the "
                             "fitted model alone decides)")
    keyword_veto: bool = Field(default=True, description="without vectors, refuse when the first "
                               "passages (keyword_veto_passages; text and document name) hold none of the question's content "
                               "words that name something (not 突然, 除了, 的话); off: the fitted model "
                               "alone decides (it answered such evidence at 0.31)")
    keyword_veto_passages: int = Field(default=5, ge=0, description="the keyword veto reads this many first "
                                       "passages, the ones the answer is composed from (answer_chunks, 5); "
                                       "0: the top three only, as before (a question whose words the fourth "
                                       "passage holds was refused at 0 before anything was read)")
    keyword_veto_parts: bool = Field(default=True, description="the keyword veto takes a word of the question "
                                     "of three characters or more as held when the passages hold a dictionary "
                                     "word inside it (精神病 of 精神病院, 健身 of 健身房), as the keyword index "
                                     "matched it; off: the word whole only (「家里人想把我强行送进精神病院住院」 "
                                     "was refused over 精神卫生法's passages on 精神障碍患者住院)")
    keyword_veto_abbreviations: bool = Field(default=True, description="the keyword veto takes a word of the "
                                             "question of two to four characters as held when the passages write "
                                             "it out: as many words in a row as it has characters, each opening with "
                                             "its character (醉驾 of 醉酒驾驶, 社保 of 社会保险); off: the word whole "
                                             "or its parts only")
    dense_veto_terms: int = Field(default=8, ge=0, description="the dense veto weighs a question of more "
                                  "terms as one of this many (a case narrative's names and dates are in "
                                  "no rule); 0 = every term")
    confidence_terms: int = Field(default=0, ge=0, description="the confidence's coverage features weigh "
                                  "a question of more content terms as one of this many, as the dense veto "
                                  "does (a case narrative's names, dates and sums are in no rule); 0 = every "
                                  "term (the shipped model is fitted so)")
    dense_veto_pieces: bool = Field(default=True, description="the dense veto counts a single character "
                                    "only when it can name something (not 谁, 称) and a word the segmenter "
                                    "guessed by gluing a name to its neighbour (黄华麒是) by the two-character "
                                    "pieces the evidence holds; off: every term, whole")
    dense_veto_synonyms: bool = Field(default=True, description="the dense veto's coverage holds a "
                                      "question word the index rarely holds (a layperson's word: 斑马线, "
                                      "马路) when the evidence holds a word of its small thesaurus groups "
                                      "(人行横道, 道路); off: the word itself (or its pieces)")
    quote_cosine: bool = Field(default=False, description="the confidence reads how close the answer's "
                               "quoted sentence is to the question by the embedder (one encoding of "
                               "one sentence an answer); off: the retrieval and text features only")
    confidence_on_point: bool = Field(default=True, description="the confidence after answering reads how much "
                                      "of the answer's text the question's own words make up (its characters, "
                                      "a Latin word whole; a quote of the offline composer only, no case "
                                      "narrative of more than heading_max_words words): a quote about the thing asked against a passage that "
                                      "only touches it; off: not read (neutral)")
    confidence_stated: bool = Field(default=False, description="the confidence after answering reads whether "
                                    "the question asks for a kind of value (an amount, a period, an age, a date, "
                                    "a count) and the answer states one of that kind; off (default): not read "
                                    "(neutral: it ordered answers better but calibrated RGB zh and the everyday "
                                    "questions worse)")
    confidence_dense_model: bool = Field(default=False, description="the confidence shown for a ranking "
                                         "with a dense list is read by the confidence model fitted on hybrid "
                                         "asks (the confidence.json part \"dense\": cosines, agreement of the "
                                         "two lists, the fused order), unless the question is a narrative "
                                         "(more than heading_max_words words); whether to refuse is still "
                                         "decided on the keyword model's probability, the dense veto and its "
                                         "second look; off (default): the keyword model reads every ranking "
                                         "(on the held-out everyday questions the part ordered right and "
                                         "wrong answers better but was worse calibrated)")
    veto_quote: float = Field(default=0.89, ge=0.0, le=1.0, description="when the dense veto refuses "
                              "evidence the fitted model would answer from, compose the offline answer "
                              "and keep it when its quoted sentence's cosine to the question is at least "
                              "this (one encoding on vetoed asks only); 0 = off")
    veto_quote_sentences: int = Field(default=2, ge=1, le=8, description="the veto's second look reads "
                                      "this many of the first sentences the answer would quote and keeps the "
                                      "closest to the question (one encoding each): a provision's opening "
                                      "sentence often sets up what the next says; 1 = the first only")
    answerability: bool = Field(default=True, description="check that the cited evidence meets what the "
                                "question pins down (subject, place, time, kind of value); off: "
                                "answered on confidence alone")
    answerability_clauses: bool = Field(default=True, description="read a doer, a role's holder and a sum "
                                        "in the clause of their act or role; off: anywhere in the sentence")
    answerability_stems: bool = Field(default=True, description="the answerability check takes the "
                                      "word a quantity is asked of (无偿献血 of 「多大年纪…参加无偿献血」) in "
                                      "the sentence stating the value by its last word (献血) when the cited "
                                      "block holds it whole: a provision names its subject once, then states "
                                      "the value; off: the whole word in that sentence")
    answerability_leading_place: bool = Field(default=False, description="the answerability check pins "
                                              "the place a question opens with when it qualifies the "
                                              "noun after it (「深圳劳动合同期限满一年…的，试用期最长多久」), "
                                              "though that clause asks nothing; off (the default): only "
                                              "places in the asking clause — on, a case narrative's "
                                              "「江苏省南京市人民检察院指控…」 pinned 南京 and refused it")
    answerability_opening_place: bool = Field(default=True, description="with "
                                              "answerability_leading_place off, the place a question "
                                              "opens with (「深圳劳动合同期限满一年…」) is still pinned, "
                                              "met unless the cited block names another place and not it "
                                              "(上海市劳动合同条例): a case narrative's 「江苏省南京市人民检察院"
                                              "指控…」 is still answered from 刑法, which names no place; "
                                              "off: a place outside the asking clause pins nothing")
    answerability_which_kind: bool = Field(default=True, description="a which-question (「美国最高法院推翻了"
                                           "哪个堕胎判例」) pins the kind it asks one of, the head noun after "
                                           "哪个/哪些 (判例), which the quoted sentences must name; a miss "
                                           "decides where the question pins one instance or a name (a fact, "
                                           "not a rule), else lowers the confidence; off: 哪个 followed by a "
                                           "modifier pins nothing")
    answerability_which_named: bool = Field(default=True, description="with answerability_which_kind, the "
                                            "kind's word in a quoted sentence counts only where a name the "
                                            "question does not say stands in its clause (or in the clause "
                                            "before, for 「这一判例」): 「…推翻确立堕胎权的判例」 describes the "
                                            "case and names none; a sentence without the word still meets it "
                                            "by naming one anywhere; off: the kind's word anywhere meets it")
    answerability_year_beside: bool = Field(default=False, description="a year the question pins with an "
                                            "attribute or figure asked of it (「2021赛季中超冠军」, "
                                            "「2022年中国电影的总票房收入」) must stand in a quoted sentence that "
                                            "states that attribute or figure (a relative year read against the "
                                            "page's dateline counts), not only elsewhere in the block: a page "
                                            "on the 2021 season naming the defending champion does not answer; "
                                            "off: the year anywhere in the block when the quoted text names none")
    answerability_forms: bool = Field(default=True, description="the answerability check takes a value "
                                      "in the other forms a text states it: when in other terms than a "
                                      "date for 什么时候/何时 (孔雀王朝时期, 四国征伐后), a role's holder as "
                                      "its kin character (弟为…), after 由 (由袁丽嫦原唱) or as the doer of "
                                      "the act the role is named for (创造者: 由…所创作), a time limit for "
                                      "什么时候 (自…之日起30日内); off: dates and the role's own word only")
    answerability_titled: bool = Field(default=False, description="the answerability check takes the "
                                       "word a quantity is asked of as named by every sentence of a numbered "
                                       "provision (第…条) whose document title holds it (带薪 of 「一年能休几天带薪假」 in "
                                       "职工带薪年休假条例's 「…年休假5天」); off (shipped: it also let 个人所得税 of a "
                                       "deduction rule's title answer a threshold none of the documents states): "
                                       "the sentence or its block's text must name it")
    answerability_last_ask: bool = Field(default=True, description="the kind of quantity a question asks "
                                         "is read from the last clause asking one (「几个人合伙开公司…，这钱"
                                         "最晚多少年内要交齐」 asks how long, not how many people); off: the "
                                         "first kind found in the asking clauses")
    answerability_phrases: bool = Field(default=True, description="a word the tagger calls a name that is "
                                        "a verb and its object (考驾照: 考 + 驾照) is the user's "
                                        "situation: evidence missing it is answered (the word still steers "
                                        "the sentence chosen); off: the evidence must repeat it")
    answerability_provisions: bool = Field(default=False, description="a numbered provision (第…条) the "
                                           "answer quotes that states a value of the kind asked (5天, "
                                           "六万元) but not beside the question's word for it (带薪假, "
                                           "生孩子) is a weak mismatch: answered at a lower confidence, "
                                           "since a statute names things in its own terms; off (shipped: it "
                                           "answered no more held-out questions and cost one with vectors): "
                                           "refused like any missing quantity")
    answerability_place_heads: bool = Field(default=True, description="the words a quantity is asked of "
                                            "leave out a place the question pins (when others are left): the "
                                            "value must be stated of the thing, not beside the place, which is "
                                            "checked on its own (「北京小客车摇号的中签率是多少」 is not met by a "
                                            "tax rate in a sentence naming 北京市人民政府); off: the place counts "
                                            "as one of the quantity's words")
    answerability_units: bool = Field(default=True, description="a sum asked (多少钱) is also met by a "
                                      "multiple or share of another sum (价款的三倍, 百分之三百, 一个月工资), "
                                      "as a statute states what is paid; off: a sum in money only")
    answerability_acts: bool = Field(default=True, description="the act a sum is asked of (「该付多少钱」, "
                                     "「能赔多少」) is read without the modal the segmenter glued to it (付, "
                                     "赔), the act a statute states (支付, 赔偿); off: the glued word, whose "
                                     "first character (该, 能) a statute's clause must hold")
    answerability_compounds: bool = Field(default=False, description="a word the tagger calls a person's "
                                          "name that is two common words (法律援助: 法律 + 援助, 初中生: "
                                          "初中 + 生) is the user's word for a kind of thing: evidence "
                                          "missing it is answered (the word still steers the sentence "
                                          "chosen); off: the evidence must repeat it")
    answerability_lay_words: bool = Field(default=False, description="a kind of person or family role as "
                                          "people name it, which the tagger calls a name (老公, 宝宝, 初中生, "
                                          "岳父, 保姆), is met by evidence holding the statute's words for it "
                                          "(配偶, 子女, 未成年人, 近亲属, 家政); a brand, company, place or "
                                          "person's name still must be repeated; off: the word itself")
    answerability_lay_acts: bool = Field(default=False, description="the act a sum is asked of in everyday "
                                         "words (挣, 赚, 花, 掏, 交, 存, 拿, 给) is met by a clause holding the "
                                         "statute's words for it (所得, 收入, 工资; 费用, 支付, 承担; 缴纳…) "
                                         "beside the sum, and such a verb among the words a quantity is "
                                         "asked of (「社保一个月要交多少钱」: 要交) by those words too; off: a "
                                         "word sharing the verb's character")
    answerability_frequencies: bool = Field(default=True, description="how often asked (「工资最少多长时间"
                                            "要发一次」, 隔多久) is met by a frequency (每月, 按季, 一年一次) as by "
                                            "a period, in the check and in the composer's choice of sentence; "
                                            "off: it asks a period, a figure with its unit")
    answerability_choices: bool = Field(default=True, description="a quantity's word naming an option of a "
                                        "choice (「看的是写入时间还是数据点时间」) asks no kind of quantity: the "
                                        "answer is one of the options, not a date; off: 时间 closing an option "
                                        "asks a date")
    answerability_which_asks: bool = Field(default=True, description="a count the asking clause asks "
                                           "which one of after it (「最多能订阅多少个 Topic 在哪个配置项里设置」) or "
                                           "a version asked by 多少 (「版本号该填多少」) asks no count: the item or "
                                           "the release's name is the answer; off: any 多少 asks a count")
    answerability_versions: bool = Field(default=True, description="a Latin name with its release series "
                                         "(「fastjson 1.x 里的…」) is pinned whole, met by evidence naming it "
                                         "and 1.x or a 1.y release, and a full version right after a Chinese "
                                         "name (「语义化版本 3.0.0 规范」), not one given as an example, is "
                                         "pinned, met only by evidence stating that version; off: 「fastjson "
                                         "1」 is pinned and a bare version pins nothing")
    answerability_glued_words: bool = Field(default=True, description="a Latin piece that makes one common "
                                            "word of the segmenter's dictionary with the Chinese glued to it "
                                            "(「4S店要给我备用车吗」: 4S店) is that everyday word, not a name the "
                                            "evidence must repeat (世界5G大会 is no dictionary word: 5g stays "
                                            "pinned); off: 4s is pinned as a Latin name")
    answerability_other_kinds: bool = Field(default=True, description="a Latin word right after 其他/其它/"
                                            "别的 (「会不会和页面上其他 JS 框架冲突」) names a kind of other "
                                            "things the question sets its subject against, not a name the "
                                            "evidence must repeat; off: js is pinned as a Latin name")
    answerability_which_latin: bool = Field(default=True, description="a Latin word right after 哪个/哪些/哪种/"
                                            "什么 (「分片发送之前可以用哪个 command 来做分片验证」) is the kind "
                                            "the question asks one of, not a name the evidence must repeat "
                                            "(the Hook table's row 「before-send … 可以用来做分片验证」 never says "
                                            "command); off: command is pinned as a Latin name")
    answerability_name_values: bool = Field(default=True, description="a Latin name and a whole number after "
                                            "a space (「接口返回 code 101 表示什么」) are a field and its value, met "
                                            "by a line of the block naming the field and holding that number (the "
                                            "row 「| code | int | …`101`为无文本 |」, 「code==101」); off: only "
                                            "「code 101」 or 「code101」 as written meets it")
    answerability_article_periods: bool = Field(default=True, description="a period asked (几天, 多久) that a "
                                                "quoted numbered provision (第…条) states, whatever the statute "
                                                "states it of, is a weak mismatch answered at a lower confidence, "
                                                "and the composer prefers that sentence (「生孩子能在家歇多少天」: "
                                                "「女职工生育享受不少于九十天的产假」); off: the period must stand "
                                                "beside one of the question's words")
    answerability_near_words: bool = Field(default=False, description="a word the tagger calls a name "
                                           "(宝宝, 老公, 租客) that a cited block misses is met by a noun of "
                                           "that block close to it by the embedder, each encoded alone (婴儿, "
                                           "夫妻, 承租人), at least answerability_near_cosine; off: the word "
                                           "itself")
    answerability_near_cosine: float = Field(default=0.965, ge=0.0, le=1.0, description="with "
                                             "answerability_near_words, how close (cosine) a block's noun must be "
                                             "to the question's word to meet it")
    answerability_split_heads: bool = Field(default=True, description="a word the quantity asked is of "
                                            "that is a verb and its object, two words of two characters "
                                            "as the tagger reads them (承担责任, 支付工资; not 女子单打), is met in a clause of the cited sentence "
                                            "holding the verb and then the object at most four characters "
                                            "apart, the object qualified as a statute writes it (承担侵权责任, "
                                            "支付劳动者工资); off: the word itself, at most one character "
                                            "between its characters")
    answerability_noun_heads: bool = Field(default=True, description="a sum asked of an act (「一年挣多少钱」) "
                                           "is read beside the nouns among the words it is asked of, not a "
                                           "verb, numeral or locative (挣, 一年, 以内), and the act in a verb the "
                                           "cited block nowhere holds is a weak mismatch, answered at a lower "
                                           "confidence when the sum is stated; off: beside any of those words")
    answerability_rule_times: bool = Field(default=False, description="when asked (什么时候, 何时) of a rule "
                                           "(no place, year, edition or event pinned) is met weakly, answered "
                                           "at a lower confidence, by a quoted numbered provision stating how "
                                           "long from an event (提前三十日, 十五日) or how often (按月); off: a "
                                           "date or when in other terms only")
    answerability_separators: bool = Field(default=True, description="the answerability check takes a "
                                           "number's thousands separators out of the cited blocks before "
                                           "reading them (最高1,000,000元 → 最高1000000元), so a separated sum "
                                           "is one value in the clause of its act; off: the commas cut it into "
                                           "clauses and only the last holds its unit")
    answerability_counts: bool = Field(default=True, description="a count the question asks (多少, 几个: "
                                       "kind number) is not met by the digits of a name (DAYU210, v1.44.0), a "
                                       "release number (4.3.2), a caption (图2) or a link, and refuses when the "
                                       "question's last clause asks it and the answer states no other count, where a missing count is otherwise a weak "
                                       "mismatch; off: any figure counts and a missing count only lowers the "
                                       "confidence")
    answerability_statute_times: bool = Field(default=True, description="when asked (什么时候, 何时; 时间 "
                                              "of a rule: no place, year, edition or event pinned) is met weakly, "
                                              "answered at a lower confidence, by a quoted numbered provision "
                                              "stating it beside the question's words as a statute does: from an "
                                              "event (之日起, 届满时), at once or at any time (立即, 次日, 随时), "
                                              "within a reasonable time (not 提前三十日); off: a date, a time "
                                              "limit (N日内) or when in other terms only")
    answerability_event_periods: bool = Field(default=False, description="with answerability_statute_times, "
                                              "when asked of a rule is also met weakly by a quoted numbered "
                                              "provision stating the time relative to the event it names: a period "
                                              "before or after it (会议召开十五日前, 选举日的二十日以前, 届满后六个月), "
                                              "from it on (自出生时起), not how long ahead with no event named "
                                              "(提前三十日: the notice may be the other party's); off: those forms "
                                              "are no time")
    answerability_article_times: bool = Field(default=True, description="when asked of a rule (什么时候, 何时: "
                                              "no place, year, edition or event pinned) that a quoted numbered "
                                              "provision (第…条) states in any of the forms the check reads, but not "
                                              "beside any of the question's words, is a weak mismatch answered at "
                                              "a lower confidence (「什么时候要交仲裁费」: 「申请人应当自收到…受理通知书"
                                              "之日起15日内…预交案件受理费」); off: the time must stand beside one of "
                                              "the question's words")
    answerability_condition_times: bool = Field(default=True, description="when asked of a rule (什么时候, "
                                                "何时) is met weakly, answered at a lower confidence, by a quoted "
                                                "numbered provision stating the condition or event the duty or right "
                                                "asked follows (「不动产登记机构完成登记，应当依法向申请人核发不动产权属"
                                                "证书」), a word of the question after the duty's modal and not in the "
                                                "condition; off: a condition is no time")
    answerability_effect_times: bool = Field(default=False, description="when asked of an effect (the "
                                             "verb after 什么时候: 「setting.async.url什么时候生效？」) is met "
                                             "weakly, answered at a lower confidence, by a quoted sentence stating "
                                             "the condition it happens on, that verb right after 时, 后 or 前 "
                                             "(「[setting.async.enable = true 时生效]」, 「重启后生效」); off: a "
                                             "condition is no time")
    answerability_siblings: bool = Field(default=True, description="a model name the question pins "
                                         "(Hi3516DV300, DAYU200: letters, then a figure) is missed by a cited "
                                         "block naming another model of the same letters more often than it "
                                         "(a Hi3751V350 burning guide naming Hi3516DV300 once, in a link), "
                                         "unless the answer quotes it; off: the name anywhere in the block "
                                         "meets it")
    answerability_effort: bool = Field(default=True, description="多少人力 (the work put in) asks any "
                                       "figure — a head count (10人以上) or hours or days of work (30小时/周) "
                                       "— not a head count; off: 多少人 in it asks a head count, which "
                                       "30小时/周 does not state")
    answerability_articles: bool = Field(default=True, description="with answerability_counts, 一个/一种 "
                                         "read as the indefinite article (「做了一个字符串拼接」, 「是一种消息"
                                         "中间件」) states no count a question asks (多少, 几个); kept where a "
                                         "bound or total is before it (至少一个, 只能有一个, 每…一个) or it ends "
                                         "its clause; off: any 一个 is a count")
    answerability_sizes: bool = Field(default=True, description="多大 asked of a thing that has a size "
                                      "(「推荐配多大内存」, 「一条消息最大能发多大」, 「底板尺寸有多大」) asks a "
                                      "figure in bytes or lengths (256KB, 16GB, 180mm×130mm), missing which "
                                      "refuses; off: 多大 asks no quantity and any quoted passage on the "
                                      "thing answers")
    answerability_addresses: bool = Field(default=True, description="a network address with its port "
                                          "(127.0.0.1:8848, localhost:9876) states no count or quantity a "
                                          "question asks (几个节点, 多大), unless the question asks for a port "
                                          "or an address (端口, 地址, ip); off: its figures are read as counts")
    answerability_days: bool = Field(default=False, description="哪天/哪一天 asks a day — a date with its "
                                     "day (2025.06.03, 6月7日), a day of the month (29日), a weekday, a day "
                                     "told from another (次日, 之日) or a holiday — not a month or a year "
                                     "alone (「表格（2025年06月安全漏洞）共 11 行」); off (the default: it "
                                     "turned one wrong answer into a refusal and gained none): any date")
    answerability_documents: bool = Field(default=True, description="a document the question cites as "
                                          "its source in 《》 (「按照《数据出境安全评估办法》，…」, 《…》规定, "
                                          "《…》里) that no indexed document bears — by title, file name or "
                                          "short name, or quoted under that name by an indexed document — "
                                          "refuses and says which is missing; off: the question is answered "
                                          "from whatever document holds its topic")
    answerability_posts: bool = Field(default=True, description="「X由谁担任」 (担任, 兼任, 出任) asks "
                                      "the holder of the post X, met by a sentence naming the post with its "
                                      "holder (「总指挥：国家发展改革委主要负责人」), not an act the text must "
                                      "name; and a post's holder named by the post (主要负责人, 办公室主任, "
                                      "局长) answers 谁 as an institution does; off: 担任 must be stated and "
                                      "only a name or an institution answers 谁")
    answerability_glosses: bool = Field(default=True, description="a word the tagger calls a name right "
                                        "after a Latin name (「Vant 的 Highlight 高亮组件」: 高亮) glosses that "
                                        "name, which is pinned on its own: a block naming Highlight and not "
                                        "高亮 still answers; off: the gloss is pinned as a name the block "
                                        "must hold")
    answerability_rule_doers: bool = Field(default=True, description="a name the question pins as the "
                                           "doer of its act (「App 收集不满十四岁孩子的个人信息要经过谁同意」: "
                                           "App before 收集) that a cited numbered provision stating the act "
                                           "does not name only lowers the confidence: a statute states its "
                                           "rule for whoever does the act; off: the name must be in the block, "
                                           "and its absence refuses")
    answerability_size_words: bool = Field(default=False, description="尺寸/规格/大小/长宽 asked 是多少 "
                                           "(「汽车号牌尺寸是多少」) asks a size — a dimension with a length unit "
                                           "or a × b (480毫米×140毫米) — as 多大 does with answerability_sizes; "
                                           "off (the default: no measured question needs it once "
                                           "answerability_asked_instances reads the plate's size sentence): "
                                           "any number answers (a count, 两只)")
    answerability_look_places: bool = Field(default=True, description="a where-to-look question (去哪里看, "
                                            "在哪里查, 到哪里下载, 哪里可以找到) asks a page, a site, a link, a "
                                            "file or a menu (「发布在 GitHub 的 Releases 页面」) as well as a "
                                            "place; off: only a place or an institution answers")
    answerability_asked_instances: bool = Field(default=True, description="the kind noun of the instance a "
                                                "question pins after a word the question itself says is "
                                                "that instance, not another (「应急救援专用号牌的汽车号牌尺寸」: "
                                                "「汽车号牌规格为480毫米×140毫米」); off: 汽车号牌 reads as "
                                                "another 号牌 than the one asked")
    answerability_named_figures: bool = Field(default=True, description="a figure asked (多少钱, 多久, 几天, "
                                              "多少) of a Latin name the question pins (a product, a package, "
                                              "a setting: 「rt_ota 软件包的授权费用是多少」) that the answer "
                                              "states nowhere — no value of that kind at all — refuses, as "
                                              "answerability_untyped does for every question; off: a weak "
                                              "mismatch, answered at a lower confidence")
    answerability_contrasts: bool = Field(default=True, description="a sibling qualifier the question pins "
                                          "— a member of a closed set (男/女, 境内/境外, 国内/国外, 大型/中型/"
                                          "小型/微型, 小学/初中/高中, 城镇/农村, 上半年/下半年) and the word "
                                          "after it (「男职工的陪产假」: 男职工) — is missed by a cited block "
                                          "stating that word only after a sibling (「女职工生育享受98天产假」), "
                                          "and that refuses; a block naming neither is read as before; off: "
                                          "the qualifier is not read")
    answerability_contrast_gaps: bool = Field(default=True, description="with answerability_contrasts, "
                                              "the member asked also meets the word after it with one "
                                              "or two Chinese characters between them that name no "
                                              "sibling (「农村生活污水处理设施」 for 「农村污水处理设施」); "
                                              "off: only the two words side by side meet it")
    answerability_sibling_keys: bool = Field(default=True, description="a dotted key the question names "
                                             "(「zTree的setting.check.radioType默认值是什么」) is missed by a cited "
                                             "block whose document title names another key of the same "
                                             "parent (setting.check.chkStyle's page names radioType only in "
                                             "passing), and that refuses; off: any block naming the key meets it")
    answerability_bounds: bool = Field(default=True, description="the bound a question asks of the figure "
                                       "it asks — lower (最短, 最少, 最低, 至少) or upper (最长, 最多, 最高, "
                                       "至多) — is missed by a quote bounding the figure only the other way "
                                       "(「试用期不得超过六个月」 for 「试用期最短多久」), unless the block says "
                                       "the asked word itself (最低工资), and that refuses; off: any bound "
                                       "answers")
    answerability_counted: bool = Field(default=True, description="the thing a count is asked of, named "
                                        "right after 多少/几 and its measure (「每月需要完成多少次代码评审」: "
                                        "评审; 「几个节点」: 节点), must be named in what the answer quotes: "
                                        "「有效贡献次数不少于10次」 counts contributions, and that refuses; "
                                        "off: any count beside the question's words answers")
    answerability_scopes: bool = Field(default=True, description="a quote naming what the question asks "
                                       "only in a clause putting it out of the document's scope or sending "
                                       "the reader elsewhere (「也不适用分发第三方开源软件的场景（该场景参见"
                                       "[…引入指导](…)）」 for 「引入第三方开源软件需要提交哪些评审材料」) "
                                       "does not answer, and that refuses; not for a yes/no question; off: "
                                       "read as any quote")
    answerability_shares: bool = Field(default=True, description="a share asked (百分之多少, 百分之几, "
                                       "百分比, 比例是多少) is missed by a quote stating no percentage, "
                                       "fraction, tenth or multiple (「…前十二个月的平均工资收入计算」 for "
                                       "「试用期的工资最低不能低于转正工资的百分之多少」), and that refuses; "
                                       "off: any figure answers")
    answerability_demonstratives: bool = Field(default=True, description="a 几 right after 这/那 "
                                               "(「春节法定假日那几天上班，工资怎么算」: those days, 这几个, "
                                               "那几年) points at a number the question has in mind and asks "
                                               "none, so the quantity asked is read from the rest of the "
                                               "question; off: 那几天 asks a count of days")
    answerability_unit_notes: bool = Field(default=True, description="a cited block noting the unit its "
                                           "figures are in (「内地西藏初中班（校）扩大招生计划表（单位：人）」 over a "
                                           "table's rows, 单位：万元) states a quantity of that unit's kind in a "
                                           "bare figure (「分年度招生任务 1997年 140」 answers 多少名/多少人); off: "
                                           "the figure must carry its unit")
    answerability_ratios: bool = Field(default=True, description="with answerability_shares, a ratio of two "
                                       "figures (「目前学校男女生比例约为1：7」, 3比2) states the share asked "
                                       "(比例是多少), a time of day (10:30) none; off: only a percentage, "
                                       "fraction, tenth or multiple does")
    answerability_size_areas: bool = Field(default=True, description="with answerability_sizes, a size stated "
                                           "in the units of land and distance (「面积约为0.304平方公里」, "
                                           "「占地约两平方公里」, 公顷, 亩, 公里, 英里) answers 多大 (「公园的面积有多"
                                           "大」); off: only bytes, lengths in 米/mm/cm/km and 平方米 do")
    answerability_statute_moments: bool = Field(default=True, description="with answerability_statute_times, "
                                                "a numbered provision states when at the moment of an event "
                                                "(「应在解除或终止劳动合同时一次付清」: 在…时), a weak mismatch "
                                                "answered at a lower confidence; off: not")
    answerability_event_spans: bool = Field(default=True, description="when asked (什么时候: 「从什么时候算到"
                                            "什么时候」), a span between two events states it (「按预约时间到达医院"
                                            "后至进入诊室前」, 「自进境起到办结海关手续止」); off: only a date, a "
                                            "period or a clause ending in 后 or 时 does")
    answerability_hours: bool = Field(default=True, description="几个小时/多少分钟 ask a figure in hours or "
                                      "minutes (「每天工作最多几个小时」: 八小时); off: any period, in days "
                                      "too")
    answerability_periods: bool = Field(default=True, description="a term of office counted (「一届任期多久」, "
                                        "每届, 连任两届) pins no edition, and 几个工作日/多少个工作日 asks a count "
                                        "of days, not any number; off: 「一届」 is pinned as an ordinal that the "
                                        "evidence must state, and 几个工作日 asks a number")
    answerability_months: bool = Field(default=True, description="a year with its month in the question "
                                       "(「2025年7月的安全漏洞公告」, 2025-07) pins that month: a cited block "
                                       "must state it (with its year, or as 7月 in a block naming the "
                                       "year); off: only the year is pinned")
    answerability_kind_compounds: bool = Field(default=True, description="a question word holding the "
                                               "asked kind's own word (结婚年龄, 退休年龄, 营业时间, 门票价格) keeps "
                                               "its other part (结婚, 退休, 营业, 门票) among the words the figure is "
                                               "asked of, one of which a quoted sentence must hold beside the figure, "
                                               "when the clause has other such words (alone, any figure of the kind "
                                               "counts, as before); off: the whole word is left out, so 「法定结婚年龄"
                                               "是多少岁」 was asked of 法定 alone and refused 「结婚年龄，男不得早于二十"
                                               "二周岁」")
    answerability_subject_heads: bool = Field(default=False, description="the words a figure is asked of "
                                              "leave out a name the question pins (a product, a Latin or "
                                              "quoted name; when others are left): 「RocketMQ 控制台的默认端口是"
                                              "多少」 needs a figure beside 控制台/默认/端口, not any figure in a "
                                              "sentence naming RocketMQ, which is checked on its own; off (the "
                                              "default: it refused nothing more on any set and moved one fresh "
                                              "answer off the figure asked): the name counts")
    answerability_untyped: bool = Field(default=False, description="a figure the question asks (多少钱, 多久, "
                                        "几天, 多少) that the answer states nowhere — no value of that kind "
                                        "at all, not only none beside the question's words — refuses, where "
                                        "a missing figure of a rule otherwise only lowers the confidence "
                                        "(「感冒了吃头孢之后多久才能喝酒？」 was answered with a list of "
                                        "infectious diseases); off (the default: on everyday3 it refused five "
                                        "answerable questions, all answered wrongly, for one out of scope): a "
                                        "weak mismatch, answered")
    answerability_fractions: bool = Field(default=True, description="a count or a head count asked (多少, 几名, "
                                          "多少人, 多少票) is also met by a share of a whole beside the "
                                          "question's words (「应当经全体委员的三分之二以上通过」, 「半数以上」, "
                                          "「过半数」): how a statute states how many a rule needs; off: only a "
                                          "figure with a count's unit answers")
    answerability_unit_forms: bool = Field(default=True, description="a unit asked in words (多少分贝, 多少摄氏度, "
                                           "千瓦, 平方米, 毫克每升) is also met by the symbol a document writes "
                                           "(dB(A), ℃, kW, m², mg/L), and the other way; off: the unit is met "
                                           "only as the question writes it")
    answerability_near_names: bool = Field(default=False, description="a name the tagger calls one (a "
                                           "chemical, a product: 二氧化碳) that a block does not hold whole is "
                                           "missed by a block naming a dictionary word a single character apart "
                                           "(二氧化硫) — a sibling thing, not the one asked; off (the default: a "
                                           "regional synonym is such a word too, 霜淇淋 for 冰淇淋, and CMRC lost "
                                           "a right answer): the name is met by most of its character pairs")
    answerability_measure_names: bool = Field(default=True, description="a word the tagger calls a person's "
                                              "name that opens with a measure word right after a "
                                              "demonstrative, 哪 or a numeral (「这张表的填表人」: 张表) pins "
                                              "nothing; off: it is pinned as a name the evidence must repeat")
    answerability_sibling_measures: bool = Field(default=True, description="a figure asked of one of "
                                                 "quantities measured side by side (噪声/振动, 温度/湿度, "
                                                 "电压/电流: 「厂界振动限值是多少」) is missed by a quote naming "
                                                 "only its sibling (the noise table's 「昼间 60 dB(A)」), "
                                                 "and that refuses; off: any figure beside the other words")
