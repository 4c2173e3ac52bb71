"""mindspore.train.metrics: each metric against NumPy / closed forms, set_indexes, names and
get_metric_fn, and the metrics' errors."""
import numpy as np

import mindspore as ms
from mindspore import Tensor
from mindspore.train import (F1, MAE, MSE, Accuracy, ConfusionMatrix, Fbeta, Loss, Metric, Precision, Recall,
                             Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy,
                             get_metric_fn, names, rearrange_inputs)

from _check import raises

assert ms.Accuracy is Accuracy and ms.train.metrics.Metric is Metric and ms.names is names
x = Tensor(np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]], np.float32))
y = Tensor(np.array([1, 0, 1], np.int32))

# Accuracy: argmax [1, 0, 0] vs [1, 0, 1] -> 2/3; accumulates over updates; one-hot labels
acc = Accuracy()
acc.update(x, y)
assert abs(acc.eval() - 2 / 3) < 1e-12
acc.update(Tensor(np.array([[0.0, 1.0]], np.float32)), Tensor(np.array([1], np.int32)))
assert abs(acc.eval() - 3 / 4) < 1e-12
acc.clear()
acc.update(x, np.eye(2)[[1, 0, 1]])
assert abs(acc.eval() - 2 / 3) < 1e-12
assert acc(x, [1, 1, 1]) == 1 / 3  # __call__ = clear + update + eval
# multilabel: a sample is correct when all its labels match
ml = Accuracy('multilabel')
ml.update(np.array([[0, 1, 1], [1, 0, 1]]), np.array([[0, 1, 1], [1, 1, 1]]))
assert ml.eval() == 0.5
raises(ValueError, ml.update, np.array([[0, 2]]), np.array([[0, 1]]), match="In multilabel case, all elements")
raises(TypeError, Accuracy, 'binary', match="The argument 'eval_type' must be in")
raises(ValueError, acc.update, x, match="For 'Accuracy.update', it needs 2 inputs (predicted value, true value), but got 1")
raises(ValueError, Accuracy().update, x, np.array([[1, 0, 1]]), match="In classification case")
raises(RuntimeError, Accuracy().eval, match="The 'Accuracy' can not be calculated, because the number of samples is 0")
raises(TypeError, Accuracy().update, (1, 2), [1], match="the input data type must be tensor, list or numpy.ndarray")
a2 = Accuracy()
a2.update(x, y)
raises(ValueError, a2.update, np.ones((2, 3)), np.array([0, 1]), match="class number not match")

# Precision / Recall / F1 / Fbeta: MindSpore's documented example values
p = Precision('classification')
p.update(x, y)
assert np.allclose(p.eval(), [0.5, 1.0]) and abs(p.eval(average=True) - 0.75) < 1e-12
r = Recall('classification')
r.update(x, y)
assert np.allclose(r.eval(), [1.0, 0.5]) and abs(r.eval(average=True) - 0.75) < 1e-12
f = F1()
f.update(x, y)
assert np.allclose(f.eval(), [2 / 3, 2 / 3])
fb = Fbeta(2)
fb.update(x, y)
tp, pp, ap = np.array([1, 1.]), np.array([2, 1.]), np.array([1, 2.])
assert np.allclose(fb.eval(), 5 * tp / (4 * ap + pp)) and abs(fb.eval(True) - np.mean(5 * tp / (4 * ap + pp))) < 1e-12
raises(ValueError, Fbeta, 0, match="For 'Fbeta', the argument 'beta' must be greater than 0, but got 0.")
raises(TypeError, p.eval, 1, match="the type of 'average' should be 'bool'")
raises(RuntimeError, Recall().eval, match="The 'Recall' can not be calculated")
raises(ValueError, Precision().update, x, np.array([0, 3, 1]), match="should have the same classes")
# random data against NumPy's per-class counts
rng = np.random.RandomState(3)
scores = rng.rand(50, 4)
truth = rng.randint(0, 4, 50)
pred = scores.argmax(1)
p, r, f = Precision(), Recall(), F1()
for m in (p, r, f):
    m.update(scores[:20], truth[:20])
    m.update(scores[20:], truth[20:])
tp = np.array([np.sum((pred == c) & (truth == c)) for c in range(4)], float)
assert np.allclose(p.eval(), tp / np.array([np.sum(pred == c) for c in range(4)]))
assert np.allclose(r.eval(), tp / np.array([np.sum(truth == c) for c in range(4)]))
assert np.allclose(f.eval(), 2 * tp / (np.bincount(pred, minlength=4) + np.bincount(truth, minlength=4)))
# multilabel precision / recall: per-sample ratios
mp = Precision('multilabel')
mp.update(np.array([[1, 0, 1], [0, 1, 1]]), np.array([[1, 0, 0], [0, 1, 1]]))
assert np.allclose(mp.eval(), [0.5, 1.0]) and abs(mp.eval(average=True) - 0.75) < 1e-12

