# expect error: 7:9: RuntimeError: could not load the data
# expect output: note: caused by KeyError: 'images' (at chained_cause.py:5:16)
def load(d):
    try:
        return d["images"]
    except KeyError as e:
        raise RuntimeError("could not load the data") from e


load({})
