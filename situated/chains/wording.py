"""What the app itself says to the asker, in the question's language (English or Russian):
clarifying questions, the slice an answer used, what was left out and why. Written by code,
never left to the model, so it is the same whatever model answers."""

from __future__ import annotations

import datetime as dt

from situated.chains.catalogue import TEXTS
from situated.chains.lang import (  # noqa: F401 - said through `wording` everywhere
    Lang,
    bound_text,
    day_text,
    language_of,
    listing,
)
from situated.documents import PRODUCT, ValidFor
from situated.situation import Situation

# the names of missing facts in the `missing` list are part of the answer contract
FACT_NAMES = {ValidFor.PURCHASE_DATE: "purchase date", ValidFor.REQUEST_DATE: "request date",
              ValidFor.AS_OF: "date"}
_ASK_DATE = {
    (ValidFor.PURCHASE_DATE, Lang.EN): "When was it bought (day, month and year)?",
    (ValidFor.REQUEST_DATE, Lang.EN): "When was the request made, or when will it be (day, "
                                      "month and year)?",
    (ValidFor.AS_OF, Lang.EN): "For which date (day, month and year)?",
    (ValidFor.PURCHASE_DATE, Lang.RU): "Когда была покупка (число, месяц и год)?",
    (ValidFor.REQUEST_DATE, Lang.RU): "Когда подана или будет подана заявка (число, месяц и "
                                      "год)?",
    (ValidFor.AS_OF, Lang.RU): "На какую дату (число, месяц и год)?",
}
_BEFORE_OR_FROM = {
    (ValidFor.PURCHASE_DATE, Lang.EN): "Was it bought before or from {b}?",
    (ValidFor.REQUEST_DATE, Lang.EN): "Was the request made before or from {b}?",
    (ValidFor.AS_OF, Lang.EN): "Is it about a date before or from {b}?",
    (ValidFor.PURCHASE_DATE, Lang.RU): "Покупка была до {b} или начиная с этой даты?",
    (ValidFor.REQUEST_DATE, Lang.RU): "Заявка подана до {b} или начиная с этой даты?",
    (ValidFor.AS_OF, Lang.RU): "Речь о дате до {b} или начиная с этой даты?",
}


_FACET_WORDS = {PRODUCT: "продукт"}  # a declared facet is named by its key in both languages


def ask_facet(name: str, candidates: list[str], lang: Lang) -> str:
    """"Which product: C-3 or S-2?", "Which region: EU or US?" — a facet (the product, or one
    the index declares), its candidates named so that a one-word reply completes the
    situation."""
    if lang is Lang.RU:
        word = _FACET_WORDS.get(name, name)
        return f"Какой {word}: {listing(candidates, lang)}?" if candidates else \
            f"Какой {word} имеется в виду?"
    return f"Which {name}: {listing(candidates, lang)}?" if candidates else \
        f"Which {name} is it?"


def ask_date(vf: ValidFor, boundaries: list[str], lang: Lang, partial: str | None) -> str:
    """Name what separates the versions: one boundary → "before or from B?"."""
    parts = []
    if partial:
        parts.append(f"«{partial}» — без года." if lang is Lang.RU else f"“{partial}” has no year.")
    if len(boundaries) == 1:
        parts.append(_BEFORE_OR_FROM[(vf, lang)].format(b=boundaries[0]) + " "
                     + _ASK_DATE[(vf, lang)])
    else:
        parts.append(_ASK_DATE[(vf, lang)])
        if boundaries:
            shown = boundaries if len(boundaries) <= 6 else [*boundaries[:3], "…",
                                                             *boundaries[-2:]]
            and_ = "и" if lang is Lang.RU else "and"
            parts.append(("Версии сменялись: " if lang is Lang.RU else "The versions change on ")
                         + listing(shown, lang, and_) + ".")
    return " ".join(parts)


def period_text(period: tuple[dt.date, dt.date], lang: Lang) -> str:
    first, last = period
    if first == last:
        return day_text(first, lang)
    return (f"с {day_text(first, lang)} по {day_text(last, lang)}" if lang is Lang.RU
            else f"{day_text(first, lang)} to {day_text(last, lang)}")


def ask_within(vf: ValidFor, boundaries: list[str], period: tuple[dt.date, dt.date],
               lang: Lang) -> str:
    """The rule changed inside the period the asker gave: name the change(s), ask which side."""
    if len(boundaries) == 1:
        return _BEFORE_OR_FROM[(vf, lang)].format(b=boundaries[0])
    return fixed("ask_within", lang, period=period_text(period, lang),
                 changes=listing(boundaries, lang, fixed("and", lang)))


