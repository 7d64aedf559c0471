"""The words of questions about versions, by class (`chains.read.intent` reads them): the words
of asking, which leave nothing when a question is about the release line itself, the words that
order releases, and the nouns of what a release changed. Classes are written whole, in all
their forms (a pronoun's, an interrogative's, a noun's cases), never as the phrasings a round of
held-out questions showed (docs/design.md "The words of asking as closed classes")."""

# the words of asking, by closed class and in all their forms, so that a phrasing nobody wrote
# down still leaves nothing ("Tell me the oldest quickq release you can talk about", «О каких
# релизах quickq ты можешь рассказать?»): pronouns, auxiliaries and modals, verbs of telling
# and knowing, of holding and covering, where it is held, how many or how whole, and politeness
# (not what a text says: "What does the index say about `0.14.*`?" asks of the text)
ASKING_EN = (
    r"i|me|my|mine|you|your|yours|yourself|we|us|our|ours|it|its|they|them|their|this|these|"
    r"those|that|one|ones|s|d|ve|re|ll|m|i'd|"
    r"am|is|are|was|were|be|been|being|do|does|did|have|has|had|can|could|may|might|must|"
    r"shall|should|will|would|"
    r"tell|tells|told|telling|talk|talks|speak|speaks|mention(?:s|ed)?|share|"
    r"list|name|enumerate|itemi[sz]e|tally|show|give|spell|lay|out|run|through|down|overview|"
    r"rundown|know|walk|walks|take|takes|guide|"
    r"knows|known|aware|remember|recall|see|look|up|find|query|search|browse|consult|check|"
    # keeping, storing and hosting them, as holding ("Which versions do you keep?"); the asker's
    # keeping is not asking ("Can I keep version 1.1.0?" asks whether to stay on it)
    r"(?<=you\s)(?:keep|kept|store)|kept(?=\s+(?:here|on\s+file))|hosts|hosted|"
    # loaded into the system, where a release sits, and the preface "Before I ask: …"
    r"loaded|uploaded|ingested|sit|sits|sitting|before(?=\s+(?:i|we)\s+ask)|"
    # greetings, the names of the versions, "or not", a few, whether it is possible ("Hey, …",
    # "1.1.0 — covered or not?", "I'd like to ask about 1.1.0, is that possible?")
    r"hi|hello|hey|greetings|names|or|not|few|possible|"
    # what the assistant was given or has seen ("the versions you've been fed", "… you've
    # seen"), and a quick check ("Quick check, 1.1.0 is covered, right?")
    r"seen|fed|given|quick|right|"
    # shown, ingested, actually, within the range ("Display the versions available", "How many
    # releases did you ingest?", "Is 1.1.0 within your range?")
    r"display|ingest|actually|within|"
    # collected, minding, listing ("the versions you've collected", "Mind listing …?")
    r"collected|collect|gathered|mind|listing|"
    # the idioms of knowing a thing: being across it, versed, conversant, acquainted, clued up,
    # up to speed ("Are you across 1.1.0?", "the versions you're well versed in")
    r"(?:(?<=you\s)|(?<=re\s)|(?<=be\s))across|versed|well(?=[\s-]versed)|conversant|acquainted|"
    r"clued|speed|"
    # the verbs of providing (as "give", "share": "Kindly provide the releases you can speak
    # to"), getting into the docs ("Which versions made it into your docs?"), and the negated
    # auxiliaries of a tag question ("You don't happen to have 1.1.0, do you?")
    r"provide|provides|provided|supply|supplies|furnish|produce|send|into|"
    # what the assistant was trained or taught on, and the asker working it out ("every
    # release this assistant was trained on", "I'm trying to figure out which …")
    r"trained|taught|trying|figure|"
    # reminding ("Remind me which versions you've got docs on")
    r"remind|reminding|recap|"
    # the markers of talk ("Long story short, …", "Basically, …", "Well, …", "OK, …"), yes or
    # no, what the assistant would say or answer ("If I asked you …, what would you say?"; what
    # a text says is content), needing to know, going (as "go")
    r"story|short|basically|anyway|honestly|tldr|okay|ok|well(?=\s*,)|yes|yeah|yep|no|nope|"
    # … and written short or said in passing ("btw which versions can you answer about", "By the
    # way, …", "fyi", "Oh, and …"); "also" asks for more of what was asked; the asker unsure
    # ("I'm not sure how far back your docs go. Which release is the first you have?")
    r"btw|fyi|tbh|imo|also|oh|hmm|(?<=the\s)way|sure|unsure|certain|uncertain|"
    r"(?<=you\s)(?:say|reply|respond)|need(?=\s+to\s+know\b)|going|"
    # any idea, handy, whether it is true, really, only, and the numbers an asker guesses ("Any
    # idea which releases are in here?", "Is it true that you only have two versions?")
    r"(?<=any\s)idea|(?<=no\s)idea|handy|true|correct|really|truly|indeed|only|two|three|four|"
    r"five|six|seven|eight|nine|ten|dozen|"
    # a comparison with what was said ("Got anything more recent than the version you
    # mentioned?")
    r"more|than|"
    # letting the asker see, pulling the list up, on your end or side ("Let me see the
    # releases", "Could you pull up the list?", "Do you have 1.1.0 on your end?")
    r"let|lemme|pull(?=\s+(?:up|out)\b)|pulling|(?<=your\s)(?:end|side)|"
    # appreciating, knowing, at one's disposal ("I'd appreciate knowing …", "at my disposal")
    r"appreciate|appreciated|knowing|(?<=my\s)disposal|(?<=your\s)disposal|"
    r"(?:make|makes|made|making)(?=\s+it\s+(?:in|into|onto)\b)|"
    r"don|doesn|didn|isn|aren|wasn|weren|haven|hasn|hadn|wouldn|couldn|shouldn|(?<=['’])t|"
    r"read|access|ask|asked|answer|answers|help|pick|choose|select|want|like|hear|heard|"
    # needing a list is asking for it; needing a version is asking which to use
    r"need(?=\s+(?:a\s+|the\s+)?(?:full\s+|complete\s+)?(?:list|overview|rundown|count|number|"
    r"names)\b)|"
    r"familiar|whether|if|able|released|shipped|published|launched|issued|ship|publish|"
    r"launch|real|actual|valid|genuine|set|sets|size|history|times|by|looking|looks|so|far|"
    r"yet|till|until|to\s+date|order|ordered|sequence|numbers|"
    r"track|tracks|tracked|listed|lists|maintain(?:s|ed)?|logged|catalog(?:ue)?d?|"
    # how big the line is ("How big is your version history?", as "size")
    r"big|large|long|length|"
    r"roughly|approximately|around|precisely|overall|ever|anywhere|somewhere|appear|appears|"
    r"hold|holds|contain|contains|include[sd]?|carry|carries|offer|offers|cover|covers|"
    r"covered|coverage|support|supports|supported|handle[sd]?|stored|indexed|documented|"
    r"available|availability|exist|exists|existing|get|got|gotten|came|come|comes|go|goes|"
    r"span|spans|range|ranges|reach|reaches|extend|extends|(?:catch|catches|caught|catching)\s+up|"
    r"hand|on|in|here|there|among|at|with|"
    r"for|to|of|about|"
    r"system|database|index|corpus|docs|doc|documentation|documents?|"
    # the asker's files, records and sources, not what a release reads ("What files does
    # quickq 1.1.0 read?")
    r"(?:(?<=your\s)|(?<=these\s)|(?<=our\s)|(?<=the\s)|(?<=my\s)|(?<=on\s)|(?<=in\s))"
    r"(?:files?|records?|sources?)|"
    r"called|named|numbered|"
    r"knowledge|base|collection|library|material|materials|information|info|questions?|"
    r"assistant|service|bot|chatbot|tool|stuff|thing|things|anything|something|"
    r"all|every|each|any|some|many|much|number|count|total|different|full|complete|entire|"
    r"whole|how|which|what|the|a|an|very|just|exactly|"
    r"oldest|earliest|first|latest|newest|last|most|recent|current|up-to-date|lowest|highest|"
    r"smallest|biggest|greatest|maximum|minimum|max|min|top|newer|older|start|starts|begin|"
    r"begins|freshest|final|initial|original|ancient|"
    r"please|kindly|thanks|thank|wonder|wondering|curious|now|currently|presently|today|"
    r"happen|"
    # whose knowledge it is: "according to you", "in your view", "as far as you know", "per
    # your docs", "do you think"
    r"according|view|opinion|per|as|think|believe|reckon|guess|own|"
    # an inventory or a roster of the line (as "list"), the way people text ("whats the latest
    # quickq u have"), where the asker runs it, said before the question ("We run quickq 1.1.0
    # in production, do you cover it?"; "How do I run it in production?" asks of it), and
    # working with it ("Which versions does the assistant work with?")
    r"inventory|roster|line-?up|whats|u|ur|(?<=in\s)(?:production|prod)(?=[^?!,]{0,40},)|"
    r"(?<=you\s)work|"
    r"work(?:s|ing)?(?=\s+(?:with|on|for)\b)|"
    # how distinct the releases are ("How many distinct releases?"), the docs brought up to
    # date ("the one you updated to last"), the asker stuck on one ("I'm stuck on 1.1.0")
    r"distinct|separate|unique|individual|(?:(?<=you\s)|(?<=last\s))updated|"
    r"stuck(?=\s+(?:on|with|at)\b)|"
    # flavours of the line, "version-wise", out of curiosity, any chance, broken down; the
    # asker's team and its use, said before the question ("My team uses quickq 1.1.0; is it in
    # your set?"; "How do I use quickq 1.1.0?" asks of it)
    r"flavou?rs?|(?<=-)wise|curiosity|chance|breakdown|break(?=\s+(?:it\s+|them\s+)?down\b)|"
    r"(?:team|company|colleagues|department|use|uses|using|run|runs|running)"
    r"(?=[^?!;,.]{0,40}[;,])")
