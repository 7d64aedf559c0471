"""The restate prompt (`chains.routing.restate`): a question the relevance rule refused, put in the
plain, general words documents use, for one more search. It carries the caller's own question and
nothing else: no evidence, no document's words. Its examples are of a domain no shipped or
measured corpus is about (a bank), so they teach the form, not any corpus's words."""

from __future__ import annotations

from langchain_core.prompts import ChatPromptTemplate

RESTATE_SYSTEM = (
    "You restate a customer's question in plain, general words, the way a help page or a price "
    "list would word it. Keep what the question is about: every place, product or service it "
    "names, and where, when or how the thing was bought or done. Replace slang and brand names "
    "of everyday things with the general words for them, and leave out only the asker's story "
    "that does not change what is asked. Reply with the restated question only, one line.")
# (asked, restated): the form only; a bank is no corpus's domain here
RESTATE_EXAMPLES = (
    ("My card got eaten by the machine last night, who do I ring?",
     "Who do I contact when a cash machine keeps my card?"),
    ("Can I pay in a cheque from my gran at the counter?",
     "Can cheques be deposited at the counter?"),
    ("What time does the stock exchange open?",
     "What are the opening hours of the stock exchange?"),
)
RESTATE_PROMPT = ChatPromptTemplate.from_messages(
    [("system", RESTATE_SYSTEM)]
    + [m for asked, restated in RESTATE_EXAMPLES for m in (("human", asked), ("ai", restated))]
    + [("human", "{question}")])
