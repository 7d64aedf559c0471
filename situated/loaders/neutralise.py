"""Evidence is data (DESIGN "Citations"): what a document may not do to an answer.

Before block text reaches a prompt it is neutralised, so that a document can neither forge a
citation label the parser would read (`[S9]`, `(S2)`, `S3`, a line starting "[S2] "), nor put a
link the reader would follow (`[text](url)` becomes `text` and the address in a code span, which
no Markdown renderer links), nor HTML (`<` and `>` become entities). Sentences that read as
instructions to the assistant ("ignore previous instructions", «игнорируй предыдущие
инструкции», "note to the assistant", "system prompt") are found here too: the offline model
never quotes them and the answer lists the blocks that hold them.
"""

from __future__ import annotations

import re
from functools import lru_cache

from linkify_it import LinkifyIt

from situated.loaders.sentences import split_sentences
from situated.modes import Mode

# the parser's grammar for a label (`citations`): the letter and its number. In document text
# every place the parser could start reading one (an S or s not inside a word, then a digit) is
# broken, whatever follows: `S2-4`, `[S1-S9]`, `(S1–S3)`, `S2` alike
LABEL_LETTER = "[Ss]"
_LABEL_LIKE = re.compile(rf"(?<!\w)({LABEL_LETTER})(\d)")
# a link's text holds no bracket, its address and title are bounded, and every part is
# taken whole (possessive): 20,000 `[` on a line, or 30,000 `[a](` never closed, are read in
# linear time, not once per position (5 s and 21 s before). A longer "link" is not rewritten
# here; `_LINK_JOINS` still breaks it
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*+)\]\(\s{0,64}+([^)\s]{0,2048}+)[^)\n]{0,512}+\)")
# what GFM's own autolink extension links, beyond linkify's list of domains: `www.` hosts of
# any name, addresses with a scheme, e-mail addresses. An e-mail's local part starts where a
# run of its characters starts and is taken whole (possessive): a 150,000-character word with
# no `@` is read once, not once per position (that was 110 s of backtracking per answer)
_GFM_ADDRESS = re.compile(
    r"(?:(?:https?|ftp)://|www\.)[^\s<>()\[\]]+(?<![.,;:!?'\"])|"
    r"(?<![\w.+-])[\w.+-]++@[\w-]++(?:\.[\w-]++)+", re.IGNORECASE)
_INSTRUCTION = re.compile(
    r"ignor\w*\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding)\s+"
    r"(?:instructions?|prompts?|rules?|messages?)|disregard\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:previous|prior|above)\s+\w+|note\s+to\s+(?:the\s+)?(?:assistant|ai|model|llm|chatbot)|"
    r"system\s+prompt|you\s+are\s+now\s+(?:a|an|the)\b|act\s+as\s+(?:a|an|the)\s+\w+\s+and\b|"
    r"(?:print|reveal|output|show)\s+(?:the\s+)?(?:full\s+)?(?:system\s+prompt|hidden|secret)|"
    r"игнорир\w*\s+(?:все\s+)?(?:предыдущ|прежн)\w*\s+(?:инструкц|указани|правил)\w*|"
    r"забудь\w*\s+(?:все\s+)?(?:предыдущ|прежн)\w*|системн\w+\s+промпт\w*|"
    r"(?:заметка|примечание|указание)\s+для\s+(?:ассистента|модели|ии|бота)",
    re.IGNORECASE)


def escape_html(text: str) -> str:
    """`<` and `>` as entities: no tag survives (an `&` is left alone, so text stays readable)."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


_LINKIFY = LinkifyIt()  # the link finder GFM-like renderers use (markdown-it's linkify)
_LINK_JOINS = re.compile(r"\](?=[(\[:])|!(?=\[)")  # ]( ][ ]: and ![ — what makes a link or image


def defang_links(text: str) -> str:
    """Text no Markdown renderer makes a link or an image of (CommonMark, GFM, linkify):

    * `[text](url)` → text and the address in a code span;
    * every `](`, `][`, `]:` and `![` gets a word joiner, so no link, reference link,
      reference definition or image can form — nested brackets, escaped brackets and link
      text across lines included;
    * backslashes and backticks are escaped, so no code span is the document's (a stray
      backtick cannot pair with one made here);
    * every address a linkifier would link (`http://…`, `www.…`, `evil.com/x`, e-mails) goes
      into a code span of its own.
    `<` and `>` are entities already (`escape_html`): no autolink or HTML. Defanged text
    defangs to itself (an answer quotes evidence defanged at ingest): an escaped backslash or
    backtick stays as it is, and an address's span is made again, not wrapped in another."""
    text = _MD_LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})" if m.group(2)
                        else m.group(1), text)
    text = _ADDRESS_SPAN.sub(lambda m: m.group(1) if _is_address(m.group(1)) else m.group(0),
                             text)
    text = _ESCAPE.sub(lambda m: m.group(0) if len(m.group(0)) == 2 else "\\" + m.group(0), text)
    text = _LINK_JOINS.sub(lambda m: m.group(0) + "\u2060", text)
    return _code_addresses(text)


