"""Evaluation report: JSON, Markdown and PNG plots in the output directory; a rich table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rich.table import Table

SHOWN = ["evidence_recall", "noise", "stale_version_rate", "permission_leaks", "status_accuracy",
         "clarification_precision", "clarification_recall", "no_evidence_accuracy",
         "citation_validity", "citation_support", "fact_accuracy", "first_unit_fact",
         "change_accuracy", "listing_accuracy", "latency_p50_ms", "latency_p95_ms"]


def fmt(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3f}" if v <= 1.0 else f"{v:.1f}"
    return str(v)


def rich_table(summary: dict[str, dict]) -> Table:
    t = Table(title="situated eval")
    t.add_column("metric")
    for name in summary:
        t.add_column(name, justify="right")
    for m in SHOWN:
        t.add_row(m, *(fmt(summary[s].get(m)) for s in summary))
    return t


def plots(summary: dict[str, dict], per_case: dict[str, list[dict]], out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files = []
    names = list(summary)
    # a metric every system scores the same on tells nothing apart: it is left out of the plot
    # (the summary table still has it)
    quality = [m for m in ("evidence_recall", "noise", "stale_version_rate", "status_accuracy",
                           "citation_validity", "citation_support", "fact_accuracy")
               if len({summary[n].get(m) for n in names}) > 1] or ["status_accuracy"]
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        vals = [summary[name].get(m) or 0.0 for m in quality]
        ax.bar([x + i * width for x in range(len(quality))], vals, width, label=name)
    ax.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(quality))])
    ax.set_xticklabels([m.replace("_", "\n") for m in quality], fontsize=8)
    ax.set_ylim(0, 1.2)
    ax.set_title("Quality by system, metrics that differ (noise and stale: lower is better)")
    ax.legend(fontsize=8, ncol=len(names), loc="upper center")
    fig.tight_layout()
    fig.savefig(out / "quality.png", dpi=110)
    plt.close(fig)
    files.append("quality.png")

    def small(name: str, title: str, draw) -> None:
        fig, ax = plt.subplots(figsize=(7, 4))
        draw(ax)
        ax.set_title(title)
        ax.tick_params(axis="x", labelsize=8)
        fig.tight_layout()
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        files.append(name)

    leaks = [summary[n]["permission_leaks"] for n in names]
    small("leaks.png", "Permission leaks (must be 0)", lambda ax: ax.bar(
        names, leaks, color=["tab:green" if v == 0 else "tab:red" for v in leaks]))
    small("latency.png", "Latency per case (ms)", lambda ax: ax.boxplot(
        [[r["latency_ms"] for r in per_case[n]] for n in names], tick_labels=names))
    return files


def by_tag(per_case: dict[str, list[dict]]) -> dict[str, dict[str, dict]]:
    """Per system and case tag: cases, status accuracy, evidence recall, stale rate."""
    out: dict[str, dict[str, dict]] = {}
    for name, rows in per_case.items():
        groups: dict[str, list[dict]] = {}
        for r in rows:
            for t in r.get("tags") or []:
                groups.setdefault(t, []).append(r)
        out[name] = {}
        for tag, rs in sorted(groups.items()):
            def mean(key: str, rows=rs) -> float | None:
                got = [r[key] for r in rows if r.get(key) is not None]
                return sum(got) / len(got) if got else None

            out[name][tag] = {
                "cases": len(rs),
                "status_accuracy": mean("status_ok"),
                "evidence_recall": mean("evidence_recall"),
                "stale_version_rate": sum(bool(r["stale"]) for r in rs) / len(rs),
                "change_accuracy": mean("change_ok"),
                "listing_accuracy": mean("listing_ok"),
                "fact_accuracy": mean("fact_accuracy"),
                "first_unit_fact": mean("first_unit_fact"),
                "appearance_accuracy": mean("appearance_ok"),
                "appearance_stated": mean("appearance_noted"),
                "no_evidence_accuracy": mean("no_evidence_ok"),
            }
    return out


def write(summary, per_case, gate_failures, out: Path, cases_path: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    files = plots(summary, per_case, out)
    tags = by_tag(per_case)
    (out / "report.json").write_text(json.dumps(
        {"cases": cases_path, "summary": summary, "by_tag": tags, "per_case": per_case,
         "gate_failures": gate_failures}, indent=2, ensure_ascii=False), encoding="utf-8")
    lines = [f"# situated evaluation\n\nCases: `{cases_path}`\n", *_failures(per_case),
             "## Summary\n",
             "| metric | " + " | ".join(summary) + " |",
             "|---|" + "---:|" * len(summary)]
    for m in SHOWN:
        lines.append(f"| {m} | " + " | ".join(fmt(summary[s].get(m)) for s in summary) + " |")
    if tags.get("situated"):
        lines += ["", "## By tag (situated)", "", "| tag | cases | status acc. | recall | stale |",
                  "|---|---:|---:|---:|---:|"]
        for tag, row in tags["situated"].items():
            lines.append(f"| {tag} | {row['cases']} | {fmt(row['status_accuracy'])} | "
                         f"{fmt(row['evidence_recall'])} | "
                         f"{fmt(row['stale_version_rate'])} |")
    lines += ["", "## Plots", ""] + [f"![{f}]({f})" for f in files]
    lines += ["", "## Gate", ""]
    lines += [f"- FAILED: {g}" for g in gate_failures] or ["- passed"]
    lines += ["", "## Cases (situated)", "",
              "| | case | status | recall | noise | stale | leaks |",
              "|---|---|---|---:|---:|---|---:|"]
    for r in per_case.get("situated", []):
        lines.append(f"| {'✗' if r.get('failed') else ''} | {r['case_id']} | {r['status']} | "
                     f"{fmt(r['evidence_recall'])} | {fmt(r['noise'])} | "
                     f"{'yes' if r['stale'] else ''} | {r['leaks']} |")
    text = "\n".join(lines) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    (out / "report.html").write_text(html_report(text, out), encoding="utf-8")


def html_report(markdown: str, out: Path) -> str:
    """The Markdown report as one HTML page with its plots inline (data URIs), readable
    offline and mailed as one file. Raw HTML in it (a question, an answer) is shown as text."""
    import base64

    from markdown_it import MarkdownIt

    def inline_plot(m: re.Match) -> str:
        path = out / m.group(1)
        data = base64.b64encode(path.read_bytes()).decode("ascii") if path.is_file() else ""
        return f"![{m.group(1)}](data:image/png;base64,{data})"

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(
        re.sub(r"!\[[^\]]*\]\(([\w.-]+\.png)\)", inline_plot, markdown))
    style = ("body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;"
             "vertical-align:top}img{max-width:100%}")
    return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>situated evaluation"
            f"</title><style>{style}</style></head><body>{body}</body></html>\n")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _failures(per_case: dict[str, list[dict]]) -> list[str]:
    """The failed cases of `situated` first, each with what it asked, what was expected and
    what came back, so a failure can be acted on without opening the JSON."""
    failed = [r for r in per_case.get("situated", []) if r.get("failed")]
    if not failed:
        return ["## Failed cases (situated)\n", "none\n"]
    out = ["## Failed cases (situated)\n", "| case | question | expected | got | evidence |",
           "|---|---|---|---|---|"]
    for r in failed:
        out.append(f"| ✗ {_cell(r['case_id'])} | {_cell(r['question'])} | "
                   f"{_cell(r['expected'])} | {_cell(r['status'])}: {_cell(r['answer'][:160])} | "
                   f"{_cell(', '.join(r['supplied']))} |")
    return [*out, ""]
