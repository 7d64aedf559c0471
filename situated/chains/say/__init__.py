"""Saying the answer: the evidence packed, the offline and chat models, the citation check, and every text in each language."""
