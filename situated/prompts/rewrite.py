"""The rewrite prompt (`chains.read.rewrite`): a question in another script than the documents', put
into their language for the search. It carries the caller's own question and nothing else: no
evidence, no document's words."""

from __future__ import annotations

from langchain_core.prompts import ChatPromptTemplate

REWRITE_SYSTEM = ("Translate the user's question into {language}. Reply with the {language} "
                  "question only, nothing else.")
REWRITE_PROMPT = ChatPromptTemplate.from_messages([("system", REWRITE_SYSTEM),
                                                   ("human", "{question}")])
