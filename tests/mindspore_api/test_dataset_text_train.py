"""A text pipeline feeds a model: tokenize -> vocab -> lookup -> pad -> batch, then Embedding, a
masked mean, Dense, cross-entropy and gradients; the step's loss and the embedding's gradient are
checked against NumPy."""
import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.text as text
from mindspore import nn

sentences = ["the movie was great", "awful plot", "great acting and great music", "boring and awful"]
labels = np.array([1, 0, 1, 0], np.int32)
data = ds.NumpySlicesDataset({"text": sentences, "label": labels}, shuffle=False)
data = data.map(text.WhitespaceTokenizer(), input_columns="text")
vocab = text.Vocab.from_dataset(data, "text", special_tokens=["<pad>", "<unk>"])
assert vocab.tokens_to_ids(["<pad>", "<unk>", "great", "and", "awful"]) == [0, 1, 2, 3, 4]
data = data.map(text.Lookup(vocab, "<unk>"), input_columns="text")
data = data.padded_batch(2, pad_info={"text": ([5], 0)})
batches = list(data.create_tuple_iterator())
ids, label = batches[0]
assert isinstance(ids, ms.Tensor) and ids.dtype == ms.int32 and ids.shape == (2, 5)
assert ids.asnumpy()[1].tolist() == [vocab.tokens_to_ids("awful"), vocab.tokens_to_ids("plot"), 0, 0, 0]


class Classifier(nn.Cell):
    def __init__(self, vocab_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, 4, padding_idx=0)
        self.dense = nn.Dense(4, 2)

    def construct(self, ids):
        mask = (ids != 0).astype(ms.float32)
        summed = (self.embedding(ids) * mask.expand_dims(-1)).sum(axis=1)
        return self.dense(summed / mask.sum(axis=1, keepdims=True))


ms.set_seed(1)
net = Classifier(len(vocab.vocab()))
loss_fn = nn.CrossEntropyLoss()
grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())
loss, grads = grad_fn(ids, label)

# the same forward pass and the gradient of the embedding table in NumPy
table = net.embedding.embedding_table.asnumpy().astype(np.float64)
w, b = net.dense.weight.asnumpy().astype(np.float64), net.dense.bias.asnumpy().astype(np.float64)
x = ids.asnumpy()
m = (x != 0).astype(np.float64)
mean = (table[x] * m[..., None]).sum(1) / m.sum(1, keepdims=True)
logits = mean @ w.T + b
p = np.exp(logits - logits.max(1, keepdims=True))
p /= p.sum(1, keepdims=True)
y = label.asnumpy()
assert abs(float(loss.asnumpy()) + np.log(p[np.arange(2), y]).mean()) < 1e-5
dlogits = (p - np.eye(2)[y]) / 2
dmean = dlogits @ w
dtable = np.zeros_like(table)
for r in range(2):
    for t in range(5):
        dtable[x[r, t]] += dmean[r] * m[r, t] / m[r].sum()
dtable[0] = 0  # padding_idx receives no gradient
assert np.allclose(grads[0].asnumpy(), dtable, atol=1e-5), (grads[0].asnumpy(), dtable)

# a few steps over the pipeline lower the loss
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.5)
first = last = None
for _ in range(15):
    for ids, label in data.create_tuple_iterator():
        loss, grads = grad_fn(ids, label)
        optimizer(grads)
        first = first if first is not None else float(loss.asnumpy())
        last = float(loss.asnumpy())
assert last < first * 0.7, (first, last)
