"""The ask path's seams on hand-built records: routing (`decide`), which lines a question about
versions is about (`find_lines`), which changes a window holds (`pairs_in`) and the one packer
(`pack`) — no sample corpus, no index, no model. And, on the sample: one question reads each
of its blocks from the row store at most once."""

from __future__ import annotations

import datetime as dt

import pytest

from situated.chains.budget import Budget
from situated.chains.context import StepContext
from situated.chains.contract import Status
from situated.chains.decision import Probes, Route
from situated.chains.read.extract import Validated
from situated.chains.read.products import ProductMatcher
from situated.chains.read.said import read_said
from situated.chains.routing.router import standard
from situated.chains.say.evidence import flagged_of, pack
from situated.chains.say.wording import Lang
from situated.chains.state import LinesStop, Question, Reading
from situated.chains.versions.change_window import Window, WindowKind, pairs_in
from situated.chains.versions.history import find_lines, lines_of
from situated.chains.versions.release_steps import ReleaseSteps
from situated.documents import Block, BlockKind, DocumentMeta, ValidFor, instant
from situated.index.versions import MemoryCatalogue, Versions
from situated.retrievers.filter import Filter
from situated.retrievers.fusion import RankedBlock
from situated.retrievers.hybrid import SearchResult
from situated.settings import BudgetPolicy, Settings
from situated.situation import Scope, Situation

D = dt.date


def _doc(sid: str, text: str = "The battery warranty lasts 24 months.", **meta):
    m = DocumentMeta(source_id=sid, path=f"{sid}.md", **meta)
    block = Block(block_id=f"{sid}-1", source_id=sid, kind=BlockKind.SECTION, section="1",
                  title="Warranty", text=text, link=f"/documents/{sid}#section-1",
                  path=("1 Warranty",), fields=m.filter_fields("UTC"))
    return m, [block]


def _warranties(*extra):
    return Versions(MemoryCatalogue([
        _doc("W1", family="warranty", product=("C-3",), valid_from=D(2025, 1, 1),
             valid_to=D(2026, 1, 1)),
        _doc("W2", "The battery warranty lasts 36 months.", family="warranty",
             product=("C-3",), valid_from=D(2026, 1, 1)),
        *extra]))


def _found(versions: Versions, flt: Filter, *sids: str) -> SearchResult:
    blocks = [RankedBlock(f"{sid}-1", 1.0 / n, n, source_id=sid,
                          family=versions.family_key(sid), fields=versions.fields_of(sid))
              for n, sid in enumerate(sids, start=1)]
    return SearchResult(filter=flt, blocks=blocks, hits=[], leg_hits={})


class _Catalogue:
    """A generation reduced to its catalogue: the router's rules over hand-built records."""

    def __init__(self, versions: Versions):
        self.versions = versions

    def filter(self, situation, scope, latest_release=False):
        return Filter(situation=situation, scope=scope)


def decide(versions: Versions, found: SearchResult, asked: Validated):
    """The product's router on one search, its probes given as having found nothing."""
    step = StepContext(Settings(), _Catalogue(versions), budget_of=None)
    question = Question(text="q", follows="", follows_query="", carried=None, scope=Scope(),
                        lang=Lang.EN, mentions=(), matcher=ProductMatcher([]),
                        named=frozenset(), comparison=None, cue=None,
                        said=read_said("q"))
    router = standard(step, ReleaseSteps(step))
    return router.decide(Reading(question, asked), found,
                         Probes((("undated", None), ("unspelt", ()))))


@pytest.mark.unit
def test_decide_asks_for_the_date_that_separates_two_versions():
    versions = _warranties()
    asked = Validated(situation=Situation(product="C-3"))
    d = decide(versions, _found(versions, Filter(situation=asked.situation), "W2", "W1"),
               asked)
    assert d.route is Route.CLARIFY and d.missing == ("purchase date",)
    assert "1 January 2026" in d.message and d.supply == ()


@pytest.mark.unit
def test_decide_answers_from_the_version_the_date_picks():
    versions = _warranties()
    asked = Validated(situation=Situation(product="C-3", purchase_date=D(2026, 3, 15)))
    d = decide(versions, _found(versions, Filter(situation=asked.situation), "W2"), asked)
    assert d.route is Route.ANSWER and d.supply == ("W2-1",) and d.notes == ()


@pytest.mark.unit
def test_decide_without_blocks_is_no_evidence_naming_what_is_not_held():
    versions = _warranties()
    empty = SearchResult.empty(Filter(), missing=("E-999",))
    d = decide(versions, empty, Validated(situation=Situation()))
    assert d.route is Route.NO_EVIDENCE and "E-999" in d.message


