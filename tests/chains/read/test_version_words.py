"""Versions in people's words, the classes fresh held-out rounds of phrasings showed
(`words/<lang>/versions.py`, `words/<lang>/since.py`): each new word beside a question that
must stay content (issue 53; docs/design.md "Versions in people's words")."""

from __future__ import annotations

import pytest
from packaging.version import Version

from situated.chains.read.intent import LineFact, about_the_line, find_intent
from situated.chains.read.release import ReleaseReading
from situated.chains.read.said import read_said
from situated.chains.say.wording import Lang
from situated.chains.versions.release_history import line_text


def _read(question: str) -> str | None:
    """The intent the rules read, the product's name taken out as the index's names are."""
    got = find_intent(question, lambda t: t.replace("quickq", " "))
    return got.value if got else None


@pytest.mark.unit
@pytest.mark.parametrize("question, intent", [
    # «выпуск» is a release as «релиз» is; a version's number, its least and greatest, how far
    # the documents reach; what stands out in a named release; the least release one needs
    ("Какие выпуски quickq здесь описаны?", "versions"),
    ("В каком выпуске quickq впервые появился scheduled tasks?", "since"),
    ("С какой минимальной версии quickq доступен scheduled tasks?", "since"),
    ("Какой наибольший номер версии quickq здесь есть?", "versions"),
    ("До какой версии quickq доходит документация?", "versions"),
    ("Насколько старые версии quickq есть в документации?", "versions"),
    ("Можешь ответить на вопросы про quickq 1.1.0?", "versions"),
    ("Что примечательного в релизе quickq 1.1.0?", "changes"),
    ("Anything notable in the quickq 1.1.0 release?", "changes"),
    ("What's the minimum quickq version I need for scheduled tasks?", "since"),
    ("В каком выпуске журнала вышла статья?", None),  # an issue of a magazine: content
    ("Что важного в договоре?", None),  # no release: what the text says
    ("What's the minimum deposit I need for a car?", None),
    # a build is a release where it stands as a noun, and «сборка», «редакция» as «релиз»;
    # all the rest; taking a release apart; the release one has to be on; rolled out
    ("Which quickq build is the oldest in here?", "versions"),
    ("How many quickq builds do you know about?", "versions"),
    ("Which was the first quickq build to include scheduled tasks?", "since"),
    ("How do I build quickq?", None),
    ("Do I need to build?", None),
    ("Сколько сборок quickq тебе известно?", "versions"),
    ("Перечисли, пожалуйста, редакции quickq, которые у тебя есть.", "versions"),
    ("Which quickq version came before all the rest?", "versions"),
    ("Какой релиз quickq вышел позже всех остальных?", "versions"),
    ("Could you itemise the quickq releases you have?", "versions"),
    ("Break down the quickq 1.1.0 release for me.", "changes"),
    ("Разбери по пунктам релиз quickq 1.1.0.", "changes"),
    ("Перечисли главное в quickq 1.1.0.", "changes"),
    ("Что другого в quickq 1.1.0?", "changes"),
    ("Which quickq release rolled out scheduled tasks?", "since"),
    ("What version of quickq do I have to be on to get scheduled tasks?", "since"),
    ("На какой версии quickq нужно быть, чтобы получить scheduled tasks?", "since"),
    ("Break down the costs for me.", None),
    ("Перечисли главное в договоре.", None),
    # where it all began; the earliest release in which a thing is
    ("С какой версии quickq всё началось?", "versions"),
    ("Какая самая ранняя версия quickq, где есть scheduled tasks?", "since"),
    ("С какой версии начали работать прокси?", "since"),
    ("Когда началась война?", None),
    # where the list begins or ends; picking up a thing, an update that added it, since when;
    # the difference in a release; choosing, writing out, counting up, being listed, ever
    ("Where does the quickq version list begin?", "versions"),
    ("Where does the quickq version list end?", "versions"),
    ("In what release did quickq pick up scheduled tasks?", "since"),
    ("Which quickq update added scheduled tasks?", "since"),
    ("С каких пор scheduled tasks входит в quickq?", "since"),
    ("Какое обновление quickq добавило scheduled tasks?", "since"),
    ("What's the difference in quickq 1.1.0?", "changes"),
    ("Из скольких версий quickq можно выбрать?", "versions"),
    ("Выпиши все версии quickq, пожалуйста.", "versions"),
    ("С чего начинается список версий quickq?", "versions"),
    ("Какой релиз quickq самый давний?", "versions"),
    ("Был ли когда-нибудь quickq 1.1.0?", "versions"),
    ("Значится ли у тебя quickq 1.1.0?", "versions"),
    ("С чего начать?", None),
    ("Какое обновление нужно установить?", None),
    ("Where does the bus stop?", None),
    # the English list's other classes, in Russian
    ("Упоминаются ли где-нибудь версии quickq?", "versions"),
    ("Примерно сколько версий quickq ты знаешь?", "versions"),
    ("Содержит ли база quickq 1.1.0?", "versions"),
    ("Может ли бот найти quickq 1.1.0?", "versions"),
    ("Что содержит договор?", None),
    ("Получу ли я скидку?", None),
    # a set, its size, times released, by, real; where it all began; shipped a release; the
    # earliest of the line that has a thing; introduced in, done differently
    ("What's the full set of quickq releases?", "versions"),
    ("What's the size of the quickq release history?", "versions"),
    ("How many times has quickq been released?", "versions"),
    ("Which quickq release started it all?", "versions"),
    ("Did quickq ever ship a 1.1.0?", "versions"),
    ("Is 1.1.0 a real quickq version?", "versions"),
    ("What's the earliest quickq that supports scheduled tasks?", "since"),
    ("What got introduced in quickq 1.1.0?", "changes"),
    ("What does quickq 1.1.0 do differently?", "changes"),
    ("Какой полный набор релизов quickq?", "versions"),
    ("Пройдись по версиям quickq по очереди.", "versions"),
    ("Сколько раз выпускался quickq?", "versions"),
    ("С какого релиза quickq всё пошло?", "versions"),
    ("Какая версия quickq идёт первой в списке?", "versions"),
    ("1.1.0 — это настоящая версия quickq?", "versions"),
    ("Какой самый ранний quickq с поддержкой scheduled tasks?", "since"),
    ("Когда quickq обзавёлся scheduled tasks?", "since"),
    ("Что quickq 1.1.0 делает по-другому?", "changes"),
    ("Was the feature released?", None),
    ("How many times can I return an item?", None),
    ("Is this a real leather jacket?", None),
    ("Сколько раз можно вернуть товар?", None),
    # so far, looking for, a release number before "release of …", where its history starts;
    # the third person's pronouns, what a release is about, the release a thing came with
    ("How many releases has quickq had so far?", "versions"),
    ("I'm looking for quickq 1.1.0, do you have it?", "versions"),
    ("Does a 1.1.0 release of quickq exist?", "versions"),
    ("Where does quickq's history start?", "versions"),
    ("Сколько релизов было у quickq до сих пор?", "versions"),
    ("Я ищу quickq 1.1.0, он у тебя есть?", "versions"),
    ("О чём релиз quickq 1.1.0?", "changes"),
    ("Когда scheduled tasks впервые стал доступен в quickq?", "since"),
    ("С какой версией quickq пришёл scheduled tasks?", "since"),
    ("Какие версии quickq мне стоит знать?", "versions"),
    ("Какие обновления пришли с quickq 1.1.0?", "changes"),
    ("What is the release date of version 1.1.0?", None),
    ("С какой версией Python совместим quickq?", None),
    ("Сколько стоит версия 1.1.0?", None),
    ("Where does the story start?", None),
    # most outdated, where the docs stop, the Russian up-to-date and outdated, a choice, first
    # released, a changelog entry, what a release did, a release retold
    ("Which is the most outdated quickq version here?", "versions"),
    ("What quickq version do your docs stop at?", "versions"),
    ("Какая версия quickq здесь самая устаревшая?", "versions"),
    ("Какая версия quickq здесь самая современная?", "versions"),
    ("Сколько версий quickq на выбор?", "versions"),
    ("Какой релиз quickq первым выпустил scheduled tasks?", "since"),
    ("Какая запись в журнале изменений для quickq 1.1.0?", "changes"),
    ("Что quickq 1.1.0 добавил или исправил?", "changes"),
    ("Кратко перескажи quickq 1.1.0.", "changes"),
    ("Кратко перескажи договор.", None),
    ("Where does the bus stop at night?", None),
    ("Что курьер добавил в заказ?", None),
    # in order, release numbers, newer / older than all the others, beginning to offer, changes
    # beside a release; «указаны», «один из», the smallest / biggest number, «старше всех
    # остальных», the news of a release
    ("Please tell me the quickq versions in order.", "versions"),
    ("Give me all quickq release numbers.", "versions"),
    ("Which quickq version is newer than all the others?", "versions"),
    ("When did quickq begin to offer scheduled tasks?", "since"),
    ("Any changes worth knowing in quickq 1.1.0?", "changes"),
    ("Сколько релизов quickq указано в документации?", "versions"),
    ("1.1.0 — один из номеров релизов quickq?", "versions"),
    ("Какой номер релиза quickq самый маленький?", "versions"),
    ("Какая версия quickq старше всех остальных?", "versions"),
    ("Какие новости в quickq 1.1.0?", "changes"),
    ("Какой номер телефона указан в договоре?", None),
    # before or after every other one, older than any other; how long the product has
    # had a thing, how far back a thing goes in it (the product's name where it stood), and the
    # subject between "how far back" and its verb
    ("Which quickq release came before every other one?", "versions"),
    ("Which quickq release came after every other one?", "versions"),
    ("Which quickq version is older than any other release?", "versions"),
    ("Which quickq version predates all the others?", "versions"),
    ("How far back does scheduled tasks go in quickq?", "since"),
    ("How long has quickq had scheduled tasks?", "since"),
    ("How far back do your quickq docs go?", "versions"),
    ("Up to which quickq version does your coverage extend?", "versions"),
    ("Как давно scheduled tasks есть в quickq?", "since"),
    ("Как давно quickq поддерживает scheduled tasks?", "since"),
    ("How far back does the audit log go?", None),  # no product where it stood: retention
    ("How far back does the audit log go in the dashboard?", None),
    ("How long has the clinic been open?", None),
    ("Как давно существует клиника?", None),
    ("Who came before every other speaker?", None),
    # the asker's sources, files and records, a release "called" a number, «на данный момент»,
    # the Russian least release with a thing; what a release reads is content
    ("What releases of quickq are out there in your sources?", "versions"),
    ("Does a release called 1.1.0 exist for quickq?", "versions"),
    ("Which quickq versions are in your files?", "versions"),
    ("Какие релизы quickq есть в твоих источниках?", "versions"),
    ("Сколько релизов quickq вышло на данный момент?", "versions"),
    ("Какая наименьшая версия quickq с scheduled tasks?", "since"),
    ("What sources does quickq 1.1.0 read from?", None),
    ("What files does quickq 1.1.0 read?", None),  # once read as versions
    ("Is there a setting called retries in quickq 1.1.0?", None),
    ("Какие источники данных поддерживает quickq 1.1.0?", None),
    ("Какой момент инерции у колеса?", None),
])
def test_the_classes_of_the_fresh_rounds_are_read(question, intent):
    assert _read(question) == intent