# a release, in Russian: «версия», «релиз», «выпуск», «сборка» (its genitive plural «сборок»),
# in all their forms (the English "version", "release", "build")
RU_RELEASE_NOUNS = r"(?:верси|релиз|выпуск|сборк|сборок)\w*"


# the rest of the line beside one release ("before all the others", "after every other one",
# "older than any other release")
_ALL_OTHERS = (r"(?:all|every|any)\s+(?:the\s+)?(?:others|rest|other(?:\s+(?:ones?|versions?|"
               r"releases?|builds?))?)")


# a listing asked in an order ("List every release, oldest first", «Перечисли релизы, начиная со
# старых»): the whole line, in that order, not one release, whatever else the question is read as.
# One pattern per end put first: `NEWEST_FIRST` lists backwards, `ORDER_NAMED` is either.
def _put_first(first: str, last: str, order: str, ru_first: str) -> str:
    """An order that puts `first` at the head of the list: "`first` first", "in `order` order",
    "(from) `first` to `last`", «начиная с `ru_first`…», «от `ru_first`… к …»."""
    return (rf"\b(?:{first})\s+first\b|\bin\s+(?:{order})\s+order\b|"
            rf"\b(?:from\s+)?(?:{first})\s+to\s+(?:{last})\b|"
            rf"(?<!\w)начиная\s+(?:со?|от)\s+(?:сам\w*\s+)?(?:{ru_first})\w*|"
            rf"(?<!\w)от\s+(?:{ru_first})\w*\s+к\s+\w+")


