"""mindspore.train Dice, Perplexity, CosineSimilarity, ROC, auc and BleuScore: MindSpore's
documented examples, closed forms, get_metric_fn names and errors."""
import math

import numpy as np

import mindspore as ms
from mindspore import Tensor
from mindspore.train import (BleuScore, CosineSimilarity, Dice, Perplexity, ROC, auc, get_metric_fn,
                             names)

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

for name, cls in (("dice", Dice), ("roc", ROC), ("bleu_score", BleuScore), ("perplexity", Perplexity),
                  ("cosine_similarity", CosineSimilarity)):
    assert name in names() and isinstance(get_metric_fn(name), cls)
assert ms.train.metrics.Dice is Dice
