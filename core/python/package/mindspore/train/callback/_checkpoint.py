"""CheckpointConfig and ModelCheckpoint: MindSpore checkpoints written while Model trains.

Files are named PREFIX-EPOCH_STEP.ckpt (STEP counted within the epoch) in `directory`; a prefix
already used there becomes PREFIX_1, PREFIX_2, ... as in MindSpore. MindSpore also writes the
compiled graph beside them (PREFIX-graph.meta); gradstep has no such graph file and writes none.
Encrypted checkpoints (enc_key) and exception_save are not provided.
"""
import os
import time

from mindspore import log as logger
from mindspore.train._checks import check_bool, check_non_negative_int
from mindspore.train.callback._callback import Callback
from mindspore.train.serialization import save_checkpoint

__all__ = ["CheckpointConfig", "ModelCheckpoint"]


def _optional_count(value, name):
    return 0 if value is None else check_non_negative_int(value, name, "CheckpointConfig")


class CheckpointConfig:
    """When to save (every save_checkpoint_steps steps, or every save_checkpoint_seconds when steps
    is 0) and how many files to keep (keep_checkpoint_max, or one per keep_checkpoint_per_n_minutes)."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, **kwargs):
        if kwargs:
            raise TypeError("For 'CheckpointConfig', got an unexpected keyword argument '%s'." % next(iter(kwargs)))
        steps = _optional_count(save_checkpoint_steps, "save_checkpoint_steps")
        seconds = _optional_count(save_checkpoint_seconds, "save_checkpoint_seconds")
        keep_max = _optional_count(keep_checkpoint_max, "keep_checkpoint_max")
        per_minutes = _optional_count(keep_checkpoint_per_n_minutes, "keep_checkpoint_per_n_minutes")
        if not steps and not seconds and not keep_max and not per_minutes:
            raise ValueError("The input arguments 'save_checkpoint_steps', 'save_checkpoint_seconds', "
                             "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        # As in MindSpore, the setting a policy overrides reads None (steps beat seconds, a maximum
        # count beats the per-minutes rule).
        if steps:
            seconds = None
        if not keep_max and not per_minutes:
            keep_max = 1
        if keep_max:
            per_minutes = None
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = per_minutes
        self._integrated_save = check_bool(integrated_save, "integrated_save", "CheckpointConfig")
        self._async_save = check_bool(async_save, "async_save", "CheckpointConfig")
        check_bool(exception_save, "exception_save", "CheckpointConfig")
        if enc_key is not None or exception_save:
            raise ValueError("For 'CheckpointConfig', 'enc_key' and 'exception_save' are not supported by gradstep.")
        from mindspore import nn
        if saved_network is not None and not isinstance(saved_network, nn.Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, but got %s."
                            % type(saved_network))
        self._saved_network = saved_network
        self._append_info = self._checked_append_info(append_info)
        self._enc_key, self._enc_mode = enc_key, enc_mode

    @staticmethod
    def _checked_append_info(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' must be list, but got %s."
                            % type(append_info))
        info = {}
        for item in append_info:
            if item in ("epoch_num", "step_num"):
                info[item] = 0
            elif isinstance(item, dict):
                info.update(item)
            else:
                raise ValueError("For 'CheckpointConfig', the elements of 'append_info' must be 'epoch_num', "
                                 "'step_num' or a dict, but got %r." % (item,))
        return info

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    append_dict = property(lambda self: self._append_info)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)

    def get_checkpoint_policy(self):
        """The policy as a dict, as MindSpore returns it."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


def _free_prefix(directory, prefix):
    """prefix, or prefix_N with the smallest N that no checkpoint in directory uses yet."""
    names = os.listdir(directory) if os.path.isdir(directory) else []

    def used(p):
        return any(n.startswith(p + "-") and n.endswith(".ckpt") for n in names)

    candidate, index = prefix, 0
    while used(candidate):
        index += 1
        candidate = "%s_%d" % (prefix, index)
    return candidate


class ModelCheckpoint(Callback):
    """Saves the train network (or config.saved_network) as PREFIX-EPOCH_STEP.ckpt files."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        if not isinstance(prefix, str) or not prefix or "/" in prefix:
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             "must be string and does not contain '/', but got %r." % (prefix,))
        if directory is not None and not isinstance(directory, str):
            raise TypeError("For 'ModelCheckpoint', the type of 'directory' must be str or None, but got %s."
                            % type(directory))
        if config is None:
            config = CheckpointConfig()
        if not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument 'config' must be 'CheckpointConfig', but "
                            "got %s." % type(config))
        self._directory = os.path.realpath(directory if directory is not None else os.getcwd())
        os.makedirs(self._directory, exist_ok=True)
        self._prefix = _free_prefix(self._directory, prefix)
        self._config = config
        self._files = []  # (path, time saved), oldest first
        self._last_step = 0
        self._last_time = time.time()
        self._last_kept_time = time.time()
        self._latest_ckpt_file_name = ""

    @property
    def latest_ckpt_file_name(self):
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if self._due(cb_params.cur_step_num):
            self._save(cb_params)

    def end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.cur_step_num > self._last_step:
            self._save(cb_params)

    def _due(self, step):
        if self._config.save_checkpoint_steps:
            return step >= self._last_step + self._config.save_checkpoint_steps
        return time.time() - self._last_time >= self._config.save_checkpoint_seconds

    def _save(self, cb_params):
        batch_num = cb_params.get("batch_num") or cb_params.cur_step_num
        step_in_epoch = (cb_params.cur_step_num - 1) % batch_num + 1
        name = "%s-%d_%d.ckpt" % (self._prefix, cb_params.cur_epoch_num, step_in_epoch)
        path = os.path.join(self._directory, name)
        append = self._config.append_dict
        if append is not None:
            append = dict(append)
            if "epoch_num" in append:
                append["epoch_num"] = cb_params.cur_epoch_num
            if "step_num" in append:
                append["step_num"] = cb_params.cur_step_num
        network = self._config.saved_network or cb_params.train_network
        self._make_room(path)
        save_checkpoint(network, path, self._config.integrated_save, self._config.async_save, append)
        self._files.append((path, time.time()))
        self._last_step = cb_params.cur_step_num
        self._last_time = time.time()
        self._latest_ckpt_file_name = path

    def _make_room(self, path):
        self._files = [(p, t) for p, t in self._files if p != path and os.path.exists(p)]
        keep_max = self._config.keep_checkpoint_max
        per_minutes = self._config.keep_checkpoint_per_n_minutes
        if keep_max:
            while len(self._files) >= keep_max:
                self._remove(self._files.pop(0)[0])
        elif per_minutes:
            now = time.time()
            if now - self._last_kept_time < per_minutes * 60:
                # Within the current window only its first file stays.
                recent = [(p, t) for p, t in self._files if t >= self._last_kept_time]
                for p, _ in recent[1:]:
                    self._remove(p)
                self._files = [f for f in self._files if f not in recent[1:]]
            else:
                self._last_kept_time = now

    @staticmethod
    def _remove(path):
        try:
            os.remove(path)
        except OSError as err:
            logger.warning("ModelCheckpoint could not remove the old checkpoint %s: %s" % (path, err))
