"""Reading the question once: its dates, intent, products, releases, comparison and language, and the proposal a model may make."""