def clarify_lead(missing: list[str], lang: Lang) -> str:
    if lang is Lang.RU:
        names = {**_FACET_WORDS, "purchase date": "дату покупки",
                 "request date": "дату заявки", "date": "дату", "version": "версию"}
        return "Чтобы выбрать правило, которое применяется, нужно знать " + " и ".join(
            names.get(m, m) for m in missing) + "."
    return f"To find the rule that applies I need the {' and the '.join(missing)}."


_SLICE = {
    Lang.EN: {ValidFor.AS_OF: "as of {d}", ValidFor.PURCHASE_DATE: "for a purchase on {d}",
              ValidFor.REQUEST_DATE: "for a request on {d}", "product": "for {p}",
              "known_on": "as known on {d}", "version": "for version {v}",
              "facet": "for {n} {v}"},
    Lang.RU: {ValidFor.AS_OF: "по состоянию на {d}", ValidFor.PURCHASE_DATE: "при покупке {d}",
              ValidFor.REQUEST_DATE: "для заявки от {d}", "product": "для {p}",
              "known_on": "по данным на {d}", "version": "для версии {v}",
              "facet": "для {n} {v}"},
}


_SLICE_PERIOD = {
    Lang.EN: {ValidFor.AS_OF: "from {a} to {b}", ValidFor.PURCHASE_DATE:
              "for a purchase from {a} to {b}", ValidFor.REQUEST_DATE:
              "for a request from {a} to {b}"},
    Lang.RU: {ValidFor.AS_OF: "с {a} по {b}", ValidFor.PURCHASE_DATE: "при покупке с {a} по {b}",
              ValidFor.REQUEST_DATE: "для заявки с {a} по {b}"},
}


def slice_text(situation: Situation, lang: Lang,
               periods: dict[str, tuple[dt.date, dt.date]] | None = None) -> str:
    """"As of 15 March 2026, for Старт: " — the situation the answer applied, or "" if none;
    a date that stands for a period the asker gave ("in March 2026") is said as that period."""
    words, periods = _SLICE[lang], periods or {}

    def said(vf: ValidFor, d: dt.date) -> str:
        if vf.value in periods:
            a, b = periods[vf.value]
            return _SLICE_PERIOD[lang][vf].format(a=day_text(a, lang), b=day_text(b, lang))
        return words[vf].format(d=day_text(d, lang))

    parts = [said(vf, d) for vf in (ValidFor.AS_OF, ValidFor.PURCHASE_DATE, ValidFor.REQUEST_DATE)
             if (d := situation.given(vf)) is not None]
    if situation.known_on:
        parts.insert(0, words["known_on"].format(d=day_text(situation.known_on, lang)))
    if situation.product:
        parts.append(words["product"].format(p=situation.product))
    if situation.version:
        parts.append(words["version"].format(v=situation.version))
    parts += [words["facet"].format(n=name, v=value) for name, value in situation.facets]
    if not parts:
        return ""
    text = ", ".join(parts)
    return text[:1].upper() + text[1:] + ": "


def left_out_text(sources: list[str], facts: list[str], lang: Lang) -> str:
    if lang is Lang.RU:
        names = {"product": "продукта", "purchase date": "даты покупки",
                 "request date": "даты заявки", "date": "даты"}
        return (f"Не учтены документы, зависящие от {' и '.join(names.get(f, f) for f in facts)}"
                f": {', '.join(sources)}; укажите это, чтобы их учесть.")
    it = "them" if len(facts) > 1 else "it"
    return (f"Left out: {', '.join(sources)}, which depend on the {' and the '.join(facts)}; "
            f"give {it} to bring them in.")


def same_day_text(day: dt.date, start: str, lang: Lang) -> str:
    if lang is Lang.RU:
        return (f"{day_text(day, lang)} действовало больше одной версии; использована "
                f"действовавшая в конце дня (с {start}).")
    return (f"More than one version was in force on {day_text(day, lang)}; this uses the one in "
            f"force at the end of that day (from {start}).")


def before_first_text(family: str, first: str, day: dt.date, lang: Lang) -> str:
    if lang is Lang.RU:
        return (f"На {day_text(day, lang)} ни одна версия «{family}» не действовала: первая "
                f"действует с {first}.")
    return (f"No version of {family} was in force on {day_text(day, lang)}: the first applies "
            f"from {first}.")


