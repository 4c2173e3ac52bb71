"""set_auto_parallel_context / get_auto_parallel_context / reset_auto_parallel_context and
ParallelMode (also on mindspore and mindspore.context). gradstep runs data parallelism (one rank
per process over MPI, as MindSpore on CPU): 'stand_alone' and 'data_parallel' run; the modes that
split operators or pipelines are refused. gradients_mean, device_num, global_rank and
parameter_broadcast act on TrainOneStepCell, Model and DistributedGradReducer; the other settings
are checked, kept and returned as given."""
import mindspore as _ms
from mindspore import context as _context


class ParallelMode:
    """The parallel modes of set_auto_parallel_context(parallel_mode=...)."""
    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_DEFAULTS = {
    "device_num": 1,
    "global_rank": 0,
    "gradients_mean": False,
    "gradient_fp32_sync": True,
    "loss_repeated_mean": True,
    "parallel_mode": ParallelMode.STAND_ALONE,
    "search_mode": "dynamic_programming",
    "auto_parallel_search_mode": "dynamic_programming",
    "parameter_broadcast": False,
    "strategy_ckpt_load_file": "",
    "strategy_ckpt_save_file": "",
    "full_batch": False,
    "dataset_strategy": (),
    "enable_parallel_optimizer": False,
    "enable_alltoall": False,
    "all_reduce_fusion_config": [],
    "pipeline_stages": 1,
    "grad_accumulation_step": 1,
    "parallel_optimizer_config": {},
    "comm_fusion": {},
    "strategy_ckpt_config": {},
}
_settings = dict(_DEFAULTS)
_device_num_is_set = False


def _check_bool(key, value):
    if not isinstance(value, bool):
        raise TypeError("For 'set_auto_parallel_context', the argument '{}' must be bool, "
                        "but got the type : {}.".format(key, type(value)))


def _check_int(key, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("For 'set_auto_parallel_context', the argument '{}' must be int, "
                        "but got the type : {}.".format(key, type(value)))
    if value < low or value > high:
        raise ValueError("The context configuration parameter '{}' must be in [{}, {}], "
                         "but got the value of {} : {}.".format(key, low, high, key, value))


def _check_parallel_mode(value):
    if value not in ParallelMode.MODE_LIST:
        raise ValueError("The context configuration parameter 'parallel_mode' only support 'stand_alone', "
                         "'data_parallel', 'hybrid_parallel', 'semi_auto_parallel' and 'auto_parallel', "
                         "but got the value : {}.".format(value))
    if value not in (ParallelMode.STAND_ALONE, ParallelMode.DATA_PARALLEL):
        raise ValueError("For 'set_auto_parallel_context', the parallel mode '{}' is not supported on CPU: "
                         "gradstep runs 'stand_alone' and 'data_parallel' (one rank per process over MPI), "
                         "as MindSpore on CPU does.".format(value))


def set_auto_parallel_context(**kwargs):
    """Sets the parallel settings: parallel_mode, gradients_mean, device_num, global_rank,
    parameter_broadcast, ..."""
    global _device_num_is_set
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError("For 'context.set_auto_parallel_context', the keyword argument {} is not "
                             "recognized! For detailed usage of 'context.set_auto_parallel_context', please "
                             "refer to the Mindspore official website.".format(key))
        if key == "parallel_mode":
            _check_parallel_mode(value)
        elif key == "device_num":
            _check_int(key, value, 1, 4096)
            _device_num_is_set = True
        elif key == "global_rank":
            _check_int(key, value, 0, 4095)
        elif key in ("gradients_mean", "gradient_fp32_sync", "loss_repeated_mean", "parameter_broadcast",
                     "full_batch", "enable_parallel_optimizer", "enable_alltoall"):
            _check_bool(key, value)
        elif key in ("pipeline_stages", "grad_accumulation_step"):
            _check_int(key, value, 1, 2 ** 31 - 1)
        _settings[key] = value


def get_auto_parallel_context(attr_key):
    """The value of one parallel setting."""
    if attr_key not in _DEFAULTS:
        raise ValueError("For 'context.get_auto_parallel_context', the argument attr_key {} is not "
                         "supported! For detailed usage of 'context.get_auto_parallel_context', please "
                         "refer to the Mindspore official website.".format(attr_key))
    return _settings[attr_key]


def reset_auto_parallel_context():
    """Every parallel setting back to its default (stand_alone, gradients_mean False, ...)."""
    global _device_num_is_set
    _settings.clear()
    _settings.update(_DEFAULTS)
    _device_num_is_set = False


def _device_num_was_set():
    return _device_num_is_set


def _gradstep_reset():
    reset_auto_parallel_context()


for _target in (_ms, _context):
    _target.ParallelMode = ParallelMode
    _target.set_auto_parallel_context = set_auto_parallel_context
    _target.get_auto_parallel_context = get_auto_parallel_context
    _target.reset_auto_parallel_context = reset_auto_parallel_context
