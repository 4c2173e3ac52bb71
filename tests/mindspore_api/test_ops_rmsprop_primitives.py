"""ApplyRMSProp and ApplyCenteredRMSProp: two steps against NumPy's closed form (the state
Parameters written in place, the new var returned), a Tensor learning rate, nn.RMSProp taking the
same steps, and MindSpore's TypeErrors for a state that is not a Parameter or a hyperparameter of
the wrong type."""
import numpy as np

import mindspore.nn as nn
from mindspore import Parameter, Tensor
from mindspore.ops import operations as P

from _check import close, raises

lr, decay, momentum, eps = 0.1, 0.8, 0.9, 1e-3
w0 = np.array([1.0, -2.0, 0.5], np.float32)
grads = [np.array([0.1, 0.2, -0.3], np.float32), np.array([-0.4, 0.05, 0.3], np.float32)]


def numpy_steps(centered):
    w, ms, mg, mom = w0.astype(np.float64), np.zeros(3), np.zeros(3), np.zeros(3)
    out = []
    for g in grads:
        ms = decay * ms + (1 - decay) * g * g
        mg = decay * mg + (1 - decay) * g
        mom = momentum * mom + lr * g / np.sqrt(ms - (mg * mg if centered else 0) + eps)
        w = w - mom
        out.append((w.copy(), ms.copy(), mg.copy(), mom.copy()))
    return out


def state(name):
    return Parameter(Tensor(np.zeros(3, np.float32)), name=name)


w, ms, mom = Parameter(Tensor(w0.copy()), name="w"), state("ms"), state("mom")
for g, (ew, ems, _, emom) in zip(grads, numpy_steps(False)):
    out = P.ApplyRMSProp()(w, ms, mom, Tensor(np.float32(lr)), Tensor(g), decay, momentum, eps)
    close(out, ew)
    close(w, ew)
    close(ms, ems)
    close(mom, emom)
w, mg, ms, mom = Parameter(Tensor(w0.copy()), name="w"), state("mg"), state("ms"), state("mom")
for g, (ew, ems, emg, emom) in zip(grads, numpy_steps(True)):
    close(P.ApplyCenteredRMSProp()(w, mg, ms, mom, Tensor(g), lr, decay, momentum, eps), ew)
    close(mg, emg)
    close(ms, ems)
    close(mom, emom)

# nn.RMSProp takes the same steps as the primitives
for centered in (False, True):
    p = Parameter(Tensor(w0.copy()), name="p")
    opt = nn.RMSProp([p], learning_rate=lr, decay=decay, momentum=momentum, epsilon=eps, centered=centered)
    for g in grads:
        opt((Tensor(g),))
    close(p, numpy_steps(centered)[-1][0])

raises(TypeError, P.ApplyRMSProp(), Tensor(w0), ms, mom, lr, Tensor(grads[0]), decay, momentum, eps,
       match="For 'ApplyRMSProp', the 'var' must be a Parameter")
raises(TypeError, P.ApplyRMSProp(), w, ms, mom, lr, Tensor(grads[0]), 1, momentum, eps,
       match="For 'ApplyRMSProp', the 'decay' must be a float")
raises(TypeError, P.ApplyCenteredRMSProp, use_locking="no", match="'use_locking' must be a bool")
