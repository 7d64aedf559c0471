"""Write the tutorial notebooks (outputs stripped). Run by hand after editing the cells here:

    python tools/make_notebooks.py
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

OUT = Path(__file__).resolve().parents[1] / "notebooks"

SETUP = '''import os, tempfile
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
# keep the tutorial's index and embedding cache out of your own cache directory
os.environ.setdefault("SITUATED_CACHE_DIR", tempfile.mkdtemp(prefix="situated-notebook-"))'''

COMPOSE = [
    new_markdown_cell("""# Composing the `situated` chains

This notebook walks the flow once, step by step: documents become **blocks** (what the model
reads) and **pieces** (what search matches); one filter of the asker's *situation* and the
caller's *scope* runs inside every search leg; the router decides whether to ask, to stop, or to
answer; the answer cites labelled blocks that become links."""),
    new_code_cell(SETUP),
    new_markdown_cell("## 1. Load the sample documents: blocks and pieces"),
    new_code_cell('''from situated.index.store import sample_docs_dir
from situated.loaders.corpus import load_corpus

corpus = load_corpus([sample_docs_dir()])
print(len(corpus.documents), "documents,", corpus.n_blocks, "blocks,", corpus.n_pieces, "pieces")
manual = next(d for d in corpus.documents if d.meta.source_id == "MAN-C3-ASM")
block = next(b for b in manual.blocks if b.section == "4.2")
print("BLOCK", block.block_id, "\\n" + block.text)
for piece in manual.pieces:
    if piece.block_id == block.block_id:
        print("PIECE", piece.piece_id, "->", piece.search_text[:90], "...")'''),
    new_markdown_cell("""The rule and its cargo exception are one block, so they always reach the model
together, while search matches each paragraph on its own."""),
    new_markdown_cell("## 2. Index and search, with and without a situation and a scope"),
    new_code_cell('''import datetime as dt
from situated import App, Scope, Settings, Situation

app = App(Settings())          # no index_dir: the sample corpus, indexed on first use
retriever = app.retriever()    # anonymous scope: public documents only
question = "What battery warranty applies to a C-3?"
for doc in retriever.invoke(question):
    print(f"{doc.metadata['score']:.4f}", doc.metadata["block_id"])'''),
    new_code_cell('''situation = Situation(product="C-3", purchase_date=dt.date(2026, 3, 15))
for doc in retriever.invoke(question, situation=situation):
    print(f"{doc.metadata['score']:.4f}", doc.metadata["block_id"])
# revision 1 (2025) and the S-2 policy are gone, not ranked lower'''),
    new_code_cell('''pump = "How do I isolate pump P-2?"
print("anonymous:  ", [d.metadata["source_id"] for d in app.retriever().invoke(pump)])
tech = app.retriever(Scope(roles=["technician"], assets=["P-2"]))
print("P-2 technician:", [d.metadata["source_id"] for d in tech.invoke(pump)])'''),
    new_markdown_cell("## 3. Extraction (validated in code) and routing"),
    new_code_cell('''from situated import extraction_runnable

extract = extraction_runnable(app.index.products, clock=dt.date.today)
for q in ["What battery warranty applies to a bike bought on 15 March 2026?",
          "Я подключил тариф «Старт» 1 апреля 2026 года. Сколько дней на возврат?",
          "What does error E-417 mean?"]:
    v = extract.invoke({"question": q})
    print(v.situation.model_dump(exclude_none=True), v.notes)'''),
    new_code_cell('''from situated import build_ask_chain

ask = build_ask_chain(app)
print(ask.get_graph().draw_ascii())   # the steps: extract, validate, retrieve, route, ...
for q in ["How long is the battery warranty?",
          "What battery warranty applies to a bike bought on 15 March 2026?",
          "What is the capital of France?"]:
    a = ask.invoke({"question": q})
    print(a.status.value, a.missing, "-", a.answer)'''),
    new_markdown_cell("## 4. Answer with citations"),
    new_code_cell('''a = ask.invoke({"question": "What battery warranty applies to a C-3 bought on 15 March 2026?"})
print(a.status.value)
print(a.answer)
print([(e.label, e.block_id, e.tokens) for e in a.evidence], a.budget)'''),
    new_markdown_cell("""### A step of your own