@pytest.mark.unit
@pytest.mark.parametrize("question, intent", [
    # the thirty-second and twentieth Russian rounds: a version numbered so; which
    # features changed; spelling out, "any"; brought in; a listing in an order; a place in a list
    ("Is there a quickq version numbered 1.1.0?", "versions"),
    ("Which features changed in quickq 1.1.0?", "changes"),
    ("Какие функции изменились в quickq 1.1.0?", "changes"),
    ("Распиши мне релизы quickq.", "versions"),
    ("Есть какие-нибудь документы по quickq 1.1.0?", "versions"),
    ("Какой релиз quickq привнёс scheduled tasks?", "since"),
    ("List every release of quickq that you cover, oldest first.", "versions"),
    ("Which quickq version sits at the start of the list?", "versions"),
    ("Какая версия quickq стоит в конце списка?", "versions"),
    ("Which features does quickq 1.1.0 have?", None),
    ("Какие функции есть в quickq 1.1.0?", None),
    ("Распиши мне план тренировок.", None),
    ("Есть какие-нибудь скидки?", None),
    ("Which settings can be changed?", None),
    ("Which item is at the top of the list?", None),
    ("What is at the end of the list in quickq 1.1.0 docs?", None),  # a list in the text
    # every version named in the singular; a question about what each one does is not
    ("Show me every version of the quickq-guide family.", "versions"),
    ("List each release of httpx.", "versions"),
    ("Show me how each version handles retries.", None),
    ("Show me every setting of the worker.", None),
    # the release that did it ("Find the quickq release that introduced X", «Найди релиз
    # quickq, который ввёл X»); a form that did something is not a release
    ("Find the quickq release that introduced scheduled tasks.", "since"),
    ("Tell me the version of quickq which brought scheduled tasks.", "since"),
    ("Найди релиз quickq, который ввёл scheduled tasks.", "since"),
    ("Find the form that introduced the new fee.", None),
    # the spoken short forms in Russian, as "u", "ur", "pls" in English
    ("Скока релизов quickq у тя есть?", "versions"),
    ("Чё за релизы quickq у тя есть?", "versions"),
    ("Если не сложно, посчитай релизы quickq в твоей документации.", "versions"),
    ("В двух словах, с какими релизами quickq ты справляешься?", "versions"),
    ("Что за скидки у вас есть?", None),
    ("Если не сложно, как настроить воркер quickq?", None),
])
def test_the_classes_of_the_thirtieth_to_thirty_second_sets_are_read(question, intent):
    assert _read(question) == intent


