"""BackupAndRestore: keeps the train network's parameters in backup_dir/backup.ckpt (saved every
save_freq epochs), loads them back when a training starts and finds the file (a training that
stopped resumes from its last backup), and deletes the file when the training ends
(delete_checkpoint)."""
import os
import stat

from mindspore import log as logger
from mindspore.train._checks import check_bool, check_positive_int
from mindspore.train.callback._callback import Callback
from mindspore.train.serialization import load_checkpoint, save_checkpoint

__all__ = ["BackupAndRestore"]


def _make_directory(path):
    if not isinstance(path, str) or not path.strip():
        raise ValueError("For 'BackupAndRestore', the 'backup_dir' must be a non-empty str, but got %r." % (path,))
    path = os.path.realpath(path)
    os.makedirs(path, exist_ok=True)
    return path


class BackupAndRestore(Callback):
    """BackupAndRestore(backup_dir, save_freq="epoch", delete_checkpoint=True)."""

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        self.backup_file = os.path.join(_make_directory(backup_dir), "backup.ckpt")
        self.save_freq = 1 if save_freq == "epoch" else check_positive_int(save_freq, "save_freq", "BackupAndRestore")
        self.delete_checkpoint = check_bool(delete_checkpoint, "delete_checkpoint", "BackupAndRestore")

    def on_train_begin(self, run_context):
        if os.path.exists(self.backup_file):
            logger.info("Restore checkpoint file is %s, load checkpoint into train net." % self.backup_file)
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            logger.info("Train task end, backup checkpoint file: %s." % self.backup_file)
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context):
        # (MindSpore's os.remove fails when no epoch reached save_freq; nothing is left to delete then.)
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            logger.info("Delete restore checkpoint file %s at %d epoch."
                        % (self.backup_file, run_context.original_args().cur_epoch_num))
            os.chmod(self.backup_file, stat.S_IWRITE)
            os.remove(self.backup_file)