The answer prompt is one step: swap it without touching the package. Keep `ANSWER_HUMAN` as
the human message (facts, labelled evidence, question) so any chat model, the offline one
included, reads the evidence; the citation check still runs on the reply."""),
    new_code_cell('''from langchain_core.prompts import ChatPromptTemplate
from situated.prompts.answer import ANSWER_HUMAN

terse = ChatPromptTemplate.from_messages([
    ("system", "Answer in one short sentence. End it with the label of its block, e.g. [S1]."),
    ANSWER_HUMAN])
mine = build_ask_chain(app, prompt=terse)
print("ChatPromptTemplate" in {n.name for n in mine.get_graph().nodes.values()})
print(mine.invoke({"question": "What does error E-417 mean?"}).answer)'''),
    new_markdown_cell("""## 5. Swap in an OpenAI-compatible model

Set `SITUATED_OPENAI_BASE_URL` (and the key in `OPENAI_API_KEY`) to run this cell against any
OpenAI-compatible endpoint; without them it is skipped."""),
    new_code_cell('''from situated.chains.say.models import make_chat_model

base_url = os.environ.get("SITUATED_OPENAI_BASE_URL")
if not base_url or not os.environ.get("OPENAI_API_KEY"):
    print("skipped: set SITUATED_OPENAI_BASE_URL and OPENAI_API_KEY to try a hosted model")
else:
    model = make_chat_model(Settings(model="openai", openai_base_url=base_url))
    print(build_ask_chain(app, model=model).invoke({"question": "What does error E-417 mean?"}).answer)'''),
    new_markdown_cell("""## 6. The same parts as stock LangChain components

Each search leg is a `BaseRetriever` that applies the filter *inside* the leg; the blocks are a
read-only `BaseStore`; the pieces are a `langchain_chroma.Chroma`. So the stock
`EnsembleRetriever` (fusing pieces by `parent_id`) and a stock `MultiVectorRetriever` compose
over them. The scope comes from the run config (`configurable.situated_scope`, what the server
puts there from the API key); a leg without one refuses to run."""),
    new_code_cell('''from langchain_classic.retrievers import EnsembleRetriever
from situated.retrievers.filter import Filter
from situated.retrievers.legs import Leg
from situated.retrievers.parts import (BlockStore, LegRetriever, parent_retriever,
                                       parent_swap)

legs = [LegRetriever(engine=app.engine, leg=leg, k=20).configurable() for leg in Leg]
stock = EnsembleRetriever(retrievers=legs, id_key="parent_id") | parent_swap(BlockStore(app.index))
q = "P-4 barrier fluid pressure"
for name, scope in [("anonymous", Scope()),
                    ("P-2 technician", Scope(roles=["technician"], assets=["P-2"])),
                    ("P-4 technician", Scope(roles=["technician"], assets=["P-4"]))]:
    docs = stock.invoke(q, config={"configurable": {"situated_scope": scope}})
    sources = {d.metadata["source_id"] for d in docs}
    print(f"{name:15}", "MAN-P4" in sources, sorted(sources)[:5])
assert "MAN-P4" not in {d.metadata["source_id"] for d in stock.invoke(
    q, config={"configurable": {"situated_scope": Scope()}})}'''),
    new_code_cell('''flt = Filter(situation=Situation(product="C-3", purchase_date=dt.date(2026, 3, 15)),
             scope=Scope(), timezone=app.index.timezone)
mv = parent_retriever(app.index, flt, k=10)   # a stock MultiVectorRetriever, one per request
print([d.metadata["block_id"] for d in mv.invoke("battery warranty")])'''),
]

SERVE = [
    new_markdown_cell("""# Calling the server