def same_in_versions_text(family: str, versions: int, lang: Lang) -> str:
    if lang is Lang.RU:
        return (f"Этот раздел одинаков по существу во всех доступных вам версиях «{family}» "
                f"({versions}), поэтому дата не меняет ответ.")
    return (f"This section says the same in every version of {family} you may read "
            f"({versions}), so the date does not change the answer.")


def not_recorded_text(title: str, source_id: str, recorded: dt.date, known: dt.date,
                      lang: Lang) -> str:
    if lang is Lang.RU:
        return (f"«{title}» ({source_id}) записан {day_text(recorded, lang)}, позже "
                f"{day_text(known, lang)}: по данным на {day_text(known, lang)} записи о нём нет.")
    return (f"{title} ({source_id}) was recorded on {day_text(recorded, lang)}, after "
            f"{day_text(known, lang)}: as known on {day_text(known, lang)} there is no record "
            "of it.")


def not_in_force_text(family: str, day: dt.date, lang: Lang) -> str:
    if lang is Lang.RU:
        return f"На {day_text(day, lang)} ни одна версия «{family}» не действовала."
    return f"No version of {family} was in force on {day_text(day, lang)}."


def facts_text(situation: Situation, lang: Lang) -> str:
    """The known facts of a situation as the asker reads them ("product C-3; purchase date
    20 December 2025")."""
    names = {Lang.EN: {"product": "product", ValidFor.PURCHASE_DATE: "purchase date",
                       ValidFor.REQUEST_DATE: "request date", ValidFor.AS_OF: "date",
                       "known_on": "as known on", "version": "version"},
             Lang.RU: {"product": "продукт", ValidFor.PURCHASE_DATE: "дата покупки",
                       ValidFor.REQUEST_DATE: "дата заявки", ValidFor.AS_OF: "дата",
                       "known_on": "по данным на", "version": "версия"}}[lang]
    parts = [f"{names['product']} {situation.product}"] if situation.product else []
    if situation.version:
        parts.append(f"{names['version']} {situation.version}")
    parts += [f"{names[vf]} {day_text(d, lang)}" for vf in ValidFor
              if (d := situation.given(vf)) is not None]
    if situation.known_on:
        parts.append(f"{names['known_on']} {day_text(situation.known_on, lang)}")
    return "; ".join(parts)


def _quoted(names: list[str], lang: Lang) -> str:
    return ", ".join(f"“{n}”" if lang is Lang.EN else f"«{n}»" for n in names)


def no_evidence_text(situation: Situation, lang: Lang, unheld: list[str] | None = None,
                     absent: list[str] | None = None) -> str:
    """Nothing the caller may read applies. `unheld`: names or codes the question gives that no
    document the caller may read holds (said the same whether or not another document does);
    `absent`: codes readable documents hold but none for the situation given."""
    facts = facts_text(situation, lang)
    if absent and facts and not unheld:
        if lang is Lang.RU:
            return (f"Ни один доступный вам документ при заданных условиях ({facts}) не "
                    f"упоминает {_quoted(absent, lang)}, поэтому ответа нет.")
        return (f"No document you may read for the situation given ({facts}) mentions "
                f"{_quoted(absent, lang)}, so there is no answer to give.")
    if unheld:
        names = _quoted(unheld, lang)
        if lang is Lang.RU:
            return (f"Ни один документ, доступный вам, не упоминает {names}, поэтому ответа "
                    "нет.")
        return f"No document you may read mentions {names}, so there is no answer to give."
    if lang is Lang.RU:
        why = f" при заданных условиях ({facts})" if facts else ""
        return f"Ни один документ, доступный вам, не относится к этому вопросу{why}, поэтому " \
               "ответа нет."
    why = f" for the situation given ({facts})" if facts else ""
    return f"No document you may read applies to this question{why}, so there is no answer " \
           "to give."




def fixed(name: str, lang: Lang, **values) -> str:
    """One of the fixed texts above, in `lang`, with its values filled in."""
    return TEXTS[(name, lang)].format(**values)


def span_text(start: str | None, end: str | None, lang: Lang) -> str:
    """A version's validity as read: "from A to B", "from A", "to B"."""
    if lang is Lang.RU:
        parts = [f"с {start}" if start else "", f"по {end}" if end else ""]
    else:
        parts = [f"from {start}" if start else "", f"to {end}" if end else ""]
    return " ".join(p for p in parts if p)
