"""Front matter → `DocumentMeta`, collecting every problem with the file name and the fix."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any
from urllib.parse import unquote, urlparse

import yaml

from situated import releases
from situated.documents import KNOWN_KEYS, DocKind, DocumentMeta, ValidFor, instant
from situated.loaders.meta_keys import key_problems
from situated.loaders.neutralise import BIDI_CONTROLS
from situated.situation import FIRST_DAY, LAST_DAY

# libyaml's loader when present (10x faster on large corpora); both keep every scalar a string
_LOADER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
_SOURCE_ID_RE = re.compile(r"^[\w][\w.\-]*$", re.UNICODE)


class MetaProblems(Exception):
    """Problems found in one file's metadata (collected, not raised one at a time)."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


MAX_META_BYTES = 64_000  # front matter / sidecar: metadata, not content


# how YAML writes "no value": every scalar is read as text here, so `access: null` would be a
# role named "null"
YAML_NULLS = frozenset({"null", "Null", "NULL", "~"})


def load_yaml_mapping(text: str, path: str, first_line: int = 1) -> dict[str, Any]:
    """Parse YAML with every scalar kept as a string, so dates are parsed (and checked) by us.

    Bounded: metadata over `MAX_META_BYTES` is refused, and so are anchors and aliases (`&a`,
    `*a`), which no metadata needs and which let 1 KB expand to gigabytes; both are refused
    before anything is expanded, and no error repeats the text. A key given twice in one
    mapping is refused naming the key and both lines (`first_line`: the file's line the text
    starts on): YAML would keep the last silently, and a second `access:` would replace the
    first."""
    if len(text.encode("utf-8")) > MAX_META_BYTES:
        raise MetaProblems([f"{path}: metadata is {len(text.encode('utf-8')):,} bytes, over "
                            f"the {MAX_META_BYTES:,} allowed; metadata holds keys, not content"])
    try:
        _check_events(yaml.parse(text, Loader=yaml.BaseLoader), path, first_line)
        data = yaml.load(text, Loader=yaml.BaseLoader)
    except yaml.YAMLError as exc:
        raise MetaProblems([f"{path}: metadata is not valid YAML ({exc}); fix the syntax"]) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise MetaProblems([f"{path}: metadata must be a mapping of keys, got {type(data).__name__}"])
    return data


def _check_events(events, path: str, first_line: int) -> None:
    """Refuse anchors, aliases and repeated keys, reading the parser's events (nothing is
    expanded yet)."""
    stack: list[dict[str, Any]] = []  # per open collection: a mapping's keys, key expected
    problems: list[str] = []
    for event in events:
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise MetaProblems([f"{path}: metadata uses YAML anchors or aliases (&name, "
                                "*name); write each value out"])
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append({"keys": {} if isinstance(event, yaml.MappingStartEvent) else None,
                          "key": True})
        elif isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            if stack:
                stack[-1]["key"] = True
        elif isinstance(event, yaml.ScalarEvent) and stack and stack[-1]["keys"] is not None:
            top = stack[-1]
            if top["key"]:
                line = first_line + (event.start_mark.line if event.start_mark else 0)
                if event.value in top["keys"]:
                    before = top["keys"][event.value]
                    problems.append(
                        f"{path}: key {event.value[:80]!r} is given twice (lines {before} and "
                        f"{line}); keep one (YAML would silently use the last)")
                top["keys"][event.value] = line
            top["key"] = not top["key"]
    if problems:
        raise MetaProblems(problems)


# line breaks, other control characters and bidirectional overrides: never inside a one-line
# field (a name, a revision, a link), where they could start a new Markdown line (a reference
# definition, an image) in an answer written by code, or reorder what a reader sees
_NOT_ONE_LINE = re.compile(
    f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{BIDI_CONTROLS}\\ud800-\\udfff]")


MAX_FIELD_CHARS, MAX_LINK_CHARS = 300, 2000  # a name, a title, a revision; a link
MAX_HEADING_CHARS = 500  # a heading is a title: change answers and listings quote it


