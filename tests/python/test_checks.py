"""scikit-learn's own estimator checks, every one of them, with no expected failure."""

from sklearn.utils.estimator_checks import parametrize_with_checks

import bowline


@parametrize_with_checks(
    [
        bowline.MultinomialNB(),
        bowline.ComplementNB(),
        bowline.BernoulliNB(),
        bowline.LinearSVC(),
    ]
)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)