# MAE / MSE: MindSpore's documented examples; the divisor is the number of samples (first axis)
e = MAE()
e.update(Tensor(np.array([0.1, 0.2, 0.6, 0.9], np.float32)), Tensor(np.array([0.1, 0.25, 0.7, 0.9], np.float32)))
assert abs(e.eval() - 0.0375) < 1e-6
e = MSE()
e.update(Tensor(np.array([0.1, 0.2, 0.6, 0.9], np.float32)), Tensor(np.array([0.1, 0.25, 0.5, 0.9], np.float32)))
assert abs(e.eval() - 0.003125) < 1e-7
e = MSE()
e.update(np.ones((2, 3)), np.zeros((2, 3)))
assert e.eval() == 3.0
raises(RuntimeError, MAE().eval, match="The 'MAE' can not be calculated")

# Loss: the mean of each update's (mean) loss
lo = Loss()
lo.update(Tensor(np.float32(0.2)))
lo.update(np.array([1.0, 3.0]))
assert abs(lo.eval() - (0.2 + 2.0) / 2) < 1e-6
raises(ValueError, lo.update, np.ones((2, 2)), match="the dimension of your input (loss) must be 1, but got 2.")
raises(ValueError, lo.update, 1, 2, match="For 'Loss.update', it needs 1 input (loss), but got 2")

# Top-k: MindSpore's documented example
sc = Tensor(np.array([[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.],
                      [0.9, 0.6, 0.2, 0.01, 0.3]], np.float32))
lb = Tensor(np.array([2, 0, 1], np.float32))
t3 = TopKCategoricalAccuracy(3)
t3.update(sc, lb)
assert abs(t3.eval() - 2 / 3) < 1e-12
t1, t5 = Top1CategoricalAccuracy(), Top5CategoricalAccuracy()
t1.update(sc, lb)
t5.update(sc, lb)
assert t1.eval() == 0.0 and t5.eval() == 1.0
raises(TypeError, TopKCategoricalAccuracy, 1.5, match="the type of the argument 'k' should be int")
raises(ValueError, TopKCategoricalAccuracy, 0, match="the argument 'k' must be at least 1")

# ConfusionMatrix
cm = ConfusionMatrix(num_classes=2, normalize='no_norm', threshold=0.5)
cm.update(Tensor(np.array([1, 0, 1, 0])), Tensor(np.array([1, 0, 0, 1])))
assert np.array_equal(cm.eval(), [[1., 1.], [1., 1.]])
cm = ConfusionMatrix(3, normalize="target")
cm.update(scores[:, :3], truth % 3)
counts = np.zeros((3, 3))
for t, q in zip(truth % 3, scores[:, :3].argmax(1)):
    counts[t, q] += 1
assert np.allclose(cm.eval(), counts / counts.sum(1, keepdims=True))
cm = ConfusionMatrix(2, threshold=0.3)
cm.update(np.array([0.2, 0.4, 0.9]), np.array([0, 0, 1]))
assert np.array_equal(cm.eval(), [[1., 1.], [0., 1.]])
raises(ValueError, ConfusionMatrix, 2, normalize="rows", match="the argument 'normalize' must be in")
raises(RuntimeError, ConfusionMatrix(2).eval, match="Please call the 'update' method before calling 'eval' method.")

# set_indexes / rearrange_inputs
acc = Accuracy().set_indexes([2, 0])
acc.update(y, "ignored", x)
assert abs(acc.eval() - 2 / 3) < 1e-12 and acc.indexes == [2, 0]
raises(ValueError, Accuracy().set_indexes, (0, 1), match="the argument 'indexes' must be a list")


class MyMAE(Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self.total, self.n = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        self.total += np.abs(inputs[0].asnumpy() - inputs[1].asnumpy()).sum()
        self.n += inputs[0].shape[0]

    def eval(self):
        return self.total / self.n


a = Tensor(np.array([[0.1, 0.2, 0.6, 0.9], [0.1, 0.2, 0.6, 0.9]], np.float32))
b = Tensor(np.array([[0.1, 0.1, 0.1, 0.1], [0.1, 0.1, 0.1, 0.1]], np.float32))
c = Tensor(np.array([[0.1, 0.25, 0.7, 0.9], [0.1, 0.25, 0.7, 0.9]], np.float32))
m = MyMAE().set_indexes([0, 2])
m.update(a, b, c)
assert abs(m.eval() - 0.15) < 1e-6, m.eval()
raises(TypeError, Metric, match="abstract")

# names / get_metric_fn
assert names() == ['F1', 'acc', 'accuracy', 'auc', 'bleu_score', 'confusion_matrix', 'confusion_matrix_metric',
                   'cosine_similarity', 'dice', 'hausdorff_distance', 'loss', 'mae', 'mean_surface_distance', 'mse',
                   'occlusion_sensitivity', 'perplexity', 'precision', 'recall', 'roc', 'root_mean_square_distance',
                   'top_1_accuracy', 'top_5_accuracy', 'topk'], names()
assert isinstance(get_metric_fn('precision', eval_type='multilabel'), Precision)
assert get_metric_fn('topk', 2).k == 2
raises(KeyError, get_metric_fn, 'nope', match="For 'get_metric_fn', unsupported metric nope")
print("test_train_metrics: ok")
