"""scikit-learn's own estimator checks, every one of them, with no expected failure."""

from sklearn.utils.estimator_checks import parametrize_with_checks

import bowline


@parametrize_with_checks(
    [
        bowline.MultinomialNB(),
        bowline.ComplementNB(),
        bowline.BernoulliNB(),
        bowline.LinearSVC(),
        # The checks feed numbers: TextClassifier takes them as rows of a matrix.
        bowline.TextClassifier(input="matrix"),
        bowline.TextClassifier("mnb", input="matrix"),
    ]
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
