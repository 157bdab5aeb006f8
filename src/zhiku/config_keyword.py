"""The keyword-recall levers of the configuration: how a question becomes keyword terms and
how its keyword hits are ordered (each an ablation row in docs/eval.md)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class KeywordLevers(BaseModel):
    """Settings of the keyword search: question focus, term dictionary, expansion, field
    weights and the order of the candidates. :class:`zhiku.config.Config` inherits them, so
    each is read from the config file and ``ZHIKU_*`` variables like every other key."""

    query_focus: bool = Field(default=True, description="cut question phrases (多久, 是否, 可以…吗) "
                                                         "from keyword queries")
    char_backoff: bool = Field(default=False, description="search a question's single characters only "
                                                          "for its words no chunk holds")
    feedback_terms: int = Field(default=0, ge=0, description="pseudo-relevance feedback (RM3): words "
                                                               "added to a keyword query; 0 = off")
    feedback_docs: int = Field(default=10, ge=1, description="first-pass passages feedback reads")
    age_bounds: bool = Field(default=False, description="an age in digits (15岁) searches its Chinese "
                             "numerals and the nearest age bounds the index holds (十四周岁, 十六周岁)")
    version_forms: bool = Field(default=True, description="a release number in a question (4.8.9, "
                                "v4.8.9) searches its other spelling too (v4.8.9, 4.8.9) when the index "
                                "holds it")
    term_expansion: int = Field(default=0, ge=0, description="search each question word's nearest "
                                "words of the index vocabulary (bundled embedder, computed at ingest) "
                                "too: this many per word; 0 = off")
    question_expansion: int = Field(default=0, ge=0, description="search this many words of the index "
                                    "vocabulary nearest to the question's vector (bundled embedder) too; "
                                    "0 = off")
    thesaurus_expansion: int = Field(default=0, ge=0, description="search this many synonyms of each "
                                     "question word the index rarely holds from the bundled thesaurus "
                                     "(cnsyn's groups) too, of those the index holds more often than the "
                                     "word itself; 0 = off")
    rare_bridges: int = Field(default=0, ge=0, description="a question word of two or more characters "
                              "that the index holds in at most 20 chunks (房子, 别人, 家暴) searches this many of "
                              "the index's more frequent words standing in for it (房屋, 他人, 家庭暴力): bundled-"
                              "embedder neighbours that are also its thesaurus synonyms or share a character "
                              "with it; uses the table of term_expansion (built at ingest); 0 = off")
    bridge_z: float = Field(default=6.0, ge=0.0, description="least closeness of a rare-word bridge: its "
                            "cosine to the word in standard deviations above the word's mean cosine to the "
                            "index vocabulary")
    short_form_search: bool = Field(default=False, description="a question holding a short form a document "
                                    "defines for itself (「改了 ACL 权限配置…」 of 「权限控制（ACL）」) searches its long "
                                    "form's words too, and one holding the long form the short form, weighing "
                                    "expansion_weight of a question word (see short_forms); a form the documents "
                                    "define differently adds nothing; off: each form only itself")
    thesaurus_group: int = Field(default=10, ge=2, description="the most words a thesaurus group may "
                                 "have to be read (broad groups gather loosely related words)")
    expansion_floor: float = Field(default=0.9, ge=0.0, le=1.0, description="least cosine of an "
                                   "added neighbour word")
    expansion_weight: float = Field(default=0.5, gt=0.0, le=1.0, description="weight of an added word "
                                    "against a question word (the question's words count "
                                    "round(1 / weight) times)")
    unnumbered_weight: float = Field(default=0.7, gt=0.0, le=1.0, description="factor of a keyword hit's "
                                     "score when it is no numbered provision (第X条: a case report, a guide) "
                                     "and other candidates are; 1 = off")
    interpretation_weight: float = Field(default=1.0, gt=0.0, le=1.0, description="factor of a keyword "
                                         "hit's score when it is a judicial interpretation's (最高人民法院关于"
                                         "适用《…》的解释) and the provisions of laws are among the candidates; 1 = off")
    restated_weight: float = Field(default=1.0, gt=0.0, le=1.0, description="factor of a keyword hit's "
                                   "score when it is a judicial interpretation of a law (named in its title) "
                                   "whose own provisions are among the candidates; 1 = off")
    heading_weight: float = Field(default=0.0, ge=0.0, description="weight of the question's words found "
                                  "in a keyword hit's chapter headings (share of their IDF, times the "
                                  "best hit's score); 0 = off")
    heading_similarity: float = Field(default=0.1, ge=0.0, lt=1.0, description="share of the "
                                      "question↔chapter-heading cosine (bundled embedder) in the order of "
                                      "the candidates, blended with their retrieval scores, when none came from dense search; 0 = off")
    chapter_search: int = Field(default=0, ge=0, description="new candidates by meaning for a keyword-only "
                                "ranking: the N chapters (document title and chapter headings, bundled "
                                "embedder) nearest the question's vector are searched inside by keyword and "
                                "their best articles fused with the keyword list; 0 = off")
    chapter_search_every: int = Field(default=4, ge=1, description="the chapter_search hits the keyword "
                                      "list lacks take every this many places of it, from that place on")
    chapter_search_per: int = Field(default=1, ge=1, description="hits each chapter of chapter_search "
                                    "adds to its list")
    heading_max_words: int = Field(default=30, ge=0, description="a question of more words than this "
                                   "(a case narrative) skips the heading cosine: encoding it takes the "
                                   "bundled embedder ~400 ms; 0 = no limit")
    passage_similarity: float = Field(default=0.0, ge=0.0, lt=1.0, description="share of the "
                                      "question↔candidate cosine (bundled embedder, each candidate's title, "
                                      "chapter and opening words) in the order of the best passage_candidates "
                                      "candidates, when none came from dense search; 0 = off")
    narrative_meaning: float = Field(default=0.4, ge=0.0, lt=1.0, description="share of the "
                                     "narrative↔candidate cosine (bundled embedder, each candidate's text as "
                                     "an ingest embeds it) in the order of a narrative's candidates of the "
                                     "documents it names (a question of more than heading_max_words words, "
                                     "no candidate from dense search); 0 = off")
    passage_candidates: int = Field(default=20, ge=2, description="how many of the best candidates "
                                    "passage_similarity embeds (each short form once, kept in the vector cache)")
    passage_chars: int = Field(default=64, ge=8, description="characters of a candidate's text (its "
                               "article number cut) that passage_similarity embeds after its title and chapter")
    passage_encode: bool = Field(default=False, description="passage_similarity encodes a candidate's "
                                 "short form missing from the vector cache at ask time (an encoder call "
                                 "each); false = it reads only the forms `zhiku embed --short-forms` stored "
                                 "and leaves the order unchanged when any candidate's is missing")
    bigram_weight: float = Field(default=0.0, ge=0.0, lt=1.0, description="share of the character-bigram "
                                 "BM25 of the question's content part (question words cut) blended with the word "
                                 "score in the order of the keyword candidates, against the corpus's bigram "
                                 "statistics (counted once per index generation); 0 = off")
    proximity_weight: float = Field(default=0.0, ge=0.0, description="gain of a keyword candidate whose one "
                                    "sentence holds the question's words together: the IDF share of its best "
                                    "sentence, times the best hit's score; 0 = off")
    doc_weight: float = Field(default=0.0, ge=0.0, description="weight of a keyword hit's document "
                              "evidence (its document's best three hit scores, as a share of the best "
                              "document's, times the best hit's score); 0 = off")
    citation_prior: float = Field(default=0.0, ge=0.0, description="gain of a keyword hit's "
                                  "score from its document's citation in-degree (how many other laws "
                                  "cite it by 《title》: ln(1 + c) / ln(1 + the number of laws)); 0 = off")
    doc_coherence: float = Field(default=0.0, ge=0.0, description="gain of a keyword hit from the "
                                 "question's words (IDF share) its document's best three hits hold "
                                 "together beyond the most any one of them holds alone, times the best "
                                 "hit's score; 0 = off")
    doc_keyword: float = Field(default=0.0, ge=0.0, description="gain of a keyword hit from its whole "
                               "document's keyword evidence: each document scored as one bag of its words "
                               "(BM25 over the documents), a hit's score times 1 + this × its document's share "
                               "of the best document's score; 0 = off")
    doc_keyword_top: int = Field(default=0, ge=0, description="with doc_keyword on, the keyword search runs "
                                 "inside this many best documents too, so their passages the whole-index list "
                                 "missed can be weighed in; 0 = only weigh the list")
    doc_keyword_b: float = Field(default=0.75, ge=0.0, le=1.0, description="length normalisation of "
                                 "doc_keyword's document BM25 (1: a long code's word counts divided by its "
                                 "length in full, 0: not at all)")
    answer_type_weight: float = Field(default=0.2, ge=0.0, description="gain of a keyword hit stating "
                                      "the kind of answer the question asks for (多久 → a period, 罚多少钱 → "
                                      "a sum), times the best hit's score; 0 = off")
    offence_type: bool = Field(default=True, description="a question asking which provision applies to "
                               "an act (适用刑法哪一条, 构成什么罪, 会判刑吗) is one more answer type: "
                               "the provisions defining an offence and its penalty (…的，处…有期徒刑) "
                               "gain answer_type_weight over general rules")
    offence_window: int = Field(default=10, ge=0, description="for such a question, the hits defining an "
                                "offence come first among this many best fused candidates; 0 = off")
    learned_rank: bool = Field(default=True, description="order the first learned_rank_depth candidates "
                               "of a search by a learned model over what the search knows of each (its place, "
                               "score and keyword rank, its cosine to the question, answer type, length, "
                               "interpretation, citation in-degree, numbered provision, statute, opening "
                               "article), fitted by benchmarks/fit_rank.py; not for a question naming an "
                               "article nor a narrative (more than heading_max_words words)")
    learned_rank_keyword: bool = Field(default=True, description="learned_rank also reorders a keyword-only "
                                       "ranking (no dense list among the fused lists); what judges its evidence "
                                       "reads it in the search's own order (learned_rank_searched)")
    learned_rank_searched: bool = Field(default=True, description="the confidence model, the keyword veto and "
                                        "what the answer shows read a keyword-only ranking the learned order "
                                        "reordered in the search's own order, the one they were fitted on; the "
                                        "answer, its citations and the ranking shown keep the learned order")
    learned_rank_depth: int = Field(default=5, ge=2, description="how many of the first candidates "
                                    "learned_rank reorders")
    builtin_synonyms: bool = Field(default=True, description="use the built-in term dictionary "
                                                              "(报账 → 报销) besides the user's file")
    name_free_inside: bool = Field(default=True, description="the search inside the documents a "
                                   "question names leaves their names' words out of its keyword terms")
    short_names: bool = Field(default=True, description="a statute cited by the tail of its name "
                              "(按年休假条例 for 职工带薪年休假条例) counts as named: a tail from a word "
                              "boundary, ending in 法 or 条例, held by one law's names only, read after "
                              "按/根据/依照/违反, 《 or a punctuation mark")
    cited_articles: int = Field(default=5, ge=0, description="a question naming a law (no article) also "
                                "ranks the articles of that law its other candidates cite (an "
                                "interpretation's 依照刑法第二百六十四条的规定): this many, as one more "
                                "list in the fusion; 0 = off")
    cited_min_words: int = Field(default=30, ge=0, description="cited_articles ranks cited articles only "
                                 "for a question of more words than this (a case narrative)")
    cited_per_list: bool = Field(default=True, description="the list of cited articles counts in the fusion "
                                 "once for each whole-index list whose candidates voted in it (keyword: "
                                 "once; keyword and dense: twice), as those lists would; false = once")
    offence_names: int = Field(default=1, ge=0, description="a question asking which provision of a "
                               "law it names applies to an act (适用刑法哪一条) moves the articles the corpus's "
                               "罪名 regulations assign to the offence it charges (构成…罪) and to this many "
                               "offence names its words match best up to the last passage an answer reads "
                               "(answer_chunks); 0 = off")
    named_first: bool = Field(default=True, description="a question naming a law (no article) ranks "
                              "that law's hits before the others")
    release_first: bool = Field(default=True, description="a question naming a release number (v1.44.0, "
                                "4.8.9) ranks the hits under that release's heading before the others")
    drop_twins: bool = Field(default=True, description="cite one law version kept in two folders once")
    repealed_by_name: bool = Field(default=True, description="at ingest, a document stating that it "
                                   "repeals others by name (「《X》同时废止」) ends them: X expires when "
                                   "it takes effect and ranks like a superseded version")
    repealed_dependents: bool = Field(default=True, description="at ingest, a judicial interpretation "
                                      "or implementing rule whose title applies one law (适用《X》…的解释, "
                                      "X实施细则) is recorded as applying it: when X is repealed by name "
                                      "and no document titled X is in force, it expires with X")
    in_force_first: bool = Field(default=True, description="searching every version, a question naming "
                                 "no version ranks a superseded law's hits behind those of its "
                                 "version in force")
