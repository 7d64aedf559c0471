"""Situation facets (issue 34 item 3): any front-matter key an index declares (`region`, `plan`)
is validated at ingest, filtered like the product in every leg, found in the question, and
asked about only when it decides."""

from __future__ import annotations

import pytest
from conftest import ROUTING_TODAY, md, region_app, write
from pydantic import ValidationError

from situated.errors import DocumentError
from situated.loaders.corpus import load_corpus
from situated.settings import Settings
from situated.situation import Scope, Situation

REFUND = "## 1 Refund window\n\nYou may return a product within {n} days for a full refund.\n"


@pytest.mark.unit
def test_facets_are_declared_by_name_and_a_bad_name_is_refused():
    assert Settings(facets="region, plan").facets == ("region", "plan")
    with pytest.raises(ValidationError, match="lower-case front-matter key"):
        Settings(facets="Region")
    with pytest.raises(ValidationError, match="other than the format's own keys"):
        Settings(facets="product")


@pytest.mark.unit
def test_versions_for_different_facet_values_do_not_overlap_and_bad_values_are_refused(
        tmp_path):
    write(tmp_path / "eu.md", md("REF-EU", body=REFUND.format(n=30), family="refunds",
                                 region="EU"))
    write(tmp_path / "us.md", md("REF-US", body=REFUND.format(n=14), family="refunds",
                                 region="US"))
    with pytest.raises(DocumentError, match="overlapping versions"):
        load_corpus([tmp_path])  # undeclared, `region` is ordinary metadata
    corpus = load_corpus([tmp_path], facets=("region",))
    assert {d.meta.source_id: d.blocks[0].fields.facet("region") for d in corpus.documents} == \
        {"REF-EU": ("EU",), "REF-US": ("US",)}
    write(tmp_path / "eu2.md", md("REF-EU2", body=REFUND.format(n=31), family="refunds",
                                  region="[EU, UK]"))
    with pytest.raises(DocumentError, match="overlapping versions"):
        load_corpus([tmp_path], facets=("region",))  # two EU versions at once
    write(tmp_path / "eu2.md", md("REF-EU2", family="other", region="{a: b}"))
    with pytest.raises(DocumentError, match="facet region must be one value or a list"):
        load_corpus([tmp_path], facets=("region",))


@pytest.fixture(scope="module")
def shop(tmp_path_factory, embeddings):

    root = tmp_path_factory.mktemp("facets")
    write(root / "docs" / "eu.md", md("REF-EU", body=REFUND.format(n=30), family="refunds",
                                      region="EU"))
    write(root / "docs" / "us.md", md("REF-US", body=REFUND.format(n=14), family="refunds",
                                      region="US"))
    write(root / "docs" / "ship.md", md("SHIP", body="## 1 Shipping\n\nOrders ship within two "
                                        "business days.\n"))
    return region_app(root, embeddings)


@pytest.mark.integration
@pytest.mark.parametrize(("region", "expected"), [
    ("EU", {"REF-EU", "SHIP"}), ("US", {"REF-US", "SHIP"}), ("FR", {"SHIP"}),
    (None, {"REF-EU", "REF-US", "SHIP"})])
def test_every_compiled_form_admits_the_documents_of_the_facet_value(shop, region, expected):
    index = shop.index
    situation = Situation(facets={"region": region} if region else {})
    flt = shop.snapshot().filter(situation, Scope())
    cols = index.columns
    by_mask = {str(s) for s in cols.source_ids[flt.group_mask(cols)]}
    by_admits = {sid for sid in ("REF-EU", "REF-US", "SHIP")
                 if flt.admits(index.fields_of_source(sid))}
    got = index.collection.get(where=flt.chroma_where(), include=["metadatas"])
    assert by_mask == by_admits == {m["source_id"] for m in got["metadatas"]} == expected


@pytest.mark.integration
def test_an_undeclared_facet_in_a_situation_compiles_to_nothing(shop):
    flt = shop.snapshot().filter(Situation(facets={"colour": "red"}), Scope())
    assert flt.situation.facets == ()
    # compiled, an undeclared key would exclude everything (Chroma drops records lacking it)
    got = shop.index.collection.get(where=flt.chroma_where(), include=["metadatas"])
    assert {m["source_id"] for m in got["metadatas"]} == {"REF-EU", "REF-US", "SHIP"}


@pytest.mark.unit
@pytest.mark.parametrize("facets", [{"region": ""}, [("region",)], {"region": 3}])
def test_a_bad_facet_in_a_situation_is_refused_naming_the_form(facets):
    with pytest.raises(ValidationError, match="a name and a non-empty value"):
        Situation(facets=facets)


