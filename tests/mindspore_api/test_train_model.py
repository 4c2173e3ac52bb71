"""mindspore.train.Model: train / eval / predict / fit over a generated dataset, LossMonitor's
lines, callback order, early stopping, and Model's errors."""
import contextlib
import io

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.nn as nn
from mindspore import Tensor
from mindspore.train import (Callback, EarlyStopping, History, LambdaCallback, LossMonitor, Model,
                             ReduceLROnPlateau, RunContext, TimeMonitor)

from _check import close, raises

ms.set_seed(1)
rng = np.random.RandomState(0)
N, D, C = 96, 6, 3
centers = rng.randn(C, D).astype(np.float32) * 3
labels = rng.randint(0, C, N).astype(np.int32)
features = (centers[labels] + rng.randn(N, D).astype(np.float32) * 0.5).astype(np.float32)


def dataset(batch=16, shuffle=False):
    return ds.NumpySlicesDataset({"x": features, "y": labels}, shuffle=shuffle).batch(batch)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(D, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, C)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def captured(fn, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args, **kwargs)
    return result, out.getvalue()


# Top-level and module paths reach the same objects.
assert ms.Model is Model and ms.train.model.Model is Model and ms.LossMonitor is LossMonitor
assert ms.train.callback.Callback is Callback is ms.Callback and ms.RunContext is RunContext
assert ms.train.Accuracy is ms.Accuracy is ms.train.metrics.Accuracy

# --- train with LossMonitor: the loss falls, one "epoch: E step: S, loss is L" line per step ---------
net = Net()
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')
opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
model = Model(net, loss_fn=loss_fn, optimizer=opt, metrics={"accuracy", "loss"})
assert isinstance(model.train_network, nn.TrainOneStepCell)
assert isinstance(model.eval_network, nn.WithEvalCell) and model.predict_network is net


