"""MindSpore's argument checks of the dataset API (its validator_helpers), with its wording, for
the Python layer's wrappers (map, the sources' constructors)."""

INT32_MAX = 2147483647


def type_check(value, types, name):
    """TypeError unless value is one of types (bool is not an int here)."""
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        raise TypeError("Argument %s with value %s is not of type %s, but got %s."
                        % (name, value, list(types), type(value)))


def check_value(value, low, high, name):
    """ValueError unless low <= value <= high."""
    if value < low or value > high:
        raise ValueError("Input %s is not within the required interval of [%d, %d]." % (name, low, high))


def check_columns(columns, name):
    """A non-empty str, or a non-empty list of distinct non-empty strs."""
    type_check(columns, (list, str), name)
    if isinstance(columns, str):
        if not columns:
            raise ValueError("{0} should not be an empty str.".format(name))
        return
    if not columns:
        raise ValueError("{0} should not be empty.".format(name))
    for i, column_name in enumerate(columns):
        if not column_name:
            raise ValueError("{0}[{1}] should not be empty.".format(name, i))
    for i, column_name in enumerate(columns):
        type_check(column_name, (str,), "{0}[{1}]".format(name, i))
    if len(set(columns)) != len(columns):
        raise ValueError("Every column name should not be same with others in column_names.")


def check_shards(num_shards, shard_id):
    """num_shards in [1, INT32_MAX] and shard_id in [0, INT32_MAX], when given."""
    if num_shards is not None:
        type_check(num_shards, (int,), "num_shards")
        check_value(num_shards, 1, INT32_MAX, "num_shards")
    if shard_id is not None:
        type_check(shard_id, (int,), "shard_id")
        check_value(shard_id, 0, INT32_MAX, "shard_id")
