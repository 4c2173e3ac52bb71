"""mindspore.train Dice, Perplexity, CosineSimilarity, ROC, auc, BleuScore, HausdorffDistance,
MeanSurfaceDistance, RootMeanSquareDistance, ConfusionMatrixMetric and OcclusionSensitivity:
MindSpore's documented examples, closed forms, get_metric_fn names and errors."""
import math

import numpy as np

import mindspore as ms
from mindspore import Tensor
from mindspore import nn
from mindspore.train import (BleuScore, ConfusionMatrixMetric, CosineSimilarity, Dice, HausdorffDistance,
                             MeanSurfaceDistance, OcclusionSensitivity, Perplexity, ROC, RootMeanSquareDistance, auc,
                             get_metric_fn, names)

from _check import close, raises

x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]))
y = Tensor(np.array([[0, 1], [1, 0], [0, 1]]))
m = Dice()
m.update(x, y)
assert abs(m.eval() - 0.20467791371802546) < 1e-12, m.eval()
m.update(x, y)  # a second batch: the coefficients add up over the samples seen
assert abs(m.eval() - 0.20467791371802546) < 1e-12
m.clear()
raises(RuntimeError, m.eval, match="number of samples is 0")
raises(ValueError, m.update, x, Tensor(np.ones((3, 3))), match="the same shape")

p = Perplexity()
p.update(x, Tensor(np.array([1, 0, 1])))
assert abs(p.eval() - 2.231443166940565) < 1e-12, p.eval()
p = Perplexity(ignore_label=0)
p.update(x, Tensor(np.array([1, 0, 1])))
assert abs(p.eval() - math.exp(-(np.log(0.5) + np.log(0.6)) / 2)) < 1e-12
raises(RuntimeError, p.update, x, Tensor(np.array([1, 0])), match="same number of samples")

rows = np.array([[1.0, 3, 4, 7], [2, 4, 2, 5], [3, 1, 5, 8]])
unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
c = CosineSimilarity()
c.update(rows)
close(c.eval(), unit @ unit.T - np.eye(3))
c = CosineSimilarity(similarity="dot", reduction="mean", zero_diagonal=False)
c.update(rows)
close(c.eval(), (rows @ rows.T).mean(-1))
raises(ValueError, CosineSimilarity, similarity="l2", match="'similarity' must be in ['dot', 'cosine']")

r = ROC(pos_label=2)
r.update(Tensor(np.array([3, 1, 4, 2])), Tensor(np.array([0, 1, 2, 3])))
fpr, tpr, thr = r.eval()
close(fpr, [0, 0, 1 / 3, 2 / 3, 1])
close(tpr, [0, 1, 1, 1, 1])
close(thr, [5, 4, 3, 2, 1])
r = ROC(class_num=4)
r.update(Tensor(np.array([[0.28, 0.55, 0.15, 0.05], [0.10, 0.20, 0.05, 0.05], [0.20, 0.05, 0.15, 0.05],
                          [0.05, 0.05, 0.05, 0.75]])), Tensor(np.array([0, 1, 2, 3])))
fpr, tpr, thr = r.eval()
close(fpr[1], [0, 1 / 3, 1 / 3, 1])
close(tpr[1], [0, 0, 1, 1])
close(thr[3], [1.75, 0.75, 0.05])
raises(RuntimeError, ROC().eval, match="call the 'update' method")
raises(ValueError, ROC(pos_label=1).update, Tensor(np.ones((2, 2))), Tensor(np.array([0, 1])),
       match="'pos_label' should be None")
# Multiclass scores need class_num, equal to their class count (MindSpore refuses None too).
raises(ValueError, ROC().update, Tensor(np.ones((3, 3))), Tensor(np.array([1, 0])), match="'class_num' must equal")
raises(ValueError, ROC(class_num=2).update, Tensor(np.ones((3, 3))), Tensor(np.array([1, 0, 2])),
       match="but got 'class_num' 2, the number of classes from predicted value 3")

