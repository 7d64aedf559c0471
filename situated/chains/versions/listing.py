"""The list of a family's versions (DESIGN "Questions about change"): each version the caller
may read, oldest first, linked, with its period, revision and recorded time — from metadata,
no model."""

from __future__ import annotations

import datetime as dt

from situated.chains.contract import Answer, VersionOut
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.chains.say.citations import link_text, safe_text
from situated.chains.say.wording import Lang
from situated.chains.state import Line
from situated.documents import OPEN_START, DocumentMeta
from situated.index.versions import Versions
from situated.loaders.neutralise import inline
from situated.situation import Situation


def last_day(meta: DocumentMeta) -> dt.date | dt.datetime | None:
    """A version's last day (or instant) as an answer says it: `valid_to` is exclusive."""
    end = meta.valid_to
    if isinstance(end, dt.date) and not isinstance(end, dt.datetime):
        return end - dt.timedelta(days=1)
    return end


def when(meta: DocumentMeta, lang: Lang, tz: str) -> str:
    return w.bound_text(meta.valid_from, lang, tz) if meta.valid_from else "—"


def answer_versions(versions: Versions, lines: list[Line], situation: Situation,
                    lang: Lang) -> Answer:
    """Each line's readable versions, oldest first, each linked: from metadata, no model."""
    parts = []
    for line in lines:
        lead = w.fixed("versions_lead", lang, line=inline(line.name),
                              n=len(line.members))
        parts.append(f"{safe_text(lead)}\n{listing_lines(versions, line, lang)}")
    return assemble.from_metadata("\n\n".join(parts), situation,
                                  versions=[v for x in lines for v in versions_out(versions, x)])


MAX_LISTED = 100  # versions one listing shows (the latest); the earlier ones are counted


def _shown(line: Line) -> list[tuple[int, DocumentMeta]]:
    """The latest `MAX_LISTED` versions with their numbers in the whole line."""
    numbered = list(enumerate(line.members, start=1))
    return numbered[-MAX_LISTED:]


def listing_lines(versions: Versions, line: Line, lang: Lang) -> str:
    tz = versions.timezone
    shown = _shown(line)
    out = [safe_text(w.fixed("listing_cut", lang, n=shown[0][0] - 1))] if shown and \
        shown[0][0] > 1 else []
    for n, m in shown:
        anchor = link_text(m.source_id)
        bits = [w.fixed("revision", lang, r=inline(m.revision))] if m.revision else []
        if m.version is not None:
            bits.append(w.fixed("release", lang, v=inline(m.version)))
        end = last_day(m)
        span = w.span_text(when(m, lang, tz) if m.valid_from else None,
                           w.bound_text(end, lang, tz) if end else None, lang)
        if span or not m.release_scoped:
            bits.append(span or w.fixed("undated", lang))
        if m.valid_to is None and m.valid_from is not None and n == len(line.members):
            bits.append(w.fixed("in_force", lang))
        recorded = versions.fields_of(m.source_id).recorded_s
        if recorded > OPEN_START:
            at = dt.datetime.fromtimestamp(recorded, dt.UTC)
            bits.append(w.fixed("recorded", lang, t=w.bound_text(at, lang, tz)))
        out.append(f"{n}. [{anchor}]({m.base_link}): {safe_text(', '.join(bits))}")
    return "\n".join(out)


def versions_out(versions: Versions, line: Line,
                 only: set[str] | None = None) -> list[VersionOut]:
    """The versions a listing shows (`only`: these source ids, e.g. a change's two sides)."""
    out = []
    for _, m in _shown(line) if only is None else [(0, m) for m in line.members
                                                   if m.source_id in only]:
        recorded = versions.fields_of(m.source_id).recorded_s
        out.append(VersionOut(
            source_id=m.source_id, title=m.title, revision=m.revision, family=m.family,
            products=list(m.product), valid_for=m.valid_for.value,
            valid_from=m.valid_from.isoformat() if m.valid_from else None,
            valid_to=m.valid_to.isoformat() if m.valid_to else None,
            recorded_at=dt.datetime.fromtimestamp(recorded, dt.UTC).isoformat()
            if recorded > OPEN_START else None, link=m.base_link, version=m.version))
    return out


__all__ = ["Line", "answer_versions", "last_day", "listing_lines", "versions_out", "when"]