@pytest.mark.unit
@pytest.mark.parametrize("question, intent", [
    # the thirty-third and twenty-first Russian rounds: walked through, caught up with, brought
    # up to date; how many releases ago a thing turned up; what a release's update did
    ("Walk me through the quickq versions you hold.", "versions"),
    ("Which quickq release did your docs last catch up with?", "versions"),
    ("До какого релиза quickq документация была обновлена в последний раз?", "versions"),
    ("How long ago, in quickq versions, did scheduled tasks turn up?", "since"),
    ("How many releases ago did scheduled tasks turn up in quickq?", "since"),
    ("Сколько версий назад в quickq появился scheduled tasks?", "since"),
    ("Walk me through what quickq 1.1.0 changed.", "changes"),
    ("What did the quickq 1.1.0 update do?", "changes"),
    ("Walk me through setting up quickq.", None),
    ("Take me through the quickq retry settings.", None),
    ("What did the quickq worker do?", None),
    ("Когда была обновлена документация quickq?", None),
    ("Сколько лет назад открылся музей?", None),
])
def test_the_classes_of_the_thirty_third_rounds_are_read(question, intent):
    assert _read(question) == intent


@pytest.mark.unit
@pytest.mark.parametrize("question, intent", [
    # the thirty-fourth and twenty-second Russian rounds: whose knowledge it is ("according to
    # you", "in your view", «на твой взгляд»), by chance, such a one, seeing; offering begun
    # ("start shipping", «начал поставлять»); the least release needed for a thing; what is
    # different in a release
    ("What's the current quickq release according to you?", "versions"),
    ("Which quickq versions do you think you hold?", "versions"),
    ("As far as you know, what's the oldest quickq release?", "versions"),
    ("Ты случайно не охватываешь quickq 1.1.0?", "versions"),
    ("У меня quickq 1.1.0, ты такую знаешь?", "versions"),
    ("Какая версия quickq самая новая, на твой взгляд?", "versions"),
    ("Хочу увидеть полный набор версий quickq.", "versions"),
    ("When did quickq start shipping scheduled tasks?", "since"),
    ("Which quickq release began including retries?", "since"),
    ("Когда quickq начал поставлять scheduled tasks?", "since"),
    ("Какая минимальная версия quickq нужна для scheduled tasks?", "since"),
    ("Что отличается в quickq 1.1.0?", "changes"),
    ("How big is your quickq version history, in releases?", "versions"),
    ("Насколько длинная у тебя история версий quickq, в релизах?", "versions"),
    ("Какие версии quickq знает эта штука?", "versions"),
    # content beside them: what the text says, a value by the asker's own view, another
    # thing's version
    ("What's the default quickq timeout according to the guide?", None),
    ("Which quickq queue backend do you think is fastest?", None),
    ("Когда quickq начал поставлять задачи в очередь?", "since"),
    ("Какая минимальная версия Python нужна для quickq?", None),
    ("Что отличает воркер quickq от планировщика?", None),
    ("Где хранятся задачи quickq?", None),
    ("Как далеко можно отложить задачу в quickq?", None),
    ("How long is the default quickq retry delay?", None),
    ("How big can a quickq task payload be?", None),
    ("Какой длины может быть имя задачи в quickq?", None),
])
def test_the_classes_of_the_thirty_fourth_rounds_are_read(question, intent):
    assert _read(question) == intent


