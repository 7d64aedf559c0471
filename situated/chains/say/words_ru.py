"""The Russian texts, name for name as in `words_en` (which says how these files work)."""

TEXTS = {
    "and": "и",
    "ask_within": "В период {period} версии сменялись: {changes}. Какой день вас интересует?",
    "ask_unplaced": "Какая из дат решает: {dates}?",
    "over_allowance": "Лучший фрагмент больше допустимого объёма evidence ({allowance} токенов); "
                      "увеличьте окно или используйте политику бюджета skip_oversized.",
    "withheld_unknown": "Ответ не показан: он ссылается на источники, которых модель не получала "
                        "({labels}).",
    "withheld_uncited": "Ответ не показан: в нём нет ссылок на источники, его нельзя проверить.",
    "withheld_empty": "Ответ не показан: он называет источники, но ничего не говорит о том, что в "
                      "них.",
    "ask_year": "Чтобы сравнить, нужен год: «{period}» — какого года? Спросите ещё раз, указав "
                "год.",
    "changes_lead": "Изменения «{line}»{window}:",
    "pair": "С {date} ({old} → {new}):",
    "pair_release": "Версия {v} по сравнению с {prev} ({old} → {new}):",
    "first_release": "Версия {v}: первая доступная вам версия ({new}).",
    "notes_lead": "В примечаниях к выпуску {line} {v}:",
    "notes_more": "… и ещё строк в этих примечаниях: {n}.",
    "no_release": "У «{line}» нет версии {v}.",
    "window_release": " в версии {v}",
    "first": "С {date}: первая доступная вам версия ({new}).",
    "no_substance": "по существу ничего не изменилось (отличаются только оформление или даты).",
    "added": "добавлено",
    "removed": "удалено",
    "more": "… и ещё {n} в этом разделе",
    "unshown": "Ещё разделов с изменениями: {n}; они не поместились в допустимый объём и "
               "перечислены в `changes`.",
    "none_in": "Новых версий «{line}»{window} не было; действующая применяется с {date} ({new}).",
    "none_then": "Новых версий «{line}»{window} не было, и в его конце не действовала ни одна: "
                 "последняя до него, {old}, действовала по {date}.",
    "by_content": "{n} пар(ы) версий слишком длинны для построчного сравнения ({units} "
                  "предложений): изменения — что ушло и что появилось, по содержанию.",
    "listing_cut": "… ещё {n} более ранних версий не показаны; спросите о периоде, чтобы увидеть "
                   "их.",
    "not_compared": "Ещё {n} более ранних изменений в этом периоде не сравнивались; спросите о "
                    "более коротком периоде.",
    "one_version": "У «{line}» одна версия, без дат действия и без номера версии: сравнивать её "
                   "не с чем.",
    "none_yet": "Версий «{line}»{window} не было: первая действует с {date}.",
    "latest_only": "Это последнее изменение; более ранних: {n}. Спросите о периоде или попросите "
                   "список версий.",
    "versions_lead": "Версии «{line}», доступные вам ({n}):",
    "ask_document": "Версии какого документа: {names}?",
    "ask_change_year": "«{period}» — какого года? Спросите ещё раз, указав год.",
    "in_force": "действует",
    "recorded": "зарегистрирована {t}",
    "revision": "редакция {r}",
    "release": "версия {v}",
    "undated": "без дат действия",
    "window_since": " с {a}",
    "window_period": " с {a} по {b}",
    "window_on": " на {a}",
    "window_latest": " (последнее)",
    "verb_added": "появилось",
    "verb_removed": "удалено",
    "verb_deprecated": "объявлено устаревшим",
    "version_release": "версии {v}",
    "version_dated": "редакции с {date}",
    "appears_added": "«{x}» впервые появляется в {at} [{a}]{before}.",
    "appears_oldest": "«{x}» есть уже в {at}, самой ранней из версий страниц [{a}]{older}.",
    "older_notes": "; заметки к выпускам начинаются с версии {v}, так что оно может быть и старше",
    "gone_from": "Начиная с {at} его снова нет [{a}].",
    "appears_removed": "«{x}» нет в {at} [{a}]{before}.",
    "appears_deprecated": "«{x}» помечено как устаревшее начиная с {at} [{a}]{before}.",
    "before_added": "; в {at}, предыдущей версии, его нет [{a}]",
    "before_removed": "; в {at} оно ещё есть [{a}]",
    "before_deprecated": "; в {at}, предыдущей версии, этого нет [{a}]",
    "described_as": "Понято как «{x}»: так это называют собственные заметки документов.",
    "pages_unshown": "По версиям документов не видно, когда «{x}» {verb}.",
    "notes_state": "«{x}» {verb} в версии {v}, как сказано в собственных заметках "
                   "документов{ref}. По самим страницам: ",
    "notes_state_alone": "«{x}» {verb} в версии {v}, как сказано в собственных заметках "
                         "документов{ref}; по самим версиям этого не видно.",
    "notes_mention": "В собственных заметках документов (история, журнал изменений) это отмечено "
                     "в версии {said}{tail}.",
    "notes_disagree": " — это расходится с версиями документов",
    "held_unshown": "«{x}» есть в версиях документов, но ни одна из них не показывает, когда это "
                    "{verb}.",
    "none_has": "Ни в одной версии документов, доступных вам, нет «{x}».",
    "unknown_version": "Версии {v} нет среди версий {line} ({n}: {versions})",
    "unbound_product": "Продукта «{product}» нет среди доступных вам: {products}. Назовите один из них, чтобы спросить о его версиях.",
    "unknown_has_notes": "Примечания к выпуску {v} есть: спросите «Что изменилось в версии {v}?».",
    "nearest_one": "; ближайшие: {near}.",
    "nearest_many": "; ближайшие: {near}.",
    "latest_slice": "Для версии {v} (последней; назовите свою версию, если она другая): ",
    "page_last_slice": "Для версии {v} (последней, где есть эта страница; последняя версия — "
                       "{latest}; назовите свою версию, если она другая): ",
    "notes_slice": "По примечаниям к версии {v}: ",
    "ask_version": "Чтобы выбрать текст, который применяется, нужно знать версию: версии {line} "
                   "говорят об этом по-разному. Какая версия: {versions}?",
    "same_text": "Тот же текст — в версиях с {first} по {last}.",
    "same_text_every": "Тот же текст — в версиях с {first} по {last} (во всех версиях этого "
                       "документа).",
    "elsewhere": "В версии {v} об этом ничего нет; это есть в версиях: {versions}. Спросите о "
                 "нужной версии, например «в версии {last}».",
    "elsewhere_latest": "В последней версии {v} об этом ничего нет; это есть в версиях: "
                        "{versions}. Спросите о нужной версии, например «в версии {last}».",
    "elsewhere_one": "В версии {v} об этом ничего нет; это есть в версии {versions}. Спросите о "
                     "ней: «в версии {last}».",
    "elsewhere_latest_one": "В последней версии {v} об этом ничего нет; это есть в версии "
                            "{versions}. Спросите о ней: «в версии {last}».",
    "opening": "(начало)",
    "documents": "документов",
    "no": "Нет. ",
    "yes": "Да. ",
    "line_has": "Да: версия {v} — одна из {n} версий {line} ({first} – {last}).",
    "line_latest": "Последняя версия {line}: {last} (всего версий: {n}, первая — {first}).",
    "line_oldest": "Самая ранняя версия {line}: {first} (всего версий: {n}, последняя — {last}).",
    "line_listing": "Версии {line} ({n}, от ранней к последней): {names}.",
    "line_listing_plural": "Версии документов ({n}, от ранней к последней): {names}.",
    "line_listing_newest": "Версии {line} ({n}, от последней к ранней): {names}.",
    "line_listing_plural_newest": "Версии документов ({n}, от последней к ранней): {names}.",
    "line_window": "Версии {line} {window} ({k} из {n}): {names}.",
    "line_window_none": "У {line} нет версий {window} (всего версий: {n}, с {first} по {last}).",
    "window_after": "после {v}",
    "window_from": "начиная с {v}",
    "window_before": "до {v}",
    "window_up_to": "по {v} включительно",
    "window_between": "с {lo} по {hi}",
    # dates, facts and situations (`wording`)
    "ask_date_purchase_date": "Когда была покупка (число, месяц и год)?",
    "ask_date_request_date": "Когда подана или будет подана заявка (число, месяц и год)?",
    "ask_date_as_of": "На какую дату (число, месяц и год)?",
    "before_or_from_purchase_date": "Покупка была до {b} или начиная с этой даты?",
    "before_or_from_request_date": "Заявка подана до {b} или начиная с этой даты?",
    "before_or_from_as_of": "Речь о дате до {b} или начиная с этой даты?",
    "ask_facet": "Какой {facet}: {candidates}?",
    "ask_facet_open": "Какой {facet} имеется в виду?",
    "no_year": "«{partial}» — без года.",
    "versions_changed": "Версии сменялись: {changes}.",
    "period_span": "с {a} по {b}",
    "clarify_lead": "Чтобы выбрать правило, которое применяется, нужно знать {facts}.",
    "facts_joiner": " и ",
    "slice_as_of": "по состоянию на {d}",
    "slice_purchase_date": "при покупке {d}",
    "slice_request_date": "для заявки от {d}",
    "slice_product": "для {p}",
    "slice_known_on": "по данным на {d}",
    "slice_version": "для версии {v}",
    "slice_facet": "для {n} {v}",
    "slice_period_as_of": "с {a} по {b}",
    "slice_period_purchase_date": "при покупке с {a} по {b}",
    "slice_period_request_date": "для заявки с {a} по {b}",
    "left_out_one": "Не учтены документы, зависящие от {facts}: {sources}; укажите это, чтобы их "
                    "учесть.",
    "left_out_many": "Не учтены документы, зависящие от {facts}: {sources}; укажите это, чтобы "
                     "их учесть.",
    "same_day": "{day} действовало больше одной версии; использована действовавшая в конце дня "
                "(с {start}).",
    "before_first": "На {day} ни одна версия «{family}» не действовала: первая действует с "
                    "{first}.",
    "same_in_versions": "Этот раздел одинаков по существу во всех доступных вам версиях "
                        "«{family}» ({n}), поэтому дата не меняет ответ.",
    "not_recorded": "«{title}» ({source_id}) записан {recorded}, позже {known}: по данным на "
                    "{known} записи о нём нет.",
    "not_in_force": "На {day} ни одна версия «{family}» не действовала.",
    "quoted": "«{text}»",
    "or": "или",
    "no_evidence_absent": "Ни один доступный вам документ при заданных условиях ({facts}) не "
                          "упоминает {names}, поэтому ответа нет.",
    "no_evidence_unheld": "Ни один документ, доступный вам, не упоминает {names}, поэтому ответа "
                          "нет.",
    "no_evidence": "Ни один документ, доступный вам, не относится к этому вопросу{why}, поэтому "
                   "ответа нет.",
    "no_evidence_why": " при заданных условиях ({facts})",
    "span_from": "с {d}",
    "span_to": "по {d}",
}

# words put into the texts above: the facts a clarification asks for (accusative), those an
# answer left out (genitive), and the known facts of a situation (keys: `wording.FACT_NAMES`
# values, `ValidFor` values)
NAMES = {
    "facet": {"product": "продукт"},
    "fact_asked": {"product": "продукт", "purchase date": "дату покупки",
                   "request date": "дату заявки", "date": "дату", "version": "версию"},
    "fact_left_out": {"product": "продукта", "purchase date": "даты покупки",
                      "request date": "даты заявки", "date": "даты"},
    "fact_known": {"product": "продукт", "purchase_date": "дата покупки",
                   "request_date": "дата заявки", "as_of": "дата", "known_on": "по данным на",
                   "version": "версия"},
}