# auc of a binary ROC equals the fraction of (positive, negative) pairs ranked correctly.
scores, labels = np.array([0.1, 0.4, 0.35, 0.8, 0.5]), np.array([0, 0, 1, 1, 0])
r = ROC()
r.update(Tensor(scores), Tensor(labels))
pairs = [(s > t) for s, l in zip(scores, labels) if l for t, k in zip(scores, labels) if not k]
assert abs(auc(*r.eval()[:2]) - np.mean(pairs)) < 1e-12
assert auc(np.array([2.0, 1.0, 0.0]), np.array([1.0, 1.0, 1.0])) == 2.0
assert auc(np.array([1.0, 0.0, 2.0]), np.array([1.0, 1.0, 1.0]), reorder=True) == 2.0
raises(ValueError, auc, np.array([1.0, 0.0, 2.0]), np.array([1.0, 1.0, 1.0]), match="Reordering is not turned on")

b = BleuScore()
b.update([["i", "have", "a", "pen", "on", "my", "desk"]],
         [[["i", "have", "a", "pen", "in", "my", "desk"], ["there", "is", "a", "pen", "on", "the", "desk"]]])
assert abs(b.eval() - 0.5946035575013605) < 1e-12, b.eval()
b = BleuScore(n_gram=2, smooth=True)
b.update([["a", "b", "c"]], [[["a", "b", "d", "e"]]])
# unigrams 2/3, bigrams 1/2, each +1 smoothed; brevity exp(1 - 4 / 3).
want = math.exp(1 - 4 / 3) * math.sqrt((3 / 4) * (2 / 3))
assert abs(b.eval() - want) < 1e-12, (b.eval(), want)
raises(ValueError, BleuScore, n_gram=5, match="'n_gram' must be in range [1, 4]")

# Surface distances: MindSpore's examples (label 0's region), then two squares 3 apart in a 3-D volume.
a = Tensor(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]))
b = Tensor(np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]))
h = HausdorffDistance()
h.update(a, b, 0)
assert abs(h.eval() - 1.4142135623730951) < 1e-12, h.eval()
msd = MeanSurfaceDistance()
msd.update(a, b, 0)
assert abs(msd.eval() - 0.8047378541243649) < 1e-12, msd.eval()
rms = RootMeanSquareDistance()
rms.update(a, b, 0)
assert abs(rms.eval() - 1.0) < 1e-12, rms.eval()
vol_p, vol_t = np.zeros((1, 8, 8), np.int32), np.zeros((1, 8, 8), np.int32)
vol_p[0, 1:3, 1:3] = 1   # a 2 x 2 square: all four voxels are edges
vol_t[0, 1:3, 4:6] = 1   # the same, 3 columns to the right: the facing columns are 2 apart, the far ones 3
for metric, step in (("euclidean", 3.0), ("chessboard", 3.0), ("taxicab", 3.0)):
    h = HausdorffDistance(distance_metric=metric)
    h.update(vol_p, vol_t, 1)
    assert h.eval() == step, (metric, h.eval())
h = HausdorffDistance(directed=True, percentile=50.0)
h.update(vol_p, vol_t, 1)
assert h.eval() == 2.5, h.eval()   # the median of [3, 2, 3, 2]
vol_t[0, 5, 7] = 1   # a lone voxel far away: the truth's surface now reaches (5, 7)
h = HausdorffDistance()
h.update(vol_p, vol_t, 1)
assert abs(h.eval() - np.hypot(3, 5)) < 1e-12, h.eval()   # from (5, 7) back to the square's (2, 2)
h = HausdorffDistance(directed=True)
h.update(vol_p, vol_t, 1)
assert h.eval() == 3.0
msd = MeanSurfaceDistance(symmetric=True)
msd.update(vol_p, vol_t, 1)
back = np.mean([2, 3, 2, 3, np.hypot(3, 5)])
assert abs(msd.eval() - np.mean((2.5, back))) < 1e-12, msd.eval()
raises(ValueError, HausdorffDistance().update, a, b, 7, match="label index (input[2]) should be in")
raises(ValueError, HausdorffDistance, distance_metric="cosine", match="'distance_metric' must be in")
raises(RuntimeError, MeanSurfaceDistance().eval, match="call the 'update' method")