@pytest.mark.unit
@pytest.mark.parametrize("question, intent", [
    # the thirty-fifth and twenty-third Russian rounds: an inventory, a list run through, the
    # way people text, being in the know, where the asker runs it said before the question,
    # the assistant at work, where the documents one holds begin, made available, been around
    ("Can I get an inventory of the quickq versions?", "versions"),
    ("Whats the oldest quickq u have", "versions"),
    ("whats the latest quickq u have", "versions"),
    ("Where do the quickq docs you hold start from?", "versions"),
    ("We run quickq 1.1.0 in production, do you cover it?", "versions"),
    ("Which quickq versions does the assistant work with?", "versions"),
    ("What quickq release made scheduled tasks available?", "since"),
    ("Since which quickq version has scheduled tasks been around?", "since"),
    ("Пробегись по релизам quickq, по которым ты можешь ответить.", "versions"),
    ("Можно получить перечень версий quickq?", "versions"),
    ("По каким релизам quickq работает ассистент?", "versions"),
    ("До какого релиза quickq ты в курсе?", "versions"),
    ("У нас в продакшене quickq 1.1.0, ты её покрываешь?", "versions"),
    ("Какой релиз quickq сделал доступным scheduled tasks?", "since"),
    # content beside them: running it in production asks how, a thing that works with another,
    # where a worker starts, what the assistant's subject does
    ("How do I run quickq in production in 1.1.0?", None),
    ("Как запустить quickq 1.1.0 в продакшене?", None),
    ("Does quickq 1.1.0 work with Redis?", None),
    ("Where does the quickq worker start from?", None),
    ("Как работает планировщик quickq 1.1.0?", None),
    ("Can I get an inventory of the quickq tasks in a queue?", None),
    # the thirty-sixth and twenty-fourth Russian rounds: distinct releases, the docs brought up
    # to date, stuck on one, the least release needed "at least", speaking of them, furthest
    # back, first came with, a release described, different from the one before it
    ("How many distinct quickq releases are there in your docs?", "versions"),
    ("Which quickq release is the one you updated to last?", "versions"),
    ("I'm stuck on quickq 1.1.0. Is that release covered?", "versions"),
    ("Which quickq version do I need at least to use scheduled tasks?", "since"),
    ("О скольких релизах quickq ты можешь говорить?", "versions"),
    ("Какая версия quickq дальше всего в прошлом в твоих записях?", "versions"),
    ("До какого релиза quickq ты обновился в последний раз?", "versions"),
    ("Я застрял на quickq 1.1.0. Этот релиз охвачен?", "versions"),
    ("Какой релиз quickq первым пришёл с scheduled tasks?", "since"),
    ("Какая версия quickq нужна мне как минимум, чтобы пользоваться scheduled tasks?", "since"),
    ("Кратко опиши мне релиз quickq 1.1.0.", "changes"),
    ("Describe the quickq 1.1.0 release.", "changes"),
    ("Чем quickq 1.1.0 отличается от релиза перед ним?", "changes"),
    # content beside them: a thing stuck, a thing's features, a thing of a release described,
    # updating as a task, what the text says, another thing's version
    ("Why is my quickq job stuck on 1.1.0?", None),
    ("What are the unique features of quickq 1.1.0?", None),
    ("Describe the quickq 1.1.0 worker.", None),
    ("How do I update quickq to 1.1.0?", None),
    ("Что говорит документация quickq 1.1.0 о повторах?", None),
    ("Какая версия Python нужна для quickq?", None),
    ("Опиши воркер quickq 1.1.0.", None),
    ("Описан ли релиз quickq 1.1.0?", "versions"),
    # the thirty-seventh and twenty-fifth Russian rounds: flavours "version-wise", out of
    # curiosity, broken down, back the furthest, least recent, any chance, the asker's team
    # and its use said before the question, new in a release, what an update contains; just,
    # laid out, talked of, met with, in your index («в твоём»), walked through the changes
    ("Which flavours of quickq do you have docs for, version-wise?", "versions"),
    ("Out of curiosity, what quickq releases are in there?", "versions"),
    ("Can you break down the quickq versions you hold?", "versions"),
    ("Which quickq version goes back the furthest here?", "versions"),
    ("Which is the least recent quickq version you have?", "versions"),
    ("Any chance you know quickq 1.1.0?", "versions"),
    ("My team uses quickq 1.1.0; is it in your set?", "versions"),
    ("Which quickq version was scheduled tasks new in?", "since"),
    ("What does the quickq 1.1.0 update contain?", "changes"),
    ("Просто любопытно, какие релизы quickq там есть?", "versions"),
    ("Можешь разложить по полочкам версии quickq, которые у тебя есть?", "versions"),
    ("О скольких версиях quickq здесь идёт речь?", "versions"),
    ("Самый старый релиз quickq в твоём индексе, пожалуйста.", "versions"),
    ("Какая у тебя наименее свежая версия quickq?", "versions"),
    ("Встречается ли quickq 1.1.0 в твоём индексе?", "versions"),
    ("Есть шанс, что ты знаешь quickq 1.1.0?", "versions"),
    ("Моя команда использует quickq 1.1.0; она есть в твоём наборе?", "versions"),
    ("Проведи меня по изменениям quickq 1.1.0.", "changes"),
    # content beside them: use as a task, a chance of something, breaking a thing down, what
    # comes up where
    ("I use quickq 1.1.0, how do I schedule tasks?", None),
    ("How do I use quickq 1.1.0?", None),
    ("Is there a chance of data loss in quickq 1.1.0?", None),
    ("How do I break down a big task in quickq 1.1.0?", None),
    ("What types are in quickq 1.1.0?", None),
    ("Как использовать quickq 1.1.0, чтобы запланировать задачу?", None),
    ("Где встречается ошибка таймаута в quickq 1.1.0?", None),
    ("Просто скажи, как запустить воркер в quickq 1.1.0.", None),
    ("Разложи задачу quickq 1.1.0 на шаги.", None),
    ("Break down the quickq 1.1.0 release.", "changes"),
    ("Разбери релиз quickq 1.1.0.", "changes"),
    # the thirty-eighth and twenty-sixth Russian rounds: loaded into the system, where a release
    # sits, the preface "Before I ask: …", where the history starts or stops, here as an
    # adjective, if, counted up, answering
    ("What's the first quickq version that was loaded?", "versions"),
    ("Which quickq release sits furthest in the past?", "versions"),
    ("Were the quickq 1.1.0 docs loaded?", "versions"),
    ("Before I ask: do you have quickq 1.1.0?", "versions"),
    ("Какие версии quickq покрывает этот бот, если можно спросить?", "versions"),
    ("Какие релизы quickq включены в здешнюю документацию?", "versions"),
    ("Каков итог по числу версий quickq здесь?", "versions"),
    ("Можешь сосчитать, о скольких релизах quickq ты знаешь?", "versions"),
    ("Какой релиз quickq находится дальше всех в прошлом?", "versions"),
    ("На каком релизе quickq останавливается история?", "versions"),
    ("Документы по quickq 1.1.0 были загружены?", "versions"),
    ("Можешь отвечать на вопросы по quickq 1.1.0?", "versions"),
    ("Прежде чем спросить: у тебя есть quickq 1.1.0?", "versions"),
    # content beside them
    ("How are plugins loaded in quickq 1.1.0?", None),
    ("Where does the config file sit in quickq 1.1.0?", None),
    ("Что делать, если задача в quickq 1.1.0 упала?", None),
    ("Где посмотреть историю задач в quickq 1.1.0?", None),
    ("Как задать число воркеров в quickq 1.1.0?", None),
    ("Как загружаются задачи в quickq 1.1.0?", None),
    # the thirty-ninth and twenty-seventh Russian rounds: greetings, the names of the versions,
    # "or not", a few, whether it is possible, the very first or last, the earliest release
    # supporting a thing, what came with a release, when a product got a thing
    ("Hello, which quickq versions do you carry?", "versions"),
    ("I need the names of all quickq versions you carry.", "versions"),
    ("Is it many quickq versions you cover, or just a few? How many?", "versions"),
    ("What's the very first quickq you know about?", "versions"),
    ("quickq 1.1.0 — covered or not?", "versions"),
    ("I'd like to ask about quickq 1.1.0, is that possible?", "versions"),
    ("What's the earliest quickq release supporting scheduled tasks?", "since"),
    ("What came with quickq 1.1.0?", "changes"),
    ("Привет, знаешь версии quickq?", "versions"),
    ("Мне нужны названия всех версий quickq, которые у тебя есть.", "versions"),
    ("quickq 1.1.0 — охвачена или нет?", "versions"),
    ("Я бы хотел спросить про quickq 1.1.0, это возможно?", "versions"),
    ("Когда quickq получил scheduled tasks?", "since"),
    ("Что пришло вместе с quickq 1.1.0?", "changes"),
    # content beside them
    ("Is it possible to schedule tasks in quickq 1.1.0?", None),
    ("What are the names of the queues in quickq 1.1.0?", None),
    ("Hello, how do I start a worker in quickq 1.1.0?", None),
    ("Можно ли запустить несколько воркеров в quickq 1.1.0?", None),
    ("Есть ли в quickq 1.1.0 ретраи или нет?", None),
    ("Когда Тесла получил патент на передатчик?", None),
    # the fortieth and twenty-eighth Russian rounds: what the assistant was fed, given or has
    # seen, a quick check, started out with, the baseline, when exactly, how far knowledge
    # extends, judging by, finished, first became, on which release it appeared, the least
    # release for a thing, which things were changed
    ("What versions of quickq have you been fed?", "versions"),
    ("Is quickq 1.1.0 one of the versions you've seen?", "versions"),
    ("Quick check, quickq 1.1.0 is covered, right?", "versions"),
    ("Which quickq version did your docs start out with?", "versions"),
    ("Which quickq version is the baseline, the oldest one?", "versions"),
    ("When exactly was scheduled tasks added to quickq?", "since"),
    ("Какими версиями quickq тебя снабдили?", "versions"),
    ("Сколько версий quickq тебе дали?", "versions"),
    ("Распространяются ли твои знания на quickq 1.1.0?", "versions"),
    ("Какие версии quickq существуют, судя по твоей документации?", "versions"),
    ("На какой версии quickq твоя документация закончилась?", "versions"),
    ("Быстрая проверка, quickq 1.1.0 охвачена, верно?", "versions"),
    ("Какая версия quickq первой стала поддерживать scheduled tasks?", "since"),
    ("На какой версии quickq появился scheduled tasks?", "since"),
    ("Какой минимальный релиз quickq для scheduled tasks?", "since"),
    ("Какие вещи были изменены в quickq 1.1.0?", "changes"),
    # content beside them
    ("What happens if no timeout is given in quickq 1.1.0?", None),
    ("How do I make a quick retry in quickq 1.1.0?", None),
    ("Что дал переход на quickq 1.1.0?", None),
    ("На какой версии quickq работает воркер?", None),
    ("Какая минимальная версия Python для quickq?", None),
    # the Russian pronouns and possessives in every case, and "own": a closed class written
    # whole, not as a round showed it («твою», «своей», «у него», «всю», «любую»)
    ("Есть ли у тебя в своей базе quickq 1.1.0?", "versions"),
    ("Знаешь ли ты всю историю релизов quickq?", "versions"),
    ("Есть ли quickq 1.1.0 у него в индексе?", "versions"),
    ("Покажи твою подборку релизов quickq.", "versions"),
    ("Is quickq 1.1.0 in your own docs?", "versions"),
    ("Как настроить свою очередь в quickq 1.1.0?", None),
    ("How do I run my own worker in quickq 1.1.0?", None),
    # … and the verbs of knowing, having, holding, wanting and giving in every person, keeping
    # and hosting in English
    ("Do you keep quickq 1.1.0?", "versions"),
    ("Is quickq 1.1.0 hosted here?", "versions"),
    ("Ты держишь quickq 1.1.0?", "versions"),
    ("Знают ли твои документы quickq 1.1.0?", "versions"),
    ("Вы имеете quickq 1.1.0?", "versions"),
    ("Дашь мне самую старую версию quickq?", "versions"),
    ("How long does quickq 1.1.0 keep results?", None),
    ("Where does quickq 1.1.0 store task results?", None),
    ("Как долго quickq 1.1.0 держит задачи в очереди?", None),
    ("Могу ли я держаться quickq 1.1.0?", None),
    ("Can I store quickq 1.1.0 offline?", None),
    # the forty-first and twenty-ninth Russian rounds: displayed, actually, within the range,
    # its bottom or top end, a question ending where the line starts, what's been fixed,
    # everything new; so, in fact, processed, help, the range's bounds, «Каким был релиз,
    # который добавил X?», «Как давно в quickq есть X?»
    ("Display the quickq versions available.", "versions"),
    ("So which quickq releases do you actually have?", "versions"),
    ("Is quickq 1.1.0 within your range?", "versions"),
    ("What's the bottom end of your quickq version range?", "versions"),
    ("From which quickq release does your coverage start?", "versions"),
    ("What's been fixed in quickq 1.1.0?", "changes"),
    ("List everything new in quickq 1.1.0.", "changes"),
    ("Так какие релизы quickq у тебя на самом деле есть?", "versions"),
    ("Сколько релизов quickq ты обработал?", "versions"),
    ("Какая верхняя граница твоего диапазона версий quickq?", "versions"),
    ("Можно ли здесь получить помощь по quickq версии 1.1.0?", "versions"),
    ("Каким был релиз quickq, который добавил scheduled tasks?", "since"),
    ("Как давно в quickq есть scheduled tasks?", "since"),
    ("Перечисли всё новое в quickq 1.1.0.", "changes"),
    # content beside them
    ("How do I display task results in quickq 1.1.0?", None),
    ("When does a quickq 1.1.0 worker start?", None),
    ("Which retry delays are within range in quickq 1.1.0?", None),
    ("Так как настроить воркер в quickq 1.1.0?", None),
    ("Где взять помощь по настройке воркера quickq 1.1.0?", None),
    ("Как давно в музее есть эта картина?", None),
    # the forty-second and thirtieth Russian rounds: collected, minding, listing, the records
    # open or close with, the release in which a thing arrived; собрано, давать ответы, как
    # выглядит, в наличии, не против, изложить изменения
    ("Mind listing the quickq versions you've got?", "versions"),
    ("What's the most dated quickq version you've collected?", "versions"),
    ("What quickq release do your records open with?", "versions"),
    ("Has quickq 1.1.0 been collected?", "versions"),
    ("Tell me the quickq release in which scheduled tasks was introduced.", "since"),
    ("Не против перечислить версии quickq, которые у тебя есть?", "versions"),
    ("Как выглядит твой список релизов quickq?", "versions"),
    ("Всего версий quickq в наличии?", "versions"),
    ("quickq 1.1.0 была собрана?", "versions"),
    ("Можешь давать ответы по quickq 1.1.0?", "versions"),
    ("Назови релиз quickq, в котором был представлен scheduled tasks?", "since"),
    ("Можешь кратко изложить изменения quickq 1.1.0?", "changes"),
    # content beside them
    ("How are results collected in quickq 1.1.0?", None),
    ("How does a quickq 1.1.0 worker close with a pending task?", None),
    ("Как выглядит дашборд quickq 1.1.0?", None),
    ("Я против ретраев, как их выключить в quickq 1.1.0?", None),
])
def test_the_classes_of_the_thirty_fifth_to_fortieth_sets_are_read(question, intent):
    """The thirty-fifth to fortieth rounds and the twenty-third to twenty-eighth Russian ones,
    and the pronoun and verb paradigms written whole between them, each with content beside."""
    assert _read(question) == intent