def _one_line(text: str, key: str, path: str, problems: list[str]) -> str:
    if _NOT_ONE_LINE.search(text):
        problems.append(f"{path}: {key} {text[:80]!r} holds a line break, a control character "
                        "or a bidirectional override; write it on one line of plain text")
    cap = MAX_LINK_CHARS if key == "link" else MAX_FIELD_CHARS
    if len(text) > cap:
        problems.append(f"{path}: {key} has {len(text):,} characters, over the {cap:,} it may "
                        f"have; shorten it")
    return text


def _shown(value: Any, key: str, path: str, problems: list[str],
           warnings: list[str]) -> str | None:
    """A field only shown to people (`title`, `revision`): a cosmetic limit degrades, never
    refuses — line breaks, control characters and bidirectional overrides become spaces (so
    it stays one line no answer can be forged with) and it is cut at `MAX_FIELD_CHARS`, each
    a warning naming the file. Identity and permission fields (`source_id`, `family`,
    `product`, `access`, `assets`, `link`) still refuse."""
    text = _as_str(value, key, path, problems, check=False)
    if text is None:
        return None
    shown = " ".join(_NOT_ONE_LINE.sub(" ", text).split())
    if len(shown) > MAX_FIELD_CHARS:
        shown = shown[:MAX_FIELD_CHARS - 1].rstrip() + "…"
    if shown != text:
        warnings.append(f"{path}: {key} ({len(text):,} characters) is shown as one line of at "
                        f"most {MAX_FIELD_CHARS} characters: {shown[:60]!r}…; shorten it or "
                        "remove the line breaks and control characters")
    return shown or None


def _as_list(value: Any, key: str, path: str, problems: list[str]) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return (_one_line(value.strip(), key, path, problems),)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(_one_line(v.strip(), key, path, problems) for v in value if v.strip())
    problems.append(f"{path}: {key} must be a string or a list of strings, got {value!r}")
    return ()


def _supported(value, key: str, path: str, problems: list[str]):
    """A date or instant within the dates a situation may hold (and every computation on it
    can represent), else None with the problem named."""
    day = value.date() if isinstance(value, dt.datetime) else value
    if not FIRST_DAY <= day <= LAST_DAY:
        problems.append(f"{path}: {key} {value.isoformat()} is outside the supported dates "
                        f"{FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}; leave the bound "
                        "out for an open period")
        return None
    return value


def _as_date(value: Any, key: str, path: str, problems: list[str]) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.date):
        return _supported(value, key, path, problems)
    try:
        return _supported(dt.date.fromisoformat(str(value).strip()), key, path, problems)
    except ValueError:
        problems.append(
            f"{path}: unreadable date {key}: {value!r}; write an ISO date such as 2026-01-01"
        )
        return None


def _as_bound(value: Any, key: str, path: str, problems: list[str]) -> dt.date | dt.datetime | None:
    """A validity bound: an ISO date, or an ISO date-time with a UTC offset (an instant)."""
    text = "" if value is None else str(value).strip()
    if "T" not in text and " " not in text:
        return _as_date(value, key, path, problems)
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        problems.append(f"{path}: unreadable date-time {key}: {value!r}; write an ISO date "
                        "(2026-01-01) or an instant with its offset (2026-01-01T09:30:00+02:00)")
        return None
    if moment.tzinfo is None:
        problems.append(f"{path}: {key} {value!r} has no UTC offset; add one "
                        f"({text}+00:00) or give a date only")
        return None
    return _supported(moment, key, path, problems)


def _as_str(value: Any, key: str, path: str, problems: list[str],
            check: bool = True) -> str | None:
    """One value as text; `check`: refused unless one line within the cap (`_one_line`)."""
    if value is None or value == "":
        return None
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return _one_line(text, key, path, problems) if check else text
    problems.append(f"{path}: {key} must be a single value, got {value!r}")
    return None


