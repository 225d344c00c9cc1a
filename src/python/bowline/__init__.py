"""bowline: streaming text classification, as scikit-learn estimators.

``TextClassifier`` takes raw texts and labels; ``Vectorizer`` turns texts into a TF-IDF
``scipy.sparse.csr_matrix``; ``MultinomialNB``, ``ComplementNB``, ``BernoulliNB`` and
``LinearSVC`` classify the rows of any matrix; ``merge`` combines classifiers trained on
disjoint shards. The work is done by bowline's Rust library, with the GIL released.
"""

from ._bowline import __version__
from ._matrix import BernoulliNB, ComplementNB, LinearSVC, MultinomialNB
from ._text import TextClassifier, merge
from ._vectorizer import Vectorizer

__all__ = [
    "BernoulliNB",
    "ComplementNB",
    "LinearSVC",
    "MultinomialNB",
    "TextClassifier",
    "Vectorizer",
    "__version__",
    "merge",
]
