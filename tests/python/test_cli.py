"""Model files are interchangeable with the program: a model trained in Python classifies the
same under `bowline classify`, and one from `bowline train` the same in Python.

The program is the release build CI makes before these tests (target/release/bowline), or the
one BOWLINE_BIN names; without either the tests are skipped."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest

import bowline

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROGRAM = pathlib.Path(os.environ.get("BOWLINE_BIN", ROOT / "target" / "release" / "bowline"))

pytestmark = pytest.mark.skipif(not PROGRAM.exists(), reason=f"{PROGRAM} is not built")

QUERIES = ["the rocket reached orbit around the moon", "bake the bread in a hot oven", "a fast compiler"]


def classify(model_path, kind):
    """What `bowline classify --format jsonl` says of QUERIES: each label and its scores by
    class."""
    run = subprocess.run(
        [str(PROGRAM), "classify", str(model_path), "-", "--format", "jsonl", "--top", "10"],
        input="\n".join(QUERIES) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    key = "score" if kind == "svm" else "probability"
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    return [(line["label"], {s["label"]: s[key] for s in line["scores"]}) for line in lines]


@pytest.mark.parametrize("kind", ["mnb", "svm"])
def test_a_model_trained_in_python_classifies_the_same_in_the_program(corpus, kind, tmp_path):
    texts, labels = corpus
    model = bowline.TextClassifier(kind).fit(texts, labels)
    model.save(tmp_path / "python.model")
    program = classify(tmp_path / "python.model", kind)
    assert [label for label, _ in program] == list(model.predict(QUERIES))
    ours = model._scores(QUERIES, False)
    for row, (_, scores) in zip(ours, program):
        theirs = np.array([scores[str(c)] for c in model.classes_])
        np.testing.assert_allclose(row, theirs, rtol=0, atol=1e-9)


def test_a_model_from_the_program_classifies_the_same_in_python(tmp_path):
    path = tmp_path / "program.model"
    subprocess.run(
        [str(PROGRAM), "train", str(ROOT / "corpora"), "-o", str(path), "--classifier", "cnb"],
        capture_output=True,
        check=True,
    )
    model = bowline.TextClassifier.load(path)
    program = classify(path, "cnb")
    assert [label for label, _ in program] == list(model.predict(QUERIES))
    proba = model.predict_proba(QUERIES)
    for row, (_, scores) in zip(proba, program):
        np.testing.assert_allclose(row, [scores[c] for c in model.classes_], rtol=0, atol=1e-9)
