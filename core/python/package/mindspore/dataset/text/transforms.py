"""mindspore.dataset.text.transforms: tokenizers and string operations of MindSpore 2.2, over NumPy
str arrays (the pipeline's string columns). ICU is replaced by Python's re and unicodedata; offsets
count UTF-8 bytes as MindSpore's do. JiebaTokenizer and SentencePieceTokenizer need model files and
libraries gradstep does not ship, and say so."""
import numbers
import re
import sys
import unicodedata

import numpy as np

import mindspore
from mindspore.dataset.text.utils import NormalizeForm, Vocab, _not_available

__all__ = ["AddToken", "Truncate", "Lookup", "PythonTokenizer", "WhitespaceTokenizer", "UnicodeCharTokenizer", "RegexTokenizer",
           "RegexReplace", "BasicTokenizer", "BertTokenizer", "WordpieceTokenizer", "CaseFold",
           "NormalizeUTF8", "ToNumber", "Ngram", "SlidingWindow", "TruncateSequencePair", "JiebaTokenizer",
           "SentencePieceTokenizer", "UnicodeScriptTokenizer"]


def _type_error(name, value, types):
    return TypeError("Argument %s with value %s is not of type %s, but got %s."
                     % (name, value, types, type(value)))


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise _type_error(name, value, "[<class 'bool'>]")
    return value


def _check_str(name, value):
    if not isinstance(value, str):
        raise _type_error(name, value, "[<class 'str'>]")
    return value


def _check_int(name, value, low=None):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise _type_error(name, value, "[<class 'int'>]")
    if low is not None and value < low:
        raise ValueError("Input %s is not within the required interval of [%d, 2147483647]." % (name, low))
    return int(value)


def _strings(who, value):
    """value as a NumPy str array (bytes decoded)."""
    array = np.asarray(value)
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf8")
    if array.dtype.kind != "U":
        raise RuntimeError("%s: the input should be of string type, but got %s." % (who, array.dtype))
    return array


def _scalar_text(who, value):
    """A tokenizer's input: one string (a 0-D array)."""
    array = np.asarray(value)
    if array.ndim != 0 or array.dtype.kind not in "US":
        raise RuntimeError("%s: the input shape should be scalar and the input datatype should be string, "
                           "but got %s of shape %s." % (who, array.dtype, array.shape))
    value = array.item()
    return value.decode("utf8") if isinstance(value, bytes) else value


def _nbytes(s):
    return len(s.encode("utf8"))


class TextTensorOperation:
    """Base of the text operations: one input column, called on NumPy arrays or through map."""

    def __call__(self, *columns):
        if len(columns) != 1:
            raise RuntimeError("%s: The op is OneToOne, can only accept one tensor as input."
                               % type(self).__name__)
        if isinstance(columns[0], (list, tuple)):
            try:
                np.asarray(columns[0])
            except ValueError:
                raise TypeError("Invalid user input. Got %s: %s, cannot be converted into tensor."
                                % (type(columns[0]), columns[0])) from None
        return self._apply(columns[0])

    def _apply(self, value):
        raise NotImplementedError


class _Tokenizer(TextTensorOperation):
    """A tokenizer of one string into a 1-D array of tokens; with_offsets adds offsets_start and
    offsets_limit (uint32 byte offsets into the string)."""

    def __init__(self, with_offsets=False):
        self.with_offsets = _check_bool("with_offsets", with_offsets)

    def _apply(self, value):
        text = _scalar_text(type(self).__name__, value)
        if not self.with_offsets:
            return np.array(self._tokens(text) or [""], dtype=np.str_)
        # no token at all gives one empty token, as MindSpore's tokenizers do
        pieces = self._pieces(text) or [("", 0, 0)]
        tokens = np.array([p[0] for p in pieces], dtype=np.str_)
        if not self.with_offsets:
            return tokens
        prefix = [0]
        for ch in text:
            prefix.append(prefix[-1] + _nbytes(ch))
        starts = np.array([prefix[p[1]] for p in pieces], dtype=np.uint32)
        limits = np.array([prefix[p[2]] for p in pieces], dtype=np.uint32)
        return tokens, starts, limits

    def _pieces(self, text):
        """[(token, start, end)] with character positions into text."""
        raise NotImplementedError

    def _tokens(self, text):
        """The tokens alone (a faster path where a subclass has one)."""
        return [p[0] for p in self._pieces(text)]