@pytest.mark.unit
@pytest.mark.parametrize("question, intent", [
    # the forty-third and thirty-first Russian rounds: the idioms of knowing a thing (across,
    # versed; «разбираешься», «ориентируешься»), a card index, a need said before the question,
    # how old the oldest is, first or last in line, a release that came out with a thing first
    ("Give me a count of the quickq versions you're across.", "versions"),
    ("Are you across quickq 1.1.0?", "versions"),
    ("Are you well versed in quickq 1.1.0?", "versions"),
    ("How old is the oldest quickq you're across?", "versions"),
    ("Which quickq version is first in line here?", "versions"),
    ("Which quickq version is last in line here?", "versions"),
    ("Посчитай версии quickq, в которых ты разбираешься.", "versions"),
    ("Ты разбираешься в quickq 1.1.0?", "versions"),
    ("quickq 1.1.0 у тебя в картотеке?", "versions"),
    ("Мне нужна quickq 1.1.0, она доступна?", "versions"),
    ("Насколько стара самая старая quickq, в которой ты разбираешься?", "versions"),
    ("Какая версия quickq первой вышла с scheduled tasks?", "since"),
    ("Какая версия quickq первой вышла?", "versions"),
    # content beside them
    ("How do I spread tasks across workers in quickq 1.1.0?", None),
    ("Are you across the retry settings of quickq 1.1.0?", None),
    ("How old is quickq 1.0.0?", None),
    ("Who is first in line for the next task in quickq 1.1.0?", None),
    ("Как разобраться с зависшей задачей в quickq 1.1.0?", None),
    ("Мне нужна помощь с воркером quickq 1.1.0, как его запустить?", None),
    ("Как посчитать задачи в очереди quickq 1.1.0?", None),
    # the forty-fourth and thirty-second Russian rounds: providing, getting into the docs, the
    # negated auxiliaries of a tag question, the docs dating from, one end of the line to the
    # other, past the end the asker was told of, making its way in, the earliest one can use a
    # thing with; приведите, будьте, попала, ведётся, с которого, под рукой, some release added
    # it, the verb first
    ("Kindly provide the quickq releases you can speak to.", "versions"),
    ("Which quickq versions made it into your docs?", "versions"),
    ("You don't happen to have quickq 1.1.0, do you?", "versions"),
    ("Tell me the quickq release your docs date from.", "versions"),
    ("Could I get the quickq version list, oldest to newest?", "versions"),
    ("Is there anything newer than your current quickq release?", "versions"),
    ("In what quickq version did scheduled tasks make its way in?", "since"),
    ("What's the earliest quickq I can use scheduled tasks with?", "since"),
    ("Будьте добры, приведите релизы quickq, о которых вы можете рассказать.", "versions"),
    ("Попала ли quickq 1.1.0 в твою документацию?", "versions"),
    ("Назови релиз quickq, с которого ведётся твоя документация.", "versions"),
    ("Есть под рукой документация по quickq 1.1.0?", "versions"),
    ("scheduled tasks был в quickq с самого начала или его добавила какая-то версия?", "since"),
    ("С какой самой ранней quickq можно использовать scheduled tasks?", "since"),
    # … and what a release added, named by what it is («версия», one release, is not «версии»,
    # the line: «Какие функции добавила версия 1.1.0?» had read as the listing)
    ("Какие функции добавила версия quickq 1.1.0?", "changes"),
    ("Which features did quickq 1.1.0 add?", "changes"),
    # content beside them
    ("How do I send JSON with quickq 1.1.0?", None),
    ("How do I turn a task into a job in quickq 1.1.0?", None),
    ("Can quickq 1.1.0 supply a default timeout?", None),
    ("Who won't get retried in quickq 1.1.0?", None),
    ("Как попасть в настройки воркера quickq 1.1.0?", None),
    ("Is quickq 1.1.0 newer than the worker default?", None),
    ("Which worker does quickq 1.1.0 start?", None),
    # the forty-fifth and thirty-third Russian rounds: trained on, working it out, a release
    # told of as an update, reworked; обучен, пытаюсь понять, начала предлагать, где это есть,
    # до какой версии обновиться, переделали, изменения, внесённые в
    ("Enumerate every quickq release this assistant was trained on.", "versions"),
    ("I'm trying to figure out which quickq versions are supported here, can you list them?",
     "versions"),
    ("Tell me about the quickq 1.1.0 update.", "changes"),
    ("What was reworked in quickq 1.1.0?", "changes"),
    ("Перечисли все релизы quickq, на которых обучен этот ассистент.", "versions"),
    ("Пытаюсь понять, какие версии quickq здесь поддерживаются, можешь их перечислить?",
     "versions"),
    ("Какая версия quickq начала предлагать scheduled tasks?", "since"),
    ("scheduled tasks: какой первый релиз quickq, где это есть?", "since"),
    ("До какой версии quickq мне обновиться, чтобы получить scheduled tasks?", "since"),
    ("Что переделали в quickq 1.1.0?", "changes"),
    ("Изменения, внесённые в quickq 1.1.0?", "changes"),
    # three earlier Russian phrasings an index rebuilt at later code asked about (lying in
    # the docs, in sum, this tool)
    ("Примерно сколько версий quickq лежит в твоей документации?", "versions"),
    ("Сколько версий quickq задокументировано в сумме?", "versions"),
    ("Какие версии quickq предлагает этот инструмент?", "versions"),
    # the forty-sixth and thirty-fourth Russian rounds: reminding, glancing, going back in time
    # (which turns where the coverage stops into its oldest end), there from day one or added
    # later, first mentioned, «когда впервые получил», a summary of the changes, what to know
    # of them
    ("Remind me which quickq versions you've got docs on.", "versions"),
    ("Going back in time, where does your quickq coverage stop?", "versions"),
    ("Was scheduled tasks in quickq from day one, or added later?", "since"),
    ("Напомни, по каким версиям quickq у тебя есть документация.", "versions"),
    ("Можно взглянуть на версии quickq, которые ты поддерживаешь?", "versions"),
    ("Если идти назад во времени, где заканчивается твоё покрытие quickq?", "versions"),
    ("Какой релиз quickq первым упомянул scheduled tasks?", "since"),
    ("scheduled tasks был в quickq с первого дня или его добавили позже?", "since"),
    ("Когда quickq впервые получил scheduled tasks, если говорить о версиях?", "since"),
    ("Дай краткую сводку изменений quickq 1.1.0.", "changes"),
    ("Я обновился до quickq 1.1.0, что мне нужно знать об изменениях?", "changes"),
    # the forty-seventh and thirty-fifth Russian rounds: the markers of talk (long story short,
    # «короче»), yes or no, what the assistant would say, asking in every form, needing to
    # know, going furthest back, became a thing («стал реальностью»), «обзавёлся», what will
    # differ after upgrading
    ("So, long story short, I need to know every quickq version you can help me with.",
     "versions"),
    ("If I asked you to name all the quickq releases, what would you say?", "versions"),
    ("Which quickq version have you got going furthest back?", "versions"),
    ("quickq 1.1.0, yes or no?", "versions"),
    ("At which quickq version did scheduled tasks become a thing?", "since"),
    ("If I upgrade to quickq 1.1.0, what will be different?", "changes"),
    ("Короче, со сколькими версиями quickq ты можешь помочь?", "versions"),
    ("Если бы я спросил про quickq 1.1.0, она бы у тебя была?", "versions"),
    ("quickq 1.1.0, да или нет?", "versions"),
    ("На какой версии quickq scheduled tasks стал реальностью?", "since"),
    ("Какой релиз quickq обзавёлся scheduled tasks?", "since"),
    ("Если я обновлюсь до quickq 1.1.0, что будет по-другому?", "changes"),
    # the forty-eighth and thirty-sixth Russian rounds: the asker's circumstance before a
    # semicolon, any idea, handy, whether it is true, really, only, the numbers an asker
    # guesses, more recent than what was said, the release where a thing debuted, arrived only
    # in a later release, a named release that changed a lot; не подскажешь, правда, именно,
    # проиндексирована, свежее, пришёл в одной из поздних версий
    ("I'm writing a migration guide; which quickq versions do the docs here cover?",
     "versions"),
    ("Any idea which quickq releases are in here?", "versions"),
    ("Got a rundown of quickq versions handy?", "versions"),
    ("Is it true that you only have two quickq versions? How many exactly?", "versions"),
    ("Got anything more recent than the quickq version you mentioned, or is that the newest?",
     "versions"),
    ("What's the quickq version where scheduled tasks debuted?", "since"),
    ("Is it true that scheduled tasks only arrived in a later quickq version? Which one?",
     "since"),
    ("Is it true that quickq 1.1.0 changed a lot? What exactly?", "changes"),
    ("Не подскажешь, какие релизы quickq тут есть?", "versions"),
    ("Правда, что у тебя всего две версии quickq? Сколько именно?", "versions"),
    ("quickq 1.1.0 проиндексирована в этой системе?", "versions"),
    ("Я пишу руководство по миграции; какая самая старая версия quickq есть в здешней "
     "документации?", "versions"),
    ("Есть что-то свежее той версии quickq, что ты назвал, или это самая новая?", "versions"),
    ("Правда, что scheduled tasks пришёл только в одной из поздних версий quickq? В какой?",
     "since"),
    # the forty-ninth and thirty-seventh Russian rounds: letting the asker see, pulling up, on
    # your end or side, picking up, when said by version, the release to thank, what was not
    # there before; «-ка», «на твоей стороне», «кол-во», «вытащить», «первой дала», «какому
    # релизу мы обязаны», «что меняет», «чего не было раньше»
    ("Let me see quickq's releases.", "versions"),
    ("Could you pull up the earliest quickq version?", "versions"),
    ("Which quickq version on your end came out last?", "versions"),
    ("When, version-wise, did quickq pick up scheduled tasks?", "since"),
    ("Which quickq release do I thank for scheduled tasks?", "since"),
    ("What's in quickq 1.1.0 that wasn't there before?", "changes"),
    ("Дай-ка глянуть на релизы quickq.", "versions"),
    ("Кол-во версий quickq у тебя?", "versions"),
    ("Есть шанс, что quickq 1.1.0 есть на твоей стороне?", "versions"),
    ("quickq: какая версия первой дала нам scheduled tasks?", "since"),
    ("Какому релизу quickq мы обязаны scheduled tasks?", "since"),
    ("Что меняет релиз 1.1.0 у quickq?", "changes"),
    ("Что есть в quickq 1.1.0, чего не было раньше?", "changes"),
    # the fiftieth and thirty-eighth Russian rounds: appreciating, knowing, at one's disposal,
    # put at one's disposal, the new things a release gives; «Буду благодарен», «Добрый
    # день», «Не могли бы вы», «в моём распоряжении», «доступен», «предоставила», «Какие новые
    # вещи … даёт?»
    ("I'd appreciate knowing the earliest quickq release you cover.", "versions"),
    ("Is quickq 1.1.0 at my disposal?", "versions"),
    ("Which quickq version put scheduled tasks at my disposal?", "since"),
    ("What new things does quickq 1.1.0 put at my disposal?", "changes"),
    ("Буду благодарен за список релизов quickq, которые вы охватываете.", "versions"),
    ("Добрый день! Не могли бы вы назвать самую старую задокументированную версию quickq?",
     "versions"),
    ("Какой наименьший номер версии quickq мне доступен?", "versions"),
    ("Есть ли quickq 1.1.0 в моём распоряжении?", "versions"),
    ("Какая версия quickq предоставила в моё распоряжение scheduled tasks?", "since"),
    ("Какие новые вещи quickq 1.1.0 даёт в моё распоряжение?", "changes"),
    # content beside them
    ("Буду рад узнать, как настроить ретраи в quickq 1.1.0.", None),
    ("Доступен ли воркер-пул в quickq 1.1.0?", None),
    ("I'd appreciate knowing how to retry a task in quickq 1.1.0.", None),
    ("How do I pull up a task's logs in quickq 1.1.0?", None),
    ("Which side of the queue does quickq 1.1.0 pop from?", None),
    ("Что меняет параметр retries в quickq 1.1.0?", None),
    ("How do I let a worker pick up scheduled tasks in quickq 1.1.0?", None),
    ("I'm on quickq 1.1.0; how do I set a timeout?", None),
    ("Any idea how to restart a worker in quickq 1.1.0?", None),
    ("Is it true that quickq 1.1.0 retries failed tasks three times?", None),
    ("Which broker is more reliable than Redis in quickq 1.1.0?", None),
    ("Правда, что quickq 1.1.0 перезапускает воркеры?", None),
    ("Is there no timeout by default in quickq 1.1.0?", None),
    ("What is the short form of a task id in quickq 1.1.0?", None),
    ("What does the quickq 1.1.0 guide say about retries?", None),
    ("Ok, how do I start a worker in quickq 1.1.0?", None),
    ("Ну и как настроить ретраи в quickq 1.1.0?", None),
    ("If I upgrade to quickq 1.1.0, will the new retry policy apply?", None),
    ("Which tasks are going to the dead-letter queue in quickq 1.1.0?", None),
    ("How do I go back to a previous task state in quickq 1.1.0?", None),
    ("Напомни, как запустить воркер в quickq 1.1.0?", None),
    ("Was the worker in quickq 1.1.0 started from the command line or added later?", None),
    ("Где лежит конфиг quickq 1.1.0?", None),
    ("Tell me about the quickq 1.1.0 worker.", None),
    ("How do I figure out which task failed in quickq 1.1.0?", None),
    ("Как понять, почему задача упала в quickq 1.1.0?", None),
    ("Какие изменения нужно внести в конфиг quickq 1.1.0?", None),
    ("Was the model trained on quickq 1.1.0 task logs?", None),
])
def test_the_classes_of_the_forty_third_to_fiftieth_sets_are_read(question, intent):
    """The forty-third to fiftieth rounds and the thirty-first to thirty-eighth Russian ones,
    each class with content beside."""
    assert _read(question) == intent


