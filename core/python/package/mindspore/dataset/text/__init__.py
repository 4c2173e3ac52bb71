"""mindspore.dataset.text: text processing for the data pipeline (tokenizers, Vocab and Lookup,
n-grams, string conversions); see transforms.py and utils.py."""
from mindspore.dataset.text.transforms import (AddToken, BasicTokenizer, BertTokenizer, CaseFold, JiebaTokenizer, Lookup,
                                               Ngram, NormalizeUTF8, PythonTokenizer, RegexReplace, RegexTokenizer,
                                               SentencePieceTokenizer, SlidingWindow, ToNumber, TruncateSequencePair,
                                               UnicodeCharTokenizer, UnicodeScriptTokenizer, WhitespaceTokenizer,
                                               Truncate, WordpieceTokenizer)
from mindspore.dataset.text.utils import (JiebaMode, NormalizeForm, SentencePieceModel, SentencePieceVocab,
                                          SPieceTokenizerLoadType, SPieceTokenizerOutType, Vocab, to_bytes, to_str)

__all__ = ["AddToken", "Truncate", "BasicTokenizer", "BertTokenizer", "CaseFold", "JiebaTokenizer", "Lookup", "Ngram", "NormalizeUTF8",
           "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SentencePieceTokenizer", "SlidingWindow", "ToNumber",
           "TruncateSequencePair", "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "WhitespaceTokenizer",
           "WordpieceTokenizer", "JiebaMode", "NormalizeForm", "SentencePieceModel", "SentencePieceVocab",
           "SPieceTokenizerLoadType", "SPieceTokenizerOutType", "Vocab", "to_bytes", "to_str"]