def _split(text, delim, keep):
    """Tokens between the matches of delim; the matches that keep fully matches are tokens too."""
    pieces, last = [], 0
    for m in delim.finditer(text):
        if m.start() == m.end():
            continue
        if m.start() > last:
            pieces.append((text[last:m.start()], last, m.start()))
        if keep is not None and keep.fullmatch(m.group()):
            pieces.append((m.group(), m.start(), m.end()))
        last = m.end()
    if last < len(text):
        pieces.append((text[last:], last, len(text)))
    return pieces


class WhitespaceTokenizer(_Tokenizer):
    """Splits a string at whitespace."""

    _WHITESPACE = re.compile(r"\s+")

    def _pieces(self, text):
        return _split(text, self._WHITESPACE, None)

    def _tokens(self, text):
        return text.split()


class UnicodeCharTokenizer(_Tokenizer):
    """One token per Unicode character."""

    def _pieces(self, text):
        return [(ch, i, i + 1) for i, ch in enumerate(text)]

    def _tokens(self, text):
        return list(text)


class RegexTokenizer(_Tokenizer):
    """Splits at the matches of delim_pattern; matches that keep_delim_pattern matches are kept as
    tokens."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        super().__init__(with_offsets)
        self.delim_pattern = _check_str("delim_pattern", delim_pattern)
        self.keep_delim_pattern = _check_str("keep_delim_pattern", keep_delim_pattern)
        self._delim = re.compile(delim_pattern)
        self._keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None

    def _pieces(self, text):
        return _split(text, self._delim, self._keep)


class UnicodeScriptTokenizer(_Tokenizer):
    """Splits where the kind of character changes (letters and digits, whitespace, other), the
    whitespace runs dropped unless keep_whitespace."""

    def __init__(self, keep_whitespace=False, with_offsets=False):
        super().__init__(with_offsets)
        self.keep_whitespace = _check_bool("keep_whitespace", keep_whitespace)

    def _pieces(self, text):
        def kind(ch):
            if ch.isspace():
                return 0
            return 1 if ch.isalnum() else 2
        pieces, start = [], 0
        for i in range(1, len(text) + 1):
            if i == len(text) or kind(text[i]) != kind(text[start]) or kind(text[start]) == 2:
                if kind(text[start]) != 0 or self.keep_whitespace:
                    pieces.append((text[start:i], start, i))
                start = i
        return pieces


class PythonTokenizer:
    """A Python function str -> list of str, applied to each string."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError("tokenizer is not a callable Python function.")
        self.tokenizer = tokenizer

    def __call__(self, value):
        text = _scalar_text("PythonTokenizer", value)
        return np.array(self.tokenizer(text), dtype=np.str_)


def _map_strings(who, value, fn):
    array = _strings(who, value)
    return np.array([fn(s) for s in array.ravel().tolist()], dtype=np.str_).reshape(array.shape)


def _case_fold(s):
    return unicodedata.normalize("NFKC", s.casefold())


class CaseFold(TextTensorOperation):
    """Folds case (NFKC case folding, as ICU's)."""

    def _apply(self, value):
        return _map_strings("CaseFold", value, _case_fold)


def _normalize(form, s):
    return s if form == NormalizeForm.NONE else unicodedata.normalize(NormalizeForm(form).name, s)


class NormalizeUTF8(TextTensorOperation):
    """Unicode normalization of each string."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        if not isinstance(normalize_form, NormalizeForm):
            raise _type_error("normalize_form", normalize_form, "[<enum 'NormalizeForm'>]")
        self.normalize_form = normalize_form

    def _apply(self, value):
        return _map_strings("NormalizeUTF8", value, lambda s: _normalize(self.normalize_form, s))


class RegexReplace(TextTensorOperation):
    """Replaces the matches of pattern by replace: all of them, or only the first."""

    def __init__(self, pattern, replace, replace_all=True):
        self.pattern = _check_str("pattern", pattern)
        self.replace = _check_str("replace", replace)
        self.replace_all = _check_bool("replace_all", replace_all)
        self._pattern = re.compile(pattern)

    def _apply(self, value):
        count = 0 if self.replace_all else 1
        return _map_strings("RegexReplace", value, lambda s: self._pattern.sub(self.replace, s, count=count))


def _numpy_type(who, data_type):
    try:
        return np.dtype(mindspore.dtype_to_nptype(data_type))
    except Exception:  # noqa: BLE001 - any non-dtype argument
        raise TypeError("%s: data_type should be a mindspore dtype, but got %s." % (who, data_type)) from None


# The spellings of non-finite numbers that ToNumber keeps; any other string overflowing the type is
# out of its range (float("1.8e+308") is inf in Python).
_NON_FINITE = ("inf", "infinity", "nan")


class ToNumber(TextTensorOperation):
    """Parses each string as a number of data_type (a numeric mindspore dtype)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._type = _numpy_type("ToNumber", data_type)
        if self._type.kind not in "iuf":
            raise TypeError("data_type: %s is not numeric data type." % data_type)

    def _number(self, s):
        try:
            value = int(s) if self._type.kind in "iu" else float(s)
        except ValueError:
            raise RuntimeError("ToNumber: it is invalid to convert \"%s\" to a number." % s) from None
        if self._type.kind in "iu":
            info = np.iinfo(self._type)
            if not info.min <= value <= info.max:
                raise RuntimeError("ToNumber: string input %s will be out of bounds if cast to %s. The valid range "
                                   "is: [%d, %d]." % (s, self._type, info.min, info.max))
        elif not np.isfinite(self._type.type(value)) and str(s).strip().lstrip("+-").lower() not in _NON_FINITE:
            if self._type == np.float16:
                raise RuntimeError("ToNumber: string input %s will be outside of valid float16 range." % s)
            raise RuntimeError("ToNumber: string input %s will be out of bounds if cast to %s." % (s, self._type))
        return value

    def _apply(self, value):
        array = _strings("ToNumber", value)
        return np.array([self._number(s) for s in array.ravel().tolist()],
                        dtype=self._type).reshape(array.shape)