@pytest.mark.unit
@pytest.mark.parametrize("question, said, end", [
    ("Is quickq 1.1.0 the latest version?", "No. ", "2.0.0"),
    ("Is quickq 2.0.0 the latest?", "Yes. ", "2.0.0"),
    ("Is 1.0.0 really the first quickq version you have, or is there an older one?", "Yes. ",
     "1.0.0"),
    ("Версия quickq 1.1.0 последняя?", "Нет. ", "2.0.0"),
    ("quickq 1.1.0 — самая старая версия?", "Нет. ", "1.0.0"),
])
def test_a_release_said_to_be_one_end_of_the_line_is_answered_yes_or_no_with_that_end(
        question, said, end):
    """"Is 1.1.0 the latest?" had been answered "Yes: version 1.1.0 is one of the 3 versions":
    true of the release, false of what was asked."""
    declared = [Version("1.0.0"), Version("1.1.0"), Version("2.0.0")]
    named = next(v for v in ("1.0.0", "1.1.0", "2.0.0") if v in question)
    lang = Lang.RU if any("а" <= c <= "я" for c in question.lower()) else Lang.EN
    text, shown = line_text(read_said(question), ReleaseReading(version=named, said=named), declared,
                            "quickq", lang)
    assert text.startswith(said) and shown == [Version(end)]