_NEWEST_END, _OLDEST_END = r"newest|latest|most\s+recent|highest", r"oldest|earliest|lowest"
# "Which versions do you have, newest first?", "in reverse chronological order", «начиная с
# последней»: the listing runs backwards
NEWEST_FIRST = _put_first(_NEWEST_END, _OLDEST_END,
                          r"reverse\s+(?:chronological|release)|descending", r"нов|поздн|последн")
ORDER_NAMED = NEWEST_FIRST + "|" + _put_first(_OLDEST_END, _NEWEST_END,
                                              r"chronological|ascending|release", r"стар|ранн|перв")
# … or a place in a list: which end is the oldest depends on the list (a changelog runs newest
# first), so the rules show the whole line ("Which version sits at the start of the list?",
# «Какая версия стоит в конце списка?»); a reading by meaning may still say which end
LISTING_ORDER = (ORDER_NAMED + "|"
                 r"\b(?:sits?|stands?|is|comes?)?\s*(?:at|on|in)\s+the\s+(?:very\s+)?(?:start|"
                 r"beginning|top|head|end|bottom|tail)\s+of\s+(?:the|your|its|this)\s+list"
                 r"(?=\s*[?.!]?\s*$)|"  # the list the question ends on, not one in the text
                 r"(?<!\w)(?:(?:стоит|стоят|находится|идёт|идет)\s+)?(?:в|на)\s+(?:самом\s+)?"
                 r"(?:начале|конце|верху|низу|верхушке)\s+списка(?=\s*[?.!]?\s*$)")

