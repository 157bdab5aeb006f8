"""Agents: the roles of an ask (router, searcher, reranker, answerer, verifier, web
searcher) and the orchestrator that runs them with timeouts and fallbacks; conversation
sessions and follow-up rewriting; the semantic answer cache; the tool-calling agent."""
