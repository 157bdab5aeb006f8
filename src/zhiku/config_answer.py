"""The offline composer's levers of the configuration: how the extractive answer chooses the
sentence and the block it quotes among the evidence (each an ablation row in docs/eval.md)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AnswerLevers(BaseModel):
    """Settings of the offline answer's choice of source. :class:`zhiku.config.Config` inherits
    them, so each is read from the config file and ``ZHIKU_*`` variables like every other key."""

    provision_share: float = Field(default=0.6, ge=0.0, le=1.0,
                                   description="the offline answer quotes a numbered provision (第X条) "
                                   "over unnumbered text among its evidence (a case report, a post) "
                                   "when it scores at least this share of it; 0 = off")
    list_answers: bool = Field(default=False, description="the offline answer to a question asking which "
                               "ones (哪些, 几种, 什么条件) quotes a list's lead-in and its items over a "
                               "better-scoring single sentence")
    answer_doc_name: bool = Field(default=True, description="the offline answer reads each sentence "
                                  "under its document's name (title, file name, its version): words "
                                  "naming the document choose none of its passages over another")
    answer_name_weight: float = Field(default=0.0, ge=0.0, le=1.0, description="choosing between "
                                      "documents, the offline answer counts a question's word that only "
                                      "a block's document name holds (责任 of 「…侵权责任编」) at this share "
                                      "of its weight, unless the question spells out that part of the "
                                      "name; inside a document the name counts in full; 1 = off")
