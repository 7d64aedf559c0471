"""The English words questions are read by, one module per concern (`situated.words`)."""
