"""The Russian words questions are read by, one module per concern (`situated.words`)."""
