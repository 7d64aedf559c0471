"""What the app itself says to the asker, in the question's language (English or Russian):
clarifying questions, the slice an answer used, what was left out and why. Written by code,
never left to the model, so it is the same whatever model answers."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from situated.chains.read.lang import (  # noqa: F401 - said through `wording` everywhere
    Lang,
    bound_text,
    day_text,
    language_of,
)
from situated.chains.say.catalogue import TEXTS, names
from situated.documents import ValidFor
from situated.situation import Situation

# the names of missing facts in the `missing` list are part of the answer contract
FACT_NAMES = {ValidFor.PURCHASE_DATE: "purchase date", ValidFor.REQUEST_DATE: "request date",
              ValidFor.AS_OF: "date"}


def fixed(name: str, lang: Lang, **values: object) -> str:
    """One of the catalogue's fixed texts, in `lang`, with its values filled in."""
    return TEXTS[(name, lang)].format(**values)


def listing(items: list[str], lang: Lang, conj: str | None = None) -> str:
    """"A, B or C" (`conj`: another joining word, e.g. `fixed("and", lang)`)."""
    word = conj or fixed("or", lang)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def quoted(text: str, lang: Lang) -> str:
    return fixed("quoted", lang, text=text)


def _named(kind: str, facts: list[str], lang: Lang) -> str:
    """Facts as a text says them, joined ("the purchase date and the request date")."""
    words = names(kind, lang)
    return fixed("facts_joiner", lang).join(words.get(f, f) for f in facts)


def ask_facet(name: str, candidates: list[str], lang: Lang) -> str:
    """"Which product: C-3 or S-2?", "Which region: EU or US?" — a facet (the product, or one
    the index declares), its candidates named so that a one-word reply completes the
    situation."""
    word = names("facet", lang).get(name, name)
    if candidates:
        return fixed("ask_facet", lang, facet=word, candidates=listing(candidates, lang))
    return fixed("ask_facet_open", lang, facet=word)


def ask_date(vf: ValidFor, boundaries: list[str], lang: Lang, partial: str | None) -> str:
    """Name what separates the versions: one boundary → "before or from B?"."""
    parts = [fixed("no_year", lang, partial=partial)] if partial else []
    if len(boundaries) == 1:
        parts.append(fixed(f"before_or_from_{vf.value}", lang, b=boundaries[0]) + " "
                     + fixed(f"ask_date_{vf.value}", lang))
    else:
        parts.append(fixed(f"ask_date_{vf.value}", lang))
        if boundaries:
            shown = boundaries if len(boundaries) <= 6 else [*boundaries[:3], "…",
                                                             *boundaries[-2:]]
            parts.append(fixed("versions_changed", lang,
                               changes=listing(shown, lang, fixed("and", lang))))
    return " ".join(parts)


def period_text(period: tuple[dt.date, dt.date], lang: Lang) -> str:
    first, last = period
    if first == last:
        return day_text(first, lang)
    return fixed("period_span", lang, a=day_text(first, lang), b=day_text(last, lang))


def ask_within(vf: ValidFor, boundaries: list[str], period: tuple[dt.date, dt.date],
               lang: Lang) -> str:
    """The rule changed inside the period the asker gave: name the change(s), ask which side."""
    if len(boundaries) == 1:
        return fixed(f"before_or_from_{vf.value}", lang, b=boundaries[0])
    return fixed("ask_within", lang, period=period_text(period, lang),
                 changes=listing(boundaries, lang, fixed("and", lang)))


def clarify_lead(missing: list[str], lang: Lang) -> str:
    return fixed("clarify_lead", lang, facts=_named("fact_asked", missing, lang))


