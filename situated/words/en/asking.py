"""The English words of asking, by closed class and in all their forms (`chains.read.intent`
reads them): what is taken away from a question about the release line before nothing should
be left. Classes are written whole, never as the phrasings a round of held-out questions
showed (docs/design.md "The words of asking as closed classes")."""

# the words of asking, by closed class and in all their forms, so that a phrasing nobody wrote
# down still leaves nothing ("Tell me the oldest quickq release you can talk about", «О каких
# релизах quickq ты можешь рассказать?»): pronouns, auxiliaries and modals, verbs of telling
# and knowing, of holding and covering, where it is held, how many or how whole, and politeness
# (not what a text says: "What does the index say about `0.14.*`?" asks of the text)
ASKING = (
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