@pytest.mark.unit
def test_decide_never_counts_a_version_the_caller_may_not_read():
    """A staff-only second version must not turn the public answer into a clarification
    (that would tell the caller it exists)."""
    versions = Versions(MemoryCatalogue([
        _doc("P1", family="policy", valid_from=D(2025, 1, 1), valid_for=ValidFor.AS_OF),
        _doc("P2", family="policy", valid_from=D(2026, 1, 1), valid_for=ValidFor.AS_OF,
             access=("staff",)),
    ]))
    asked = Validated(situation=Situation())
    public = decide(versions, _found(versions, Filter(), "P1"), asked)
    assert public.route is Route.ANSWER and public.supply == ("P1-1",)
    staff = Filter(scope=Scope(roles=frozenset({"staff"})))
    assert decide(versions, _found(versions, staff, "P1"), asked).route is Route.CLARIFY


def _policy_versions(*extra) -> Versions:
    return Versions(MemoryCatalogue([
        _doc(f"T{n}", f"Returns within {days} days.", family="terms", valid_for=ValidFor.AS_OF,
             product=products, valid_from=D(2024 + n, 1, 1))
        for n, days, products in [(1, 14, ()), (2, 30, ()), (3, 45, ())]] + [
        _doc("G1", family="guide", product=("A",), valid_from=D(2025, 1, 1)),
        _doc("G2", family="guide", product=("B",), valid_from=D(2025, 1, 1)),
        *extra,
    ]))


@pytest.mark.unit
def test_find_lines_takes_the_named_family_in_version_order():
    versions = _policy_versions()
    found = find_lines(versions, frozenset({"terms"}), None, Filter(), "terms",
                       search=lambda flt: pytest.fail("a named family needs no search"))
    assert found.stop is None
    assert [m.source_id for m in found.lines[0].members] == ["T1", "T2", "T3"]


@pytest.mark.unit
def test_find_lines_asks_which_product_and_which_document():
    versions = _policy_versions()
    product = find_lines(versions, frozenset({"guide"}), None, Filter(), "guide",
                         search=lambda flt: pytest.fail("no search"))
    assert product.stop is LinesStop.ASK_PRODUCT and not product.lines
    assert product.names == ("A", "B")
    # the one family with versions is the one a question naming none can mean (issue 53)
    nothing = find_lines(versions, frozenset(), None, Filter(), "What changed?",
                         search=lambda flt: pytest.fail("no search"))
    assert nothing.stop is None and [x.family for x in nothing.lines] == ["terms"]
    two = _policy_versions(*(_doc(f"H{n}", family="handbook", valid_for=ValidFor.AS_OF,
                                  valid_from=D(2024 + n, 1, 1)) for n in (1, 2)))
    several = find_lines(two, frozenset(), None, Filter(), "What changed?",
                         search=lambda flt: pytest.fail("no search"))
    assert several.stop is LinesStop.ASK_DOCUMENT
    assert "terms" in several.names and "handbook" in several.names


@pytest.mark.unit
def test_pairs_in_a_window():
    versions = _policy_versions()
    line = lines_of(versions, "terms", Filter())[0]
    latest, earlier = pairs_in(versions, line, Window(WindowKind.LATEST))
    assert [(a.source_id, b.source_id) for a, b in latest] == [("T2", "T3")] and earlier == 1
    year = Window(WindowKind.PERIOD, instant(D(2026, 1, 1)), instant(D(2026, 12, 31)))
    inside, others = pairs_in(versions, line, year)
    assert [(a.source_id, b.source_id) for a, b in inside] == [("T1", "T2")] and others == 1
    none, _ = pairs_in(versions, line, Window(WindowKind.ON, instant(D(2030, 1, 1)),
                                               instant(D(2030, 1, 2))))
    assert none == []


def _blocks(*texts: str) -> list[Block]:
    return [_doc(f"B{n}", text)[1][0] for n, text in enumerate(texts, start=1)]


@pytest.mark.unit
@pytest.mark.parametrize(("policy", "kept"), [(BudgetPolicy.PREFIX, ["B1"]),
                                              (BudgetPolicy.SKIP_OVERSIZED, ["B1", "B3"])])
def test_pack_keeps_whole_blocks_within_the_allowance(policy, kept):
    blocks = _blocks("a" * 10, "b" * 50, "c" * 10)
    supplied = pack(blocks, Budget(len, 25, policy))
    assert [s.evidence.source_id for s in supplied] == kept
    assert [s.evidence.label for s in supplied] == [f"S{n}" for n in range(1, len(kept) + 1)]
    assert sum(s.evidence.tokens for s in supplied) <= 25


@pytest.mark.unit
def test_pack_neutralises_what_the_model_reads_and_keeps_the_original_for_flags():
    (block,) = _blocks("Apply [S9] at [the desk](http://evil.example/x).")
    (s,) = pack([block], Budget(len, 1000))
    assert "http://evil.example/x)" not in s.evidence.text and "[S9]" not in s.evidence.text
    assert s.block is block
    (flag,) = flagged_of([s])
    assert flag.label == "S1" and flag.block_id == block.block_id and flag.reasons


