"""Evaluation harness: golden sets, corpora, retrieval/answer/refusal metrics, reports."""