def safe_link(link: str) -> bool:
    """An http(s) URL with a host, or a path on this site (`/documents/X`, `terms.html`): never
    `javascript:`, `data:`, `//host` or `/\\host` (a browser reads both as another host),
    judged on the link as a browser decodes it (HTML entities, percent escapes), so
    `javascript&colon;…` and `jav&#x61;script:` are refused too; never brackets, parentheses or
    braces, which would close the Markdown link a citation puts it in and open another."""
    decoded = link
    for _ in range(3):  # entities and percent escapes, nested a few levels
        decoded = unquote(html.unescape(decoded))
    if any(c in decoded for c in " \t\n\r<>\"'`\\()[]{}") or any(ord(c) < 32 or ord(c) == 127
                                                        for c in decoded):
        return False
    parsed = urlparse(decoded)
    if parsed.scheme:
        return parsed.scheme in ("http", "https") and bool(parsed.netloc)
    return not decoded.startswith("//")  # a path of this site (backslashes refused above)


def parse_meta(raw: dict[str, Any], path: str,
               warnings: list[str] | None = None) -> DocumentMeta:
    """Validate one document's metadata; raise `MetaProblems` listing every problem found.
    What a cosmetic limit degrades is appended to `warnings`."""
    problems: list[str] = []
    source_id = _as_str(raw.get("source_id"), "source_id", path, problems)
    if not source_id:
        problems.append(f"{path}: missing source_id; add e.g. `source_id: WARR-R2` to its metadata")
    elif not _SOURCE_ID_RE.match(source_id):
        problems.append(
            f"{path}: source_id {source_id!r} may hold only letters, digits, '.', '_' and '-'"
        )
    valid_from, valid_to = _period(raw, path, problems)
    valid_for, kind, recorded_at = _kinds(raw, path, problems)
    problems += key_problems(raw, path)
    product = _as_list(raw.get("product"), "product", path, problems)
    aliases = _as_list(raw.get("aliases"), "aliases", path, problems)
    if aliases and len(product) != 1:
        problems.append(f"{path}: aliases {list(aliases)!r} are other names of one product, "
                        f"and the document names {len(product)}; give it one `product`, or "
                        "declare the aliases in a document of that product alone")
    access = _as_list(raw.get("access"), "access", path, problems)
    assets = _as_list(raw.get("assets"), "assets", path, problems)
    for key, values in (("access", access), ("assets", assets)):
        if key in raw and not values:  # present but empty must never mean "anyone"
            problems.append(f"{path}: {key} is empty ({raw[key]!r}); list who may read it "
                            f"(e.g. `{key}: [technician]`), or remove the key to make the "
                            "document public")
        elif nulls := [v for v in values if v in YAML_NULLS]:  # YAML's null, read as text
            problems.append(f"{path}: {key} holds {nulls[0]!r}, which YAML means as no value, "
                            f"not a name; list who may read it (e.g. `{key}: [technician]`), "
                            "or remove the key to make the document public")
    warnings = [] if warnings is None else warnings
    title = _shown(raw.get("title"), "title", path, problems, warnings)
    revision = _shown(raw.get("revision"), "revision", path, problems, warnings)
    family = _as_str(raw.get("family"), "family", path, problems)
    version, covers = _releases(raw, path, problems)
    link = _as_str(raw.get("link"), "link", path, problems)
    if link is not None and not safe_link(link):
        problems.append(f"{path}: link {link!r} is neither an http(s) URL nor a relative path on "
                        "this site, or holds spaces, quotes, brackets or parentheses; write e.g. "
                        "https://example.com/terms or /documents/WARR-R2 (percent-encode such "
                        "characters: %28 %29 %5B %5D)")
    if problems:
        raise MetaProblems(problems)
    extra = {k: v for k, v in raw.items() if k not in KNOWN_KEYS}
    return DocumentMeta(
        source_id=source_id or "", path=path, title=title, revision=revision, product=product,
        aliases=aliases,
        valid_from=valid_from, valid_to=valid_to, valid_for=valid_for, family=family,
        version=version, applies_to_versions=covers, access=access, assets=assets, recorded_at=recorded_at, link=link, kind=kind, extra=extra,
    )