Start `situated serve` in the background, call it with LangServe's `RemoteRunnable`, stream an
answer, and stop it. The caller's scope comes from the API key only."""),
    new_code_cell(SETUP),
    new_code_cell('''import socket, threading, time
import httpx, uvicorn
from situated.app import App
from situated.auth import KeyStore, Principal, hash_key
from situated.server import create_app
from situated.settings import Settings

key = "notebook-demo-key-0123456789"   # in real use: `situated keys new NAME --keys keys.yaml`
keys = KeyStore([Principal(name="demo", key_sha256=hash_key(key), roles=("technician",),
                           assets=("P-2",))])
with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
server = uvicorn.Server(uvicorn.Config(create_app(App(Settings()), keys), host="127.0.0.1",
                                       port=port, log_level="warning"))
thread = threading.Thread(target=server.run, daemon=True); thread.start()
base = f"http://127.0.0.1:{port}"
while True:
    try:
        httpx.get(base + "/health", timeout=1); break
    except httpx.HTTPError:
        time.sleep(0.1)
print("serving on", base)'''),
    new_code_cell('''from langserve import RemoteRunnable

ask = RemoteRunnable(base + "/ask/", headers={"Authorization": f"Bearer {key}"})
answer = ask.invoke({"question": "How long is the battery warranty?"})
print(answer["status"], answer["missing"], answer["answer"])'''),
    new_code_cell('''# the reply completes the carried situation
answer = ask.invoke({"question": "How long is the battery warranty? A C-3 bought on 15 March 2026",
                     "situation": answer["situation"]})
print(answer["status"], answer["answer"])
print(httpx.get(base + answer["citations"][0]["link"].split("#")[0],
                headers={"X-API-Key": key}).text[:300])'''),
    new_code_cell('''for chunk in ask.stream({"question": "How do I align the coupling of pump P-2?"}):
    if "answer" in chunk:
        print(chunk["answer"], end="")
    else:
        print("\\n\\nfinal:", chunk["status"], [e["block_id"] for e in chunk["evidence"]])'''),
    new_code_cell('''server.should_exit = True
thread.join(timeout=10)
print("stopped")'''),
]


EVALUATE = [
    new_markdown_cell("""# Evaluating `situated` against baselines

Run the built-in labelled cases through `situated` and the baselines in one run, then look at
the report's plots. The same command is `situated eval --out DIR`."""),
    new_code_cell(SETUP),
    new_code_cell('''import datetime as dt, tempfile
from pathlib import Path
from situated.app import App
from situated.eval.cases import load_cases
from situated.eval.runner import run
from situated.eval.systems import systems
from situated.eval import report
from situated.settings import Settings

app = App(Settings())
cases = load_cases()                       # the sample cases; pass a path for your own
print(len(cases), "cases, e.g.", cases[0].model_dump(exclude_none=True))'''),
    new_code_cell('''compared = systems(app, baselines=True, clock=lambda: dt.date(2026, 11, 29))
summary, per_case = run(compared, cases)
out = Path(tempfile.mkdtemp(prefix="situated-eval-"))
report.write(summary, per_case, [], out, "built-in sample set")
for name, s in summary.items():
    print(f"{name:18s} recall={s['evidence_recall']:.2f} stale={s['stale_version_rate']:.2f} "
          f"leaks={s['permission_leaks']} status={s['status_accuracy']:.2f}")'''),
    new_markdown_cell("Only `situated` has zero permission leaks and zero stale versions:"),
    new_code_cell('''from IPython.display import Image, display
display(Image(filename=str(out / "quality.png")))
display(Image(filename=str(out / "leaks.png")))'''),
]


def write(name: str, cells: list) -> None:
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, OUT / name)


if __name__ == "__main__":
    write("01_compose_chains.ipynb", COMPOSE)
    write("02_evaluate.ipynb", EVALUATE)
    write("03_serve_client.ipynb", SERVE)