# ConfusionMatrixMetric: MindSpore's example, then per-sample rates against NumPy counts.
cm = ConfusionMatrixMetric(metric_name="tpr")
cm.update(Tensor(np.array([[[0], [1]], [[1], [0]]])), Tensor(np.array([[[0], [1]], [[0], [1]]])))
close(cm.eval(), [0.5])
rng = np.random.default_rng(2)
yp, yt = (rng.random((3, 2, 4, 4)) > 0.5).astype(int), (rng.random((3, 2, 4, 4)) > 0.5).astype(int)
tp = ((yp == 1) & (yt == 1)).sum((2, 3)).astype(float)
fp = ((yp == 1) & (yt == 0)).sum((2, 3)).astype(float)
tn = ((yp == 0) & (yt == 0)).sum((2, 3)).astype(float)
fn = ((yp == 0) & (yt == 1)).sum((2, 3)).astype(float)
f1 = 2 * tp / (2 * tp + fp + fn)
mcc = (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
for name, chart in (("f1 score", f1), ("Matthews correlation coefficient", mcc), ("accuracy", (tp + tn) / 16)):
    for decrease, want in (("none", chart), ("mean", chart.mean()), ("mean_batch", chart.mean(0)),
                           ("sum_channel", chart.sum(1))):
        cm = ConfusionMatrixMetric(metric_name=name, calculation_method=True, decrease=decrease)
        cm.update(yp, yt)
        close(cm.eval(), want)
cm = ConfusionMatrixMetric(metric_name="precision")
cm.update(yp, yt)
cm.update(yp[:1], yt[:1])   # the counts add up over updates
close(cm.eval(), [(tp.sum() + tp[0].sum()) / (tp.sum() + fp.sum() + tp[0].sum() + fp[0].sum())])
raises(NotImplementedError, ConfusionMatrixMetric, metric_name="kappa", match="not implemented")
raises(ValueError, ConfusionMatrixMetric, decrease="max", match="'decrease' must be in")
raises(ValueError, ConfusionMatrixMetric().update, yp, yt * 0.5, match="must be a binarized ndarray")

# OcclusionSensitivity: a linear model's score drops by the weighted sum of the occluded window.
dense = nn.Dense(4, 2, weight_init=Tensor(np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32)),
                 bias_init=Tensor(np.array([0.3, 0.6], np.float32)))
occ = OcclusionSensitivity()
occ.update(dense, np.array([[0.1, 0.2, 0.3, 0.4]], np.float32), np.array(1, np.int32))
close(occ.eval(), [0.3, 0.6, 1.0, 0.9], rtol=1e-6)   # MindSpore's example: windows [p - 2, p + 2)
image = rng.random((1, 3, 5)).astype(np.float32)
weights = rng.random((2, 15)).astype(np.float32)
flat = nn.SequentialCell([nn.Flatten(), nn.Dense(15, 2, weight_init=Tensor(weights), bias_init="zeros")])
occ = OcclusionSensitivity(margin=1, n_batch=4, b_box=[0, 1, 2, 4])
occ.update(flat, image, Tensor(np.array([0])))
want = np.zeros((2, 3))
w0 = weights[0].reshape(3, 5)
for r, c in np.ndindex(2, 3):
    want[r, c] = (w0 * image[0])[max(0, r - 1):r + 1, max(0, c + 2 - 1):c + 3].sum()
close(occ.eval(), want, rtol=1e-5)
raises(RuntimeError, OcclusionSensitivity().update, dense, np.ones((2, 4), np.float32), np.array(1),
       match="must be 1, but got 2")
raises(ValueError, OcclusionSensitivity(b_box=[0, 5]).update, dense, np.ones((1, 4), np.float32), np.array(1),
       match="maximum bounding box must be smaller than image size")

for name, cls in (("occlusion_sensitivity", OcclusionSensitivity), ("confusion_matrix_metric", ConfusionMatrixMetric), ("hausdorff_distance", HausdorffDistance), ("mean_surface_distance", MeanSurfaceDistance),
                  ("root_mean_square_distance", RootMeanSquareDistance), ("dice", Dice), ("roc", ROC), ("bleu_score", BleuScore), ("perplexity", Perplexity),
                  ("cosine_similarity", CosineSimilarity)):
    assert name in names() and isinstance(get_metric_fn(name), cls)
assert ms.train.metrics.Dice is Dice
