"""mindspore.common.seed: the global random seed."""
from mindspore import get_seed, set_seed

__all__ = ["set_seed", "get_seed"]
