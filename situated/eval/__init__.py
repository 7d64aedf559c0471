"""Evaluation runs: labelled cases, applicability metrics, baselines side by side, a gate."""
