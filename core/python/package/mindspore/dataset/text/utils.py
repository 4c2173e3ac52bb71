"""mindspore.dataset.text.utils: Vocab (word <-> id tables), the text enums, to_str / to_bytes, and
SentencePieceVocab, which needs the SentencePiece library gradstep does not ship."""
import enum
import numbers
import os

import numpy as np

__all__ = ["Vocab", "NormalizeForm", "JiebaMode", "SentencePieceModel", "SPieceTokenizerLoadType",
           "SPieceTokenizerOutType", "SentencePieceVocab", "to_str", "to_bytes"]


class NormalizeForm(enum.IntEnum):
    """Unicode normalization forms (BasicTokenizer, BertTokenizer, NormalizeUTF8)."""
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class JiebaMode(enum.IntEnum):
    MIX = 0
    MP = 1
    HMM = 2


class SentencePieceModel(enum.IntEnum):
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerLoadType(enum.IntEnum):
    FILE = 0
    MODEL = 1


class SPieceTokenizerOutType(enum.IntEnum):
    STRING = 0
    INT = 1


def _not_available(name, what):
    raise RuntimeError("%s is not available in gradstep: it needs %s, which gradstep does not ship. "
                       "Tokenize with text.BasicTokenizer, text.BertTokenizer, text.RegexTokenizer or "
                       "text.PythonTokenizer instead." % (name, what))


class SentencePieceVocab:
    """Needs the SentencePiece library: every constructor raises RuntimeError saying so."""

    @classmethod
    def from_dataset(cls, *args, **kwargs):
        _not_available("SentencePieceVocab", "the SentencePiece library")

    @classmethod
    def from_file(cls, *args, **kwargs):
        _not_available("SentencePieceVocab", "the SentencePiece library")

    @classmethod
    def save_model(cls, *args, **kwargs):
        _not_available("SentencePieceVocab", "the SentencePiece library")


def _check_str_list(name, values):
    if not isinstance(values, (list, tuple)):
        raise TypeError("Argument %s with value %s is not of type [<class 'list'>], but got %s."
                        % (name, values, type(values)))
    for v in values:
        if not isinstance(v, str):
            raise TypeError("Argument %s[%d] with value %s is not of type [<class 'str'>], but got %s."
                            % (name, values.index(v), v, type(v)))
    return list(values)


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError("Argument %s with value %s is not of type [<class 'bool'>], but got %s."
                        % (name, value, type(value)))