@pytest.mark.unit
def test_a_release_the_line_lacks_said_to_be_one_end_is_answered_no_with_that_end():
    declared = [Version("0.13.3"), Version("0.14.3"), Version("0.28.1")]
    text, shown = line_text(read_said("Is 1.0 really the first httpx version you have?"),
                            ReleaseReading(unknown="1.0", said="1.0"), declared, "httpx",
                            Lang.EN)
    assert text.startswith("No. ") and "1.0" in text and "oldest version of httpx is 0.13.3" in text
    assert shown == [Version("0.13.3")]


@pytest.mark.unit
@pytest.mark.parametrize("question, one", [
    ("Is quickq 1.1.0 documented here at all?", True),
    ("Are all quickq versions documented here?", False),
])
def test_at_all_asks_of_one_release_and_all_of_the_line(question, one):
    declared = [Version("1.0.0"), Version("1.1.0"), Version("2.0.0")]
    reading = ReleaseReading(version="1.1.0", said="1.1.0") if one else ReleaseReading()
    _, shown = line_text(read_said(question), reading, declared, "quickq", Lang.EN)
    assert shown == ([Version("1.1.0")] if one else declared)


@pytest.mark.unit
@pytest.mark.parametrize("question, end", [
    ("Где заканчивается твоё покрытие quickq?", "latest"),
    ("Как далеко в прошлое уходит твоя документация по quickq?", "oldest"),
    ("Где начинается твоё покрытие quickq?", "oldest"),
    # going back in time turns where the coverage stops into its oldest end
    ("Going back in time, where does your quickq coverage stop?", "oldest"),
    ("Where does your quickq coverage stop?", "latest"),
    ("Если идти назад во времени, где заканчивается твоё покрытие quickq?", "oldest"),
])
def test_where_the_coverage_ends_or_how_far_back_it_goes_is_one_end_of_the_line(question, end):
    declared = [Version("1.0"), Version("2.0"), Version("3.0")]
    _, shown = line_text(read_said(question), ReleaseReading(), declared, "quickq", Lang.RU)
    assert shown == [declared[-1] if end == "latest" else declared[0]]


