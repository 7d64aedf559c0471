"""Chains: the ask chain and its steps — extraction, routing, the token budget, the answer
prompt, the chat models and the citation parser — and the answer contract."""