class Lookup(TextTensorOperation):
    """Each word's id in vocab; words not in it take unknown_token's id (RuntimeError without one)."""

    def __init__(self, vocab, unknown_token=None, data_type=mindspore.int32):
        if not isinstance(vocab, Vocab):
            raise _type_error("vocab", vocab, "[<class 'mindspore.dataset.text.utils.Vocab'>]")
        if unknown_token is not None:
            _check_str("unknown_token", unknown_token)
        self.vocab = vocab
        self.unknown_token = unknown_token
        self.data_type = data_type
        self._type = _numpy_type("Lookup", data_type)
        if self._type.kind not in "biuf":
            raise TypeError("Lookup : The parameter data_type must be numeric including bool.")

    def _apply(self, value):
        ids = self.vocab._table()
        unknown = None
        if self.unknown_token is not None:
            if self.unknown_token not in ids:
                raise RuntimeError("Lookup: \"%s\" doesn't exist in vocab." % self.unknown_token)
            unknown = ids[self.unknown_token]
        array = _strings("Lookup", value)
        words = array.ravel().tolist()
        out = [ids.get(w, unknown) for w in words]
        if unknown is None and None in out:
            raise RuntimeError("Lookup: invalid data, token: \"%s\" doesn't exist in vocab and no unknown "
                               "token is specified." % words[out.index(None)])
        return np.array(out, dtype=self._type).reshape(array.shape)


