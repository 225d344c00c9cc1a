"""scikit-learn's side of benches/tune.sh: HalvingGridSearchCV over the grid `train --tune`
searches for the linear SVM, with the same rounds (factor 3, from a FIRST-th of the rows up to a
LAST-th: by default a 27th up to all of them, as `train --tune` when its budget allows), the same
3 folds, on the same training file; then the winner is refit on all of it.

The grid: analysis (stop words none/English, Snowball stemming or not, words or word pairs, or
char_wb 2..5-grams), min_df 1/2, (tf, idf) in (sublinear, smooth), (count, smooth),
(sublinear, none), and C in 0.1, 0.3, 1, 3, 10: 9 x 2 x 3 x 5 = 270 configurations.

The search runs in as many processes as there are cores (n_jobs), and the pipeline caches its
fitted vectorizer on disk (Pipeline(memory=...)), as a user tuning with scikit-learn would: the
five values of C then share one TF-IDF fit, with its stemming, per analysis, fold and round, as
bowline's search shares its counts.

    python benches/sklearn_tune.py TRAIN [FIRST [LAST]]
"""
import os
import re
import sys
import tempfile
import time

from joblib import Memory
from nltk.stem.snowball import SnowballStemmer
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer
from sklearn.model_selection import HalvingGridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC

from compare import read

WORD = re.compile(r"(?u)\b\w\w+\b")
STEM = SnowballStemmer("english").stem


def stemmed(text):
    return [STEM(w) for w in WORD.findall(text.lower())]


def stemmed_without_stop_words(text):
    return [STEM(w) for w in WORD.findall(text.lower()) if w not in ENGLISH_STOP_WORDS]


def grid():
    # The tokenizers come from this file imported as a module, not from __main__: the cache
    # hashes them by their module and name, which worker processes cannot find in __main__.
    import sklearn_tune

    tokenizers = [sklearn_tune.stemmed, sklearn_tune.stemmed_without_stop_words]
    analyses = []
    for ngram in [(1, 1), (1, 2)]:
        analyses.append({"vect__analyzer": ["word"], "vect__stop_words": [None, "english"],
                         "vect__ngram_range": [ngram], "vect__tokenizer": [None]})
        analyses.append({"vect__analyzer": ["word"], "vect__ngram_range": [ngram],
                         "vect__tokenizer": tokenizers,
                         "vect__token_pattern": [None], "vect__stop_words": [None]})
    analyses.append({"vect__analyzer": ["char_wb"], "vect__ngram_range": [(2, 5)]})
    weighting = [{"vect__sublinear_tf": [True], "vect__use_idf": [True]},
                 {"vect__sublinear_tf": [False], "vect__use_idf": [True]},
                 {"vect__sublinear_tf": [True], "vect__use_idf": [False]}]
    out = []
    for a in analyses:
        for w in weighting:
            out.append({**a, **w, "vect__min_df": [1, 2], "svm__C": [0.1, 0.3, 1, 3, 10]})
    return out


def main():
    started = time.perf_counter()
    texts, labels = read(sys.argv[1])
    rows = len(texts)
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 27
    last = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    cores = len(os.sched_getaffinity(0))
    # The cache lives for this run only, so that each timed run starts cold as bowline's does. A
    # fit that fails stops the run (error_score="raise"): scored NaN, it would be work left out
    # of the time.
    with tempfile.TemporaryDirectory() as cache:
        pipeline = Pipeline([("vect", TfidfVectorizer()), ("svm", LinearSVC())],
                            memory=Memory(cache, verbose=0))
        search = HalvingGridSearchCV(
            pipeline, grid(), factor=3, resource="n_samples", min_resources=rows // first,
            max_resources=rows // last, cv=StratifiedKFold(3, shuffle=True, random_state=1),
            aggressive_elimination=False, n_jobs=cores, refit=True, random_state=1,
            error_score="raise")
        search.fit(texts, labels)
    print(f"scikit-learn ({cores} jobs, cached vectorizer): best {search.best_params_} "
          f"cv {search.best_score_:.4f}, {len(search.cv_results_['params'])} trials in "
          f"{time.perf_counter() - started:.1f} s (rounds of {search.n_candidates_} on "
          f"{search.n_resources_} rows)", file=sys.stderr)


if __name__ == "__main__":
    main()
