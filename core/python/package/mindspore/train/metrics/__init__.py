"""mindspore.train.metrics: Metric and the metrics Model.eval computes, by name or instance."""
from mindspore.train.metrics.accuracy import Accuracy
from mindspore.train.metrics.bleu import BleuScore
from mindspore.train.metrics.confusion_matrix import ConfusionMatrix
from mindspore.train.metrics.confusion_matrix_metric import ConfusionMatrixMetric
from mindspore.train.metrics.cosine_similarity import CosineSimilarity
from mindspore.train.metrics.dice import Dice, Perplexity
from mindspore.train.metrics.error import MAE, MSE
from mindspore.train.metrics.fbeta import F1, Fbeta
from mindspore.train.metrics.loss import Loss
from mindspore.train.metrics.metric import Metric, rearrange_inputs
from mindspore.train.metrics.occlusion_sensitivity import OcclusionSensitivity
from mindspore.train.metrics.precision import Precision
from mindspore.train.metrics.recall import Recall
from mindspore.train.metrics.roc import ROC, auc
from mindspore.train.metrics.surface_distance import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance
from mindspore.train.metrics.topk import (Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                          TopKCategoricalAccuracy)

__all__ = ["names", "get_metric_fn", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs",
           "Precision", "Recall", "Fbeta", "F1", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss", "ConfusionMatrix", "Dice",
           "Perplexity", "CosineSimilarity", "ROC", "auc", "BleuScore",
           "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance", "ConfusionMatrixMetric",
           "OcclusionSensitivity"]

__factory__ = {
    'accuracy': Accuracy,
    'acc': Accuracy,
    'precision': Precision,
    'recall': Recall,
    'F1': F1,
    'topk': TopKCategoricalAccuracy,
    'top_1_accuracy': Top1CategoricalAccuracy,
    'top_5_accuracy': Top5CategoricalAccuracy,
    'mae': MAE,
    'mse': MSE,
    'loss': Loss,
    'confusion_matrix': ConfusionMatrix,
    'confusion_matrix_metric': ConfusionMatrixMetric,
    'dice': Dice,
    'roc': ROC,
    'auc': auc,
    'bleu_score': BleuScore,
    'perplexity': Perplexity,
    'cosine_similarity': CosineSimilarity,
    'occlusion_sensitivity': OcclusionSensitivity,
    'hausdorff_distance': HausdorffDistance,
    'mean_surface_distance': MeanSurfaceDistance,
    'root_mean_square_distance': RootMeanSquareDistance,
}


def names():
    """The sorted names get_metric_fn and Model's metrics set accept."""
    return sorted(__factory__.keys())


def get_metric_fn(name, *args, **kwargs):
    """A new instance of the metric called `name` (see names()), built with args and kwargs."""
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official website "
                       f"for more details about supported metrics.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """{name: Metric} from Model's `metrics` (None, a dict of name -> Metric, or a set of names)."""
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is dict, the key in 'metrics' must be string and "
                                f"value in 'metrics' must be Metric, but got key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError("For 'get_metrics', the argument 'metrics' must be None, dict or set, "
                    "but got {}".format(metrics))