def slice_text(situation: Situation, lang: Lang,
               periods: Mapping[str, tuple[dt.date, dt.date]] | None = None) -> str:
    """"As of 15 March 2026, for Старт: " — the situation the answer applied, or "" if none;
    a date that stands for a period the asker gave ("in March 2026") is said as that period."""
    periods = periods or {}

    def said(vf: ValidFor, d: dt.date) -> str:
        if vf.value in periods:
            a, b = periods[vf.value]
            return fixed(f"slice_period_{vf.value}", lang, a=day_text(a, lang),
                         b=day_text(b, lang))
        return fixed(f"slice_{vf.value}", lang, d=day_text(d, lang))

    parts = [said(vf, d) for vf in (ValidFor.AS_OF, ValidFor.PURCHASE_DATE, ValidFor.REQUEST_DATE)
             if (d := situation.given(vf)) is not None]
    if situation.known_on:
        parts.insert(0, fixed("slice_known_on", lang, d=day_text(situation.known_on, lang)))
    if situation.product:
        parts.append(fixed("slice_product", lang, p=situation.product))
    if situation.version:
        parts.append(fixed("slice_version", lang, v=situation.version))
    parts += [fixed("slice_facet", lang, n=name, v=value) for name, value in situation.facets]
    if not parts:
        return ""
    text = ", ".join(parts)
    return text[:1].upper() + text[1:] + ": "


def left_out_text(sources: list[str], facts: list[str], lang: Lang) -> str:
    return fixed("left_out_many" if len(facts) > 1 else "left_out_one", lang,
                 sources=", ".join(sources), facts=_named("fact_left_out", facts, lang))


def same_day_text(day: dt.date, start: str, lang: Lang) -> str:
    return fixed("same_day", lang, day=day_text(day, lang), start=start)


def before_first_text(family: str, first: str, day: dt.date, lang: Lang) -> str:
    return fixed("before_first", lang, family=family, day=day_text(day, lang), first=first)


def same_in_versions_text(family: str, versions: int, lang: Lang) -> str:
    return fixed("same_in_versions", lang, family=family, n=versions)


def not_recorded_text(title: str, source_id: str, recorded: dt.date, known: dt.date,
                      lang: Lang) -> str:
    return fixed("not_recorded", lang, title=title, source_id=source_id,
                 recorded=day_text(recorded, lang), known=day_text(known, lang))


def not_in_force_text(family: str, day: dt.date, lang: Lang) -> str:
    return fixed("not_in_force", lang, family=family, day=day_text(day, lang))


def facts_text(situation: Situation, lang: Lang) -> str:
    """The known facts of a situation as the asker reads them ("product C-3; purchase date
    20 December 2025")."""
    known = names("fact_known", lang)
    parts = [f"{known['product']} {situation.product}"] if situation.product else []
    if situation.version:
        parts.append(f"{known['version']} {situation.version}")
    parts += [f"{known[vf.value]} {day_text(d, lang)}" for vf in ValidFor
              if (d := situation.given(vf)) is not None]
    if situation.known_on:
        parts.append(f"{known['known_on']} {day_text(situation.known_on, lang)}")
    return "; ".join(parts)


def _quoted(items: list[str], lang: Lang) -> str:
    return ", ".join(quoted(n, lang) for n in items)


def no_evidence_text(situation: Situation, lang: Lang, unheld: list[str] | None = None,
                     absent: list[str] | None = None) -> str:
    """Nothing the caller may read applies. `unheld`: names or codes the question gives that no
    document the caller may read holds (said the same whether or not another document does);
    `absent`: codes readable documents hold but none for the situation given."""
    facts = facts_text(situation, lang)
    if absent and facts and not unheld:
        return fixed("no_evidence_absent", lang, facts=facts, names=_quoted(absent, lang))
    if unheld:
        return fixed("no_evidence_unheld", lang, names=_quoted(unheld, lang))
    why = fixed("no_evidence_why", lang, facts=facts) if facts else ""
    return fixed("no_evidence", lang, why=why)


def span_text(start: str | None, end: str | None, lang: Lang) -> str:
    """A version's validity as read: "from A to B", "from A", "to B"."""
    parts = [fixed("span_from", lang, d=start) if start else "",
             fixed("span_to", lang, d=end) if end else ""]
    return " ".join(p for p in parts if p)