# words that order releases, newest and oldest (`release_history` reads which fact is asked
# with them, and with the commoner "last", "first", "current", "initial" beside them): with
# nothing else named, one asks about the line ("Which is the latest quickq you hold?" names no
# version word; "How far back do your docs go?", "How recent are your docs?")
NEWEST_WORDS = (r"latest|newest|freshest|most\s+recent(?:ly)?|most\s+current|highest|up-to-date|"
                r"very\s+last|(?:top|upper|high)\s+end|upper\s+(?:bound|limit)|closes?\s+with|"
                # its tail ("Which version is last in line?")
                r"last\s+in\s+(?:the\s+)?(?:line|order|sequence|queue|row)|"
                r"up\s+to\s+date|how\s+(?:recent|new|current)|up\s+to\s+(?:which|what)|"
                r"(?:go|goes|run|runs|reach|reaches|extend|extends)\s+up\s+to|"
                r"(?:end|ending|finishing)\s+point|(?:end|ends|ended|finish|finishes|finished|stop|"
                r"stops|stopped)\s+(?:up\s+|off\s+|out\s+)?(?:at|with)|"
                r"where\s+(?:does|do)\s+(?:your|the|[\w.+-]*['’]s)\s+(?:[\w.+-]+\s+){0,2}"
                r"(?:coverage|docs|"
                r"documentation|documents|index|material|records|list|line|history)\s+"
                r"(?:(?:you|we|they|i)\s+\w+\s+)?(?:end|finish|stop)s?(?:\s+(?:at|with))?|"
                r"(?:after|later\s+than|newer\s+than|more\s+recent\s+than|postdates?)\s+"
                + _ALL_OTHERS + "|"
                # past the end the asker was told of ("Is there anything newer than your current
                # release?")
                r"(?:newer|later|more\s+recent|fresher)\s+than\s+(?:your|the|this)\s+"
                r"(?:current|latest|newest|last)")
OLDEST_WORDS = (r"oldest|earliest|lowest|most\s+ancient|most\s+(?:out)?dated|very\s+first|"
                # going back in time (`BACKWARD_WORDS`)
                r"(?:going|looking|counting|moving|travell?ing)\s+back(?:wards?)?"
                r"(?:\s+in\s+time)?|(?:go|look|count|move)\s+back(?:wards?)?\s+in\s+time|"
                r"backwards?\s+in\s+time|"
                # how old the oldest is ("How old is the oldest quickq you hold?"; "How old is
                # quickq 1.0.0?" asks a date and stays content)
                r"how\s+old\s+(?:is|was|are)\s+(?:the|your)\s+(?:very\s+)?(?:oldest|earliest|"
                r"first)|"
                # the head of the line or the order ("Which version is first in line?")
                r"first\s+in\s+(?:the\s+)?(?:line|order|sequence|queue|row)|"
                r"opens?\s+with|"
                r"(?:bottom|lower|low)\s+end|lower\s+(?:bound|limit)|"
                # a question that ends where the line begins ("From which release does your
                # coverage start?")
                r"(?:start|starts|begin|begins)(?=\s*[?.!]?\s*$)|"
                r"(?:furthest|farthest)\s+back|back\s+(?:the\s+)?(?:furthest|farthest)|"
                r"(?:furthest|farthest)\s+in\s+(?:the\s+)?past|"
                r"least\s+(?:recent|new|current|fresh|up[\s-]to[\s-]date)|"
                # the verb after it is a word of asking, the subject between is not ("How far
                # back does scheduled tasks go?" has one)
                r"how\s+far\s+back|"
                r"(?:date|dates)\s+back|(?:date|dates|dated|dating)\s+from|"
                r"where\s+(?:does|do)\s+(?:your|the|[\w.+-]*['’]s)\s+"
                r"(?:[\w.+-]+\s+){0,2}(?:coverage|docs|documentation|documents|index|material|"
                r"records|list|line|history)\s+(?:(?:you|we|they|i)\s+\w+\s+)?(?:start|begin)s?"
                r"(?:\s+(?:at|with|from))?|"
                r"(?:start|starts|started|begin|begins|began)\s+(?:out\s+|off\s+)?(?:at|with|from)|"
                r"(?:starting|start)\s+point|baseline|"
                r"(?:before|earlier\s+than|older\s+than|predates?)\s+" + _ALL_OTHERS + "|"
                r"(?:older|earlier)\s+than\s+(?:your|the|this)\s+(?:first|oldest|earliest)|"
                # where it all began ("Which release started it all?")
                r"(?:started|began|kicked\s+off)\s+(?:it\s+all|everything|things\s+off)")
