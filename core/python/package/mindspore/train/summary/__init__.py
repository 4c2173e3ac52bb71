"""mindspore.train.summary: SummaryRecord, which writes MindSpore's summary files."""
from mindspore.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
