"""What the app itself says to the asker, in the question's language (English or Russian):
clarifying questions, the slice an answer used, what was left out and why. Written by code,
never left to the model, so it is the same whatever model answers."""

from __future__ import annotations

import datetime as dt

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


# fixed texts of the answer with no structure of their own: (name, language) -> template
_TEXTS = {
    ("and", Lang.EN): "and",
    ("and", Lang.RU): "и",
    ("ask_within", Lang.EN): "From {period}, the versions change on {changes}. Which day is "
                             "it about?",
    ("ask_within", Lang.RU): "В период {period} версии сменялись: {changes}. Какой день вас "
                             "интересует?",
    ("ask_unplaced", Lang.EN): "Which of the dates decides: {dates}?",
    ("ask_unplaced", Lang.RU): "Какая из дат решает: {dates}?",
    ("over_allowance", Lang.EN): "The best evidence is larger than the evidence allowance "
                                 "({allowance} tokens); raise the window or use the "
                                 "skip_oversized budget policy.",
    ("over_allowance", Lang.RU): "Лучший фрагмент больше допустимого объёма evidence "
                                 "({allowance} токенов); увеличьте окно или используйте "
                                 "политику бюджета skip_oversized.",
    ("withheld_unknown", Lang.EN): "The answer was withheld: it cites sources that were not "
                                   "given to the model ({labels}).",
    ("withheld_unknown", Lang.RU): "Ответ не показан: он ссылается на источники, которых "
                                   "модель не получала ({labels}).",
    ("withheld_uncited", Lang.EN): "The answer was withheld: it cites no source, so it cannot "
                                   "be checked.",
    ("withheld_uncited", Lang.RU): "Ответ не показан: в нём нет ссылок на источники, его "
                                   "нельзя проверить.",
    ("ask_year", Lang.EN): "To compare I need the year: “{period}” of which year? Ask again "
                           "with the year.",
    ("ask_year", Lang.RU): "Чтобы сравнить, нужен год: «{period}» — какого года? Спросите ещё "
                           "раз, указав год.",
    # questions about change (`chains.history`)
    ("changes_lead", Lang.EN): "Changes of {line}{window}:",
    ("changes_lead", Lang.RU): "Изменения «{line}»{window}:",
    ("pair", Lang.EN): "From {date} ({old} → {new}):",
    ("pair", Lang.RU): "С {date} ({old} → {new}):",
    ("pair_release", Lang.EN): "Version {v} against {prev} ({old} → {new}):",
    ("pair_release", Lang.RU): "Версия {v} по сравнению с {prev} ({old} → {new}):",
    ("first_release", Lang.EN): "Version {v}: the first version you may read ({new}).",
    ("first_release", Lang.RU): "Версия {v}: первая доступная вам версия ({new}).",
    ("notes_lead", Lang.EN): "The release notes of {line} {v} say:",
    ("notes_lead", Lang.RU): "В примечаниях к выпуску {line} {v}:",
    ("notes_more", Lang.EN): "… and {n} more line(s) of these notes.",
    ("notes_more", Lang.RU): "… и ещё строк в этих примечаниях: {n}.",
    ("no_release", Lang.EN): "{line} has no version {v}.",
    ("no_release", Lang.RU): "У «{line}» нет версии {v}.",
    ("window_release", Lang.EN): " in version {v}",
    ("window_release", Lang.RU): " в версии {v}",
    ("first", Lang.EN): "From {date}: the first version you may read ({new}).",
    ("first", Lang.RU): "С {date}: первая доступная вам версия ({new}).",
    ("no_substance", Lang.EN): "no change in substance (only formatting or dates differ).",
    ("no_substance", Lang.RU): "по существу ничего не изменилось (отличаются только "
                               "оформление или даты).",
    ("added", Lang.EN): "added", ("added", Lang.RU): "добавлено",
    ("removed", Lang.EN): "removed", ("removed", Lang.RU): "удалено",
    ("more", Lang.EN): "… and {n} more in this section",
    ("more", Lang.RU): "… и ещё {n} в этом разделе",
    ("unshown", Lang.EN): "{n} more changed section(s) did not fit the evidence allowance; "
                          "they are listed in `changes`.",
    ("unshown", Lang.RU): "Ещё разделов с изменениями: {n}; они не поместились в допустимый "
                          "объём и перечислены в `changes`.",
    ("none_in", Lang.EN): "No version of {line} took effect{window}; the one in force applies "
                          "from {date} ({new}).",
    ("none_in", Lang.RU): "Новых версий «{line}»{window} не было; действующая применяется "
                          "с {date} ({new}).",
    ("none_then", Lang.EN): "No version of {line} took effect{window}, and none applied at "
                            "its end: the last one before it, {old}, ended on {date}.",
    ("none_then", Lang.RU): "Новых версий «{line}»{window} не было, и в его конце не "
                            "действовала ни одна: последняя до него, {old}, действовала по "
                            "{date}.",
    ("by_content", Lang.EN): "{n} pair(s) of versions were too long to align sentence by "
                             "sentence ({units} sentences): their changes are what left and "
                             "what came, compared by content.",
    ("by_content", Lang.RU): "{n} пар(ы) версий слишком длинны для построчного сравнения "
                             "({units} предложений): изменения — что ушло и что появилось, "
                             "по содержанию.",
    ("listing_cut", Lang.EN): "… {n} earlier version(s) not shown; ask about a period to see "
                              "them.",
    ("listing_cut", Lang.RU): "… ещё {n} более ранних версий не показаны; спросите о периоде, "
                              "чтобы увидеть их.",
    ("not_compared", Lang.EN): "{n} earlier change(s) in this period were not compared; ask "
                               "about a shorter period to see them.",
    ("not_compared", Lang.RU): "Ещё {n} более ранних изменений в этом периоде не сравнивались; "
                               "спросите о более коротком периоде.",
    ("one_version", Lang.EN): "{line} has one version, with no validity dates and no release: "
                              "there is no earlier version to compare it with.",
    ("one_version", Lang.RU): "У «{line}» одна версия, без дат действия и без номера версии: "
                              "сравнивать её не с чем.",
    ("none_yet", Lang.EN): "No version of {line} took effect{window}: the first applies from "
                           "{date}.",
    ("none_yet", Lang.RU): "Версий «{line}»{window} не было: первая действует с {date}.",
    ("latest_only", Lang.EN): "This is the latest change; {n} earlier change(s) are listed "
                              "with “List the versions …” or by asking about a period.",
    ("latest_only", Lang.RU): "Это последнее изменение; более ранних: {n}. Спросите о "
                              "периоде или попросите список версий.",
    ("versions_lead", Lang.EN): "Versions of {line} you may read ({n}):",
    ("versions_lead", Lang.RU): "Версии «{line}», доступные вам ({n}):",
    ("ask_document", Lang.EN): "Which document's versions: {names}?",
    ("ask_document", Lang.RU): "Версии какого документа: {names}?",
    ("ask_change_year", Lang.EN): "“{period}” of which year? Ask again with the year.",
    ("ask_change_year", Lang.RU): "«{period}» — какого года? Спросите ещё раз, указав год.",
    ("in_force", Lang.EN): "in force", ("in_force", Lang.RU): "действует",
    ("recorded", Lang.EN): "recorded {t}", ("recorded", Lang.RU): "зарегистрирована {t}",
    ("revision", Lang.EN): "revision {r}", ("revision", Lang.RU): "редакция {r}",
    ("release", Lang.EN): "version {v}", ("release", Lang.RU): "версия {v}",
    ("undated", Lang.EN): "no validity dates", ("undated", Lang.RU): "без дат действия",
    ("window_since", Lang.EN): " since {a}", ("window_since", Lang.RU): " с {a}",
    ("window_period", Lang.EN): " from {a} to {b}", ("window_period", Lang.RU): " с {a} по {b}",
    ("window_on", Lang.EN): " on {a}", ("window_on", Lang.RU): " на {a}",
    ("window_latest", Lang.EN): " (the latest)", ("window_latest", Lang.RU): " (последнее)",
}


def fixed(name: str, lang: Lang, **values) -> str:
    """One of the fixed texts above, in `lang`, with its values filled in."""
    return _TEXTS[(name, lang)].format(**values)


def span_text(start: str | None, end: str | None, lang: Lang) -> str:
    """A version's validity as read: "from A to B", "from A", "to B"."""
    if lang is Lang.RU:
        parts = [f"с {start}" if start else "", f"по {end}" if end else ""]
    else:
        parts = [f"from {start}" if start else "", f"to {end}" if end else ""]
    return " ".join(p for p in parts if p)
