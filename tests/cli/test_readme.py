"""The README teaches what the repository does: every command of "Your own documents" runs, in
order, in one shell, and each command's commented outcome holds ("#   answered: …" is the status
it prints first, each quoted fragment is in its output); the numbers it states about the
sample are the repository's."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from conftest import free_port, seed_cache

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
STATUSES = ("answered", "clarify", "no_evidence", "withheld")


def section(text: str, title: str, level: int = 2) -> str:
    """The lines from the heading `title` (of `level`) to the next heading of that level or
    above, outside a code fence."""
    lines = text.splitlines()
    start = lines.index(f"{'#' * level} {title}")
    fenced = False
    for end in range(start + 1, len(lines)):
        if lines[end].startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(rf"#{{1,{level}}} ", lines[end]):
            break
    else:
        end = len(lines)
    return "\n".join(lines[start:end]) + "\n"


def bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)


def commands(block: str) -> list[tuple[str, list[str]]]:
    """(command, the comment lines after it) in order; a heredoc or a line ending in `\\` is
    part of its command."""
    out: list[tuple[str, list[str]]] = []
    lines = block.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            if out:
                out[-1][1].append(line.lstrip("# ").rstrip())
            continue
        cmd = [line]
        while cmd[-1].rstrip().endswith("\\") and i < len(lines):
            cmd.append(lines[i])
            i += 1
        heredoc = re.search(r"<<'(\w+)'", line)
        if heredoc:
            while i < len(lines):
                cmd.append(lines[i])
                i += 1
                if lines[i - 1] == heredoc.group(1):
                    break
        out.append(("\n".join(cmd), []))
    return out


def _flat(text: str) -> str:
    return " ".join(text.split())


def expectations(comments: list[str]) -> tuple[str | None, list[str]]:
    """The status a comment opens with ("answered: …") and the quoted fragments it shows
    (split at "…")."""
    first = comments[0] if comments else ""
    status = next((s for s in STATUSES if first == s or first.startswith(f"{s}:")), None)
    if status is None and (shown := re.match(r'\{"output": \{"status": "(\w+)"', first)):
        status = shown.group(1)  # a JSON body's status
    fragments = []
    for comment in comments:
        for quoted in re.findall(r'"([^"]*)"|«([^»]*)»', comment.split("{", 1)[0]):
            quoted = "".join(quoted)
            fragments += [_flat(p).strip(" .") for p in quoted.split("…")]
    return status, [f for f in fragments if len(f) > 3]


def test_the_walkthrough_parses_into_commands_with_outcomes():
    steps = [c for b in bash_blocks(section(README, "Your own documents")) for c in commands(b)]
    assert [c.split()[0] for c, _ in steps][:4] == ["mkdir", "cat", "cat", "cat"]
    checked = [expectations(c) for _, c in steps]
    assert sum(1 for s, _ in checked if s) >= 6  # most commands say what they print
    assert any("situated ingest" in c for c, _ in steps)
    assert any("situated serve" in c for c, _ in steps)
    assert any("situated eval" in c for c, _ in steps)


def run_as_written(steps: list[tuple[str, list[str]]], tmp_path: Path,
                   warm_vectors: Path) -> list[str]:
    """`steps` run in order in one shell under `tmp_path` (a free port for 8000), each
    command's commented outcome checked; their outputs."""
    port = str(free_port())
    script = ["set -euo pipefail"]
    for n, (cmd, _) in enumerate(steps):
        script += [f"printf '\\n@@step {n}\\n'", cmd.replace("8000", port)]
    env = {**os.environ, "SITUATED_CACHE_DIR": str(seed_cache(tmp_path / "cache", warm_vectors)),
           "COLUMNS": "100",
           "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    outputs = re.split(r"\n@@step \d+\n", done.stdout)[1:]  # a body may end without a newline
    assert len(outputs) == len(steps)
    for (cmd, comments), output in zip(steps, outputs, strict=True):
        status, fragments = expectations(comments)
        flat = _flat(output)
        if status:
            assert flat.startswith(status) or f'"status":"{status}"' in flat.replace(" ", ""), \
                (cmd, output[:500])
        for fragment in fragments:
            assert fragment in flat, (cmd, fragment, output[:800])
    return outputs


@pytest.mark.slow
@pytest.mark.integration
def test_your_own_documents_runs_as_written(tmp_path, warm_vectors):
    steps = [c for b in bash_blocks(section(README, "Your own documents")) for c in commands(b)]
    outputs = run_as_written(steps, tmp_path, warm_vectors)
    public = outputs[next(i for i, (c, _) in enumerate(steps)
                          if "alarm code" in c and "--role" not in c)]
    assert "4711" not in public and "GYM-STAFF" not in public and "handbook" not in public
    assert (tmp_path / "myreport" / "report.md").is_file()
    assert (tmp_path / "myreport" / "report.html").is_file()


@pytest.mark.integration
def test_the_key_line_run_twice_stops_with_the_fix(tmp_path):
    """Re-running the README's serve block once left KEY empty and curl met a 401: the key
    line for a name already in keys.yaml exits non-zero with the fix on stderr, and the block
    stops there (`|| exit 1`)."""
    steps = [c for b in bash_blocks(section(README, "Your own documents")) for c in commands(b)]
    (line,) = [c for c, _ in steps if "keys new" in c]
    script = "\n".join([line, "echo first:$KEY", line, "echo never reached"])
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 1 and "never reached" not in done.stdout
    assert re.search(r"first:\S{20,}", done.stdout)
    assert "already exists" in done.stderr and "--replace" in done.stderr


def _sample_counts() -> tuple[int, int]:
    from situated.eval.cases import load_cases
    from situated.index.store import sample_docs_dir
    from situated.loaders.corpus import load_corpus

    cases = load_cases(ROOT / "situated" / "eval" / "sample_cases.yaml")
    return len(load_corpus([sample_docs_dir()]).documents), len(cases)


def test_every_number_stated_about_the_sample_is_the_repositorys():
    documents, cases = _sample_counts()
    texts = {"README.md": README}
    texts |= {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
              for p in sorted((ROOT / "docs").glob("*.md"))}
    stated = 0
    for name, text in texts.items():
        flat = _flat(text)
        for m in re.finditer(r"\b(\d+) (?:built-in|sample)(?: evaluation)? cases\b", flat):
            assert int(m.group(1)) == cases, (name, m.group(0))
            stated += 1
        for m in re.finditer(r"sample corpus \((\d+) documents\)|\b(\d+)-document sample\b",
                             flat):
            assert int(m.group(1) or m.group(2)) == documents, (name, m.group(0))
            stated += 1
    assert stated >= 3  # the README and the reference do state them


@pytest.mark.slow
@pytest.mark.integration
def test_what_else_it_answers_runs_as_written(tmp_path):
    """The tour over the sample: each line a command and, after ` # `, what it prints."""
    (block,) = bash_blocks(section(README, "What else it answers"))
    env = {**os.environ, "COLUMNS": "100", "HF_HUB_OFFLINE": "1",
           "ANONYMIZED_TELEMETRY": "False"}
    lines = [line for line in block.splitlines() if line.strip()]
    assert len(lines) >= 6
    for line in lines:
        found = re.match(r"^(.*?)\s+#\s+(.*)$", line)
        cmd, comment = (found.group(1), found.group(2)) if found else (line, "")
        done = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, (cmd, done.stderr[-2000:])
        status, fragments = expectations([comment.strip()])
        flat = _flat(done.stdout)
        if status:
            assert flat.startswith(status), (cmd, done.stdout[:400])
        for fragment in fragments:
            assert fragment in flat, (cmd, fragment, done.stdout[:600])


RESULTS = ROOT / "benchmarks" / "results"
# every time the README states, the phrase that states it (with its conditions), and the
# benchmark result it comes from: (file, keys to the value in seconds, seconds per unit)
FIGURES = [
    (r"install ~(\d+) min", "first_hour.json", ("install_s",), 60),
    (r"the first ask indexes the sample from its shipped vectors: ~(\d+) s on two idle cores",
     "first_hour.json",
     ("current", "first_ask_s"), 1),
    (r"run every test: ~(\d+) min on two idle cores", "suite_time.json", ("full", "wall_s"),
     60),
    (r"beside two busy processes they take ~([\d.]+)× as long", "suite_time_loaded.json",
     ("quick", "ratio_to_idle"), 1),
    (r"the quick ones in ~(\d+) min", "suite_time.json", ("quick", "wall_s"), 60),
    (r"a warm `situated ask` takes about ([\d.]+) s on two idle cores", "first_hour.json",
     ("current", "warm_ask_p50_s"), 1),
    (r"ingests them in ~(\d+) s on two idle cores", "first_hour.json",
     ("current", "walkthrough_ingest_s"), 1),
]
TIME = re.compile(r"~?\d+(?:\.\d+)?(?:[–-]\d+)? ?(?:s|min|seconds|minutes)\b")


def _measured(name: str, keys: tuple[str, ...]) -> float:
    import json

    value = json.loads((RESULTS / name).read_text(encoding="utf-8"))["results"]
    for key in keys:
        value = value[key]
    return float(value)


def test_every_time_the_readme_states_is_a_benchmarks_with_its_conditions():
    """Each time in the README is stated with the machine's load (idle cores, or a measured
    ratio beside busy processes) and comes from the JSON of the benchmark that measured it,
    rounded as written (`benchmarks/first_hour.py`,
    `benchmarks/suite_time.py`); a time with no entry here fails, so none is written by hand."""
    flat = _flat(README)
    tied: list[range] = []
    for phrase, name, keys, unit in FIGURES:
        found = list(re.finditer(phrase, flat))
        assert len(found) == 1, f"the README should state {phrase!r} once, found {found}"
        written = found[0].group(1)
        decimals = len(written.partition(".")[2])
        measured = round(_measured(name, keys) / unit, decimals)
        assert float(written) == measured, (phrase, written, measured, name)
        tied.append(range(found[0].start(), found[0].end()))
    untied = [m.group(0) for m in TIME.finditer(flat)
              if not any(m.start() in span for span in tied)]
    assert not untied, f"times in the README with no benchmark behind them: {untied}"


@pytest.mark.slow
@pytest.mark.integration
def test_the_release_example_of_the_reference_runs_as_written(tmp_path, warm_vectors):
    """The guide at two releases beside its changelog (docs/reference.md, "A guide and its
    changelog"): each ask prints what its comment says."""
    reference = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    block = section(reference, "A guide and its changelog", level=4)
    steps = [c for b in bash_blocks(block) for c in commands(b)]
    assert sum(1 for c, _ in steps if c.startswith("situated ask")) >= 4
    run_as_written(steps, tmp_path, warm_vectors)
