"""The numpy runtime of MiniLM (a request's texts) against sentence-transformers (ingest's
batches): the same vectors and the same word pieces, and an ask that never imports torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from situated.index.minilm_numpy import NumpyMiniLM

TEXTS = [
    "What battery warranty applies to a C-3 bought on 15 March 2026?",
    "E-417",
    "",
    "Какой срок возврата для тарифа «Старт»?",
    "Ｆｕｌｌ-width ＡＢＣ and ligatures: ﬁxes, Shuﬄe; emoji 🚲 and accents: déjà vu",
    "word " * 300,  # past the 256 word pieces the model reads: cut as sentence-transformers does
    "Inspect the shaft seal every 2,000 operating hours.\n\nTable: | code | meaning |",
]


@pytest.fixture(scope="module")
def torch_model(embeddings):
    with embeddings._model_lock:
        return embeddings._sentence_transformer()


@pytest.mark.slow
def test_vectors_match_sentence_transformers(embeddings, torch_model):
    numpy_vectors = embeddings._numpy.encode(TEXTS)  # padded together, longest 256
    torch_vectors = torch_model.encode(TEXTS, normalize_embeddings=True, convert_to_numpy=True)
    assert numpy_vectors.shape == (len(TEXTS), 384) and numpy_vectors.dtype == np.float32
    assert np.abs(numpy_vectors - torch_vectors).max() < 1e-5
    one_by_one = np.stack([embeddings.encode_query(t) for t in TEXTS])  # unpadded, one each
    assert np.abs(one_by_one - torch_vectors).max() < 1e-5
    assert np.allclose(np.linalg.norm(numpy_vectors, axis=1), 1.0, atol=1e-5)


def test_encode_few_in_slices_matches_whole(embeddings):
    texts = [f"Rule {i}: the warranty lasts {i} months for model C-{i}." for i in range(19)]
    sliced = embeddings.encode_few(texts)
    assert sliced.shape == (19, 384)
    assert np.abs(sliced - embeddings._numpy.encode(texts)).max() < 1e-5
    assert embeddings.encode_few([]).shape == (0, 384)


@pytest.mark.slow
def test_word_pieces_match_the_model_tokenizer(embeddings, torch_model):
    for text in TEXTS:
        assert embeddings.token_ids(text) == torch_model.tokenizer.encode(
            text, add_special_tokens=False)
    assert embeddings.max_tokens == torch_model.max_seq_length - 2 == 254


def test_a_missing_model_file_names_it(tmp_path):
    with pytest.raises(Exception, match="config.json"):
        NumpyMiniLM(tmp_path)


@pytest.mark.slow
def test_an_ask_never_imports_torch(sample_root):
    """The whole CLI path of one question (settings, index open, search, answer) in a fresh
    process: no torch, no sentence-transformers, and the question answered."""
    code = (
        "import sys, json\n"
        "from situated.cli import app\n"
        "try:\n"
        "    app(['ask', '--index', sys.argv[1], '--json', sys.argv[2]])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "               ('torch', 'sentence_transformers', 'transformers'))\n"
        "print(json.dumps(heavy))\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    done = subprocess.run(
        [sys.executable, "-c", code, str(sample_root),
         "What battery warranty applies to a C-3 bought on 15 March 2026?"],
        env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    answer_text, _, heavy = done.stdout.rstrip().rpartition("\n")
    assert json.loads(heavy) == []
    assert json.loads(answer_text)["status"] == "answered"


@pytest.mark.slow
def test_a_small_batch_is_encoded_in_numpy_and_a_large_one_in_torch(torch_model, monkeypatch):
    """While torch is not loaded, a batch under `NUMPY_BATCH_PIECES` word pieces is encoded in
    numpy (rows in the order given, whatever their lengths); a larger one loads torch."""
    from situated.index import embeddings as backend

    fresh = backend.MiniLMEmbeddings()
    texts = [*TEXTS, *(f"Rule {i}: " + "the pump runs " * i for i in range(12))]
    vectors = fresh.encode(texts)
    assert fresh._torch_model is None
    expected = torch_model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
    assert vectors.shape == (len(texts), 384) and np.abs(vectors - expected).max() < 1e-5
    monkeypatch.setattr(backend, "NUMPY_BATCH_PIECES", 50)
    assert np.abs(fresh.encode(texts) - expected).max() < 1e-5
    assert fresh._torch_model is not None


@pytest.mark.slow
def test_a_few_documents_ingest_without_torch(tmp_path):
    """`situated ingest` of three short documents in a fresh process (the README's corpus
    size): the pieces, their sentences and the calibration's questions are encoded in numpy,
    so torch and sentence-transformers are never imported (~7-10 s saved)."""
    for i, topic in enumerate(("cancellation", "guests", "opening hours")):
        (tmp_path / "docs").mkdir(exist_ok=True)
        (tmp_path / "docs" / f"d{i}.md").write_text(
            f"---\nsource_id: GYM-{i}\ntitle: Gym {topic}\n---\n# {topic}\n\n## 1 Rule\n\n"
            f"Members ask about {topic} at the front desk, which answers within two days.\n",
            encoding="utf-8")
    code = (
        "import sys, json\n"
        "from situated.cli import app\n"
        "try:\n"
        "    app(['ingest', sys.argv[1], '--index', sys.argv[2]])\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in\n"
        "               ('torch', 'sentence_transformers', 'transformers'))\n"
        "print(json.dumps(heavy))\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
           "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "docs"),
                           str(tmp_path / "index")], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "relevance:" in done.stdout and json.loads(done.stdout.rstrip().rpartition("\n")[2]) == []
