"""Every third-party module the package imports is brought in by a declared dependency.

A fresh `pip install -e .` installs only what `pyproject.toml` declares (and what those
distributions require in turn). An import that works here only because a package was installed
by hand breaks every user; this test walks the imports of `situated/` and checks each one against
the dependency closure of the declared requirements, read with `importlib.metadata`.

An import inside `try: ... except ImportError:` is optional: it may come from an extra. Every
other import must come from the core dependencies. Test files may also use the `dev` extra.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _req_name(req: str) -> str:
    return _norm(re.split(r"[\s<>=!~;\[(@]", req.strip(), maxsplit=1)[0])


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def closure(requirements: list[str]) -> set[str]:
    """Distributions a pip install of `requirements` brings in (their extras excluded)."""
    seen: set[str] = set()
    todo = [_req_name(r) for r in requirements]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            reqs = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [_req_name(r) for r in reqs if "extra ==" not in r]
    return seen


def _optional_lines(tree: ast.AST) -> set[int]:
    """Line numbers of imports inside a `try` whose handlers catch ImportError."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        names = {ast.unparse(h.type) for h in node.handlers if h.type is not None}
        if not any("ImportError" in n or "ModuleNotFoundError" in n for n in names):
            continue
        for stmt in node.body:
            for sub in ast.walk(stmt):
                if isinstance(sub, ast.Import | ast.ImportFrom):
                    lines.add(sub.lineno)
    return lines


def third_party_imports(folder: Path, own: set[str]) -> dict[str, tuple[str, bool]]:
    """Top-level module → (first place it is imported, whether every import of it is optional)."""
    found: dict[str, tuple[str, bool]] = {}
    for f in sorted(folder.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        optional = _optional_lines(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods = [node.module]
            else:
                continue
            for m in mods:
                top = m.split(".")[0]
                if top in sys.stdlib_module_names or top in own or top == "__future__":
                    continue
                where = f"{f.relative_to(folder.parent)}:{node.lineno}"
                is_opt = node.lineno in optional
                prev = found.get(top)
                found[top] = (prev[0] if prev else where, (prev[1] if prev else True) and is_opt)
    return found


def undeclared(folder: Path, core: list[str], optional: list[str], own: set[str]) -> list[str]:
    owners = {k: {_norm(d) for d in v} for k, v in metadata.packages_distributions().items()}
    core_set, full_set = closure(core), closure(core + optional)
    bad = []
    for top, (where, is_opt) in sorted(third_party_imports(folder, own).items()):
        dists = owners.get(top)
        allowed = full_set if is_opt else core_set
        if not dists and is_opt and _norm(top) in full_set:
            continue  # an optional extra that is not installed here, declared under its name
        if not dists:
            bad.append(f"{top} (imported at {where}) is not installed: declare it")
        elif not dists & allowed:
            bad.append(f"{top} (imported at {where}) comes from {', '.join(sorted(dists))}, "
                       "which no declared dependency brings in: add it to pyproject.toml")
    return bad


def test_every_import_of_the_package_is_declared():
    project = _project()
    extras = project.get("optional-dependencies", {})
    every_extra = [r for reqs in extras.values() for r in reqs]
    bad = undeclared(ROOT / "situated", project["dependencies"], every_extra, {"situated"})
    assert not bad, "undeclared imports:\n" + "\n".join(bad)


def test_every_import_of_the_tests_is_declared():
    project = _project()
    extras = project.get("optional-dependencies", {})
    core = project["dependencies"] + extras.get("dev", [])
    every_extra = [r for reqs in extras.values() for r in reqs]
    own = {"situated", "conftest", "fakes"} | {p.stem for p in (ROOT / "tests").glob("*.py")}
    bad = undeclared(ROOT / "tests", core, every_extra, own)
    assert not bad, "undeclared imports in tests:\n" + "\n".join(bad)


def test_the_check_catches_an_undeclared_import(tmp_path):
    """The check itself can fail: a module importing something outside the closure."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text("import pytest\ntry:\n    import hypothesis\nexcept ImportError:\n"
                              "    hypothesis = None\n", encoding="utf-8")
    found = third_party_imports(pkg, set())
    assert found["pytest"][1] is False and found["hypothesis"][1] is True
    bad = undeclared(pkg, ["numpy"], ["hypothesis"], set())
    assert len(bad) == 1 and bad[0].startswith("pytest (imported at pkg/m.py:1)")