# going back in time, which turns where the documents end into where they begin ("Going back
# in time, where does your coverage stop?", «Если идти назад во времени, где заканчивается твоё
# покрытие?»): read before the words of the newest end (`release_history`)
BACKWARD_WORDS = (r"\b(?:going|looking|counting|moving|travell?ing)\s+back(?:wards?)?"
                  r"(?:\s+in\s+time)?\b|\b(?:go|look|count|move)\s+back(?:wards?)?\s+in\s+time\b|"
                  r"\bbackwards?\s+in\s+time\b|"
                  r"(?<!\w)(?:идти|идя|двигаться|смотреть|глядеть|отсчитывать|считать)\s+"
                  r"назад(?:\s+во\s+времени)?(?!\w)|(?<!\w)назад\s+во\s+времени(?!\w)")
# the same in Russian, whole words: «самая новая», «последний», «актуальная», «заканчивается»
# (where the documents end), «самая ранняя», «начинается» (where they begin)
RU_NEWEST_WORDS = (r"последн\w*|новейш\w*|свежайш\w*|"
                   r"сам\w*\s+(?:нов|поздн|свеж|современ|больш|крупн)\w*|"
                   r"заканчива\w*|кончает\w*|до\s+как(?:ой|ого)|(?<!наименее\s)актуальн\w*|"
                   r"текущ\w*|"
                   r"(?:новее|позже|позднее|моложе)\s+(?:все(?:х|го)\s+)?(?:все(?:х|го)|остальных|"
                   r"других)|недавн\w*|"
                   r"закрыва\w*|наибольш\w*|максимальн\w*|насколько\s+(?:нов|свеж|актуальн)\w*|"
                   # where the documents end («Где заканчивается твоё покрытие?»: the English
                   # "Where does your coverage end?")
                   r"где\s+(?:заканчива|кончает|заверша|обрыва)\w*|заверша\w*|обрыва\w*|"
                   r"законч\w*|верхн\w*\s+границ\w*|"
                   # where it stops («На каком релизе останавливается история?»: "stop at")
                   r"останавлива\w*|останов\w*")
RU_OLDEST_WORDS = (r"сам\w*\s+(?:стар|ранн|перв|давн|устар|мал|маленьк|меньш)\w*|начина\w*|"
                   r"древн\w*|"
                   r"с\s+как(?:ой|ого)|"
                   r"начальн\w*|изначальн\w*|исходн\w*|открыва\w*|"
                   r"(?:раньше|ранее|прежде)\s+(?:всех\s+)?(?:всех|остальных|других)|"
                   r"(?:старше|раньше)\s+(?:все(?:х|го)\s+)?(?:все(?:х|го)|остальных|других)|"
                   r"старейш\w*|наименьш\w*|минимальн\w*|"
                   r"насколько\s+(?:стар|ранн|давн)\w*|где\s+начина\w*|"
                   # how far back («Как далеко в прошлое уходит документация?»: "How far back
                   # do your docs reach?")
                   r"(?:как|насколько)\s+далеко\s+(?:в\s+прошлое|назад)|"
                   # furthest back («дальше всего в прошлом»: "furthest back")
                   r"дальше\s+(?:всего|всех)\s+(?:в\s+прошл\w*|назад)|старту\w*|"
                   # the release the documents are kept from («релиз, с которого ведётся
                   # документация»)
                   r"с\s+котор(?:ого|ой)|"
                   r"(?:если\s+)?(?:идти|идя|двигаться|смотреть|глядеть|отсчитывать|считать)\s+"
                   r"назад(?:\s+во\s+времени)?|назад\s+во\s+времени|"
                   r"наименее\s+(?:свеж|нов|актуальн|поздн)\w*|нижн\w*\s+границ\w*|"
                   # where it all began («С какой версии всё началось?»)
                   r"начал(?:ось|ся|ась|ись|и|а)?|(?:всё|все)\s+пошло")


# what a release changed, named by its kind (read beside a release number only: "Which fixes
# does the plumber offer?" is content)
CHANGE_NOUNS = (r"fixes|bug\s*fixes|bugfixes|improvements|enhancements|additions|removals|"
                r"deprecations|highlights|release\s+highlights|updates|news|novelties|"
                r"differences?|changes")
RU_CHANGE_NOUNS = (r"обновлени\w*|исправлени\w*|улучшени\w*|дополнени\w*|доработк\w*|новост\w*|"
                   r"правк\w*|новинк\w*|отличи\w*|различи\w*|разниц\w*|"
                   # the changes made («Изменения, внесённые в 1.1.0?»: "Changes introduced by")
                   r"изменени\w*(?=[,\s]+внес[её]нн\w*)|переработк\w*|переделк\w*")
