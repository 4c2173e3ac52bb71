"""The parameter check MindSpore's optimizer base classes share (nn.Optimizer names the argument
'parameters', mindspore.experimental.optim's 'params'). A module of its own, importing nothing of
mindspore, so either optimizer module can use it without changing the package's import order."""
from collections.abc import Iterable


def checked_parameters(parameters, argument, refused=()):
    """parameters as a list; MindSpore's errors name 'Optimizer' whichever optimizer is built."""
    if parameters is None:
        raise ValueError("For 'Optimizer', the argument %s can not be None." % argument)
    if not isinstance(parameters, Iterable) or isinstance(parameters, refused):
        raise TypeError("For 'Optimizer', the argument %s must be Iterable type, but got %s."
                        % (argument, type(parameters)))
    parameters = list(parameters)
    if not parameters:
        raise ValueError("For 'Optimizer', the argument %s must not be empty." % argument)
    return parameters