class Vocab:
    """Pairs of words and ids: word -> id for Lookup, id -> word for ids_to_tokens."""

    def __init__(self):
        self._ids = None
        self._words = {}

    def _set(self, ids):
        self._ids = ids
        self._words = {i: w for w, i in ids.items()}
        return self

    @classmethod
    def _build(cls, words, special_tokens, special_first):
        special = _check_str_list("special_tokens", special_tokens or [])
        _check_bool("special_first", special_first)
        ids = {}
        order = (special + words) if special_first else (words + special)
        for w in order:
            if w not in ids:
                ids[w] = len(ids)
        return cls()._set(ids)

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in the list's order, special_tokens before (special_first) or after the words."""
        words = _check_str_list("word_list", word_list)
        seen = set()
        for w in words + list(special_tokens or []):
            if w in seen:
                raise ValueError("word_list contains duplicate word: %s." % w)
            seen.add(w)
        return cls._build(words, special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """The given word -> id pairs (ids must be non-negative ints)."""
        if not isinstance(word_dict, dict):
            raise TypeError("Argument word_dict with value %s is not of type [<class 'dict'>], but got %s."
                            % (word_dict, type(word_dict)))
        for w, i in word_dict.items():
            if not isinstance(w, str):
                raise TypeError("Argument word with value %s is not of type [<class 'str'>], but got %s."
                                % (w, type(w)))
            if isinstance(i, bool) or not isinstance(i, numbers.Integral):
                raise TypeError("Argument word id with value %s is not of type [<class 'int'>], but got %s."
                                % (i, type(i)))
            if i < 0:
                raise ValueError("Input word id is not within the required interval of [0, 2147483647].")
        return cls()._set({w: int(i) for w, i in word_dict.items()})

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True):
        """One word per line (the part before delimiter when one is given), at most vocab_size."""
        if not isinstance(file_path, str):
            raise TypeError("Argument file_path with value %s is not of type [<class 'str'>], but got %s."
                            % (file_path, type(file_path)))
        if not os.path.isfile(file_path):
            raise ValueError("The file %s does not exist or permission denied!" % file_path)
        if vocab_size is not None and (isinstance(vocab_size, bool) or not isinstance(vocab_size, int)
                                       or vocab_size <= 0):
            raise ValueError("Input vocab_size is not within the required interval of [1, 2147483647].")
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\r\n")
                word = line.split(delimiter)[0] if delimiter else line
                if word in words:
                    raise RuntimeError("from_file: word_list contains duplicate word: %s." % word)
                words.append(word)
                if vocab_size is not None and len(words) == vocab_size:
                    break
        return cls._build(words, special_tokens, special_first)

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None, special_tokens=None,
                     special_first=True):
        """The words of the dataset's string columns, most frequent first (ties in lexicographic
        order), kept within freq_range (min, max counts) and then the top_k."""
        names = dataset.get_col_names()
        columns = names if columns is None else ([columns] if isinstance(columns, str) else list(columns))
        for c in columns:
            if c not in names:
                raise RuntimeError("from_dataset: column '%s' does not exist in the dataset columns %s."
                                   % (c, names))
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k <= 0):
            raise ValueError("Input top_k is not within the required interval of [1, 2147483647].")
        picked = [names.index(c) for c in columns]
        counts = {}
        for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
            for i in picked:
                values = np.asarray(row[i])
                if values.dtype.kind not in "US":
                    raise RuntimeError("from_dataset: column '%s' must be of string type, but got %s."
                                       % (names[i], values.dtype))
                for w in values.ravel().tolist():
                    w = w.decode() if isinstance(w, bytes) else w
                    counts[w] = counts.get(w, 0) + 1
        if not counts:
            raise RuntimeError("from_dataset: the columns %s hold no words (word_cnt is empty)." % columns)
        low, high = 0, None
        if freq_range is not None:
            if not isinstance(freq_range, tuple) or len(freq_range) != 2:
                raise ValueError("freq_range needs to be a tuple of 2 element.")
            low = freq_range[0] or 0
            high = freq_range[1]
            if high is not None and low > high:
                raise ValueError("frequency range [a,b] should be 0 <= a <= b (a,b are inclusive).")
        words = sorted((w for w, n in counts.items() if n >= low and (high is None or n <= high)),
                       key=lambda w: (-counts[w], w))
        clashes = [t for t in (special_tokens or []) if t in words]
        if clashes:
            raise RuntimeError("These specials words are already in the dataset: %s." % "\t".join(clashes))
        if top_k is not None:
            words = words[:top_k]
        return cls._build(words, special_tokens, special_first)

    def _check(self):
        if self._ids is None:
            raise RuntimeError("Vocab is not initialized: build it with Vocab.from_list, from_dict, "
                               "from_file or from_dataset.")

    def vocab(self):
        """The word -> id dict."""
        self._check()
        return dict(self._ids)

    def _table(self):
        """The word -> id dict itself, for the transforms that read it per row (not to be changed)."""
        self._check()
        return self._ids

    def tokens_to_ids(self, tokens):
        """The id of a token (an int) or of each token of a list; -1 for words not in the vocab."""
        self._check()
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        if not isinstance(tokens, (list, tuple)):
            raise TypeError("Argument tokens with value %s is not of type [<class 'str'>, <class 'list'>, "
                            "<class 'numpy.ndarray'>], but got %s." % (tokens, type(tokens)))
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        """The word of an id (a str) or of each id of a list; "" for ids not in the vocab."""
        self._check()
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        if isinstance(ids, numbers.Integral) and not isinstance(ids, bool):
            if ids < 0:
                raise ValueError("Input ids is not within the required interval of [0, 2147483647].")
            return self._words.get(int(ids), "")
        if not isinstance(ids, (list, tuple)):
            raise TypeError("Argument ids with value %s is not of type [<class 'int'>, <class 'list'>, "
                            "<class 'numpy.ndarray'>], but got %s." % (ids, type(ids)))
        return [self._words.get(int(i), "") for i in ids]

    def __len__(self):
        self._check()
        return len(self._ids)


def to_bytes(array, encoding="utf8"):
    """A NumPy str array as bytes, each element encoded."""
    if not isinstance(array, np.ndarray):
        raise ValueError("input should be a NumPy array.")
    return np.char.encode(array, encoding)


def to_str(array, encoding="utf8"):
    """A NumPy bytes array as str, each element decoded."""
    if not isinstance(array, np.ndarray):
        raise TypeError("input should be a NumPy array.")
    return np.char.decode(array, encoding)
