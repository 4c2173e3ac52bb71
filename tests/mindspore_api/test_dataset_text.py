"""mindspore.dataset.text: the documented examples of Vocab, Lookup and the tokenizers and string
operations, called directly and through map, with exact tokens, ids, offsets and errors."""
import os
import tempfile

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.text as text

from _check import raises


def column(dataset, name):
    return [r[name].tolist() for r in dataset.create_dict_iterator(num_epochs=1, output_numpy=True)]


# Vocab
v = text.Vocab.from_list(["w1", "w2", "w3"], special_tokens=["<unk>"], special_first=True)
assert v.vocab() == {"<unk>": 0, "w1": 1, "w2": 2, "w3": 3}
assert v.tokens_to_ids(["w1", "w3"]) == [1, 3] and v.tokens_to_ids("w2") == 2 and v.tokens_to_ids("zz") == -1
assert v.ids_to_tokens(0) == "<unk>" and v.ids_to_tokens([3, 99]) == ["w3", ""]
assert text.Vocab.from_list(["a"], ["<pad>"], special_first=False).vocab() == {"a": 0, "<pad>": 1}
d = text.Vocab.from_dict({"home": 3, "behind": 2, "the": 4, "world": 5, "<unk>": 6})
assert d.tokens_to_ids(["the", "home"]) == [4, 3] and d.ids_to_tokens(2) == "behind"
raises(ValueError, text.Vocab.from_dict, {"a": -1})
raises(ValueError, text.Vocab.from_list, ["a", "a"], match="duplicate")
raises(TypeError, text.Vocab.from_list, "abc")

path = os.path.join(tempfile.mkdtemp(prefix="gradstep_vocab_"), "vocab.txt")
with open(path, "w", encoding="utf-8") as f:
    f.write("apple,apple2\nbanana, 333\ncat,00\n")
fv = text.Vocab.from_file(path, ",", None, ["<pad>", "<unk>"], True)
assert fv.vocab() == {"<pad>": 0, "<unk>": 1, "apple": 2, "banana": 3, "cat": 4}
assert len(text.Vocab.from_file(path, ",", vocab_size=2).vocab()) == 2
raises(ValueError, text.Vocab.from_file, "/tmp/no/such/vocab.txt")

corpus = ds.NumpySlicesDataset(["b a c b", "c b", "d"], column_names=["text"], shuffle=False)
tokens = corpus.map(text.WhitespaceTokenizer(), input_columns="text")
dv = text.Vocab.from_dataset(tokens, "text", special_tokens=["<pad>", "<unk>"])
assert dv.vocab() == {"<pad>": 0, "<unk>": 1, "b": 2, "c": 3, "a": 4, "d": 5}  # by count, then a-z
assert text.Vocab.from_dataset(tokens, freq_range=(2, None)).vocab() == {"b": 0, "c": 1}
assert text.Vocab.from_dataset(tokens, top_k=1).vocab() == {"b": 0}
raises(RuntimeError, text.Vocab.from_dataset, tokens, special_tokens=["c"], match="already in the dataset: c")

# Lookup
assert column(tokens.map(text.Lookup(dv, "<unk>"), "text"), "text") == [[2, 4, 3, 2], [3, 2], [5]]
small = text.Vocab.from_list(["b", "<unk>"])
assert column(tokens.map(text.Lookup(small, "<unk>", ms.int64), "text"), "text")[1] == [1, 0]
looked = text.Lookup(small, "<unk>")(np.array(["b", "q"]))
assert looked.tolist() == [0, 1] and looked.dtype == np.int32
raises(RuntimeError, text.Lookup(small), np.array(["q"]), match="doesn't exist in vocab")
raises(RuntimeError, text.Lookup(small, "<oov>"), np.array(["b"]), match="\"<oov>\" doesn't exist")
raises(TypeError, text.Lookup, {"b": 0})