def eval_numpy():
    logits = net(Tensor(features)).asnumpy()
    onehot = np.eye(C)[labels]
    shifted = logits - logits.max(1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    return (logits.argmax(1) == labels).mean(), -(onehot * logp).sum(1).mean()


acc0, loss0 = eval_numpy()
_, out = captured(model.train, 3, dataset(), callbacks=[LossMonitor()])
lines = out.strip().splitlines()
assert len(lines) == 3 * 6, out
assert lines[0].startswith("epoch: 1 step: 1, loss is ") and lines[7].startswith("epoch: 2 step: 2, loss is "), out
assert lines[-1].startswith("epoch: 3 step: 6, loss is ")
first, last = float(lines[0].split()[-1]), float(lines[-1].split()[-1])
assert last < first * 0.5, (first, last)
acc1, loss1 = eval_numpy()
assert loss1 < loss0 * 0.5

# eval: accuracy and loss against NumPy (batches of 16: the per-batch mean losses average to the mean)
result = model.eval(dataset())
assert set(result) == {"accuracy", "loss"}
assert abs(result["accuracy"] - acc1) < 1e-12, (result, acc1)
assert abs(result["loss"] - loss1) < 1e-5, (result, loss1)
# eval with an uneven last batch: Loss averages the batches' means
logits = net(Tensor(features)).asnumpy()
batch_losses = []
for start in range(0, N, 40):
    lg, lb = logits[start:start + 40], labels[start:start + 40]
    sh = lg - lg.max(1, keepdims=True)
    batch_losses.append(-(sh[np.arange(len(lb)), lb] - np.log(np.exp(sh).sum(1))).mean())
result = model.eval(dataset(batch=40))
assert abs(result["loss"] - np.mean(batch_losses)) < 1e-5
assert abs(result["accuracy"] - (logits.argmax(1) == labels).mean()) < 1e-12

# predict: the network's output, in inference mode
pred = model.predict(Tensor(features[:5]))
close(pred, logits[:5], rtol=1e-5, atol=1e-5)
assert not net.training
raises(TypeError, model.predict, np.ones((2, D), np.float32), match="The type of input data must be in the Union")

# per_print_times: lines at steps 4, 8, 12 of the whole run (the step in the epoch is printed)
m2 = Model(Net(), loss_fn=loss_fn, optimizer=nn.SGD(Net().trainable_params(), 0.01))
_, out = captured(Model(net, loss_fn, nn.SGD(net.trainable_params(), 0.0)).train, 2, dataset(),
                  callbacks=LossMonitor(per_print_times=4))
steps = [line.split(",")[0] for line in out.strip().splitlines()]
assert steps == ["epoch: 1 step: 4", "epoch: 2 step: 2", "epoch: 2 step: 6"], steps
_, out = captured(Model(net, loss_fn, nn.SGD(net.trainable_params(), 0.0)).train, 1, dataset(),
                  callbacks=LossMonitor(0))
assert out == ""
raises(ValueError, LossMonitor, -1, match="must be int and must >= 0, but got '-1'")

# TimeMonitor prints "Train epoch time: ... ms, per step time: ... ms" once per epoch
_, out = captured(Model(net, loss_fn, nn.SGD(net.trainable_params(), 0.0)).train, 2, dataset(),
                  callbacks=[TimeMonitor()])
lines = out.strip().splitlines()
assert len(lines) == 2 and all(l.startswith("Train epoch time: ") and ", per step time: " in l and
                               l.endswith(" ms") for l in lines), out

# --- callback order, cb_params, old-style names --------------------------------------------------
events = []


class Recorder(Callback):
    def on_train_begin(self, rc):
        p = rc.original_args()
        events.append(("train_begin", p.epoch_num, p.batch_num, p.mode))
        assert p.optimizer is opt3 and p.loss_fn is loss_fn and p.train_network is model3.train_network
        assert p.network is net3 and p.train_dataset is train_ds and p.list_callback == [self]
        assert p.dataset_sink_mode is False

    def on_train_epoch_begin(self, rc):
        events.append(("epoch_begin", rc.original_args().cur_epoch_num))

    def on_train_step_begin(self, rc):
        p = rc.original_args()
        events.append(("step_begin", p.cur_step_num))
        assert len(p.train_dataset_element) == 2 and p.train_dataset_element[0].shape[1] == D

    def on_train_step_end(self, rc):
        p = rc.original_args()
        assert isinstance(p.net_outputs, Tensor) and p.net_outputs.shape == ()
        events.append(("step_end", p.cur_epoch_num, p.cur_step_num))

    def on_train_epoch_end(self, rc):
        events.append(("epoch_end", rc.original_args().cur_epoch_num))

    def on_train_end(self, rc):
        events.append(("train_end",))

    def __enter__(self):
        events.append(("enter",))
        return self

    def __exit__(self, *err):
        events.append(("exit",))


net3 = Net()
opt3 = nn.SGD(net3.trainable_params(), 0.01)
model3 = Model(net3, loss_fn, opt3)
train_ds = dataset(batch=48)
model3.train(3, train_ds, callbacks=Recorder(), initial_epoch=1)
assert events == [("enter",), ("train_begin", 2, 2, "train"),
                  ("epoch_begin", 2), ("step_begin", 1), ("step_end", 2, 1), ("step_begin", 2), ("step_end", 2, 2),
                  ("epoch_end", 2),
                  ("epoch_begin", 3), ("step_begin", 3), ("step_end", 3, 3), ("step_begin", 4), ("step_end", 3, 4),
                  ("epoch_end", 3), ("train_end",), ("exit",)], events


class OldStyle(Callback):
    def begin(self, rc):
        events.append("begin")

    def epoch_end(self, rc):
        events.append("epoch_end")

    def step_end(self, rc):
        events.append("step_end")

    def end(self, rc):
        events.append("end")


events.clear()
model3.train(1, dataset(batch=48), callbacks=[OldStyle()])
assert events == ["begin", "step_end", "step_end", "epoch_end", "end"], events
raises(ValueError, model3.fit, 1, dataset(batch=48), callbacks=[OldStyle()],
       match="methods may not be supported in later version")

# request_stop in step_end stops the run after that step
seen = []
stopper = LambdaCallback(on_train_step_end=lambda rc: (seen.append(rc.original_args().cur_step_num),
                                                       rc.original_args().cur_step_num == 3 and rc.request_stop()))
model3.train(5, dataset(), callbacks=stopper)
assert seen == [1, 2, 3], seen

# eval callbacks: on_eval_* stages, with net_outputs (loss, logits, label)
model4 = Model(net3, loss_fn, opt3, metrics={"acc"})
ev = []
model4.eval(dataset(batch=32), callbacks=LambdaCallback(
    on_eval_begin=lambda rc: ev.append(("begin", rc.original_args().mode, rc.original_args().batch_num)),
    on_eval_step_end=lambda rc: ev.append(("step", rc.original_args().cur_step_num,
                                            len(rc.original_args().net_outputs))),
    on_eval_end=lambda rc: ev.append(("end", sorted(rc.original_args().metrics)))))
assert ev == [("begin", "eval", 3), ("step", 1, 3), ("step", 2, 3), ("step", 3, 3), ("end", ["acc"])], ev

# History
hist = History()
model3.train(2, dataset(), callbacks=hist)
assert hist.epoch == {"epoch": [1, 2]} and len(hist.history["net_output"]) == 2
assert isinstance(hist.history["net_output"][0], float)

# --- fit: evaluation after epochs, eval_results and early stopping -------------------------------
net5 = Net()
opt5 = nn.Momentum(net5.trainable_params(), 0.05, 0.9)
model5 = Model(net5, loss_fn, opt5, metrics={"accuracy"})
fit_seen = []
probe = LambdaCallback(on_train_epoch_end=lambda rc: fit_seen.append(
    (rc.original_args().cur_epoch_num, dict(rc.original_args().get("eval_results", {})), rc.original_args().mode)))
_, out = captured(model5.fit, 4, dataset(), dataset(batch=32), valid_frequency=2, callbacks=[probe, LossMonitor(6)])
assert [e for e, _, _ in fit_seen] == [1, 2, 3, 4] and all(m == "train" for _, _, m in fit_seen)
assert fit_seen[0][1] == {} and set(fit_seen[1][1]) == {"accuracy", "eval_loss"} and fit_seen[2][1] == {}
assert "Eval result: epoch 2, metrics: {'accuracy': " in out and "Eval result: epoch 4" in out, out
assert "Eval result: epoch 1" not in out

# EarlyStopping on the training loss with a huge min_delta: stops after patience + 1 epochs
stop_epochs = []
model6 = Model(Net(), loss_fn, nn.SGD(Net().trainable_params(), 0.0))
es = EarlyStopping(monitor="loss", patience=2, min_delta=100.0, verbose=True)
_, out = captured(model6.train, 10, dataset(), callbacks=[es, LambdaCallback(
    on_train_epoch_end=lambda rc: stop_epochs.append(rc.original_args().cur_epoch_num))])
# epoch 1 improves on inf, epochs 2 and 3 do not: stop at the end of epoch 3
assert stop_epochs == [1, 2, 3] and es.stopped_epoch == 3, stop_epochs
assert "Epoch 00003: early stopping" in out
# on accuracy in fit (mode auto -> max): training with lr 0 never improves it
net7 = Net()
model7 = Model(net7, loss_fn, nn.SGD(net7.trainable_params(), 0.0), metrics={"accuracy"})
es = EarlyStopping(monitor="accuracy", patience=1)
model7.fit(10, dataset(), dataset(), callbacks=es)
assert es.stopped_epoch == 2, es.stopped_epoch
# restore_best_weights: the weights of the best epoch come back. The learning rate is one at which
# every epoch still moves the weights (at 5.0 one epoch can leave every ReLU dead, and then the
# second epoch changes nothing and the restore shows nothing).
net8 = Net()
w_before = net8.fc1.weight.asnumpy().copy()
model8 = Model(net8, loss_fn, nn.SGD(net8.trainable_params(), 0.05), metrics={"loss"})
es = EarlyStopping(monitor="eval_loss", patience=1, restore_best_weights=True, mode="max", min_delta=1e9)
weights = []
_, out = captured(model8.fit, 5, dataset(), dataset(), callbacks=[LambdaCallback(
    on_train_epoch_end=lambda rc: weights.append(net8.fc1.weight.asnumpy().copy())), es])
assert es.stopped_epoch == 2 and len(weights) == 2 and not np.allclose(weights[0], weights[1])
assert np.array_equal(net8.fc1.weight.asnumpy(), weights[0]) and not np.allclose(weights[0], w_before)
raises(ValueError, EarlyStopping, mode="best", match="mode should be 'auto', 'min' or 'max', but got best.")

# ReduceLROnPlateau lowers the optimizer's learning rate
opt9 = nn.SGD(Net().trainable_params(), 0.0)
net9 = Net()
opt9 = nn.SGD(net9.trainable_params(), 0.4)
model9 = Model(net9, loss_fn, opt9)
lrs = []
rl = ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, min_delta=1e9, mode="min", min_lr=0.1)
model9.train(4, dataset(), callbacks=[rl, LambdaCallback(on_train_epoch_end=lambda rc: lrs.append(opt9.learning_rate))])
# epoch 1 improves on inf; each later epoch does not (patience 0): halve, down to min_lr
assert np.allclose(lrs, [0.4, 0.2, 0.1, 0.1]), lrs
raises(ValueError, ReduceLROnPlateau, factor=1.0, match="'factor' must be in range of (0.0, 1.0)")

