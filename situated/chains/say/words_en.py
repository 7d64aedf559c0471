"""Every fixed text the app says in English, by name (`catalogue` joins the languages;
`wording` fills them in). A language is one such file; `tests/chains/say/test_wording.py` checks that every
file has every name with the same values."""

TEXTS = {
    "and": "and",
    "ask_within": "From {period}, the versions change on {changes}. Which day is it about?",
    "ask_unplaced": "Which of the dates decides: {dates}?",
    "over_allowance": "The best evidence is larger than the evidence allowance ({allowance} "
                      "tokens); raise the window or use the skip_oversized budget policy.",
    "withheld_unknown": "The answer was withheld: it cites sources that were not given to the "
                        "model ({labels}).",
    "withheld_uncited": "The answer was withheld: it cites no source, so it cannot be checked.",
    "withheld_empty": "The answer was withheld: it names sources but says nothing of what they "
                      "hold.",
    "ask_year": "To compare I need the year: “{period}” of which year? Ask again with the year.",
    "changes_lead": "Changes of {line}{window}:",
    "pair": "From {date} ({old} → {new}):",
    "pair_release": "Version {v} against {prev} ({old} → {new}):",
    "first_release": "Version {v}: the first version you may read ({new}).",
    "notes_lead": "The release notes of {line} {v} say:",
    "notes_more": "… and {n} more line(s) of these notes.",
    "no_release": "{line} has no version {v}.",
    "window_release": " in version {v}",
    "first": "From {date}: the first version you may read ({new}).",
    "no_substance": "no change in substance (only formatting or dates differ).",
    "added": "added",
    "removed": "removed",
    "more": "… and {n} more in this section",
    "unshown": "{n} more changed section(s) did not fit the evidence allowance; they are listed "
               "in `changes`.",
    "none_in": "No version of {line} took effect{window}; the one in force applies from {date} "
               "({new}).",
    "none_then": "No version of {line} took effect{window}, and none applied at its end: the last "
                 "one before it, {old}, ended on {date}.",
    "by_content": "{n} pair(s) of versions were too long to align sentence by sentence ({units} "
                  "sentences): their changes are what left and what came, compared by content.",
    "listing_cut": "… {n} earlier version(s) not shown; ask about a period to see them.",
    "not_compared": "{n} earlier change(s) in this period were not compared; ask about a shorter "
                    "period to see them.",
    "one_version": "{line} has one version, with no validity dates and no release: there is no "
                   "earlier version to compare it with.",
    "none_yet": "No version of {line} took effect{window}: the first applies from {date}.",
    "latest_only": "This is the latest change; {n} earlier change(s) are listed with “List the "
                   "versions …” or by asking about a period.",
    "versions_lead": "Versions of {line} you may read ({n}):",
    "ask_document": "Which document's versions: {names}?",
    "ask_change_year": "“{period}” of which year? Ask again with the year.",
    "in_force": "in force",
    "recorded": "recorded {t}",
    "revision": "revision {r}",
    "release": "version {v}",
    "undated": "no validity dates",
    "window_since": " since {a}",
    "window_period": " from {a} to {b}",
    "window_on": " on {a}",
    "window_latest": " (the latest)",
    "verb_added": "added",
    "verb_removed": "removed",
    "verb_deprecated": "deprecated",
    "version_release": "version {v}",
    "version_dated": "the version from {date}",
    "appears_added": "“{x}” first appears in {at} [{a}]{before}.",
    "appears_oldest": "“{x}” is already in {at}, the oldest version the pages show [{a}]{older}.",
    "older_notes": "; the release notes go back to version {v}, so it may be older",
    "gone_from": "It is gone again from {at} [{a}].",
    "appears_removed": "“{x}” is gone in {at} [{a}]{before}.",
    "appears_deprecated": "“{x}” is marked deprecated from {at} [{a}]{before}.",
    "before_added": "; {at}, the version before it, does not have it [{a}]",
    "before_removed": "; {at} still has it [{a}]",
    "before_deprecated": "; {at}, the version before it, does not say so [{a}]",
    "described_as": "Read as “{x}”, the name the documents' own notes give it.",
    "pages_unshown": "The versions themselves do not show when “{x}” was {verb}.",
    "notes_state": "“{x}” was {verb} in version {v}, as the documents' own notes say{ref}. By the "
                   "pages themselves: ",
    "notes_state_alone": "“{x}” was {verb} in version {v}, as the documents' own notes say{ref}; "
                         "the versions themselves do not show it.",
    "notes_mention": "The documents' own notes (history notes, a changelog) mention it under "
                     "{said}{tail}.",
    "notes_disagree": "; that disagrees with the pages' own versions",
    "held_unshown": "Versions of the documents have “{x}”, but none shows it being {verb}.",
    "none_has": "No version of the documents you may read has “{x}”.",
    "unknown_version": "Version {v} is not among the versions of {line} ({n}: {versions})",
    "unbound_product": "No product named “{product}” is among those you may read: {products}. Name one of them to ask about its versions.",
    "unknown_has_notes": "The release notes of {v} are on file: ask “What changed in {v}?”.",
    "nearest_one": "; the nearest is {near}.",
    "nearest_many": "; the nearest are {near}.",
    "latest_slice": "For version {v} (the latest; name your version if you run another): ",
    "page_last_slice": "For version {v} (the last with this page; the latest is {latest}; name "
                       "your version if you run another): ",
    "notes_slice": "From the release notes of version {v}: ",
    "ask_version": "To find the text that applies I need the version: the versions of {line} say "
                   "different things here. Which version: {versions}?",
    "same_text": "The same text stands in versions {first} to {last}.",
    "same_text_every": "The same text stands in versions {first} to {last} (every version of this "
                       "document).",
    "elsewhere": "Nothing in version {v} answers this; versions {versions} do. Ask about one of "
                 "them, e.g. “in version {last}”.",
    "elsewhere_latest": "Nothing in the latest version, {v}, answers this; versions {versions} "
                        "do. Ask about one of them, e.g. “in version {last}”.",
    "elsewhere_one": "Nothing in version {v} answers this; version {versions} does. Ask about it: "
                     "“in version {last}”.",
    "elsewhere_latest_one": "Nothing in the latest version, {v}, answers this; version "
                            "{versions} does. Ask about it: “in version {last}”.",
    "opening": "(opening)",
    "documents": "the documents",
    "no": "No. ",
    "yes": "Yes. ",
    "line_has": "Yes: version {v} is one of the {n} versions of {line} ({first} – {last}).",
    "line_latest": "The latest version of {line} is {last} ({n} versions; the oldest is {first}).",
    "line_oldest": "The oldest version of {line} is {first} ({n} versions; the latest is {last}).",
    "line_listing": "{line} has {n} versions, oldest first: {names}.",
    "line_listing_plural": "The documents have {n} versions, oldest first: {names}.",
    "line_listing_newest": "{line} has {n} versions, newest first: {names}.",
    "line_listing_plural_newest": "The documents have {n} versions, newest first: {names}.",
    "line_window": "{line} has {k} versions {window} (of {n}): {names}.",
    "line_window_none": "{line} has no version {window} ({n} versions: {first} to {last}).",
    "window_after": "after {v}",
    "window_from": "from {v} on",
    "window_before": "before {v}",
    "window_up_to": "up to {v}",
    "window_between": "from {lo} to {hi}",
    # dates, facts and situations (`wording`)
    "ask_date_purchase_date": "When was it bought (day, month and year)?",
    "ask_date_request_date": "When was the request made, or when will it be (day, month and "
                             "year)?",
    "ask_date_as_of": "For which date (day, month and year)?",
    "before_or_from_purchase_date": "Was it bought before or from {b}?",
    "before_or_from_request_date": "Was the request made before or from {b}?",
    "before_or_from_as_of": "Is it about a date before or from {b}?",
    "ask_facet": "Which {facet}: {candidates}?",
    "ask_facet_open": "Which {facet} is it?",
    "no_year": "“{partial}” has no year.",
    "versions_changed": "The versions change on {changes}.",
    "period_span": "{a} to {b}",
    "clarify_lead": "To find the rule that applies I need the {facts}.",
    "facts_joiner": " and the ",
    "slice_as_of": "as of {d}",
    "slice_purchase_date": "for a purchase on {d}",
    "slice_request_date": "for a request on {d}",
    "slice_product": "for {p}",
    "slice_known_on": "as known on {d}",
    "slice_version": "for version {v}",
    "slice_facet": "for {n} {v}",
    "slice_period_as_of": "from {a} to {b}",
    "slice_period_purchase_date": "for a purchase from {a} to {b}",
    "slice_period_request_date": "for a request from {a} to {b}",
    "left_out_one": "Left out: {sources}, which depend on the {facts}; give it to bring them in.",
    "left_out_many": "Left out: {sources}, which depend on the {facts}; give them to bring them "
                     "in.",
    "same_day": "More than one version was in force on {day}; this uses the one in force at the "
                "end of that day (from {start}).",
    "before_first": "No version of {family} was in force on {day}: the first applies from "
                    "{first}.",
    "same_in_versions": "This section says the same in every version of {family} you may read "
                        "({n}), so the date does not change the answer.",
    "not_recorded": "{title} ({source_id}) was recorded on {recorded}, after {known}: as known "
                    "on {known} there is no record of it.",
    "not_in_force": "No version of {family} was in force on {day}.",
    "quoted": "“{text}”",
    "or": "or",
    "no_evidence_absent": "No document you may read for the situation given ({facts}) mentions "
                          "{names}, so there is no answer to give.",
    "no_evidence_unheld": "No document you may read mentions {names}, so there is no answer to "
                          "give.",
    "no_evidence": "No document you may read applies to this question{why}, so there is no "
                   "answer to give.",
    "no_evidence_why": " for the situation given ({facts})",
    "span_from": "from {d}",
    "span_to": "to {d}",
}

# words put into the texts above: the facts a clarification asks for, those an answer left out,
# and the known facts of a situation (keys: `wording.FACT_NAMES` values, `ValidFor` values)
NAMES = {
    "facet": {},  # a facet is named by its key
    "fact_asked": {},  # "I need the purchase date"
    "fact_left_out": {},  # "which depend on the purchase date"
    "fact_known": {"product": "product", "purchase_date": "purchase date",
                   "request_date": "request date", "as_of": "date", "known_on": "as known on",
                   "version": "version"},
}