# tokenizers, with byte offsets
assert text.WhitespaceTokenizer()("Welcome To BeiJing!").tolist() == ["Welcome", "To", "BeiJing!"]
tok, start, limit = text.WhitespaceTokenizer(with_offsets=True)("Welcome To BeiJing!")
assert start.tolist() == [0, 8, 11] and limit.tolist() == [7, 10, 19] and start.dtype == np.uint32
tok, start, limit = text.UnicodeCharTokenizer(with_offsets=True)("北京a")
assert tok.tolist() == ["北", "京", "a"] and start.tolist() == [0, 3, 6] and limit.tolist() == [3, 6, 7]
assert text.RegexTokenizer(r"\s+", r"\s+")("Welcome  |,  To").tolist() == ["Welcome", "  ", "|,", "  ", "To"]
assert text.RegexTokenizer(r"\s+|,")("a,b  c").tolist() == ["a", "b", "c"]
assert text.PythonTokenizer(lambda s: s.split("-"))("a-b-c").tolist() == ["a", "b", "c"]
assert text.UnicodeScriptTokenizer()("ab12 cd!").tolist() == ["ab12", "cd", "!"]
basic = text.BasicTokenizer(lower_case=True)
assert basic("Welcome To BeiJing!  Héllo,世界 [CLS] [unused12]").tolist() == \
    ["welcome", "to", "beijing", "!", "hello", ",", "世", "界", "[CLS]", "[unused12]"]
assert text.BasicTokenizer()("Hi, you\tthere").tolist() == ["Hi", ",", "you", "there"]
assert text.BasicTokenizer(keep_whitespace=True)("a  b").tolist() == ["a", "  ", "b"]
assert text.BasicTokenizer(lower_case=True, preserve_unused_token=False)("[CLS]").tolist() == ["[", "cls", "]"]
bert_vocab = text.Vocab.from_list(["床", "前", "明", "月", "光", "i", "am", "mak", "make", "small", "mistake",
                                   "##s", "##a", "##ing", "[UNK]", "[CLS]"])
bert = text.BertTokenizer(bert_vocab, lower_case=True)
assert bert("床前明月光 I am making small mistakes [CLS] qq").tolist() == \
    ["床", "前", "明", "月", "光", "i", "am", "mak", "##ing", "small", "mistake", "##s", "[CLS]", "[UNK]"]
signs = text.Vocab.from_list(["+", "/", "-", " ", "[UNK]", "[CLS]"])
assert text.BertTokenizer(signs)("12+/-28").tolist() == ["[UNK]", "+", "/", "-", "[UNK]"]
assert text.BertTokenizer(bert_vocab, unknown_token="")("12+/-28").tolist() == ["12", "+", "/", "-", "28"]
assert text.BertTokenizer(bert_vocab, unknown_token="")("😀床前😃").tolist() == ["😀", "床", "前", "😃"]
assert text.BertTokenizer(signs, keep_whitespace=True)("unused [CLS]").tolist() == ["[UNK]", " ", "[CLS]"]
assert text.BertTokenizer(signs, keep_whitespace=True, unknown_token="", preserve_unused_token=False)(
    "unused [CLS]").tolist() == ["unused", " ", "[", "CLS", "]"]
wp, ws, wl = text.WordpieceTokenizer(bert_vocab, with_offsets=True)(np.array(["mistakes", "xyz", "make"]))
assert wp.tolist() == ["mistake", "##s", "[UNK]", "make"] and ws.tolist() == [0, 7, 0, 0]
assert wl.tolist() == [7, 8, 3, 4]
assert text.WordpieceTokenizer(bert_vocab, unknown_token="")(np.array(["xyz"])).tolist() == ["xyz"]
assert text.WordpieceTokenizer(bert_vocab, max_bytes_per_token=3)(np.array(["make"])).tolist() == ["[UNK]"]
raises(TypeError, text.WhitespaceTokenizer, with_offsets=1)
assert text.WhitespaceTokenizer()("   ").tolist() == [""]  # no token gives one empty token
tok, start, limit = text.BasicTokenizer(with_offsets=True)("")
assert tok.tolist() == [""] and start.tolist() == [0] and limit.tolist() == [0]
assert text.WordpieceTokenizer(bert_vocab)(np.array([], dtype=str)).tolist() == [""]
raises(RuntimeError, text.WhitespaceTokenizer(), np.array(["a b"]), match="should be scalar")
raises(RuntimeError, text.UnicodeCharTokenizer(), np.array(3), match="datatype should be string")

