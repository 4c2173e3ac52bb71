"""BleuScore: corpus BLEU of candidate token lists against their reference lists."""
from collections import Counter

import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["BleuScore"]


def _ngrams(tokens, n_gram):
    counts = Counter()
    for n in range(1, n_gram + 1):
        for i in range(len(tokens) - n + 1):
            counts[tuple(tokens[i:i + n])] += 1
    return counts


class BleuScore(Metric):
    """BLEU over every update since clear: the geometric mean of the clipped 1..n_gram precisions
    (smooth adds one to each count), times the brevity penalty exp(1 - r / c) when the candidates
    are not longer than the closest references."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        if isinstance(n_gram, bool) or not isinstance(n_gram, int):
            raise TypeError("For 'BleuScore', the type of 'n_gram' must be int, but got %s." % type(n_gram).__name__)
        if not 1 <= n_gram <= 4:
            raise ValueError("For 'BleuScore', the 'n_gram' must be in range [1, 4], but got %d." % n_gram)
        if not isinstance(smooth, bool):
            raise TypeError("For 'BleuScore', the type of 'smooth' must be bool, but got %s." % type(smooth).__name__)
        self.n_gram, self.smooth = n_gram, smooth
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._precision_scores = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'BleuScore.update', it needs 2 inputs (candidate_corpus, reference_corpus), but "
                             "got %d." % len(inputs))
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError("For 'BleuScore.update', the length of 'candidate_corpus' (%d) must equal the length of "
                             "'reference_corpus' (%d)." % (len(candidates), len(references)))
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            ref_lengths = [len(r) for r in refs]
            gaps = [abs(len(candidate) - n) for n in ref_lengths]
            self._r += ref_lengths[gaps.index(min(gaps))]
            counts = _ngrams(candidate, self.n_gram)
            ref_counts = Counter()
            for r in refs:
                ref_counts |= _ngrams(r, self.n_gram)
            for gram, k in (counts & ref_counts).items():
                self._numerator[len(gram) - 1] += k
            for gram, k in counts.items():
                self._denominator[len(gram) - 1] += k
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1.0) / (self._denominator + 1.0)
        else:
            precision = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precision)) / self.n_gram)
        penalty = np.array(1.0) if self._c > self._r else np.exp(1 - self._r / self._c)
        return penalty * geometric_mean