def _period(raw: dict[str, Any], path: str, problems: list[str]):
    """`valid_from` and `valid_to` (exclusive; `applies_through` is its inclusive spelling)."""
    valid_from = _as_bound(raw.get("valid_from"), "valid_from", path, problems)
    valid_to = _as_bound(raw.get("valid_to"), "valid_to", path, problems)
    through = _as_date(raw.get("applies_through"), "applies_through", path, problems)
    if raw.get("valid_to") not in (None, "") and raw.get("applies_through") not in (None, ""):
        problems.append(
            f"{path}: both valid_to and applies_through are given; keep one "
            "(applies_through is inclusive and means valid_to = applies_through + 1 day)"
        )
    elif through is not None:
        valid_to = through + dt.timedelta(days=1)
    if valid_from and valid_to and instant(valid_to) <= instant(valid_from):
        problems.append(
            f"{path}: valid_to {valid_to} is not after valid_from {valid_from}; the period is "
            "[valid_from, valid_to) with valid_to exclusive"
        )
    return valid_from, valid_to


_SERIES = re.compile(r"[vV]?(\d+(?:\.\d+)*)\.[xX*]")  # "v2.x", "16.*": a series, not one release


def _releases(raw: dict[str, Any], path: str, problems: list[str],
              ) -> tuple[str | None, str | None]:
    """`version` (normalised: `v1.0.0-beta.1` → `1.0.0b1`) and `applies_to_versions`; the
    version, when both are given, must be one of the releases the range covers."""
    version = _as_str(raw.get("version"), "version", path, problems)
    covers = _as_str(raw.get("applies_to_versions"), "applies_to_versions", path, problems)
    parsed = None
    if version is not None:
        try:
            parsed = releases.parse(version)
            version = str(parsed)
        except releases.ReleaseError as exc:
            series = _SERIES.fullmatch(version.strip())
            problems.append(f"{path}: version {exc}" + (
                f"; a document that covers a series of releases says so with "
                f"`applies_to_versions: \"{series.group(1)}.x\"` (or a range such as "
                f"\">=2.0,<3.0\") instead of `version`" if series else ""))
    if covers is not None:
        try:
            lo, hi = releases.span(covers)
        except releases.ReleaseError as exc:
            problems.append(f"{path}: {exc}")
        else:
            if parsed is not None and not lo <= releases.key(parsed) < hi:
                problems.append(f"{path}: version {version} is not among the releases "
                                f"applies_to_versions {covers!r} covers; widen the range or "
                                "correct the version")
    return version, covers


def _kinds(raw: dict[str, Any], path: str, problems: list[str]):
    """`valid_for`, `kind` and `recorded_at`."""
    valid_for = ValidFor.PURCHASE_DATE
    if raw.get("valid_for") not in (None, ""):
        try:
            valid_for = ValidFor.parse(str(raw["valid_for"]).strip(), "valid_for")
        except ValueError as exc:
            problems.append(f"{path}: {exc}")
    kind = DocKind.DOCUMENT
    if raw.get("kind") not in (None, ""):
        try:
            kind = DocKind.parse(str(raw["kind"]).strip(), "kind")
        except ValueError as exc:
            problems.append(f"{path}: {exc}")
    recorded_at = None
    if raw.get("recorded_at") not in (None, ""):
        try:
            recorded_at = _supported(dt.datetime.fromisoformat(str(raw["recorded_at"]).strip()),
                                     "recorded_at", path, problems)
        except ValueError:
            problems.append(
                f"{path}: unreadable date-time recorded_at: {raw['recorded_at']!r}; "
                "write e.g. 2026-05-04T09:30:00"
            )
    return valid_for, kind, recorded_at
