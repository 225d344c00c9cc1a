"""The fixture corpora: the repository's four class folders, read as texts and labels, and 20
Newsgroups from ../shared/corpora where it is present."""

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


NEWS = ROOT.parent / "shared" / "corpora" / "20news-bydate"


def _read_split(root):
    """(texts, labels) of a class-per-folder split, as scikit-learn's load_files reads them."""
    texts, labels = [], []
    for path in sorted(root.glob("*/*")):
        data = path.read_bytes()
        try:
            texts.append(data.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(data.decode("latin-1"))
        labels.append(path.parent.name)
    return texts, labels


@pytest.fixture(scope="session")
def news():
    """(train texts, train labels, test texts) of 20 Newsgroups; skipped without
    ../shared/corpora."""
    if not NEWS.is_dir():
        pytest.skip("needs ../shared/corpora")
    train, labels = _read_split(NEWS / "train")
    return train, labels, _read_split(NEWS / "test")[0]


def interleaved(count, parts=4):
    """Positions 0..count taken every `parts`-th in turn, so that each of `parts` equal
    partitions holds every class of a corpus in class order."""
    return [i for start in range(parts) for i in range(start, count, parts)]