class Ngram(TextTensorOperation):
    """The n-grams of a 1-D string array for each n in n (after left_pad and right_pad), joined by
    separator; an n longer than the padded input gives one empty string."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        n = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(n, list):
            raise _type_error("n", n, "[<class 'list'>]")
        for k in n:
            _check_int("gram", k)
            if k <= 0:
                raise ValueError("gram_%d must be greater than 0." % n.index(k))
        for name, pad in (("left_pad", left_pad), ("right_pad", right_pad)):
            if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str)
                    and isinstance(pad[1], int) and not isinstance(pad[1], bool)):
                raise ValueError("%s needs to be a tuple of (str, int) str is pad token and int is pad_width."
                                 % name)
            if pad[1] < 0:
                raise ValueError("padding width need to be positive numbers.")
        self.n, self.left_pad, self.right_pad = n, left_pad, right_pad
        self.separator = _check_str("separator", separator)

    def _apply(self, value):
        array = _strings("Ngram", value)
        if array.ndim != 1:
            raise RuntimeError("Ngram: input is not a 1D data with string datatype.")
        words = ([self.left_pad[0]] * self.left_pad[1] + array.tolist()
                 + [self.right_pad[0]] * self.right_pad[1])
        out = []
        for k in self.n:
            if k > len(words):
                out.append("")
                continue
            out.extend(self.separator.join(words[i:i + k]) for i in range(len(words) - k + 1))
        return np.array(out, dtype=np.str_)


class SlidingWindow(TextTensorOperation):
    """Windows of width consecutive elements along axis (a new axis after it)."""

    def __init__(self, width, axis=0):
        self.width = _check_int("width", width, 1)
        self.axis = _check_int("axis", axis)

    def _apply(self, value):
        array = np.asarray(value)
        if array.ndim != 1:
            raise RuntimeError("SlidingWindow: SlidingWindow supports 1D input only for now. Got %dD input."
                               % array.ndim)
        if self.axis not in (0, -1):
            raise RuntimeError("SlidingWindow: axis supports 0 or -1 only for now. Got axis %d." % self.axis)
        count = max(array.shape[0] - self.width + 1, 0)
        if count == 0:  # MindSpore gives an empty 1-D array when width exceeds the input
            return np.empty((0,), dtype=array.dtype)
        return np.stack([array[i:i + self.width] for i in range(count)])


class TruncateSequencePair:
    """Two 1-D columns cut (the longer one first) until their total length is at most max_length."""

    def __init__(self, max_length):
        self.max_length = _check_int("max_length", max_length, 0)

    def __call__(self, *columns):
        if len(columns) != 2:
            raise RuntimeError("TruncateSequencePair: the number of input columns should be 2, but got %d."
                               % len(columns))
        a, b = (np.asarray(c) for c in columns)
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError("TruncateSequencePair: the input should be 1-D, but got %dD and %dD."
                               % (a.ndim, b.ndim))
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la], b[:lb]


_UNUSED = re.compile(r"\[CLS\]|\[SEP\]|\[UNK\]|\[PAD\]|\[MASK\]|\[unused\d+\]")
_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F), (0x2B740, 0x2B81F),
        (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


_SPLIT = []


def _split_class():
    """The characters BasicTokenizer makes tokens of their own, as one regex character class:
    ASCII punctuation and symbols, Unicode punctuation (\\p{P}) and CJK ideographs. Built on first
    use (Python's re has no \\p{P}; a scan of the code points takes a fraction of a second)."""
    if not _SPLIT:
        ranges = ["!-/", ":-@", "\\[-`", "{-~"]
        ranges += ["%s-%s" % (chr(lo), chr(hi)) for lo, hi in _CJK]
        punct = "".join(re.escape(chr(c)) for c in range(sys.maxunicode + 1)
                        if unicodedata.category(chr(c)).startswith("P"))
        _SPLIT.append("[" + "".join(ranges) + punct + "]")
    return _SPLIT[0]


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenization: control characters to spaces, optional case folding with accents
    removed (lower_case) or a normalization form, then a split at whitespace, punctuation and CJK
    characters (whitespace runs kept as tokens when keep_whitespace). preserve_unused_token keeps
    [CLS], [SEP], [UNK], [PAD], [MASK] and [unusedN] whole. Offsets index the normalized text."""

    def __init__(self, lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        super().__init__(with_offsets)
        self.lower_case = _check_bool("lower_case", lower_case)
        self.keep_whitespace = _check_bool("keep_whitespace", keep_whitespace)
        if not isinstance(normalization_form, NormalizeForm):
            raise _type_error("normalization_form", normalization_form, "[<enum 'NormalizeForm'>]")
        self.normalization_form = normalization_form
        self.preserve_unused_token = _check_bool("preserve_unused_token", preserve_unused_token)
        self._delim = self._keep = None

    def _fold(self, text):
        text = _case_fold(text)
        text = unicodedata.normalize("NFD", text)
        return "".join(ch for ch in text if unicodedata.category(ch) != "Mn")

    def _normalized(self, text):
        """Folded or normalized first, then control characters made spaces (MindSpore's order)."""
        if not self.lower_case:
            text = _normalize(self.normalization_form, text)
        elif not self.preserve_unused_token:
            text = self._fold(text)
        else:
            # the special tokens keep their case ([CLS] stays upper-case)
            out, last = [], 0
            for m in _UNUSED.finditer(text):
                out.append(self._fold(text[last:m.start()]))
                out.append(m.group())
                last = m.end()
            out.append(self._fold(text[last:]))
            text = "".join(out)
        return "".join(" " if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text)

    def _apply(self, value):
        text = _scalar_text(type(self).__name__, value)
        return super()._apply(np.array(self._normalized(text)))

    def _pieces(self, text):
        if self._delim is None:
            split = _split_class()
            unused = _UNUSED.pattern + "|" if self.preserve_unused_token else ""
            self._delim = re.compile(unused + r"\s+|" + split)
            self._keep = re.compile(unused + (r"\s+|" if self.keep_whitespace else "") + split)
        return _split(text, self._delim, self._keep)


def _check_wordpiece(vocab, suffix_indicator, max_bytes_per_token, unknown_token):
    if not isinstance(vocab, Vocab):
        raise _type_error("vocab", vocab, "[<class 'mindspore.dataset.text.utils.Vocab'>]")
    _check_str("suffix_indicator", suffix_indicator)
    _check_int("max_bytes_per_token", max_bytes_per_token, 0)
    _check_str("unknown_token", unknown_token)


def _wordpiece(word, start, ids, suffix, max_bytes, unknown):
    """Greedy longest-first pieces of word (start: its character offset) found in ids."""
    if _nbytes(word) > max_bytes:
        return [(unknown or word, start, start + len(word))]
    pieces, i = [], 0
    while i < len(word):
        end = len(word)
        while end > i:
            piece = word[i:end] if i == 0 else suffix + word[i:end]
            if piece in ids:
                break
            end -= 1
        if end == i:
            return [(unknown or word, start, start + len(word))]
        pieces.append((piece, start + i, start + end))
        i = end
    return pieces


class WordpieceTokenizer(TextTensorOperation):
    """Splits each token of a 1-D array into the longest pieces found in vocab (later pieces
    prefixed with suffix_indicator); a token that cannot be split, or is longer than
    max_bytes_per_token bytes, becomes unknown_token (stays itself when unknown_token is '')."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 with_offsets=False):
        _check_wordpiece(vocab, suffix_indicator, max_bytes_per_token, unknown_token)
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.with_offsets = _check_bool("with_offsets", with_offsets)

    def _apply(self, value):
        array = _strings("WordpieceTokenizer", value)
        if array.ndim > 1:
            raise RuntimeError("WordpieceTokenizer: the input should be scalar or 1-D, but got %dD." % array.ndim)
        ids = self.vocab._table()
        tokens, starts, limits = [], [], []
        for word in np.atleast_1d(array).tolist():
            for piece, s, e in _wordpiece(word, 0, ids, self.suffix_indicator, self.max_bytes_per_token,
                                          self.unknown_token):
                tokens.append(piece)
                starts.append(_nbytes(word[:s]))
                limits.append(_nbytes(word[:e]))
        if not tokens:
            tokens, starts, limits = [""], [0], [0]
        out = np.array(tokens, dtype=np.str_)
        if not self.with_offsets:
            return out
        return out, np.array(starts, dtype=np.uint32), np.array(limits, dtype=np.uint32)


class BertTokenizer(BasicTokenizer):
    """BasicTokenizer followed by WordpieceTokenizer over vocab."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100, unknown_token="[UNK]",
                 lower_case=False, keep_whitespace=False, normalization_form=NormalizeForm.NONE,
                 preserve_unused_token=True, with_offsets=False):
        super().__init__(lower_case, keep_whitespace, normalization_form, preserve_unused_token, with_offsets)
        _check_wordpiece(vocab, suffix_indicator, max_bytes_per_token, unknown_token)
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token

    def _pieces(self, text):
        ids = self.vocab._table()
        out = []
        for word, start, _ in super()._pieces(text):
            out.extend(_wordpiece(word, start, ids, self.suffix_indicator, self.max_bytes_per_token,
                                  self.unknown_token))
        return out


class AddToken(TextTensorOperation):
    """token added before (begin) or after each 1-D string sequence (each row of a 2-D one)."""

    def __init__(self, token, begin=True):
        self.token = _check_str("token", token)
        self.begin = _check_bool("begin", begin)

    def _apply(self, value):
        array = _strings("AddToken", value)
        if array.ndim not in (1, 2):
            raise RuntimeError("AddToken: input tensor rank should be 1 or 2, but got %d." % array.ndim)
        extra = np.full(array.shape[:-1] + (1,), self.token, dtype=np.array(self.token).dtype)
        return np.concatenate([extra, array] if self.begin else [array, extra], axis=-1)


class Truncate(TextTensorOperation):
    """A 1-D sequence (each row of a 2-D one) cut to at most max_seq_len elements."""

    def __init__(self, max_seq_len):
        self.max_seq_len = _check_int("max_seq_len", max_seq_len, 0)

    def _apply(self, value):
        array = np.asarray(value)
        if array.ndim not in (1, 2):
            raise RuntimeError("Truncate: the input tensor should be of dimension 1 or 2, but got %d."
                               % array.ndim)
        return array[..., :self.max_seq_len]


class JiebaTokenizer:
    """Needs Jieba's dictionary files and library: raises RuntimeError saying so."""

    def __init__(self, *args, **kwargs):
        _not_available("JiebaTokenizer", "the cppjieba library and its HMM and MP dictionary files")


class SentencePieceTokenizer:
    """Needs the SentencePiece library: raises RuntimeError saying so."""

    def __init__(self, *args, **kwargs):
        _not_available("SentencePieceTokenizer", "the SentencePiece library and a trained model")