# --- the migration form: Model over a TrainOneStepCell, no loss_fn ----------------------------------
net10 = Net()
train_net = nn.TrainOneStepCell(nn.WithLossCell(net10, loss_fn), nn.SGD(net10.trainable_params(), 0.1))
model10 = Model(train_net)
assert model10.train_network is train_net
w0 = net10.fc2.weight.asnumpy().copy()
model10.train(epoch=2, train_dataset=dataset())
assert not np.allclose(net10.fc2.weight.asnumpy(), w0)
# without an optimizer: the loss network only runs (no update)
net11 = Net()
w0 = net11.fc2.weight.asnumpy().copy()
Model(net11, loss_fn).train(1, dataset())
assert np.array_equal(net11.fc2.weight.asnumpy(), w0)

# eval_network with eval_indexes, and a custom eval network without indexes
class EvalNet(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def construct(self, x, y):
        return y, self.n(x), loss_fn(self.n(x), y)


m = Model(net10, metrics={"acc": ms.Accuracy(), "loss": ms.Loss()}, eval_network=EvalNet(net10), eval_indexes=[2, 1, 0])
r = m.eval(dataset())
lg = net10(Tensor(features)).asnumpy()
assert abs(r["acc"] - (lg.argmax(1) == labels).mean()) < 1e-12
m = Model(net10, metrics={"acc": ms.Accuracy().set_indexes([1, 0])}, eval_network=EvalNet(net10))
assert abs(m.eval(dataset())["acc"] - (lg.argmax(1) == labels).mean()) < 1e-12

# --- errors ---------------------------------------------------------------------------------------
raises(ValueError, Model, net, metrics={"acc"}, match="If `metrics` is set, `eval_network` must not be None")
raises(ValueError, Model, net, loss_fn, opt, amp_level="O5", match="'amp_level' must be one of")
raises(ValueError, Model, net, loss_fn, amp_level="O2", match="Auto mixed precision will not work because 'optimizer' is None")
raises(ValueError, Model, net, loss_fn, opt, foo=1, match="The argument in 'kwargs' should be 'loss_scale_manager'")
raises(TypeError, Model, 3, match="The type of 'network' should be 'Cell', but got type 'int'.")
raises(ValueError, Model, net, loss_fn, opt, metrics={"acc"}, eval_network=net, eval_indexes=[0, 1],
       match="The argument 'eval_indexes' must be a list or None")
raises(KeyError, Model, net, loss_fn, opt, metrics={"nope"}, match="unsupported metric nope")
raises(TypeError, Model, net, loss_fn, opt, metrics=["acc"], match="must be None, dict or set")
raises(ValueError, model3.eval, dataset(), match="the model argument 'metrics' can not be None or empty")
raises(ValueError, model3.train, 1, dataset(), initial_epoch=1,
       match="For 'Model.train', the parameter 'epoch' must bigger than parameter 'initial_epoch', but got the "
             "parameter 'epoch' is 1, 'initial_epoch' is 1.")
raises(ValueError, model3.train, 1, dataset(), sink_size=0, match="'sink_size' must be -1 or positive, but got 0.")
raises(TypeError, model3.train, 1, dataset(), dataset_sink_mode=1, match="must be a bool, but got int.")
raises(TypeError, model3.train, 1, dataset(), callbacks=[3], match="must be Callback functions")
raises(TypeError, model5.fit, 1, dataset(), dataset(), valid_frequency=1.5,
       match="the type of 'valid_frequency' must be a list or an integer")
three = ds.NumpySlicesDataset({"x": features, "y": labels, "z": labels}, shuffle=False).batch(16)
raises(ValueError, model3.train, 1, three, match="'train_dataset' should return two elements, but got 3")
from mindspore.train.callback import _InternalCallbackParam  # noqa: E402
params = _InternalCallbackParam(net_outputs=Tensor(np.float32(np.nan)), cur_step_num=1, batch_num=1, cur_epoch_num=1)
raises(ValueError, LossMonitor().step_end, RunContext(params),
       match="In epoch: 1 step: 1, loss is NAN or INF")
raises(TypeError, RunContext, [1], match="The argument 'original_args' of RunContext should be dict type")
rc = RunContext({"a": 1})
assert rc.original_args() == {"a": 1} and not rc.get_stop_requested()
rc.request_stop()
assert rc.get_stop_requested()
# dataset_sink_mode=True trains as False (with a warning)
net12 = Net()
w0 = net12.fc2.weight.asnumpy().copy()
Model(net12, loss_fn, nn.SGD(net12.trainable_params(), 0.1)).train(1, dataset(), dataset_sink_mode=True)
assert not np.allclose(net12.fc2.weight.asnumpy(), w0)
print("test_train_model: ok")
