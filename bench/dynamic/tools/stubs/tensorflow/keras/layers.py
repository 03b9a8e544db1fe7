"""Stand-in for tensorflow.keras.layers (see ../__init__.py): the names exist, using them raises."""
from .models import _unavailable

Dense = Input = BatchNormalization = LeakyReLU = _unavailable
