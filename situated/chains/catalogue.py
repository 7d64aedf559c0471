"""Every fixed text the app says, by (name, language): `wording.fixed` fills one in. Code passes
names and values; a third language is a third entry per name (`tests/test_wording.py` checks
every name has every language)."""

from __future__ import annotations

from situated.chains.lang import Lang

TEXTS = {
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
    ("withheld_empty", Lang.EN): "The answer was withheld: it names sources but says "
                                 "nothing of what they hold.",
    ("withheld_empty", Lang.RU): "Ответ не показан: он называет источники, но ничего не "
                                 "говорит о том, что в них.",
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
    # first appearance (`appearance_steps`): the kind of change as a verb
    ("verb_added", Lang.EN): "added",
    ("verb_added", Lang.RU): "появилось",
    ("verb_removed", Lang.EN): "removed",
    ("verb_removed", Lang.RU): "удалено",
    ("verb_deprecated", Lang.EN): "deprecated",
    ("verb_deprecated", Lang.RU): "объявлено устаревшим",
    ("version_release", Lang.EN): "version {v}",
    ("version_release", Lang.RU): "версии {v}",
    ("version_dated", Lang.EN): "the version from {date}",
    ("version_dated", Lang.RU): "редакции с {date}",
    ("appears_added", Lang.EN): "“{x}” first appears in {at} [{a}]{before}.",
    ("appears_added", Lang.RU): "«{x}» впервые появляется в {at} [{a}]{before}.",
    ("appears_removed", Lang.EN): "“{x}” is gone in {at} [{a}]{before}.",
    ("appears_removed", Lang.RU): "«{x}» нет в {at} [{a}]{before}.",
    ("appears_deprecated", Lang.EN): "“{x}” is marked deprecated from {at} [{a}]{before}.",
    ("appears_deprecated", Lang.RU): "«{x}» помечено как устаревшее начиная с {at} [{a}]"
                                     "{before}.",
    ("before_added", Lang.EN): "; {at}, the version before it, does not have it [{a}]",
    ("before_added", Lang.RU): "; в {at}, предыдущей версии, его нет [{a}]",
    ("before_removed", Lang.EN): "; {at} still has it [{a}]",
    ("before_removed", Lang.RU): "; в {at} оно ещё есть [{a}]",
    ("before_deprecated", Lang.EN): "; {at}, the version before it, does not say so [{a}]",
    ("before_deprecated", Lang.RU): "; в {at}, предыдущей версии, этого нет [{a}]",
    ("pages_unshown", Lang.EN): "The versions themselves do not show when “{x}” was {verb}.",
    ("pages_unshown", Lang.RU): "По версиям документов не видно, когда «{x}» {verb}.",
    ("notes_state", Lang.EN): "“{x}” was {verb} in version {v}, as the documents' own notes "
                              "say{ref}. By the pages themselves: ",
    ("notes_state", Lang.RU): "«{x}» {verb} в версии {v}, как сказано в собственных заметках "
                              "документов{ref}. По самим страницам: ",
    ("notes_mention", Lang.EN): "The documents' own notes (history notes, a changelog) mention "
                                "it under {said}{tail}.",
    ("notes_mention", Lang.RU): "В собственных заметках документов (история, журнал "
                                "изменений) это отмечено в версии {said}{tail}.",
    ("notes_disagree", Lang.EN): "; that disagrees with the pages' own versions",
    ("notes_disagree", Lang.RU): " — это расходится с версиями документов",
    ("held_unshown", Lang.EN): "Versions of the documents have “{x}”, but none shows it being "
                               "{verb}.",
    ("held_unshown", Lang.RU): "«{x}» есть в версиях документов, но ни одна из них не "
                               "показывает, когда это {verb}.",
    ("none_has", Lang.EN): "No version of the documents you may read has “{x}”.",
    ("none_has", Lang.RU): "Ни в одной версии документов, доступных вам, нет «{x}».",
    # releases (`chains.release`)
    ("unknown_version", Lang.EN): "Version {v} is not among the versions of {line} ({n}: "
                                  "{versions})",
    ("unknown_version", Lang.RU): "Версии {v} нет среди версий {line} ({n}: {versions})",
    ("nearest_one", Lang.EN): "; the nearest is {near}.",
    ("nearest_one", Lang.RU): "; ближайшие: {near}.",
    ("nearest_many", Lang.EN): "; the nearest are {near}.",
    ("nearest_many", Lang.RU): "; ближайшие: {near}.",
    ("latest_slice", Lang.EN): "For version {v} (the latest; name your version if you run "
                               "another): ",
    ("latest_slice", Lang.RU): "Для версии {v} (последней; назовите свою версию, если она "
                               "другая): ",
    ("notes_slice", Lang.EN): "From the release notes of version {v}: ",
    ("notes_slice", Lang.RU): "По примечаниям к версии {v}: ",
    ("ask_version", Lang.EN): "To find the text that applies I need the version: the versions "
                              "of {line} say different things here. Which version: "
                              "{versions}?",
    ("ask_version", Lang.RU): "Чтобы выбрать текст, который применяется, нужно знать версию: "
                              "версии {line} говорят об этом по-разному. Какая версия: "
                              "{versions}?",
    ("same_text", Lang.EN): "The same text stands in versions {first} to {last}.",
    ("same_text", Lang.RU): "Тот же текст — в версиях с {first} по {last}.",
    ("same_text_every", Lang.EN): "The same text stands in versions {first} to {last} (every "
                                  "version of this document).",
    ("same_text_every", Lang.RU): "Тот же текст — в версиях с {first} по {last} (во всех "
                                  "версиях этого документа).",
    ("elsewhere", Lang.EN): "Nothing in version {v} answers this; versions {versions} do. Ask "
                            "about one of them, e.g. “in version {last}”.",
    ("elsewhere", Lang.RU): "В версии {v} об этом ничего нет; это есть в версиях: {versions}. "
                            "Спросите о нужной версии, например «в версии {last}».",
    ("elsewhere_latest", Lang.EN): "Nothing in the latest version, {v}, answers this; versions "
                                   "{versions} do. Ask about one of them, e.g. “in version "
                                   "{last}”.",
    ("elsewhere_latest", Lang.RU): "В последней версии {v} об этом ничего нет; это есть в "
                                   "версиях: {versions}. Спросите о нужной версии, например "
                                   "«в версии {last}».",
    # a release line's facts (`chains.release_history`)
    ("opening", Lang.EN): "(opening)",
    ("opening", Lang.RU): "(начало)",
    ("documents", Lang.EN): "the documents",
    ("documents", Lang.RU): "документов",
    ("no", Lang.EN): "No. ",
    ("no", Lang.RU): "Нет. ",
    ("line_has", Lang.EN): "Yes: version {v} is one of the {n} versions of {line} ({first} – "
                           "{last}).",
    ("line_has", Lang.RU): "Да: версия {v} — одна из {n} версий {line} ({first} – {last}).",
    ("line_latest", Lang.EN): "The latest version of {line} is {last} ({n} versions; the "
                              "oldest is {first}).",
    ("line_latest", Lang.RU): "Последняя версия {line}: {last} (всего версий: {n}, первая — "
                              "{first}).",
    ("line_oldest", Lang.EN): "The oldest version of {line} is {first} ({n} versions; the "
                              "latest is {last}).",
    ("line_oldest", Lang.RU): "Самая ранняя версия {line}: {first} (всего версий: {n}, "
                              "последняя — {last}).",
    ("line_listing", Lang.EN): "{line} has {n} versions, oldest first: {names}.",
    ("line_listing", Lang.RU): "Версии {line} ({n}, от ранней к последней): {names}.",
    ("line_listing_plural", Lang.EN): "The documents have {n} versions, oldest first: {names}.",
    ("line_listing_plural", Lang.RU): "Версии документов ({n}, от ранней к последней): "
                                      "{names}.",
}
