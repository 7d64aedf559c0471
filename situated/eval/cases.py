"""Labelled evaluation cases (YAML list or JSONL, one case per line). See docs/reference.md "Evaluation"."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from situated.chains.contract import Status
from situated.errors import SituatedError
from situated.situation import Scope, Situation

SAMPLE_CASES = Path(__file__).with_name("sample_cases.yaml")


class Expect(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Status | None = None
    evidence: list[str] = Field(default_factory=list, description="source or block ids")
    stale: list[str] = Field(default_factory=list, description="inapplicable versions")
    forbidden: list[str] = Field(default_factory=list, description="sources the caller may not read")
    forbidden_text: list[str] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    changes: list[str] = Field(
        default_factory=list, description="pairs of versions the answer's `changes` must hold, "
        "\"OLD>NEW\" (\">NEW\" for a first version), each side cited")
    changed_text: list[str] = Field(
        default_factory=list, description="words that must be among the sentences those pairs "
        "removed or added (compared word by word, case-insensitive)")
    versions: list[str] = Field(
        default_factory=list, description="the exact listing: source ids, oldest first")
    releases: list[str] | None = Field(
        default=None, description="the releases a question about a release line must name, "
        "exactly, oldest first ([] for a version that does not exist)")
    appearance: str | None = Field(
        default=None, description="the release a document's own notes give for \"in which "
        "version was X added\": the answer's version must be the first one at or after it, "
        "the version before it earlier")


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    question: str = Field(min_length=1)
    situation: Situation | None = None
    follows: str | None = Field(None, description="the question this turn replies to")
    scope: Scope = Field(default_factory=Scope)
    expect: Expect = Field(default_factory=Expect)
    tags: list[str] = Field(default_factory=list, description="groups reported apart")


class CaseError(SituatedError):
    pass


def load_cases(path: Path | None = None) -> list[Case]:
    path = Path(path) if path else SAMPLE_CASES
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CaseError(f"cannot read cases file {path}: {exc}") from None
    try:
        if path.suffix == ".jsonl":
            raw = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            raw = yaml.safe_load(text) or []
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise CaseError(f"{path}: not valid {path.suffix.lstrip('.')} ({exc})") from None
    if not isinstance(raw, list):
        raise CaseError(f"{path}: expected a list of cases, got {type(raw).__name__}")
    cases, problems = [], []
    for i, item in enumerate(raw):
        try:
            cases.append(Case.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            problems.append(f"case {i} ({(item or {}).get('id', '?')}): {first['msg']} at "
                            f"{'.'.join(map(str, first['loc']))}")
    ids = [c.id for c in cases]
    problems += [f"duplicate case id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if problems:
        raise CaseError(f"{path}: " + "; ".join(problems))
    if not cases:
        raise CaseError(f"{path}: no cases")
    return cases
