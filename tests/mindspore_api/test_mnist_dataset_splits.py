"""MnistDataset reads the splits its directory holds: usage None ('all', MindSpore's default)
reads train and test files when both are there and either alone when only one is (the quick
start's MnistDataset('MNIST_Data/train') holds only the train files); 'train' / 'test' require
theirs."""
import os
import shutil
import tempfile

from mindspore.dataset import MnistDataset

from _check import raises

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "data")
FILES = {
    "train": [("digits-train-images-idx3-ubyte", "train-images-idx3-ubyte"),
              ("digits-train-labels-idx1-ubyte", "train-labels-idx1-ubyte")],
    "test": [("digits-test-images-idx3-ubyte", "t10k-images-idx3-ubyte"),
             ("digits-test-labels-idx1-ubyte", "t10k-labels-idx1-ubyte")],
}


def directory_with(*splits):
    path = tempfile.mkdtemp(prefix="mnist_splits_")
    for split in splits:
        for ours, mnist in FILES[split]:
            shutil.copy(os.path.join(DATA, ours), os.path.join(path, mnist))
    return path


train_only, test_only, both, empty = (directory_with("train"), directory_with("test"),
                                      directory_with("train", "test"), directory_with())
try:
    train_rows = MnistDataset(train_only).get_dataset_size()
    test_rows = MnistDataset(test_only).get_dataset_size()
    assert train_rows == 1500, train_rows
    assert test_rows > 0
    assert MnistDataset(both).get_dataset_size() == train_rows + test_rows
    assert MnistDataset(both, usage="all").get_dataset_size() == train_rows + test_rows
    assert MnistDataset(both, usage="test").get_dataset_size() == test_rows
    assert MnistDataset(train_only, usage="train").get_dataset_size() == train_rows
    raises(ValueError, lambda: MnistDataset(train_only, usage="test"), match="no test images file")
    raises(ValueError, lambda: MnistDataset(empty), match="no MNIST images file")
finally:
    for path in (train_only, test_only, both, empty):
        shutil.rmtree(path)
print("ok")