@pytest.fixture
def ask_shop(shop, model):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(shop, model=model, clock=lambda: ROUTING_TODAY)
    return lambda q, **kw: chain.invoke({"question": q, "scope": Scope(), **kw})


@pytest.mark.integration
def test_the_facet_is_asked_for_only_when_it_decides(ask_shop, model):
    a = ask_shop("How many days do I have to return a product?")
    assert a.status.value == "clarify" and a.missing == ["region"] and not model.calls
    assert "Which region: EU or US?" in a.answer
    a = ask_shop("How fast do orders ship?")  # no version depends on the region
    assert a.status.value == "answered"


@pytest.mark.integration
def test_a_named_or_replied_facet_value_picks_its_version(ask_shop):
    a = ask_shop("How many days do I have to return a product in the EU?")
    assert a.status.value == "answered" and a.situation.facets == {"region": "EU"}
    # the EU version, never the US one (the shipping page, for every region, may come along:
    # its sentence is over the floor of a 3-piece index)
    assert {e.source_id for e in a.evidence} - {"SHIP"} == {"REF-EU"}
    assert a.answer.startswith("For region EU: ") and a.citations[0].source_id == "REF-EU"
    a = ask_shop("US", follows="How many days do I have to return a product?")
    assert a.status.value == "answered"
    assert {e.source_id for e in a.evidence} - {"SHIP"} == {"REF-US"}


# -- the product is the facet every index has (issue 34 item 3) -------------------------------

@pytest.mark.unit
def test_the_product_is_read_as_a_facet_by_every_record_and_cannot_be_given_twice():
    from situated.documents import PRODUCT, FilterFields, facet_any_key, facet_key

    f = FilterFields(source_id="A", products=("C-3",), facets=(("region", ("EU",)),))
    assert f.facet(PRODUCT) == ("C-3",) and f.every_facet == (
        (PRODUCT, ("C-3",)), ("region", ("EU",)))
    s = Situation(product="C-3", facets={"region": "EU"})
    assert s.facet(PRODUCT) == "C-3" and s.every_facet == ((PRODUCT, "C-3"), ("region", "EU"))
    # the product's Chroma keys are those every index already holds
    md_ = f.to_chroma("A-1")
    assert md_[facet_any_key(PRODUCT)] is False and md_[facet_key(PRODUCT, "C-3")] is True
    assert md_["product_any"] is False and md_["product::C-3"] is True
    with pytest.raises(ValidationError, match="the product is given as `product`"):
        Situation(facets={"product": "C-3"})


DATED = "## 1 Refund window\n\nYou may return a product within {n} days of purchase.\n"


@pytest.fixture(scope="module")
def dated_shop(tmp_path_factory, embeddings):
    """An EU version in force throughout; two US versions that change on 1 January 2026."""
    root = tmp_path_factory.mktemp("dated-facets")
    for sid, region, start, end, n in (("RF-EU", "EU", "2025-01-01", None, 30),
                                       ("RF-US1", "US", "2025-01-01", "2026-01-01", 14),
                                       ("RF-US2", "US", "2026-01-01", None, 21)):
        meta = {"family": "refunds", "region": region, "valid_from": start,
                **({"valid_to": end} if end else {})}
        write(root / "docs" / f"{sid}.md", md(sid, body=DATED.format(n=n), **meta))
    return region_app(root, embeddings)


@pytest.mark.integration
def test_a_date_is_asked_only_among_the_versions_of_the_askers_case_on_every_facet(
        dated_shop, model):
    from situated.chains.ask import build_ask_chain

    chain = build_ask_chain(dated_shop, model=model, clock=lambda: ROUTING_TODAY)
    ask = lambda q, **kw: chain.invoke({"question": q, "scope": Scope(), **kw})
    a = ask("How many days do I have to return a product in the EU?")
    # one EU version: the date cannot change the answer (the US versions are another case)
    assert a.status.value == "answered" and {e.source_id for e in a.evidence} == {"RF-EU"}
    a = ask("How many days do I have to return a product in the US?")
    assert a.status.value == "clarify" and a.missing == ["purchase date"]
    assert "1 January 2026" in a.answer
    a = ask("How many days do I have to return a product?")  # the region first, then a date
    assert a.status.value == "clarify" and a.missing[0] == "region"
    assert "Which region: EU or US?" in a.answer
    ru = ask("Сколько дней на возврат товара?")
    assert ru.status.value == "clarify" and "Какой region: EU или US?" in ru.answer