# an escaped backslash or backtick (kept), else a lone one (escaped): every backtick ends a run
# of backslashes of odd length, so none opens a code span
_ESCAPE = re.compile(r"\\[\\`]|[\\`]")
_ADDRESS_SPAN = re.compile(r"`([^`\\\s]{1,2048})`")  # a span `_code_addresses` made


def _is_address(text: str) -> bool:
    found = _LINKIFY.match(text) or []
    return (any(m.index == 0 and m.last_index == len(text) for m in found)
            or bool(_GFM_ADDRESS.fullmatch(text)))


_ESCAPES = str.maketrans({"\\": " ", "`": " "})


def _code_addresses(text: str) -> str:
    """Each address a linkifier could find, put in a code span. Found on a copy in which the
    escapes are separators (a renderer reads "\\`http://…" as "`http://…", where a link
    starts), so no span ever holds a backslash or a backtick."""
    seen = text.translate(_ESCAPES)
    spans = [(m.index, m.last_index) for m in (_LINKIFY.match(seen) or [])]
    spans += [m.span() for m in _GFM_ADDRESS.finditer(seen)]
    merged: list[list[int]] = []
    for start, end in sorted(spans):  # overlapping finds become one span
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out, last = [], 0
    for start, end in merged:
        out += [text[last:start], f"`{text[start:end]}`"]
        last = end
    return "".join([*out, text[last:]])


# bidirectional embeddings, overrides and isolates: they reorder what a reader sees (U+202E
# shows "txt.exe" as "exe.txt"); removed from any text that may reach an answer
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"  # a character-class range, for every check
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


@lru_cache(maxsize=8192)
def neutralise(text: str) -> str:
    """Block text as it may enter a prompt: no label-like tokens, links, HTML or bidi controls.
    (Kept for the most recent texts: the same blocks are packed for many questions.)"""
    text = defang_links(escape_html(_BIDI.sub("", text)))
    # "S9" stays readable but is no label: a word joiner between the letter and the number
    return _LABEL_LIKE.sub("\\1\u2060\\2", text)


def inline(text: str) -> str:
    """Document text for one line of an answer written by code (a heading, a name):
    neutralised, every run of whitespace — line breaks included — one space, so it can start
    no Markdown line (a reference definition, an image, a list)."""
    return neutralise(re.sub(r"\s+", " ", text).strip())


_TAG = re.compile(r"<\s*/?\s*[A-Za-z!][^>]*>")


class Finding(Mode):
    """What neutralisation found (and made inert) in a block's text."""

    LABEL = "label-like text"
    LINK = "link"
    HTML = "html"
    INSTRUCTION = "instruction-like text"


def findings(text: str) -> list[Finding]:
    """What in the original block text a document could have used against an answer."""
    out = []
    if _LABEL_LIKE.search(text):
        out.append(Finding.LABEL)
    if _MD_LINK.search(text) or _LINK_JOINS.search(text) or _LINKIFY.test(text):
        out.append(Finding.LINK)
    if _TAG.search(text):
        out.append(Finding.HTML)
    if instruction_sentences(text):
        out.append(Finding.INSTRUCTION)
    return out


def is_instruction(sentence: str) -> bool:
    return bool(_INSTRUCTION.search(sentence))


def instruction_sentences(text: str) -> list[str]:
    """Sentences of `text` that read as instructions to an assistant."""
    found = []
    for line in text.splitlines():
        found += [s for s in split_sentences(line) if is_instruction(s)]
    return found
