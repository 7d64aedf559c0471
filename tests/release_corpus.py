"""A release-versioned corpus of three products, shaped like real documentation: a runtime's
API reference at 13 releases (entries headed by identifiers, each with its Stability line, a
history note and a signature), a UI toolkit's release notes scraped from release pages (page
chrome before and after the notes), and a data engine's release notes. Product names are
written as their makers write them ("Node.js", "Bootstrap", "Apache Spark")."""

from __future__ import annotations

from pathlib import Path

NODE_VERSIONS = ["11.15.0", "12.22.12", "13.14.0", "14.21.3", "15.14.0", "16.20.2", "17.9.1",
                 "18.20.8", "19.9.0", "20.19.0", "21.7.3", "22.14.0", "23.11.0"]
BOOTSTRAP = {"5.3.3": ["Fixed the selector engine for escaped IDs in data attributes (#39642)",
                       "Fixed a tooltip flicker in Safari (#39700)",
                       "Docs: updated the grid examples (#39710)"],
             "5.3.4": ["Dependency updates: bumped Popper to 2.11.8 and Sass to 1.78 (#40931)",
                       "Fixed the dropdown position in RTL layouts (#40950)"],
             "5.3.5": ["Docs: new color mode examples for the navbar (#41001)",
                       "Fixed focus rings on floating labels (#41020)"]}
SPARK = {"3.4.3": "[SPARK-46000] Fix a race in the shuffle service when executors exit",
         "3.4.4": "[SPARK-48710] Use NumPy 2.0 compatible types in PySpark"}


def _front(**meta: str) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in meta.items()) + "---\n\n"


def _assert_page(v: str) -> str:
    major = int(v.split(".")[0])
    partial = "" if major < 22 else (
        "\n## assert.partialDeepStrictEqual(actual, expected[, message])\n\n<!-- YAML\n"
        "added: v22.13.0\n-->\n\n"
        f"Stability: {'1.0 - Early development' if major == 22 else '1.2 - Release candidate'}\n\n"
        "Tests for partial deep equality between the actual and expected parameters.\n")
    return (
        "# Assert\n\nStability: 2 - Stable\n\nThe `node:assert` module provides a set of "
        "assertion functions for verifying invariants.\n\n```js\nconst assert = "
        "require('node:assert');\n```\n\n"
        "## Class: assert.CallTracker\n\n<!-- YAML\nadded: v14.2.0\ndeprecated: v20.1.0\n-->\n\n"
        f"Stability: {'1 - Experimental' if major < 20 else '0 - Deprecated'}\n\n"
        "This feature tracks how often functions are called.\n\n"
        "## assert.deepEqual(actual, expected[, message])\n\n"
        "Stability: 3 - Legacy: Use assert.deepStrictEqual() instead.\n\n"
        "Tests for deep equality between the actual and expected parameters.\n\n"
        "## assert.notDeepEqual(actual, expected[, message])\n\n"
        "Stability: 3 - Legacy: Use assert.notDeepStrictEqual() instead.\n\n"
        "Tests for any deep inequality.\n" + partial)


ERROR_VERSIONS = ["17.9.1", "20.19.0"]


def _errors_page(v: str) -> str:
    return (
        "# Errors\n\nApplications running in Node.js will generally experience four categories "
        "of errors.\n\n## Class: Error\n\nA generic JavaScript Error object that does not "
        "denote any specific circumstance of why the error occurred.\n\n"
        "### new Error(message[, options])\n\n* `message` {string}\n* `options` {Object}\n\n"
        "Creates a new Error object and sets the error.message property to the provided text "
        "message.\n\n### error.code\n\n* Type: {string}\n\nThe error.code property is a string "
        "label that identifies the kind of error.\n\n## Common system errors\n\n### EMFILE\n\n"
        "Too many open files in system: the maximum number of file descriptors allowable on "
        "the system has been reached.\n\n### ENOENT\n\nNo such file or directory: the path "
        f"given does not exist (documented at {v}).\n")


def write_release_corpus(docs: Path) -> Path:
    docs.mkdir(parents=True, exist_ok=True)
    for v in NODE_VERSIONS:
        (docs / f"assert-{v}.md").write_text(_front(
            source_id=f"NODE-ASSERT-{v}", title="Assert | Node.js Documentation",
            product="Node.js", family="Node.js Assert", version=v) + _assert_page(v), "utf-8")
    for v in ERROR_VERSIONS:
        (docs / f"errors-{v}.md").write_text(_front(
            source_id=f"NODE-ERRORS-{v}", title="Errors | Node.js Documentation",
            product="Node.js", family="Node.js Errors", version=v) + _errors_page(v), "utf-8")
    for v, items in BOOTSTRAP.items():  # as scraped from the release page: chrome around
        (docs / f"bootstrap-{v}.md").write_text(_front(
            source_id=f"BS-{v}", title=f"Release v{v} · twbs/bootstrap", product="Bootstrap",
            family="Bootstrap releases", version=v, kind="notes") +
            f"twbs / bootstrap\n\nReleases v{v}\n\nCompare\n\n## v{v}\n\n" +
            "".join(f"- {item}\n" for item in items) + "\nAssets\n", "utf-8")
    for v, line in SPARK.items():
        (docs / f"spark-{v}.md").write_text(_front(
            source_id=f"SPARK-{v}", title=f"Spark Release {v}", product="Apache Spark",
            family="Apache Spark releases", version=v, kind="notes") +
            f"# Spark Release {v}\n\nSpark {v} is a maintenance release containing security "
            "and correctness fixes. This release is based on the branch-3.4 maintenance branch "
            f"of Spark.\n\n## Notable changes\n\n- {line}\n- Upgrade the Parquet dependency.\n",
            "utf-8")
    return docs