# through map: a tokenizer with offsets gives three columns
mapped = ds.NumpySlicesDataset(["Welcome To BeiJing!"], ["text"], shuffle=False).map(
    text.WhitespaceTokenizer(True), input_columns="text", output_columns=["token", "start", "limit"])
r = next(mapped.create_dict_iterator(output_numpy=True))
assert r["token"].tolist() == ["Welcome", "To", "BeiJing!"] and r["limit"].tolist() == [7, 10, 19]

# string operations
assert text.CaseFold()("Welcome To BeiJing!").tolist() == "welcome to beijing!"
assert text.RegexReplace("one", "two")("onetwoonetwoone").tolist() == "twotwotwotwotwo"
assert text.RegexReplace("one", "two", replace_all=False)("oneone").tolist() == "twoone"
assert text.NormalizeUTF8(text.NormalizeForm.NFKC)("ｆｉ").tolist() == "fi"
num = text.ToNumber(ms.int8)(np.array(["1", "-3"]))
assert num.tolist() == [1, -3] and num.dtype == np.int8
assert text.ToNumber(ms.float32)(np.array(["1.5"])).dtype == np.float32
raises(RuntimeError, text.ToNumber(ms.int8), np.array(["300"]), match="string input 300 will be out of bounds if cast to int8. The valid range is: [-128, 127].")
raises(RuntimeError, text.ToNumber(ms.int32), np.array(["abc"]), match="it is invalid to convert \"abc\" to a number.")
ngram = text.Ngram(3, separator="-")
assert ngram(["WildRose Country", "Canada's Ocean Playground", "Land of Living Skies"]).tolist() == \
    ["WildRose Country-Canada's Ocean Playground-Land of Living Skies"]
assert text.Ngram([2, 1], left_pad=("_", 1), right_pad=("_", 1))(["a", "b"]).tolist() == \
    ["_ a", "a b", "b _", "_", "a", "b", "_"]
assert text.Ngram(3)(["mindspore", "best"]).tolist() == [""]
raises(ValueError, text.Ngram, [0])
raises(ValueError, text.Ngram, 2, left_pad=("_",))
assert text.SlidingWindow(3)(np.array([1, 2, 3, 4, 5])).tolist() == [[1, 2, 3], [2, 3, 4], [3, 4, 5]]
assert text.SlidingWindow(2)(np.array(["a", "b", "c"])).tolist() == [["a", "b"], ["b", "c"]]
a, b = text.TruncateSequencePair(4)(np.array([1, 2, 3]), np.array([4, 5]))
assert a.tolist() == [1, 2] and b.tolist() == [4, 5]

assert text.AddToken("[CLS]")(np.array(["a", "b"])).tolist() == ["[CLS]", "a", "b"]
assert text.AddToken("[SEP]", begin=False)(np.array([["a"], ["b"]])).tolist() == [["a", "[SEP]"], ["b", "[SEP]"]]
assert text.Truncate(2)(np.array(["a", "b", "c"])).tolist() == ["a", "b"]
assert text.Truncate(1)(np.array([[1, 2], [3, 4]])).tolist() == [[1], [3]]
raises(ValueError, text.Truncate, -1)

# what needs external libraries says so
raises(RuntimeError, text.JiebaTokenizer, "hmm.utf8", "jieba.dict.utf8", match="not available in gradstep")
raises(RuntimeError, text.SentencePieceTokenizer, "m.model", text.SPieceTokenizerOutType.STRING,
       match="SentencePiece")
raises(RuntimeError, text.SentencePieceVocab.from_file, ["f"], 5000, 0.9995, text.SentencePieceModel.UNIGRAM, {})
assert text.to_str(text.to_bytes(np.array(["é"]))).tolist() == ["é"]
