"""CosineSimilarity: the pairwise similarity matrix of the rows of the updated inputs."""
import numpy as np

from mindspore.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["CosineSimilarity"]


class CosineSimilarity(Metric):
    """The (N, N) matrix of cosine (or dot) similarities of the rows of the (N, D) inputs seen since
    clear (later updates add to the accumulated matrix, as MindSpore's), the diagonal zeroed with
    zero_diagonal, reduced by 'mean', 'sum' or 'none'."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        if similarity not in ("dot", "cosine"):
            raise ValueError("For 'CosineSimilarity', the 'similarity' must be in ['dot', 'cosine'], but got %s."
                             % (similarity,))
        if reduction not in ("none", "sum", "mean"):
            raise ValueError("For 'CosineSimilarity', the 'reduction' must be in ['none', 'sum', 'mean'], but got "
                             "%s." % (reduction,))
        if not isinstance(zero_diagonal, bool):
            raise TypeError("For 'CosineSimilarity', the type of 'zero_diagonal' must be bool, but got %s."
                            % type(zero_diagonal).__name__)
        self.similarity, self.reduction, self.zero_diagonal = similarity, reduction, zero_diagonal
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        x = self._convert_data(inputs).astype(np.float64)
        if x.ndim != 2:
            raise ValueError("For 'CosineSimilarity.update', the input must be 2-D (N, D), but got shape %s."
                             % (x.shape,))
        if self.similarity == "cosine":
            x = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
        self.sqr_mtx_res = self.sqr_mtx_res + x @ x.T
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        result = np.array(self.sqr_mtx_res, copy=True)
        if self.zero_diagonal:
            np.fill_diagonal(result, 0)
        if self.reduction == "mean":
            return result.mean(-1)
        if self.reduction == "sum":
            return result.sum(-1)
        return result