@pytest.mark.unit
@pytest.mark.parametrize("question", [
    "List every release, oldest first.", "Show the versions in chronological order.",
    "Перечисли релизы, начиная со старых.",
    # which end of a list is the oldest depends on the list (a changelog runs newest first):
    # the whole line is shown, its order said
    "Which version sits at the start of the list?", "Which version is at the bottom of your list?",
    "Какая версия стоит в конце списка?"])
def test_a_listing_asked_in_an_order_or_a_place_in_a_list_shows_the_whole_line(question):
    declared = [Version("1.0"), Version("2.0"), Version("3.0")]
    text, shown = line_text(read_said(question), ReleaseReading(), declared, "quickq", Lang.EN)
    assert shown == declared and text.startswith("quickq has 3 versions, oldest first")
    assert line_text(read_said("What is the oldest version?"), ReleaseReading(), declared, "quickq",
                     Lang.EN)[1] == [Version("1.0")]


@pytest.mark.unit
@pytest.mark.parametrize("question, line", [
    ("btw which quickq versions can you answer about", True),
    ("By the way, which quickq releases do you have?", True),
    ("Oh, and fyi: how many quickq versions do you know?", True),
    ("btw which quickq versions support retries?", False),
    # the asker unsure, or told something (the sixty-second round's misses)
    ("I'm not sure how far back your quickq docs go. Which release is the first you have?",
     True),
    ("I was told your quickq coverage stops at some release. Which one?", True),
    ("I'm not sure which quickq versions retry failed tasks.", False),
    ("Which quickq versions also have a scheduler?", False)])
def test_words_said_in_passing_leave_a_question_about_the_line(question, line):
    """"btw", "by the way", "I'm not sure", "I was told" ask nothing: without them the line is
    listed, not one family of documents ("btw which httpx versions can you answer
    about" got one family's)."""
    assert about_the_line(question.replace("quickq", " "), question) is line


_NEWEST = "quickq has 3 versions, newest first: 3.0, 2.0, 1.0."


@pytest.mark.unit
@pytest.mark.parametrize(("question", "lang", "said"), [
    ("Which quickq versions do you have, newest first?", Lang.EN, _NEWEST),
    ("List every release in reverse chronological order.", Lang.EN, _NEWEST),
    ("Could I get the list, latest to earliest?", Lang.EN, _NEWEST),
    ("Give me the releases from most recent to oldest.", Lang.EN, _NEWEST),
    ("Перечисли версии quickq, начиная с последней.", Lang.RU,
     "Версии quickq (3, от последней к ранней): 3.0, 2.0, 1.0."),
    ("Which quickq versions do you have, oldest first?", Lang.EN,
     "quickq has 3 versions, oldest first: 1.0, 2.0, 3.0.")])
def test_a_listing_asked_newest_first_runs_backwards_and_says_so(question, lang, said):
    declared = [Version("1.0"), Version("2.0"), Version("3.0")]
    text, shown = line_text(read_said(question), ReleaseReading(), declared, "quickq", lang)
    assert text == said
    assert [str(v) for v in shown] == said.rstrip(".").split(": ")[1].split(", ")


@pytest.mark.unit
@pytest.mark.parametrize("fact", [LineFact.OLDEST, LineFact.LATEST])
def test_an_order_the_words_ask_for_is_not_overridden_by_a_fact_read_from_meaning(fact):
    # the reading by meaning took "…, oldest first" for the oldest release
    declared = [Version("1.0"), Version("2.0"), Version("3.0")]
    for question in ("Which quickq versions do you have, oldest first?",
                     "Which quickq versions do you have, newest first?"):
        _, shown = line_text(read_said(question), ReleaseReading(), declared, "quickq", Lang.EN, fact)
        assert sorted(shown) == declared
    # with no order asked, the fact read from meaning still decides a whole-line word
    _, shown = line_text(read_said("Which quickq versions do you have?"), ReleaseReading(), declared,
                         "quickq", Lang.EN, fact)
    assert shown == [declared[0] if fact is LineFact.OLDEST else declared[-1]]
