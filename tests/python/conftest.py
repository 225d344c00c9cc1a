"""The fixture corpora: the repository's four class folders, read as texts and labels, and 20
Newsgroups from ../shared/corpora where it is present."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _read_split(root, pattern, fallback):
    """(texts, labels) of the files under class folders of `root` that `pattern` matches, in
    path order; a file that is not UTF-8 is decoded as `fallback`."""
    texts, labels = [], []
    for path in sorted(root.glob(pattern)):
        data = path.read_bytes()
        try:
            texts.append(data.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(data.decode(fallback))
        labels.append(path.parent.name)
    return texts, labels


@pytest.fixture(scope="session")
def corpus():
    """(texts, labels) of corpora/, in path order. One file is Windows-1252 on purpose, as
    bowline decodes what is not UTF-8."""
    return _read_split(ROOT / "corpora", "*/*.txt", "cp1252")


NEWS = ROOT.parent / "shared" / "corpora" / "20news-bydate"


@pytest.fixture(scope="session")
def news():
    """(train texts, train labels, test texts) of 20 Newsgroups; skipped without
    ../shared/corpora."""
    if not NEWS.is_dir():
        pytest.skip("needs ../shared/corpora")
    # Read as scikit-learn's load_files reads them.
    train, labels = _read_split(NEWS / "train", "*/*", "latin-1")
    return train, labels, _read_split(NEWS / "test", "*/*", "latin-1")[0]


def interleaved_rows(texts, labels, parts=4):
    """The texts and labels as a pandas frame, every `parts`-th in turn, so that each of `parts`
    equal partitions of it holds every class of a corpus in class order."""
    import pandas as pd  # Only the Dask and Spark recipes need it, and they skip without it.

    order = [i for start in range(parts) for i in range(start, len(texts), parts)]
    return pd.DataFrame({"text": [texts[i] for i in order], "label": [labels[i] for i in order]})
