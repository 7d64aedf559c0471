"""situated: RAG that answers from the evidence that applies to the asker."""

__version__ = "0.1.0"
