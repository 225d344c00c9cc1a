"""Writes 20 Newsgroups train repeated, with distinct ids, as one JSONL file of at least SIZE
bytes: the large corpus of benches/large_corpus.sh and benches/spark.sh (never committed).
benches/hashing.sh reads the corpus through its `documents`.

    python3 benches/repeat_corpus.py SOURCE_FOLDER OUTPUT.jsonl SIZE
"""
import json
import os
import sys


def documents(source):
    """Each (label, file name, text) of a corpus of class folders, in sorted order; text that is
    not UTF-8 decoded as Latin-1."""
    for label in sorted(os.listdir(source)):
        for name in sorted(os.listdir(os.path.join(source, label))):
            raw = open(os.path.join(source, label, name), "rb").read()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            yield label, name, text


if __name__ == "__main__":
    source, path, target = sys.argv[1], sys.argv[2], int(float(sys.argv[3]))
    docs = list(documents(source))
    written, copy = 0, 0
    with open(path, "w") as out:
        while written < target:
            for label, name, text in docs:
                line = json.dumps({"id": f"{copy}/{label}/{name}", "label": label, "text": text})
                out.write(line + "\n")
                written += len(line.encode()) + 1
            copy += 1
    print(f"{path}: {written:,} bytes, {copy} copies of 20 Newsgroups train", file=sys.stderr)
