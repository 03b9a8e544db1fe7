"""Stand-in for tensorflow.keras.models (see ../__init__.py): the names exist, using them raises."""


def _unavailable(*a, **k):
    raise RuntimeError("tensorflow is not available in this capture")


load_model = _unavailable
Model = _unavailable
