"""The fixture corpus: the repository's four class folders, read as texts and labels."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def corpus():
    """(texts, labels) of corpora/, in path order."""
    texts, labels = [], []
    for path in sorted((ROOT / "corpora").glob("*/*.txt")):
        data = path.read_bytes()
        try:
            texts.append(data.decode("utf-8"))
        except UnicodeDecodeError:
            # One file is Windows-1252 on purpose, as bowline decodes what is not UTF-8.
            texts.append(data.decode("cp1252"))
        labels.append(path.parent.name)
    return texts, labels
