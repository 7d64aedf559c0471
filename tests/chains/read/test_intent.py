"""What a question asks for, read from its words (`chains.read.intent`): one table of phrasings
and the intent the rules must give, English and Russian. Each round of held-out phrasings
(`benchmarks/questions/versions/`) added its misses here as classes, beside the content
questions the classes must leave alone. The index's names are taken out first, as the reader
does (`unnamed`: here the product quickq)."""

from __future__ import annotations

import pytest

from situated.chains.read.intent import find_intent


@pytest.mark.unit
@pytest.mark.parametrize(("question", "intent"), [
    # about a moment, about change, or about the versions of a document
    ("Что изменилось в тарифе Старт с 1 апреля 2026?", "changes"),
    ("What changed in Le Chat's commercial terms in 2025?", "changes"),
    ("When did the return period of Старт change?", "changes"),
    ("What's new in the privacy policy?", "changes"),
    ("Has the battery warranty changed since 2025?", "changes"),
    ("Какие изменения в правилах возврата?", "changes"),
    ("Изменился ли срок возврата?", "changes"),
    ("List the versions of the privacy policy", "versions"),
    ("Which versions of the C-3 warranty exist?", "versions"),
    ("Покажи все версии тарифа Старт", "versions"),
    ("Какие редакции правил возврата были?", "versions"),
    ("Can I change the battery myself?", None),
    ("What battery warranty applies to a C-3 bought on 15 March 2026?", None),
    ("The bike was bought on 10 Jan 2026; can I change the battery on 3 March 2026?", None),
    ("What does version 2 of the warranty say about water?", None),
    ("Were there changes to the returns policy in 2025?", "changes"),
    ("Изменения в тарифе Старт с марта?", "changes"),
    # changes someone makes or announces: what the text says about them (PolicyQA's own
    # questions were answered as a version history)
    ("Will they inform me if they make privacy relevant changes in their policy?", None),
    ("Am I allowed to make changes in my account data?", None),
    ("Do you notify me the changes of privacy policy by posting notice on your website?", None),
    ("Вносите ли вы изменения в политику без уведомления?", None),
    # the changelog asked for, or asked what it says (content: its notes are searched)
    ("Show me the changelog of the return rules.", "changes"),
    ("What's in the changelog for 2025?", "changes"),
    ("What does the changelog say about zstd in httpx?", None),
    ("Does the changelog mention the Redis crash?", None),
    # classes of words a fresh round of phrasings showed unread (the eighth): nouns of change,
    # a release's news, what a release brought, a debut, order words ("freshest", "initial",
    # "how far back"), the asker's holdings ("material", "on file")
    ("Which modifications does version 1.1.0 include?", "changes"),
    ("What's the news in release 1.1.0?", "changes"),
    ("What did version 2.0.0 bring?", "changes"),
    ("What did the courier bring?", None),
    ("In which version did scheduled tasks make their debut?", "since"),
    ("What's the freshest version you've indexed?", "versions"),
    ("Name the initial version you have material for.", "versions"),
    ("How far back do your docs go?", "versions"),
    ("How recent are your docs?", "versions"),
    ("What is the initial delay before a retry?", None),
    # and the ninth round's, after it was asked once
    ("List what version 1.1.0 changed.", "changes"),
    ("Which releases can I pick from?", "versions"),
    ("Which version is the most up to date one you have?", "versions"),
    ("How do I go back to version 1.0.0?", None),
    ("What is the release date of version 1.1.0?", None),
    # the seventh round's and the sixth's, long dev
    ("Run me through the releases you know.", "versions"),
    ("Where does your coverage begin?", "versions"),
    ("Up to which version do you go?", "versions"),
    ("Which updates came with version 1.1.0?", "changes"),
    ("When did the scheduler start supporting cron syntax?", "since"),
    ("Where does the warranty begin?", None),
    ("Which updates are available for my bike?", None),
    ("Up to which age do children travel free?", None),
    # change named, something else asked: the value it became, how changes are told
    ("To what gauge have some lines been changed in the west?", None),
    ("What changes in your privacy policy are being informed to the users?", None),
    ("Will you notify me for non-privacy relevant changes in the policy?", None),
    ("What changes were made in version 2.0?", "changes"),
    # the least release that has something (the eighth round's last miss); another name
    # between asks what that release needs
    ("What's the minimum version that has scheduled tasks?", "since"),
    ("What's the minimum Python version that the client needs?", None),
    # the line in people's words (the names the index knows are taken out by `unnamed`)
    ("How many Node.js versions are you aware of?", "versions"),
    ("What is the oldest Apache Spark version in the system?", "versions"),
    ("Does the Apache version 20.19.0 exist in the system?", "versions"),
    ("Which quickq release is the oldest one you have?", "versions"),
    ("Do you know quickq 1.1.0?", "versions"),
    ("Earliest quickq release?", "versions"),
    ("Какой самый новый релиз quickq у вас есть?", "versions"),
    ("Which version of quickq came first?", "versions"),
    # first appearance in other verbs
    ("With what Node.js version was error code ERR_ACCESS_DENIED added?", "since"),
    ("Since when are the modules imported with node: syntax?", "since"),
    ("When did quickq get scheduled tasks?", "since"),
    ("Which is the first version that has zstd content decoding?", "since"),
    # a change, a version's dots inside the sentence
    ("What did version 1.1.0 change?", "changes"),
    ("Which changes does release 1.1.0 bring?", "changes"),
    ("What is new in version 2.0?", "changes"),
    # not about versions: content, a reply naming a release, a section number
    ("How do I set a timeout in version 0.18.2?", None),
    ("What does the guide say about timeouts in 2.0?", None),
    ("2.0", None),
    ("What is section 4.2 about?", None),
    ("What version should I use?", None),
    ("Is 2.5 kg the limit?", None),
    # a tenth round's classes: "anything" asked of a release, the least release "for" a
    # thing, what a release fixed, its notes asked for, the release before it
    ("Got anything on quickq 1.1.0?", "versions"),
    ("Which editions of quickq does this assistant have material for?", "versions"),
    ("What's the minimum quickq version for scheduled tasks?", "since"),
    ("Which quickq versions support Python 3.12?", "since"),
    ("What did quickq 1.1.0 fix or add?", "changes"),
    ("Release notes for quickq 1.1.0, please.", "changes"),
    ("How does quickq 1.1.0 differ from the version before it?", "changes"),
    # an eleventh round's: the release one needs for a thing, what a release fixed
    ("What quickq version do I need for scheduled tasks?", "since"),
    ("What was fixed in quickq 1.1.0?", "changes"),
    ("What was fixed in the contract?", None),
    ("What Python version do I need for quickq?", None),
    # a twelfth round's: what the documentation spans
    ("How many quickq releases does your documentation span?", "versions"),
    # a thirteenth's: the first release "of" the product, where the list starts
    ("What's the first release of quickq that supports scheduled tasks?", "since"),
    ("What quickq version comes first in your list?", "versions"),
    # Russian, a first round's: the line in people's words
    ("Какая самая ранняя версия quickq описана?", "versions"),
    ("По каким версиям quickq есть документация?", "versions"),
    ("Какое количество версий quickq описано?", "versions"),
    ("С какой версии quickq начинается документация?", "versions"),
    ("Есть документация по quickq 1.1.0?", "versions"),
    ("Начиная с какого релиза quickq поддерживает scheduled tasks?", "since"),
    ("Что добавили в quickq 1.1.0?", "changes"),
    ("Что добавили в тариф Старт?", None),
    ("Какие изменения в релизе 1.1.0?", "changes"),
    # a fourteenth round's and a second Russian one's
    ("Which releases of quickq do you have on hand?", "versions"),
    ("Число версий quickq в базе?", "versions"),
    ("Назови все версии quickq, которые ты знаешь.", "versions"),
    ("Можно спросить про quickq 1.1.0?", "versions"),
    ("Какая версия quickq первой получила scheduled tasks?", "since"),
    ("Какое подразделение НАСА первым поддержало выбор техники?", None),
    ("В каком релизе quickq появились scheduled tasks?", "since"),
    ("Какие нововведения в quickq 1.1.0?", "changes"),
    ("Расскажи об изменениях в quickq 1.1.0.", "changes"),
    ("С какой версии quickq есть scheduled tasks?", "since"),
    ("Какие изменения в версии 1.1.0?", "changes"),
    ("Перечисли все релизы quickq.", "versions"),
    ("Когда заканчивается гарантия?", None),
    # a fifteenth round's and a third Russian one's
    ("Give me the full list of quickq releases.", "versions"),
    ("Перечисли версии quickq, пожалуйста.", "versions"),
    ("Какие версии quickq охвачены?", "versions"),
    ("Ты знаешь что-нибудь о quickq 1.1.0?", "versions"),
    ("Когда quickq начал поддерживать scheduled tasks?", "since"),
    ("Чем отличается quickq 1.1.0?", "changes"),
    ("Чем quickq 1.1.0 отличается от предыдущей версии?", "changes"),
    ("Чем отличается тариф Старт от тарифа Плюс?", None),
    ("Какой тариф сейчас актуальный?", None),
    # a sixteenth round's and a fourth Russian one's: the words of asking by closed class
    ("Tell me the oldest quickq release you can talk about.", "versions"),
    ("Which quickq version is the starting point of your docs?", "versions"),
    ("Which quickq version made scheduled tasks possible?", "since"),
    ("О каких релизах quickq ты можешь рассказать?", "versions"),
    ("Каково число релизов quickq?", "versions"),
    ("С какой версии quickq начинаются твои данные?", "versions"),
    ("Какая версия quickq впервые поддерживает scheduled tasks?", "since"),
    ("Что было исправлено в quickq 1.1.0?", "changes"),
    ("Список изменений quickq 1.1.0?", "changes"),
    ("What does the quickq index say about `0.14.*` in version 1.1.0?", None),
    ("What is the endpoint for uploads in quickq 1.1.0?", None),
    # a seventeenth round's and a fifth Russian one's
    ("Have you heard of quickq 1.1.0?", "versions"),
    ("Could you check whether you have quickq 1.1.0?", "versions"),
    ("What's the first quickq version where scheduled tasks works?", "since"),
    ("Проверь, есть ли у тебя quickq 1.1.0.", "versions"),
    ("Какие обновления пришли с quickq 1.1.0?", "changes"),
    ("Мне нужен список версий quickq.", "versions"),
    ("Do I need version 1.1.0 if I use Python 3.8?", None),
    ("Какие обновления безопасности нужны?", None),
    # an eighteenth round's and a sixth Russian one's
    ("Можешь ответить про quickq 1.1.0?", "versions"),
    ("Есть информация о quickq 1.1.0?", "versions"),
    ("Какая версия quickq добавила scheduled tasks?", "since"),
    ("Какой релиз quickq принёс scheduled tasks?", "since"),
    ("Какие исправления вошли в quickq 1.1.0?", "changes"),
    ("Какие версии quickq ты поддерживаешь?", "versions"),
    ("Are you able to answer about quickq 1.1.0?", "versions"),
    ("Which fixes and features are in quickq 1.1.0?", "changes"),
    ("Which features does quickq 1.1.0 have?", None),
    ("Какая информация была собрана?", None),
    # the nouns of what a release changed, and the verbs of coming out, as classes
    ("Any improvements in quickq 1.1.0?", "changes"),
    ("What are the highlights of quickq 1.1.0?", "changes"),
    ("Какие улучшения в quickq 1.1.0?", "changes"),
    ("Which fixes does the plumber offer?", None),
    ("Which quickq version was released last?", "versions"),
    ("Какая версия quickq выпущена первой?", "versions"),
    # a date asked: the text tells it
    ("When was quickq 1.1.0 released?", None),
    ("Когда вышла версия quickq 1.1.0?", None),
    # a nineteenth round's and a seventh Russian one's: the Russian interrogatives' whole
    # paradigm («какими»), documenting and being found, the initial release, release notes,
    # differences, becoming part of, the first release in which a thing is
    ("С какими версиями quickq ты знаком?", "versions"),
    ("Сколько релизов quickq задокументировано?", "versions"),
    ("Найдётся ли у тебя quickq 1.1.0?", "versions"),
    ("Какая первая версия quickq, в которой есть scheduled tasks?", "since"),
    ("Когда scheduled tasks стали частью quickq?", "since"),
    ("Что в примечаниях к выпуску quickq 1.1.0?", "changes"),
    ("Покажи отличия quickq 1.1.0.", "changes"),
    ("Show the differences introduced by quickq 1.1.0.", "changes"),
    ("When did scheduled tasks become part of quickq?", "since"),
    ("What are the differences between plans?", None),
    ("Какими документами подтверждается личность?", None),
    # a twentieth round's and an eighth Russian one's: holding verbs ("track", "listed",
    # «располагаешь»), hedges ("roughly"), the list's paradigm («в списке»), all prepositions
    # («из версий»), where the list opens and closes, the earliest release with a thing
    ("Roughly how many quickq releases do you know?", "versions"),
    ("How many quickq releases do you track?", "versions"),
    ("Is quickq 1.1.0 listed?", "versions"),
    ("What's the oldest quickq release that supports scheduled tasks?", "since"),
    ("Give a summary of what quickq 1.1.0 changed.", "changes"),
    ("Сколько релизов quickq в списке?", "versions"),
    ("Какая из версий quickq самая старая?", "versions"),
    ("Располагаешь ли ты версией quickq 1.1.0?", "versions"),
    ("Какой самый ранний релиз quickq с scheduled tasks?", "since"),
    ("How do I keep track of failed jobs?", None),
    ("Which cities are on the list?", None),
    ("Во сколько открывается магазин?", None),
    ("Какой самый ранний рейс с пересадкой?", None),
    # a twenty-first round's and a ninth Russian one's: the release as the one that added a
    # thing, and not the asker ("Which version should I add …?"); records, «входит», «известен»
    ("In which version did quickq add scheduled tasks?", "since"),
    ("Which release of quickq gave us scheduled tasks?", "since"),
    ("Which version should I add to my requirements?", None),
    ("What's the difference between quickq 1.1.0 and the version before?", "changes"),
    ("Does quickq version 1.1.0 appear anywhere?", "versions"),
    ("Входит ли quickq 1.1.0 в базу?", "versions"),
    ("Тебе известен релиз quickq 1.1.0?", "versions"),
    ("Какой релиз quickq первым включил scheduled tasks?", "since"),
    ("Что обновили в quickq 1.1.0?", "changes"),
    ("Что входит в тариф?", None),
    ("Where does the version number appear?", None),
    # needing a list asks for it; needing a version, or keeping one, asks which to use
    ("I need a list of quickq versions.", "versions"),
    ("Which version do I need?", None),
    ("Какая версия мне нужна?", None),
    ("Can I keep version 1.1.0?", None),
    # a quoted phrase is what is looked for, not a cue; a quoted name stays
    ("What does the index say about “release includes some improvements” in 1.1.0?", None),
    ("What changed in \"Premium Plus\"?", "changes"),
    # a version of another thing the product needs, and what changes need: content
    ("What's the minimum Python version for quickq?", None),
    # the Russian words of holding as the English list has them, and "things" beside "stuff"
    ("Какие релизы quickq есть в твоей библиотеке?", "versions"),
    ("Какой релиз quickq здесь самый новый?", "versions"),
    ("Сколько разных версий quickq ты каталогизировал?", "versions"),
    ("What quickq version did things start with?", "versions"),
    ("Какие библиотеки есть в quickq?", None),  # no release word: content
    ("Что принесла версия quickq 1.1.0?", "changes"),
    ("Что ввели в quickq 1.1.0?", "changes"),
    ("Что принёс курьер?", None),  # no release: anyone's
    ("Что общего у quickq 1.0.0 и 2.0.0?", None),
    ("Which Python versions does quickq support?", None),
    ("What does version 1.1.0 have for retries?", None),
    ("What do the release notes say about retries?", None),
    ("Which changes to a booking require a fee?", None),
    ("Какие изменения в конституции требуют особой процедуры?", None),
])
def test_intent_is_read_from_the_question_words(question, intent):
    got = find_intent(question, lambda t: t.replace("quickq", " "))
    assert (got.value if got else None) == intent