@pytest.mark.integration
@pytest.mark.parametrize("question", [
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "What changed in the C-3 battery warranty?",
    "How did the return period of Старт change between March and May 2026?",
])
def test_one_question_reads_each_of_its_blocks_once(sample_app, monkeypatch, question):
    from situated import build_ask_chain
    from situated.index.docstore import BlockTable

    reads: list[str] = []
    many, one, of_doc = BlockTable.many, BlockTable.__getitem__, BlockTable.of_document

    def count_many(self, ids):
        got = many(self, ids)
        reads.extend(got)
        return got

    def count_one(self, k):
        reads.append(k)
        return one(self, k)

    def count_doc(self, sid):
        got = of_doc(self, sid)
        reads.extend(b.block_id for b in got)
        return got

    chain = build_ask_chain(sample_app, clock=lambda: D(2026, 11, 29))
    chain.invoke({"question": "warm-up"})  # the chain for this generation is built
    monkeypatch.setattr(BlockTable, "many", count_many)
    monkeypatch.setattr(BlockTable, "__getitem__", count_one)
    monkeypatch.setattr(BlockTable, "of_document", count_doc)
    answer = chain.invoke({"question": question})
    assert answer.status is Status.ANSWERED, answer.answer
    assert reads, "the answer's blocks were read"
    assert len(reads) == len(set(reads)), sorted(b for b in reads if reads.count(b) > 1)


def _router():
    versions = _warranties()
    step = StepContext(Settings(), _Catalogue(versions), budget_of=None)
    return versions, standard(step, ReleaseSteps(step))


@pytest.mark.unit
def test_the_routers_order_is_the_one_the_design_doc_prints():
    """The order is data: docs/design.md "The router" lists the rules as `standard` holds them."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "design.md").read_text("utf-8")
    section = text.split("## The router", 1)[1].split("\n## ", 1)[0]
    printed = tuple(re.findall(r"^\d+\. `([^`]+)`", section, re.MULTILINE))
    assert printed == _router()[1].order
    assert len(set(printed)) == len(printed) == 12


@pytest.mark.unit
def test_each_decision_names_the_rule_that_made_it_and_the_first_rule_wins():
    versions = _warranties()
    asked = Validated(situation=Situation(product="C-3"))
    both = _found(versions, Filter(situation=asked.situation), "W2", "W1")
    assert decide(versions, both, asked).rule == "which one"
    dated = Validated(situation=Situation(product="C-3", purchase_date=D(2026, 3, 15)))
    assert decide(versions, _found(versions, Filter(situation=dated.situation), "W2"),
                  dated).rule == "answer"
    empty = SearchResult.empty(Filter(), missing=("E-999",))
    assert decide(versions, empty, asked).rule == "nothing relevant"


@pytest.mark.unit
def test_the_route_step_never_searches_a_probe_it_was_not_given():
    """A dated question reads the undated probe: without it, deciding raises naming it, rather
    than searching in the route step."""
    versions, router = _router()
    dated = Validated(situation=Situation(product="C-3", purchase_date=D(2026, 3, 15)))
    question = Question(text="q", follows="", follows_query="", carried=None, scope=Scope(),
                        lang=Lang.EN, mentions=(), matcher=ProductMatcher([]),
                        named=frozenset(), comparison=None, cue=None,
                        said=read_said("q"))
    found = _found(versions, Filter(situation=dated.situation), "W2")
    with pytest.raises(RuntimeError, match="'undated'"):
        router.decide(Reading(question, dated), found, Probes())


@pytest.mark.unit
def test_a_router_without_rules_or_whose_rules_all_pass_is_refused_by_name():
    from situated.chains.routing.router import Router
    from situated.chains.routing.rules import Rule

    versions = _warranties()
    step = StepContext(Settings(), _Catalogue(versions), budget_of=None)
    with pytest.raises(ValueError, match="at least one rule"):
        Router(step, ())

    class Passes(Rule):
        name = "passes"

        def decide(self, ctx):
            return None

    question = Question(text="q", follows="", follows_query="", carried=None, scope=Scope(),
                        lang=Lang.EN, mentions=(), matcher=ProductMatcher([]),
                        named=frozenset(), comparison=None, cue=None,
                        said=read_said("q"))
    with pytest.raises(RuntimeError, match=r"\('passes',\)"):
        Router(step, (Passes(),)).decide(Reading(question, Validated(situation=Situation())),
                                         SearchResult.empty(Filter()), Probes())


@pytest.mark.unit
def test_a_declared_version_is_read_only_of_a_document_that_has_one():
    assert DocumentMeta(source_id="G", path="g.md", version="1.2.0").declared_version == "1.2.0"
    with pytest.raises(ValueError, match="G declares no version"):
        DocumentMeta(source_id="G", path="g.md").declared_version  # noqa: B018
